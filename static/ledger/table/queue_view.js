// The queue on the page: how many hands wait to be sent, each with its number, dealer and nets; a refused one with
// the server's words and 改正/放弃; the hands sent from it (for 15 s), and where another phone's hands moved their
// numbers (until 知道了).
import { $, el } from "./dom.js";
import { keepPage } from "./offline.js";
import { queued, remove } from "./queue.js";
import { sameEntry, sendQueue } from "./sync.js";
import { toast } from "./toast.js";

const SENT_LINE_MS = 15000;
const notable = (h) => h.number !== h.number_entered || !!h.sameAs;

export function queueView(cfg, { onEdit, onDraw, onDiscard }) {
  const T = cfg.strings;
  const state = { waiting: [], landed: [], sent: new Set() };  // sent: the numbers this phone's hands landed as

  async function read() {
    try { state.waiting = await queued(cfg.night); } catch (e) { state.waiting = []; }
    draw();
    return state.waiting;
  }

  function flush() {
    return sendQueue(cfg, (landed) => {
      cfg.top = Math.max(cfg.top, landed.number);
      state.landed.push(landed); state.sent.add(landed.number);
    }).then(async (landed) => {
      for (const h of landed) if (h.number !== h.number_entered) h.sameAs = await sameAsBefore(h);
      // A plain "sent" line goes after a while; one that asks the table to look stays until 知道了.
      for (const h of landed) if (!notable(h)) setTimeout(() => forget(h), SENT_LINE_MS);
      await read();
      if (landed.some(notable)) pointAtQueue();
      if (landed.length) {
        keepPage();
        const toast = $("toast");  // "kept on the phone, sent when the network is back": it is sent now
        if (toast && toast.dataset.kind === "queued" && !state.waiting.length) toast.hidden = true;
      }
      return landed;
    }, async () => { await read(); return []; });
  }

  // A hand that landed after another phone's: is the hand before it (another phone's, not one this phone just sent)
  // the very same entry, recorded within two minutes of it, as the server judges ?saved=N (one hand recorded on two
  // phones)? Then the note says so. Asked only then; no answer, no note.
  async function sameAsBefore(h) {
    if (state.landed.some((mine) => mine.number === h.number - 1)) return null;
    try {
      const [before, after] = await Promise.all([h.number - 1, h.number].map((n) =>
        fetch(`${cfg.saveUrl}${n}/`, { credentials: "same-origin", signal: AbortSignal.timeout(3000) })
          .then((r) => (r.ok ? r.json() : null))));  // a slow network does not hold the page: no answer, no note
      if (!before || !after || before.status !== "recorded") return null;
      const apart = Math.abs(Date.parse(after.recorded_at) - Date.parse(before.recorded_at));
      return apart <= 120000 && sameEntry(before.record, h.payload) ? h.number - 1 : null;
    } catch (offline) { return null; }
  }

  // The card off the screen (the page scrolled down to the bar): the toast says there is something to look at.
  function pointAtQueue() {
    const box = $("queue"), where = box && box.getBoundingClientRect();
    if (!where || !T.renumbered || (where.bottom > 0 && where.top < window.innerHeight)) return;  // (a page kept from before)
    toast(T.renumbered, "landed", [el("button", { type: "button", class: "chip", id: "to-queue", on: { click: () => {
      $("toast").hidden = true; box.scrollIntoView({ block: "center" }); const seen = box.querySelector("[data-queue=seen]");
      if (seen) seen.focus(); } } }, T.showMe || "↑")], 20000);
  }
  const forget = (h) => { state.landed = state.landed.filter((x) => x !== h); draw(); };
  const seen = (h) => { forget(h); const next = $("add-win"); if (next) next.focus(); };  // not lost to the body

  async function discard(item) {
    if (!window.confirm(T.discardConfirm)) return;
    await remove(item.id);
    if (onDiscard) onDiscard(item);
    await read();
    flush();
  }

  function draw() {
    const box = $("queue");
    if (!box) return;
    const { waiting, landed } = state;
    box.replaceChildren();
    box.hidden = !waiting.length && !landed.length;
    if (waiting.length) {
      const last = waiting[waiting.length - 1];
      // The hand being entered: a refused one being put right (at the head, with its number and dealer), or the next.
      const held = waiting[0].state === "editing" ? waiting[0] : null;
      const number = held ? held.number : cfg.top + waiting.length + 1;
      const dealer = held ? held.names[held.dealer] : last.names[last.next_dealer];
      box.append(el("strong", { id: "queue-count" }, waiting.length === 1 ? T.queueCountOne : T.queueCount.replace("%(n)s", waiting.length)),
        el("small", { class: "muted", id: "queue-next" }, ` · ${T.nextHand.replace("%(n)s", number)
          .replace("%(name)s", dealer)}`));
    }
    waiting.forEach((item, i) => {
      const nets = item.net.map((amount, seat) => `${item.names[seat]} ${Number(amount) > 0 ? "+" : ""}${amount}`).join("  ");
      const row = el("div", { class: "queue-item" + (item.state === "refused" ? " refused" : ""), "data-key": item.key },
        el("div", {}, `${T.handNo.replace("%(n)s", item.number)} · ${T.dealer} ${item.names[item.dealer]} · ${nets}`));
      if (item.state === "editing") {
        row.append(el("p", { class: "muted" }, T.queueFixing));
        const actions = el("div", { class: "row" });
        if (onEdit) actions.append(el("button", { type: "button", class: "chip", "data-queue": "edit", on: { click: () => onEdit(item) } }, T.queueEdit));
        actions.append(el("button", { type: "button", class: "chip", "data-queue": "discard", on: { click: () => discard(item) } }, T.queueDiscard));
        row.append(actions);
      } else if (item.state === "refused") {
        const actions = el("div", { class: "row" });
        // Refused for the close: while the page says closed (closed.js) only 丢弃; reopened, 改正 is back.
        if (onEdit && !(item.closed && document.querySelector("[data-live-show-closed]:not([hidden])"))) actions.append(el("button", { type: "button", class: "chip", "data-queue": "edit", on: { click: () => onEdit(item) } }, T.queueEdit));
        actions.append(el("button", { type: "button", class: "chip", "data-queue": "discard", on: { click: () => discard(item) } }, T.queueDiscard));
        row.append(el("p", { class: "error" }, T.refused + T.colon + item.errors.join(T.semicolon)), actions);
      } else if (i > 0 && (waiting[0].state || "waiting") !== "waiting") {
        row.append(el("small", { class: "muted" }, T.queueBehind));
      }
      box.append(row);
    });
    landed.forEach((h) => {
      const note = el("div", { class: "queue-item landed", "data-landed": h.number },
        h.number === h.number_entered ? `${T.handNo.replace("%(n)s", h.number)} ${T.sent}`
          : T.sentAs.replace("%(entered)s", h.number_entered).replace("%(n)s", h.number));
      if (h.sameAs) note.append(" ", el("span", { class: "error same-as" }, T.sameAs.replace("%(n)s", h.sameAs)));
      // Another phone recorded hands meanwhile: this one still landed, after theirs; the table may want to look.
      if (h.number !== h.number_entered) {
        note.append(" ", el("a", { href: cfg.correctUrl.replace("{n}", h.number) }, T.correct),
          " ", el("a", { href: cfg.handsUrl + `#hand-${h.number}` }, T.voidOrLook));
      }
      if (notable(h)) note.append(" ", el("button", { type: "button", class: "chip", "data-queue": "seen", on: { click: () => seen(h) } }, T.gotIt || "✓"));
      box.append(note);
    });
    if (onDraw) onDraw(state);
  }

  return { state, read, flush, draw };
}
