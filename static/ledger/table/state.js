// The hand being entered and what the engine last said of it, shared by the table page's modules; and the one
// loop every change goes through: kept on the phone, drawn, previewed.
import { newKey } from "./dom.js";

export const cfg = JSON.parse(document.getElementById("table-config").textContent);
export const T = cfg.strings;

// ---- the draft: the entry, its idempotency key; kept on the phone until it is saved ------------
function loadDraft() {
  try {
    const saved = JSON.parse(localStorage.getItem(cfg.draftKey));
    if (saved && saved.entry && saved.key) return saved;
    if (saved && Array.isArray(saved.events)) return { entry: saved, key: newKey() };  // an older draft
  } catch (e) { /* an unreadable draft is dropped */ }
  return null;
}

export const state = {
  draft: loadDraft() || { entry: cfg.initial || {}, key: newKey() },
  entry: null,        // draft.entry, its lists filled in
  choices: null,      // the engine's answer for the entry as last previewed
  current: false,     // whether `choices` describes the entry as it is now
  pick: null,         // what a seat tap means now: {mode, event, seat}
  intent: null,       // the step a handler led to, for the keyboard's focus (focus.js)
  canSave: false,
  saveAsked: false,   // 保存本局 tapped before the entry's preview answered: saved once it has (save.js)
  saving: false,      // a new hand on its way to the server from this phone (save.js, night_changes.js)
  lastResult: null,   // the result document of the entry as last previewed (its nets and next dealer)
  lastWins: [],       // the wins of the entry as last previewed (a whole hand's, or so far): what tiles decided
};
export function takeDraft() {
  const entry = state.entry = state.draft.entry;
  entry.events = entry.events || []; entry.ready = entry.ready || {}; entry.hua_zhu = entry.hua_zhu || [];
  entry.exhausted = !!entry.exhausted;
  // The ready marks that stand only because the seat has won (血流成河, RULES.md §9): taken back with its win
  // (bounds.js). A hand brought back to be corrected, or an older draft, says so by who won.
  if (!state.draft.autoReady) {
    const won = new Set(entry.events.filter(e => e.type === "win").flatMap(e => (e.winners || []).map(w => String(w.player))));
    state.draft.autoReady = Object.keys(entry.ready).filter(k => won.has(k)).map(Number);
  }
}
takeDraft();
// A win still waiting for who dealt in (or a direct kong for who gave the tile) is no 自摸 yet: the question stays
// open, and the hand cannot be saved, until it is answered. It is kept with the draft, so a reload asks it again;
// so are the steps that would otherwise be lost half done (a walk): the other winners of a discard (一炮多响; tapped
// as a new win after a reload they were a second win on a later discard) and a kong's kind not yet chosen.
export const awaiting = () => !!state.pick && (state.pick.mode === "from" || state.pick.mode === "kongFrom");
const KEPT = ["from", "kongFrom", "more", "kind"];
function restorePick() {
  const pick = state.draft.pick, event = pick && state.entry.events[pick.event];
  let fits = false;
  if (pick && pick.mode === "kind") fits = Number.isInteger(pick.seat) && pick.seat >= 0 && pick.seat < cfg.players.length;
  else if (event) {
    fits = (pick.mode === "from" && event.type === "win") || (pick.mode === "kongFrom" && event.type === "kong")
      || (pick.mode === "more" && event.type === "win" && Number.isInteger(event.from)
          && pick.event === state.entry.events.length - 1);
  }
  state.pick = !fits ? null : pick.mode === "kind" ? { mode: "kind", seat: pick.seat } : { mode: pick.mode, event: pick.event };
}
restorePick();
export function saveDraft() {
  state.draft.pick = state.pick && KEPT.includes(state.pick.mode) ? state.pick : null;
  try { localStorage.setItem(cfg.draftKey, JSON.stringify(state.draft)); } catch (e) { /* full */ }
}
export const emptyEntry = () => ({ events: [], exhausted: false, ready: {}, hua_zhu: [] });
// Start this hand again (清空重来): a fresh entry and a fresh idempotency key, the page loaded anew.
export function startAfresh() {
  state.draft.entry = emptyEntry();
  state.draft.key = newKey();
  localStorage.removeItem(cfg.draftKey);
  localStorage.removeItem(`${cfg.draftKey}:reason`);
  window.location.reload();
}

export const name = (seat) => cfg.players[seat];
// 抢杠胡 is a flag of the tile: the robbed player pays as a discarder would, but his kong was robbed, not a discard.
export const robbed = (e) => e.type === "win" && e.winners.length > 0 && e.winners.every(w => (w.flags || []).includes("qiang_gang_hu"));
export const eventChoices = (i) => (state.choices && state.choices.events && state.choices.events[i]) || null;
export function winnerChoices(i, player) {
  const ec = eventChoices(i);
  return ec && ec.winner_choices ? ec.winner_choices.find(w => w.player === player) || null : null;
}

// The entry as the preview and save APIs take it.
export function body() {
  const entry = state.entry;
  const doc = { events: entry.events, exhausted: entry.exhausted };
  if (entry.exhausted) { doc.ready = entry.ready; doc.hua_zhu = entry.hua_zhu; }
  return doc;
}

// The drawing (draw.js) and the preview (preview.js) use the modules that call these, so main.js connects them
// here rather than this module importing them.
const loop = { render: () => {}, schedulePreview: () => {} };
export function connect(render, schedulePreview) { loop.render = render; loop.schedulePreview = schedulePreview; }
export const render = () => loop.render();
export const schedulePreview = (delay) => loop.schedulePreview(delay);
export function changed(delay) { saveDraft(); render(); schedulePreview(delay); }
