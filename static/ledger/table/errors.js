// The engine's errors on the table page: each by the field it is about (else in the bar), and which of them are
// no mistake yet (tiles still to type).
import { T, name, state } from "./state.js";
import { countsOf, missingTiles, stillTyping } from "./tile_text.js";

// Each error goes to the most specific slot whose path starts its path; the rest are shown in the bar. A slot
// holding only errors of tiles still being typed reads quiet, not red (class "typing").
export function placeErrors(errors) {
  document.querySelectorAll(".field-error").forEach(n => { n.textContent = ""; n.classList.remove("typing"); });
  const slots = Array.from(document.querySelectorAll("[data-error-for]"));
  const general = [], loud = new Set();
  errors.forEach(err => {
    const match = slots.filter(n => { const p = n.dataset.errorFor;
      return err.path === p || err.path.startsWith(p + ".") || err.path.startsWith(p + "["); })
      .sort((a, b) => b.dataset.errorFor.length - a.dataset.errorFor.length)[0];
    if (!match) { general.push(said(err)); return; }
    match.textContent += (match.textContent ? T.semicolon : "") + (shortHand(err) ? shortWords(err) : said(err));
    if (!shortHand(err)) loud.add(match);
    match.classList.toggle("typing", !loud.has(match));
  });
  return general;
}
// An error in the table's words: the engine says seats by number (2号位, seat 2: HAND_FORMAT.md's seats, from 0);
// the table by the names on its seats.
export function said(err) {
  const seated = (whole, seat) => name(Number(seat)) || whole;
  return err.message.replace(/(\d)号位/g, seated).replace(/\bseat (\d)\b/g, seated);
}
// A hand still being typed says how far it is from whole (还差 3 张), not the engine's count (a walk read "张数不对：
// 手牌 13 张…应为 14 张" as a mistake).
function shortWords(err) {
  const hand = handOf(err);
  return T.tilesShort.replace("%(n)s", missingTiles(hand.target.tiles, hand.ready, hand.target.melds));
}
// The winner's or ready player's hand an error's path is about (events[0].winners[1].tiles, ready.2.tiles).
function handOf(err) {
  const m = /^(?:events\[(\d+)\]\.winners\[(\d+)\]|ready\.(\d+))\.tiles$/.exec(err.path || "");
  if (!m) return null;
  const entry = state.entry;
  const target = m[3] === undefined ? ((entry.events[Number(m[1])] || {}).winners || [])[Number(m[2])]
    : entry.ready[m[3]];
  return target ? { target, ready: m[3] !== undefined } : null;
}
// Tiles not typed yet (the keypad has just opened: "tiles": "") are the next step, not a mistake: never in red.
// The keypad's 手牌 0/14 shows it, and the hint by the save button says what to do.
export function untyped(err) {
  const hand = handOf(err);
  return !!hand && hand.target.tiles === "";
}
// Fewer tiles than a whole hand: still being typed (手牌 5/14), its error said quietly by the field; but not a fifth
// copy of a tile, which no tile typed next puts right (a walk: "1m appears 5 times" in grey, "tap the tiles"), nor
// any error but the count (the preview gives each error's code; the engine counts the table's tiles only in whole
// hands, so a short hand's other errors are its own).
export function shortHand(err) {
  const hand = handOf(err);
  if (!hand || typeof hand.target.tiles !== "string") return false;
  if (err.code && err.code !== "hand_wrong_count") return false;
  const counts = countsOf(hand.target.tiles) || [];
  return stillTyping(hand.target.tiles, hand.ready, hand.target.melds) && !counts.some((n) => n > 4);
}
