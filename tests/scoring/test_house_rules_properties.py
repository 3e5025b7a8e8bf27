"""Properties of RULES.md §10 over random records and random house rules.

- With every §10 option at its default (given explicitly, or by a preset that only names them at
  their defaults) every result is what the rules of §1-§8 alone give (the stored outputs of
  tests/scoring/test_engine_speed.py pin those to the engine before §10).
- Under random §10 options: the fast evaluation, the readings and the waits agree; quick entry
  with the pattern found from the tiles (and the flags found from them) pays as tile entry; and
  what `hand_choices` offers is accepted there.
"""
import copy

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import ScoringError, analyse_hand, format_tiles, hand_choices, parse_rules, parse_tiles, score_hand
from scoring.choices import EVENT_FLAGS
from scoring.invariants import flag_in_use
from scoring.patterns import MODIFIERS
from scoring.hands import evaluate, readings, table_fans
from scoring.rules import OPTIONS, TABLE_PATTERNS
from scoring.waits import waits_of

from tests.hand_helpers import random_complete_hand
from tests.scoring.random_records import random_record
from tests.scoring.records import hand_records

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.large_base_example])
HOUSE = [name for name in OPTIONS if list(OPTIONS).index(name) >= list(OPTIONS).index("dian_gang_hua")]
HOUSE_DEFAULTS = {name: OPTIONS[name].default for name in HOUSE}


@st.composite
def house_rules(draw):
    """Random §10 options (each one drawn or left out)."""
    rules = {}
    if draw(st.booleans()):
        rules["pattern_fan"] = draw(st.dictionaries(st.sampled_from(TABLE_PATTERNS), st.integers(0, 10), max_size=4))
    yao_jiu = draw(st.booleans())
    rules["yao_jiu_jiang_dui"] = yao_jiu
    if yao_jiu and draw(st.booleans()):
        rules["jiang_qi_dui_fan"] = draw(st.integers(0, 10))
    for name in ("men_qing_fan", "zhong_zhang_fan", "jia_xin_wu_fan", "hai_di_pao_fan", "min_fan_on_discard"):
        if draw(st.booleans()):
            rules[name] = draw(st.integers(0, 3))
    for name in ("tian_hu_fan", "di_hu_fan"):
        if draw(st.booleans()):
            rules[name] = draw(st.integers(0, 20))
    rules["dian_gang_hua"] = draw(st.sampled_from(["zi_mo", "dian_pao"]))
    rules["hua_zhu_pays_winners"] = draw(st.booleans())
    rules["call_transfer_scope"] = draw(st.sampled_from(["last_kong", "all_kongs"]))
    return rules


def outcome(doc):
    try:
        return {"result": score_hand(doc).as_dict()}
    except ScoringError as exc:
        return {"errors": exc.as_dict("en")["errors"]}


def problems(doc):
    try:
        score_hand(doc, require_end=False)
    except ScoringError as exc:
        return [(p.path, p.code) for p in exc.problems]
    return []


# ---- defaults change nothing -------------------------------------------------------------------

@SETTINGS
@given(st.randoms(use_true_random=False))
def test_every_house_rule_at_its_default_changes_no_result(rng):
    doc = random_record(rng)
    explicit = copy.deepcopy(doc)
    explicit["rules"] = {**(doc.get("rules") or {}), **copy.deepcopy(HOUSE_DEFAULTS)}
    assert outcome(explicit) == outcome(doc)


@SETTINGS
@given(hand_records())
def test_every_house_rule_at_its_default_changes_no_quick_entry_result(doc):
    explicit = dict(doc, rules={**doc["rules"], **copy.deepcopy(HOUSE_DEFAULTS)})
    assert score_hand(explicit).as_dict() == score_hand(doc).as_dict()


def test_the_defaults_are_those_of_rules_md():
    assert HOUSE_DEFAULTS == {
        "dian_gang_hua": "zi_mo", "pattern_fan": {}, "yao_jiu_jiang_dui": True, "jiang_qi_dui_fan": 0,
        "men_qing_fan": 0, "zhong_zhang_fan": 0, "jia_xin_wu_fan": 0, "hai_di_pao_fan": 0, "tian_hu_fan": 5,
        "di_hu_fan": 5, "min_fan_on_discard": 0, "hua_zhu_pays_winners": False, "call_transfer_scope": "last_kong"}
    assert parse_rules(HOUSE_DEFAULTS) == parse_rules({}) and table_fans(parse_rules(HOUSE_DEFAULTS)) is None


# ---- hands at the table's own fans ---------------------------------------------------------------

@st.composite
def hands_with_seven_pairs(draw):
    """A random complete hand: four sets and a pair, or (one time in three) seven pairs, often of 2/5/8."""
    rng = draw(st.randoms(use_true_random=False))
    if rng.random() < 0.35:
        kinds = rng.sample([1, 4, 7, 10, 13, 16] if rng.random() < 0.5 else list(range(18)), rng.randint(4, 6))
        counts = [0] * 27
        for k in kinds:
            counts[k] = 2
        for _ in range(7 - len(kinds)):
            counts[rng.choice([k for k in kinds if counts[k] == 2])] = 4
        return format_tiles(counts)
    return format_tiles(random_complete_hand(rng))


@SETTINGS
@given(hands_with_seven_pairs(), house_rules())
def test_the_fast_evaluation_finds_the_best_reading_at_the_table_s_fans(tiles, rules):
    fans = table_fans(parse_rules(rules))
    counts = parse_tiles(tiles)
    best = readings(counts, fans=fans)[0]
    assert (best.pattern, best.roots) == evaluate(counts, fans=fans)
    expected_fans = fans or parse_rules({}).fans
    assert best.fan == expected_fans[best.pattern] + best.roots
    assert all(best.fan >= r.fan for r in readings(counts, fans=fans))


@SETTINGS
@given(hands_with_seven_pairs())
def test_the_table_fans_path_at_the_default_fans_names_every_hand_as_the_default_path(tiles):
    """A table with fans of its own values hands by `best_pattern`, the default table by §3's fast path: at §3's
    fans the two agree on every reading's pattern and roots (on a tie of total fan the pattern worth more, as the
    seed example 11224444557799m 清龙七对 shows: not 清七对 + 1 root)."""
    counts = parse_tiles(tiles)
    default = parse_rules({}).fans
    assert evaluate(counts, fans=default) == evaluate(counts, fans=None)
    assert ([(r.pattern, r.roots) for r in readings(counts, fans=default)]
            == [(r.pattern, r.roots) for r in readings(counts, fans=None)])


@pytest.mark.parametrize("rules", [{"yao_jiu_jiang_dui": False}, {"jiang_qi_dui_fan": 4},
                                   {"pattern_fan": {"dui_dui_hu": 2}}])
@pytest.mark.parametrize("tiles, roots", [("11224444557799m", 0), ("11114444557799m", 1), ("11223377889999m", 0)])
def test_an_option_about_other_patterns_leaves_a_qing_long_qi_dui_named_so(rules, tiles, roots):
    """Found by a probe: any fan table of the table's own named these 清七对 with one root more (same fan)."""
    record = {"rules": rules, "events": [{"type": "win", "from": None, "winners": [{"player": 1, "tiles": tiles}]}],
              "exhausted": True}
    [win] = score_hand(record).as_dict()["wins"]
    assert (win["pattern"], win["roots"]) == ("qing_long_qi_dui", roots)
    default = score_hand({**record, "rules": {}}).as_dict()["wins"][0]
    assert (default["pattern"], default["roots"], default["fan"]) == (win["pattern"], win["roots"], win["fan"])


@SETTINGS
@given(hands_with_seven_pairs(), house_rules(), st.randoms(use_true_random=False))
def test_waits_at_the_table_s_fans_are_the_completions(tiles, rules, rng):
    fans = table_fans(parse_rules(rules))
    counts = parse_tiles(tiles)
    counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
    expected = []
    for tile in range(27):
        if counts[tile] < 4:
            counts[tile] += 1
            found = evaluate(counts, fans=fans)
            counts[tile] -= 1
            if found:
                expected.append((format_tiles([int(t == tile) for t in range(27)]), *found))
    assert [tuple(w)[:3] for w in waits_of(counts, fans=fans)] == expected


@SETTINGS
@given(hands_with_seven_pairs(), house_rules(), st.sampled_from([None, 0, 2]))
def test_quick_entry_with_what_the_tiles_show_pays_as_tile_entry(tiles, rules, discarder):
    rules = {**rules, "min_fan_on_discard": 0}
    analysis = analyse_hand(tiles, rules=parse_rules(rules))
    tile_entry = {"rules": rules, "exhausted": True,
                  "events": [{"type": "win", "from": discarder, "winners": [{"player": 1, "tiles": tiles}]}]}
    scored = score_hand(tile_entry).as_dict()
    found = scored["wins"][0]["flags"]  # 门清 and 中张, where the night gives them fan
    quick = {"rules": rules, "exhausted": True, "events": [{"type": "win", "from": discarder, "winners": [
        {"player": 1, "pattern": analysis.pattern, "roots": analysis.roots, "flags": found}]}]}
    assert score_hand(quick).as_dict() == scored


# ---- hand_choices under random house rules -----------------------------------------------------

@SETTINGS
@given(hand_records(finished=False), house_rules())
def test_what_is_offered_under_random_house_rules_is_accepted(doc, house):
    doc = copy.deepcopy(doc)
    doc["rules"] = {**doc["rules"], **house}
    fans = parse_rules(doc["rules"]).fans
    for event in doc["events"]:
        for winner in event.get("winners", []):
            if winner["pattern"] not in fans:
                winner["pattern"] = "ping_hu"  # the generator's pattern is not at this table
    assume(problems(doc) == [])
    choices = hand_choices(doc)
    for i, event in enumerate(doc["events"]):
        if event["type"] != "win":
            continue
        offered = choices["events"][i]
        for j, options in enumerate(offered["winner_choices"]):
            for flag in options["flags"]:
                if flag not in event["winners"][j]["flags"]:
                    changed = copy.deepcopy(doc)
                    changed["events"][i]["winners"][j]["flags"].append(flag)
                    assert problems(changed) == [], flag
            for pattern in options["patterns"]:
                assert pattern["fan"] == fans[pattern["code"]]
                for roots in (pattern["min_roots"], pattern["max_roots"]):
                    changed = copy.deepcopy(doc)
                    changed["events"][i]["winners"][j].update(pattern=pattern["code"], roots=roots)
                    assert [p for p in problems(changed) if p[1] != "fan_below_min_on_discard"] == [], (pattern, roots)
        for flag in offered["flags"]:
            assert flag in EVENT_FLAGS
            changed = copy.deepcopy(doc)
            for x in changed["events"][i]["winners"]:
                if flag not in x["flags"]:
                    x["flags"].append(flag)
            assert problems(changed) == [], flag


@SETTINGS
@given(hand_records(finished=False), house_rules())
def test_every_flag_accepted_under_random_house_rules_with_fan_is_offered(doc, house):
    doc = copy.deepcopy(doc)
    doc["rules"] = {**doc["rules"], **house}
    rules = parse_rules(doc["rules"])
    for event in doc["events"]:
        for winner in event.get("winners", []):
            if winner["pattern"] not in rules.fans:
                winner["pattern"] = "ping_hu"
    assume(problems(doc) == [])
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
                accepted = problems(changed) == []
                assert (accepted and flag_in_use(flag, rules)) == (flag in offered), flag


def test_equal_rules_hash_alike_with_a_fan_table():
    a, b = parse_rules({"pattern_fan": {"dui_dui_hu": 2}}), parse_rules({"pattern_fan": {"dui_dui_hu": 2}})
    assert a == b and hash(a) == hash(b) and len({a, b, parse_rules({})}) == 2
