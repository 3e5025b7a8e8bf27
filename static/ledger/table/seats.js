// The seats and the picker under them: which seats may be tapped comes from the engine; a tap starts a win
// (winner, then who dealt in, then more winners) or a kong (who, then which kind, then who gave the tile).
import { $, el } from "./dom.js";
import { markRole } from "./roles.js";
import { T, cfg, changed, eventChoices, name, render, saveDraft, state } from "./state.js";

const PROMPTS = { winner: T.pickWinner, from: T.pickFrom, more: T.pickMore, konger: T.pickKonger,
                  kind: T.pickKind, kongFrom: T.pickKongFrom };
function pickable() {
  const { pick, current, choices } = state;
  if (!pick || !current || !choices) return [];
  const ec = eventChoices(pick.event);
  if (pick.mode === "winner") return choices.next.winners;
  if (pick.mode === "konger") return choices.next.kongers;
  if (pick.mode === "from" || pick.mode === "kongFrom") return ec ? ec.from : [];
  if (pick.mode === "more") return ec ? ec.more_winners : [];
  return [];
}
// 血流成河 (RULES.md §9): a past winner stays in the hand, so its seat stays where it is and may still be tapped
// (to win again, deal in or kong); it carries the count of its wins on the event cards below. In 血战 a past
// winner is out: its seat says 已胡 (a walk: only the event list said who was out). The win being entered (its
// discarder or its other winners still to tap) counts once it is done: a tapped winner is not yet someone who has won.
function winsBySeat() {
  const wins = new Map();
  const pick = state.pick;
  const entering = pick && (pick.mode === "from" || pick.mode === "more") ? pick.event : -1;
  state.entry.events.forEach((e, i) => {
    if (e.type === "win" && i !== entering) {
      (e.winners || []).forEach(w => wins.set(w.player, (wins.get(w.player) || 0) + 1));
    }
  });
  return wins;
}
function markWins(button, count) {
  let badge = button.querySelector(".wins");
  if (!count) { if (badge) badge.remove(); return; }
  if (!badge) { badge = el("span", { class: "wins" }); button.append(badge); }
  badge.textContent = cfg.mode === "xue_liu" ? T.wonTimes.replace("%(n)s", count) : T.won;
}
export function renderSeats() {
  const ok = pickable();
  const wins = winsBySeat();
  document.querySelectorAll("#seats .seat").forEach(b => {
    const can = ok.includes(Number(b.dataset.seat));
    b.disabled = !can;
    b.classList.toggle("pickable", can);
    markRole(b, Number(b.dataset.seat));  // what the step has chosen: its winners, discarder, kong's seat (a walk)
    markWins(b, wins.get(Number(b.dataset.seat)) || 0);
  });
  const prompt = $("prompt");
  const pick = state.pick;
  const words = pick && pick.mode === "kind" ? `${name(pick.seat)} · ${T.pickKind}` : pick && PROMPTS[pick.mode];
  if (prompt) prompt.textContent = pick ? (state.current || pick.mode === "kind" ? words : T.checking) : "";
  if (stepWords()) {  // a question, in grey; the preview says the rest (preview.js)
    $("save-hint").textContent = stepWords();
    $("save-hint").classList.add("pending");
  }
}
// Who won, who konged, which kind: the bar says the question the seats ask (it said how to start a hand, a walk).
export function stepWords() {
  return { winner: T.pickWinner, konger: T.pickKonger, kind: T.pickKind }[state.pick && state.pick.mode] || "";
}

function newWinner(seat) { return { player: seat, pattern: "ping_hu", roots: 0, flags: [] }; }
export function tapSeat(seat) {
  const pick = state.pick, events = state.entry.events;
  if (pick.mode === "winner") {
    events.push({ type: "win", from: null, winners: [newWinner(seat)] });
    state.pick = { mode: "from", event: events.length - 1 };
    state.intent = "from";
  } else if (pick.mode === "from") {
    events[pick.event].from = seat;
    state.pick = { mode: "more", event: pick.event };
    state.intent = "more";
  } else if (pick.mode === "more") {
    events[pick.event].winners.push(newWinner(seat));
    state.intent = "more";
  } else if (pick.mode === "konger") {
    state.pick = { mode: "kind", seat };
    state.intent = "kind";
    saveDraft();
    render();
    return;
  } else if (pick.mode === "kongFrom") {
    events[pick.event].from = seat;
    state.pick = null;
    state.intent = "next";
  }
  changed(0);
}

// No more winners of this discard: on to the winners' patterns. changed(), not render() alone: redrawn, the cards'
// error slots are empty until the preview answers again (a 点炮 below the table's least fan said nothing until a tap).
export function moreDone() { state.intent = { pattern: state.pick.event }; state.pick = null; changed(0); }

export function renderPicker() {
  const box = $("picker");
  const pick = state.pick;
  box.replaceChildren();
  box.hidden = !pick;
  if (!pick) return;
  const ec = eventChoices(pick.event);
  if (pick.mode === "from" && state.current && ec && ec.self_draw) {
    box.append(el("button", { type: "button", class: "big chip-strong", id: "pick-self-draw", on: { click: () => {
      state.entry.events[state.pick.event].from = null; state.intent = { pattern: state.pick.event }; state.pick = null; changed(0);
    } } }, T.selfDraw));
  }
  if (pick.mode === "more") {
    box.append(el("button", { type: "button", class: "big chip-strong", id: "pick-done", on: { click: moreDone } }, T.done));
  }
  if (pick.mode === "kind") {
    for (const kind of ["direct", "added", "concealed"]) {
      box.append(el("button", { type: "button", class: "big", "data-kind": kind, on: { click: () => {
        const kong = { type: "kong", player: state.pick.seat, kind };
        state.entry.events.push(kong);
        state.pick = kind === "direct" ? { mode: "kongFrom", event: state.entry.events.length - 1 } : null;
        state.intent = kind === "direct" ? "seat" : "next";
        changed(0);
      } } }, (T.kindButton || T)[kind]));  // a page kept offline from before kindButton: the sentence's words
    }
  }
  if (pick.mode !== "more") {
    box.append(el("button", { type: "button", class: "link", id: "pick-cancel", on: { click: () => {
      // An event still waiting for its discarder is not kept half-made.
      if (state.pick.mode === "from" || state.pick.mode === "kongFrom") state.entry.events.splice(state.pick.event, 1);
      state.pick = null; changed(0);
    } } }, T.cancel));
  }
}
