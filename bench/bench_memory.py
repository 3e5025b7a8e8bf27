"""Benchmark: what the engine's tables add to a worker's memory, and analyse_ready against 27 x is_agari.

Run:  .venv/bin/pip install -r bench/requirements.txt && .venv/bin/python bench/bench_memory.py
      (--records 100 --more 20000 --hands 2000 --repeats 7 --seed 2026; --memory-only needs no mahjong;
      --speed-only)

Memory (issue 17: "a worker's RSS after recording hands with tiles at 查叫 grows at most 10 MB"):
a fresh Python process imports `scoring`, makes its hands, then goes through the phases below one
after the other, as a worker would, and prints its RSS (VmRSS of /proc/self/status) after each:

- suit_table(), then suit_texts(): the tables of complete one-suit groups (evaluate, value_hand);
- the first analyse_ready of a ready hand given by tiles (the first 查叫 with tiles);
- score_hand of --records records (xue_zhan, exhausted), each a self-drawn win entered as tiles and
  two ready players entered as tiles (so 2 x --records analyse_ready calls, on varied hands);
- --more analyse_ready calls on further varied ready hands (one or two suits, sometimes a pong set
  aside): a worker that has served many tables, which fills every cache the waits use.

The same phases run again in a second process under tracemalloc (kept and peak Python memory per
phase; tracemalloc adds its own memory, so RSS is never read there).

Speed (issue 17: "analyse_ready no slower than 0.3 x 27 x is_agari"): on --hands fixed 13-tile
ready hands (a random complete two-suit hand less one tile, as in bench_scoring.py), best of
--repeats CPU times of: mahjong 2.1.0's Agari.is_agari tried on each of the 27 tiles the hand holds
fewer than four of (what analyse_ready replaces), and analyse_ready from text with its cache of
suit shapes emptied before every call (every lookup worked out: the worst case), emptied once per
run (what a worker seeing these hands does), and full.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import analyse_ready, score_hand  # noqa: E402
from scoring.hands import suit_table, suit_texts  # noqa: E402
from scoring.tiles import format_tiles  # noqa: E402
from scoring.waits import suit_waits  # noqa: E402
from tests.hand_helpers import random_complete_hand  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def ready_hand(rng: random.Random, suit_count: int | None = None) -> list[int]:
    """27 counts of a ready 13-tile hand: a random complete hand less one of its tiles."""
    counts = random_complete_hand(rng, suit_count)
    counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
    return counts


def cha_jiao_records(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """Records where seat 0 self-draws (tiles) and the wall runs out with seats 1 and 2 ready (tiles)."""
    records: list[dict[str, Any]] = []
    while len(records) < count:
        winner, first, second = random_complete_hand(rng), ready_hand(rng), ready_hand(rng)
        if any(winner[t] + first[t] + second[t] > 4 for t in range(27)):
            continue  # a fifth copy of a tile on the table
        records.append({"events": [{"type": "win", "from": None,
                                    "winners": [{"player": 0, "tiles": format_tiles(winner)}]}],
                        "exhausted": True,
                        "ready": {"1": {"tiles": format_tiles(first)}, "2": {"tiles": format_tiles(second)}}})
    return records


def more_ready_hands(rng: random.Random, count: int) -> list[tuple[str, list[str] | None]]:
    """Varied ready hands as (tiles, melds): one or two suits, a third of them with a pong set aside."""
    hands: list[tuple[str, list[str] | None]] = []
    while len(hands) < count:
        counts = ready_hand(rng)
        melds = None
        triplets = [t for t in range(27) if counts[t] >= 3]
        if triplets and rng.random() < 0.3:
            t = rng.choice(triplets)
            counts[t] -= 3
            melds = [str(t % 9 + 1) * 3 + "mps"[t // 9]]
        hands.append((format_tiles(counts), melds))
    return hands


def memory_child(args: argparse.Namespace, traced: bool) -> None:
    """Run the phases in this (fresh) process; print one JSON object per phase."""
    import gc
    import tracemalloc

    rng = random.Random(args.seed)
    records = cha_jiao_records(rng, args.records)
    more = more_ready_hands(rng, args.more)
    first = format_tiles(ready_hand(random.Random(args.seed + 1), 2))

    def score_all() -> None:
        for doc in records:
            result = score_hand(doc).as_dict()
            assert result["ready"], "every record has ready players"

    def analyse_more() -> None:
        for tiles, melds in more:
            analyse_ready(tiles, melds)

    phases: list[tuple[str, Callable[[], object]]] = [
        ("suit_table()", suit_table),
        ("suit_texts()", suit_texts),
        ("first analyse_ready (the first 查叫 with tiles)", lambda: analyse_ready(first)),
        (f"score_hand of {args.records} records, 2 ready hands each by tiles", score_all),
        (f"{args.more} more analyse_ready on varied ready hands", analyse_more),
    ]
    gc.collect()
    if traced:
        tracemalloc.start()
    start = rss_mb()
    previous = start
    print(json.dumps({"phase": "after import scoring and making the hands", "rss": start}), flush=True)
    for name, run in phases:
        if traced:
            tracemalloc.reset_peak()
            before, _ = tracemalloc.get_traced_memory()
        run()
        gc.collect()
        row: dict[str, Any] = {"phase": name}
        if traced:
            after, peak = tracemalloc.get_traced_memory()
            row.update(kept=(after - before) / 2**20, peak=(peak - before) / 2**20)
        else:
            now = rss_mb()
            row.update(rss=now, step=now - previous, total=now - start)
            previous = now
        print(json.dumps(row, ensure_ascii=False), flush=True)
    info = suit_waits.cache_info()
    print(json.dumps({"phase": "suit_waits cache", "currsize": info.currsize, "maxsize": info.maxsize,
                      "hits": info.hits, "misses": info.misses}), flush=True)


def run_child(args: argparse.Namespace, mode: str) -> list[dict[str, Any]]:
    command = [sys.executable, __file__, "--child", mode, "--records", str(args.records), "--more", str(args.more),
               "--seed", str(args.seed)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines()]


def memory(args: argparse.Namespace) -> None:
    rows = run_child(args, "rss")
    traced = {row["phase"]: row for row in run_child(args, "trace")}
    print(f"python {sys.version.split()[0]}, seed {args.seed}; MB; RSS in one process, tracemalloc in another")
    print(f"{'phase':58s} {'RSS':>7s} {'step':>7s} {'total':>7s} {'kept':>7s} {'peak':>7s}")
    for row in rows:
        if "rss" not in row:
            continue
        trace = traced.get(row["phase"], {})
        cells = [f"{row[k]:7.1f}" if k in row else " " * 7 for k in ("rss", "step", "total")]
        cells += [f"{trace[k]:7.1f}" if k in trace else " " * 7 for k in ("kept", "peak")]
        print(f"{row['phase']:58s} " + " ".join(cells))
    cache = rows[-1]
    print(f"suit_waits cache at the end: {cache['currsize']} of {cache['maxsize']} shapes, "
          f"{cache['hits']} hits, {cache['misses']} misses")
    growth = rows[-2]["total"]
    print(f"RSS growth over every phase: {growth:.1f} MB (issue 17: at most 10 MB)")


def best_times(repeats: int, fns: list[Callable[[], Any]]) -> list[float]:
    """CPU seconds of the fastest of `repeats` runs of each function, the runs interleaved (as bench_scoring.py)."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - start)
    return best


def speed(args: argparse.Namespace) -> None:
    from mahjong.agari import Agari

    rng = random.Random(args.seed)
    hands = [ready_hand(rng, 2) for _ in range(args.hands)]
    texts = [format_tiles(h) for h in hands]
    hands34 = [h + [0] * 7 for h in hands]  # mahjong's 34-array: man, pin, sou, then honours
    agari = Agari()
    analyse_ready(texts[0])  # the suit table, outside the timing
    clear = suit_waits.cache_clear

    def theirs_27_tries() -> None:
        for h in hands34:
            for t in range(27):
                if h[t] < 4:
                    h[t] += 1
                    agari.is_agari(h)
                    h[t] -= 1

    def ours_cold() -> None:
        for text in texts:
            clear()
            analyse_ready(text)

    def ours_per_run() -> None:
        clear()
        for text in texts:
            analyse_ready(text)

    def ours_warm() -> None:
        for text in texts:
            analyse_ready(text)

    def clears_only() -> None:
        for _ in texts:
            clear()

    times = best_times(args.repeats, [theirs_27_tries, ours_cold, ours_per_run, ours_warm, clears_only])
    theirs, cold, per_run, warm, clears = (t / len(texts) * 1e6 for t in times)
    cold -= clears  # emptying the cache is the benchmark's, not analyse_ready's
    print(f"python {sys.version.split()[0]}, {len(texts)} ready two-suit 13-tile hands, seed {args.seed}, "
          f"best of {args.repeats}, CPU time")
    print(f"27 tries of mahjong 2.1.0 Agari.is_agari per hand          : {theirs:8.2f} us/hand   1.000x")
    print(f"analyse_ready from text, cache emptied before each hand     : {cold:8.2f} us/hand   {cold / theirs:5.3f}x")
    print(f"analyse_ready from text, cache emptied once per run         : {per_run:8.2f} us/hand   "
          f"{per_run / theirs:5.3f}x")
    print(f"analyse_ready from text, cache full                         : {warm:8.2f} us/hand   {warm / theirs:5.3f}x")
    print("(issue 17: analyse_ready at most 0.3x the 27 tries)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100)
    parser.add_argument("--more", type=int, default=20000)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--memory-only", action="store_true", help="skip the timing (needs no mahjong package)")
    parser.add_argument("--speed-only", action="store_true", help="skip the memory phases")
    parser.add_argument("--child", choices=["rss", "trace"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        memory_child(args, traced=args.child == "trace")
        return
    if not args.speed_only:
        memory(args)
    if not args.memory_only:
        if not args.speed_only:
            print()
        speed(args)


if __name__ == "__main__":
    main()
