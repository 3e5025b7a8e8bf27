// Steps of the seat picker that the engine's answer settles by itself.
import { moreDone, tapSeat } from "./seats.js";
import { eventChoices, state } from "./state.js";

// 一炮多响 with no seat left to tap (everyone else has won or dealt in; at a table of two, at once): the step is done,
// as 完成 would say (a walk: "tap 完成" named a button below the fold, with 保存本局 already in view).
function nobodyElse() {
  const pick = state.pick;
  if (!pick || pick.mode !== "more") return false;
  const ec = eventChoices(pick.event);
  if (!ec || (ec.more_winners || []).length) return false;
  moreDone();
  return true;
}
// A direct kong whose tile only one seat can have discarded (the other player at a table of two; the one still
// playing beside the konger at three): the engine's choices leave no question, so the seat is filled in, one tap
// fewer. (A win's discarder is still asked: 自摸 is always the other answer.)
function onlyDiscarder() {
  const pick = state.pick;
  if (!pick || pick.mode !== "kongFrom") return false;
  const ec = eventChoices(pick.event);
  if (!ec || !ec.from || ec.from.length !== 1) return false;
  tapSeat(ec.from[0]);
  return true;
}
export const answeredSteps = () => onlyDiscarder() || nobodyElse();

