// Drawing the whole entry after a change: the seats and picker, the event cards, 流局; the focus kept or moved on.
import { renderEvents } from "./cards.js";
import { renderExhaustion } from "./exhaustion.js";
import { focusNextStep, focusedButton, rememberFocus, restoreFocus } from "./focus.js";
import { renderPicker, renderSeats } from "./seats.js";

export function render() {
  const focus = rememberFocus();
  const button = focusedButton();
  renderSeats(); renderPicker(); renderEvents(); renderExhaustion();
  restoreFocus(focus);
  focusNextStep(button);
}
