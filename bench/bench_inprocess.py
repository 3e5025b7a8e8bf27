"""Benchmark: CPU per request in-process (no network, no server), interleaved, for what the load and growth
benchmarks cannot separate (issue 10).

- `--record`: the floor (a bare DRF create of one row, bench/floor_urls.py), recording a hand and recording it with
  an Idempotency-Key, one after the other, `--requests` times; CPU time (`time.process_time`) of each request,
  median per kind, and the statements of each.
- `--fragments`: a follower's fetch of the view link's pieces right after each hand (the capacity run's followers),
  against `/rules/`; median CPU and the statements of one fetch.
- `--where`: where a recorded hand's cost goes, beside the floor's: the CPU of this process and of its PostgreSQL
  backend (read from /proc: the server runs on this machine) per request, and this process's CPU by layer (the
  ORM building statements, the driver, DRF, the ledger's own code, the engine) under cProfile, a built-in's or the
  standard library's time counted to the layer of the function that called it.
- `--evening`: what a phone on the evening page costs the server after each hand (the page fetches itself anew on
  every change at its tables, static/evenings/evening_live.js): an evening of two tables of `--hands` hands each, a
  hand recorded at one of them (not timed), then the evening page, against `/rules/`; the statements of one fetch.
- `--pages`: the pages that keep rendered pieces (the "pieces" cache: hand cards' words, audit rows, the group
  page's body): each requested with its pieces kept, and with the cache cleared first (what the first view after a
  change costs), interleaved with `/rules/`.

Run (PostgreSQL; the database is emptied):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load .venv/bin/python bench/bench_inprocess.py --record
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_growth .venv/bin/python bench/bench_inprocess.py --pages
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load .venv/bin/python bench/bench_inprocess.py --fragments
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load .venv/bin/python bench/bench_inprocess.py --where
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load .venv/bin/python bench/bench_inprocess.py --evening
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")


def median_cpu(kinds: dict[str, Callable[[], Any]], rounds: int,
               before: dict[str, Callable[[], Any]] | None = None) -> dict[str, float]:
    """Each callable once per round, interleaved (after its `before`, not timed); the median CPU milliseconds."""
    times: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(rounds):
        for name, call in kinds.items():
            if before and name in before:
                before[name]()
            started = time.process_time()
            call()
            times[name].append((time.process_time() - started) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def record(requests: int) -> None:
    import bench_load  # sets the load benchmark's settings (bench.floor_settings) and calls django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ledger.management.commands.demo import DEMO_HANDS
    data = bench_load.setup(1)
    os.environ["BENCH_GROUP"] = str(data["group"])
    client = Client(HTTP_AUTHORIZATION=f"Token {data['token']}", HTTP_ACCEPT_LANGUAGE="zh-hans")
    hands = iter(range(10**9))

    def post(path: str, body: Any, **headers: str) -> None:
        response = client.post(path, json.dumps(body), content_type="application/json", **headers)
        assert response.status_code == 201, response.content

    kinds = {
        "floor": lambda: post("/bench/floor/", {"name": uuid.uuid4().hex[:12]}),
        "record": lambda: post(f"/api/nights/{data['nights'][0]}/hands/", DEMO_HANDS[next(hands) % len(DEMO_HANDS)]),
        "record+key": lambda: post(f"/api/nights/{data['nights'][0]}/hands/", DEMO_HANDS[next(hands) % len(DEMO_HANDS)],
                                   HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex),
    }
    median_cpu(kinds, 30)  # warm up: imports, the engine's tables, connections
    result = median_cpu(kinds, requests)
    for name, call in kinds.items():
        with CaptureQueriesContext(connection) as queries:
            call()
        print(f"{name:12s} {result[name]:6.2f} ms CPU  {result[name] / result['floor']:4.2f}x floor  "
              f"{len(queries)} statements")


#: Where a profiled function's own time is counted, by the first part of its file's path found (a built-in's or
#: the standard library's: to its callers' layers).
LAYERS = (("django/db/models/sql/", "ORM: compiling SQL"), ("django/db/models/", "ORM: querysets, models"),
          ("django/db/backends/", "Django's database layer"), ("psycopg", "psycopg"), ("rest_framework/", "DRF"),
          ("django/", "Django, other"), ("/ledger/", "ledger"), ("/scoring/", "scoring"))


def where(requests: int) -> None:
    import cProfile
    import pstats
    from collections import Counter

    import bench_load  # as record()
    from django.db import connection
    from django.test import Client

    from ledger.management.commands.demo import DEMO_HANDS
    if connection.vendor != "postgresql":
        sys.exit("--where reads the PostgreSQL backend's CPU: give a DATABASE_URL of the local PostgreSQL")
    data = bench_load.setup(1)
    os.environ["BENCH_GROUP"] = str(data["group"])
    client = Client(HTTP_AUTHORIZATION=f"Token {data['token']}", HTTP_ACCEPT_LANGUAGE="zh-hans")
    hands = iter(range(10**9))

    def post(path: str, body: Any) -> None:
        response = client.post(path, json.dumps(body), content_type="application/json")
        assert response.status_code == 201, response.content

    kinds = {"floor": lambda: post("/bench/floor/", {"name": uuid.uuid4().hex[:12]}),
             "record": lambda: post(f"/api/nights/{data['nights'][0]}/hands/",
                                    DEMO_HANDS[next(hands) % len(DEMO_HANDS)])}

    def backend_cpu() -> float:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    for call in kinds.values():
        for _ in range(30):
            call()  # warm up: imports, the engine's tables, the connection
    for name, call in kinds.items():
        database, own = backend_cpu(), time.process_time()
        for _ in range(requests):
            call()
        own_ms = (time.process_time() - own) / requests * 1000
        database_ms = (backend_cpu() - database) / requests * 1000
        print(f"{name:8s} this process {own_ms:5.2f} ms CPU, its PostgreSQL backend {database_ms:5.2f} ms CPU, "
              f"{own_ms + database_ms:5.2f} ms in all")
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    for _ in range(requests):
        kinds["record"]()
    profile.disable()

    def layer(filename: str) -> str | None:
        return next((label for part, label in LAYERS if part in filename), None)

    layers: Counter[str] = Counter()
    for (filename, _line, _name), (_calls, _primitive, own_time, _cumulative, callers) in (
            pstats.Stats(profile).stats.items()):  # type: ignore[attr-defined]
        if (own := layer(filename)) is not None:
            layers[own] += own_time
            continue
        for (caller, _l, _n), (_c, _p, edge_time, _cu) in callers.items():  # a built-in or the standard library's:
            layers[layer(caller) or "Python (standard library)"] += edge_time  # counted to its caller's layer
    total = sum(layers.values())
    print(f"record: this process's CPU by layer, under cProfile ({requests} hands)")
    for label, seconds in layers.most_common():
        print(f"  {label:26s} {seconds / total * 100:5.1f}%")


def pages(requests: int) -> None:
    import bench_growth  # sets the growth benchmark's settings and calls django.setup()
    from django.core.cache import caches
    from django.test import Client
    data = bench_growth.build(200, random.Random(2026))
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.cookies["sessionid"] = data["session"]
    urls = dict(bench_growth.urls(data))
    labels = ["page: table", "page: hand list", "page: audit", "page: group"]

    def get(label: str) -> Callable[[], None]:
        def call() -> None:
            response = client.get(urls[label])
            assert response.status_code == 200, (label, response.status_code)
        return call

    kinds: dict[str, Callable[[], Any]] = {"/rules/": lambda: client.get("/rules/")}
    before: dict[str, Callable[[], Any]] = {}
    for label in labels:
        kinds[f"{label} (kept)"] = before[f"{label} (kept)"] = get(label)  # the same page just before: all kept
        kinds[f"{label} (rendered anew)"] = get(label)
        before[f"{label} (rendered anew)"] = caches["pieces"].clear  # nothing kept
    median_cpu(kinds, 5, before)
    result = median_cpu(kinds, requests, before)
    for name, value in result.items():
        print(f"{name:32s} {value:6.2f} ms CPU  {value / result['/rules/']:4.2f}x /rules/")


def fragments(requests: int) -> None:
    """What a follower's phone costs the server after each hand: a hand recorded (not timed), then the view link's
    fetch of every piece it shows (ledger/live/views.py), as the capacity run's followers do."""
    import bench_load  # sets the load benchmark's settings (bench.floor_settings) and calls django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ledger.management.commands.demo import DEMO_HANDS
    from ledger.models import Night, NightLink
    from ledger.services import nights as services
    from ledger.services import sharing
    data = bench_load.setup(1)
    night = Night.objects.get(pk=data["nights"][0])
    owner = get_user_model().objects.get(pk=night.owner_id)
    link = sharing.link_renew(night=night, by=owner, kind=NightLink.Kind.VIEW)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans", HTTP_ACCEPT="application/json")
    pieces = "head,seats,settlement,paid,confirmations"  # what the view link's page asks for
    state = {"last": 0, "stamp": 0, "hand": 0}

    def record() -> None:
        services.hand_record(night=night, by=owner, entry=DEMO_HANDS[state["hand"] % len(DEMO_HANDS)])
        state["hand"] += 1

    def fetch() -> None:
        response = client.get(f"/v/{link.token}/fragments/",
                              {"after": state["last"], "since": state["stamp"], "pieces": pieces})
        assert response.status_code == 200, response.content
        body = response.json()
        state["last"], state["stamp"] = body["last"], body["stamp"]

    kinds = {"/rules/": lambda: client.get("/rules/"), "fragments after a hand": fetch}
    median_cpu(kinds, 10, {"fragments after a hand": record})
    result = median_cpu(kinds, requests, {"fragments after a hand": record})
    record()
    with CaptureQueriesContext(connection) as queries:
        fetch()
    for name, value in result.items():
        print(f"{name:24s} {value:6.2f} ms CPU  {value / result['/rules/']:4.2f}x /rules/")
    print(f"statements of a fetch after a hand: {len(queries)}")


def evening(requests: int, hands: int) -> None:
    """The evening page right after a hand at one of its tables, as a watching phone fetches it."""
    import datetime as dt
    from decimal import Decimal

    import bench_load  # sets the load benchmark's settings (bench.floor_settings) and calls django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ledger.management.commands.demo import DEMO_HANDS
    from ledger.models import Group
    from ledger.services import evenings
    from ledger.services import nights as services
    data = bench_load.setup(0)
    owner = get_user_model().objects.get(username="bench")
    group = Group.objects.get(pk=data["group"])
    party = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六", "孙七",
                                                                          "周八", "吴九", "郑十")]
    when = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=dt.date(2026, 12, 4))
    tables = [services.night_create(owner=owner, title="桌", date=when.date, base=Decimal(2), players=seated,
                                    first_dealer=0, evening=when, fee={"mode": "per_player", "amount": "5"})
              for seated in (party[:4], party[4:])]
    for i in range(hands):
        for night in tables:
            services.hand_record(night=night, by=owner, entry=DEMO_HANDS[i % len(DEMO_HANDS)])
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.cookies["sessionid"] = data["session"]
    state = {"hand": 0}

    def record() -> None:
        services.hand_record(night=tables[state["hand"] % 2], by=owner,
                             entry=DEMO_HANDS[state["hand"] % len(DEMO_HANDS)])
        state["hand"] += 1

    def fetch() -> None:
        response = client.get(f"/evenings/{when.pk}/")
        assert response.status_code == 200, response.status_code

    kinds = {"/rules/": lambda: client.get("/rules/"), "evening page after a hand": fetch}
    median_cpu(kinds, 5, {"evening page after a hand": record})
    result = median_cpu(kinds, requests, {"evening page after a hand": record})
    record()
    with CaptureQueriesContext(connection) as queries:
        fetch()
    for name, value in result.items():
        print(f"{name:28s} {value:6.2f} ms CPU  {value / result['/rules/']:4.2f}x /rules/")
    print(f"statements of a fetch after a hand: {len(queries)}; hands at the tables at the end: "
          f"{sum(t.hands.count() for t in tables)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--pages", action="store_true")
    parser.add_argument("--fragments", action="store_true")
    parser.add_argument("--where", action="store_true")
    parser.add_argument("--evening", action="store_true")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--hands", type=int, default=30, help="--evening: hands at each table before the run")
    args = parser.parse_args()
    if args.record + args.pages + args.fragments + args.where + args.evening != 1:
        parser.error("give one of --record, --where, --pages, --fragments, --evening")
    if args.evening:
        evening(args.requests, args.hands)
        return
    (record if args.record else where if args.where else pages if args.pages else fragments)(args.requests)


if __name__ == "__main__":
    main()
