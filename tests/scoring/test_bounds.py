"""Bounds and exactness: the stake, the number of events, bad text; nothing rounds or overflows silently."""
import json
from decimal import Decimal, Inexact

import pytest

from scoring import BASE_PLACES, MAX_BASE, MAX_EVENTS, ScoringError, parse_base, score_hand
from scoring.money import BASE_PLACES, MAX_WIN_FAN, PRECISION, exact, format_amount
from scoring.rules import OPTIONS

from tests.hand_helpers import errors, kong, w, win


@pytest.mark.parametrize("value, expected", [
    ("1", "1"), (2, "2"), ("0.5", "0.5"), (" 2.50 ", "2.5"), ("0.000001", "0.000001"), ("1.50000000000", "1.5"),
    ("1000000000", "1000000000"), (10 ** 9, "1000000000"), ("999999999.999999", "999999999.999999"),
])
def test_a_base_within_the_bounds_is_read_exactly(value, expected):
    assert format_amount(parse_base(value)) == expected


@pytest.mark.parametrize("value", [
    "1e999999", "1e-999999", "NaN", "nan", "Infinity", "-1", "0", "0.0", 0, -5, 1.5, True, None, [], "",
    "abc", "0.0000001", "1000000000.5", 10 ** 9 + 1, "1234567890123456789012345678.5", "1" * 50,
    # Not plain decimals (issue 16): an exponent, full-width and other non-ASCII digits, a sign.
    "1e3", "1e9", "1E2", "１２", "٣", "+2", "2.5e0",
])
def test_a_base_outside_the_bounds_is_refused_with_its_path(value):
    with pytest.raises(ScoringError) as exc:
        parse_base(value, "night.base")
    (problem,) = exc.value.problems
    assert problem.path == "night.base"
    assert problem.message("en") == (f"base must be a decimal string or an integer greater than 0 and at most {MAX_BASE}, "
                                     f"with at most {BASE_PLACES} decimal places")
    assert "底金" in problem.message("zh")


def test_the_largest_stake_on_a_huge_hand_stays_exact():
    base = "999999999.999999"
    doc = {"base": base, "dealer": 0, "exhausted": True, "rules": {"gang_shang_hua_fan": 5},
           "events": [kong(0, "concealed"), win(None, w(0, "qing_yao_jiu", 4, ["gang_shang_hua", "bao_jiao"]))]}
    result = score_hand(doc).as_dict()
    fan = 4 + 4 + 5 + 2
    assert result["wins"][0]["fan"] == fan
    assert result["payments"][-1]["amount"] == "32767999999999.967232"  # 999999999.999999 x 2^15, every digit
    assert sum(Decimal(n) for n in result["net"]) == 0


def test_every_amount_fits_the_documented_bound():
    assert MAX_BASE * 2 ** MAX_WIN_FAN < Decimal(10) ** 37
    assert len(str(MAX_BASE * 2 ** MAX_WIN_FAN)) + BASE_PLACES < PRECISION


def test_the_fan_bound_holds_every_option_at_its_highest():
    """MAX_WIN_FAN is at least a pattern and 4 roots plus every fan option a win can add at its highest (an option
    added later is counted here); 报叫 and 杠上炮 have fixed fans, 自摸加番 adds one."""
    win_options = [name for name in OPTIONS if name.endswith("_fan") and name not in
                   ("max_fan", "hua_zhu_fan", "pattern_fan", "jiang_qi_dui_fan")]
    pattern = max(OPTIONS["pattern_fan"].high, OPTIONS["jiang_qi_dui_fan"].high)
    assert MAX_WIN_FAN >= pattern + 4 + sum(OPTIONS[name].high for name in win_options) + 2 + 1 + 1


def test_the_highest_fan_a_probe_reached_is_paid_exactly():
    """Stacked house options (found by a probe: fan 46, about 7 x 10^22 at the highest base) stay exact."""
    doc = {"base": "999999999.999999", "dealer": 0,
           "rules": {"tian_hu_fan": 20, "hai_di_fan": 5, "pattern_fan": {"qing_yao_jiu": 10}, "zhong_zhang_fan": 0,
                     "men_qing_fan": 3, "self_draw_bonus": "fan"},
           "events": [win(None, w(0, "qing_yao_jiu", 4, ["tian_hu", "hai_di", "bao_jiao", "men_qing"]))],
           "exhausted": True}
    result = score_hand(doc).as_dict()
    fan = 10 + 4 + 20 + 5 + 2 + 3 + 1
    assert result["wins"][0]["fan"] == fan
    with exact():  # (Python's default context keeps 28 digits: these amounts have 30)
        assert Decimal(result["payments"][-1]["amount"]) == Decimal("999999999.999999") * 2 ** fan
        assert sum(Decimal(n) for n in result["net"]) == 0


def test_the_exact_context_raises_instead_of_rounding():
    with exact(), pytest.raises(Inexact):
        Decimal(1) / 3


def test_a_hand_with_too_many_events_is_refused_unread():
    doc = {"events": [kong(0, "concealed")] * (MAX_EVENTS + 1), "exhausted": True}
    assert errors(doc) == [("events", f"a hand has at most {MAX_EVENTS} events (3 wins, at most 4 kongs per player)")]


def test_a_fifth_kong_by_one_player_is_refused():
    doc = {"events": [kong(0, "concealed")] * 5, "exhausted": True, "rules": {"kong_refund": False}}
    assert errors(doc) == [("events[4].player", "seat 0 has already made 4 kongs: a hand holds at most four")]
    assert len(score_hand(dict(doc, events=doc["events"][:4])).as_dict()["payments"]) == 12


@pytest.mark.parametrize("robbed_at", [0, 4])
def test_a_robbed_kong_counts_among_the_four_wherever_it_comes(robbed_at):
    """RULES.md §7: at most four kongs, robbed ones included; a robbed kong made first counts as one made last."""
    robbed = [{"type": "kong", "player": 0, "kind": "added"},
              {"type": "win", "from": 0, "winners": [{"player": 1, "pattern": "ping_hu", "flags": ["qiang_gang_hu"]}]}]
    concealed = [kong(0, "concealed")] * 4
    events = robbed + concealed if robbed_at == 0 else concealed + robbed
    path = "events[5].player" if robbed_at == 0 else "events[4].player"
    assert errors({"events": events, "exhausted": True}) == [
        (path, "seat 0 has already made 4 kongs: a hand holds at most four")]
    assert score_hand({"events": events[:-1] if robbed_at == 0 else concealed[:3] + robbed, "exhausted": True})


@pytest.mark.parametrize("doc, path", [
    ({"events": [win(1, {"player": 0, "tiles": "123m\ud800"})]}, "events[0].winners[0].tiles"),
    ({"events": [win(1, {"player": 0, "tiles": "11m\x00"})]}, "events[0].winners[0].tiles"),
    ({"events": [win(1, w(0, flags=["\ud800"]))]}, "events[0].winners[0].flags[0]"),
    ({"events": [win(1, {"player": 0, "pattern": "\udfff"})]}, "events[0].winners[0].pattern"),
    ({"\ud800": 1}, "\\ud800"),
    ({"events": [kong(0, "concealed", tile="5\ud83d")]}, "events[0].tile"),
    ({"events": [win(1, {"player": 0, "tiles": "1" * 10000 + "m"})]}, "events[0].winners[0].tiles"),
])
def test_bad_text_gives_a_clean_error_that_can_be_sent_as_utf8(doc, path):
    doc.setdefault("exhausted", True)
    with pytest.raises(ScoringError) as exc:
        score_hand(doc)
    for lang in ("zh", "en"):
        body = exc.value.as_dict(lang)
        text = json.dumps(body, ensure_ascii=False).encode("utf-8")
        assert len(text) < 500
        assert body["errors"][0]["path"] == path
