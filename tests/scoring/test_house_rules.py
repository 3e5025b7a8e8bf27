"""RULES.md §10, the table's own fan table: golden hands worked out by hand, one or more per option.

Each test says who pays whom and why. Seats 0-3; the base is 1 unless said. `pays` lists
(from, to, amount, reason) in the order of the payments.
"""
import pytest

from scoring import PRESETS, ScoringError, analyse_hand, analyse_ready, parse_rules, score_hand

from tests.hand_helpers import kong, w, win


def result(events, rules=None, **extra):
    return score_hand({"events": events, "rules": rules or {}, **extra}, require_end=False).as_dict()


def pays(events, rules=None, **extra):
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in result(events, rules, **extra)["payments"]]


def t(player, tiles, melds=None, flags=()):
    winner = {"player": player, "tiles": tiles, "flags": list(flags)}
    if melds:
        winner["melds"] = melds
    return winner


# ---- dian_gang_hua: 点杠花 ------------------------------------------------------------------------

# P3 discards the 7s that P1 konges directly (P3 pays the kong, 2); P1 then self-draws on the
# replacement tile: 对对胡 1 + the 7s kong as a root 1 + 杠上花 1 = 3 fan, x8.
DIRECT_THEN_BLOOM = [kong(1, "direct", 3, "7s"), win(None, t(1, "11122233355m", ["7777s"], ["gang_shang_hua"]))]


def test_dian_gang_hua_zi_mo_is_paid_by_every_active_opponent():
    assert pays(DIRECT_THEN_BLOOM) == [(3, 1, "2", "kong"), (0, 1, "8", "self_draw"), (2, 1, "8", "self_draw"),
                                       (3, 1, "8", "self_draw")]


def test_dian_gang_hua_dian_pao_is_paid_by_the_kong_s_discarder_alone_as_a_discard():
    # 点杠花算点炮: P3, who fed the kong, pays the 8 alone; the fan is unchanged (杠上花 included).
    done = result(DIRECT_THEN_BLOOM, {"dian_gang_hua": "dian_pao"})
    assert [(p["from"], p["to"], p["amount"], p["reason"]) for p in done["payments"]] == [
        (3, 1, "2", "kong"), (3, 1, "8", "discard")]
    assert done["wins"][0]["fan"] == 3 and done["wins"][0]["from"] is None
    assert done["net"] == ["0", "10", "0", "-10"]


@pytest.mark.parametrize("bonus", ["base", "fan"])
def test_dian_gang_hua_dian_pao_has_no_self_draw_bonus(bonus):
    # As a discard win: neither 自摸加底 (+1 base) nor 自摸加番 (+1 fan): P3 pays 8 still.
    assert pays(DIRECT_THEN_BLOOM, {"dian_gang_hua": "dian_pao", "self_draw_bonus": bonus})[1:] == [
        (3, 1, "8", "discard")]


@pytest.mark.parametrize("kind", ["concealed", "added"])
def test_dian_gang_hua_dian_pao_leaves_a_bloom_after_a_concealed_or_added_kong_a_self_draw(kind):
    # Only a direct kong has a discarder who fed it: a bloom after the others is paid by all three (x8 each).
    events = [kong(1, kind, tile="7s"), win(None, t(1, "11122233355m", ["7777s"], ["gang_shang_hua"]))]
    assert [p for p in pays(events, {"dian_gang_hua": "dian_pao"}) if p[3] != "kong"] == [
        (0, 1, "8", "self_draw"), (2, 1, "8", "self_draw"), (3, 1, "8", "self_draw")]


# ---- pattern_fan: the table's own fans -----------------------------------------------------------

def test_dui_dui_hu_liang_fan_preset_doubles_what_a_dui_dui_hu_is_paid():
    # P3 discards to P1's 对对胡: 1 fan (x2) by default, 2 fan (x4) at 对对胡两番.
    events = [win(3, w(1, "dui_dui_hu"))]
    assert pays(events) == [(3, 1, "2", "discard")]
    assert pays(events, PRESETS["dui_dui_hu_liang_fan"]) == [(3, 1, "4", "discard")]


def test_the_best_reading_uses_the_table_s_fans():
    # 22244455577799m is only pongs: it satisfies 平胡 0, 对对胡 1, 清一色 2 and 清对 3 (the name by default).
    # With 清对 at 1, the highest entry it satisfies is 清一色 (2): P0 pays P1 x4.
    events = [win(0, t(1, "22244455577799m"))]
    assert result(events)["wins"][0]["pattern"] == "qing_dui"
    done = result(events, {"pattern_fan": {"qing_dui": 1}})
    assert (done["wins"][0]["pattern"], done["wins"][0]["fan"]) == ("qing_yi_se", 2)
    assert pays(events, {"pattern_fan": {"qing_dui": 1}}) == [(0, 1, "4", "discard")]


def test_a_tie_at_the_table_s_fans_names_the_pattern_listed_first():
    # 111222333m77799p reads as pongs (对对胡) or as three 123m runs (平胡). With 对对胡 at 0 both are 0 fan:
    # 平胡 is listed first.
    assert analyse_hand("111222333m77799p").pattern == "dui_dui_hu"
    assert analyse_hand("111222333m77799p", rules=parse_rules({"pattern_fan": {"dui_dui_hu": 0}})).pattern == "ping_hu"


def test_a_cheap_dragon_reads_as_seven_pairs_with_a_root():
    # 11222244m557788p: 龙七对 4 (the quad is the dragon, no root). With 龙七对 at 2 it is 七对 2 + 1 root = 3,
    # above 龙七对 2 + 0: P2 pays P0 x8.
    assert pays([win(2, t(0, "11222244m557788p"))]) == [(2, 0, "16", "discard")]
    done = result([win(2, t(0, "11222244m557788p"))], {"pattern_fan": {"long_qi_dui": 2}})
    assert (done["wins"][0]["pattern"], done["wins"][0]["roots"], done["wins"][0]["fan"]) == ("qi_dui", 1, 3)


@pytest.mark.parametrize("dragon, named", [(2, ("qi_dui", 1, 3)), (3, ("long_qi_dui", 0, 3))])
def test_a_dragon_one_fan_above_seven_pairs_names_the_hand_by_tiles_and_by_quick_entry(dragon, named):
    """At 龙七对 3 the readings tie (七对 2 + 1 root, 龙七对 3 + 0): the entry worth more names it (RULES.md §3),
    and quick entry takes only that name; at 2, seven pairs with a root."""
    rules = {"pattern_fan": {"long_qi_dui": dragon}}
    done = result([win(2, t(0, "11222244m557788p"))], rules)
    assert (done["wins"][0]["pattern"], done["wins"][0]["roots"], done["wins"][0]["fan"]) == named
    assert result([win(2, w(0, named[0], named[1]))], rules)["wins"][0]["fan"] == 3
    if named[0] == "long_qi_dui":  # seven pairs with a root is not this hand's name here
        with pytest.raises(ScoringError) as refused:
            score_hand({"rules": rules, "events": [win(2, w(0, "qi_dui", 1))], "exhausted": True})
        assert [p.path for p in refused.value.problems] == ["events[0].winners[0].roots"]


def test_a_ready_hand_s_waits_use_the_table_s_fans():
    # 111444777m2228p waits on 8p only: 对对胡 1 by default (x2), 2 at 对对胡两番 (x4). 查叫: P1-P3 pay P0.
    events, ready = [], {"0": {"tiles": "111444777m2228p"}}
    assert [p[2] for p in pays(events, exhausted=True, ready=ready)] == ["2"] * 3
    done = result(events, PRESETS["dui_dui_hu_liang_fan"], exhausted=True, ready=ready)
    assert done["ready"]["0"] == {"waits": ["8p"], "fan": 2}
    assert [p[2] for p in pays(events, PRESETS["dui_dui_hu_liang_fan"], exhausted=True, ready=ready)] == ["4"] * 3


# ---- yao_jiu_jiang_dui: 幺九将对 -------------------------------------------------------------------

def test_without_yao_jiu_jiang_dui_a_jiang_dui_is_a_dui_dui_hu():
    # 222555888m55588p: 将对 3 (x8) by default; with 幺九将对 off it is 对对胡 1 (x2). P3 pays P1.
    events = [win(3, t(1, "222555888m55588p"))]
    assert pays(events) == [(3, 1, "8", "discard")]
    off = result(events, {"yao_jiu_jiang_dui": False})
    assert off["wins"][0]["pattern"] == "dui_dui_hu" and off["payments"][0]["amount"] == "2"


def test_without_yao_jiu_jiang_dui_yao_jiu_and_qing_yao_jiu_fall_back():
    rules = parse_rules({"yao_jiu_jiang_dui": False})
    assert analyse_hand("111222333m78999p", rules=rules).pattern == "ping_hu"  # 幺九 2 -> 平胡
    assert analyse_hand("11123777888999m", rules=rules).pattern == "qing_yi_se"  # 清幺九 4 -> 清一色
    # A self-draw of 清幺九: 16 from each by default, 4 (清一色) without 幺九将对.
    events = [win(None, t(0, "11123777888999m"))]
    assert [p[2] for p in pays(events)] == ["16"] * 3
    assert [p[2] for p in pays(events, {"yao_jiu_jiang_dui": False})] == ["4"] * 3


# ---- jiang_qi_dui_fan: 将七对 ----------------------------------------------------------------------

def test_jiang_qi_dui_counts_its_quad_as_a_root():
    # 22225588m225588p: seven pairs of 2/5/8 with the 2m quad. By default 龙七对 4 (x16); with 将七对 at 4:
    # 将七对 4 + 1 root = 5 (x32). P0 pays P2.
    events = [win(0, t(2, "22225588m225588p"))]
    assert pays(events) == [(0, 2, "16", "discard")]
    done = result(events, {"jiang_qi_dui_fan": 4})
    assert (done["wins"][0]["pattern"], done["wins"][0]["roots"], done["wins"][0]["fan"]) == ("jiang_qi_dui", 1, 5)
    assert done["payments"] == [{"event": 0, "from": 0, "to": 2, "amount": "32", "reason": "discard"}]


def test_jiang_qi_dui_is_listed_after_long_qi_dui_for_the_tie():
    # 将七对 at 3: 3 + 1 root = 4 = 龙七对 4 + 0: the tie names 龙七对, listed first.
    done = result([win(0, t(2, "22225588m225588p"))], {"jiang_qi_dui_fan": 3})
    assert (done["wins"][0]["pattern"], done["wins"][0]["fan"]) == ("long_qi_dui", 4)


def test_jiang_qi_dui_by_quick_entry_has_one_to_three_roots():
    assert result([win(0, w(2, "jiang_qi_dui", 2))], {"jiang_qi_dui_fan": 4})["wins"][0]["fan"] == 6


# ---- men_qing_fan: 门清 -----------------------------------------------------------------------------

def test_men_qing_is_found_from_concealed_tiles():
    # 23445677m345789p won on P2's discard: 平胡 0 (x1) by default; 门清 1 (x2) at 门清中张 (it holds a 9: no 中张).
    events = [win(2, t(0, "23445677m345789p"))]
    assert pays(events) == [(2, 0, "1", "discard")] and result(events)["wins"][0]["flags"] == []
    done = result(events, PRESETS["men_qing_zhong_zhang"])
    assert done["wins"][0]["flags"] == ["men_qing"] and done["payments"][0]["amount"] == "2"


def test_men_qing_allows_a_concealed_kong_but_not_a_direct_one():
    # P1 konges 7s concealed (2 from each), then self-draws 对对胡 1 + root 1 + 门清 1 = 3: x8 from each.
    concealed = [kong(1, "concealed", tile="7s"), win(None, t(1, "11122233355m", ["7777s"]))]
    assert pays(concealed, {"men_qing_fan": 1})[3:] == [(0, 1, "8", "self_draw"), (2, 1, "8", "self_draw"),
                                                         (3, 1, "8", "self_draw")]
    # After a direct kong (fed by P3) it is not 门清: 2 fan, x4 from each.
    direct = [kong(1, "direct", 3, "7s"), win(None, t(1, "11122233355m", ["7777s"]))]
    assert [p[2] for p in pays(direct, {"men_qing_fan": 1})[1:]] == ["4"] * 3


def test_men_qing_by_quick_entry_adds_its_fan():
    assert pays([win(3, w(1, "ping_hu", flags=["men_qing"]))], {"men_qing_fan": 2}) == [(3, 1, "4", "discard")]
    # At a table that gives it no fan it is accepted and adds nothing.
    assert pays([win(3, w(1, "ping_hu", flags=["men_qing"]))]) == [(3, 1, "1", "discard")]


# ---- zhong_zhang_fan: 中张 -------------------------------------------------------------------------

def test_zhong_zhang_is_found_from_the_tiles():
    # 23445677m345678p holds no 1 and no 9: 中张 1 + 门清 1 at 门清中张 = 2 fan, x4 from P3.
    events = [win(3, t(0, "23445677m345678p"))]
    assert pays(events) == [(3, 0, "1", "discard")]
    done = result(events, PRESETS["men_qing_zhong_zhang"])
    assert done["wins"][0]["flags"] == ["men_qing", "zhong_zhang"] and done["payments"][0]["amount"] == "4"
    # 中张 alone (a pong meld breaks 门清): 234m 456m 77m 345p + 666p: 1 fan.
    assert pays([win(3, t(0, "23445677m345p", ["666p"]))], PRESETS["men_qing_zhong_zhang"]) == [(3, 0, "2", "discard")]


def test_zhong_zhang_counts_the_melds_too():
    # 234m 456m 77m 345p and a 999p pong: the 9s in the meld break 中张. 0 fan, x1.
    assert pays([win(3, t(0, "23445677m345p", ["999p"]))], {"zhong_zhang_fan": 1}) == [(3, 0, "1", "discard")]


# ---- jia_xin_wu_fan: 夹心五 ------------------------------------------------------------------------

def test_jia_xin_wu_adds_its_fan_to_a_hand_with_a_456_run():
    # 23445677m345789p reads 234m 456m 77m 345p 789p: the 456m run is there. 平胡 0 + 夹心五 1: x2 from P1.
    events = [win(1, t(0, "23445677m345789p", flags=["jia_xin_wu"]))]
    assert pays(events, {"jia_xin_wu_fan": 1}) == [(1, 0, "2", "discard")]
    assert pays(events) == [(1, 0, "1", "discard")]  # no fan at this table: accepted, adds nothing


def test_jia_xin_wu_adds_to_the_best_reading():
    # 444555666m11p + 789p... : 444555666m as three pongs (对对胡? no: 789p is a run) or three 456m runs.
    # 444555666m78999p: best reading 平胡 0 either way; 夹心五 2 adds: x4 self-drawn from each.
    events = [win(None, t(2, "444555666m78999p", flags=["jia_xin_wu"]))]
    assert [p[2] for p in pays(events, {"jia_xin_wu_fan": 2})] == ["4"] * 3


@pytest.mark.parametrize("pattern", ["jiang_dui", "yao_jiu", "qing_yao_jiu", "jiang_qi_dui"])
def test_jia_xin_wu_by_quick_entry_is_refused_on_a_pattern_whose_tiles_hold_no_4_5_6(pattern):
    """By tiles the hand needs a reading with a 4-5-6 run; the 幺九 family has no 5, 将对 and 将七对 no 4 or 6
    (RULES.md §10: a flag whose condition fails is an error)."""
    record = {"rules": {"jia_xin_wu_fan": 1, "jiang_qi_dui_fan": 4}, "exhausted": True,
              "events": [win(None, w(1, pattern, 1 if pattern == "jiang_qi_dui" else 0, ["jia_xin_wu"]))]}
    with pytest.raises(ScoringError) as refused:
        score_hand(record)
    assert [p.path for p in refused.value.problems] == ["events[0].winners[0].flags[0]"]


@pytest.mark.parametrize("pattern, tiles, fan", [
    ("ping_hu", "123456m45699p789p", 0), ("qing_yi_se", "11123456456789m", 2),
    ("dui_dui_hu", "444555666m111p22p", 1), ("qing_dui", "444555666111m22m", 3),
    ("qi_dui", "11445566m778899p", 2), ("long_qi_dui", "44445566m778899p", 4),
    ("qing_qi_dui", "11445566778899m", 4), ("qing_long_qi_dui", "44445566778899m", 5)])
def test_jia_xin_wu_by_quick_entry_as_by_the_tiles_of_a_hand_with_a_4_5_6_reading(pattern, tiles, fan):
    """Every other pattern has hands with such a reading (444555666m is three 456m as well as three pongs); the
    same hand by tiles and by quick entry scores the same, 夹心五 added to the best reading."""
    flags = ["jia_xin_wu"]
    by_tiles = {"rules": {"jia_xin_wu_fan": 1}, "exhausted": True,
                "events": [win(None, {"player": 1, "tiles": tiles, "flags": flags})]}
    [won] = score_hand(by_tiles).as_dict()["wins"]
    assert (won["pattern"], won["fan"]) == (pattern, fan + 1)
    quick = {**by_tiles, "events": [win(None, w(1, pattern, won["roots"], flags))]}
    assert score_hand(quick).as_dict()["wins"] == [won]


# ---- hai_di_pao_fan: 海底炮 ------------------------------------------------------------------------

def test_hai_di_pao_on_the_last_discard_adds_its_fan():
    # P0 self-draws (x1 from each); the wall runs out and P3's last discard is won by P1 with 海底炮: x2 at 1 fan.
    events = [win(None, w(0)), win(3, w(1, flags=["hai_di_pao"]))]
    assert pays(events, {"hai_di_pao_fan": 1}, exhausted=True)[3:] == [(3, 1, "2", "discard")]
    assert pays(events, exhausted=True)[3:] == [(3, 1, "1", "discard")]


def test_hai_di_pao_is_on_every_winner_of_the_last_discard():
    # 一炮多响 on the last discard: each winner by its own fan, 海底炮 on both. P0 pays P1 x2 and P2 x4.
    events = [win(0, w(1, flags=["hai_di_pao"]), w(2, "dui_dui_hu", flags=["hai_di_pao"]))]
    assert pays(events, {"hai_di_pao_fan": 1}, exhausted=True) == [(0, 1, "2", "discard"), (0, 2, "4", "discard")]


# ---- tian_hu_fan / di_hu_fan -----------------------------------------------------------------------

def test_tian_hu_fan_is_the_table_s():
    # The dealer P0 wins on the dealt hand: 平胡 0 + 天胡 5 = x32 from each by default; 天胡 at 2: x4.
    events = [win(None, w(0, flags=["tian_hu"]))]
    assert [p[2] for p in pays(events)] == ["32"] * 3
    assert [p[2] for p in pays(events, {"tian_hu_fan": 2})] == ["4"] * 3


def test_di_hu_fan_zero_adds_nothing():
    # P1, not the dealer, wins first on P3's discard: 地胡 5 (x32) by default; at 0, x1.
    events = [win(3, w(1, flags=["di_hu"]))]
    assert pays(events) == [(3, 1, "32", "discard")]
    assert pays(events, {"di_hu_fan": 0}) == [(3, 1, "1", "discard")]


# ---- min_fan_on_discard: 点炮可平胡 -----------------------------------------------------------------

def test_min_fan_on_discard_counts_modifiers_and_is_checked_before_the_cap():
    # 平胡 + 杠上炮 = 1 fan: enough at min 1. P2 konges concealed (2 from each), then P2's discard is won.
    events = [kong(2, "concealed"), win(2, w(0, flags=["gang_shang_pao"]))]
    assert pays(events, {"min_fan_on_discard": 1})[-1] == (2, 0, "2", "discard")
    # 清一色 2 with a 1-fan cap: 2 before the cap meets min 2; paid x2 after the cap.
    assert pays([win(3, w(1, "qing_yi_se"))], {"min_fan_on_discard": 2, "max_fan": 1}) == [(3, 1, "2", "discard")]


def test_self_draws_and_dian_gang_hua_as_dian_pao_are_never_limited():
    # A 0-fan self-draw at min 1: x1 from each.
    assert [p[2] for p in pays([win(None, w(0))], {"min_fan_on_discard": 1})] == ["1"] * 3
    # 点杠花 paid as 点炮: 平胡 + 1 root + 杠上花 1 = 2 fan < 3, still allowed: P3 pays x4.
    events = [kong(1, "direct", 3), win(None, w(1, "ping_hu", 1, ["gang_shang_hua"]))]
    assert pays(events, {"min_fan_on_discard": 3, "dian_gang_hua": "dian_pao"}) == [
        (3, 1, "2", "kong"), (3, 1, "4", "discard")]


# ---- hua_zhu_pays_winners --------------------------------------------------------------------------

def test_hua_zhu_pays_winners_too():
    # P0 self-draws 平胡 (1 from each). Wall out: P1 ready at 1 fan, P2 a 花猪, P3 not ready.
    # 查叫: P3 pays P1 x2. 查花猪 (5 fan, no cap): P2 pays P1 and P3 32 each; with hua_zhu_pays_winners P0 too.
    doc = dict(exhausted=True, ready={"1": {"fan": 1}}, hua_zhu=[2])
    events = [win(None, w(0))]
    base = [(1, 0, "1", "self_draw"), (2, 0, "1", "self_draw"), (3, 0, "1", "self_draw"), (3, 1, "2", "cha_jiao")]
    assert pays(events, {"hua_zhu": True}, **doc) == base + [(2, 1, "32", "hua_zhu"), (2, 3, "32", "hua_zhu")]
    assert pays(events, {"hua_zhu": True, "hua_zhu_pays_winners": True}, **doc) == base + [
        (2, 0, "32", "hua_zhu"), (2, 1, "32", "hua_zhu"), (2, 3, "32", "hua_zhu")]


# ---- call_transfer_scope ---------------------------------------------------------------------------

# P2 konges concealed (2 from each of P0, P1, P3), then directly on P0's discard (2 from P0), and P1 wins
# P2's next discard: 平胡 + 杠上炮 = 1 fan, x2. The wall runs out with nobody ready.
TWO_KONGS = [kong(2, "concealed"), kong(2, "direct", 0), win(2, w(1, flags=["gang_shang_pao"]))]
KONGS_PAID = [(0, 2, "2", "kong"), (1, 2, "2", "kong"), (3, 2, "2", "kong"), (0, 2, "2", "kong"),
              (2, 1, "2", "discard")]


def test_call_transfer_of_the_last_kong_passes_the_kong_just_made():
    # The direct kong's 2 passes to P1; P2, not ready, gives back the concealed kong's 6 (退税).
    done = result(TWO_KONGS, {"call_transfer": True}, exhausted=True)
    assert [(p["from"], p["to"], p["amount"], p["reason"]) for p in done["payments"]] == KONGS_PAID + [
        (2, 1, "2", "call_transfer"), (2, 0, "2", "kong_refund"), (2, 1, "2", "kong_refund"), (2, 3, "2", "kong_refund")]
    assert done["net"] == ["-2", "4", "-2", "0"]


def test_call_transfer_of_all_kongs_passes_everything_the_kongs_earned():
    # Both kongs' 8 pass to P1; nothing is left to refund.
    done = result(TWO_KONGS, {"call_transfer": True, "call_transfer_scope": "all_kongs"}, exhausted=True)
    assert [(p["from"], p["to"], p["amount"], p["reason"]) for p in done["payments"]] == KONGS_PAID + [
        (2, 1, "8", "call_transfer")]
    assert done["net"] == ["-4", "8", "-2", "-2"]


# ---- 查叫 with the hand-shape bonuses (RULES.md §6) -------------------------------------------------

def test_cha_jiao_counts_men_qing():
    # P0 ready on 1234567m345789p (waits 1m 4m 7m, 平胡 0; a 9p: no 中张); nobody won. 门清 1: P1-P3 pay x2.
    doc = dict(exhausted=True, ready={"0": {"tiles": "1234567m345789p"}})
    assert [p[2] for p in pays([], **doc)] == ["1"] * 3
    done = result([], PRESETS["men_qing_zhong_zhang"], **doc)
    assert done["ready"]["0"] == {"waits": ["1m", "4m", "7m"], "fan": 1}


def test_cha_jiao_counts_zhong_zhang_by_the_wait():
    # 23m22345567678p waits on 1m (a 1: no 中张, 0 fan) or 4m (中张: 1 fan). 查小 charges 0 (x1), 查大 1 (x2).
    doc = dict(exhausted=True, ready={"0": {"tiles": "23m22345567678p"}})
    assert [p[2] for p in pays([], {"zhong_zhang_fan": 1}, **doc)] == ["1"] * 3
    assert [p[2] for p in pays([], {"zhong_zhang_fan": 1, "cha_jiao": "max"}, **doc)] == ["2"] * 3


def test_cha_jiao_counts_jin_gou_diao_and_the_cap_applies():
    # Four pongs and a lone 5m waiting on its pair: 对对胡 1 + 金钩钓 1 = 2 fan, x4; with a 1-fan cap, x2.
    doc = dict(exhausted=True, ready={"0": {"tiles": "5m", "melds": ["111m", "222p", "333p", "444p"]}})
    assert [p[2] for p in pays([], {"jin_gou_diao_fan": 1}, **doc)] == ["4"] * 3
    assert [p[2] for p in pays([], {"jin_gou_diao_fan": 1, "max_fan": 1}, **doc)] == ["2"] * 3


def test_cha_jiao_men_qing_is_broken_by_the_ready_player_s_direct_kong():
    # P0 konged 7s (concealed, or directly on P3's discard); ready on 1234567m123s + 7777s (waits 1m 4m 7m).
    ready = {"0": {"tiles": "1234567m123s", "melds": ["7777s"]}}
    concealed = result([kong(0, "concealed", tile="7s")], {"men_qing_fan": 1}, exhausted=True, ready=ready)
    direct = result([kong(0, "direct", 3, "7s")], {"men_qing_fan": 1}, exhausted=True, ready=ready)
    # 平胡 + the 7s root = 1; 门清 adds 1 only after the concealed kong.
    assert concealed["ready"]["0"]["fan"] == 2 and direct["ready"]["0"]["fan"] == 1


def test_analyse_ready_keeps_its_defaults():
    assert analyse_ready("1234567m345789p").cha_jiao_fan() == 0
    assert analyse_ready("1234567m345789p", rules=parse_rules({"men_qing_fan": 2})).cha_jiao_fan() == 2


# ---- §7: gang_shang_pao is the discard's -----------------------------------------------------------

def test_gang_shang_pao_on_every_winner_of_the_discard():
    # P0 konges concealed, then its discard is won by P1 (平胡) and P2 (对对胡), both 杠上炮: x2 and x4.
    events = [kong(0, "concealed"), win(0, w(1, flags=["gang_shang_pao"]), w(2, "dui_dui_hu", flags=["gang_shang_pao"]))]
    assert pays(events)[3:] == [(0, 1, "2", "discard"), (0, 2, "4", "discard")]
