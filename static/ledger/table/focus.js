// Where the focus goes: after each step to the first control of the next one (the keyboard never falls back to
// the page), back to a control redrawn under it; what to tap next brought into view and kept clear of the bar; the
// keypad's keys kept still under the finger.
import { $ } from "./dom.js";
import { state } from "./state.js";

let brought = null;  // the step last brought into view or given the focus as the next one (uncover)
let broughtAt = null;  // how to find it again (selectorOf)
let lookAgain = null;  // the timer of uncover's second look

// `state.intent` names the step a handler led to; it is used once, as soon as that control is there (some come
// with the engine's answer); a control redrawn under the focus (a chip, a stepper) gets it back.
function intentControl() {
  const intent = state.intent;
  if (intent === "seat") return document.querySelector("#seats .seat.pickable:not([disabled])");
  if (intent === "from") return $("pick-self-draw") || document.querySelector("#seats .seat.pickable:not([disabled])");
  if (intent === "more") return $("pick-done");
  if (intent === "kind") return document.querySelector("#picker [data-kind]");
  if (intent === "exhausted") return $("toggle-exhausted");
  if (intent === "save") return $("save");
  if (intent === "next") return $("add-win");
  if (intent === "rows") return document.querySelector("#exhaustion [data-path^='ready.'] button:not([disabled])");
  if (intent && intent.ready !== undefined) {  // the next seat's row at 流局 (a past 血流 winner's mark is fixed)
    return document.querySelector(`#exhaustion [data-path="ready.${intent.ready}"] button:not([disabled])`);
  }
  if (intent && intent.pattern !== undefined) {
    return document.querySelector(`[data-path="events[${intent.pattern}].winners[0]"] [data-pattern][aria-pressed=true]`);
  }
  return null;
}
export function focusNextStep(kept) {
  const active = document.activeElement;
  if (active && active.matches && active.matches("input, textarea, select")) return;
  const target = intentControl();
  if (target && !target.disabled) {
    target.focus({ preventScroll: true });
    keep(target);
    uncover(true);  // the step asked next, in view above the bar (a walk: the kinds of kong sat under it)
    state.intent = null;
    return;
  }
  if (!state.intent && kept && (!active || active === document.body || !active.isConnected)) {
    const again = document.querySelector(kept);
    if (again) again.focus({ preventScroll: true });
  }
}
// Where a button that is about to be redrawn sits, to give it the focus back.
export function focusedButton() {
  const active = document.activeElement;
  return active && active.tagName === "BUTTON" ? selectorOf(active) : null;
}
// How to find a control again once it is drawn anew (the picker and the cards are, with each answer).
function selectorOf(control) {
  if (control.id) return `#${CSS.escape(control.id)}`;  // 完成, 自摸
  if (control.dataset.kind) return `#picker [data-kind="${CSS.escape(control.dataset.kind)}"]`;  // a kind of kong
  const holder = control.closest("[data-path]");
  const mark = ["data-pattern", "data-flag", "data-action", "data-ready", "aria-label"].find(a => control.hasAttribute(a));
  if (!holder || !mark) return null;
  return `[data-path="${CSS.escape(holder.dataset.path)}"] [${mark}="${CSS.escape(control.getAttribute(mark))}"]`;
}
export function rememberFocus() {
  const active = document.activeElement;
  if (!active || !active.dataset || !active.dataset.field) return null;
  const holder = active.closest("[data-path]");
  return { path: holder ? holder.dataset.path : null, field: active.dataset.field,
           start: active.selectionStart, end: active.selectionEnd };
}
export function restoreFocus(focus) {
  if (!focus || !focus.path) return;
  const holder = document.querySelector(`[data-path="${CSS.escape(focus.path)}"]`);
  const field = holder && holder.querySelector(`[data-field="${focus.field}"]`);
  if (!field || field === document.activeElement) return;
  field.focus({ preventScroll: true });
  try { field.setSelectionRange(focus.start, focus.end); } catch (e) { /* not a text field */ }
}

// What to tap next may be far above the button that asked for it (the seats), or fall under the sticky bar
// (the ready players at 流局): bring it to the middle of the screen unless it is in full view already. The page's
// scroll padding is the bar's height (app.css, bar.js), so "the middle" is the middle of what the bar leaves.
export function bringIntoView(id) {
  const target = $(id);
  if (!target || target.hidden) return;
  keep(target);
  if (outOfView(target) === false) return;
  target.scrollIntoView({ block: "center", behavior: "smooth" });
}
// The step kept clear of the bar as it grows (uncover): never a control of the bar itself (保存本局 is in it).
function keep(target) {
  const bar = $("bar");
  brought = bar && bar.contains(target) ? null : target;
  broughtAt = brought && selectorOf(brought);
}
// Whether some of it is above the screen or under the bar; null when it is not on the page.
function outOfView(target) {
  if (!target.isConnected || !target.getClientRects().length) return null;
  const box = target.getBoundingClientRect();
  return box.top < 0 || box.bottom > barTop();
}
function barTop() { const bar = $("bar"); return bar ? Math.min(bar.getBoundingClientRect().top, window.innerHeight) : window.innerHeight; }
// The step asked next is brought into view wherever it is (focusNextStep); when the bar grows (a preview came in
// after a reload, or after the step was asked; a walk at 360 × 400 saw 完成 half under it), only a step the bar now
// lies over is brought back above it. Until the player's own next tap, key or scroll: it never pulls the page
// away from where they went.
export function uncover(wherever, again) {
  // Drawn again with each answer: 完成 (or the next row at 查叫) brought into view before the preview came is not
  // the one on the page after it (a walk: 完成 stayed under the bar that the answer grew).
  if (brought && !brought.isConnected && broughtAt) brought = document.querySelector(broughtAt);
  if (!brought || !outOfView(brought)) return;
  const box = brought.getBoundingClientRect();
  if (wherever || (box.bottom > barTop() && box.top < window.innerHeight)) {
    brought.scrollIntoView({ block: "nearest", behavior: "smooth" });
    // Aimed with the bar's height as it was: look once more when the smooth scroll is over, as the bar's growing does
    // (a walk: after a reload a 流局's row came to rest under the grown bar). A timer: Safari has no `scrollend`.
    clearTimeout(lookAgain);
    if (!again) lookAgain = setTimeout(() => uncover(false, true), 700);
  }
}
["pointerdown", "keydown", "wheel", "touchmove"].forEach(type => document.addEventListener(type, () => { brought = null; },
  { capture: true, passive: true }));
// The keys stay under the finger: what grows or shrinks above them (the hand's next line of tiles, its reading)
// scrolls the page by as much (a walk: each new line moved the keys a row down, and a fast tap fell on the key above).
export function keysStill(box, change) {
  const keys = box && box.querySelector(".keypad");
  const before = keys ? keys.getBoundingClientRect().top : null;
  change();
  const now = box && box.querySelector(".keypad");
  if (before === null || !now || before < 0 || before > window.innerHeight) return;  // not on screen: let it be
  const shift = now.getBoundingClientRect().top - before;
  if (shift) window.scrollBy(0, shift);
}
