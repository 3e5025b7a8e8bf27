// What the table page asks: of the server while it answers (it stays the authority), else of the engine in the
// phone, which gives the same document (scoring.preview, the function behind the preview API) for the same entry.
import { $, el } from "./dom.js";
import { engineAnalysis, enginePreview, engineReady } from "./engine.js";
import { isOffline, setOffline } from "./offline.js";
import { cfg, state, T } from "./state.js";
import { afterTap } from "./tap.js";

const csrf = () => (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
const lang = document.documentElement.lang;

export function postJSON(url, payload, headers) {
  return fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept-Language": document.documentElement.lang, ...(headers || {}) },
    body: JSON.stringify(payload),
  }).then(r => r.json().then(data => ({ ok: r.ok, status: r.status, data })));
}

export function askPreview(doc, dealer) {
  if (isOffline() && !cfg.correcting) return inPhone(doc, dealer);
  // ?partial=1: an entry with errors answers 200 with its errors document (a half-entered hand is no failed request).
  return postJSON(`${cfg.previewUrl}?partial=1`, { ...doc, dealer }).then((answer) => {
    setOffline(false);
    return { ...answer, ok: answer.ok && !answer.data.errors };
  }, (lost) => {
    if (cfg.correcting) throw lost;  // a correction is made online only
    setOffline(true);
    return inPhone(doc, dealer);
  });
}
// The first offline preview waits for the engine to start (seconds, bench/README.md): the bar says so.
function inPhone(doc, dealer) {
  if (!engineReady()) afterTap(() => {  // the bar changes size: not under a finger (tap.js)
    if (engineReady()) return;
    const box = $("preview");
    box.className = "preview card";
    box.replaceChildren(el("p", { class: "muted", id: "engine-starting" }, T.engineStarting));
    // Shown even while a step is asked (it was hidden then), and the step's question waits for the answer: a walk
    // read "谁放的炮？（或点“自摸”）" for seconds over seats that could not be tapped yet.
    box.hidden = false;
    const prompt = $("prompt");
    if (prompt && state.pick && state.pick.mode !== "kind") prompt.textContent = T.checking;
  });
  return enginePreview(cfg.engine, doc, dealer, lang);
}
export function askAnalysis(doc) {
  if (isOffline()) return engineAnalysis(cfg.engine, doc, lang);
  // ?partial=1: tiles that cannot be read (yet) answer 200 with their errors, as the preview's (no red 400s).
  return postJSON(`${cfg.analyseUrl}?partial=1`, doc).then((answer) => ({ ...answer, ok: answer.ok && !answer.data.errors }),
    () => { setOffline(true); return engineAnalysis(cfg.engine, doc, lang); });
}
