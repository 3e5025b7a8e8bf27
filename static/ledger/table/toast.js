// The toast above the bar: what just happened to a hand (saved, kept on the phone, sent under another number), for a
// few seconds, or until the next hand begins (it covered the bar and its save button: three walks).
import { $, el } from "./dom.js";

// kind "queued": the hand waits on the phone; the queue takes the toast away once it is sent (it said "sent when
// the network is back" after it had gone). `extra`: nodes after the words (a button).
export function toast(text, kind = "", extra = [], ms = 6000) {
  const box = $("toast");
  if (!box) return;
  box.dataset.kind = kind;
  box.replaceChildren(el("span", {}, text), ...extra.flatMap((node) => [" ", node]));
  aboveBar(box);
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, ms);
  awayOnNextHand();
}
// Beginning the next hand takes the toast away.
export function awayOnNextHand() {
  for (const id of ["add-win", "add-kong", "toggle-exhausted"]) {
    const button = $(id);
    if (button) button.addEventListener("click", () => { $("toast").hidden = true; }, { once: true });
  }
}
// Above the save bar, never over 保存本局 (a walk: a notice hid it for 10 s); the bar's height changes as it goes, so
// it is measured each time a toast shows.
export function aboveBar(box) {
  const bar = $("bar");
  const top = bar && !bar.hidden ? bar.getBoundingClientRect().top : window.innerHeight;
  box.style.bottom = `${Math.max(12, window.innerHeight - top + 8)}px`;
}
