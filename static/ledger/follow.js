// One socket following a live page (live.js, the evening page): reconnected after a growing wait (1 s doubling to
// 30 s, with jitter), at once when the page is shown again or the phone is back online, never again after 4403
// (not allowed, or no longer). The page's script says what an opened socket and a message do.
window.ledgerFollow = function (path, on) {
  "use strict";
  let socket = null, delay = 1000, timer = null, stopped = false;

  function connect() {
    if (stopped) return;
    clearTimeout(timer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}${path}`);
    socket.addEventListener("open", () => {
      delay = 1000;
      document.documentElement.dataset.live = "on";
      on.open();  // catch up on what happened while the page loaded or the socket was down
    });
    socket.addEventListener("message", (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      on.message(event);
    });
    socket.addEventListener("close", (close) => {
      document.documentElement.dataset.live = "off";
      socket = null;
      if (close.code === 4403) { stopped = true; return; }  // not allowed (any more): do not knock again
      timer = setTimeout(connect, delay + Math.random() * 500);
      delay = Math.min(delay * 2, 30000);
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !socket && !stopped) { delay = 1000; connect(); }
  });
  window.addEventListener("online", () => { if (!socket && !stopped) { delay = 1000; connect(); } });
  connect();
  return {
    stop() { stopped = true; if (socket) socket.close(); },
    get stopped() { return stopped; },
  };
};
