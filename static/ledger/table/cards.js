// The hand's events as cards: a kong in one line; a win with its winners, each with the patterns, roots and flags
// the engine allows (or the tiles, tiles.js), and the flags that belong to the whole event (folded: fold.js).
import { $, el, union } from "./dom.js";
import { folds, foldedCard } from "./fold.js";
import { errorSlot, removeButton, stepper } from "./controls.js";
import { TILE_DECIDED } from "./found.js";
import { tileEntry } from "./tiles.js";
import { T, awaiting, cfg, changed, eventChoices, name, robbed, state, winnerChoices } from "./state.js";

export function renderEvents() {
  const box = $("events");
  box.replaceChildren();
  const entry = state.entry, choices = state.choices;
  // No "nothing yet" line: the bar's hint says how to begin, and + 胡牌 stays above the bar (a walk).
  entry.events.forEach((e, i) => box.append(e.type === "kong" ? kongCard(e, i) : folds(i) ? foldedCard(e, i, removeEvent(i)) : winCard(e, i)));
  // While a win asks who dealt in (or a kong who gave the tile), nothing else starts: the answer comes first.
  const asking = awaiting();
  $("add-win").disabled = $("add-kong").disabled = asking || !!(choices && state.current && !choices.next.open);
  // 流局 only while the wall can still run out (not after the win that ends the hand: two players, first_win, a
  // third winner); once on it can always be taken back.
  $("toggle-exhausted").disabled = asking || (!entry.exhausted && !!(choices && state.current && !choices.next.exhausted));
  $("toggle-exhausted").classList.toggle("on", entry.exhausted);
}
function removeEvent(i) {
  return () => {
    state.entry.events.splice(i, 1);
    const pick = state.pick;  // an open question about a later event follows it; one about this event goes with it
    state.pick = awaiting() && pick.event !== i ? { ...pick, event: pick.event - (i < pick.event ? 1 : 0) } : null;
    changed(0);
  };
}
function kongCard(e, i) {
  let text = `${name(e.player)} ${T[e.kind]}`;
  if (e.kind === "direct" && e.from !== undefined && e.from !== null) text += ` ← ${name(e.from)}`;
  if (robbed(state.entry.events[i + 1] || {})) text += T.comma + T.kongNotCounted;  // as the saved hand says (a walk)
  return el("div", { class: "card event", "data-path": `events[${i}]` },
    el("div", { class: "row" }, el("span", {}, text), removeButton(removeEvent(i))), errorSlot(`events[${i}]`));
}
function winCard(e, i) {
  const ec = eventChoices(i);
  const asked = awaiting() && state.pick.mode === "from" && state.pick.event === i;  // not a 自摸 until it is said
  const head = asked ? `${name(e.winners[0].player)} · ${T.pickFrom}`
    : e.from === null ? `${name(e.winners[0].player)} ${T.selfDraws}` : robbed(e) ? T.kongRobbed.replace("%(name)s", name(e.from)) : `${name(e.from)} ${T.dealsIn}`;
  const card = el("div", { class: "card event", "data-path": `events[${i}]` },
    el("div", { class: "row" }, el("strong", {}, head), removeButton(removeEvent(i))));
  // Event-wide flags (抢杠胡 belongs to the tile): on every winner or none.
  const everyone = (f) => e.winners.every(w => (w.flags || []).includes(f));
  const eventFlags = union(ec ? ec.flags || [] : [], cfg.eventFlags.filter(everyone));
  if (eventFlags.length) {
    const chips = el("div", { class: "chips flags" });
    eventFlags.forEach(f => chips.append(flagChip(f, everyone(f), !(ec && (ec.flags || []).includes(f)), () => {
      const on = !everyone(f);
      e.winners.forEach(w => { w.flags = (w.flags || []).filter(x => x !== f); if (on) w.flags.push(f); });
      changed();
    })));
    card.append(chips);
  }
  e.winners.forEach((w, j) => card.append(winnerBlock(e, i, w, j)));
  card.append(errorSlot(`events[${i}]`));
  return card;
}
// A pattern and its one-suit form: picked by pattern, a hand all of one suit is easily paid as the lesser one.
const ONE_SUIT = { dui_dui_hu: "qing_dui", qi_dui: "qing_qi_dui", long_qi_dui: "qing_long_qi_dui" };
function flagChip(code, selected, illegal, onTap) {
  return el("button", { type: "button", "data-flag": code, "aria-pressed": selected ? "true" : "false",
    class: "chip small" + (selected ? " selected" : "") + (illegal ? " illegal" : ""), on: { click: onTap } },
    cfg.modifiers[code]);
}
function winnerBlock(e, i, w, j) {
  const path = `events[${i}].winners[${j}]`;
  const wc = winnerChoices(i, w.player);
  const useTiles = w.tiles !== undefined;
  const block = el("div", { class: "winner", "data-path": path });
  const title = el("div", { class: "row" }, el("span", { class: "who" }, `${name(w.player)} ${T.winsOn}`),
    el("button", { type: "button", class: "link", "data-action": "tiles", on: { click: () => {
      if (useTiles) { delete w.tiles; delete w.melds; w.pattern = "ping_hu"; w.roots = 0; }
      else {  // the tiles decide 门清 and 中张 from now on: a chip ticked by hand would stand unseen
        delete w.pattern; delete w.roots; w.tiles = ""; w.melds = [];
        w.flags = (w.flags || []).filter(f => !TILE_DECIDED.includes(f));
      }
      changed();
    } } }, useTiles ? T.quick : T.tiles));
  if (e.winners.length > 1) title.append(removeButton(() => { e.winners.splice(j, 1); changed(0); }));
  block.append(title);
  if (useTiles) block.append(tileEntry(w, path, false));
  else {
    const legal = wc ? wc.patterns : [];
    const codes = union(legal.map(p => p.code), [w.pattern]), chips = el("div", { class: "chips" });
    codes.forEach(code => {
      const known = cfg.patterns[code] || { name: code, fan: "" };
      chips.append(el("button", {
        type: "button", "data-pattern": code, "aria-pressed": w.pattern === code ? "true" : "false",
        class: "chip" + (w.pattern === code ? " selected" : "") + (legal.length && !legal.some(p => p.code === code) ? " illegal" : ""),
        on: { click: () => { w.pattern = code; state.intent = state.choices && state.choices.next.open ? "exhausted" : "save"; changed(); } },
      }, `${known.name} ${known.fan}`));
    });
    block.append(chips);
    const range = legal.find(p => p.code === w.pattern), suited = ONE_SUIT[w.pattern];
    if (legal.some(p => p.code === suited)) {
      block.append(el("p", { class: "muted small one-suit" }, T.oneSuit.replace("{name}", cfg.patterns[suited].name)));
    }
    if (range && range.max_roots > 0) {
      block.append(stepper(T.roots, w.roots || 0, range.min_roots, range.max_roots, v => { w.roots = v; changed(); }));
      // Roots start at the winner's own kongs (not robbed): said, or a "+" for the kong counts it twice (a walk).
      const ev = state.entry.events, own = ev.slice(0, i).filter((k, n) => k.type === "kong" && k.player === w.player && !robbed(ev[n + 1] || {})).length;
      if (own && T.rootsFromKongs) block.append(el("small", { class: "muted roots-kongs" }, T.rootsFromKongs.replace("%(n)s", own)));
    }
  }
  const winnerFlags = (w.flags || []).filter(f => !cfg.eventFlags.includes(f));
  const offered = union(wc ? wc.flags : [], winnerFlags);
  // Given by tiles, 门清 and 中张 are the tiles' to decide (RULES.md §10): shown as the last preview found them,
  // not to be tapped (the reading said 平胡 0番 beside unpressed chips while 2 fan were paid).
  const won = useTiles ? state.lastWins.find(x => x.event === i && x.player === w.player) : null;
  const byTiles = (f) => useTiles && TILE_DECIDED.includes(f);
  if (offered.length) {
    const flags = el("div", { class: "chips flags" });
    offered.forEach(f => {
      const chip = flagChip(f, byTiles(f) ? !!won && won.flags.includes(f) : winnerFlags.includes(f),
        !byTiles(f) && !(wc && wc.flags.includes(f)), () => {
          w.flags = (w.flags || []).includes(f) ? w.flags.filter(x => x !== f) : [...(w.flags || []), f];
          changed();
        });
      if (byTiles(f)) { chip.disabled = true; chip.title = T.byTiles; }
      flags.append(chip);
    });
    block.append(flags);
  }
  block.append(errorSlot(path));
  return block;
}
