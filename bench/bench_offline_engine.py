"""How long the engine in the phone takes: Pyodide starting with `scoring` in headless Chromium, and one preview.

Starts its own server (uvicorn, DEBUG off: the files as production serves them) on a temporary SQLite database, then
in Debian's Chromium opens the needs-the-network page (the app's CSP) and starts the table page's engine worker
(static/ledger/table/engine_worker.js): first with an empty cache (every file downloaded once, then compiled), then
again in a new page of the same browser (the files from the cache: a phone on its next outage), and previews a few
hands many times (scoring.preview through the worker, as the table page does offline).
Usage: .venv/bin/python bench/bench_offline_engine.py [--previews 50] [--starts 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import PRESETS, parse_rules  # noqa: E402
from tests.live.test_serving import free_port, wait_until_serving  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
HANDS = [  # a discard win still open; a kong, a self-draw and 查叫 with tiles; 一炮多响 and 花猪
    {"events": [{"type": "win", "from": 2, "winners": [{"player": 1, "pattern": "qing_yi_se", "roots": 1,
                                                         "flags": []}]}]},
    {"events": [{"type": "kong", "player": 0, "kind": "concealed"},
                {"type": "win", "from": None, "winners": [{"player": 0, "pattern": "dui_dui_hu", "roots": 1,
                                                            "flags": ["gang_shang_hua"]}]}],
     "exhausted": True, "ready": {"2": {"fan": 1}, "3": {"tiles": "1112345678999m", "melds": []}}, "hua_zhu": []},
    {"events": [{"type": "win", "from": 3, "winners": [{"player": 1, "pattern": "ping_hu", "roots": 0, "flags": []},
                                                        {"player": 2, "pattern": "qi_dui", "roots": 1, "flags": []}]}],
     "exhausted": True, "ready": {}, "hua_zhu": [0]},
]

START = """async (setup) => {
  const began = performance.now();
  const worker = new Worker(setup.worker, { type: 'module' });
  const answer = await new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ id: 1, op: 'start', setup });
  });
  window.__worker = worker;
  return { ok: answer.ok, error: answer.error, ms: performance.now() - began };
}"""
PREVIEWS = """async ([hands, base, rules, rounds]) => {
  const worker = window.__worker;
  let id = 1;
  const ask = (request) => new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ id: ++id, op: 'preview', request });
  });
  const times = [];
  for (let r = 0; r < rounds; r++) for (const entry of hands) {
    const began = performance.now();
    const answer = await ask({ entry, base, rules, dealer: 0, lang: 'zh' });
    if (!answer.ok) throw new Error(answer.error);
    times.push(performance.now() - began);
  }
  return times;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--previews", type=int, default=50, help="rounds of the sample hands")
    parser.add_argument("--starts", type=int, default=3, help="starts from the cache, each in a new page")
    args = parser.parse_args()
    os.environ["DJANGO_SETTINGS_MODULE"] = "ledger.settings"
    import django
    django.setup()
    from django.urls import reverse

    from ledger.views.engine_files import PYODIDE_FILES, pyodide_dir, pyodide_prefix, scoring_zip
    from playwright.sync_api import sync_playwright

    sizes = {name: (pyodide_dir() / name).stat().st_size for name in PYODIDE_FILES}
    digest, zipped = scoring_zip()
    setup = {"worker": "/static/ledger/table/engine_worker.js", "pyodide": f"/static/{pyodide_prefix()}/pyodide.mjs",
             "indexURL": f"/static/{pyodide_prefix()}/", "zip": reverse("engine-zip", args=[digest])}
    rules = parse_rules(PRESETS["chengdu"]).as_dict()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3", "DEBUG": "false",
               "SECRET_KEY_FILE": f"{tmp}/secret", "ALLOWED_HOSTS": "127.0.0.1"}
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v0"], env=env, cwd=ROOT, check=True)
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "uvicorn", "ledger.asgi:application", "--port", str(port),
                                   "--log-level", "warning"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            wait_until_serving(port, server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/offline/")
                cold = page.evaluate(START, setup)
                assert cold["ok"], cold
                previews = page.evaluate(PREVIEWS, [HANDS, "2", rules, args.previews])
                warm = []
                for _ in range(args.starts):
                    again = context.new_page()
                    again.goto(f"http://127.0.0.1:{port}/offline/")
                    started = again.evaluate(START, setup)
                    assert started["ok"], started
                    warm.append(started["ms"])
                    again.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    total = sum(sizes.values()) + len(zipped)
    print(f"files: {total / 1e6:.1f} MB ({', '.join(f'{n} {s / 1e6:.2f}' for n, s in sizes.items())}, "
          f"scoring zip {len(zipped) / 1e3:.0f} kB)")
    print(f"start, empty cache (download from localhost + compile + import scoring): {cold['ms']:.0f} ms")
    print(f"start, files cached (new page): median {statistics.median(warm):.0f} ms, max {max(warm):.0f} ms "
          f"({len(warm)} starts)")
    print(f"preview of a hand (postMessage round trip, scoring.preview): median {statistics.median(previews):.1f} ms, "
          f"p95 {sorted(previews)[int(len(previews) * 0.95) - 1]:.1f} ms, max {max(previews):.1f} ms "
          f"({len(previews)} previews)")


if __name__ == "__main__":
    main()
