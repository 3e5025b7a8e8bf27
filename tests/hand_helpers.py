"""Small builders for hand records in tests (and random hands, shared with the benchmark).

`score`, `payments` and `errors` look at the events as recorded so far, as the live preview does
(`require_end=False`): most tests are about one rule and need no third win. The rule that a hand
must end is tested on its own (tests/test_hand_end.py), with `require_end=True`.
"""
import json
import random
from pathlib import Path
from typing import Any

from scoring import ScoringError, score_hand


#: The worked example of HAND_FORMAT.md, input and output, shared by the engine, CLI and API tests.
GOLDEN = json.loads((Path(__file__).parent / "golden" / "worked_example.json").read_text(encoding="utf-8"))
WORKED_EXAMPLE, WORKED_RESULT = GOLDEN["input"], GOLDEN["output"]


def win(discarder, *winners):
    return {"type": "win", "from": discarder, "winners": list(winners)}


def w(player, pattern="ping_hu", roots=0, flags=()):
    return {"player": player, "pattern": pattern, "roots": roots, "flags": list(flags)}


def kong(player, kind, discarder=None, tile=None):
    event: dict[str, Any] = {"type": "kong", "player": player, "kind": kind}
    if discarder is not None:
        event["from"] = discarder
    if tile:
        event["tile"] = tile
    return event


def score(events, require_end=False, **extra):
    return score_hand({"events": events, **extra}, require_end=require_end).as_dict()


def payments(events, require_end=False, **extra):
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in score(events, require_end, **extra)["payments"]]


def errors(doc, lang="en", require_end=False):
    try:
        score_hand(doc, require_end=require_end)
    except ScoringError as exc:
        return [(e["path"], e["message"]) for e in exc.as_dict(lang)["errors"]]
    raise AssertionError("expected errors")


def random_complete_hand(rng: random.Random, suit_count: int | None = None) -> list[int]:
    """27 counts of a random complete hand: four sets and a pair in one or two suits, at most four of a tile."""
    while True:
        suits = rng.sample([0, 9, 18], suit_count or rng.choice([1, 2]))
        counts = [0] * 27
        for _ in range(4):
            base = rng.choice(suits)
            if rng.random() < 0.6:
                r = rng.randint(0, 6)
                for i in range(3):
                    counts[base + r + i] += 1
            else:
                counts[base + rng.randint(0, 8)] += 3
        counts[rng.choice(suits) + rng.randint(0, 8)] += 2
        if max(counts) <= 4:
            return counts
