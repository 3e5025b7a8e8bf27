"""How long a recorded hand takes to reach a watching page: API write → socket event → fragments fetched.

Starts its own server processes on a temporary SQLite database: one uvicorn (in-memory channel layer), or with
``--redis URL`` two processes sharing events through Redis (the write on one, the socket on the other).
Usage: .venv/bin/python bench/bench_live.py [--hands 30] [--redis redis://127.0.0.1:6379/0]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live.test_serving import SETUP, free_port, wait_until_serving  # noqa: E402

HAND = {"events": [{"type": "win", "from": None, "winners": [{"player": 1, "pattern": "ping_hu", "roots": 0,
                                                            "flags": []}]}], "exhausted": True}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--redis", default="")
    args = parser.parse_args()
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3", "DEBUG": "true",
               "DJANGO_SETTINGS_MODULE": "ledger.settings", "REDIS_URL": args.redis,
               "REDIS_PREFIX": f"ledger-bench-{uuid.uuid4().hex[:8]}"}
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run(manage + ["migrate", "-v0"], env=env, cwd=ROOT, check=True)
        ids = json.loads(subprocess.run(manage + ["shell", "-v0", "-c", SETUP], env=env, cwd=ROOT, check=True,
                                        capture_output=True, text=True).stdout)
        ports = [free_port(), free_port()] if args.redis else [free_port()]
        servers = [subprocess.Popen([sys.executable, "-m", "uvicorn", "ledger.asgi:application", "--port", str(p),
                                     "--log-level", "warning"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True) for p in ports]
        try:
            for port, server in zip(ports, servers):
                wait_until_serving(port, server)
            listener, writer = ports[0], ports[-1]
            event_ms, page_ms, stamp = [], [], 0
            with connect(f"ws://127.0.0.1:{listener}/ws/view/{ids['view']}/", origin=f"http://127.0.0.1:{listener}") as sock:
                for n in range(1, args.hands + 1):
                    request = urllib.request.Request(
                        f"http://127.0.0.1:{writer}/api/nights/{ids['night']}/hands/", data=json.dumps(HAND).encode(),
                        headers={"Content-Type": "application/json", "Authorization": f"Token {ids['token']}"})
                    start = time.perf_counter()
                    urllib.request.urlopen(request, timeout=10).read()
                    event = json.loads(sock.recv(timeout=10))
                    got = time.perf_counter()
                    assert event["number"] == n, event
                    page = urllib.request.urlopen(f"http://127.0.0.1:{listener}/v/{ids['view']}/fragments/?after={n - 1}"
                                                  f"&since={stamp}&pieces=head,seats,settlement", timeout=10)
                    stamp = json.loads(page.read())["stamp"]
                    event_ms.append((got - start) * 1000)
                    page_ms.append((time.perf_counter() - start) * 1000)
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=10)
    kind = "two processes, Redis" if args.redis else "one process, in-memory layer"
    for label, values in (("write → socket event", event_ms), ("write → fragments fetched", page_ms)):
        print(f"{kind}, {label}: median {statistics.median(values):.1f} ms, max {max(values):.1f} ms "
              f"({len(values)} hands)")


if __name__ == "__main__":
    main()
