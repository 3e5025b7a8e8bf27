// The sticky bar with the preview and the save button: it shrinks to one line of nets while a field has focus or
// the keyboard is open; a tap expands it.
import { $ } from "./dom.js";

const bar = $("bar");
const keyboardOpen = () => window.visualViewport && window.visualViewport.height < window.innerHeight * 0.75;
export function fitBar() {
  const typing = document.activeElement && document.activeElement.matches("input, textarea");
  bar.classList.toggle("compact", !!typing || keyboardOpen());
  document.documentElement.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
}
// Tapping a button while a field has focus moves the focus first: growing the bar then would move the button
// from under the finger and lose the tap. While a finger (or the mouse) is down, the bar waits for the tap to end.
let pressing = false;
const fitSoon = () => setTimeout(() => { if (!pressing) fitBar(); }, 50);
export function setupBar() {
  document.addEventListener("pointerdown", () => { pressing = true; }, true);
  ["pointerup", "pointercancel"].forEach(type => document.addEventListener(type, () => {
    pressing = false;
    setTimeout(fitBar, 400);  // after the click that ends the tap
  }, true));
  // A field taking the focus shrinks the bar at once (the keyboard is coming); anything else waits for the tap.
  document.addEventListener("focusin", e => (e.target.matches("input, textarea") ? fitBar() : fitSoon()));
  document.addEventListener("focusout", fitSoon);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", fitSoon);
  $("preview").addEventListener("click", () => { bar.classList.toggle("expanded"); fitBar(); });
}
// The bar's height follows it as it grows and shrinks (a preview come in, not only a tap), and what it grew over
// is brought back above it (focus.js).
export function watchBar(uncover) {
  if (!window.ResizeObserver) return;
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
    uncover();
  }).observe(bar);
}
