"""Property tests over random valid hands: zero sum, seat rotation, quick entry equals tile entry."""
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import analyse_hand, format_tiles, parse_tiles, score_hand
from scoring.hands import evaluate, readings
from scoring.waits import waits_of

from tests.hand_helpers import random_complete_hand
from tests.scoring.records import hand_records

@st.composite
def complete_hands(draw):
    """A random complete hand in one or two suits, built from four sets and a pair."""
    return format_tiles(random_complete_hand(draw(st.randoms(use_true_random=False))))


def rotate(record, k=1):
    """Seat s becomes s + k (mod 4): the dealer and every reference."""
    r = lambda s: None if s is None else (s + k) % 4  # noqa: E731
    out = dict(record, dealer=r(record["dealer"]), events=[])
    for e in record["events"]:
        e = dict(e)
        if "player" in e:
            e["player"] = r(e["player"])
        if "from" in e:
            e["from"] = r(e["from"])
        if e["type"] == "win":
            e["winners"] = [dict(w, player=r(w["player"])) for w in e["winners"]]
        out["events"].append(e)
    if "ready" in record:
        out["ready"] = {str(r(int(s))): v for s, v in record["ready"].items()}
    if "hua_zhu" in record:
        out["hua_zhu"] = [r(s) for s in record["hua_zhu"]]
    return out


@settings(max_examples=300, deadline=None)
@given(hand_records())
def test_every_hand_sums_to_zero(record):
    result = score_hand(record).as_dict()
    assert sum(Decimal(n) for n in result["net"]) == 0
    assert all(Decimal(p["amount"]) > 0 for p in result["payments"])


@settings(max_examples=300, deadline=None)
@given(hand_records())
def test_rotating_the_seats_rotates_the_result_and_nothing_else(record):
    before = score_hand(record).as_dict()
    after = score_hand(rotate(record)).as_dict()
    assert after["net"] == before["net"][-1:] + before["net"][:-1]
    assert after["next_dealer"] == (before["next_dealer"] + 1) % 4
    moved = sorted((p["event"] or -1, p["reason"], (p["from"] + 1) % 4, (p["to"] + 1) % 4, p["amount"])
                   for p in before["payments"])
    assert sorted((p["event"] or -1, p["reason"], p["from"], p["to"], p["amount"]) for p in after["payments"]) == moved
    assert [dict(w, player=(w["player"] + 1) % 4, **{"from": None if w["from"] is None else (w["from"] + 1) % 4})
            for w in before["wins"]] == after["wins"]
    assert after["ready"] == {str((int(s) + 1) % 4): v for s, v in before["ready"].items()}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(complete_hands(), st.sampled_from([None, 0, 1, 2, 3]), st.integers(0, 3))
def test_quick_entry_with_the_found_pattern_pays_as_tile_entry(tiles, discarder, winner):
    if discarder == winner:
        discarder = (winner + 1) % 4
    analysis = analyse_hand(tiles)
    tile_entry = {"events": [{"type": "win", "from": discarder, "winners": [{"player": winner, "tiles": tiles}]}],
                  "exhausted": True}
    quick = {"events": [{"type": "win", "from": discarder, "winners": [
        {"player": winner, "pattern": analysis.pattern, "roots": analysis.roots}]}], "exhausted": True}
    assert score_hand(tile_entry).as_dict() == score_hand(quick).as_dict()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(complete_hands())
def test_the_best_reading_is_what_the_fast_evaluation_finds(tiles):
    counts = parse_tiles(tiles)
    best = readings(counts)[0]
    assert (best.pattern, best.roots) == evaluate(counts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(complete_hands(), st.randoms(use_true_random=False))
def test_waits_are_exactly_the_tiles_that_complete_the_hand(tiles, rng):
    counts = parse_tiles(tiles)
    counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
    expected = []
    for tile in range(27):
        if counts[tile] < 4:
            counts[tile] += 1
            found = evaluate(counts)
            counts[tile] -= 1
            if found:
                expected.append((format_tiles([int(t == tile) for t in range(27)]), *found))
    assert [tuple(w)[:3] for w in waits_of(counts)] == expected
