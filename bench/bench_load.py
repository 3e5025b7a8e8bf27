"""Benchmark: concurrent recorders and readers against a multi-worker server, beside the floor (issue 10).

A gunicorn server (--workers sync workers, persistent PostgreSQL connections) serves the app plus
`POST /bench/floor/`, a bare DRF create of one row (bench/floor_urls.py). Client processes run for
--seconds per phase, the phases interleaved over --rounds so that a busy moment of the (shared)
machine falls on all of them alike:

- floor:       the recorders POST /bench/floor/ (one Player row each time);
- record:      the recorders POST a finished hand to their own night (/api/nights/{id}/hands/);
- record+key:  the same with an Idempotency-Key header, as the table page sends.

Meanwhile the readers GET the table page, the totals, the settlement and the first page of hands of
those nights. Reported: p50/p95/p99 latency and throughput of each phase's writes and reads, and the
record p50 over the floor p50 (goal: at most 2x in issue 10, 2.5x with 4 workers in issue 17 item 8).

Run (PostgreSQL; the database is emptied):

    createdb -h 127.0.0.1 -U postgres ledger_bench_load
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load \\
        .venv/bin/python bench/bench_load.py      # --workers 4 --recorders 4 --readers 2 --seconds 10 --rounds 2
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.floor_settings"
os.environ.update({"DEBUG": "false", "HTTPS": "false", "THROTTLE_WRITES": "1000000/s",
                   "THROTTLE_CALCULATOR": "1000000/s"})
os.environ.setdefault("SECRET_KEY", "bench-load-not-secret-" + "x" * 40)
os.environ.setdefault("CONN_MAX_AGE", "60")

import django  # noqa: E402

django.setup()

import datetime as dt  # noqa: E402
from decimal import Decimal  # noqa: E402

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from ledger.services import nights as services  # noqa: E402
from ledger.management.commands.demo import DEMO_HANDS  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8932"))


def setup(recorders: int, separate_groups: bool = False) -> dict[str, Any]:
    """The bench user and a night per recorder, all in the user's group (so every hand bumps the same group row:
    ledger.services.audit), or with `separate_groups` each in a group of its own."""
    from ledger.services import groups as group_services
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench")
    names = ["张三", "李四", "王五", "赵六"]
    players = [services.player_get_or_create(name=n, group=services.personal_group(owner)) for n in names]
    nights = []
    for i in range(recorders):
        group = (players[0].group if i == 0 or not separate_groups
                 else group_services.group_create(by=owner, name=f"圈 {i}"))
        seated = [services.player_get_or_create(name=n, group=group) for n in names]
        nights.append(services.night_create(owner=owner, title=f"桌 {i}", date=dt.date(2026, 11, 30),
                                            base=Decimal(2), players=seated, first_dealer=0).pk)
    client = Client()
    client.force_login(owner)
    data = {"token": Token.objects.create(user=owner).key, "session": client.cookies["sessionid"].value,
            "nights": nights, "group": players[0].group_id}
    connections.close_all()
    return data


def start_server(workers: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONWARNINGS": "ignore::UserWarning"}
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "ledger.wsgi", "--workers", str(workers), "--bind",
         f"127.0.0.1:{PORT}", "--log-level", "warning", "--backlog", "512"],
        cwd=ROOT, env=env, start_new_session=True)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.05)
    raise SystemExit("gunicorn did not start")


def request(method: str, path: str, headers: dict[str, str], body: bytes | None = None) -> tuple[float, int]:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        conn.close()
    return time.perf_counter() - started, status


def client_loop(role: str, index: int, phase: str, data: dict[str, Any], until: float,
                out: "multiprocessing.Queue[Any]") -> None:
    """One client process: as many requests as fit before `until`; puts (latencies, failures)."""
    rng = random.Random(f"{role}-{index}-{phase}-{time.time()}")
    api = {"Authorization": f"Token {data['token']}", "Content-Type": "application/json",
           "Accept-Language": "zh-hans"}
    page = {"Cookie": f"sessionid={data['session']}", "Accept-Language": "zh-hans"}
    latencies, failures = [], 0
    night = data["nights"][index % len(data["nights"])]
    while time.perf_counter() < until:
        if role == "writer" and phase == "floor":
            body = json.dumps({"name": f"floor-{uuid.uuid4().hex[:12]}"}).encode()
            elapsed, status = request("POST", "/bench/floor/", api, body)
            ok = status == 201
        elif role == "writer":
            headers = {**api, "Idempotency-Key": uuid.uuid4().hex} if phase == "record+key" else api
            body = json.dumps(rng.choice(DEMO_HANDS)).encode()
            elapsed, status = request("POST", f"/api/nights/{night}/hands/", headers, body)
            ok = status == 201
        else:
            path, headers = rng.choice([(f"/nights/{night}/", page), (f"/api/nights/{night}/totals/", api),
                                        (f"/api/nights/{night}/settlement/", api),
                                        (f"/api/nights/{night}/hands/", api)])
            elapsed, status = request("GET", path, headers)
            ok = status == 200
        if ok:
            latencies.append(elapsed)
        else:
            failures += 1
    out.put((role, latencies, failures))


def run_phase(phase: str, data: dict[str, Any], args: argparse.Namespace) -> dict[str, tuple[list[float], int]]:
    until = time.perf_counter() + args.seconds
    out: multiprocessing.Queue[Any] = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=client_loop, args=("writer", i, phase, data, until, out))
             for i in range(args.recorders)]
    procs += [multiprocessing.Process(target=client_loop, args=("reader", i, phase, data, until, out))
              for i in range(args.readers)]
    for p in procs:
        p.start()
    results: dict[str, tuple[list[float], int]] = {"writer": ([], 0), "reader": ([], 0)}
    for _ in procs:
        role, latencies, failures = out.get()
        results[role] = (results[role][0] + latencies, results[role][1] + failures)
    for p in procs:
        p.join()
    return results


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--recorders", type=int, default=4)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--separate-groups", action="store_true",
                        help="each recorder's night in a group of its own (default: one group, one row bumped)")
    parser.add_argument("--unprepared", action="store_true",
                        help="the server neither binds parameters server-side nor prepares statements "
                             "(PG_PREPARED=false, ledger/settings.py: Django's defaults)")
    args = parser.parse_args()
    os.environ["PG_PREPARED"] = "false" if args.unprepared else "true"  # the server's settings read it
    if connection.vendor != "postgresql":
        print("note: not PostgreSQL; set DATABASE_URL=postgres://... for the figures of bench/README.md")
    data = setup(args.recorders, args.separate_groups)
    os.environ["BENCH_GROUP"] = str(data["group"])  # the floor's players go into the bench's group
    phases = ["floor", "record", "record+key"]
    totals: dict[str, dict[str, tuple[list[float], int]]] = {p: {"writer": ([], 0), "reader": ([], 0)}
                                                             for p in phases}
    server = start_server(args.workers)
    try:
        # Warm every worker (imports, the engine's tables, connections) before anything is measured.
        api = {"Authorization": f"Token {data['token']}", "Content-Type": "application/json"}
        for i in range(args.workers * len(DEMO_HANDS)):
            request("POST", f"/api/nights/{data['nights'][0]}/hands/", api,
                    json.dumps(DEMO_HANDS[i % len(DEMO_HANDS)]).encode())
            request("POST", "/bench/floor/", api, json.dumps({"name": uuid.uuid4().hex}).encode())
            request("GET", f"/api/nights/{data['nights'][0]}/totals/", api)
        for _round in range(args.rounds):
            for phase in phases:
                for role, (latencies, failures) in run_phase(phase, data, args).items():
                    kept, failed = totals[phase][role]
                    totals[phase][role] = (kept + latencies, failed + failures)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    seconds = args.seconds * args.rounds
    print(f"gunicorn {args.workers} sync workers, CONN_MAX_AGE={os.environ['CONN_MAX_AGE']}, "
          f"{'no prepared statements, ' if args.unprepared else 'prepared statements, '}"
          f"{args.recorders} recorders + {args.readers} readers, {args.rounds} x {args.seconds:g} s per phase")
    print("| phase | requests | p50 ms | p95 ms | p99 ms | req/s | failed |")
    print("|---|---|---|---|---|---|---|")
    for phase in phases:
        for role in ("writer", "reader"):
            latencies, failures = totals[phase][role]
            label = f"{phase}: {'writes' if role == 'writer' else 'reads'}"
            print(f"| {label} | {len(latencies)} | {percentile(latencies, .5) * 1000:.1f} | "
                  f"{percentile(latencies, .95) * 1000:.1f} | {percentile(latencies, .99) * 1000:.1f} | "
                  f"{len(latencies) / seconds:.1f} | {failures} |")
    floor = statistics.median(totals["floor"]["writer"][0])
    for phase in ("record", "record+key"):
        ratio = statistics.median(totals[phase]["writer"][0]) / floor
        print(f"{phase} p50 / floor p50 = {ratio:.2f} (issue 17 goal <= 2.5: {'ok' if ratio <= 2.5 else 'MISSED'})")


if __name__ == "__main__":
    main()
