// The toast at the top of the screen: what just happened to a hand (saved, kept on the phone, sent under another
// number), for a few seconds, or until the next hand begins (at the bottom it covered the save button or + 胡牌).
import { $, el } from "./dom.js";

// kind "queued": the hand waits on the phone; the queue takes the toast away once it is sent (it said "sent when
// the network is back" after it had gone). `extra`: nodes after the words (a button).
export function toast(text, kind = "", extra = [], ms = 6000) {
  const box = $("toast");
  if (!box) return;
  box.dataset.kind = kind;
  box.replaceChildren(el("span", {}, text), ...extra.flatMap((node) => [" ", node]));
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
