"""The engine's faster scoring path gives exactly what it gave before (issue 10): no timing here, only equality.

Two checks:

- `value_hand` (a tile-entered winner: a table keyed by each suit's ranks as written) against the
  general path it replaced for the usual hand — parse_hand() then evaluate(), kept below as
  `reference_value_hand` — on hypothesis-generated hands in every notation, complete or not,
  right or wrong;
- `score_hand` on 600 generated records (tile-entered and quick winners, melds, kongs, 查叫 with
  tiles, every rule preset, many of them refused) against the output the engine gave before this
  change, stored in tests/data/engine_speed_cases.json (made by `make_cases`, below, run against
  the engine of commit ac071a4).
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import ScoringError, score_hand
from scoring.hands import HandValue, evaluate, parse_hand, suits_of, totals_of, value_hand

from tests.scoring.random_records import random_record, random_seven_pairs, random_sets, spelled, spoiled

CASES = Path(__file__).resolve().parents[1] / "data" / "engine_speed_cases.json"
CASE_COUNT = 600
SEED = 10


def reference_value_hand(tiles: object, melds: object = None, *, path: str = "") -> HandValue:
    """value_hand as it was before the suit-text table: one parse, one evaluate()."""
    counts, parsed = parse_hand(tiles, melds, size=14, path=path)
    best = evaluate(counts, parsed)
    if best is None:
        suits = suits_of(totals_of(counts, parsed))
        return HandValue(counts, parsed, None, 0, "hand_three_suits" if len(suits) == 3 else "hand_not_complete", suits)
    return HandValue(counts, parsed, best[0], best[1], None, ())


def outcome(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """What a call gives: its value, or the problems it raises (path, code, params)."""
    try:
        return "ok", fn(*args, **kwargs)
    except ScoringError as exc:
        return "error", [(p.path, p.code, p.params) for p in exc.problems]


# ---- hands and their notations (generators: tests/scoring/random_records.py) ---------------------------------

def random_hand_text(rng: random.Random) -> str:
    """A 14-tile hand (or not quite) in some notation, for value_hand."""
    suits = rng.sample([0, 9, 18], rng.choice([1, 1, 2, 2, 2, 3]))
    counts = random_seven_pairs(rng, suits) if rng.random() < 0.25 else random_sets(rng, suits)[0]
    if rng.random() < 0.2:
        counts = spoiled(rng, counts)
    text = spelled(rng, counts)
    if rng.random() < 0.03:
        text = rng.choice([text + "0m", text[:-1], "x" + text, text * 5, text.replace("m", "")])
    return text


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_value_hand_equals_the_general_path(rng: random.Random) -> None:
    text = random_hand_text(rng)
    assert outcome(value_hand, text, path="w") == outcome(reference_value_hand, text, path="w"), text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="123456789mps万筒条MPS 0x", max_size=30))
def test_value_hand_equals_the_general_path_on_any_text(text: str) -> None:
    assert outcome(value_hand, text) == outcome(reference_value_hand, text), text


#: One hand of each pattern and roots that a random hand rarely is, in letters m, p, s; moved to every pair of suits below.
NOTABLE = ["222555m22255888p", "222555888m22288p", "11112233445566m", "11112222334455m", "1122334455667m7p",
           "11112233m445566p", "11123789m111999p", "11112233789999m", "11122233399m999s", "11122233344455m",
           "11223344556677m", "111123m44445566p", "2222555588m2288p", "123456789m11456p", "111222333m11155p",
           "222555m11133399p"]


def test_value_hand_equals_the_general_path_on_every_pattern_in_every_suit() -> None:
    for text in NOTABLE:
        for m, p in (("m", "p"), ("p", "m"), ("m", "s"), ("s", "m"), ("p", "s"), ("s", "p")):
            moved = text.translate(str.maketrans({"m": m, "p": p}))
            for written in (moved, moved.translate(str.maketrans({"m": "万", "p": "筒", "s": "条"}))):
                assert outcome(value_hand, written) == outcome(reference_value_hand, written), written


def test_value_hand_equals_the_general_path_with_melds() -> None:
    for tiles, melds in [("11122233355m", ["7777s"]), ("22m345678p", ["555p", "9999p"]), ("11m", ["111m"] * 4),
                         ("11223344556677m", []), ("11223344556677m", None)]:
        assert outcome(value_hand, tiles, melds) == outcome(reference_value_hand, tiles, melds)


# ---- whole records ----------------------------------------------------------------------------

def scored(doc: dict[str, Any]) -> dict[str, Any]:
    """The output document, or the errors document (in English: the messages hold every parameter)."""
    try:
        return {"result": score_hand(doc).as_dict()}
    except ScoringError as exc:
        return {"errors": exc.as_dict("en")["errors"]}


def make_cases() -> list[dict[str, Any]]:
    """CASE_COUNT records (about two in three of them legal) with what the engine in use makes of them."""
    rng = random.Random(SEED)
    cases: list[dict[str, Any]] = []
    while len(cases) < CASE_COUNT:
        doc = random_record(rng)
        out = scored(doc)
        if "errors" in out and rng.random() < 0.5:
            continue  # keep most records legal, so that settlement is exercised
        cases.append({"input": doc, "output": out})
    return cases


def test_score_hand_gives_what_it_gave_before() -> None:
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    assert len(cases) == CASE_COUNT
    legal = sum(1 for case in cases if "result" in case["output"])
    tile_winners = sum(1 for case in cases for e in case["input"]["events"] if e["type"] == "win"
                       for w in e["winners"] if "tiles" in w)
    assert legal > CASE_COUNT // 2 and tile_winners > CASE_COUNT // 2
    for case in cases:
        assert scored(case["input"]) == case["output"], case["input"]


if __name__ == "__main__":
    # Regenerate the stored outputs: run with the engine whose outputs are the reference first on the path.
    CASES.write_text("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in make_cases())
                     + "\n]\n", encoding="utf-8")
