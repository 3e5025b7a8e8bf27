// The engine's errors on the table page: each by the field it is about (else in the bar), and which of them are
// no mistake yet (tiles still to type).
import { T, state } from "./state.js";

// Each error goes to the most specific slot whose path starts its path; the rest are shown in the bar.
export function placeErrors(errors) {
  document.querySelectorAll(".field-error").forEach(n => { n.textContent = ""; });
  const slots = Array.from(document.querySelectorAll("[data-error-for]"));
  const general = [];
  errors.forEach(err => {
    const match = slots.filter(n => { const p = n.dataset.errorFor;
      return err.path === p || err.path.startsWith(p + ".") || err.path.startsWith(p + "["); })
      .sort((a, b) => b.dataset.errorFor.length - a.dataset.errorFor.length)[0];
    if (match) match.textContent += (match.textContent ? T.semicolon : "") + err.message;
    else general.push(err.message);
  });
  return general;
}
// Tiles not typed yet (the keypad has just opened: "tiles": "") are the next step, not a mistake: never in red.
// The keypad's 手牌 0/14 shows it, and the hint by the save button says what to do.
export function untyped(err) {
  const m = /^(?:events\[(\d+)\]\.winners\[(\d+)\]|ready\.(\d+))\.tiles$/.exec(err.path || "");
  if (!m) return false;
  const entry = state.entry;
  const target = m[3] === undefined ? ((entry.events[Number(m[1])] || {}).winners || [])[Number(m[2])]
    : entry.ready[m[3]];
  return !!target && target.tiles === "";
}
