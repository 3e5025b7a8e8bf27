"""Capacity: many tables recording hands while phones follow them live (issue 17, item 8).

Sets up --tables nights in a fresh PostgreSQL database (one scorekeeper, API token and view link each), serves the
ASGI app with uvicorn (--workers processes sharing events through Redis, as in production), opens --followers view-link
sockets per table (`/ws/view/<token>/`), then for --seconds every table records a finished hand over the API (token
auth, an Idempotency-Key as the table page sends) every --period seconds, each table at a random phase. With
--fetch (the default) each follower, on every event, fetches the view page's fragments as live.js does.

Measured: save latency (POST to its 201: p50/p95/max), errors (any status but 201/200, refused or dropped sockets,
a follower closed early), and for each save whether every follower of its table received its `hand_recorded`
event, with the delay from the POST's start to the event (p50/p95/max). Goal: p95 save <= 250 ms, every event
delivered, 0 errors. Writers and followers run in two client processes so that neither's event loop delays the
other's clocks (time.monotonic is system-wide on Linux).

Run (PostgreSQL at 127.0.0.1:5432 user postgres, Redis at 127.0.0.1:6379; the database is dropped and re-created):

    .venv/bin/python bench/bench_capacity.py --tables 200 --followers 3 --period 30 --seconds 120 --workers 4
    #   --db ledger_capacity --redis redis://127.0.0.1:6379/0 --no-fetch
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PIECES = "head,seats,settlement,paid,confirmations"  # what the view-link page asks for (ledger/live/views.py)


# -- pure helpers (tests/test_bench_capacity.py) --------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """The q-quantile by nearest rank (q in [0, 1]); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def schedule(period: float, seconds: float, phase: float) -> list[float]:
    """Offsets (from the start) of one table's saves: phase, phase + period, ... while before `seconds`."""
    times, t = [], phase
    while t < seconds:
        times.append(t)
        t += period
    return times


def delivery(saves: list[dict[str, Any]], received: dict[tuple[int, int, int], float],
             followers: int) -> tuple[int, int, list[float]]:
    """For saves {table, number, start}, and received[(table, follower, number)] = arrival time: how many saves
    reached every follower, how many (save, follower) pairs missed, and the delays start -> arrival."""
    complete, missed, delays = 0, 0, []
    for save in saves:
        got = 0
        for f in range(followers):
            at = received.get((save["table"], f, save["number"]))
            if at is None:
                missed += 1
            else:
                got += 1
                delays.append(at - save["start"])
        complete += got == followers
    return complete, missed, delays


# -- set-up ---------------------------------------------------------------------------------------------------------

def server_env(args: argparse.Namespace) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.db}",
            "DJANGO_SETTINGS_MODULE": "ledger.settings", "DEBUG": "false", "HTTPS": "false",
            "SECRET_KEY": "bench-capacity-not-secret-" + "x" * 40, "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "REDIS_URL": args.redis, "REDIS_PREFIX": args.prefix, "PYTHONWARNINGS": "ignore",
            # Under ASGI every request runs in a thread of its own (Django's ThreadSensitiveContext), so a persistent
            # connection (CONN_MAX_AGE=60) is never reused and stays open until collected: 200 tables took all 100 of
            # PostgreSQL's connections. 0 (the default on PostgreSQL) lends each request a connection of the
            # worker's pool (PG_POOL, README).
            "CONN_MAX_AGE": str(args.conn_max_age)}


def create_database(name: str) -> None:
    import psycopg
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


SETUP = """
import datetime as dt, json, os
from decimal import Decimal
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from ledger.services import nights as services
from ledger.services import sharing as join_services
tables = []
for i in range(int(os.environ["BENCH_TABLES"])):
    owner = get_user_model().objects.create_user(f"table{i}", password="pw")
    group = services.personal_group(owner)
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title=f"桌 {i}", date=dt.date(2026, 12, 2), base=Decimal(1),
                                  players=players, first_dealer=0)
    view = join_services.link_renew(night=night, by=owner, kind="view")
    tables.append({"night": night.pk, "view": view.token, "token": Token.objects.create(user=owner).key})
from ledger.management.commands.demo import DEMO_HANDS
print(json.dumps({"tables": tables, "hands": DEMO_HANDS}))
"""


def setup(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """The tables ({night, view, token}) and the demo's hands to post."""
    create_database(args.db)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(manage + ["migrate", "-v0"], env=env, cwd=ROOT, check=True)
    out = subprocess.run(manage + ["shell", "-v0", "-c", SETUP], env={**env, "BENCH_TABLES": str(args.tables)},
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def start_server(args: argparse.Namespace, env: dict[str, str]) -> subprocess.Popen[bytes]:
    try:
        socket.create_connection(("127.0.0.1", args.port), timeout=0.5).close()
    except OSError:
        pass
    else:
        raise SystemExit(f"port {args.port} is taken (another server?): choose --port")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "uvicorn"), "ledger.asgi:application", "--host", "127.0.0.1",
         "--port", str(args.port), "--workers", str(args.workers), "--log-level", "warning", "--backlog", "2048"],
        cwd=ROOT, env=env, start_new_session=True)
    for _ in range(600):
        if server.poll() is not None:
            raise SystemExit("uvicorn exited")
        try:
            socket.create_connection(("127.0.0.1", args.port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    raise SystemExit("uvicorn did not start")


def warm_up(args: argparse.Namespace, tables: list[dict[str, Any]], hands: list[Any]) -> None:
    """A few saves before anything is measured, so that every worker has imported and built its tables (a server
    that has served for a while): 4 per worker, on the first tables, before their followers open."""
    import httpx
    with httpx.Client(base_url=f"http://127.0.0.1:{args.port}", timeout=120) as http:
        for i in range(4 * args.workers):
            table = tables[i % len(tables)]
            r = http.post(f"/api/nights/{table['night']}/hands/", content=json.dumps(hands[i % len(hands)]),
                          headers={"Authorization": f"Token {table['token']}", "Content-Type": "application/json"})
            if r.status_code != 201:
                raise SystemExit(f"warm-up save answered {r.status_code}: {r.text[:300]}")


# -- clients --------------------------------------------------------------------------------------------------------

def run_followers(args: argparse.Namespace, tables: list[dict[str, Any]], ready: Any, go: Any, out: Any) -> None:
    out.put(asyncio.run(_followers(args, tables, ready, go)))


async def _followers(args: argparse.Namespace, tables: list[dict[str, Any]], ready: Any, go: Any) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    received: dict[str, float] = {}
    errors: list[str] = []
    fetch_ms: list[float] = []
    stop = asyncio.Event()
    base = f"http://127.0.0.1:{args.port}"
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

        async def follow(t: int, f: int, opened: asyncio.Event) -> None:
            table = tables[t]
            last, stamp = 0, 0
            try:
                async with connect(f"ws://127.0.0.1:{args.port}/ws/view/{table['view']}/", origin=base,
                                   open_timeout=120, ping_interval=None) as sock:
                    opened.set()
                    while not stop.is_set():
                        try:
                            frame = await asyncio.wait_for(sock.recv(), timeout=0.5)
                        except asyncio.TimeoutError:
                            continue
                        at = time.monotonic()
                        event = json.loads(frame)
                        if event.get("kind") != "hand_recorded":
                            continue
                        received[f"{t},{f},{event['number']}"] = at
                        if args.fetch:
                            started = time.perf_counter()
                            try:
                                r = await http.get(f"/v/{table['view']}/fragments/",
                                                   params={"after": last, "since": stamp, "pieces": PIECES},
                                                   headers={"Accept": "application/json"})
                                if r.status_code == 200:
                                    data = r.json()
                                    last, stamp = max(last, data["last"]), data["stamp"]
                                    fetch_ms.append((time.perf_counter() - started) * 1000)
                                else:
                                    errors.append(f"fragments {r.status_code}")
                            except httpx.HTTPError as exc:
                                errors.append(f"fragments {type(exc).__name__}")
            except Exception as exc:  # noqa: BLE001  (every failure of a follower is an error of the run)
                errors.append(f"socket {t}/{f}: {type(exc).__name__} {exc}")
                opened.set()
                return
            if not stop.is_set():
                errors.append(f"socket {t}/{f} closed early")

        tasks, opened = [], []
        for t in range(len(tables)):
            for f in range(args.followers):
                ev = asyncio.Event()
                opened.append(ev)
                tasks.append(asyncio.create_task(follow(t, f, ev)))
                await asyncio.sleep(0.01)  # phones do not all open at once
        await asyncio.gather(*(ev.wait() for ev in opened))
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        await asyncio.sleep(args.seconds + args.grace)
        stop.set()
        await asyncio.gather(*tasks)
    return {"received": received, "errors": errors, "fetch_ms": fetch_ms}


def run_writers(args: argparse.Namespace, tables: list[dict[str, Any]], hands: list[Any], start: float,
                out: Any) -> None:
    out.put(asyncio.run(_writers(args, tables, hands, start)))


async def _writers(args: argparse.Namespace, tables: list[dict[str, Any]], hands: list[Any],
                   start: float) -> dict[str, Any]:
    import httpx

    saves: list[dict[str, Any]] = []
    errors: list[str] = []
    planned = [0]
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=len(tables), max_keepalive_connections=len(tables))
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{args.port}", timeout=60, limits=limits) as http:

        async def table_loop(t: int, phase: float) -> None:
            table = tables[t]
            headers = {"Authorization": f"Token {table['token']}", "Content-Type": "application/json",
                       "Accept-Language": "zh-hans"}
            pick = random.Random(f"{args.seed}-{t}")
            offsets = schedule(args.period, args.seconds, phase)
            planned[0] += len(offsets)
            for offset in offsets:
                await asyncio.sleep(max(0.0, start + offset - time.monotonic()))
                body = json.dumps(pick.choice(hands)).encode()
                began = time.monotonic()
                try:
                    r = await http.post(f"/api/nights/{table['night']}/hands/", content=body,
                                        headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
                except httpx.HTTPError as exc:
                    errors.append(f"save {type(exc).__name__}")
                    continue
                elapsed = time.monotonic() - began
                if r.status_code != 201:
                    errors.append(f"save {r.status_code} {r.text[:200]}")
                    continue
                saves.append({"table": t, "number": r.json()["number"], "start": began, "ms": elapsed * 1000,
                              "late": (began - start - offset) * 1000})

        await asyncio.gather(*(table_loop(t, rng.uniform(0, args.period)) for t in range(len(tables))))
    return {"saves": saves, "errors": errors, "planned": planned[0]}


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--followers", type=int, default=3)
    parser.add_argument("--period", type=float, default=30)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--workers", type=int, default=4, help="uvicorn's worker processes (2 per core here)")
    parser.add_argument("--fetch", action=argparse.BooleanOptionalAction, default=True,
                        help="followers fetch the fragments after each event, as the page does (default: yes)")
    parser.add_argument("--grace", type=float, default=10, help="seconds to wait for the last events")
    parser.add_argument("--db", default="ledger_capacity")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_PORT", "8941")))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--conn-max-age", type=int, default=0, help="the server's CONN_MAX_AGE (default 0, see above)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the server is stopped (finally below)
    args.prefix = f"ledger-capacity-{uuid.uuid4().hex[:8]}"
    env = server_env(args)

    began = time.monotonic()
    data = setup(args, env)
    tables = data["tables"]
    print(f"set up {len(tables)} tables in {time.monotonic() - began:.1f} s; load average {loadavg()}", flush=True)
    server = start_server(args, env)
    try:
        warm_up(args, tables, data["hands"])
        ready, go = multiprocessing.Event(), multiprocessing.Event()
        fout: multiprocessing.Queue[Any] = multiprocessing.Queue()
        wout: multiprocessing.Queue[Any] = multiprocessing.Queue()
        followers = multiprocessing.Process(target=run_followers, args=(args, tables, ready, go, fout))
        followers.start()
        deadline = time.monotonic() + 600
        while not ready.wait(timeout=1):
            if not followers.is_alive() or time.monotonic() > deadline:
                raise SystemExit("the followers did not connect")
        print(f"{len(tables) * args.followers} sockets open; load average {loadavg()}", flush=True)
        start = time.monotonic() + 1
        writers = multiprocessing.Process(target=run_writers, args=(args, tables, data["hands"], start, wout))
        writers.start()
        go.set()
        loads = []
        while writers.is_alive():
            writers.join(timeout=10)
            loads.append(loadavg())
        wres = wout.get()
        fres = fout.get()
        followers.join()
        writers.join()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:  # uvicorn waits for open sockets; the figures are taken already
            os.killpg(server.pid, signal.SIGKILL)

    received = {tuple(int(x) for x in k.split(",")): v for k, v in fres["received"].items()}
    saves = wres["saves"]
    complete, missed, delays = delivery(saves, received, args.followers)  # type: ignore[arg-type]
    ms = [s["ms"] for s in saves]
    errors = wres["errors"] + fres["errors"]
    print(f"uvicorn --workers {args.workers}, Redis channel layer, PostgreSQL; {len(tables)} tables x "
          f"{args.followers} followers, a hand every {args.period:g} s per table for {args.seconds:g} s"
          f"{', followers fetch fragments' if args.fetch else ''}")
    print(f"load average during the run (every 10 s): {'; '.join(loads)}")
    print(f"saves: {len(saves)} ok of {wres['planned']} planned, {len(saves) / args.seconds:.1f}/s; "
          f"p50 {percentile(ms, .5):.1f} ms, p95 {percentile(ms, .95):.1f} ms, max {max(ms, default=float('nan')):.1f} ms")
    late = [s["late"] for s in saves]
    print(f"writer lateness (client loop): p95 {percentile(late, .95):.1f} ms, max {max(late, default=0):.1f} ms")
    print(f"events: {complete}/{len(saves)} saves reached all {args.followers} followers; {missed} (save, follower) "
          f"missed; delay POST start -> event p50 {percentile(delays, .5) * 1000:.1f} ms, "
          f"p95 {percentile(delays, .95) * 1000:.1f} ms, max {max(delays, default=float('nan')) * 1000:.1f} ms")
    if args.fetch:
        fm = fres["fetch_ms"]
        print(f"fragment fetches: {len(fm)} ok, p50 {percentile(fm, .5):.1f} ms, p95 {percentile(fm, .95):.1f} ms")
    print(f"errors: {len(errors)}" + (f" (first: {errors[:5]})" if errors else ""))
    p95 = percentile(ms, .95)
    ok = p95 <= 250 and missed == 0 and not errors and complete == len(saves)
    print(f"goal (p95 save <= 250 ms, every event delivered, 0 errors): {'met' if ok else 'MISSED'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
