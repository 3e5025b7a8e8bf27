// What the engine found in a winner's tiles beyond their pattern: the house's 门清 and 中张 (RULES.md §10), which a
// winner given by tiles does not choose (no chip for them), said after the tiles' reading with the fan the win is
// paid at (a walk: "对对胡 · 2番" beside a win paid at 4).
import { T, cfg, state } from "./state.js";

export const TILE_DECIDED = ["men_qing", "zhong_zhang"];

// `path`: the winner's (events[0].winners[1]); the preview's last reading of the entry says what it found.
export function foundNote(path) {
  const m = /^events\[(\d+)\]\.winners\[(\d+)\]$/.exec(path), e = m ? Number(m[1]) : -1;
  const w = m && ((state.entry.events[e] || {}).winners || [])[Number(m[2])];
  const win = w && (state.lastWins || []).find((x) => x.event === e && x.player === w.player);
  const found = win ? (win.flags || []).filter((f) => TILE_DECIDED.includes(f)) : [];
  // The win's fan is the preview's (with its other flags and the cap), not a sum of the line's: said as such.
  return found.length ? ` + ${found.map((f) => cfg.modifiers[f]).join(T.comma)} · ${(T.winFan || T.fanN).replace("%(n)s", win.fan)}` : "";
}
