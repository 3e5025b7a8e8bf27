// What the rest of the hand's record already holds of each tile, beside the one hand being entered on a keypad, so
// that a key is off for a fifth copy across hands too (a walk tapped 2万 into a second winner's hand). It follows the
// engine's count (RULES.md §7, scoring/invariants.py), made lenient so that a key is never off for a real hand:
// the winners of one discard share one tile, taken here to be any kind they all hold concealed; the engine picks one
// and still says where every copy is. 血流成河 counts a winner's hand on its own and the ready hands together (§9).
// Also here: the keypads open on the page (a tile entered in one redraws the others), and a winner's kong melds
// beyond the kongs recorded for them, both read from the same record.
import { el } from "./dom.js";
import { T, cfg, state } from "./state.js";
import { countsOf } from "./tile_text.js";

const counted = (hand) => {  // {own: concealed counts, all: with the melds}, or null when not given by tiles
  const own = hand.tiles === undefined ? null : countsOf(hand.tiles);
  if (!own) return null;
  const all = own.slice();
  (hand.melds || []).forEach(m => { const c = countsOf(m); if (c) c.forEach((n, t) => { all[t] += n; }); });
  return { own, all };
};

export function elsewhere(target) {
  const counts = new Array(27).fill(0);
  // One group of hands that share one discard (a win's winners), the target among them or not.
  const add = (hands, withTarget) => {
    const read = hands.map(counted).filter(Boolean);
    for (let t = 0; t < 27; t++) {
      const shared = read.length >= (withTarget ? 1 : 2) && read.every(h => h.own[t] > 0);
      counts[t] += read.reduce((a, h) => a + h.all[t], 0) - (shared ? read.length - (withTarget ? 0 : 1) : 0);
    }
  };
  const ready = Object.values(state.entry.ready || {}).filter(r => r && typeof r === "object");
  const isReady = ready.includes(target);
  if (cfg.mode === "xue_liu") {
    if (isReady) ready.filter(r => r !== target).forEach(r => add([r], false));
    return counts;
  }
  state.entry.events.filter(e => e.type === "win").forEach(e => {
    const winners = e.winners || [];
    add(winners.filter(w => w !== target), winners.includes(target));
  });
  ready.filter(r => r !== target).forEach(r => add([r], false));
  return counts;
}

// Each keypad on the page, so that a tile entered in one hand turns keys off (or on) in the others.
const drawn = new Map();  // target -> {box, draw}
export function keepDrawn(target, box, draw) { drawn.set(target, { box, draw }); }
export function redrawOthers(target) {
  drawn.forEach(({ box, draw }, other) => {
    if (!box.isConnected) drawn.delete(other);
    else if (other !== target) draw();
  });
}

// A winner's kong among the melds is paid by its kong event: more kong melds than kongs of theirs before the win
// means one was not recorded, and nobody paid for it.
export function unrecordedKongs(target, path, melds) {
  const at = /^events\[(\d+)\]\.winners/.exec(path);
  const kongs = melds.filter(m => m.counts && m.counts.some(c => c === 4));
  if (!at || !kongs.length) return null;
  const recorded = state.entry.events.slice(0, Number(at[1])).filter(e => e.type === "kong" && e.player === target.player).length;
  if (kongs.length <= recorded) return null;
  return el("p", { class: "analysis error", "data-unrecorded-kongs": path },
    T.kongNotRecorded.replace("{melds}", kongs.length).replace("{recorded}", recorded));
}
