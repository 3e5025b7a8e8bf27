// A night the phone can no longer record in (closed, or the right to score taken away) still shows the hands its
// queue holds, with the server's refusal, so that they are discarded by hand and never dropped silently.
import { queueView } from "./queue_view.js";
import { setupOffline } from "./offline.js";

const cfg = JSON.parse(document.getElementById("table-config").textContent);
setupOffline(cfg);
const view = queueView(cfg, { onEdit: null, onDraw: null });
view.read().then((waiting) => { if (waiting.length) view.flush(); });
