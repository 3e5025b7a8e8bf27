// Tiles entered on a keypad of the 27 tiles (typing stays possible), for a winner's hand or a ready player's at
// 查叫, with the engine's reading of them (the pattern and fan, or the waits) under the hand.
import { el } from "./dom.js";
import { keysStill, rememberFocus, restoreFocus } from "./focus.js";
import { foundNote } from "./found.js";
import { askAnalysis } from "./requests.js";
import { T, cfg, saveDraft, schedulePreview } from "./state.js";
import { elsewhere, keepDrawn, redrawOthers, unrecordedKongs } from "./tile_counts.js";
import { SUIT_LETTERS, countsOf, missingTiles, textOf, wholeHand } from "./tile_text.js";

const tileLabel = (t) => `${t % 9 + 1}${cfg.suits[Math.floor(t / 9)]}`;
const codeLabel = (code) => `${code.slice(0, -1)}${cfg.suits[SUIT_LETTERS.indexOf(code.slice(-1))] || code.slice(-1)}`;  // "1m" -> 1万
const keypadWhere = {};  // path -> "hand" | "melds": where the keypad's taps go
const analysisShown = {};  // path -> last analysis line, kept across redraws
const analysisTimers = {};
let analysisSent = 0;
const lineOf = (path) => { const shown = analysisShown[path] || {};
  return (shown.text || "") + (shown.cls === "analysis ok" ? foundNote(path) : ""); };

export function tileEntry(target, path, ready) {
  target.melds = target.melds || [];
  const size = wholeHand(ready);  // the whole hand, each meld counted as three of its tiles: 14, or 13 at 查叫
  const box = el("div", { class: "tiles-entry" });
  const info = el("div", { class: "analysis " + ((analysisShown[path] || {}).cls || "muted"), "data-analysis-for": path },
    lineOf(path));
  const draw = () => {
    const hand = countsOf(target.tiles);
    const melds = target.melds.map(m => ({ text: m, counts: countsOf(m) }));
    const onTable = hand ? hand.slice() : new Array(27).fill(0);
    melds.forEach(m => { if (m.counts) m.counts.forEach((c, t) => { onTable[t] += c; }); });
    const other = elsewhere(target), total = onTable.map((n, t) => n + other[t]);  // with the other hands' copies
    // Counted as 还差 N 张 counts them: digits typed before their suit's letter too (a walk: 222444 read 手牌 0/14).
    const held = size - missingTiles(target.tiles, ready, target.melds);
    box.replaceChildren();
    const handRow = el("div", { class: "tile-row" }, el("span", { class: "tile-label" }, `${T.hand} ${held}/${size}`));
    if (hand) hand.forEach((c, t) => { for (let k = 0; k < c; k++) handRow.append(el("button", {
      type: "button", class: `tile suit-${Math.floor(t / 9)}`, "data-tile": t, "aria-label": `${T.remove} ${tileLabel(t)}`,
      on: { click: () => { hand[t] -= 1; setTiles(textOf(hand)); } } }, tileLabel(t))); });
    const meldRow = el("div", { class: "tile-row" }, el("span", { class: "tile-label" }, T.melds));
    melds.forEach((m, k) => meldRow.append(el("button", { type: "button", class: "tile meld", "data-meld": m.text,
      "aria-label": `${T.remove} ${m.text}`,
      on: { click: () => { target.melds.splice(k, 1); setMelds(target.melds); } } },
      m.counts ? `${tileLabel(m.counts.findIndex(c => c > 0))}×${m.counts.reduce((a, b) => a + b, 0)}` : m.text)));
    const where = keypadWhere[path] || "hand";
    // A tap is a whole pong or a whole kong, said by the mode: three taps for a pong made a kong (a walk). The mode
    // is for one meld, then back to the hand (a walk: the hand's tiles typed next became kongs, 1筒×4, 2筒×4 …).
    const modes = el("div", { class: "chips" }, ...["hand", "pong", "kong"].map(mode => el("button", {
      type: "button", class: "chip small" + (where === mode ? " selected" : ""), "data-keypad-mode": mode,
      on: { click: () => { keypadWhere[path] = mode; draw(); } } }, { hand: T.toHand, pong: T.toPong, kong: T.toKong }[mode])));
    const keypad = el("div", { class: "keypad" });
    for (let s = 0; s < 3; s++) {
      if (!(cfg.tableSuits || "mps").includes(SUIT_LETTERS[s])) continue;  // 两房: no 万 (RULES.md §9)
      const group = el("div", { class: `keys suit-${s}` });
      for (let r = 0; r < 9; r++) {
        const t = s * 9 + r;
        const pong = target.melds.findIndex(m => { const c = countsOf(m); return c && c[t] === 3; });
        // Never a fifth copy: a key is off once four of its tile are held (a pong becomes a kong with one more).
        const upgrade = where === "kong" && pong >= 0;
        const full = where === "hand" ? total[t] >= 4 || held >= size  // and never past a whole hand (a walk: 16/14)
          : upgrade ? total[t] >= 4 : total[t] + (where === "kong" ? 4 : 3) > 4 || held + 3 > size;
        group.append(el("button", { type: "button", class: "key", "data-key": tileLabel(t), disabled: full || !hand,
          on: { click: () => {
            if (where === "hand") { hand[t] += 1; setTiles(textOf(hand)); return; }
            keypadWhere[path] = "hand";
            if (upgrade) { target.melds[pong] = String(r + 1).repeat(4) + SUIT_LETTERS[s]; setMelds(target.melds); }
            else { target.melds.push(String(r + 1).repeat(where === "kong" ? 4 : 3) + SUIT_LETTERS[s]); setMelds(target.melds); }
          } } }, el("span", {}, tileLabel(t)), onTable[t] ? el("small", { class: "count" }, String(onTable[t])) : null));
      }
      keypad.append(group);
    }
    const typing = el("details", { class: "typing" }, el("summary", {}, T.typing),
      el("label", { class: "stack" }, T.hand, el("input", { value: target.tiles || "", placeholder: T.tilesHint,
        autocomplete: "off", autocapitalize: "off", "data-field": "tiles", on: { input: (ev) => { target.tiles = ev.target.value.trim(); typed(); } } })),
      el("label", { class: "stack" }, T.melds, el("input", { value: target.melds.join(" "), placeholder: T.meldsHint,
        autocomplete: "off", autocapitalize: "off", "data-field": "melds", on: { input: (ev) => {
          target.melds = ev.target.value.split(/[\s,，]+/).filter(Boolean); typed(); } } })));
    if (typingOpen[path]) typing.open = true;
    typing.addEventListener("toggle", () => { typingOpen[path] = typing.open; });
    const gone = total.map((n, t) => (n >= 4 && other[t] ? tileLabel(t) : "")).filter(Boolean);  // why a key is off
    const goneLine = gone.length ? el("p", { class: "muted keys-elsewhere" }, T.keysElsewhere.replace("{tiles}", gone.join(T.comma))) : null;
    box.append(...[handRow, info, meldRow, unrecordedKongs(target, path, melds), modes, keypad, goneLine, typing].filter(Boolean));
  };
  // Typed text redraws only the keypad's chips and counts, never the field being typed in.
  const typed = () => {
    saveDraft(); analyseSoon(target, path, ready, info); schedulePreview();
    const focus = rememberFocus();
    keysStill(box, () => { draw(); redrawOthers(target); });
    restoreFocus(focus);
  };
  const setTiles = (text) => { target.tiles = text; typed(); };
  const setMelds = (melds) => { target.melds = melds; typed(); };
  draw(); keepDrawn(target, box, draw);
  analyseSoon(target, path, ready, info);
  return box;
}
const typingOpen = {};

// Tile analysis is debounced, and only the answer to the latest request is shown.
function analyseSoon(target, path, ready, info) {
  clearTimeout(analysisTimers[path]);
  if (!target.tiles) { analysisShown[path] = { text: "", cls: "muted" }; info.textContent = ""; return; }
  analysisTimers[path] = setTimeout(() => {
    const mine = ++analysisSent;
    const asked = JSON.stringify([target.tiles, target.melds]);
    const missing = missingTiles(target.tiles, ready, target.melds);
    const short = missing > 0 && !(countsOf(target.tiles) || []).some((n) => n > 4), toGo = T.tilesShort.replace("%(n)s", missing);
    const oneShort = short && !ready && missing === 1;  // a winner's hand a tile short: what it waits on (TABLE_UX)
    // Read at this table's rules (its fans, its suits), as the preview reads the hand: one answer, not two.
    askAnalysis({ tiles: target.tiles, melds: target.melds, ready: ready || oneShort, rules: cfg.engine.rules }).then(({ ok, data }) => {
      if (mine !== analysisSent && asked !== JSON.stringify([target.tiles, target.melds])) return;
      let shown;
      const waits = ok && (data.waits || []).length ? T.waits + T.colon + data.waits.map(w => `${codeLabel(w.tile)} ${patternName(w.pattern)} ${cappedFan(w.fan)}`).join(T.comma) : "";
      if (!ok) shown = short ? { cls: "analysis typing", text: toGo } : { cls: "analysis error", text: (data.errors || []).map(e => e.message).join(T.semicolon) };
      else if (oneShort) shown = { cls: "analysis typing", text: waits ? toGo + " · " + waits : toGo };
      else if (ready) shown = { cls: "analysis ok", text: waits || T.waits + T.colon };
      else shown = { cls: "analysis ok", text: `${patternName(data.pattern)}${data.roots ? " " + (data.roots === 1 ? T.rootsOne : T.rootsN.replace("%(n)s", data.roots)) : ""} · ${T.fanN.replace("%(n)s", data.fan)}` };
      analysisShown[path] = shown;
      const live = document.querySelector(`[data-analysis-for="${CSS.escape(path)}"]`) || info;
      keysStill(live.closest(".tiles-entry"), () => { live.className = shown.cls; live.textContent = lineOf(path); });
    }).catch(() => { /* the preview reports the connection */ });
  }, 300);
}
// A wait's fan as 查叫 charges it: "5番（封顶 3番）" above the table's cap (RULES.md §6: the cap applies).
function cappedFan(fan) {
  const cap = (cfg.engine.rules || {}).max_fan;
  return cap != null && fan > cap && T.fanCapped ? T.fanCapped.replace("%(raw)s", fan).replace("%(fan)s", cap)
    : T.fanN.replace("%(n)s", fan);
}
const patternName = (code) => (cfg.patterns[code] || { name: code }).name;
