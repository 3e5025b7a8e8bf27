// Saving: a new hand through the queue on the phone (then out to the server in order), a correction straight to
// the server; then the next hand, and the toast that says what happened (toast.js; undo.js: the undo of a hand
// saved online).
import { closedRefusal, showClosed } from "./closed.js";
import { $, newKey } from "./dom.js";
import { isOffline } from "./offline.js";
import { enqueue, queued, remove, update } from "./queue.js";
import { preview, showPreview } from "./preview.js";
import { postJSON } from "./requests.js";
import { dealerNow, fixing, flush, nextNumber, readQueue } from "./table_queue.js";
import { T, body, cfg, changed, emptyEntry, saveDraft, state, takeDraft } from "./state.js";
import { toast } from "./toast.js";

// One idempotency key per hand, kept with the draft: a retry after a lost answer or a reload never
// records the hand twice.
// Tapped while the entry's preview is still asked (a chip tapped, then 保存本局 at once), it is saved once that answer
// is in and allows it, never on the answer for the entry before (a review: offline that queued stale nets).
export function save() {
  if (!state.current) { state.saveAsked = true; return; }
  state.saveAsked = false;
  if (!state.canSave) return;
  if (cfg.correcting) { saveCorrection(); return; }
  state.saving = true;  // its own hand coming back live is not "saved on another phone" (night_changes.js)
  saveHand().then((leaving) => { if (!leaving) state.saving = false; }, () => { state.saving = false; });
}
document.addEventListener("ledger:previewed", () => { if (state.saveAsked) save(); });
function saveCorrection() {
  const payload = body();
  const reason = $("reason").value.trim();
  if (!reason) { $("reason").focus(); $("save-hint").textContent = T.reasonNeeded; return; }
  payload.reason = reason;
  $("save").disabled = true;
  postJSON(cfg.saveUrl, payload, { "Idempotency-Key": state.draft.key }).then(({ ok, status, data }) => {
    $("save").disabled = false;
    // 422: this key was used for another version of the hand, whose answer was lost: it may be saved already.
    if (status === 422) { $("save-hint").textContent = T.maybeSaved; return; }
    if (!ok && closedRefusal(data.errors)) { showClosed(); return; }
    if (!ok) { preview(); showPreview(false, { errors: data.errors || [], so_far: null }); return; }
    localStorage.removeItem(cfg.draftKey);
    localStorage.removeItem(`${cfg.draftKey}:reason`);
    // Back where the correction was opened (the table page or the hand list), which says it was saved.
    const done = new URL(cfg.doneUrl, window.location.href);  // the hand list: at the corrected hand's card
    done.searchParams.set("corrected", cfg.correcting);
    window.location = done.href;
  }).catch(() => { $("save").disabled = false; $("save-hint").textContent = T.offline; });
}

// A new hand goes into the queue on the phone first (nothing is lost from here on), then out to the server in
// order with the hands before it. Entered offline, it carries the dealer it was entered under, so the server
// scores it as the table saw it; entered online, the server's next dealer stands, as before.
async function saveHand() {
  $("save").disabled = true;
  const payload = body();
  const held = fixing();  // a refused hand put right: it goes back in its place, with its dealer
  const item = { night: cfg.night, key: state.draft.key, payload, dealer: dealerNow(), number: nextNumber(),
                 names: cfg.players.slice(), net: state.lastResult ? state.lastResult.net : [],
                 next_dealer: state.lastResult ? state.lastResult.next_dealer : dealerNow(),
                 offline: isOffline() || !!(held && held.offline),
                 entered_at: new Date().toISOString(), state: "waiting", errors: [] };
  if (item.offline) payload.dealer = item.dealer;
  try {
    if (held && state.draft.replaces === held.id) await update({ ...item, id: held.id });
    else await enqueue(item);
  } catch (noStorage) {  // private mode without IndexedDB: the old way, straight to the server
    return saveStraight(payload);
  }
  localStorage.removeItem(cfg.draftKey);
  // Saved with the network up (a hand put right carries its offline dealer, but is sent now): answered at once.
  const online = !isOffline();
  const landed = await flush();
  const mine = landed.find((h) => h.key === item.key);
  if (mine && online && landed.length === 1) { window.location = `${cfg.tableUrl}?saved=${mine.number}`; return true; }
  const [still] = (await queued(cfg.night)).filter((h) => h.key === item.key);
  // Refused because the night is closed: it stays in the queue with the server's words (the one copy of it: the
  // form starts afresh), to be put right if the night is opened again, or dropped.
  if (still && still.state === "refused" && online && still.closed) { showClosed(); startOver(); await readQueue(); return; }
  if (still && still.state === "refused" && online) {
    // Refused at once, online: the entry goes back to the form with the server's words, as before the queue; a
    // hand being put right keeps its place (the hands behind it still wait).
    if (held) await update({ ...still, state: "editing" });
    else await remove(still.id);
    await readQueue();
    saveDraft();
    $("save").disabled = false;
    preview();
    showPreview(false, { errors: still.errors.map((message) => ({ path: "", message })), so_far: null });
    return;
  }
  startOver();
  toast(mine ? T.savedHand.replace("%(n)s", mine.number) : T.queuedToast, mine ? "" : "queued");
}
function saveStraight(payload) {
  postJSON(cfg.saveUrl, payload, { "Idempotency-Key": state.draft.key }).then(({ ok, status, data }) => {
    $("save").disabled = false;
    if (status === 422) { $("save-hint").textContent = T.maybeSaved; return; }
    if (!ok && closedRefusal(data.errors)) { showClosed(); return; }
    if (!ok) { preview(); showPreview(false, { errors: data.errors || [], so_far: null }); return; }
    localStorage.removeItem(cfg.draftKey);
    window.location = `${cfg.tableUrl}?saved=${data.number}`;
  }).catch(() => { $("save").disabled = false; $("save-hint").textContent = T.offline; });
}
// The next hand: a fresh entry and key, its dealer after the hands waiting in the queue.
function startOver() {
  state.draft = { entry: emptyEntry(), key: newKey() };
  takeDraft();
  state.pick = null; state.choices = null; state.current = false; state.lastResult = null; state.lastWins = [];
  $("save").disabled = true;
  changed(0);
}
