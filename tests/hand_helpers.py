"""Small builders for hand records in tests."""
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
