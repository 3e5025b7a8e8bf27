// The queue as the table page uses it (queue_view.js draws it): the dealer and number of the hand being entered come
// after the hands waiting on the phone, and a refused hand goes back into the form.
import { el, newKey } from "./dom.js";
import { releaseHeld, update } from "./queue.js";
import { queueView } from "./queue_view.js";
import { T, cfg, changed, emptyEntry, saveDraft, state, takeDraft } from "./state.js";

export const view = queueView(cfg, { onEdit: editQueued, onDraw: markDealer, onDiscard: dropDraftOf });
// While hands wait, the seats mark the dealer of the hand being entered (after the queued ones), not the server's,
// and the head and the tab its number (they said 第 22 局 while the queue said 接下来第 25 局).
// The tab's title around its hand number ("周五夜 · 第 | 22 | 局"), as the page came: rebuilt, never searched again.
const shown = document.querySelector(".table-head .hand-number");
const titleAt = shown ? document.title.lastIndexOf(shown.textContent) : -1;
const titleParts = titleAt >= 0 ? [document.title.slice(0, titleAt), document.title.slice(titleAt + shown.textContent.length)] : null;
export function markDealer(queue) {
  // The last one sent or dropped: the server's next hand and dealer again.
  const next = queue.waiting.length ? nextNumber() : cfg.top + 1;
  const number = document.querySelector(".table-head .hand-number");
  if (number && number.textContent !== String(next)) number.textContent = String(next);
  if (titleParts && !document.querySelector("[data-live=head][data-tab-title]")) document.title = titleParts[0] + next + titleParts[1];
  const dealer = dealerNow();
  const pending = pendingNets(queue.waiting);
  document.querySelectorAll("#seats .seat[data-seat]").forEach((seat) => {
    const mine = Number(seat.dataset.seat) === dealer;
    seat.classList.toggle("dealer", mine);
    const tag = seat.querySelector(".tag");
    if (tag && !mine) tag.remove();
    if (!tag && mine) seat.append(el("span", { class: "tag" }, T.dealer));
    markPending(seat, pending[Number(seat.dataset.seat)]);
  });
}
// The seats' totals are the server's; the hands waiting on the phone add to them once sent. Each seat says by how
// much, exactly, beside its total ("未发送 +16"): not folded in, since the server's table fee may follow them.
// A refused hand counts for nothing until it is put right (held for 改正, the form holds its new entry).
export function pendingNets(waiting) {
  const counted = waiting.filter((w) => w.state !== "refused" && w.state !== "editing");
  return cfg.players.map((_, seat) => counted.length ? sumAmounts(counted.map((w) => (w.net || [])[seat] || "0")) : null);
}
function markPending(seat, amount) {
  let mark = seat.querySelector(".pending-net");
  if (amount === null || amount === undefined) { if (mark) mark.remove(); return; }
  if (!mark) { mark = el("small", { class: "pending-net" }); seat.querySelector(".name").after(mark); }
  const signed = amount.startsWith("-") || amount === "0" ? amount : `+${amount}`;
  mark.textContent = T.pendingNet.replace("%(amount)s", signed);
}
// Exact sums of decimal strings ("8", "-0.5"): scaled to whole numbers (BigInt), never through floating point.
export function sumAmounts(amounts) {
  const places = Math.max(0, ...amounts.map((a) => (String(a).split(".")[1] || "").length));
  const scaled = (a) => {
    const [whole, part = ""] = String(a).replace("-", "").split(".");
    const value = BigInt(whole || "0") * 10n ** BigInt(places) + BigInt((part + "0".repeat(places)).slice(0, places) || "0");
    return String(a).startsWith("-") ? -value : value;
  };
  const total = amounts.reduce((sum, a) => sum + scaled(a), 0n);
  const negative = total < 0n, digits = (negative ? -total : total).toString().padStart(places + 1, "0");
  const text = places ? `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/\.?0+$/, "") : digits;
  return negative ? `-${text}` : text;
}
// A refused hand being put right keeps its place at the head of the queue: the form enters it, with its number and
// dealer, and the hands behind it wait (they went out first, and the fixed hand landed after them).
export const fixing = () => view.state.waiting.find((w) => w.state === "editing");
export const dealerNow = () => {
  const w = view.state.waiting, held = fixing();
  return held ? held.dealer : w.length ? w[w.length - 1].next_dealer : cfg.dealer;
};
export const nextNumber = () => { const held = fixing(); return held ? held.number : cfg.top + view.state.waiting.length + 1; };
// A hand held for 改正 whose draft is gone (清空, another tab, a full storage) goes back to refused (queue.js).
export const readQueue = () => view.read().then(() => releaseHeld(view, (w) => w.id === state.draft.replaces));
// The hand held for 改正 dropped (放弃这一局): its entry leaves the form too.
function dropDraftOf(item) {
  if (state.draft.replaces !== item.id) return;
  state.draft = { entry: emptyEntry(), key: newKey() };
  takeDraft(); state.pick = null; saveDraft();
  changed(0);
}
export const flush = () => view.flush();
// A refused hand back in the form, to be put right and saved again in its place (a new key: the old one holds the
// refusal); until then it holds the hands behind it.
async function editQueued(item) {
  if (state.entry.events.length && !window.confirm(T.replaceDraft)) return;
  await update({ ...item, state: "editing" });
  state.draft = { entry: { events: item.payload.events || [], exhausted: !!item.payload.exhausted, ready: item.payload.ready || {},
                           hua_zhu: item.payload.hua_zhu || [] }, key: newKey(), replaces: item.id };
  takeDraft(); state.pick = null; state.lastWins = []; saveDraft();  // the wins previewed were another entry's
  await readQueue();
  changed(0);
}
