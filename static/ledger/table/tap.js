// A tap in progress: a redraw now replaces the button under the finger, and the tap is lost (a CI run lost a pattern
// chip's tap to the preview's answer; so would a player tapping fast). What would redraw waits until every finger is
// up and the tap's click has been handled, and runs in the order it came; never longer than 1.5 s after the last
// finger went down (a pointer whose release is lost holds nothing for long).
const down = new Set();
let held = [];
let limit = null;
let settle = null;
function release() {
  clearTimeout(settle);
  settle = null;
  if (down.size) return;
  const fns = held;
  held = [];
  for (const fn of fns) {
    try { fn(); } catch (error) { console.error(error); }  // one failing never drops the ones behind it
  }
}
document.addEventListener("pointerdown", (e) => {
  down.add(e.pointerId);
  clearTimeout(limit);
  limit = setTimeout(() => { down.clear(); release(); }, 1500);
}, true);
document.addEventListener("pointerup", (e) => {
  down.delete(e.pointerId);
  if (!down.size) { clearTimeout(settle); settle = setTimeout(release, 350); }  // a tap that makes no click
}, true);
document.addEventListener("pointercancel", (e) => { down.delete(e.pointerId); if (!down.size) release(); }, true);
// The tap's click: what waited runs once the click's own handlers have, and what comes after runs at once (a
// preview asked by the click is not held for the no-click fallback above).
document.addEventListener("click", () => {
  if (down.size) return;
  clearTimeout(settle);
  settle = setTimeout(release, 0);
}, true);

export function afterTap(fn) {
  if (!down.size && !held.length && settle === null) { fn(); return; }
  held.push(fn);
}
// The same for a promise's value: `.then(afterTapped)` goes on once no tap is in progress.
export const afterTapped = (value) => new Promise((done) => afterTap(() => done(value)));
