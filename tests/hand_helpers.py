"""Small builders for hand records in tests (and random hands, shared with the benchmark)."""
import random
from typing import Any

from scoring import ScoringError, score_hand


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


def score(events, **extra):
    return score_hand({"events": events, **extra}).as_dict()


def payments(events, **extra):
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in score(events, **extra)["payments"]]


def errors(doc, lang="en"):
    try:
        score_hand(doc)
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
