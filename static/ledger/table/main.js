// The table page: one hand's record, built by tapping, previewed, saved. This module only wires the page up.
// It holds no rule: every preview answer carries the engine's `choices` (who may act, which patterns,
// roots and flags are legal where), and the buttons, chips and steppers are drawn from them. Offline, the same
// answers come from the same engine running in the phone (engine.js), and saved hands wait in a queue (queue.js).
//   state.js      the entry and the engine's last answer; the loop a change goes through (kept, drawn, previewed)
//   draw.js       drawing it all: seats.js (seats, picker), cards.js (wins, kongs), tiles.js, exhaustion.js (查叫)
//   focus.js      where the keyboard's focus goes next
//   preview.js    the preview and its errors, asked through requests.js (the server, or the engine offline)
//   save.js       saving, the next hand (toast.js: what happened; undo.js: 撤销); table_queue.js the queue's side of it
//   bar.js        the sticky bar; night_changes.js what another phone's change does here
import { fitBar, setupBar, watchBar } from "./bar.js";
import { $ } from "./dom.js";
import { render } from "./draw.js";
import { bringIntoView, uncover } from "./focus.js";
import { startEngine } from "./engine.js";
import { followNight } from "./night_changes.js";
import { isOffline, onStatus, setupOffline } from "./offline.js";
import { schedulePreview } from "./preview.js";
import { save } from "./save.js";
import { showSaved } from "./undo.js";
import { tapSeat } from "./seats.js";
import { T, cfg, changed, connect, saveDraft, startAfresh, state } from "./state.js";
import { flush, readQueue, view } from "./table_queue.js";

connect(render, schedulePreview);

// Delegated, so seats redrawn by the live page keep working.
document.addEventListener("click", (ev) => {
  const button = ev.target.closest("#seats .seat");
  if (button && !button.disabled && state.pick) tapSeat(Number(button.dataset.seat));
});
// A step started anew: the half-done one kept with the draft (state.js) is not asked again after a reload.
const start = (mode) => { state.pick = { mode }; state.intent = "seat"; saveDraft(); render(); bringIntoView("seats"); };
$("add-win").addEventListener("click", () => start("winner"));
$("clear").addEventListener("click", () => { if (window.confirm(T.clearConfirm)) startAfresh(); });
$("add-kong").addEventListener("click", () => start("konger"));
$("toggle-exhausted").addEventListener("click", () => {
  const entry = state.entry;
  entry.exhausted = !entry.exhausted;
  if (!entry.exhausted) { entry.ready = {}; entry.hua_zhu = []; }
  state.pick = null; state.intent = entry.exhausted ? "save" : null; changed(0);
  if (entry.exhausted) bringIntoView("exhaustion");
});
setupBar();
$("save").addEventListener("click", save);
showSaved();
// A correction's reason is kept beside its draft: a reload (offline, say) keeps what was typed, as the draft does.
const reason = $("reason");
if (reason) {
  const key = `${cfg.draftKey}:reason`;
  if (!reason.value) reason.value = localStorage.getItem(key) || "";
  reason.addEventListener("input", () => { try { localStorage.setItem(key, reason.value); } catch (e) { /* full */ } });
}

// Turning the picture is every viewer's own choice: static/ledger/turn.js.

// Another phone saved a hand: the next dealer may have changed; the draft stays as it is.
document.addEventListener("ledger:night", followNight);

// Back online: the queue goes out by itself, and the preview is asked of the server again.
onStatus((offline) => {
  if (offline) { if (!cfg.correcting) startEngine(cfg.engine).catch(() => {}); return; }
  flush();
  schedulePreview(0);
});
window.addEventListener("online", () => flush());
// A phone may not say when the network is back (a Wi-Fi without internet): while hands wait, try now and then.
setInterval(() => { if (view.state.waiting.some((h) => (h.state || "waiting") === "waiting")) flush(); }, 15000);

setupOffline(cfg);
// A step kept across a reload has the focus, as it had when asked (it was on + 胡牌, a walk).
if (state.pick) state.intent = { from: "from", more: "more", kind: "kind", kongFrom: "seat" }[state.pick.mode] || null;
// A 流局 kept so: its first row is the step, in focus and clear of the bar (a walk: + 胡牌 had the focus, under the
// bar, and the rows being filled in were out of sight).
if (!state.pick && state.entry.exhausted && !cfg.correcting) state.intent = "rows";
render();
// A step kept across a reload (state.js) is where the eye goes: once the page is loaded, as the browser puts the
// reloaded page back where it was scrolled to at that moment.
if (state.pick) window.addEventListener("load", () => setTimeout(() => bringIntoView("picker"), 0), { once: true });
// A keyboard starts where a hand starts (the page is for recording; a screen reader hears the seats first anyway).
if (!cfg.correcting && !state.entry.events.length && !state.intent) $("add-win").focus({ preventScroll: true });
fitBar(); watchBar(uncover);
if (!cfg.correcting) {
  readQueue().then(() => { schedulePreview(0); if (!isOffline()) flush(); });
} else schedulePreview(0);
// Everything above is wired: tests (and anything else) may wait for this before they tap.
document.documentElement.dataset.tableReady = "true";
