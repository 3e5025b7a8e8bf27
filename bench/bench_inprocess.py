"""Benchmark: CPU per request in-process (no network, no server), interleaved, for what the load and growth
benchmarks cannot separate (issue 10).

- `--record`: the floor (a bare DRF create of one row, bench/floor_urls.py), recording a hand and recording it with
  an Idempotency-Key, one after the other, `--requests` times; CPU time (`time.process_time`) of each request,
  median per kind, and the statements of each.
- `--fragments`: a follower's fetch of the view link's pieces right after each hand (the capacity run's followers),
  against `/rules/`; median CPU and the statements of one fetch.
- `--pages`: the pages that keep rendered pieces (the "pieces" cache: hand cards' words, audit rows, the group
  page's body): each requested with its pieces kept, and with the cache cleared first (what the first view after a
  change costs), interleaved with `/rules/`.

Run (PostgreSQL; the database is emptied):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load .venv/bin/python bench/bench_inprocess.py --record
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_growth .venv/bin/python bench/bench_inprocess.py --pages
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_bench_load .venv/bin/python bench/bench_inprocess.py --fragments
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--pages", action="store_true")
    parser.add_argument("--fragments", action="store_true")
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    if args.record + args.pages + args.fragments != 1:
        parser.error("give one of --record, --pages, --fragments")
    (record if args.record else pages if args.pages else fragments)(args.requests)


if __name__ == "__main__":
    main()
