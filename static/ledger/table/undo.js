// After a hand saved online (?saved=N): the toast with 撤销 for a few seconds; an undone hand (?undone=N) comes
// back into the form.
import { $, el, newKey } from "./dom.js";
import { postJSON } from "./requests.js";
import { awayOnNextHand, toast } from "./toast.js";
import { T, cfg, saveDraft, state, takeDraft } from "./state.js";

// An undone hand comes back into the form, to be put right and saved again (a walk: 撤销 only voided it, and the
// whole hand had to be entered again), unless the next hand's entry has been begun meanwhile.
function backIntoTheForm(hand) {
  const record = (hand && hand.record) || {};
  if (state.entry.events.length || state.entry.exhausted || !Array.isArray(record.events)) return;
  const entry = { events: record.events, exhausted: !!record.exhausted, ready: record.ready || {}, hua_zhu: record.hua_zhu || [] };
  state.draft = { entry, key: newKey() };
  takeDraft(); saveDraft();
}
// The hand just undone (?undone=N): back in the form, and said so.
function showUndone() {
  // An undone hand keeps its number (voided, in every list): saved again, it is the next one (a walk: the table's
  // own count fell one behind without a word).
  toast(T.undoneHand.replace("%(n)s", cfg.undone).replace("%(next)s", cfg.top + 1));
  history.replaceState(null, "", cfg.tableUrl);
}
// The hand just saved online (?saved=N), with its undo; or just undone.
export function showSaved() {
  if (cfg.undone) showUndone();
  if (!cfg.saved) return;
  const toast = $("toast"), number = cfg.saved;
  let hide = null;
  toast.hidden = false;
  const said = el("span", {}, `${T.savedHand.replace("%(n)s", number)} `);
  // An undo that does not reach the server says so, and the hand stays recorded (it went silently: the table
  // believed the hand undone). The button stays, to try again.
  const notUndone = why => {
    clearTimeout(hide);
    said.textContent = `${T.notUndone.replace("%(n)s", number)}${why} `;
    said.className = "error";
  };
  const key = newKey();  // one undo, however many taps: the void is idempotent
  toast.append(said, el("button", { type: "button", class: "chip", id: "undo", on: { click: () => {
    // "undo" is shown as 已撤销 / Undone in the page's language.
    postJSON(cfg.voidUrl.replace("{n}", number), { reason: "undo" }, { "Idempotency-Key": key }).then(({ ok, data }) => {
      if (ok) { backIntoTheForm(data); window.location = `${cfg.tableUrl}?undone=${number}`; }
      else notUndone(((data && data.errors) || []).map(e => e.message).join(" "));
    }).catch(() => notUndone(T.noNetwork));
  } } }, T.undo));
  history.replaceState(null, "", cfg.tableUrl);
  // The same entry as the hand before, moments apart: most likely one hand recorded on two phones. Said for longer,
  // with the way to void one (nothing is voided by itself: a hand may also have gone the same way twice).
  if (cfg.sameAs) toast.append(el("p", { class: "error same-as" }, `${T.sameAs.replace("%(n)s", cfg.sameAs)} `,
    el("a", { href: `${cfg.handsUrl}#hand-${number}` }, T.voidOne)));
  hide = setTimeout(() => { toast.hidden = true; }, cfg.sameAs ? 30000 : 10000);
  if (!cfg.sameAs) awayOnNextHand();  // a warning of a hand saved twice stays its time
}
