// Every page registers the service worker (sw.js, at the site root so that it covers every page): a night opened
// once opens again without a network, and pages it has not kept say that they need one.
(function () {
  "use strict";
  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(() => { /* http on a LAN: none */ });
  });
})();
