// The hands saved while the server could not be reached, kept on the phone (IndexedDB) until the server has them:
// each with its idempotency key, the body to send and the dealer it was entered under. It survives a reload, the
// browser being closed and a restart; an item leaves it only when the server answered it, or by the user's hand.
const DB = "ledger-offline";
const STORE = "hands";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });  // id: the order
      store.createIndex("night", "night");
      store.createIndex("key", "key", { unique: true });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      let answer;
      Promise.resolve(work(tx.objectStore(STORE))).then((value) => { answer = value; });
      tx.oncomplete = () => resolve(answer);
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}
const done = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

// This night's queue, oldest first.
export async function queued(night) {
  const items = await run("readonly", (store) => done(store.index("night").getAll(night)));
  return (items || []).sort((a, b) => a.id - b.id);
}

// Put a hand in the queue; the same key twice is the same hand (a second tap on save), kept once.
export async function enqueue(item) {
  return run("readwrite", async (store) => {
    const same = await done(store.index("key").get(item.key));
    if (same) return same.id;
    return done(store.add(item));
  });
}

export const update = (item) => run("readwrite", (store) => done(store.put(item)));
export const remove = (id) => run("readwrite", (store) => done(store.delete(id)));
// Hands held for 改正 (state "editing") go back to refused, to be put right or dropped again, but the one `keep`
// names: held by nothing (its draft gone, or no form on the page: a closed night), one would hold the queue for good.
// `view` is queue_view.js's; the queue is read again when any went back.
export async function releaseHeld(view, keep = () => false) {
  const stale = view.state.waiting.filter((w) => w.state === "editing" && !keep(w));
  for (const item of stale) await update({ ...item, state: "refused" });
  return stale.length ? view.read() : view.state.waiting;
}
