// What the step being entered has already chosen, on the seats (a walk: until 完成 the winners and the discarder
// tapped looked like everyone else, and the cards that said so were under the bar): the winners of the win being
// entered say 胡牌, its discarder 点炮, the seat whose kong is being entered 杠.
import { el } from "./dom.js";
import { T, state } from "./state.js";

function roleOf(seat) {
  const pick = state.pick;
  if (!pick) return "";
  if (pick.mode === "kind") return pick.seat === seat ? T.seatRole.kong : "";
  const event = state.entry.events[pick.event];
  if (!event) return "";
  if (pick.mode === "kongFrom") return event.player === seat ? T.seatRole.kong : "";
  if (pick.mode !== "from" && pick.mode !== "more") return "";
  if ((event.winners || []).some(w => w.player === seat)) return T.seatRole.winner;
  return pick.mode === "more" && event.from === seat ? T.seatRole.from : "";
}

export function markRole(button, seat) {
  const role = T.seatRole ? roleOf(seat) : "";  // a page kept offline from before seatRole: the kong's seat alone
  const kong = !T.seatRole && !!state.pick && state.pick.mode === "kind" && state.pick.seat === seat;
  button.classList.toggle("picked", !!role || kong);
  let badge = button.querySelector(".role");
  if (!role) { if (badge) badge.remove(); return; }
  if (!badge) { badge = el("span", { class: "role" }); button.append(badge); }
  badge.textContent = role;
}
