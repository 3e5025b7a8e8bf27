// The page's side of the engine in the phone (engine_worker.js): started only when the network is gone, answering
// in the server's shape ({ok, status, data}) so that the table draws an offline preview exactly as an online one.
let worker = null;
let starting = null;
let asked = 0;
const waiting = new Map();

function call(op, fields) {
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, op, ...fields });
  });
}

export function startEngine(setup) {
  if (starting) return starting;
  worker = new Worker(setup.worker, { type: "module" });
  worker.addEventListener("message", (event) => {
    const { id, ok, answer, error } = event.data;
    const promise = waiting.get(id);
    waiting.delete(id);
    if (promise) (ok ? promise.resolve(answer) : promise.reject(new Error(error)));
  });
  starting = call("start", { setup }).then((answer) => {
    ready = true;
    document.documentElement.dataset.engine = "ready";  // said on the page (tests; nothing styles it)
    return answer;
  }).catch((error) => { starting = null; worker.terminate(); throw error; });
  return starting;
}

let ready = false;
// Whether the engine answers at once (started), or the first offline preview must wait for it.
export const engineReady = () => ready;

// The preview API's answer for an entry at this night's table, computed in the phone.
export async function enginePreview(setup, entry, dealer, lang) {
  await startEngine(setup);
  const { status, body } = await call("preview", { request: { entry, base: setup.base, rules: setup.rules, dealer, lang } });
  return { ok: status === 200, status, data: body };
}

export async function engineAnalysis(setup, body, lang) {
  await startEngine(setup);
  const { status, body: data } = await call("analysis", { request: { body, lang } });
  return { ok: status === 200, status, data };
}
