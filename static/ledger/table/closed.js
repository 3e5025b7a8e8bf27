// The night closed on another phone while this one was entering a hand (a walk: the form stayed, and its save was
// refused with "先改正上面的问题才能保存" under a hand with nothing wrong). The entry goes and the page says why, as
// the live page does when its close arrives (live.js); here when a save is refused because the night is closed.
export const closedRefusal = (errors) => (errors || []).some((e) => e.path === "night");

export function showClosed() {
  document.querySelectorAll("[data-live-hide-closed]").forEach((n) => { n.hidden = true; });
  document.querySelectorAll("[data-live-show-closed]").forEach((n) => { n.hidden = false; });
}
