"""hand_choices: what the engine offers is what its checker accepts, and it never raises."""
import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import hand_choices
from scoring.choices import EVENT_FLAGS
from scoring.invariants import flag_in_use
from scoring.patterns import MODIFIERS
from scoring.rules import Rules

from tests.hand_helpers import WORKED_EXAMPLE, kong, w, win
from tests.scoring.records import hand_records, own_kongs, paths_under, problems

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(hand_records(finished=False))
def test_every_flag_and_pattern_offered_to_a_winner_is_accepted_there(doc):
    assert problems(doc) == []
    choices = hand_choices(doc)
    assert len(choices["events"]) == len(doc["events"])
    for i, event in enumerate(doc["events"]):
        offered = choices["events"][i]
        assert offered["type"] == event["type"]
        if event["type"] != "win":
            continue
        for j, (winner, options) in enumerate(zip(event["winners"], offered["winner_choices"])):
            assert options["player"] == winner["player"]
            for flag in options["flags"]:
                if flag not in winner["flags"]:
                    changed = copy.deepcopy(doc)
                    changed["events"][i]["winners"][j]["flags"].append(flag)
                    assert paths_under(changed, f"events[{i}].winners[{j}].flags") == [], flag
            for pattern in options["patterns"]:
                for roots in (pattern["min_roots"], pattern["max_roots"]):
                    changed = copy.deepcopy(doc)
                    changed["events"][i]["winners"][j].update(pattern=pattern["code"], roots=roots)
                    assert paths_under(changed, f"events[{i}].winners[{j}]") == [], (pattern, roots)
        for flag in offered["flags"]:  # a flag of the tile goes on every winner (RULES.md §7)
            if all(flag in x["flags"] for x in event["winners"]):
                continue
            changed = copy.deepcopy(doc)
            for x in changed["events"][i]["winners"]:
                if flag not in x["flags"]:
                    x["flags"].append(flag)
            assert paths_under(changed, f"events[{i}]") == [] and paths_under(changed, f"events[{i - 1}].kind") == [], flag


@SETTINGS
@given(hand_records(finished=False))
def test_every_flag_the_checker_accepts_is_offered(doc):
    choices = hand_choices(doc)
    for i, event in enumerate(doc["events"]):
        if event["type"] != "win":
            continue
        for j, winner in enumerate(event["winners"]):
            offered = choices["events"][i]["winner_choices"][j]["flags"]
            for flag in MODIFIERS:
                if flag in EVENT_FLAGS or flag in winner["flags"]:
                    continue
                changed = copy.deepcopy(doc)
                changed["events"][i]["winners"][j]["flags"].append(flag)
                # An optional modifier the rules leave at 0 fan is accepted but not offered (it means nothing).
                accepted = problems(changed) == []
                assert (accepted and flag_in_use(flag, Rules(**doc.get("rules", {})))) == (flag in offered), flag
        for flag in EVENT_FLAGS:  # the tile's flags, on every winner at once
            if all(flag in x["flags"] for x in event["winners"]):
                continue
            changed = copy.deepcopy(doc)
            for x in changed["events"][i]["winners"]:
                if flag not in x["flags"]:
                    x["flags"].append(flag)
            accepted = problems(changed) == []
            assert (accepted and flag_in_use(flag, Rules(**doc.get("rules", {})))) == (
                flag in choices["events"][i]["flags"]), flag


@SETTINGS
@given(hand_records(finished=False))
def test_every_seat_offered_to_act_next_may_act_and_no_other(doc):
    choices = hand_choices(doc)
    n = len(doc["events"])
    for seat in range(4):
        konged = copy.deepcopy(doc)
        konged["events"].append(kong(seat, "concealed"))
        konged.pop("exhausted", None), konged.pop("ready", None), konged.pop("hua_zhu", None)
        assert (paths_under(konged, f"events[{n}]") == []) == (seat in choices["next"]["kongers"])
        won = copy.deepcopy(konged)
        won["events"][-1] = win(None, w(seat, "ping_hu", own_kongs(doc, seat, n)))
        assert (paths_under(won, f"events[{n}]") == []) == (seat in choices["next"]["winners"])
    finished = copy.deepcopy(doc)
    finished["exhausted"] = True
    assert (paths_under(finished, "exhausted") == []) == choices["next"]["exhausted"]
    assert choices["complete"] == (doc.get("exhausted", False) or sum(
        len(e["winners"]) for e in doc["events"] if e["type"] == "win") == 3)


@SETTINGS
@given(hand_records(finished=False))
def test_every_seat_offered_on_an_event_is_accepted_there(doc):
    choices = hand_choices(doc)
    for i, event in enumerate(doc["events"]):
        offered = choices["events"][i]
        if event["type"] == "kong":
            for seat in offered["player"]:
                changed = copy.deepcopy(doc)
                changed["events"][i]["player"] = seat
                assert paths_under(changed, f"events[{i}].player") == []
            for kind in offered["kinds"]:
                changed = copy.deepcopy(doc)
                changed["events"][i]["kind"] = kind
                if kind == "direct":
                    changed["events"][i]["from"] = offered["from"][0] if offered["from"] else None
                else:
                    changed["events"][i].pop("from", None)
                assert paths_under(changed, f"events[{i}].kind") == []
        else:
            for seat in offered["from"]:
                changed = copy.deepcopy(doc)
                changed["events"][i]["from"] = seat
                assert [p for p in problems(changed) if p[0] == f"events[{i}].from" or p[1] == "discarder_is_receiver"] == []
            for seat in offered["more_winners"]:
                changed = copy.deepcopy(doc)
                robs = [f for f in EVENT_FLAGS if f in event["winners"][0]["flags"]]
                changed["events"][i]["winners"].append(w(seat, "ping_hu", own_kongs(doc, seat, i), robs))
                k = len(event["winners"])
                assert paths_under(changed, f"events[{i}].winners[{k}]") == []
                assert paths_under(changed, f"events[{i}].winners") == []


def test_after_a_winners_own_kong_the_roots_start_at_that_count():
    doc = {"events": [kong(1, "concealed"), kong(1, "added"), win(None, w(1, "dui_dui_hu", 2))]}
    patterns = {p["code"]: p for p in hand_choices(doc)["events"][2]["winner_choices"][0]["patterns"]}
    assert patterns["dui_dui_hu"] == {"code": "dui_dui_hu", "fan": 1, "min_roots": 2, "max_roots": 4}
    assert "qi_dui" not in patterns and "long_qi_dui" not in patterns


def test_a_robbed_kong_offers_only_robbable_kinds_and_the_tile_flag():
    doc = {"events": [kong(2, "added"), win(2, w(0, flags=["qiang_gang_hu"]))]}
    choices = hand_choices(doc)
    assert choices["events"][0]["kinds"] == ["added"]
    assert choices["events"][1]["flags"] == ["qiang_gang_hu"]
    assert "gang_shang_pao" not in choices["events"][1]["winner_choices"][0]["flags"]
    doc["rules"] = {"robbable_kongs": "added_direct"}
    assert hand_choices(doc)["events"][0]["kinds"] == ["direct", "added"]


def test_the_worked_example_is_complete_and_offers_nothing_next():
    choices = hand_choices(WORKED_EXAMPLE)
    assert choices["complete"] is True
    assert choices["next"] == {"open": False, "winners": [], "kongers": [], "exhausted": False}
    assert choices["events"][2]["winner_choices"][0]["flags"] == ["gang_shang_hua", "bao_jiao", "di_hu"]


@pytest.mark.parametrize("doc", [None, [], "x", {"events": "x"}, {"events": [None, 3, {"type": "win"}]},
                                 {"events": [{"type": "win", "from": 9, "winners": [{"player": "a"}, 5]}]},
                                 {"rules": {"max_fan": "big"}, "base": "1e999999", "ready": [], "hua_zhu": {}},
                                 {"events": [kong(0, "concealed")] * 40}, {"events": [{"type": "kong", "tile": "\ud800"}]}])
def test_it_never_raises_on_a_malformed_document(doc):
    choices = hand_choices(doc)
    assert set(choices) == {"complete", "events", "next", "ready", "hua_zhu"}
    assert choices["complete"] is False


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["events", "type", "player", "from", "winners", "kind", "flags", "pattern",
                                         "roots", "tiles", "exhausted", "ready", "rules"]), inner, max_size=5),
                    max_leaves=30))
@settings(max_examples=200, deadline=None)
def test_it_never_raises_on_random_json(doc):
    assert isinstance(hand_choices(doc)["events"], list)
