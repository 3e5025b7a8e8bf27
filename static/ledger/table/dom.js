// Small DOM helpers shared by the table page's modules.
export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "class") node.className = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export const union = (a, b) => [...a, ...b.filter(x => !a.includes(x))];

export function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);  // crypto.randomUUID needs https; phones on a LAN use plain http
  return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
}

// A tap in progress: a redraw now replaces the button under the finger, and the tap is lost (a CI run lost a pattern
// chip's tap to the preview's answer; so would a player tapping fast). What redraws waits until the tap has ended,
// its click included, and never more than a moment (a pointer whose release was lost holds nothing for long).
let pressed = false;
let held = [];
function flushHeld() {
  if (pressed) return;
  const fns = held;
  held = [];
  fns.forEach((fn) => fn());
}
document.addEventListener("pointerdown", () => { pressed = true; }, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => { pressed = false; setTimeout(flushHeld, 60); }, true);
}
export function afterTap(fn) {
  if (!pressed) { fn(); return; }
  held.push(fn);
  setTimeout(() => { pressed = false; flushHeld(); }, 1500);
}
// The same for a promise's value: `.then(afterTapped)` goes on once no tap is in progress.
export const afterTapped = (value) => new Promise((done) => afterTap(() => done(value)));
