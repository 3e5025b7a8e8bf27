"""Benchmark: every page and list endpoint as a night grows from 10 to 5,000 hands (issue 10).

For each size, a night of that many hands (and as many nights and players around it, up to 1,000) is
built in bulk, then a fresh gunicorn worker (one sync worker, persistent connections) serves every page
and endpoint: median time over --repeats requests, body size, SQL statements (counted in-process with
Django's test client on the same database) and the worker's resident memory after each URL.  Each time
is given against the `/rules/` page's time in the same run (goal: within 3x, and under 200 KB); after
every URL of the largest night the worker's RSS must stay within 20 MB of the fresh worker's.

Run (PostgreSQL; the database is emptied and rebuilt):

    createdb -h 127.0.0.1 -U postgres ledger_bench_growth
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_growth \\
        .venv/bin/python bench/bench_growth.py          # --sizes 10,200,1000,5000 --repeats 5
"""
from __future__ import annotations

import argparse
import datetime as dt
import http.client
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
# The same settings in this process (which builds the data and signs in) and in the server.
os.environ.update({"DEBUG": "false", "HTTPS": "false"})
os.environ.setdefault("SECRET_KEY", "bench-growth-not-secret-" + "x" * 40)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from ledger.services import nights as services  # noqa: E402
from ledger.services import standings  # noqa: E402
from ledger.management.commands.demo import DEMO_HANDS  # noqa: E402
from ledger.models import (AuditEntry, Hand, HandRevision, Night, Player, Seating, SeatResult,  # noqa: E402
                           seat_results)
from scoring import score_hand  # noqa: E402

PORT = int(os.environ.get("BENCH_PORT", "8931"))
NAMES = ("张三", "李四", "王五", "赵六")


# --------------------------------------------------------------------------------------------- data
def build_night(owner: Any, players: list[Player], hands: int, rng: random.Random) -> Night:
    """A night of `hands` hands, written in bulk with the services' own documents, scores and snapshots.

    Every hand goes through `services.hand_document` and `scoring.score_hand` with the dealer the night
    would have (the previous result's next dealer); rows are then bulk-inserted: hands, current
    revisions (with their stored nets), payments and audit entries, as `services.hand_record` writes them.
    """
    night = services.night_create(owner=owner, title=f"{hands} 局", date=dt.date(2026, 11, 30), base=Decimal(2),
                                  players=players, first_dealer=0)
    dealer = night.first_dealer
    plans = []
    scored: dict[tuple[int, int], Any] = {}  # the same entry with the same dealer scores the same: once
    for number in range(1, hands + 1):
        index = rng.randrange(len(DEMO_HANDS))
        if (index, dealer) not in scored:
            doc = services.hand_document(night=night, entry=DEMO_HANDS[index], dealer=dealer)
            scored[index, dealer] = (doc, score_hand(doc))
        doc, result = scored[index, dealer]
        plans.append((number, doc, result))
        dealer = result.next_dealer
    with transaction.atomic():
        created = Hand.objects.bulk_create(Hand(night=night, number=n, recorded_by=owner) for n, _d, _r in plans)
        revisions = HandRevision.objects.bulk_create(
            HandRevision(hand=h, version=1, dealer=doc["dealer"], player_0=players[0], player_1=players[1],
                         player_2=players[2], player_3=players[3], record=doc, result=result.as_dict(),
                         created_by=owner, player_names=[p.name for p in players])
            for h, (_n, doc, result) in zip(created, plans))
        rows = []
        for rev, (_n, _d, result) in zip(revisions, plans):
            for row in seat_results(rev.result, players):  # the statistics' rows, as services._write_revision
                row.revision = rev
                rows.append(row)
        SeatResult.objects.bulk_create(rows, batch_size=4000)
        AuditEntry.objects.bulk_create(
            (AuditEntry(night=night, group_id=night.group_id, hand=h, actor=owner, action=AuditEntry.Action.HAND_RECORDED,
                        after=services._snapshot(rev)) for h, rev in zip(created, revisions)), batch_size=1000)
        standings.refresh([night.pk])  # the night's standings, as hand_record keeps them one hand at a time
    # A few corrections and voids through the services themselves, so those paths are in the data too.
    for number in range(3, hands, max(3, hands // 5)):
        hand = Hand.objects.get(night=night, number=number)
        services.hand_correct(hand=hand, by=owner, entry=DEMO_HANDS[number % len(DEMO_HANDS)], reason="更正")
    if hands >= 2:
        services.hand_void(hand=Hand.objects.get(night=night, number=2), by=owner, reason="作废")
    return night


def build(size: int, rng: random.Random) -> dict[str, Any]:
    """Empty the database, then one owner with a night of `size` hands, min(size, 1000) other nights and
    as many players."""
    call_command("flush", interactive=False, verbosity=0)
    owner = get_user_model().objects.create_user("bench", password="bench")
    group = services.personal_group(owner)
    players = [services.player_get_or_create(name=n, group=group) for n in NAMES]
    extra = min(size, 1000)
    # The other players live in other circles (a group has tens of players, a server thousands): the bench
    # user's group has the four at the table and its min(size, 1000) other nights (a club over the years).
    elsewhere = services.personal_group(get_user_model().objects.create_user("others", password=None))
    Player.objects.bulk_create(Player(group=elsewhere, name=f"玩家{i:04d}") for i in range(extra))
    started = time.perf_counter()
    night = build_night(owner, players, size, rng)
    built = time.perf_counter() - started
    others = Night.objects.bulk_create(
        Night(owner=owner, group=group, title=f"旧局 {i}", date=dt.date(2026, 1, 1) + dt.timedelta(days=i % 300), base=Decimal(1),
              rules=night.rules, first_dealer=0) for i in range(extra))
    Seating.objects.bulk_create(Seating(night=n, seat=s, player=p) for n in others for s, p in enumerate(players))
    standings.refresh(n.pk for n in others)  # their players' (empty) lines, as night_create seats them
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # fresh statistics after a bulk load, as autovacuum would give
            cursor.execute("ANALYZE")
    token = Token.objects.create(user=owner).key
    client = Client()
    client.force_login(owner)
    last_hand = night.hands.order_by("-number").first()
    entry = AuditEntry.objects.filter(night=night, action=AuditEntry.Action.HAND_CORRECTED).order_by("-id").first() \
        or AuditEntry.objects.filter(night=night).order_by("-id").first()
    return {"night": night, "group": group.pk, "player": players[0].pk, "token": token, "session": client.cookies["sessionid"].value, "client": client,
            "last": last_hand.number if last_hand else 1, "entry": entry.pk, "build_seconds": built}


def urls(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, path) of every page and endpoint measured; the first is the reference."""
    n, last, entry, g, p = data["night"].pk, data["last"], data["entry"], data["group"], data["player"]
    return [
        ("/rules/ (reference)", "/rules/"),
        ("page: night list", "/"),
        ("page: table", f"/nights/{n}/"),
        ("page: audit", f"/nights/{n}/audit/"),
        ("page: audit entry", f"/nights/{n}/audit/{entry}/?fragment=1"),
        ("page: settle", f"/nights/{n}/settle/"),
        ("api: players", "/api/players/"),
        ("api: nights", "/api/nights/"),
        ("api: night", f"/api/nights/{n}/"),
        ("api: hands", f"/api/nights/{n}/hands/"),
        ("api: hand", f"/api/nights/{n}/hands/{last}/"),
        ("api: totals", f"/api/nights/{n}/totals/"),
        ("api: settlement", f"/api/nights/{n}/settlement/"),
        ("api: audit", f"/api/nights/{n}/audit/"),
        ("page: hand list", f"/nights/{n}/hands/"),
        ("page: group", f"/groups/{g}/"),
        ("page: player history", f"/players/{p}/"),
        ("page: leaderboard", f"/groups/{g}/leaderboard/?from="),
        ("api: groups", "/api/groups/"),
        ("api: group players", f"/api/groups/{g}/players/"),
        ("api: player stats", f"/api/players/{p}/stats/"),
        ("api: leaderboard", f"/api/groups/{g}/leaderboard/?from="),
        ("api: balance", f"/api/groups/{g}/balance/"),
    ]


# ------------------------------------------------------------------------------------------- server
def start_server() -> subprocess.Popen[bytes]:
    env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60")}
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "ledger.wsgi", "--workers", "1", "--bind",
         f"127.0.0.1:{PORT}", "--log-level", "warning", "--timeout", "120"],
        cwd=ROOT, env=env, start_new_session=True)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.05)
    raise SystemExit("gunicorn did not start")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)


def worker_pid(server: subprocess.Popen[bytes]) -> int:
    for _ in range(100):
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        if children:
            return int(children[0])
        time.sleep(0.05)
    raise SystemExit("no gunicorn worker")


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB: resident now, and its peak."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def fetch(path: str, data: dict[str, Any]) -> tuple[float, int, int]:
    """(seconds, body bytes, status) of one GET, signed in (token for the API, session for pages)."""
    headers = {"Accept-Language": "zh-hans"}
    if path.startswith("/api/"):
        headers["Authorization"] = f"Token {data['token']}"
    else:
        headers["Cookie"] = f"sessionid={data['session']}"
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
    started = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed, len(body), response.status


def queries(path: str, data: dict[str, Any]) -> int:
    client: Client = data["client"]
    headers = {"HTTP_AUTHORIZATION": f"Token {data['token']}"} if path.startswith("/api/") else {}
    with CaptureQueriesContext(connection) as captured:
        client.get(path, **headers)
    return len(captured)


# --------------------------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,200,1000,5000")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if "testserver" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS.append("testserver")  # the in-process client that counts the statements
    if connection.vendor != "postgresql":
        print("note: not PostgreSQL; set DATABASE_URL=postgres://... for the figures of bench/README.md")
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    sizes = [int(s) for s in args.sizes.split(",")]
    table: dict[str, dict[int, tuple[float, int, int, int]]] = {}
    memory: list[tuple[str, float, float]] = []
    fresh = 0.0
    for size in sizes:
        data = build(size, rng)
        print(f"built a night of {size} hands in {data['build_seconds']:.1f} s", flush=True)
        server = start_server()
        try:
            pid = worker_pid(server)
            fetch("/rules/", data)
            if size == sizes[-1]:
                fresh = memory_mb(pid)[0]
            # First pass: each URL once, in order, in a fresh worker: its memory after each (and the warm-up).
            for label, path in urls(data):
                fetch(path, data)
                if size == sizes[-1]:
                    rss, peak = memory_mb(pid)
                    memory.append((label, rss, peak))
            # Then the times, interleaved (every URL once per round) so that a busy moment of the shared
            # machine falls on the reference and the others alike.
            times: dict[str, list[float]] = {label: [] for label, _path in urls(data)}
            last: dict[str, tuple[int, int]] = {}
            for _ in range(args.repeats):
                for label, path in urls(data):
                    elapsed, length, status = fetch(path, data)
                    times[label].append(elapsed)
                    last[label] = (length, status)
            for label, path in urls(data):
                table.setdefault(label, {})[size] = (statistics.median(times[label]), last[label][0],
                                                     queries(path, data), last[label][1])
        finally:
            stop_server(server)

    largest = sizes[-1]
    print(f"\nmedian of {args.repeats} requests; x = time / the /rules/ page's time at that size; "
          "q = SQL statements")
    print(f"| | {' | '.join(f'{s} hands' for s in sizes)} | at {largest}: x, KB | goal |")
    print("|---|" + "---|" * len(sizes) + "---|---|")
    reference = table["/rules/ (reference)"]
    for label, by_size in table.items():
        cells = []
        for s in sizes:
            seconds, length, count, status = by_size[s]
            bad = "" if status == 200 else f" HTTP {status}"
            cells.append(f"{seconds * 1000:.1f} ms, {length / 1024:.1f} KB, {count} q{bad}")
        seconds, length, _q, _status = by_size[largest]
        ratio = seconds / reference[largest][0]
        ok = ratio <= 3 and length < 200 * 1024
        print(f"| {label} | {' | '.join(cells)} | {ratio:.1f}x, {length / 1024:.0f} KB | {'ok' if ok else 'MISSED'} |")
    constant = all(len({by_size[s][2] for s in sizes}) == 1 for by_size in table.values())
    print(f"\nquery counts constant over sizes: {'yes' if constant else 'NO'}")
    print(f"\nworker memory at {largest} hands: fresh (after /rules/) {fresh:.1f} MB RSS")
    print("| after | RSS MB | peak MB | RSS - fresh |")
    print("|---|---|---|---|")
    for label, rss, peak in memory:
        print(f"| {label} | {rss:.1f} | {peak:.1f} | {rss - fresh:+.1f} |")
    worst = max(rss for _l, rss, _p in memory) - fresh
    peak_growth = max(peak for _l, _r, peak in memory) - fresh
    print(f"\nlargest RSS growth over the fresh worker: {worst:+.1f} MB (peak {peak_growth:+.1f} MB); goal 20 MB: "
          f"{'ok' if worst <= 20 else 'MISSED'}")


if __name__ == "__main__":
    main()
