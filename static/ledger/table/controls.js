// The small controls the hand's cards and the 流局 rows share: a stepper, a remove button, a slot for an error.
import { el } from "./dom.js";
import { T } from "./state.js";

export function stepper(label, value, low, high, set) {
  return el("div", { class: "stepper" }, el("span", {}, label),
    el("button", { type: "button", class: "step", "aria-label": `${label} −`, disabled: value <= low, on: { click: () => set(value - 1) } }, "−"),
    el("output", {}, String(value)),
    el("button", { type: "button", class: "step", "aria-label": `${label} +`, disabled: value >= high, on: { click: () => set(value + 1) } }, "+"));
}
export function removeButton(onRemove) {
  return el("button", { type: "button", class: "link remove", "aria-label": T.remove, on: { click: onRemove } }, "✕");
}
// Where the preview puts the errors whose path starts with `path` (preview.js, placeErrors).
export function errorSlot(path) { return el("div", { class: "field-error", "data-error-for": path }); }
