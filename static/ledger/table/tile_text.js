// Tile notation ("123m 555p"; 万/筒/条 too) as 27 counts (万 1–9, 筒 1–9, 条 1–9) and back, for the keypad.
export const SUIT_LETTERS = ["m", "p", "s"];
const SUIT_OF = { m: 0, "万": 0, "萬": 0, p: 1, "筒": 1, "饼": 1, "餅": 1, s: 2, "条": 2, "條": 2 };
export function countsOf(text) {  // tile notation -> 27 counts, or null when it cannot be read (the server says why)
  const counts = new Array(27).fill(0);
  let ranks = [];
  for (const ch of String(text || "").replace(/\s+/g, "")) {
    if (ch >= "1" && ch <= "9") ranks.push(Number(ch));
    else if (SUIT_OF[ch.toLowerCase()] !== undefined) {
      const base = SUIT_OF[ch.toLowerCase()] * 9;
      ranks.forEach(r => { counts[base + r - 1] += 1; });
      ranks = [];
    } else return null;
  }
  return ranks.length ? null : counts;
}
export function textOf(counts) {
  return SUIT_LETTERS.map((letter, s) => {
    let ranks = "";
    for (let r = 0; r < 9; r++) ranks += String(r + 1).repeat(counts[s * 9 + r]);
    return ranks ? ranks + letter : "";
  }).join("");
}
// How many concealed tiles a whole hand holds: 14 for a win, 13 for a ready hand at 查叫, 3 fewer per meld.
export const wholeHand = (ready, melds) => (ready ? 13 : 14) - 3 * (melds || []).length;
// How many tiles a hand being typed still lacks (还差 N 张; 0 or less when whole).
export const missingTiles = (text, ready, melds) => wholeHand(ready, melds) - (String(text || "").match(/\d/g) || []).length;
// Fewer tiles typed than a whole hand: still being typed (手牌 5/14), said quietly, not in red.
export const stillTyping = (text, ready, melds) => missingTiles(text, ready, melds) > 0;
