// Whether the server can be reached, and what the page says about it: the 离线 mark with the time of the page's last
// update, the links that need the network, and the service worker that keeps this page and the engine.
import { $, el } from "./dom.js";
import { afterTap } from "./tap.js";

const served = document.documentElement.hasAttribute("data-served-offline");  // the phone's copy (sw.js)
let offline = served || !navigator.onLine;
const listeners = [];
let cfg = null;
let updatedAt = null;
let probeTimer = null;

export const isOffline = () => offline;
export const onStatus = (fn) => listeners.push(fn);

// A request that could not reach the server says we are offline; an answer from it says we are back.
export function setOffline(value) {
  if (value === offline) return;
  offline = value;
  afterTap(show);  // the note goes in at the top of the page: not under a finger that is tapping (tap.js)
  listeners.forEach((fn) => fn(offline));
}

// While offline, knock now and then: a phone on a Wi-Fi without internet still says navigator.onLine.
function probe() {
  clearTimeout(probeTimer);
  if (!offline) return;
  probeTimer = setTimeout(() => {
    fetch(cfg.probeUrl, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(() => setOffline(false), () => probe());
  }, 5000);
}

function clock(date) {
  const two = (n) => String(n).padStart(2, "0");
  const today = new Date().toDateString() === date.toDateString();
  return (today ? "" : `${date.getMonth() + 1}/${date.getDate()} `) + `${two(date.getHours())}:${two(date.getMinutes())}`;
}

function show() {
  const T = cfg.strings;
  document.documentElement.toggleAttribute("data-offline", offline);
  let note = $("offline-note");
  if (!offline) { if (note) note.hidden = true; return; }
  if (!note) {
    note = el("p", { class: "msg offline-note", id: "offline-note", role: "status" });
    document.querySelector("main").prepend(note);
  }
  note.hidden = false;
  note.replaceChildren(el("strong", {}, T.offlineMark), ` · ${T.lastUpdate} ${clock(updatedAt)} · ${T.offlineHint}`);
  probe();
}

// Everything but this page needs the server (sign-up, invites, reports, settlement, corrections): offline, a tap on
// it says so instead of opening the browser's no-network page. Live-replaced cards are covered too (one listener).
const NEEDS_NETWORK = "header.top a, header.top button, main nav.links a, .report-buttons a, .report-buttons button, " +
  ".invite a, .invite button, .last-hand a, .last-hand button, .queue-item a";
function guardLinks() {
  const T = cfg.strings;
  const refuse = (event) => {
    event.preventDefault();
    event.stopPropagation();
    const note = $("offline-note");
    if (note) note.replaceChildren(el("strong", {}, T.offlineMark), ` · ${T.lastUpdate} ${clock(updatedAt)} · ${T.needsNetwork}`);
    if (note) note.scrollIntoView({ block: "nearest" });
  };
  document.addEventListener("click", (event) => {
    if (offline && event.target.closest(NEEDS_NETWORK)) refuse(event);
  }, true);
  // The page's forms (罚分/调整) post to the server: offline they would open the browser's no-network page and lose
  // what was typed; they stay as they are, filled in, until the network is back.
  document.addEventListener("submit", (event) => { if (offline) refuse(event); }, true);
}

function message(type, fields) {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.ready.then((registration) => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    registration.active.postMessage({ type, ...fields }, [channel.port2]);
  }));
}

let keepTimer = null;
// The phone's copy of this page follows the night: asked again after each change heard of (debounced).
export function keepPage() {
  if (offline) return;
  updatedAt = new Date();
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => message("keep-page", { url: cfg.tableUrl }), 1000);
}

export function setupOffline(config) {
  cfg = config;
  updatedAt = new Date(cfg.renderedAt);
  guardLinks();
  show();
  // The phone says its network is gone: offline now, not at the next tap's failed request, so the engine starts
  // while nobody waits for it (a walk: the first tap offline waited 3.5–7 s for it, its seats not yet tappable).
  window.addEventListener("offline", () => setOffline(true));
  if (!("serviceWorker" in navigator)) return;
  // Whether the service worker saw this page load and so kept it: it may have taken the page over after that, and it
  // keeps only the plain address (not ?saved=N, the page after a hand saved online, which would leave the copy a
  // hand behind: a reload offline then queued the next hand with the number and dealer of the one just saved).
  const [navigation] = performance.getEntriesByType("navigation");
  const wasKept = !!navigator.serviceWorker.controller && !!navigation && navigation.workerStart > 0 &&
    !new URL(navigation.name).search;
  // After the first paint and only online: the engine's files (a few MB, once), and this page if the service worker
  // did not see it load.
  const later = window.requestIdleCallback || ((fn) => setTimeout(fn, 1500));
  window.addEventListener("load", () => later(() => {
    navigator.serviceWorker.ready.then(() => { if (!navigator.serviceWorker.controller) message("claim"); });
    if (offline) return;
    message("keep-engine");
    if (!wasKept) message("keep-page", { url: cfg.tableUrl });
  }));
}
