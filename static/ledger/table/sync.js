// Sending the queue of hands: in order, each exactly once. Every hand carries its idempotency key, so a hand whose
// answer was lost is found again (the server answers the first response) and shown as saved, never entered twice.
// A hand the server refuses stays in the queue with the server's words, and the hands after it wait behind it.
import { queued, remove, update } from "./queue.js";
import { setOffline } from "./offline.js";

let running = null;

const csrf = () => (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";

async function sendOne(cfg, item) {
  let response;
  try {
    response = await fetch(cfg.saveUrl, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(item.payload),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept-Language": document.documentElement.lang,
                 "Idempotency-Key": item.key },
    });
  } catch (lost) {
    setOffline(true);  // not sent, or sent and its answer lost: the same key again later settles which
    return "later";
  }
  setOffline(false);
  let data = {};
  try { data = await response.json(); } catch (e) { /* a proxy's page: the status says enough */ }
  if (response.status === 201) {
    await remove(item.id);
    return { landed: { ...item, number_entered: item.number, number: data.number } };
  }
  if (response.status >= 500 || response.status === 429) return "later";
  // Refused (the night was closed, the seats changed, the session ended …): kept, with the server's words.
  const errors = (data.errors || []).map((e) => e.message);
  const closed = (data.errors || []).some((e) => e.path === "night");  // the night was closed (closed.js)
  await update({ ...item, state: "refused", closed, errors: errors.length ? errors : [`HTTP ${response.status}`] });
  return "refused";
}

async function drain(cfg, onLanded) {
  const landed = [];
  for (;;) {
    const [next] = await queued(cfg.night);
    if (!next || next.state === "refused" || next.state === "editing") break;  // held: put right in the form
    const outcome = await sendOne(cfg, next);
    if (outcome === "later" || outcome === "refused") break;
    landed.push(outcome.landed);
    onLanded(outcome.landed);
  }
  return landed;
}

// One run at a time (in this tab, and across tabs where the browser has locks); a call during a run waits for it
// and runs again, so a hand queued meanwhile is not left behind.
export function sendQueue(cfg, onLanded) {
  const go = () => (navigator.locks
    ? navigator.locks.request(`ledger-queue-${cfg.night}`, () => drain(cfg, onLanded))
    : drain(cfg, onLanded));
  running = (running || Promise.resolve([])).then(go, go);
  return running;
}

// Two entries the same hand: events, wall and 查叫 alike, whatever the order of keys (the server's JSON may keep
// another) or a list left out for empty.
export function sameEntry(a, b) {
  const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === "object"
    ? Object.keys(v).sort().reduce((o, k) => { o[k] = canon(v[k]); return o; }, {}) : v);
  const entry = (d) => JSON.stringify(canon({ events: d.events || [], exhausted: !!d.exhausted, ready: d.ready || {},
                                               hua_zhu: d.hua_zhu || [] }));
  return entry(a || {}) === entry(b || {});
}
