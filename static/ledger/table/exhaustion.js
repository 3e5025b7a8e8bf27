// 流局 / 查叫: at an exhausted wall, who was ready (with the fan, or the tiles, they were waiting on) and who was
// 花猪, among the seats the engine names.
import { $, el } from "./dom.js";
import { readyStartFan } from "./bounds.js";
import { errorSlot, stepper } from "./controls.js";
import { tileEntry } from "./tiles.js";
import { T, changed, name, state } from "./state.js";

export function renderExhaustion() {
  const box = $("exhaustion");
  const choices = state.choices;
  box.hidden = !state.entry.exhausted;
  box.replaceChildren();
  if (!state.entry.exhausted) return;
  box.append(el("strong", {}, T.exhausted), errorSlot("ready"));
  const rc = choices && choices.ready ? choices.ready : { seats: [], min_fan: 0, max_fan: 0 };
  const pigsAllowed = (choices && choices.hua_zhu) || [];
  rc.seats.forEach((seat, k) => {
    const key = String(seat), ready = state.entry.ready[key];
    // After a tap in a row, the next seat's row is the next step: kept in view as the answer grows the bar (a walk:
    // after 花猪 on one row, the rows below sat under the bar).
    const changedRow = () => { if (k + 1 < rc.seats.length) state.intent = { ready: rc.seats[k + 1] }; changed(); };
    // 血流成河: a past winner is ready by the rules (RULES.md §9): marked so, not to be unmarked; only its fan or tiles.
    const fixed = !!ready && (rc.required || []).includes(seat);
    const row = el("div", { class: "ready-row", "data-path": `ready.${key}` });
    row.append(el("span", { class: "who" }, name(seat)),
      el("button", { type: "button", class: "chip" + (ready ? " selected" : ""), "data-ready": key, disabled: fixed,
        "aria-pressed": ready ? "true" : "false", on: { click: () => {
          if (ready) delete state.entry.ready[key];
          else { state.entry.ready[key] = { fan: readyStartFan(seat) }; state.entry.hua_zhu = state.entry.hua_zhu.filter(s => s !== seat); }
          changedRow();
        } } }, ready ? `✓ ${T.isReady}` : T.markReady));
    if (!ready && pigsAllowed.includes(seat)) {
      const pig = state.entry.hua_zhu.includes(seat);
      row.append(el("button", { type: "button", class: "chip" + (pig ? " selected" : ""), "data-hua-zhu": key, on: { click: () => {
        state.entry.hua_zhu = pig ? state.entry.hua_zhu.filter(s => s !== seat) : [...state.entry.hua_zhu, seat]; changedRow();
      } } }, T.huaZhu));
    }
    if (ready) {
      const useTiles = ready.tiles !== undefined;
      row.append(el("button", { type: "button", class: "link", "data-action": "tiles", on: { click: () => {
        state.entry.ready[key] = useTiles ? { fan: readyStartFan(seat) } : { tiles: "", melds: [] }; changed();
      } } }, useTiles ? T.quickFan : T.tiles));  // back to the fan stepper (a ready hand has no pattern to pick)
      row.append(useTiles ? tileEntry(ready, `ready.${key}`, true)
        : stepper(T.fan, ready.fan || 0, rc.min_fan, rc.max_fan, v => { ready.fan = v; changed(); }));
    }
    row.append(errorSlot(`ready.${key}`));
    box.append(row);
  });
}
