// 血流成河: a hand of many wins. Each win's card holds its patterns, roots and flags (about 300 px on a phone), so
// after a few wins + 胡牌 was far below the screen (a walk: 2,300 px down after five wins; TABLE_UX: always in
// reach). The wins before the last two fold to one line (who won how, the pattern and fan the preview found);
// a tap on the line opens that win again, one at a time. Its errors still show under the line.
import { el } from "./dom.js";
import { errorSlot, removeButton } from "./controls.js";
import { T, cfg, name, render, robbed, state } from "./state.js";

const OPEN_WINS = 2;
let opened = null;  // the event opened again by a tap on its line
// A folded win's reading, by the events up to it (all that its fan depends on in a hand): while a later win is
// typed and the answer reads no wins, the line keeps it (a walk: "平胡 1番" went to "平胡" until the answer came).
const read = new Map();

export function folds(i) {
  if (cfg.mode !== "xue_liu" || i === opened) return false;
  return state.entry.events.slice(i + 1).filter((e) => e.type === "win").length >= OPEN_WINS;
}

export function foldedCard(e, i, remove) {
  const head = e.from === null ? `${name(e.winners[0].player)} ${T.selfDraws}`
    : robbed(e) ? T.kongRobbed.replace("%(name)s", name(e.from)) : `${name(e.from)} ${T.dealsIn}`;
  const winners = e.winners.map((w) => {
    const key = `${JSON.stringify(state.entry.events.slice(0, i + 1))}:${w.player}`;
    let found = (state.lastWins || []).find((x) => x.event === i && x.player === w.player);
    if (found) read.set(key, found); else found = read.get(key);
    if (read.size > 200) read.delete(read.keys().next().value);  // a long evening: the oldest readings go
    const pattern = found ? found.pattern : w.pattern;
    const words = pattern ? (cfg.patterns[pattern] || { name: pattern }).name : T.byTiles;
    return `${name(w.player)} ${words}` + (found ? ` ${T.fanN.replace("%(n)s", found.fan)}` : "");
  });
  const line = el("button", { type: "button", class: "link unfold", "aria-expanded": "false",
    on: { click: () => { opened = i; render(); } } }, `${head} · ${winners.join(T.comma)}`);
  return el("div", { class: "card event folded", "data-path": `events[${i}]` },
    el("div", { class: "row" }, line, removeButton(remove)), errorSlot(`events[${i}]`));
}
