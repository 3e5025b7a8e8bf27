// A night the phone can no longer record in (closed, or the right to score taken away) still shows the hands its
// queue holds, with the server's refusal, so that they are discarded by hand and never dropped silently.
import { queueView } from "./queue_view.js";
import { setupOffline } from "./offline.js";
import { releaseHeld } from "./queue.js";

const cfg = JSON.parse(document.getElementById("table-config").textContent);
setupOffline(cfg);
const view = queueView(cfg, { onEdit: null, onDraw: null });
// A hand held for 改正 when the night closed has no form here to be put right in: it is refused again, with its
// words, to be discarded (it said 正在下面改正 over nothing).
view.read().then(() => releaseHeld(view)).then((waiting) => { if (waiting.length) view.flush(); });
