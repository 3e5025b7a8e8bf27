"""RULES.md §10: records and rules the house rules refuse, each with its path and a message (Chinese and English)."""
import pytest

from scoring import ScoringError, parse_rules, score_hand

from tests.hand_helpers import errors, kong, w, win


def t(player, tiles, melds=None, flags=()):
    winner = {"player": player, "tiles": tiles, "flags": list(flags)}
    if melds:
        winner["melds"] = melds
    return winner


def rule_errors(rules, lang="en"):
    with pytest.raises(ScoringError) as caught:
        parse_rules(rules)
    return [(e["path"], e["message"]) for e in caught.value.as_dict(lang)["errors"]]


@pytest.mark.parametrize("rules, path, message", [
    ({"pattern_fan": {"dui_dui_hu": 2, "da_si_xi": 3}}, "rules.pattern_fan.da_si_xi", "unknown pattern 'da_si_xi'"),
    ({"pattern_fan": {"jiang_qi_dui": 4}}, "rules.pattern_fan.jiang_qi_dui",
     "the fan of jiang_qi_dui is set by jiang_qi_dui_fan only, not in pattern_fan"),
    ({"pattern_fan": {"qing_dui": 11}}, "rules.pattern_fan.qing_dui", "expected an integer from 0 to 10"),
    ({"pattern_fan": {"qing_dui": -1}}, "rules.pattern_fan.qing_dui", "expected an integer from 0 to 10"),
    ({"pattern_fan": {"qing_dui": True}}, "rules.pattern_fan.qing_dui", "expected an integer from 0 to 10"),
    ({"pattern_fan": {"qing_dui": "2"}}, "rules.pattern_fan.qing_dui", "expected an integer from 0 to 10"),
    ({"pattern_fan": [["dui_dui_hu", 2]]}, "rules.pattern_fan", "expected a JSON object"),
    ({"jiang_qi_dui_fan": 4, "yao_jiu_jiang_dui": False}, "rules.jiang_qi_dui_fan",
     "without terminal and 2-5-8 patterns (幺九将对, yao_jiu_jiang_dui false) there is no jiang_qi_dui: jiang_qi_dui_fan must be 0"),
    ({"jiang_qi_dui_fan": 11}, "rules.jiang_qi_dui_fan", "expected an integer from 0 to 10"),
    ({"men_qing_fan": 4}, "rules.men_qing_fan", "expected an integer from 0 to 3"),
    ({"hai_di_pao_fan": -1}, "rules.hai_di_pao_fan", "expected an integer from 0 to 3"),
    ({"tian_hu_fan": 21}, "rules.tian_hu_fan", "expected an integer from 0 to 20"),
    ({"min_fan_on_discard": 4}, "rules.min_fan_on_discard", "expected an integer from 0 to 3"),
    ({"dian_gang_hua": "both"}, "rules.dian_gang_hua", "expected one of: zi_mo, dian_pao"),
    ({"call_transfer_scope": "some"}, "rules.call_transfer_scope", "expected one of: last_kong, all_kongs"),
    ({"yao_jiu_jiang_dui": "no"}, "rules.yao_jiu_jiang_dui", "expected true or false"),
    ({"hua_zhu_pays_winners": 1}, "rules.hua_zhu_pays_winners", "expected true or false"),
])
def test_bad_house_rules_are_refused_at_their_path(rules, path, message):
    assert rule_errors(rules) == [(path, message)]


def test_rule_errors_come_in_chinese_too():
    assert rule_errors({"pattern_fan": {"da_si_xi": 3}}, "zh") == [("rules.pattern_fan.da_si_xi", "未知番型“da_si_xi”")]


def test_a_record_with_bad_house_rules_is_refused_whole():
    assert errors({"rules": {"pattern_fan": {"qing_dui": 99}}, "events": [win(None, w(0))], "exhausted": True}) == [
        ("rules.pattern_fan.qing_dui", "expected an integer from 0 to 10")]


ZHONG_ZHANG = "zhong_zhang needs no 1 and no 9 anywhere in the hand, melds included"


@pytest.mark.parametrize("doc, path, message", [
    # 中张 with a 9 in the tiles, in a meld, or on 幺九 by quick entry.
    ({"rules": {"zhong_zhang_fan": 1}, "events": [win(2, t(0, "23445677m345789p", flags=["zhong_zhang"]))]},
     "events[0].winners[0].flags[0]", ZHONG_ZHANG),
    ({"events": [win(2, t(0, "23445677m345p", ["999p"], ["zhong_zhang"]))]}, "events[0].winners[0].flags[0]", ZHONG_ZHANG),
    ({"events": [win(2, w(0, "yao_jiu", flags=["zhong_zhang"]))]}, "events[0].winners[0].flags[0]", ZHONG_ZHANG),
    ({"events": [win(2, w(0, "qing_yao_jiu", flags=["bao_jiao", "zhong_zhang"]))]}, "events[0].winners[0].flags[1]",
     ZHONG_ZHANG),
    ({"events": [kong(0, "concealed", tile="9s"), win(2, w(0, "ping_hu", 1, ["zhong_zhang"]))]},
     "events[1].winners[0].flags[0]", ZHONG_ZHANG),
    # 海底炮 not on the hand's last event, or on a self-draw.
    ({"rules": {"hai_di_pao_fan": 1}, "events": [win(3, w(1, flags=["hai_di_pao"])), win(None, w(0))]},
     "events[0].winners[0].flags[0]", "hai_di_pao is a win on a discard as the hand's last event"),
    ({"events": [win(None, w(0, flags=["hai_di_pao"]))]}, "events[0].winners[0].flags[0]",
     "hai_di_pao is a win on a discard as the hand's last event"),
    # 门清 with a pong, or after the winner's own added or direct kong.
    ({"events": [win(2, t(0, "23445677m345p", ["666p"], ["men_qing"]))]}, "events[0].winners[0].flags[0]",
     "men_qing needs no pong and no direct or added kong (concealed kongs allowed)"),
    ({"events": [kong(0, "added"), win(None, w(0, "ping_hu", 1, ["men_qing"]))]}, "events[1].winners[0].flags[0]",
     "men_qing needs no pong and no direct or added kong (concealed kongs allowed)"),
    # 夹心五 on a hand with no 4-5-6 run.
    ({"rules": {"jia_xin_wu_fan": 1}, "events": [win(2, t(0, "11123777888999m", flags=["jia_xin_wu"]))]},
     "events[0].winners[0].flags[0]", "jia_xin_wu needs a reading of the hand with a 4-5-6 run"),
    # 金钩钓 outside the 对对胡 family.
    ({"rules": {"jin_gou_diao_fan": 1}, "events": [win(2, w(0, "qing_yi_se", flags=["jin_gou_diao"]))]},
     "events[0].winners[0].flags[0]",
     "jin_gou_diao needs a pattern of the all-pongs family (对对胡: dui_dui_hu, qing_dui, jiang_dui): four pongs or kongs"),
    # A pattern this table does not have.
    ({"rules": {"yao_jiu_jiang_dui": False}, "events": [win(2, w(0, "jiang_dui"))]}, "events[0].winners[0].pattern",
     "pattern 'jiang_dui' does not exist at this table (幺九将对 and 将七对 are rule options)"),
    ({"rules": {"yao_jiu_jiang_dui": False}, "events": [win(2, w(0, "qing_yao_jiu"))]}, "events[0].winners[0].pattern",
     "pattern 'qing_yao_jiu' does not exist at this table (幺九将对 and 将七对 are rule options)"),
    ({"events": [win(2, w(0, "jiang_qi_dui", 1))]}, "events[0].winners[0].pattern",
     "pattern 'jiang_qi_dui' does not exist at this table (幺九将对 and 将七对 are rule options)"),
    ({"rules": {"jiang_qi_dui_fan": 4}, "events": [win(2, w(0, "jiang_qi_dui", 0))]}, "events[0].winners[0].roots",
     "roots for jiang_qi_dui must be 1 to 3"),
    # A 0-fan win on a discard, or a robbed kong, under min_fan_on_discard 1.
    ({"rules": {"min_fan_on_discard": 1}, "events": [win(2, w(0))]}, "events[0].winners[0]",
     "a 0-fan hand may only win by self-draw at this table: a win on a discard needs at least 1 fan "
     "(modifiers included, before the cap)"),
    ({"rules": {"min_fan_on_discard": 2}, "events": [kong(1, "added"), win(1, t(0, "23445677m345789p", flags=["qiang_gang_hu"]))]},
     "events[1].winners[0]",
     "a 0-fan hand may only win by self-draw at this table: a win on a discard needs at least 2 fan "
     "(modifiers included, before the cap)"),
    # 杠上炮 and 海底炮 belong to the discard: on every winner or none.
    ({"events": [kong(0, "concealed"), win(0, w(1, flags=["gang_shang_pao"]), w(2))]}, "events[1].winners",
     "gang_shang_pao belongs to the discard: every winner on it has the flag, or none"),
    ({"events": [win(0, w(1), w(2, flags=["hai_di_pao"]))], "exhausted": True}, "events[0].winners",
     "hai_di_pao belongs to the discard: every winner on it has the flag, or none"),
])
def test_a_flag_or_pattern_whose_condition_fails_is_refused(doc, path, message):
    assert (path, message) in errors(doc)


def test_nothing_else_is_said_about_a_good_record_beside_the_bad_flag():
    doc = {"rules": {"zhong_zhang_fan": 1}, "events": [win(2, t(0, "23445677m345789p", flags=["zhong_zhang"]))]}
    assert errors(doc) == [("events[0].winners[0].flags[0]", ZHONG_ZHANG)]
    assert errors(doc, "zh") == [("events[0].winners[0].flags[0]", "中张：整手牌（包括副露）不能有 1 或 9")]


def test_min_fan_is_said_in_chinese():
    doc = {"rules": {"min_fan_on_discard": 1}, "events": [win(2, w(0))]}
    assert errors(doc, "zh") == [("events[0].winners[0]",
                                  "本桌 0 番的牌只能自摸：点炮胡至少要 1 番（算上加番、封顶之前）")]


def test_the_same_hand_by_self_draw_is_fine():
    assert score_hand({"rules": {"min_fan_on_discard": 1}, "events": [win(None, w(0))], "exhausted": True})


def test_every_problem_of_a_fan_table_is_said():
    assert rule_errors({"pattern_fan": {"bogus": 1, "qing_dui": 11, "jiang_qi_dui": 4, "dui_dui_hu": 2}}) == [
        ("rules.pattern_fan.bogus", "unknown pattern 'bogus'"),
        ("rules.pattern_fan.qing_dui", "expected an integer from 0 to 10"),
        ("rules.pattern_fan.jiang_qi_dui", "the fan of jiang_qi_dui is set by jiang_qi_dui_fan only, not in pattern_fan")]


@pytest.mark.parametrize("pattern, roots, said", [
    ("nope", 9, ("events[0].winners[0].pattern", "unknown pattern 'nope'")),
    ("jiang_qi_dui", -1, ("events[0].winners[0].pattern",
                          "pattern 'jiang_qi_dui' does not exist at this table (幺九将对 and 将七对 are rule options)")),
    ("nope", "2", ("events[0].winners[0].pattern", "unknown pattern 'nope'")),
])
def test_roots_beside_a_pattern_that_cannot_be_read_are_still_checked(pattern, roots, said):
    """Every problem at once (HAND_FORMAT.md, Errors): an unreadable pattern hid bad roots beside it (a contract check)."""
    found = errors({"events": [win(2, {"player": 0, "pattern": pattern, "roots": roots})]})
    assert found == [said, ("events[0].winners[0].roots", "roots must be an integer 0 to 4")]


def test_roots_within_what_any_pattern_allows_say_nothing_more_beside_an_unknown_pattern():
    assert errors({"events": [win(2, {"player": 0, "pattern": "nope", "roots": 4})]}) == [
        ("events[0].winners[0].pattern", "unknown pattern 'nope'")]
