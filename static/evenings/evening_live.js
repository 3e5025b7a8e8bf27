// The evening page, live: its socket (/ws/evenings/<pk>/) hears what happens at any of its tables, a table added
// and the group's debts moving (a settlement, a paid mark); the page then fetches itself and puts in the pieces that changed (data-evening-piece:
// the tables' nets, the transfers or settlement with their forms, the text summary). The server renders every
// piece, as on the first load. A piece holding the focus (a form being filled) waits for the next change.
(function () {
  "use strict";
  const node = document.getElementById("evening-live");
  if (!node || !("WebSocket" in window) || !window.ledgerFollow) return;
  const cfg = JSON.parse(node.textContent);
  let follower = null, busy = false, again = false;

  function cells(piece) {
    return Array.from(piece.querySelectorAll("td, .paying li, .transfers li"), (el) => el.textContent.trim());
  }
  // A piece's forms carry a new CSRF token each time: compared without them, an unchanged piece stays as it is.
  function bare(piece) {
    const copy = piece.cloneNode(true);
    copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => input.remove());
    return copy.outerHTML;
  }
  function put(old, fresh) {
    if (bare(old) === bare(fresh) || old.contains(document.activeElement)) return;
    // What the user ticked or typed stays (a refresh unticked 把之前没付的一起结 before 结算, a review).
    old.querySelectorAll("input[name]:not([type=hidden])").forEach((input) => {
      const twin = fresh.querySelector(`input[name="${CSS.escape(input.name)}"]`);
      if (!twin || twin.type !== input.type) return;
      if (input.type === "checkbox" || input.type === "radio") twin.checked = input.checked;
      else twin.value = input.value;
    });
    const before = cells(old);
    fresh.querySelectorAll("[data-copy]").forEach((button) => { button.hidden = false; });  // as share.js does
    old.replaceWith(fresh);
    const after = fresh.querySelectorAll("td, .paying li, .transfers li");
    after.forEach((el, i) => {
      if (before.length === after.length && before[i] === el.textContent.trim()) return;
      el.classList.remove("fresh");
      void el.offsetWidth;  // restart the animation
      el.classList.add("fresh");
    });
  }

  // One fetch at a time; changes that come meanwhile are folded into the next one.
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.pathname + location.search, { credentials: "same-origin", cache: "no-store",
                                                  headers: { Accept: "text/html" } })
      .then((r) => {
        if (r.status === 403 || r.status === 404 || r.redirected) { stop(); return null; }
        return r.ok ? r.text() : Promise.reject(r.status);
      })
      .then((html) => {
        if (html === null) return;
        const doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("[data-evening-piece]").forEach((fresh) => {
          const old = document.querySelector(`[data-evening-piece="${fresh.dataset.eveningPiece}"]`);
          if (old) put(old, document.importNode(fresh, true));
        });
      })
      .catch(() => { again = !follower.stopped; })
      .finally(() => {
        busy = false;
        if (again && !follower.stopped) { again = false; setTimeout(refresh, 300); }
      });
  }

  function stop() {
    follower.stop();
  }

  follower = window.ledgerFollow(cfg.socket, { open: refresh, message: refresh });
})();
