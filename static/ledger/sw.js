// The service worker (served at /sw.js, CONFIG put in front by ledger.views.offline): it keeps the app shell, the
// engine in the phone and each night page the phone opened, so a night opens and records without a network.
// Writes (POST) and the API are never answered from here: the server stays the authority, the page's queue
// (static/ledger/table/queue.js) holds what could not be sent.
"use strict";
const SHELL_CACHE = `ledger-shell-${CONFIG.version}`;
const ENGINE_CACHE = "ledger-engine";  // versioned URLs (Pyodide's version, the zip's digest): kept across versions
const PAGES_CACHE = "ledger-pages";    // one copy per night page, its last known state
const TABLE_PAGE = /^\/nights\/\d+\/$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll([...CONFIG.shell, CONFIG.offline]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("ledger-shell-") && name !== SHELL_CACHE) await caches.delete(name);
    }
    const engine = await caches.open(ENGINE_CACHE);
    const wanted = new Set(CONFIG.engine.map((url) => new URL(url, self.location).href));
    for (const request of await engine.keys()) if (!wanted.has(request.url)) await engine.delete(request);
    await self.clients.claim();
  })());
});

// The engine is fetched once, while online and after the page's first paint (the page asks), then kept.
async function keepEngine() {
  const cache = await caches.open(ENGINE_CACHE);
  for (const url of CONFIG.engine) {
    if (!(await cache.match(url))) await cache.add(url);
  }
}

// The night page as the server last rendered it (a tab asks after each change it hears of).
async function keepPage(url) {
  const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (keepable(response, new URL(url, self.location))) await (await caches.open(PAGES_CACHE)).put(new URL(url, self.location).pathname, response);
}
function keepable(response, url) {
  // A sign-in page answered for an expired session (a redirect) is not the night.
  return response.ok && !response.redirected && new URL(response.url).pathname === url.pathname;
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const reply = (answer) => { if (event.ports[0]) event.ports[0].postMessage(answer); };
  // "claim": a page that loaded while this worker was installing asks to be controlled now (its engine worker's
  // requests then come here too), should the claim made at activation have missed it.
  const job = data.type === "keep-engine" ? keepEngine() : data.type === "keep-page" ? keepPage(data.url)
    : data.type === "claim" ? self.clients.claim() : null;
  if (job) event.waitUntil(job.then(() => reply({ ok: true }), (error) => reply({ ok: false, error: String(error) })));
});

// A page kept earlier, marked so that the page knows it was opened from the phone's copy.
async function keptPage(path) {
  const cache = await caches.open(PAGES_CACHE);
  const kept = await cache.match(path);
  if (!kept) return (await caches.match(CONFIG.offline)) || Response.error();
  const html = (await kept.text()).replace("<html ", "<html data-served-offline ");
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function tablePage(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    // ?saved=N shows a toast: only the plain address is kept.
    if (!url.search && keepable(response, url)) await (await caches.open(PAGES_CACHE)).put(url.pathname, response.clone());
    return response;
  } catch (offline) {
    return keptPage(url.pathname);
  }
}

async function otherPage(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    return (await caches.match(CONFIG.offline)) || Response.error();
  }
}

async function cacheFirst(request, name) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await (await caches.open(name)).put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    const kept = await caches.match(request);
    if (kept) return kept;
    throw offline;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Signing out forgets the kept pages (a shared phone); a queue of unsent hands stays on the page's side.
    if (request.method === "POST" && url.pathname === CONFIG.logout) event.waitUntil(caches.delete(PAGES_CACHE));
    return;
  }
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  if (CONFIG.engine.some((u) => new URL(u, self.location).href === url.href)) {
    event.respondWith(cacheFirst(request, ENGINE_CACHE));
  } else if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(CONFIG.shell.includes(url.pathname) ? cacheFirst(request, SHELL_CACHE) : networkFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(TABLE_PAGE.test(url.pathname) ? tablePage(request) : otherPage(request));
  }
});
