"""Benchmark: the statistics pages on the first view after a recorded hand (issue 17, item 6).

For each size, the growth benchmark's data (bench_growth.build: one night of that many hands in the bench
user's group, min(size, 1,000) other nights) is built in bulk; those other nights are closed with a table fee
share per player, so the fee sums grow with the group too. A fresh gunicorn worker (bench_growth.start_server)
serves it, or where gunicorn (a bench-only requirement) is not installed, the standard library's one-thread WSGI
server in a process of its own. Then, for --rounds rounds, each statistics URL is timed on its FIRST request after a hand recorded
through the service (`services.hand_record` in this process, which writes the audit entry that moves the
group's stamp, so nothing the worker kept for the group is reachable): a hand, the group page; a hand, the
player's history; a hand, the leaderboard page; a hand, the leaderboard API (the page and the API share the
cached leaderboard, so each gets its own hand). `/rules/` is timed in every round as the reference. The median
per URL is given against the median of `/rules/` in the same run (goal: within 3x at 5,000 hands, and flat from
10 to 5,000). The SQL statements of each first view are counted in-process (Django's test client, after a
hand as well).

Run (PostgreSQL; the database is emptied and rebuilt):

    createdb -h 127.0.0.1 -U postgres ledger_bench_stats
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_stats \\
        .venv/bin/python bench/bench_stats_first_view.py          # --sizes 10,1000,5000 --rounds 7
"""
from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

# bench_growth sets the environment and calls django.setup() when imported.
import bench_growth  # noqa: E402
from bench_growth import PORT, ROOT, build, fetch, queries, stop_server  # noqa: E402

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from ledger.services import nights as services  # noqa: E402
from ledger.services import standings  # noqa: E402
from ledger.management.commands.demo import DEMO_HANDS  # noqa: E402
from ledger.models import FeeShare, Night, Seating  # noqa: E402

REFERENCE = "/rules/ (reference)"

#: A one-thread WSGI server of the standard library, for a machine without gunicorn (a bench-only requirement):
#: one request at a time in one thread, like gunicorn's sync worker, persistent database connections alike.
WSGIREF = """
import os, sys
from wsgiref.simple_server import WSGIRequestHandler, make_server
from ledger.wsgi import application
class Quiet(WSGIRequestHandler):
    def log_message(self, *args): pass
make_server("127.0.0.1", int(sys.argv[1]), application, handler_class=Quiet).serve_forever()
"""


def start_server() -> subprocess.Popen[bytes]:
    """bench_growth's gunicorn worker when gunicorn is installed, else the standard library's WSGI server."""
    if (Path(sys.executable).parent / "gunicorn").exists():
        return bench_growth.start_server()
    env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost", "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60")}
    server = subprocess.Popen([sys.executable, "-c", WSGIREF, str(PORT)], cwd=ROOT, env=env, start_new_session=True)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def close_other_nights(data: dict[str, Any]) -> None:
    """Close the group's nights without hands and give each a fee share per seated player (in bulk)."""
    night: Night = data["night"]
    others = Night.objects.filter(group_id=data["group"]).exclude(pk=night.pk)
    others.update(is_closed=True)
    seats = Seating.objects.filter(night__in=others).values_list("night_id", "player_id")
    FeeShare.objects.bulk_create((FeeShare(night_id=n, player_id=p, amount=Decimal("2.5")) for n, p in seats),
                                 batch_size=4000)
    standings.refresh(others.values_list("pk", flat=True))  # as night_close does after writing the shares
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def stats_urls(data: dict[str, Any]) -> list[tuple[str, str]]:
    g, p = data["group"], data["player"]
    return [("page: group", f"/groups/{g}/"),
            ("page: player history", f"/players/{p}/"),
            ("page: leaderboard", f"/groups/{g}/leaderboard/?from="),
            ("api: leaderboard", f"/api/groups/{g}/leaderboard/?from=")]


def record_hand(data: dict[str, Any], rng: random.Random) -> None:
    owner = get_user_model().objects.get(username="bench")
    services.hand_record(night=data["night"], by=owner, entry=DEMO_HANDS[rng.randrange(len(DEMO_HANDS))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,1000,5000")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if "testserver" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS.append("testserver")
    if connection.vendor != "postgresql":
        print("note: not PostgreSQL; set DATABASE_URL=postgres://... for the figures of bench/README.md")
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    rng = random.Random(args.seed)
    sizes = [int(s) for s in args.sizes.split(",")]
    table: dict[str, dict[int, tuple[float, float, int]]] = {}  # label -> size -> (first, warm, statements)
    for size in sizes:
        data = build(size, rng)
        close_other_nights(data)
        print(f"built a group of {size} hands in {data['build_seconds']:.1f} s", flush=True)
        server = start_server()
        try:
            everything = [(REFERENCE, "/rules/"), *stats_urls(data)]
            for _label, path in everything:  # the worker's imports and templates, once
                fetch(path, data)
            first: dict[str, list[float]] = {label: [] for label, _path in everything}
            warm: dict[str, list[float]] = {label: [] for label, _path in everything}
            for _ in range(args.rounds):
                elapsed, _length, _status = fetch("/rules/", data)
                first[REFERENCE].append(elapsed)
                warm[REFERENCE].append(elapsed)
                for label, path in stats_urls(data):
                    record_hand(data, rng)
                    elapsed, _length, status = fetch(path, data)
                    if status != 200:
                        raise SystemExit(f"{path}: HTTP {status}")
                    first[label].append(elapsed)
                    warm[label].append(fetch(path, data)[0])
            counts = {REFERENCE: queries("/rules/", data)}
            for label, path in stats_urls(data):
                queries(path, data)  # seen once in this process too, as by the worker: what a page keeps is kept
                record_hand(data, rng)
                counts[label] = queries(path, data)
            for label, _path in everything:
                table.setdefault(label, {})[size] = (statistics.median(first[label]), statistics.median(warm[label]),
                                                     counts[label])
        finally:
            stop_server(server)

    largest = sizes[-1]
    print(f"\nmedian of {args.rounds} rounds; first = the first request after a recorded hand, warm = the next one; "
          "x = first / the /rules/ page's time at that size; q = SQL statements of the first view")
    print(f"| | {' | '.join(f'{s} hands' for s in sizes)} | at {largest}: x | goal |")
    print("|---|" + "---|" * len(sizes) + "---|---|")
    reference = table[REFERENCE]
    for label, by_size in table.items():
        cells = []
        for s in sizes:
            seconds, warm_seconds, count = by_size[s]
            cells.append(f"{seconds * 1000:.1f} ms ({seconds / reference[s][0]:.1f}x; warm {warm_seconds * 1000:.1f}), "
                         f"{count} q")
        ratio = by_size[largest][0] / reference[largest][0]
        print(f"| {label} | {' | '.join(cells)} | {ratio:.1f}x | {'ok' if ratio <= 3 else 'MISSED'} |")
    constant = all(len({by_size[s][2] for s in sizes}) == 1 for by_size in table.values())
    print(f"\nstatement counts constant over sizes: {'yes' if constant else 'NO'}")


if __name__ == "__main__":
    main()
