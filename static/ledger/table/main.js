// The table page: one hand's record, built by tapping, previewed, saved.
// It holds no rule: every preview answer carries the engine's `choices` (who may act, which patterns,
// roots and flags are legal where), and the buttons, chips and steppers are drawn from them. Offline, the same
// answers come from the same engine running in the phone (engine.js), and saved hands wait in a queue (queue.js).
import { $, el, newKey, union } from "./dom.js";
import { engineAnalysis, enginePreview, engineReady, startEngine } from "./engine.js";
import { isOffline, keepPage, onStatus, setOffline, setupOffline } from "./offline.js";
import { enqueue, queued, remove } from "./queue.js";
import { queueView } from "./queue_view.js";

const cfg = JSON.parse(document.getElementById("table-config").textContent);
const T = cfg.strings;
const csrf = () => (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";

// ---- the draft: the entry, its idempotency key; kept on the phone until it is saved ------------
function loadDraft() {
  try {
    const saved = JSON.parse(localStorage.getItem(cfg.draftKey));
    if (saved && saved.entry && saved.key) return saved;
    if (saved && Array.isArray(saved.events)) return { entry: saved, key: newKey() };  // an older draft
  } catch (e) { /* an unreadable draft is dropped */ }
  return null;
}
let draft = loadDraft() || { entry: cfg.initial || {}, key: newKey() };
let entry = null;
function takeDraft() {
  entry = draft.entry;
  entry.events = entry.events || []; entry.ready = entry.ready || {}; entry.hua_zhu = entry.hua_zhu || [];
  entry.exhausted = !!entry.exhausted;
}
takeDraft();
function saveDraft() { try { localStorage.setItem(cfg.draftKey, JSON.stringify(draft)); } catch (e) { /* full */ } }

let choices = null;   // the engine's answer for the entry as last previewed
let current = false;  // whether `choices` describes the entry as it is now
let pick = null;      // what a seat tap means now: {mode, event, seat}
let sent = 0;         // preview requests sent: only the answer to the latest one is shown
let previewTimer = null;
let canSave = false;

const name = (seat) => cfg.players[seat];
const eventChoices = (i) => (choices && choices.events && choices.events[i]) || null;
function winnerChoices(i, player) {
  const ec = eventChoices(i);
  return ec && ec.winner_choices ? ec.winner_choices.find(w => w.player === player) || null : null;
}

// ---- seats: which may be tapped comes from the engine ----------------------------------------
const PROMPTS = { winner: T.pickWinner, from: T.pickFrom, more: T.pickMore, konger: T.pickKonger,
                  kind: T.pickKind, kongFrom: T.pickKongFrom };
function pickable() {
  if (!pick || !current || !choices) return [];
  const ec = eventChoices(pick.event);
  if (pick.mode === "winner") return choices.next.winners;
  if (pick.mode === "konger") return choices.next.kongers;
  if (pick.mode === "from" || pick.mode === "kongFrom") return ec ? ec.from : [];
  if (pick.mode === "more") return ec ? ec.more_winners : [];
  return [];
}
// 血流成河 (RULES.md §9): a past winner stays in the hand, so its seat stays where it is and may still be tapped
// (to win again, deal in or kong); it carries the count of its wins on the event cards below. Not in 血战, where a
// past winner is out, nor in 标准, where nothing follows the first win.
function winsBySeat() {
  const wins = new Map();
  if (cfg.mode !== "xue_liu") return wins;
  entry.events.forEach(e => {
    if (e.type === "win") (e.winners || []).forEach(w => wins.set(w.player, (wins.get(w.player) || 0) + 1));
  });
  return wins;
}
function markWins(button, count) {
  let badge = button.querySelector(".wins");
  if (!count) { if (badge) badge.remove(); return; }
  if (!badge) { badge = el("span", { class: "wins" }); button.append(badge); }
  badge.textContent = T.wonTimes.replace("%(n)s", count);
}
function renderSeats() {
  const ok = pickable();
  const wins = winsBySeat();
  document.querySelectorAll("#seats .seat").forEach(b => {
    const can = ok.includes(Number(b.dataset.seat));
    b.disabled = !can;
    b.classList.toggle("pickable", can);
    markWins(b, wins.get(Number(b.dataset.seat)) || 0);
  });
  const prompt = $("prompt");
  if (prompt) prompt.textContent = pick ? (current || pick.mode === "kind" ? PROMPTS[pick.mode] : T.checking) : "";
}
// Delegated, so seats redrawn by the live page keep working.
document.addEventListener("click", (ev) => {
  const button = ev.target.closest("#seats .seat");
  if (button && !button.disabled && pick) tapSeat(Number(button.dataset.seat));
});

function newWinner(seat) { return { player: seat, pattern: "ping_hu", roots: 0, flags: [] }; }
function tapSeat(seat) {
  if (pick.mode === "winner") {
    entry.events.push({ type: "win", from: null, winners: [newWinner(seat)] });
    pick = { mode: "from", event: entry.events.length - 1 };
    intent = "from";
  } else if (pick.mode === "from") {
    entry.events[pick.event].from = seat;
    pick = { mode: "more", event: pick.event };
    intent = "more";
  } else if (pick.mode === "more") {
    entry.events[pick.event].winners.push(newWinner(seat));
    intent = "more";
  } else if (pick.mode === "konger") {
    pick = { mode: "kind", seat };
    intent = "kind";
    render();
    return;
  } else if (pick.mode === "kongFrom") {
    entry.events[pick.event].from = seat;
    pick = null;
    intent = "next";
  }
  changed(0);
}

function renderPicker() {
  const box = $("picker");
  box.replaceChildren();
  box.hidden = !pick;
  if (!pick) return;
  const ec = eventChoices(pick.event);
  if (pick.mode === "from" && current && ec && ec.self_draw) {
    box.append(el("button", { type: "button", class: "big chip-strong", id: "pick-self-draw", on: { click: () => {
      entry.events[pick.event].from = null; intent = { pattern: pick.event }; pick = null; changed(0);
    } } }, T.selfDraw));
  }
  if (pick.mode === "more") {
    box.append(el("button", { type: "button", class: "big chip-strong", id: "pick-done", on: { click: () => {
      intent = { pattern: pick.event }; pick = null; render();
    } } }, T.done));
  }
  if (pick.mode === "kind") {
    for (const kind of ["direct", "added", "concealed"]) {
      box.append(el("button", { type: "button", class: "big", "data-kind": kind, on: { click: () => {
        const kong = { type: "kong", player: pick.seat, kind };
        entry.events.push(kong);
        pick = kind === "direct" ? { mode: "kongFrom", event: entry.events.length - 1 } : null;
        intent = kind === "direct" ? "seat" : "next";
        changed(0);
      } } }, T[kind]));
    }
  }
  if (pick.mode !== "more") {
    box.append(el("button", { type: "button", class: "link", id: "pick-cancel", on: { click: () => {
      // An event still waiting for its discarder is not kept half-made.
      if (pick.mode === "from" || pick.mode === "kongFrom") entry.events.splice(pick.event, 1);
      pick = null; changed(0);
    } } }, T.cancel));
  }
}

// What to tap next may be far above the button that asked for it (the seats), or fall under the sticky bar
// (the ready players at 流局): bring it to the middle of the screen unless it is in full view already.
function bringIntoView(id) {
  const target = $(id);
  if (!target || target.hidden) return;
  const box = target.getBoundingClientRect();
  const bar = $("bar");
  const bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
  if (box.top >= 0 && box.bottom <= bottom) return;
  target.scrollIntoView({ block: "center", behavior: "smooth" });
}
$("add-win").addEventListener("click", () => { pick = { mode: "winner" }; intent = "seat"; render(); bringIntoView("seats"); });
// Start this hand again: a fresh entry and a fresh idempotency key.
$("clear").addEventListener("click", () => {
  if (!window.confirm(T.clearConfirm)) return;
  draft.entry = { events: [], exhausted: false, ready: {}, hua_zhu: [] };
  draft.key = newKey();
  localStorage.removeItem(cfg.draftKey);
  window.location.reload();
});
$("add-kong").addEventListener("click", () => { pick = { mode: "konger" }; intent = "seat"; render(); bringIntoView("seats"); });
$("toggle-exhausted").addEventListener("click", () => {
  entry.exhausted = !entry.exhausted;
  if (!entry.exhausted) { entry.ready = {}; entry.hua_zhu = []; }
  pick = null; intent = entry.exhausted ? "save" : null; changed(0);
  if (entry.exhausted) bringIntoView("exhaustion");
});

// ---- the events of the hand ------------------------------------------------------------------
function render() {
  const focus = rememberFocus();
  const button = focusedButton();
  renderSeats(); renderPicker(); renderEvents(); renderExhaustion();
  restoreFocus(focus);
  focusNextStep(button);
}
// Keyboard: after each step the focus goes to the first control of the next one, never back to the page.
// `intent` names the step a handler led to; it is used once, as soon as that control is there (some come
// with the engine's answer); a control redrawn under the focus (a chip, a stepper) gets it back.
let intent = null;
function intentControl() {
  if (intent === "seat") return document.querySelector("#seats .seat.pickable:not([disabled])");
  if (intent === "from") return $("pick-self-draw") || document.querySelector("#seats .seat.pickable:not([disabled])");
  if (intent === "more") return $("pick-done");
  if (intent === "kind") return document.querySelector("#picker [data-kind]");
  if (intent === "exhausted") return $("toggle-exhausted");
  if (intent === "save") return $("save");
  if (intent === "next") return $("add-win");
  if (intent && intent.pattern !== undefined) {
    return document.querySelector(`[data-path="events[${intent.pattern}].winners[0]"] [data-pattern][aria-pressed=true]`);
  }
  return null;
}
function focusNextStep(kept) {
  const active = document.activeElement;
  if (active && active.matches && active.matches("input, textarea, select")) return;
  const target = intentControl();
  if (target && !target.disabled) {
    target.focus({ preventScroll: true });
    intent = null;
    return;
  }
  if (!intent && kept && (!active || active === document.body || !active.isConnected)) {
    const again = document.querySelector(kept);
    if (again) again.focus({ preventScroll: true });
  }
}
// Where a button that is about to be redrawn sits, to give it the focus back.
function focusedButton() {
  const active = document.activeElement;
  if (!active || active.tagName !== "BUTTON") return null;
  const holder = active.closest("[data-path]");
  const mark = ["data-pattern", "data-flag", "data-action", "aria-label"].find(a => active.hasAttribute(a));
  if (!holder || !mark) return null;
  return `[data-path="${CSS.escape(holder.dataset.path)}"] [${mark}="${CSS.escape(active.getAttribute(mark))}"]`;
}
function rememberFocus() {
  const active = document.activeElement;
  if (!active || !active.dataset || !active.dataset.field) return null;
  const holder = active.closest("[data-path]");
  return { path: holder ? holder.dataset.path : null, field: active.dataset.field,
           start: active.selectionStart, end: active.selectionEnd };
}
function restoreFocus(focus) {
  if (!focus || !focus.path) return;
  const holder = document.querySelector(`[data-path="${CSS.escape(focus.path)}"]`);
  const field = holder && holder.querySelector(`[data-field="${focus.field}"]`);
  if (!field || field === document.activeElement) return;
  field.focus({ preventScroll: true });
  try { field.setSelectionRange(focus.start, focus.end); } catch (e) { /* not a text field */ }
}
function renderEvents() {
  const box = $("events");
  box.replaceChildren();
  if (!entry.events.length) box.append(el("p", { class: "muted" }, T.noEvents));
  entry.events.forEach((e, i) => box.append(e.type === "kong" ? kongCard(e, i) : winCard(e, i)));
  $("add-win").disabled = $("add-kong").disabled = !!(choices && current && !choices.next.open);
  $("toggle-exhausted").classList.toggle("on", entry.exhausted);
}
function removeButton(onRemove) {
  return el("button", { type: "button", class: "link remove", "aria-label": T.remove, on: { click: onRemove } }, "✕");
}
function removeEvent(i) { return () => { entry.events.splice(i, 1); pick = null; changed(0); }; }
function kongCard(e, i) {
  let text = `${name(e.player)} ${T[e.kind]}`;
  if (e.kind === "direct" && e.from !== undefined && e.from !== null) text += ` ← ${name(e.from)}`;
  return el("div", { class: "card event", "data-path": `events[${i}]` },
    el("div", { class: "row" }, el("span", {}, text), removeButton(removeEvent(i))), errorSlot(`events[${i}]`));
}
function winCard(e, i) {
  const ec = eventChoices(i);
  const head = e.from === null ? `${name(e.winners[0].player)} ${T.selfDraws}` : `${name(e.from)} ${T.dealsIn}`;
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
      else { delete w.pattern; delete w.roots; w.tiles = ""; w.melds = []; }
      changed();
    } } }, useTiles ? T.quick : T.tiles));
  if (e.winners.length > 1) title.append(removeButton(() => { e.winners.splice(j, 1); changed(0); }));
  block.append(title);
  if (useTiles) block.append(tileEntry(w, path, false));
  else {
    const legal = wc ? wc.patterns : [];
    const codes = union(legal.map(p => p.code), [w.pattern]);
    const chips = el("div", { class: "chips" });
    codes.forEach(code => {
      const known = cfg.patterns[code] || { name: code, fan: "" };
      chips.append(el("button", {
        type: "button", "data-pattern": code, "aria-pressed": w.pattern === code ? "true" : "false",
        class: "chip" + (w.pattern === code ? " selected" : "") + (legal.length && !legal.some(p => p.code === code) ? " illegal" : ""),
        on: { click: () => { w.pattern = code; intent = choices && choices.next.open ? "exhausted" : "save"; changed(); } },
      }, `${known.name} ${known.fan}`));
    });
    const range = legal.find(p => p.code === w.pattern);
    block.append(chips);
    if (range && range.max_roots > 0) {
      block.append(stepper(T.roots, w.roots || 0, range.min_roots, range.max_roots, v => { w.roots = v; changed(); }));
    }
  }
  const winnerFlags = (w.flags || []).filter(f => !cfg.eventFlags.includes(f));
  const offered = union(wc ? wc.flags : [], winnerFlags);
  if (offered.length) {
    const flags = el("div", { class: "chips flags" });
    offered.forEach(f => flags.append(flagChip(f, winnerFlags.includes(f), !(wc && wc.flags.includes(f)), () => {
      w.flags = (w.flags || []).includes(f) ? w.flags.filter(x => x !== f) : [...(w.flags || []), f];
      changed();
    })));
    block.append(flags);
  }
  block.append(errorSlot(path));
  return block;
}
function stepper(label, value, low, high, set) {
  return el("div", { class: "stepper" }, el("span", {}, label),
    el("button", { type: "button", class: "step", "aria-label": `${label} −`, disabled: value <= low, on: { click: () => set(value - 1) } }, "−"),
    el("output", {}, String(value)),
    el("button", { type: "button", class: "step", "aria-label": `${label} +`, disabled: value >= high, on: { click: () => set(value + 1) } }, "+"));
}

// When the engine's bounds move (a winner's own kongs raise the least roots; another pattern allows
// fewer), the steppers follow: roots start at the winner's kongs.
function followBounds() {
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
  const required = (entry.exhausted && choices.ready && choices.ready.required) || [];
  for (const seat of required) if (!entry.ready[String(seat)]) { entry.ready[String(seat)] = { fan: choices.ready.min_fan }; moved = true; }
  const pigs = entry.hua_zhu.filter(s => (choices.hua_zhu || []).includes(s));
  if (pigs.length !== entry.hua_zhu.length) { entry.hua_zhu = pigs; moved = true; }
  return moved;
}

// ---- tiles: a keypad of the 27 tiles (typing stays possible) ---------------------------------
const SUIT_LETTERS = ["m", "p", "s"];
const SUIT_OF = { m: 0, "万": 0, "萬": 0, p: 1, "筒": 1, "饼": 1, "餅": 1, s: 2, "条": 2, "條": 2 };
function countsOf(text) {  // tile notation -> 27 counts, or null when it cannot be read (the server says why)
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
function textOf(counts) {
  return SUIT_LETTERS.map((letter, s) => {
    let ranks = "";
    for (let r = 0; r < 9; r++) ranks += String(r + 1).repeat(counts[s * 9 + r]);
    return ranks ? ranks + letter : "";
  }).join("");
}
const tileLabel = (t) => `${t % 9 + 1}${cfg.suits[Math.floor(t / 9)]}`;
const keypadWhere = {};  // path -> "hand" | "melds": where the keypad's taps go
const analysisShown = {};  // path -> last analysis line, kept across redraws
const analysisTimers = {};
let analysisSent = 0;

function tileEntry(target, path, ready) {
  target.melds = target.melds || [];
  const size = ready ? 13 : 14;
  const box = el("div", { class: "tiles-entry" });
  const info = el("div", { class: "analysis " + ((analysisShown[path] || {}).cls || "muted"), "data-analysis-for": path },
    (analysisShown[path] || {}).text || "");
  const draw = () => {
    const hand = countsOf(target.tiles);
    const melds = target.melds.map(m => ({ text: m, counts: countsOf(m) }));
    const onTable = hand ? hand.slice() : new Array(27).fill(0);
    melds.forEach(m => { if (m.counts) m.counts.forEach((c, t) => { onTable[t] += c; }); });
    const held = (hand ? hand.reduce((a, b) => a + b, 0) : 0) + 3 * target.melds.length;
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
    const modes = el("div", { class: "chips" }, ...["hand", "melds"].map(mode => el("button", {
      type: "button", class: "chip small" + (where === mode ? " selected" : ""), "data-keypad-mode": mode,
      on: { click: () => { keypadWhere[path] = mode; draw(); } } }, mode === "hand" ? T.toHand : T.toMelds)));
    const keypad = el("div", { class: "keypad" });
    for (let s = 0; s < 3; s++) {
      const group = el("div", { class: `keys suit-${s}` });
      for (let r = 0; r < 9; r++) {
        const t = s * 9 + r;
        const pong = target.melds.findIndex(m => { const c = countsOf(m); return c && c[t] === 3; });
        // Never a fifth copy: a key is off once four of its tile are held (a pong becomes a kong with one more).
        const full = where === "hand" ? onTable[t] >= 4 : (pong >= 0 ? onTable[t] >= 4 : onTable[t] + 3 > 4);
        group.append(el("button", { type: "button", class: "key", "data-key": tileLabel(t), disabled: full || !hand,
          on: { click: () => {
            if (where === "hand") { hand[t] += 1; setTiles(textOf(hand)); }
            else if (pong >= 0) { target.melds[pong] = String(r + 1).repeat(4) + SUIT_LETTERS[s]; setMelds(target.melds); }
            else { target.melds.push(String(r + 1).repeat(3) + SUIT_LETTERS[s]); setMelds(target.melds); }
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
    box.append(handRow, info, meldRow, modes, keypad, typing);
  };
  // Typed text redraws only the keypad's chips and counts, never the field being typed in.
  const typed = () => {
    saveDraft(); analyseSoon(target, path, ready, info); schedulePreview();
    const focus = rememberFocus();
    draw();
    restoreFocus(focus);
  };
  const setTiles = (text) => { target.tiles = text; typed(); };
  const setMelds = (melds) => { target.melds = melds; typed(); };
  draw();
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
    askAnalysis({ tiles: target.tiles, melds: target.melds, ready }).then(({ ok, data }) => {
      if (mine !== analysisSent && asked !== JSON.stringify([target.tiles, target.melds])) return;
      let shown;
      if (!ok) shown = { cls: "analysis error", text: (data.errors || []).map(e => e.message).join("；") };
      else if (ready) shown = { cls: "analysis ok", text: `${T.waits}: ` + data.waits.map(w => `${w.tile} ${patternName(w.pattern)} ${w.fan}${T.fan}`).join("，") };
      else shown = { cls: "analysis ok", text: `${patternName(data.pattern)}${data.roots ? ` +${data.roots}${T.roots}` : ""} · ${data.fan}${T.fan}` };
      analysisShown[path] = shown;
      const live = document.querySelector(`[data-analysis-for="${CSS.escape(path)}"]`) || info;
      live.className = shown.cls; live.textContent = shown.text;
    }).catch(() => { /* the preview reports the connection */ });
  }, 300);
}
const patternName = (code) => (cfg.patterns[code] || { name: code }).name;

// ---- 流局 / 查叫 ---------------------------------------------------------------------------------
function renderExhaustion() {
  const box = $("exhaustion");
  box.hidden = !entry.exhausted;
  box.replaceChildren();
  if (!entry.exhausted) return;
  box.append(el("strong", {}, T.exhausted), errorSlot("ready"));
  const rc = choices && choices.ready ? choices.ready : { seats: [], min_fan: 0, max_fan: 0 };
  const pigsAllowed = (choices && choices.hua_zhu) || [];
  rc.seats.forEach(seat => {
    const key = String(seat), ready = entry.ready[key];
    // 血流成河: a past winner is ready by the rules (RULES.md §9): marked so, not to be unmarked; only its fan or tiles.
    const fixed = !!ready && (rc.required || []).includes(seat);
    const row = el("div", { class: "ready-row", "data-path": `ready.${key}` });
    row.append(el("span", { class: "who" }, name(seat)),
      el("button", { type: "button", class: "chip" + (ready ? " selected" : ""), "data-ready": key, disabled: fixed,
        "aria-pressed": ready ? "true" : "false", on: { click: () => {
          if (ready) delete entry.ready[key];
          else { entry.ready[key] = { fan: rc.min_fan }; entry.hua_zhu = entry.hua_zhu.filter(s => s !== seat); }
          changed();
        } } }, ready ? `✓ ${T.isReady}` : T.markReady));
    if (!ready && pigsAllowed.includes(seat)) {
      const pig = entry.hua_zhu.includes(seat);
      row.append(el("button", { type: "button", class: "chip" + (pig ? " selected" : ""), "data-hua-zhu": key, on: { click: () => {
        entry.hua_zhu = pig ? entry.hua_zhu.filter(s => s !== seat) : [...entry.hua_zhu, seat]; changed();
      } } }, T.huaZhu));
    }
    if (ready) {
      const useTiles = ready.tiles !== undefined;
      row.append(el("button", { type: "button", class: "link", "data-action": "tiles", on: { click: () => {
        entry.ready[key] = useTiles ? { fan: rc.min_fan } : { tiles: "", melds: [] }; changed();
      } } }, useTiles ? T.quick : T.tiles));
      row.append(useTiles ? tileEntry(ready, `ready.${key}`, true)
        : stepper(T.fan, ready.fan || 0, rc.min_fan, rc.max_fan, v => { ready.fan = v; changed(); }));
    }
    row.append(errorSlot(`ready.${key}`));
    box.append(row);
  });
}

// ---- preview and errors ----------------------------------------------------------------------
function errorSlot(path) { return el("div", { class: "field-error", "data-error-for": path }); }
function body() {
  const doc = { events: entry.events, exhausted: entry.exhausted };
  if (entry.exhausted) { doc.ready = entry.ready; doc.hua_zhu = entry.hua_zhu; }
  return doc;
}
// Each error goes to the most specific slot whose path starts its path; the rest are shown in the bar.
function placeErrors(errors) {
  document.querySelectorAll(".field-error").forEach(n => { n.textContent = ""; });
  const slots = Array.from(document.querySelectorAll("[data-error-for]"));
  const general = [];
  errors.forEach(err => {
    const match = slots.filter(n => { const p = n.dataset.errorFor;
      return err.path === p || err.path.startsWith(p + ".") || err.path.startsWith(p + "["); })
      .sort((a, b) => b.dataset.errorFor.length - a.dataset.errorFor.length)[0];
    if (match) match.textContent += (match.textContent ? "；" : "") + err.message;
    else general.push(err.message);
  });
  return general;
}
function schedulePreview(delay) {
  current = false;
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, delay === undefined ? 150 : delay);
}
function preview() {
  const mine = ++sent;
  const asked = JSON.stringify(body());
  askPreview(body(), dealerNow()).then(({ ok: answered, data }) => {
    if (mine !== sent) return;  // a newer request is on its way: its answer wins
    const ok = answered && !data.so_far;  // an unfinished hand answers 200 with its payments so far
    lastResult = ok ? data : null;
    choices = data.choices || choices;
    current = asked === JSON.stringify(body());
    if (choices && current && followBounds()) { changed(0); return; }
    render();
    showPreview(ok, data);
    focusNextStep(null);
  }).catch(() => {
    if (mine !== sent) return;
    showOffline();
  });
}
function showOffline() {
  const box = $("preview");
  box.className = "preview card bad";
  box.replaceChildren(el("p", { class: "error" }, T.offline));
}
function showPreview(ok, data) {
  const box = $("preview");
  const result = ok ? data : data.so_far;
  const general = ok ? placeErrors([]) : placeErrors(data.errors || []);
  box.replaceChildren();
  box.className = "preview card " + (ok ? "good" : "bad");
  if (result) {
    const net = el("div", { class: "net" });
    if (!ok) net.append(el("span", { class: "muted" }, T.soFar));
    result.net.forEach((amount, seat) => {
      const n = Number(amount);
      net.append(el("span", { class: "amount " + (n > 0 ? "pos" : n < 0 ? "neg" : "") }, `${name(seat)} ${n > 0 ? "+" : ""}${amount}`));
    });
    const list = el("ul", { class: "payments" });
    result.payments.forEach(p => list.append(el("li", {}, `${name(p.from)} → ${name(p.to)} ${p.amount} (${T[p.reason] || p.reason})`)));
    if (!result.payments.length) list.append(el("li", { class: "muted" }, T.noPayments));
    box.append(net, list);
  }
  // An unfinished hand is said in the table's words next to the save button; other problems above it.
  const unfinished = !ok && choices && !choices.complete;
  const shown = unfinished ? general.filter(m => !(data.errors || []).some(e => e.path === "exhausted" && e.message === m)) : general;
  if (shown.length) box.append(el("div", { class: "general-errors" }, ...shown.map(m => el("p", { class: "error" }, m))));
  canSave = ok;
  $("save").disabled = !ok;
  // Not over yet is no error: said in plain words (a new hand says how to start), never in red.
  const entry = body();
  const fresh = !(entry.events || []).length && !entry.exhausted;
  $("save-hint").textContent = ok ? "" : (unfinished ? (fresh ? T.startHint : T.notFinished) : T.fixFirst);
  $("save-hint").classList.toggle("pending", !ok && !!unfinished);
}

// The preview shrinks to one line of nets while a field has focus or the keyboard is open; a tap expands it.
const bar = $("bar");
const keyboardOpen = () => window.visualViewport && window.visualViewport.height < window.innerHeight * 0.75;
function fitBar() {
  const typing = document.activeElement && document.activeElement.matches("input, textarea");
  bar.classList.toggle("compact", !!typing || keyboardOpen());
  document.documentElement.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
}
// Tapping a button while a field has focus moves the focus first: growing the bar then would move the button
// from under the finger and lose the tap. While a finger (or the mouse) is down, the bar waits for the tap to end.
let pressing = false;
const fitSoon = () => setTimeout(() => { if (!pressing) fitBar(); }, 50);
document.addEventListener("pointerdown", () => { pressing = true; }, true);
["pointerup", "pointercancel"].forEach(type => document.addEventListener(type, () => {
  pressing = false;
  setTimeout(fitBar, 400);  // after the click that ends the tap
}, true));
// A field taking the focus shrinks the bar at once (the keyboard is coming); anything else waits for the tap.
document.addEventListener("focusin", e => (e.target.matches("input, textarea") ? fitBar() : fitSoon()));
document.addEventListener("focusout", fitSoon);
if (window.visualViewport) window.visualViewport.addEventListener("resize", fitSoon);
$("preview").addEventListener("click", () => { bar.classList.toggle("expanded"); fitBar(); });

function changed(delay) { saveDraft(); render(); schedulePreview(delay); }

function postJSON(url, payload, headers) {
  return fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept-Language": document.documentElement.lang, ...(headers || {}) },
    body: JSON.stringify(payload),
  }).then(r => r.json().then(data => ({ ok: r.ok, status: r.status, data })));
}

// Online the server answers (it stays the authority); when it cannot be reached, the engine in the phone gives
// the same document (scoring.preview, the function behind the preview API) for the same entry.
const lang = document.documentElement.lang;
function askPreview(doc, dealer) {
  if (isOffline() && !cfg.correcting) return inPhone(doc, dealer);
  return postJSON(cfg.previewUrl, { ...doc, dealer }).then((answer) => { setOffline(false); return answer; }, (lost) => {
    if (cfg.correcting) throw lost;  // a correction is made online only
    setOffline(true);
    return inPhone(doc, dealer);
  });
}
// The first offline preview waits for the engine to start (seconds, bench/README.md): the bar says so.
function inPhone(doc, dealer) {
  if (!engineReady()) {
    const box = $("preview");
    box.className = "preview card";
    box.replaceChildren(el("p", { class: "muted", id: "engine-starting" }, T.engineStarting));
  }
  return enginePreview(cfg.engine, doc, dealer, lang);
}
function askAnalysis(doc) {
  if (isOffline()) return engineAnalysis(cfg.engine, doc, lang);
  return postJSON(cfg.analyseUrl, doc).catch(() => { setOffline(true); return engineAnalysis(cfg.engine, doc, lang); });
}

// ---- save and undo ---------------------------------------------------------------------------
// One idempotency key per hand, kept with the draft: a retry after a lost answer or a reload never
// records the hand twice.
$("save").addEventListener("click", () => { if (canSave) (cfg.correcting ? saveCorrection() : saveHand()); });
function saveCorrection() {
  const payload = body();
  const reason = $("reason").value.trim();
  if (!reason) { $("reason").focus(); $("save-hint").textContent = T.reasonNeeded; return; }
  payload.reason = reason;
  $("save").disabled = true;
  postJSON(cfg.saveUrl, payload, { "Idempotency-Key": draft.key }).then(({ ok, status, data }) => {
    $("save").disabled = false;
    // 422: this key was used for another version of the hand, whose answer was lost: it may be saved already.
    if (status === 422) { $("save-hint").textContent = T.maybeSaved; return; }
    if (!ok) { preview(); showPreview(false, { errors: data.errors || [], so_far: null }); return; }
    localStorage.removeItem(cfg.draftKey);
    window.location = cfg.doneUrl;  // back where the correction was opened (the table page or the hand list)
  }).catch(() => { $("save").disabled = false; $("save-hint").textContent = T.offline; });
}

// A new hand goes into the queue on the phone first (nothing is lost from here on), then out to the server in
// order with the hands before it. Entered offline, it carries the dealer it was entered under, so the server
// scores it as the table saw it; entered online, the server's next dealer stands, as before.
async function saveHand() {
  $("save").disabled = true;
  const payload = body();
  const item = { night: cfg.night, key: draft.key, payload, dealer: dealerNow(), number: nextNumber(),
                 names: cfg.players.slice(), net: lastResult ? lastResult.net : [],
                 next_dealer: lastResult ? lastResult.next_dealer : dealerNow(), offline: isOffline(),
                 entered_at: new Date().toISOString(), state: "waiting", errors: [] };
  if (item.offline) payload.dealer = item.dealer;
  try {
    await enqueue(item);
  } catch (noStorage) {  // private mode without IndexedDB: the old way, straight to the server
    return saveStraight(payload);
  }
  localStorage.removeItem(cfg.draftKey);
  const landed = await flush();
  const mine = landed.find((h) => h.key === item.key);
  if (mine && !item.offline && landed.length === 1) { window.location = `${cfg.tableUrl}?saved=${mine.number}`; return; }
  const [still] = (await queued(cfg.night)).filter((h) => h.key === item.key);
  if (still && still.state === "refused" && !item.offline) {
    // Refused at once, online: the entry goes back to the form with the server's words, as before the queue.
    await remove(still.id);
    saveDraft();
    $("save").disabled = false;
    preview();
    showPreview(false, { errors: still.errors.map((message) => ({ path: "", message })), so_far: null });
    return;
  }
  startOver();
  toast(mine ? `${T.saved} #${mine.number}` : T.queuedToast);
}
function saveStraight(payload) {
  postJSON(cfg.saveUrl, payload, { "Idempotency-Key": draft.key }).then(({ ok, status, data }) => {
    $("save").disabled = false;
    if (status === 422) { $("save-hint").textContent = T.maybeSaved; return; }
    if (!ok) { preview(); showPreview(false, { errors: data.errors || [], so_far: null }); return; }
    localStorage.removeItem(cfg.draftKey);
    window.location = `${cfg.tableUrl}?saved=${data.number}`;
  }).catch(() => { $("save").disabled = false; $("save-hint").textContent = T.offline; });
}
// The next hand: a fresh entry and key, its dealer after the hands waiting in the queue.
function startOver() {
  draft = { entry: { events: [], exhausted: false, ready: {}, hua_zhu: [] }, key: newKey() };
  takeDraft();
  pick = null; choices = null; current = false; lastResult = null;
  $("save").disabled = true;
  changed(0);
}
function toast(text) {
  const box = $("toast");
  box.replaceChildren(el("span", {}, text));
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- the queue: hands saved on the phone, not yet on the server -------------------------------
let lastResult = null;   // the result document of the entry as last previewed (its nets and next dealer)
const view = queueView(cfg, { onEdit: editQueued, onDraw: markDealer });
// While hands wait, the seats mark the dealer of the hand being entered (after the queued ones), not the server's.
function markDealer(state) {
  if (!state.waiting.length) return;
  const dealer = dealerNow();
  document.querySelectorAll("#seats .seat[data-seat]").forEach((seat) => {
    const mine = Number(seat.dataset.seat) === dealer;
    seat.classList.toggle("dealer", mine);
    const tag = seat.querySelector(".tag");
    if (tag && !mine) tag.remove();
    if (!tag && mine) seat.append(el("span", { class: "tag" }, T.dealer));
  });
}
const dealerNow = () => { const w = view.state.waiting; return w.length ? w[w.length - 1].next_dealer : cfg.dealer; };
const nextNumber = () => cfg.top + view.state.waiting.length + 1;
const readQueue = () => view.read();
const flush = () => view.flush();
// A refused hand back in the form, to be put right and saved again (a new key: the old one holds the refusal).
async function editQueued(item) {
  if (entry.events.length && !window.confirm(T.replaceDraft)) return;
  await remove(item.id);
  draft = { entry: { events: item.payload.events || [], exhausted: !!item.payload.exhausted, ready: item.payload.ready || {},
                     hua_zhu: item.payload.hua_zhu || [] }, key: newKey() };
  takeDraft(); pick = null; saveDraft();
  await readQueue();
  changed(0);
}

if (cfg.saved) {
  const toast = $("toast");
  toast.hidden = false;
  toast.append(el("span", {}, `${T.saved} #${cfg.saved} `), el("button", { type: "button", class: "chip", id: "undo", on: { click: () => {
    // "undo" is shown as 已撤销 / Undone in the page's language.
    postJSON(cfg.voidUrl.replace("{n}", cfg.saved), { reason: "undo" }, { "Idempotency-Key": newKey() }).then(({ ok }) => {
      if (ok) window.location = cfg.tableUrl;
    });
  } } }, T.undo));
  history.replaceState(null, "", cfg.tableUrl);
  setTimeout(() => { toast.hidden = true; }, 10000);
}

// Turning the picture is every viewer's own choice: static/ledger/turn.js.

// Another phone saved a hand: the next dealer may have changed; the draft stays as it is.
// A seat change shows in the seat buttons the live page redrew: the entry takes the names from there.
document.addEventListener("ledger:night", (ev) => {
  const detail = ev.detail || {};
  if (!cfg.correcting && typeof detail.hand_count === "number") cfg.top = Math.max(cfg.top, detail.hand_count);
  if (!cfg.correcting && typeof detail.counted === "number") followCorrectLink(detail.counted);
  keepPage();
  if (!cfg.correcting && typeof detail.next_dealer === "number" && detail.next_dealer !== cfg.dealer) {
    cfg.dealer = detail.next_dealer;
    schedulePreview(0);
  }
  if (!cfg.correcting) {
    document.querySelectorAll("#seats .seat[data-seat]").forEach(b => {
      const shown = b.querySelector(".name");
      if (shown && shown.textContent.trim()) cfg.players[Number(b.dataset.seat)] = shown.textContent.trim();
    });
    render();
  }
  renderSeats();
  markDealer(view.state);
});

// 更正第 N 局 follows the night: the last hand that counts now, whoever saved it.
function followCorrectLink(counted) {
  let link = $("correct-last");
  if (!counted) { if (link) link.remove(); return; }
  if (!link) {
    link = el("a", { id: "correct-last" });
    document.querySelector("nav.links").prepend(link);
  }
  link.href = cfg.correctUrl.replace("{n}", counted);
  link.textContent = T.correctLast.replace("%(n)s", counted);
}

// Back online: the queue goes out by itself, and the preview is asked of the server again.
onStatus((offline) => {
  if (offline) { if (!cfg.correcting) startEngine(cfg.engine).catch(() => {}); return; }
  flush();
  schedulePreview(0);
});
window.addEventListener("online", () => flush());
// A phone may not say when the network is back (a Wi-Fi without internet): while hands wait, try now and then.
setInterval(() => { if (view.state.waiting.some((h) => h.state !== "refused")) flush(); }, 15000);

setupOffline(cfg);
render();
// A keyboard starts where a hand starts (the page is for recording; a screen reader hears the seats first anyway).
if (!cfg.correcting && !entry.events.length) $("add-win").focus({ preventScroll: true });
fitBar();
if (!cfg.correcting) {
  readQueue().then(() => { schedulePreview(0); if (!isOffline()) flush(); });
} else schedulePreview(0);
