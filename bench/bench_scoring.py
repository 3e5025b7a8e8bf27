"""Benchmark: the engine's real paths against mahjong 2.1.0's Agari.is_agari, on the same hands, interleaved;
and the settlement of a night, exact and greedy.

Run:  .venv/bin/pip install -r bench/requirements.txt && .venv/bin/python bench/bench_scoring.py
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari  # noqa: E402

from scoring import ScoringError, score_hand, settle_night_plan  # noqa: E402
from scoring.hands import analyse_hand, evaluate, value_hand  # noqa: E402
from scoring.invariants import check_record  # noqa: E402
from scoring.record import read_document  # noqa: E402
from scoring.settle_hand import settle  # noqa: E402
from scoring.patterns import PATTERNS  # noqa: E402
from scoring.settle_night import EXACT_LIMIT  # noqa: E402
from scoring.tiles import format_tiles, parse_tiles  # noqa: E402
from scoring.waits import waits_of  # noqa: E402
from tests.hand_helpers import random_complete_hand  # noqa: E402


SUITS_ZH = str.maketrans({"m": "万", "p": "筒", "s": "条"})


def to_34(counts: list[int]) -> list[int]:
    return counts + [0] * 7  # mahjong's 34-array: man, pin, sou, then honours


def best_times(repeats: int, fns: list[Callable[[], Any]]) -> list[float]:
    """CPU seconds of the fastest of `repeats` runs of each function, the runs interleaved so that
    a busy moment of the machine falls on all of them alike.

    CPU time of this process (time.process_time), not wall time: the machine is shared, and time
    spent waiting for a core is not the code's.
    """
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - start)
    return best


def three_winner_docs(rng: random.Random, count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Hands where seat 0's discard is won by seats 1, 2 and 3, entered as tiles (random complete hands
    that fit on one table) and the same wins entered as pattern and roots (quick entry)."""
    tiles_docs, quick_docs = [], []
    while len(tiles_docs) < count:
        texts = [format_tiles(random_complete_hand(rng, suit_count=2)) for _ in range(3)]
        doc = {"events": [{"type": "win", "from": 0, "winners": [{"player": p, "tiles": t} for p, t in zip((1, 2, 3), texts)]}]}
        try:
            result = score_hand(doc)
        except ScoringError:
            continue  # more than four of a tile on the table: draw again
        tiles_docs.append(doc)
        quick_docs.append({"events": [{"type": "win", "from": 0, "winners": [
            {"player": w.player, "pattern": w.pattern, "roots": w.roots} for w in result.wins]}]})
    return tiles_docs, quick_docs


def nets_without_zero_sum_subsets(rng: random.Random, players: int) -> dict[str, Decimal]:
    """The exact method's worst case: no group of players settles among themselves."""
    values = [Decimal(rng.randint(1, 10 ** 6)) * rng.choice((1, -1)) for _ in range(players - 1)]
    values.append(-sum(values))
    return {f"p{i}": v for i, v in enumerate(values)}


def stages(args: argparse.Namespace) -> None:
    """Where a record's time goes: reading the document (tiles valued there), the checks of RULES.md §7,
    the settlement, and the output document (which score_hand itself does not build), per record and
    per winner, for the tile-entered records and the same wins entered quickly; is_agari on the same
    hands in the same run."""
    tile_docs, quick_docs = three_winner_docs(random.Random(args.seed), args.hands // 3)
    hands34 = [to_34(parse_tiles(w["tiles"])) for doc in tile_docs for w in doc["events"][0]["winners"]]
    records = {name: [read_document(d)[0] for d in docs] for name, docs in (("tiles", tile_docs), ("quick", quick_docs))}
    results = [score_hand(d) for d in tile_docs]
    agari = Agari()
    def each(fn: Callable[[Any], Any], items: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for item in items:
                fn(item)  # the result dropped, as in the timings above (kept, they would cost collections)
        return run

    fns: dict[str, Callable[[], Any]] = {"is_agari (per winner)": each(agari.is_agari, hands34)}
    for name, docs in (("tiles", tile_docs), ("quick", quick_docs)):
        fns[f"read_document, {name}"] = each(read_document, docs)
        fns[f"check_record, {name}"] = each(check_record, records[name])
        fns[f"settle, {name}"] = each(settle, records[name])
        fns[f"score_hand, {name}"] = each(score_hand, docs)
    fns["as_dict (the output document)"] = each(lambda result: result.as_dict(), results)
    times = best_times(args.repeats, list(fns.values()))
    agari_us = times[0] / len(hands34) * 1e6
    print(f"{len(tile_docs)} records of three winners, seed {args.seed}, best of {args.repeats}, CPU time")
    print(f"{'is_agari':34s}: {agari_us:8.2f} us/hand")
    for name, seconds in list(zip(fns, times))[1:]:
        us = seconds / len(tile_docs) * 1e6
        print(f"{name:34s}: {us:8.2f} us/record  {us / 3:7.2f} us/winner  {us / 3 / agari_us:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--stages", action="store_true",
                        help="only time the stages of score_hand on the three-winner records, tiles against quick entry")
    args = parser.parse_args()
    if args.stages:
        stages(args)
        return
    rng = random.Random(args.seed)
    hands = [random_complete_hand(rng, suit_count=2) for _ in range(args.hands)]
    hands34 = [to_34(h) for h in hands]
    texts = [format_tiles(h) for h in hands]
    # The same hands with Chinese suit characters (read by the suit table after one translate), and
    # with their suits in reverse order, which the table does not read: the general path (parse every
    # tile, then evaluate), as for melds, hands not complete and every error.
    texts_zh = [t.translate(SUITS_ZH) for t in texts]
    texts_reversed = ["".join(reversed(re.findall(r"[1-9]+[mps]", t))) for t in texts]
    tile_docs, quick_docs = three_winner_docs(random.Random(args.seed), args.hands // 3)
    # 13-tile hands: drop one random tile of each complete hand.
    thirteen = []
    for h in hands:
        h = h[:]
        h[rng.choice([t for t in range(27) if h[t]])] -= 1
        thirteen.append(h)
    thirteen34 = [to_34(h) for h in thirteen]
    agari = Agari()
    evaluate(hands[0])  # build the tables once, outside the timing
    value_hand(texts[0])
    waits_of(thirteen[0])

    def ours_evaluate() -> None:
        for h in hands:
            pattern, roots = evaluate(h)  # type: ignore[misc]
            PATTERNS[pattern].fan + roots

    def theirs_is_agari() -> None:
        for h in hands34:
            agari.is_agari(h)

    def ours_analyse_hand() -> None:
        for text in texts:
            analyse_hand(text)

    def ours_value_hand() -> None:
        for text in texts:
            value_hand(text)

    def ours_value_hand_zh() -> None:
        for text in texts_zh:
            value_hand(text)

    def ours_value_hand_reversed() -> None:
        for text in texts_reversed:
            value_hand(text)

    def ours_score_tiles() -> None:
        for doc in tile_docs:
            score_hand(doc)

    def ours_score_quick() -> None:
        for doc in quick_docs:
            score_hand(doc)

    def ours_waits() -> None:
        for h in thirteen:
            waits_of(h)

    def theirs_27_calls() -> None:
        for h in thirteen34:
            for t in range(27):
                if h[t] < 4:
                    h[t] += 1
                    agari.is_agari(h)
                    h[t] -= 1

    n = len(hands)
    times = best_times(args.repeats, [ours_evaluate, theirs_is_agari, ours_analyse_hand, ours_value_hand,
                                      ours_score_tiles, ours_score_quick, ours_waits, theirs_27_calls,
                                      ours_value_hand_zh, ours_value_hand_reversed])
    ev, ag, an, va, st, sq, wa, w27, vz, vr = (t / (len(tile_docs) if i in (4, 5) else n) * 1e6
                                           for i, t in enumerate(times))
    print(f"python {sys.version.split()[0]}, {n} random complete two-suit hands, seed {args.seed}, best of {args.repeats}")
    print(f"mahjong 2.1.0 Agari.is_agari (yes/no)                        : {ag:8.2f} us/hand   1.00x")
    print(f"evaluate (best pattern and roots, from counts)                : {ev:8.2f} us/hand   {ev / ag:5.2f}x")
    print(f"analyse_hand from text, every reading (the API's path)        : {an:8.2f} us/hand   {an / ag:5.2f}x")
    print(f"value_hand from text (what score_hand runs per tile winner)   : {va:8.2f} us/hand   {va / ag:5.2f}x")
    print(f"value_hand, the same hands written with 万/筒/条                : {vz:8.2f} us/hand   {vz / ag:5.2f}x")
    print(f"value_hand, suits in reverse order (the general path)         : {vr:8.2f} us/hand   {vr / ag:5.2f}x")
    print(f"score_hand, a discard won by three players entered as tiles  : {st:8.2f} us/record")
    print(f"score_hand, the same three wins entered as pattern and roots  : {sq:8.2f} us/record")
    print(f"  tile entry's cost per winner ((tiles - quick) / 3)          : {(st - sq) / 3:8.2f} us/winner "
          f"{(st - sq) / 3 / ag:5.2f}x")
    print(f"  the whole tile-entered record per winner (tiles / 3)        : {st / 3:8.2f} us/winner "
          f"{st / 3 / ag:5.2f}x")
    print(f"waits of a 13-tile hand, waits_of                             : {wa:8.2f} us/hand")
    print(f"27 x Agari.is_agari on the same 13-tile hands                 : {w27:8.2f} us/hand   {w27 / wa:5.1f}x waits_of")
    print(f"settle_night_plan, players with no zero-sum subset (exact up to {EXACT_LIMIT}, then greedy):")
    for players in (8, 10, 12, 13, 14, 15, 20, 40, 200):
        nets = nets_without_zero_sum_subsets(rng, players)
        (seconds,) = best_times(3, [lambda: settle_night_plan(nets)])
        plan = settle_night_plan(nets)
        print(f"  {players:4d} players: {seconds * 1000:8.2f} ms  {plan.method:6s} {len(plan.transfers):4d} transfers"
              f" (at least {plan.lower_bound})")


if __name__ == "__main__":
    main()
