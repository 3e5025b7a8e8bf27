// What the table page does when the night changes on another phone (the live page's "ledger:night" event): the
// next dealer and hand number, the 更正第 N 局 link, the players' names; the draft stays as it is.
import { $, el } from "./dom.js";
import { afterTap } from "./tap.js";
import { keepPage } from "./offline.js";
import { renderSeats } from "./seats.js";
import { flush, markDealer, readQueue, view } from "./table_queue.js";
import { T, cfg, render, schedulePreview, startAfresh, state } from "./state.js";

// A seat change shows in the seat buttons the live page redrew: the entry takes the names from there.
export function followNight(ev) {
  afterTap(() => follow(ev.detail || {}));  // not under a finger that is tapping (tap.js)
}
function follow(detail) {
  const closed = $("closed-live");
  if (closed && !closed.hidden) return;  // the night closed: no entry to follow (closed.js)
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
  // The server answers again, and a hand just recorded may be one of ours whose answer was lost (a walk: its totals
  // showed it beside "not sent yet" for up to 15 s): the waiting hands go now, each under its own key.
  if (detail.kind === "hand_recorded" && view.state.waiting.some((h) => (h.state || "waiting") === "waiting")) flush();
  if (detail.kind === "night_reopened") readQueue();  // a hand refused for the close may be put right again
  if (detail.kind === "hand_recorded") savedElsewhere(detail.number);
}

// Another phone saved a hand while this one holds a hand begun (a walk: two phones entered the same hand, and the
// second's draft went on as the next hand, to be saved twice). The draft stays, as always; this asks, once per hand
// saved there. Not while this phone saves, nor while its own queued hands go out (their numbers are not known yet),
// nor for a hand this phone's queue sent (a walk: its live event came after the queue had emptied).
function savedElsewhere(number) {
  const entry = state.entry;
  const begun = entry.events.length > 0 || entry.exhausted;
  if (!begun || state.saving || view.state.waiting.length || typeof number !== "number") return;
  if (view.state.sent.has(number)) return;
  const box = $("saved-elsewhere");
  box.replaceChildren(el("p", {}, T.savedElsewhere.replace("%(n)s", number)),
    el("div", { class: "row" },
      el("button", { type: "button", class: "primary", id: "drop-draft", on: { click: startAfresh } }, T.dropDraft),
      el("button", { type: "button", class: "link", id: "keep-draft", on: { click: () => { box.hidden = true; } } }, T.keepDraft)));
  box.hidden = false;
}

// 更正第 N 局 follows the night: the last hand that counts now, whoever saved it.
function followCorrectLink(counted) {
  let link = $("correct-last");
  if (!counted) { if (link) link.remove(); return; }
  if (!link) {
    link = el("a", { id: "correct-last", "data-live-hide-closed": true });
    document.querySelector("nav.links").prepend(link);
  }
  link.href = cfg.correctUrl.replace("{n}", counted);
  link.textContent = T.correctLast.replace("%(n)s", counted);
}
