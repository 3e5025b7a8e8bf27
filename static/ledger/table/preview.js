// The preview: the engine's answer for the entry as it is (asked a moment after each change, only the latest
// answer shown), its payments in the bar, its errors next to what they are about, whether the hand may be saved.
import { followBounds } from "./bounds.js";
import { $, el } from "./dom.js";
import { afterTap, afterTapped } from "./tap.js";
import { placeErrors, said, shortHand, untyped } from "./errors.js";
import { focusNextStep } from "./focus.js";
import { askPreview } from "./requests.js";
import { answeredSteps } from "./steps.js";
import { stepWords } from "./seats.js";
import { dealerNow } from "./table_queue.js";
import { T, awaiting, body, changed, name, render, robbed, state } from "./state.js";

let sent = 0;  // preview requests sent: only the answer to the latest one is shown
let previewTimer = null;

export function schedulePreview(delay) {
  state.current = false;
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, delay === undefined ? 150 : delay);
}
export function preview() {
  previewTimer = null;
  const mine = ++sent;
  const asked = JSON.stringify(body());
  askPreview(body(), dealerNow()).then(afterTapped).then(({ ok: answered, status, data }) => {
    // A newer request is on its way (or about to be, for an entry changed since: 没有牌 flashed as tiles were typed).
    if (mine !== sent || (previewTimer !== null && asked !== JSON.stringify(body()))) return;
    // Too many requests, or the server failing for a moment: asked again shortly, or the buttons the last choices
    // turned off would wait for the next tap.
    if (!data.choices && (status === 429 || status >= 500)) {
      setTimeout(() => { if (mine === sent && asked === JSON.stringify(body())) preview(); }, 2000);
    }
    const ok = answered && !data.so_far;  // an unfinished hand answers 200 with its payments so far
    state.lastResult = ok ? data : null;
    const earlier = state.lastWins;
    state.lastWins = ((ok ? data : data.so_far) || { wins: [] }).wins || [];
    state.choices = data.choices || state.choices;
    // An answer without choices (a 429, a 403 after a role change) leaves the last ones, which are then not the
    // entry's: not current, so no button stays locked by them (流局 stayed off after a failed preview).
    state.current = !!data.choices && asked === JSON.stringify(body());
    // A hand refused as it stands (流局 just marked, a 血流 past winner not yet ready) reads no wins: the ones read
    // a moment before, from the same tiles, still tell what that winner holds.
    const wins = state.lastWins.length ? state.lastWins : earlier;
    if (state.choices && state.current && followBounds(wins)) { changed(0); return; }
    if (state.current && answeredSteps()) return;
    render();
    showPreview(ok, data);
    focusNextStep(null);
    if (state.current) document.dispatchEvent(new Event("ledger:previewed"));  // a save tapped meanwhile (save.js)
  }).catch(() => afterTap(() => {  // as an answer is drawn: not under a finger (tap.js)
    if (mine === sent) showOffline();
  }));
}
function reasonWords(p) {
  const event = p.event === null ? null : state.entry.events[p.event];
  return p.reason === "discard" && event && robbed(event) ? T.robbedKong : T.reasons[p.reason] || p.reason;
}
function showOffline() {
  $("preview").className = "preview card bad";
  $("preview").replaceChildren(el("p", { class: "error" }, T.offline));
}
export function showPreview(answered, data) {
  const box = $("preview");
  const waiting = awaiting();  // who dealt in is still asked: no payments shown, nothing to save
  const ok = answered && !waiting;
  const result = waiting ? null : ok ? data : data.so_far;
  const errors = ok ? [] : (data.errors || []);
  const typing = errors.filter(e => untyped(e) || shortHand(e));  // tiles still to type: the next step
  // Who dealt in, while the picker asks it, is a question on screen, not a mistake to show ("…（from）").
  const asked = waiting ? `events[${state.pick.event}].from` : null;
  const rest = errors.filter(e => !untyped(e) && e.path !== asked);
  const general = placeErrors(rest);
  box.replaceChildren();
  // An unfinished hand is said in the table's words next to the save button; other problems above it.
  const unfinished = !ok && state.choices && !state.choices.complete;
  // Red only for a mistake: a hand not over yet (or not begun), or tiles still to type, is none: a neutral border.
  const quiet = !ok && rest.every(e => shortHand(e) || (unfinished && e.path === "exhausted"));
  box.className = "preview card" + (waiting ? "" : ok ? " good" : quiet ? " pending" : " bad");
  if (result) {
    const net = el("div", { class: "net" });
    if (!ok) net.append(el("span", { class: "muted" }, T.soFar));
    result.net.forEach((amount, seat) => {
      const n = Number(amount);
      net.append(el("span", { class: "amount " + (n > 0 ? "pos" : n < 0 ? "neg" : "") }, `${name(seat)} ${n > 0 ? "+" : ""}${amount}`));
    });
    const list = el("ul", { class: "payments" });
    result.payments.forEach(p => list.append(el("li", {}, `${name(p.from)} → ${name(p.to)} ${p.amount}` + T.inParens.replace("%(what)s", reasonWords(p)))));
    if (!result.payments.length) list.append(el("li", { class: "muted" }, T.noPayments));
    box.append(net, list);
  }
  const shown = unfinished ? general.filter(m => !rest.some(e => e.path === "exhausted" && said(e) === m)) : general;
  // Nothing wrong but tiles still to type (and, perhaps, the hand not over yet): say the next step.
  const toType = quiet && typing.length > 0;
  if (shown.length) box.append(el("div", { class: "general-errors" }, ...shown.map(m => el("p", { class: "error" }, m))));
  // Not over yet is no error: said in plain words (a new hand says how to start), never in red.
  const entry = body();
  const fresh = !(entry.events || []).length && !entry.exhausted;
  // Nothing to say until the question is answered, nor when every error stands by its field (an empty red box), nor
  // for a hand not begun (its "so far: nobody won or lost" covered the + 胡牌 buttons on a phone).
  box.hidden = (waiting && !shown.length) || !box.childElementCount || (fresh && !shown.length);
  state.canSave = ok;
  $("save").disabled = !ok;
  $("save-hint").textContent = waiting ? (state.pick.mode === "from" ? T.pickFrom : T.pickKongFrom) : stepWords()
    || (ok ? "" : toType ? T.typeTiles : (unfinished && quiet ? (fresh ? T.startHint : T.notFinished) : T.fixFirst));
  // A hand not over whose win is refused (a 0-fan discard win at a table that needs 1) has a mistake to fix first:
  // it said "not over yet" (a walk), in grey.
  $("save-hint").classList.toggle("pending", waiting || !!stepWords() || (!ok && quiet && (!!unfinished || toType)));
}
