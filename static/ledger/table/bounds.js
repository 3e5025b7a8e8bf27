// The entry follows the engine's bounds: roots within the pattern's range, ready and 花猪 marks among the seats the
// engine names, and a 血流 past winner marked ready at 查叫 with the fan of the hand it holds.
import { cfg, robbed, state, winnerChoices } from "./state.js";

// When the engine's bounds move (a winner's own kongs raise the least roots; another pattern allows
// fewer), the steppers follow: roots start at the winner's kongs. `wins`: the wins the engine last read from the
// entry (a win typed as tiles has its pattern and roots there only).
export function followBounds(wins) {
  const entry = state.entry, choices = state.choices;
  let moved = false;
  entry.events.forEach((e, i) => {
    if (e.type !== "win") return;
    e.winners.forEach(w => {
      const wc = winnerChoices(i, w.player);
      const range = wc && w.pattern !== undefined ? wc.patterns.find(p => p.code === w.pattern) : null;
      if (!range) return;
      const roots = Math.min(Math.max(w.roots || 0, range.min_roots), range.max_roots);
      if (roots !== (w.roots || 0)) { w.roots = roots; moved = true; }
    });
  });
  const ready = choices.ready ? choices.ready.seats : [];
  for (const key of Object.keys(entry.ready)) if (!ready.includes(Number(key))) { delete entry.ready[key]; moved = true; }
  // 血流成河: every past winner is ready at 查叫 (RULES.md §9), so they are marked at once and asked only for a fan.
  // The marks made so are remembered with the draft: a seat no longer required (its win taken back with ✕) is
  // unmarked again, not left ready at the least fan for the others to pay 查叫 to.
  const required = (entry.exhausted && choices.ready && choices.ready.required) || [];
  const marked = state.draft.autoReady || [];
  for (const seat of marked) {
    if (!required.includes(seat) && entry.ready[String(seat)]) { delete entry.ready[String(seat)]; moved = true; }
  }
  const kept = marked.filter(s => required.includes(s));
  // The fan a mark was given stands for the hand the seat won with: it follows that hand (tiles typed or changed
  // after 流局) until it is changed with the stepper. `autoFan`: the fan each mark was last given so.
  const given = state.draft.autoFan || {};
  for (const seat of required) {
    const key = String(seat), mark = entry.ready[key];
    if (!mark) {
      entry.ready[key] = { fan: heldFan(seat, wins) }; given[key] = entry.ready[key].fan; kept.push(seat); moved = true;
    } else if (kept.includes(seat) && mark.tiles === undefined && wins.length) {
      const fan = heldFan(seat, wins);
      // A hand brought back (撤销, 更正): a mark at the fan the rules give is theirs, and follows from now on.
      if (given[key] === undefined && mark.fan === fan) given[key] = fan;
      else if (mark.fan === given[key] && fan !== mark.fan) { mark.fan = fan; given[key] = fan; moved = true; }
    }
  }
  state.draft.autoReady = kept;
  state.draft.autoFan = Object.fromEntries(kept.map(s => [String(s), given[String(s)]]));
  const pigs = entry.hua_zhu.filter(s => (choices.hua_zhu || []).includes(s));
  if (pigs.length !== entry.hua_zhu.length) { entry.hua_zhu = pigs; moved = true; }
  return moved;
}

// A past winner of 血流 still holds the hand it won with, so its ready fan starts at its last win's: the pattern's fan
// and the roots, not that win's own extras (自摸, 杠上花…), and a root for each kong it made since (a walk: a 直杠
// after the win was left out), within the pattern's roots and the ready bounds; changed with the stepper if the hand
// has grown otherwise. A win typed as tiles takes the pattern and roots the engine found in its tiles. The shapes the
// tiles alone decide count at 查叫 where the night gives them fan (RULES.md §6): 门清 and 金钩钓 of that win (a direct
// kong since breaks 门清), and 中张 under 查大 only: whether a wait is 中张 depends on its tile (a 9 among the waits
// makes 查小's least fan one without it).
function heldFan(seat, wins) {
  const bounds = state.choices.ready, events = state.entry.events;
  const rules = (cfg.engine && cfg.engine.rules) || {};
  let held = null, since = 0, shapes = [];
  events.forEach((e, i) => {
    if (ownKong(e, i, seat)) {
      since += 1;
      if (e.kind !== "concealed") shapes = shapes.filter(f => f !== "men_qing");
    }
    const w = e.type === "win" ? e.winners.find(x => x.player === seat) : null;
    const read = w && w.pattern === undefined ? wins.find(x => x.event === i && x.player === seat) : null;
    const won = read ? { pattern: read.pattern, roots: read.roots, flags: read.flags } : w;
    const wc = won && won.pattern !== undefined ? winnerChoices(i, seat) : null;
    const range = wc ? wc.patterns.find(p => p.code === won.pattern) : null;
    if (range) {
      held = { range, roots: won.roots || 0 }; since = 0;
      shapes = (won.flags || []).filter(f => f in SHAPE_FANS && (f !== "zhong_zhang" || rules.cha_jiao === "max"));
    }
  });
  const extra = shapes.reduce((sum, f) => sum + (Number(rules[SHAPE_FANS[f]]) || 0), 0);
  const fan = held ? held.range.fan + Math.min(held.roots + since, held.range.max_roots) + extra : bounds.min_fan;
  return Math.min(Math.max(fan, bounds.min_fan), bounds.max_fan);
}
const SHAPE_FANS = { men_qing: "men_qing_fan", zhong_zhang: "zhong_zhang_fan", jin_gou_diao: "jin_gou_diao_fan" };
const ownKong = (e, i, seat) => e.type === "kong" && e.player === seat && !robbed(state.entry.events[i + 1] || { type: "" });

// A player marked ready by a tap starts at a root for each kong of theirs this hand (a kong is four of a kind, RULES.md
// §3): the stepper said 0 beside two kongs, and 查叫 came out at ×1 (a walk). A 血流 past winner starts at the hand
// it holds (also when it comes back from tiles to the stepper: it fell to its kongs). Changed with the stepper.
export function readyStartFan(seat) {
  const bounds = state.choices && state.choices.ready ? state.choices.ready : { min_fan: 0, max_fan: 0, required: [] };
  if ((bounds.required || []).includes(seat)) {
    const fan = heldFan(seat, state.lastWins || []);
    const given = state.draft.autoFan = state.draft.autoFan || {};
    given[String(seat)] = fan;  // a fan the rules give: it follows the hand held, as when it was first marked
    return fan;
  }
  const kongs = state.entry.events.filter((e, i) => ownKong(e, i, seat)).length;
  return Math.min(Math.max(kongs, bounds.min_fan), bounds.max_fan);
}
