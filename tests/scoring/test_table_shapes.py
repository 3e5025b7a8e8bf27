"""RULES.md §9 at 血战 and 标准 tables of every size and suit set: golden hands worked out by hand, and the refusals.

Every golden hand says in its comment who pays whom and why (base 1, kongs 2/1/2 unless the preset
says otherwise). The 血流成河 hands are in tests/scoring/test_xue_liu.py.
"""
import pytest

from scoring import PRESETS, ScoringError, analyse_ready, parse_rules, score_hand

from tests.hand_helpers import errors, kong, w, win


def hand(rules, events, **extra):
    """Score a finished hand at a table with these rules (a preset name or overrides)."""
    rules = dict(PRESETS[rules]) if isinstance(rules, str) else rules
    return score_hand({"rules": rules, "events": events, **extra}).as_dict()


def flows(result):
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]]


THREE = {"players": 3}
TWO = {"players": 2}


# ---- 血战到底 at three players -----------------------------------------------------------------

def test_three_players_blood_battle_ends_with_the_second_winner():
    # P1's concealed kong: the other two active seats (P0, P2) pay 2 each.
    # P0 self-draws 平胡 (0 fan): P1 and P2 pay 1 each.
    # P2 discards, P1 wins 清一色 + 1 root (the kong) = 3 fan: P2 pays 8.
    # Two of three have won: the hand is over without exhausted; P0 won first and deals next.
    result = hand(THREE, [kong(1, "concealed"), win(None, w(0)), win(2, w(1, "qing_yi_se", 1))])
    assert flows(result) == [(0, 1, "2", "kong"), (2, 1, "2", "kong"), (1, 0, "1", "self_draw"),
                             (2, 0, "1", "self_draw"), (2, 1, "8", "discard")]
    assert result["net"] == ["0", "11", "-11"] and result["next_dealer"] == 0


def test_three_players_blood_battle_cha_jiao_and_kong_refund():
    # P2's added kong: P0 and P1 pay 1 each. P1 discards, P0 wins 对对胡 (1 fan): P1 pays 2.
    # Wall exhausted: P1 (never won) is ready at 2 fan, P2 is not: P2 pays P1 4 and gives back its
    # kong income (1 to P0, 1 to P1).
    result = hand(THREE, [kong(2, "added"), win(1, w(0, "dui_dui_hu"))], exhausted=True, ready={"1": {"fan": 2}})
    assert flows(result) == [(0, 2, "1", "kong"), (1, 2, "1", "kong"), (1, 0, "2", "discard"),
                             (2, 1, "4", "cha_jiao"), (2, 0, "1", "kong_refund"), (2, 1, "1", "kong_refund")]
    assert result["net"] == ["2", "2", "-4"] and result["next_dealer"] == 0


def test_three_players_one_discard_won_by_both_others_ends_the_hand_and_the_discarder_deals():
    # P0 discards; P1 (平胡, 1) and P2 (七对, 2 fan: 4) both win: 2 of 3 have won, the hand is over.
    # The first win event was a multi-win: its discarder P0 deals next.
    result = hand(THREE, [win(0, w(1), w(2, "qi_dui"))])
    assert flows(result) == [(0, 1, "1", "discard"), (0, 2, "4", "discard")]
    assert result["net"] == ["-5", "1", "4"] and result["next_dealer"] == 0
    assert errors({"rules": THREE, "events": [win(0, w(1), w(2)), kong(0, "concealed")]}) == [
        ("events[1]", "2 of 3 players have won, so the hand is over: no event may follow")]


def test_three_players_self_draw_is_paid_by_the_one_active_opponent():
    # P0 wins on P1's discard (平胡: 1). Then only P1 and P2 play: P2's concealed kong is paid by P1
    # alone (2); P2 self-draws 对对胡 + 1 root = 2 fan: P1 pays 4. Two winners: over.
    result = hand(THREE, [win(1, w(0)), kong(2, "concealed"), win(None, w(2, "dui_dui_hu", 1))])
    assert flows(result) == [(1, 0, "1", "discard"), (1, 2, "2", "kong"), (1, 2, "4", "self_draw")]
    assert result["net"] == ["1", "-7", "6"]


# ---- 血战到底 at two players -------------------------------------------------------------------

def test_two_players_the_first_winner_ends_the_hand():
    # P0's direct kong on P1's discard: P1 pays 2. P0 self-draws on the replacement tile: 对对胡 1
    # + 1 root (the kong) + 杠上花 1 = 3 fan: P1 pays 8. One of two has won: over.
    result = hand(TWO, [kong(0, "direct", 1), win(None, w(0, "dui_dui_hu", 1, ["gang_shang_hua"]))])
    assert flows(result) == [(1, 0, "2", "kong"), (1, 0, "8", "self_draw")]
    assert result["net"] == ["10", "-10"] and result["next_dealer"] == 0


def test_two_players_two_suits_exhausted_with_cha_jiao_and_refund():
    # 两人两房. P1's concealed kong of 8s: P0 pays 2. The wall runs out with no win: P0 is ready on
    # 123456789p1122s (waits 1s and 2s, 平胡: 0 fan), P1 is not: P1 pays P0 1 and gives back the 2.
    # Nobody won: the dealer (P1) stays.
    result = hand("liang_ren_liang_fang", [kong(1, "concealed", tile="8s")], dealer=1, exhausted=True,
                  ready={"0": {"tiles": "123456789p1122s"}})
    assert result["ready"] == {"0": {"waits": ["1s", "2s"], "fan": 0}}
    assert flows(result) == [(0, 1, "2", "kong"), (1, 0, "1", "cha_jiao"), (1, 0, "2", "kong_refund")]
    assert result["net"] == ["1", "-1"] and result["next_dealer"] == 1


def test_two_players_next_seat_wraps_around_the_table():
    # Nobody wins and nobody is ready: no payment; with dealer_when_no_winner "next" seat 1 passes
    # the deal to (1 + 1) mod 2 = 0, and at three players seat 2 to seat 0.
    assert hand({**TWO, "dealer_when_no_winner": "next"}, [], dealer=1, exhausted=True)["next_dealer"] == 0
    assert hand({**THREE, "dealer_when_no_winner": "next"}, [], dealer=2, exhausted=True)["next_dealer"] == 0
    assert hand({**THREE, "dealer_when_no_winner": "next"}, [], dealer=1, exhausted=True)["next_dealer"] == 2


def test_two_players_call_transfer_and_robbed_kong():
    # P0's concealed kong: P1 pays 2. P0's next discard is won by P1 with 杠上炮: 清一色 2 + 1 = 3 fan, 8;
    # with 呼叫转移 the kong's 2 passes to P1. One of two has won: over; P1 deals next.
    result = hand({**TWO, "call_transfer": True}, [kong(0, "concealed"), win(0, w(1, "qing_yi_se", flags=["gang_shang_pao"]))])
    assert flows(result) == [(1, 0, "2", "kong"), (0, 1, "8", "discard"), (0, 1, "2", "call_transfer")]
    assert result["net"] == ["-8", "8"] and result["next_dealer"] == 1
    # P1's added kong robbed by P0 (抢杠胡, 对对胡: 2): the kong pays nothing; P1 pays as the discarder.
    result = hand(TWO, [kong(1, "added"), win(1, w(0, "dui_dui_hu", flags=["qiang_gang_hu"]))])
    assert flows(result) == [(1, 0, "2", "discard")]


# ---- 三人两房 (3 players, 筒 and 条) -------------------------------------------------------------

def test_three_players_two_suits_with_tiles_and_cha_jiao():
    # 三人两房. P2's concealed kong of 8s: P0 and P1 pay 2 each. P2 discards, P0 wins on
    # 123456789p11122s (平胡, 0 fan): P2 pays 1. Wall exhausted: P1 is ready on 234567p34567s99s
    # (waits 2s 5s 8s, all 平胡: 查小 charges 0 fan), P2 is not: P2 pays P1 1 and gives back its kong
    # income (2 to P0, 2 to P1).
    result = hand("san_ren_liang_fang", [kong(2, "concealed", tile="8s"),
                                         win(2, {"player": 0, "tiles": "123456789p11122s"})],
                  exhausted=True, ready={"1": {"tiles": "234567p34567s99s"}})
    assert result["ready"] == {"1": {"waits": ["2s", "5s", "8s"], "fan": 0}}
    assert flows(result) == [(0, 2, "2", "kong"), (1, 2, "2", "kong"), (2, 0, "1", "discard"),
                             (2, 1, "1", "cha_jiao"), (2, 0, "2", "kong_refund"), (2, 1, "2", "kong_refund")]
    assert result["net"] == ["1", "1", "-2"] and result["next_dealer"] == 0


def test_three_players_two_suits_cha_da_charges_the_largest_wait():
    # 三人两房 with 查大: P0 never won and is ready on 1112345678999p (九莲: every 筒 completes it, 清一色
    # at least; the largest wait is 9p or 1p, 清一色 + 1 root = 3 fan), P1 and P2 are not ready: each
    # pays P0 8. No 万 wait is offered at this table.
    rules = {**PRESETS["san_ren_liang_fang"], "cha_jiao": "max"}
    result = hand(rules, [], exhausted=True, ready={"0": {"tiles": "1112345678999p"}})
    assert result["ready"]["0"]["waits"] == [f"{r}p" for r in range(1, 10)]
    assert result["ready"]["0"]["fan"] == 3
    assert result["net"] == ["16", "-8", "-8"]


def test_four_players_two_suits_scores_as_the_default_table():
    # 四人两房: a hand without 万 scores exactly as at the default table.
    events = [kong(3, "added", tile="9s"), win(3, {"player": 1, "tiles": "11122233355p", "melds": ["7777s"]})]
    doc = {"events": events, "exhausted": True}
    assert score_hand({**doc, "rules": PRESETS["si_ren_liang_fang"]}).as_dict() == score_hand(doc).as_dict()


# ---- 标准 (first_win) ---------------------------------------------------------------------------

def test_first_win_four_players_a_self_draw_ends_the_hand():
    # 标准下雨. P2's concealed kong: P0, P1, P3 pay 2 each. P3 self-draws 平胡: the three others pay 1
    # each (P2, who konged, too). The first win ends the hand: no exhausted, P3 deals next.
    result = hand("biao_zhun_xia_yu", [kong(2, "concealed"), win(None, w(3))])
    assert flows(result) == [(0, 2, "2", "kong"), (1, 2, "2", "kong"), (3, 2, "2", "kong"),
                             (0, 3, "1", "self_draw"), (1, 3, "1", "self_draw"), (2, 3, "1", "self_draw")]
    assert result["net"] == ["-3", "-3", "5", "1"] and result["next_dealer"] == 3


def test_first_win_four_players_one_discard_several_winners():
    # 标准下雨. P0 discards; P1 (清一色, 2 fan: 4) and P3 (平胡: 1) win on it: one win event, the hand
    # is over; a multi-win, so P0 deals next.
    result = hand("biao_zhun_xia_yu", [win(0, w(1, "qing_yi_se"), w(3))])
    assert flows(result) == [(0, 1, "4", "discard"), (0, 3, "1", "discard")]
    assert result["net"] == ["-5", "4", "0", "1"] and result["next_dealer"] == 0


def test_first_win_four_players_exhausted_everyone_is_checked():
    # 标准下雨, no win: all four take part in 查叫. P0 ready at 1 fan, P1 at 0; P2 and P3 are not
    # ready and each pays P0 2 and P1 1. The dealer stays.
    result = hand("biao_zhun_xia_yu", [], dealer=2, exhausted=True, ready={"0": {"fan": 1}, "1": {"fan": 0}})
    assert flows(result) == [(2, 0, "2", "cha_jiao"), (2, 1, "1", "cha_jiao"), (3, 0, "2", "cha_jiao"),
                             (3, 1, "1", "cha_jiao")]
    assert result["net"] == ["4", "2", "-3", "-3"] and result["next_dealer"] == 2


def test_first_win_three_players_plain_kongs_pay_nothing():
    # 标准打法 at three: P1's concealed kong pays nothing (multiple 0). P1 self-draws on the replacement:
    # 平胡 + 1 root + 杠上花 = 2 fan: P0 and P2 pay 4 each.
    result = hand({**PRESETS["biao_zhun"], **THREE}, [kong(1, "concealed"), win(None, w(1, "ping_hu", 1, ["gang_shang_hua"]))])
    assert flows(result) == [(0, 1, "4", "self_draw"), (2, 1, "4", "self_draw")]
    assert result["net"] == ["-4", "8", "-4"] and result["next_dealer"] == 1


def test_first_win_three_players_a_discard_and_a_multi_win():
    rules = {"mode": "first_win", **THREE}
    # P2 discards, P0 wins 对对胡 (1 fan): P2 pays 2; P0 deals next.
    result = hand(rules, [win(2, w(0, "dui_dui_hu"))])
    assert result["net"] == ["2", "0", "-2"] and result["next_dealer"] == 0
    # P1 discards, P0 and P2 both win 平胡: 1 each; P1 deals next.
    result = hand(rules, [win(1, w(0), w(2))])
    assert result["net"] == ["1", "-2", "1"] and result["next_dealer"] == 1


def test_first_win_call_transfer_and_robbed_kong_still_work():
    # 标准下雨 with 呼叫转移: P1's concealed kong takes 2 from each of three; P1's next discard is won
    # by P2 with 杠上炮 (平胡 + 1 = 1 fan: 2), and the kong's 6 passes to P2: P1 is left with 6 - 2 - 6.
    rules = {"mode": "first_win", "call_transfer": True}
    result = hand(rules, [kong(1, "concealed"), win(1, w(2, flags=["gang_shang_pao"]))])
    assert flows(result)[-2:] == [(1, 2, "2", "discard"), (1, 2, "6", "call_transfer")]
    assert result["net"] == ["-2", "-2", "6", "-2"]
    # P3's added kong is robbed by P0 (抢杠胡, 平胡): it pays nothing; P3 pays 1 as the discarder.
    result = hand({"mode": "first_win"}, [kong(3, "added"), win(3, w(0, flags=["qiang_gang_hu"]))])
    assert flows(result) == [(3, 0, "1", "discard")]


def test_first_win_three_players_exhausted_with_cha_jiao_and_refund():
    # 标准 at three, no win. P0's concealed kong: P1 and P2 pay 2 each. Wall exhausted: everyone is checked;
    # P2 is ready at 2 fan, P0 and P1 are not: each pays P2 4, and P0 gives back its kong income
    # (2 to P1, 2 to P2). Nobody won: the dealer (P1) stays.
    result = hand({"mode": "first_win", **THREE}, [kong(0, "concealed")], dealer=1, exhausted=True,
                  ready={"2": {"fan": 2}})
    assert flows(result) == [(1, 0, "2", "kong"), (2, 0, "2", "kong"), (0, 2, "4", "cha_jiao"), (1, 2, "4", "cha_jiao"),
                             (0, 1, "2", "kong_refund"), (0, 2, "2", "kong_refund")]
    assert result["net"] == ["-4", "-4", "8"] and result["next_dealer"] == 1


# ---- presets and the rule options ------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ("biao_zhun", {"mode": "first_win", "kong_direct": 0, "kong_added": 0, "kong_concealed": 0}),
    ("biao_zhun_xia_yu", {"mode": "first_win"}),
    ("biao_zhun_xue_zhan", {"mode": "xue_zhan", "kong_direct": 0, "kong_added": 0, "kong_concealed": 0}),
    ("xue_zhan_xia_yu", {}),
    ("xue_liu", {"mode": "xue_liu"}),
    ("san_ren_liang_fang", {"players": 3, "suits": "ps"}),
    ("san_ren_san_fang", {"players": 3, "suits": "mps"}),
    ("liang_ren_liang_fang", {"players": 2, "suits": "ps"}),
    ("si_ren_liang_fang", {"players": 4, "suits": "ps"}),
])
def test_the_presets_of_rules_section_9(name, expected):
    rules = parse_rules(PRESETS[name]).as_dict()
    defaults = parse_rules({}).as_dict()
    assert {k: v for k, v in rules.items() if v != defaults[k] or k in expected} == expected


def test_the_default_table_is_blood_battle_four_players_three_suits():
    assert {k: parse_rules({}).as_dict()[k] for k in ("mode", "players", "suits")} == {
        "mode": "xue_zhan", "players": 4, "suits": "mps"}


@pytest.mark.parametrize("rules, path, message", [
    ({"mode": "xue_dao"}, "rules.mode", "expected one of: xue_zhan, xue_liu, first_win"),
    ({"players": 5}, "rules.players", "expected an integer from 2 to 4"),
    ({"players": 1}, "rules.players", "expected an integer from 2 to 4"),
    ({"suits": "mp"}, "rules.suits", "expected one of: mps, ps"),
    ({"suits": "ps", "hua_zhu": True}, "rules.hua_zhu",
     'a two-suit table (dots and bamboo only, 筒条) has no three-suit hand (花猪): hua_zhu must be off when suits is "ps"'),
])
def test_bad_table_shapes_are_refused_in_the_rules(rules, path, message):
    assert errors({"rules": rules, "events": [], "exhausted": True}) == [(path, message)]


def test_hua_zhu_at_a_two_suit_table_is_reported_beside_another_bad_option():
    """Every problem at once (HAND_FORMAT.md): the conflict is not hidden behind a bad value elsewhere."""
    assert [p for p, _ in errors({"rules": {"suits": "ps", "hua_zhu": True, "men_qing_fan": 9}, "events": [],
                                  "exhausted": True})] == ["rules.men_qing_fan", "rules.hua_zhu"]


# ---- bad input of §9 ---------------------------------------------------------------------------

def test_a_seat_outside_the_table_is_refused_with_its_path():
    doc = {"rules": THREE, "dealer": 3, "events": [win(3, w(0)), kong(3, "concealed")], "exhausted": True,
           "ready": {"3": {"fan": 1}}}
    assert errors(doc) == [
        ("dealer", "this table has 3 players: a seat must be an integer 0-2"),
        ("events[0].from", "this table has 3 players: a seat must be an integer 0-2"),
        ("events[1].player", "this table has 3 players: a seat must be an integer 0-2"),
        ("ready.3", 'ready keys must be seats "0" to "2"')]
    assert errors({"rules": TWO, "events": [win(None, w(2))]}, lang="zh") == [
        ("events[0].winners[0].player", "本桌只有 2 人：座位必须是 0–1 的整数")]


def test_a_seat_outside_the_table_is_refused_even_when_another_rule_is_wrong():
    assert errors({"rules": {**THREE, "max_fan": "big"}, "events": [win(None, w(3))]}) == [
        ("rules.max_fan", "expected an integer from 1 to 20"),
        ("events[0].winners[0].player", "this table has 3 players: a seat must be an integer 0-2")]


def test_too_many_winners_for_the_table():
    assert errors({"rules": THREE, "events": [win(0, w(1), w(2), w(0))]}) == [
        ("events[0].winners", "at most 2 players can win on one tile at a table of 3"),
        ("events[0].winners[2].player", "the discarder cannot be the receiver")]
    assert errors({"rules": TWO, "events": [win(0, w(1), w(1))]}, lang="zh") == [
        ("events[0].winners", "本桌 2 人：一张牌只能一家胡"), ("events[0].winners[1].player", "1号位在同一张牌上出现两次")]
    assert errors({"rules": TWO, "events": [win(0, w(1), w(1))]})[0] == \
        ("events[0].winners", "only one player can win on one tile at a table of 2")  # not "at most 1 players"
    # At three players the two seats other than the discarder may both win.
    assert score_hand({"rules": THREE, "events": [win(0, w(1), w(2))]}).as_dict()["net"] == ["-2", "1", "1"]


def test_wan_tiles_at_a_two_suit_table_are_refused_wherever_they_are():
    doc = {"rules": {"suits": "ps"}, "events": [
        kong(1, "concealed", tile="5m"),
        win(2, {"player": 0, "tiles": "123m456789p11122s"}),
        win(None, {"player": 3, "tiles": "11122233355p", "melds": ["7777m"]})],
        "exhausted": True, "ready": {"1": {"tiles": "234567p3456s999m"}}}
    assert errors(doc) == [
        ("events[0].tile", "this table plays dots and bamboo only (筒条): no character tile (5m, 万) may appear"),
        ("events[1].winners[0].tiles", "this table plays dots and bamboo only (筒条): no character tile (1m, 万) may appear"),
        ("events[1].winners[0].tiles", "hand holds three suits (m, p, s): a winning hand must be missing one suit"),
        ("events[2].winners[0].melds[0]", "this table plays dots and bamboo only (筒条): no character tile (7m, 万) may appear"),
        ("ready.1.tiles", "this table plays dots and bamboo only (筒条): no character tile (9m, 万) may appear"),
        ("ready.1.tiles", "hand holds three suits (m, p, s): a hand with three suits is not ready")]
    zh = errors({"rules": {"suits": "ps"}, "events": [win(None, {"player": 0, "tiles": "11122233355m999p"})]}, lang="zh")
    assert zh == [("events[0].winners[0].tiles", "本桌只打筒和条（两房）：不能有万（1万）")]


def test_hua_zhu_at_a_two_suit_table_is_refused():
    doc = {"rules": PRESETS["san_ren_liang_fang"], "events": [], "exhausted": True, "hua_zhu": [1]}
    assert errors(doc) == [("hua_zhu[0]", "this table plays dots and bamboo only (筒条): every hand is missing a suit, so nobody can be a three-suit hand (花猪)")]


def test_anything_after_the_first_win_in_first_win_is_refused():
    rules = {"mode": "first_win"}
    assert errors({"rules": rules, "events": [win(None, w(0)), win(1, w(2))]}) == [
        ("events[1]", "at this table the first win ends the hand (first_win): no event may follow")]
    assert errors({"rules": rules, "events": [win(0, w(1)), kong(2, "concealed")]}, lang="zh") == [
        ("events[1]", "本桌第一次胡牌就结束一局（标准打法）：之后不能再有事件")]
    assert errors({"rules": rules, "events": [win(0, w(1))], "exhausted": True}) == [
        ("exhausted", "at this table the first win ends the hand (first_win), so after a win the wall cannot run out with a ready check (查叫)")]


def test_a_first_win_hand_with_no_win_must_say_the_wall_ran_out():
    assert errors({"rules": {"mode": "first_win"}, "events": [kong(0, "concealed")]}, require_end=True) == [
        ("exhausted", "the hand is not over: players who have won so far: 0; record the other wins, or set exhausted: true if the wall ran out")]


def test_three_player_blood_battle_needs_exhausted_before_the_second_win():
    assert errors({"rules": THREE, "events": [win(None, w(0))]}, require_end=True) == [
        ("exhausted", "the hand is not over: players who have won so far: 1; record the other wins, or set exhausted: true if the wall ran out")]
    assert errors({"rules": THREE, "events": [win(None, w(0)), win(None, w(1))], "exhausted": True}) == [
        ("exhausted", "2 of 3 players have won, so the wall cannot run out with a ready check (查叫)")]


def test_every_new_message_has_chinese_and_english():
    from scoring.messages import MESSAGES
    for code in ("seat_outside_table", "suit_not_at_table", "hua_zhu_two_suits", "hua_zhu_at_two_suits",
                 "too_many_winners_table", "event_after_last_win", "event_after_first_win", "exhausted_after_last_win",
                 "exhausted_after_first_win", "xue_liu_needs_exhausted", "too_many_events_xue_liu",
                 "too_many_wins_xue_liu", "past_winner_not_ready", "hua_zhu_past_winner", "ready_table_too_many"):
        zh, en = MESSAGES[code]
        assert zh and en and zh != en


def test_ready_hands_at_a_two_suit_table_never_wait_on_wan():
    assert analyse_ready("1112345678999p", table_suits="ps").waits == analyse_ready("1112345678999p").waits
    assert [w.tile for w in analyse_ready("1112345678999p", table_suits="ps").waits] == [f"{r}p" for r in range(1, 10)]
    with pytest.raises(ScoringError):
        score_hand({"rules": {"suits": "ps"}, "events": [], "exhausted": True, "ready": {"0": {"tiles": "1112345678999m"}}})
