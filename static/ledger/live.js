// Live pages: listen to the night's socket, fetch the changed fragments, put them in the page.
// The server renders every piece (head, seats, hand cards, settlement) with the same templates as the first
// load; this script only swaps them in, highlights what changed, and tells the table page's form
// (document event "ledger:night") without ever touching the form or its draft.
(function () {
  "use strict";
  const node = document.getElementById("live-config");
  if (!node || !("WebSocket" in window) || !window.ledgerFollow) return;
  const cfg = JSON.parse(node.textContent);
  let last = cfg.last, stamp = cfg.stamp;
  let follower = null, busy = false, again = false, pendingEvents = [];

  function fragment(html) {
    const t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }
  function flash(el) {
    el.classList.remove("fresh");
    void el.offsetWidth;  // restart the animation
    el.classList.add("fresh");
  }

  // Seats are updated in place: the table page's script holds the seat buttons and their listeners.
  function updateSeats(html) {
    const box = document.querySelector("[data-live=seats]");
    if (!box) return;
    const t = document.createElement("template");
    t.innerHTML = html;
    t.content.querySelectorAll(".seat[data-seat]").forEach((fresh) => {
      const old = box.querySelector(`.seat[data-seat="${fresh.dataset.seat}"]`);
      if (!old) return;
      const before = old.querySelector(".total") ? old.querySelector(".total").textContent : "";
      old.replaceChildren(...fresh.childNodes);
      old.classList.toggle("dealer", fresh.classList.contains("dealer"));
      const after = old.querySelector(".total") ? old.querySelector(".total").textContent : "";
      if (before !== after) flash(old);
    });
  }
  function replacePiece(name, html) {
    const old = document.querySelector(`[data-live=${name}]`);
    if (old) old.replaceWith(fragment(html));
  }
  function putHand(card) {
    const fresh = fragment(card.html);
    const old = document.getElementById(`hand-${card.number}`);
    if (old) {
      old.replaceWith(fresh);
      flash(fresh);
      return;
    }
    const list = document.querySelector("[data-live-list]");
    if (!list || !cfg.newest || card.number <= last) return;
    const empty = list.querySelector("[data-live-empty]");
    if (empty) empty.remove();
    list.prepend(fresh);
    flash(fresh);
    const keep = Number(list.dataset.keep || 0);
    if (keep) Array.from(list.querySelectorAll(".hand")).slice(keep).forEach((el) => el.remove());
  }

  // A penalty or adjustment (罚分/调整) goes right above the hand it followed (newest first), above the others
  // made after that hand; one made after the page's newest hand goes on top.
  function putAdjustment(item) {
    const fresh = fragment(item.html);
    const old = document.getElementById(`adjustment-${item.number}`);
    if (old) { old.replaceWith(fresh); flash(fresh); return; }
    const list = document.querySelector("[data-live-list]");
    if (!list) return;
    const anchor = list.querySelector(`.adjustment[data-after="${item.after_hand}"]`) ||
      document.getElementById(`hand-${item.after_hand}`);
    if (anchor) anchor.before(fresh);
    else if (cfg.newest && item.after_hand >= last) list.prepend(fresh);
    else return;
    const empty = list.querySelector("[data-live-empty]");
    if (empty) empty.remove();
    flash(fresh);
  }

  function apply(data) {
    data.hands.forEach(putHand);
    (data.adjustments || []).forEach(putAdjustment);
    const list = document.querySelector("[data-live-list]");
    if (list && Number(list.dataset.keep || 0)) {  // the table page: only what came after its newest hand
      list.querySelectorAll(".adjustment").forEach((el) => {
        if (Number(el.dataset.after) < Math.max(last, data.last)) el.remove();
      });
    }
    for (const [name, html] of Object.entries(data.pieces)) {
      if (name === "seats") updateSeats(html); else replacePiece(name, html);
    }
    // Closed: what the night's page offers no more goes, and what says it is closed shows (closed.js); opened again
    // (重新打开牌局) on a page that saw it close, back as it was; a page drawn closed offers a reload for its forms.
    // Whether the page shows it closed is read from the page: the table's own refused save may have said so first.
    if (data.closed || document.querySelector("[data-live-show-closed]:not([hidden])")) {
      document.querySelectorAll("[data-live-hide-closed]").forEach((el) => { el.hidden = !!data.closed; });
      document.querySelectorAll("[data-live-show-closed]").forEach((el) => { el.hidden = !data.closed; });
    }
    if (cfg.closed && data.closed === false) offerReload(cfg.strings.reopened);
    // A night closed while watched: its tab says so, as the page would after a reload (not the next hand's number).
    const closedHead = document.querySelector("[data-live=head][data-tab-title]");
    if (closedHead) document.title = closedHead.dataset.tabTitle;
    const changed = data.stamp !== stamp;
    last = Math.max(last, data.last);
    stamp = data.stamp;
    const events = pendingEvents.length ? pendingEvents : (changed ? [{ kind: "caught_up", number: data.last }] : []);
    pendingEvents = [];
    events.forEach((event) => {
      const detail = Object.assign({}, event, { next_dealer: data.next_dealer, hand_count: data.hand_count,
                                                 counted: data.counted });
      document.dispatchEvent(new CustomEvent("ledger:night", { detail: detail }));
    });
  }

  // One fetch at a time; events that arrive meanwhile are folded into the next one.
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    const url = `${cfg.fragments}?after=${last}&since=${stamp}&pieces=${cfg.pieces.join(",")}`;
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then((r) => {
        if (r.status === 403 || r.status === 404) { stop(); return null; }  // the link was revoked or access removed
        return r.ok ? r.json() : Promise.reject(r.status);
      })
      .then((data) => { if (data) apply(data); })
      .catch(() => { again = !follower.stopped; })
      .finally(() => {
        busy = false;
        if (again && !follower.stopped) { again = false; setTimeout(refresh, 300); }
      });
  }

  // What this user may do changed (scorekeeper or not): the page offers a reload; a draft is kept by the form.
  function offerReload(why) {
    if (document.getElementById("live-reload")) return;
    const note = document.createElement("p");
    note.className = "msg live-reload";
    note.id = "live-reload";
    const link = document.createElement("a");
    link.href = location.pathname + location.search;
    link.textContent = cfg.strings.reload;
    note.append(`${why || cfg.strings.roleChanged} · `, link);
    document.querySelector("main").prepend(note);
  }

  function stop() {
    follower.stop();
  }

  follower = window.ledgerFollow(cfg.socket, {
    open: refresh,
    message(event) {
      if (event.kind === "role_changed") { offerReload(); return; }
      pendingEvents.push(event);
      refresh();
    },
  });
})();
