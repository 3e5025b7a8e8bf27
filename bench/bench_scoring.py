"""Benchmark: hand analysis and waits of scoring/ against mahjong 2.1.0's Agari.is_agari, on the same hands.

Run:  .venv/bin/pip install -r bench/requirements.txt && .venv/bin/python bench/bench_scoring.py
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari  # noqa: E402

from scoring.hands import analyse_hand, evaluate, waits_of  # noqa: E402
from scoring.patterns import PATTERNS  # noqa: E402
from scoring.tiles import format_tiles  # noqa: E402
from tests.hand_helpers import random_complete_hand  # noqa: E402


def to_34(counts: list[int]) -> list[int]:
    return counts + [0] * 7  # mahjong's 34-array: man, pin, sou, then honours


def best_times(repeats: int, fns: list) -> list[float]:
    """Seconds of the fastest of `repeats` runs of each function, the runs interleaved so that
    a busy moment of the machine falls on all of them alike."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [random_complete_hand(rng, suit_count=2) for _ in range(args.hands)]
    hands34 = [to_34(h) for h in hands]
    # 13-tile hands: drop one random tile of each complete hand.
    thirteen = []
    for h in hands:
        h = h[:]
        h[rng.choice([t for t in range(27) if h[t]])] -= 1
        thirteen.append(h)
    thirteen34 = [to_34(h) for h in thirteen]
    agari = Agari()
    evaluate(hands[0])  # build the tables once, outside the timing
    waits_of(thirteen[0])

    def ours_analysis() -> None:
        for h in hands:
            pattern, roots = evaluate(h)  # type: ignore[misc]
            PATTERNS[pattern].fan + roots

    def theirs_is_agari() -> None:
        for h in hands34:
            agari.is_agari(h)

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

    def ours_from_text() -> None:
        for text in texts:
            analyse_hand(text)

    texts = [format_tiles(h) for h in hands]
    n = len(hands)
    a, b, c, d, e = (t / n * 1e6 for t in best_times(
        args.repeats, [ours_analysis, theirs_is_agari, ours_waits, theirs_27_calls, ours_from_text]))
    print(f"python {sys.version.split()[0]}, {n} random complete two-suit hands, seed {args.seed}, best of {args.repeats}")
    print(f"full analysis (pattern, roots, fan), scoring.hands.evaluate : {a:8.2f} us/hand")
    print(f"mahjong 2.1.0 Agari.is_agari (yes/no)                      : {b:8.2f} us/hand   ratio {b / a:5.1f}x")
    print(f"waits of a 13-tile hand, scoring.hands.waits_of             : {c:8.2f} us/hand")
    print(f"27 x Agari.is_agari on the same 13-tile hands               : {d:8.2f} us/hand   ratio {d / c:5.1f}x")
    print(f"analyse_hand from text, with every reading listed           : {e:8.2f} us/hand")


if __name__ == "__main__":
    main()
