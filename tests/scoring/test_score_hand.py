"""Scoring one hand: the worked example, modifiers, kongs, 一炮多响, order of events, 查叫 and every option."""
import json

import pytest

from scoring import ScoringError, hand_choices, score_hand

from tests.hand_helpers import WORKED_EXAMPLE, WORKED_RESULT, errors, kong, payments, score, w, win

def test_the_worked_example_of_hand_format_payment_by_payment():
    result = score_hand(WORKED_EXAMPLE).as_dict()
    for got, expected in zip(result["payments"], WORKED_RESULT["payments"]):
        assert got == expected
    assert result == WORKED_RESULT
    assert json.loads(json.dumps(result)) == WORKED_RESULT


def test_a_self_draw_is_paid_by_every_active_opponent():
    assert payments([win(None, w(0, "qing_yi_se", 1))]) == [(1, 0, "8", "self_draw"), (2, 0, "8", "self_draw"),
                                                            (3, 0, "8", "self_draw")]


def test_a_discard_is_paid_by_the_discarder_alone():
    assert payments([win(2, w(0, "dui_dui_hu"))]) == [(2, 0, "2", "discard")]


def test_one_discard_several_winners_each_paid_by_their_own_fan():
    result = score([win(0, w(1, "qing_yi_se"), w(2), w(3, "dui_dui_hu"))])
    assert [(p["to"], p["amount"]) for p in result["payments"]] == [(1, "4"), (2, "1"), (3, "2")]
    assert result["next_dealer"] == 0  # after 一炮多响 the discarder deals


def test_a_player_who_won_pays_no_later_self_draw_or_kong():
    result = payments([win(1, w(0)), kong(2, "concealed"), win(None, w(3))])
    assert (0, 2, "2", "kong") not in result and (1, 2, "2", "kong") in result
    assert [p for p in result if p[3] == "self_draw"] == [(1, 3, "1", "self_draw"), (2, 3, "1", "self_draw")]


@pytest.mark.parametrize("kind, expected", [
    ("direct", [(3, 0, "2", "kong")]),
    ("added", [(1, 0, "1", "kong"), (2, 0, "1", "kong"), (3, 0, "1", "kong")]),
    ("concealed", [(1, 0, "2", "kong"), (2, 0, "2", "kong"), (3, 0, "2", "kong")]),
])
def test_each_kong_kind_pays_by_the_table(kind, expected):
    assert payments([kong(0, kind, 3 if kind == "direct" else None)]) == expected


@pytest.mark.parametrize("flag, extra_fan, events_before, discarder", [
    ("gang_shang_hua", 1, [kong(0, "concealed")], None),
    ("gang_shang_pao", 1, [kong(2, "concealed")], 2),
    ("qiang_gang_hu", 0, [], 2),
    ("bao_jiao", 2, [], 2),
    ("tian_hu", 5, [], None),
    ("di_hu", 5, [], 2),
])
def test_each_modifier_adds_its_fan(flag, extra_fan, events_before, discarder):
    player = 0 if flag in ("gang_shang_hua", "tian_hu") else 1
    roots = 1 if flag == "gang_shang_hua" else 0  # the winner's own kong is a root
    result = score(events_before + [win(discarder, w(player, "dui_dui_hu", roots, [flag]))], dealer=0)
    assert result["wins"][0]["fan"] == 1 + roots + extra_fan


@pytest.mark.parametrize("rules, flag, fan", [
    ({"hai_di_fan": 1}, "hai_di", 1), ({"jin_gou_diao_fan": 2}, "jin_gou_diao", 2),
    ({"gang_shang_hua_fan": 2}, "gang_shang_hua", 2), ({"qiang_gang_hu_fan": 1}, "qiang_gang_hu", 1),
])
def test_optional_modifier_fans_come_from_the_rules(rules, flag, fan):
    before = [kong(1, "added")] if flag == "gang_shang_hua" else []
    discarder = 2 if flag == "qiang_gang_hu" else None
    roots = len(before)
    # 金钩钓 is of the 对对胡 family (RULES.md §10): 对对胡 is 1 fan.
    pattern, pattern_fan = ("dui_dui_hu", 1) if flag == "jin_gou_diao" else ("ping_hu", 0)
    result = score(before + [win(discarder, w(1, pattern, roots, [flag]))], rules=rules)
    assert result["wins"][0]["fan"] == pattern_fan + roots + fan


def test_jin_gou_diao_with_tiles_needs_a_lone_pair():
    doc = {"rules": {"jin_gou_diao_fan": 1}, "exhausted": True,
           "events": [win(None, {"player": 0, "tiles": "55m", "flags": ["jin_gou_diao"],
                                 "melds": ["111m", "222m", "333m", "444p"]})]}
    assert score_hand(doc).as_dict()["wins"][0]["fan"] == 1 + 1
    doc["events"][0]["winners"][0].update(tiles="55m123p", melds=["111m", "222m", "333m"])
    assert errors(doc) == [("events[0].winners[0].flags[0]", "jin_gou_diao needs every tile but the pair in melds")]


def test_kong_multiples_come_from_the_rules_and_finished_players_may_pay_kongs():
    rules = {"kong_added": 2, "finished_players_pay_kongs": True}
    assert payments([win(1, w(0)), kong(2, "added")], rules=rules)[1:] == [
        (0, 2, "2", "kong"), (1, 2, "2", "kong"), (3, 2, "2", "kong")]


def test_a_self_draw_bonus_adds_a_base_or_a_fan():
    assert payments([win(None, w(0))], rules={"self_draw_bonus": "base"})[0] == (1, 0, "2", "self_draw")
    result = score([win(None, w(0))], rules={"self_draw_bonus": "fan"})
    assert result["wins"][0]["fan"] == 1 and result["payments"][0]["amount"] == "2"


def test_the_fan_cap_clips_the_total():
    result = score([kong(0, "concealed"), win(None, w(0, "qing_yao_jiu", 2, ["gang_shang_hua"]))],
                   rules={"max_fan": 3})
    assert result["wins"][0]["fan"] == 3 and result["wins"][0]["multiplier"] == 8


def test_a_decimal_base_is_exact():
    result = score([win(1, w(0, "qing_yi_se"))], base="0.5")
    assert result["payments"][0]["amount"] == "2" and result["net"] == ["2", "-2", "0", "0"]
    assert score([win(1, w(0))], base="0.1")["net"][0] == "0.1"


def test_cha_jiao_with_several_ready_and_non_ready_players():
    result = score([], exhausted=True, ready={"0": {"tiles": "1112345678999m"}, "2": {"fan": 1}})
    assert result["ready"] == {"0": {"waits": [f"{r}m" for r in range(1, 10)], "fan": 2}, "2": {"waits": [], "fan": 1}}
    assert [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]] == [
        (1, 0, "4", "cha_jiao"), (1, 2, "2", "cha_jiao"), (3, 0, "4", "cha_jiao"), (3, 2, "2", "cha_jiao")]


def test_cha_jiao_max_charges_the_largest_wait():
    result = score([], exhausted=True, ready={"0": {"tiles": "1112345678999m"}}, rules={"cha_jiao": "max"})
    assert result["ready"]["0"]["fan"] == 3


def test_nobody_pays_when_nobody_is_ready():
    assert score([kong(0, "direct", 1)], exhausted=True, rules={"kong_refund": False})["payments"] == [
        {"event": 0, "from": 1, "to": 0, "amount": "2", "reason": "kong"}]


def test_a_non_ready_konger_refunds_kong_income_at_exhaustion():
    result = payments([kong(0, "concealed")], exhausted=True, ready={"1": {"fan": 0}})
    assert result[-3:] == [(0, 1, "2", "kong_refund"), (0, 2, "2", "kong_refund"), (0, 3, "2", "kong_refund")]
    assert payments([kong(0, "concealed")], exhausted=True, ready={"0": {"fan": 0}})[-1][3] == "cha_jiao"


def test_no_kong_is_refunded_when_the_refund_option_is_off():
    assert all(p[3] != "kong_refund" for p in payments([kong(0, "concealed")], exhausted=True,
                                                      rules={"kong_refund": False}))


def test_call_transfer_passes_the_kong_income_to_the_first_winner_after_the_discarder():
    events = [kong(0, "concealed"), win(0, w(2, "ping_hu", 0, ["gang_shang_pao"]), w(1, "ping_hu", 0, ["gang_shang_pao"]))]
    result = payments(events, rules={"call_transfer": True})
    assert result[-1] == (0, 1, "6", "call_transfer")
    assert all(p[3] != "call_transfer" for p in payments(events))


def test_hua_zhu_pays_every_unfinished_non_pig_instead_of_cha_jiao():
    result = payments([win(3, w(2))], exhausted=True, ready={"0": {"fan": 1}}, hua_zhu=[1],
                      rules={"hua_zhu": True, "max_fan": 3})
    assert result[1:] == [(3, 0, "2", "cha_jiao"), (1, 0, "8", "hua_zhu"), (1, 3, "8", "hua_zhu")]


def test_the_hua_zhu_penalty_defaults_to_5_fan_without_a_cap():
    result = payments([], exhausted=True, hua_zhu=[2], rules={"hua_zhu": True})
    assert result == [(2, 0, "32", "hua_zhu"), (2, 1, "32", "hua_zhu"), (2, 3, "32", "hua_zhu")]


def test_kong_refunds_happen_even_when_nobody_is_ready():
    assert payments([kong(1, "added")], exhausted=True)[-3:] == [
        (1, 0, "1", "kong_refund"), (1, 2, "1", "kong_refund"), (1, 3, "1", "kong_refund")]


def test_with_no_winner_the_dealer_stays_or_passes_as_the_rules_say():
    assert score([], exhausted=True, dealer=2)["next_dealer"] == 2
    assert score([], exhausted=True, dealer=3, rules={"dealer_when_no_winner": "next"})["next_dealer"] == 0


def test_every_rule_option_is_accepted_at_once():
    options = {"kong_direct": 2, "kong_added": 2, "kong_concealed": 2, "finished_players_pay_kongs": True,
               "gang_shang_hua_fan": 2, "qiang_gang_hu_fan": 1, "robbable_kongs": "added_direct",
               "self_draw_bonus": "base", "max_fan": 4, "cha_jiao": "max", "kong_refund": False,
               "call_transfer": True, "hua_zhu": True, "hua_zhu_fan": 3, "hai_di_fan": 1, "jin_gou_diao_fan": 1,
               "dealer_when_no_winner": "next"}
    assert score([win(1, w(0))], rules=options)["net"] == ["1", "-1", "0", "0"]


# ---- invariants of RULES.md §7: each gives its error at its path, and nothing else --------------

@pytest.mark.parametrize("doc, expected", [
    ({"events": [win(1, w(0)), win(2, w(1)), win(3, w(2)), kong(3, "concealed")]},
     [("events[3]", "three players have won, so the hand is over: no event may follow")]),
    ({"events": [win(1, w(0)), win(2, w(0))]},
     [("events[1].winners[0].player", "seat 0 has already won and cannot win again")]),
    ({"events": [win(1, w(0)), kong(0, "concealed")]},
     [("events[1].player", "seat 0 has already won and cannot kong")]),
    ({"events": [win(1, w(0)), win(0, w(2))]}, [("events[1].from", "seat 0 has already won and cannot discard")]),
    ({"events": [win(0, w(0))]}, [("events[0].winners[0].player", "the discarder cannot be the receiver")]),
    ({"events": [kong(1, "direct", 1)]}, [("events[0].from", "the discarder cannot be the receiver")]),
    ({"events": [win(None, w(0), w(1))]}, [("events[0].winners", "a self-draw has exactly one winner")]),
    ({"events": [win(0, w(1), w(2), w(3), w(1))]},
     [("events[0].winners", "at most three players can win on one tile"),
      ("events[0].winners[3].player", "seat 1 is listed twice on the same tile")]),
    ({"events": [win(None, w(0, flags=["gang_shang_hua"]))]},
     [("events[0].winners[0].flags[0]", "gang_shang_hua needs a self-draw right after the winner's own kong")]),
    ({"events": [kong(1, "added"), win(2, w(0, flags=["gang_shang_pao"]))]},
     [("events[1].winners[0].flags[0]", "gang_shang_pao needs a win on a discard right after the discarder's own kong")]),
    ({"events": [win(None, w(1, flags=["tian_hu"]))]},
     [("events[0].winners[0].flags[0]", "tian_hu is the dealer's self-draw as the hand's first event")]),
    ({"events": [win(2, w(0)), win(None, w(1, flags=["di_hu"]))]},
     [("events[1].winners[0].flags[0]", "di_hu is a non-dealer's win before any other win")]),
    ({"events": [], "exhausted": False, "ready": {"0": {"fan": 1}}},
     [("ready", "the wall did not run out (exhausted is false), so nobody can be listed as ready")]),
    ({"events": [win(1, w(0))], "exhausted": True, "ready": {"0": {"fan": 1}}},
     [("ready.0", "seat 0 has already won and is not in the ready check (查叫)")]),
    ({"events": [], "exhausted": True, "ready": {"1": {"tiles": "123m456p789s1122m"}}},
     [("ready.1.tiles", "hand holds three suits (m, p, s): a hand with three suits is not ready")]),
    ({"events": [], "exhausted": True, "ready": {"1": {"tiles": "1357m2468p11m999p"}}},
     [("ready.1.tiles", "hand is not ready: no tile completes it")]),
    ({"events": [win(1, {"player": 0, "tiles": "123m456p789s11m456m"})]},
     [("events[0].winners[0].tiles", "hand holds three suits (m, p, s): a winning hand must be missing one suit")]),
    ({"events": [win(1, {"player": 0, "tiles": "12356789m123457p"})]},
     [("events[0].winners[0].tiles", "hand is not complete: neither four sets and a pair nor seven pairs")]),
    ({"events": [win(1, {"player": 0, "tiles": "1111m"})]},
     [("events[0].winners[0].tiles", "wrong number of tiles: 4 concealed with 0 melds; expected 14 concealed tiles")]),
    ({"events": [win(1, {"player": 0, "tiles": "11123m456p789p11m", "melds": []})]},
     [("events[0].winners[0].tiles", "1m appears 5 times: there are only four of each tile")]),
    ({"events": [win(1, {"player": 0, "tiles": "11122233344455m"}), win(2, {"player": 1, "tiles": "11m234m567m789p999p"})]},
     [("events[1].winners[0].tiles", "1m appears 5 times across this hand's records (3 in seat 0's winning hand, 2 in seat 1's winning hand): there are only four of each tile")]),
    ({"events": [win(3, w(0))], "exhausted": True, "hua_zhu": [0]},
     [("hua_zhu[0]", "seat 0 has already won and cannot be a three-suit hand (花猪)")]),
    ({"events": [win(1, w(0)), win(2, w(1)), win(3, w(2))], "exhausted": True},
     [("exhausted", "three players have won, so the wall cannot run out with a ready check (查叫)")]),
])
def test_each_invariant_gives_its_error_at_its_path(doc, expected):
    assert errors(doc) == expected


def test_a_discard_won_by_several_players_counts_once_on_the_table():
    # 5p: three in seat 0's hand, two in seat 1's; one of them is the shared discard.
    doc = {"events": [win(3, {"player": 0, "tiles": "12345678999m555p"}, {"player": 1, "tiles": "789m123p789p234p55p"})],
           "exhausted": True}
    assert len(score_hand(doc).as_dict()["wins"]) == 2
    doc["events"].append(win(None, {"player": 2, "tiles": "11m234m567m789m55p"}))
    assert errors(doc)[0][0] == "events[1].winners[0].tiles"


def test_the_winners_of_one_discard_share_one_tile_not_one_of_each_kind_they_all_hold():
    # 9m (three + two) and 5p (two + three): whichever was the discard, the other kind is on the table five times.
    doc = {"events": [win(0, {"player": 1, "tiles": "123999m55p234678p"}, {"player": 2, "tiles": "99m123m456m555p789p"})],
           "exhausted": True}
    assert errors(doc) == [("events[0].winners[1].tiles",
                            "5p appears 5 times across this hand's records (2 in seat 1's winning hand, 3 in seat 2's winning hand): there are only four of each tile")]
    # Both hold 1m, 2m, 3m, 9m and 5p; only 5p is on the table five times without sharing: it was the discard.
    doc["events"][0]["winners"][1]["tiles"] = "123m456m789m555p99p"
    assert len(score_hand(doc).as_dict()["wins"]) == 2


def test_the_shared_discard_is_a_concealed_tile_of_every_winner_not_a_meld():
    # Seat 1 holds 999p as a pong, seat 2 holds 99p concealed: five 9p. The discard they share is a man tile
    # that both hold concealed; a pong is not the discard (it was accepted when melds counted as holding it).
    doc = {"events": [win(0, {"player": 1, "tiles": "123m456m789m11p", "melds": ["999p"]},
                          {"player": 2, "tiles": "123m456m789m23499p"})], "exhausted": True}
    assert errors(doc) == [("events[0].winners[1].tiles",
                            "9p appears 5 times across this hand's records (3 in seat 1's winning hand, 2 in seat 2's winning hand): there are only four of each tile")]


def test_a_ready_hand_beside_its_own_kong_holds_no_fifth_tile_of_it():
    # Seat 1's concealed kong of 9p shows all four; three more 9p in its ready hand make seven (RULES.md §7).
    kong_9p = {"type": "kong", "player": 1, "kind": "concealed", "tile": "9p"}
    doc = {"events": [kong_9p], "exhausted": True, "ready": {"1": {"tiles": "123m456m789m999p1p"}}}
    assert errors(doc) == [("ready.1.tiles", "9p appears 7 times across this hand's records (4 in seat 1's kong, 3 in seat 1's ready hand): there are only four of each tile")]
    doc["ready"] = {"1": {"tiles": "123m456m789m1p", "melds": ["9999p"]}}  # the kong as its meld: counted once
    assert score_hand(doc).as_dict()["ready"]["1"] == {"waits": ["1p"], "fan": 1}


def test_a_robbed_kong_s_three_tiles_stay_with_its_player_and_count_once():
    # Seat 1's direct kong of 5m is robbed by seat 3 (added_direct): seat 1 keeps its three 5m concealed, the
    # fourth is seat 3's winning tile. 3 + 1 = 4 (the kong event's three and the hand's three were added: 7).
    robbed = [{"type": "kong", "player": 1, "kind": "direct", "from": 2, "tile": "5m"},
              win(1, {"player": 3, "tiles": "345m111222333p66p", "flags": ["qiang_gang_hu"]})]
    doc = {"rules": {"robbable_kongs": "added_direct"}, "events": robbed + [
        win(None, {"player": 1, "tiles": "555m678m44455566p"})], "exhausted": True}
    assert [w["player"] for w in score_hand(doc).as_dict()["wins"]] == [3, 1]
    doc = {"rules": {"robbable_kongs": "added_direct"}, "events": robbed, "exhausted": True,
           "ready": {"1": {"tiles": "555m678m4445556p"}}}
    assert score_hand(doc).as_dict()["ready"]["1"]["waits"] == ["4p", "5p", "6p", "7p"]
    # A robbed added kong's pong, written among the concealed tiles or as a meld: the same three.
    added = [kong(1, "added", tile="5m"), win(1, {"player": 3, "tiles": "345m111222333p66p", "flags": ["qiang_gang_hu"]})]
    for hand in ({"tiles": "555m678m44455566p"}, {"tiles": "678m44455566p", "melds": ["555m"]}):
        doc = {"events": added + [win(None, {"player": 1, **hand})], "exhausted": True}
        assert len(score_hand(doc).as_dict()["wins"]) == 2
    # Nor can those three stand in as the discard seat 1 shares with seat 2: only 5m is common to both, and seat 1
    # would need a fourth 5m for it (3 + 1 + 1 = five 5m).
    doc = {"rules": {"robbable_kongs": "added_direct"}, "events": robbed + [
        win(0, {"player": 1, "tiles": "555m678m44455566p"}, {"player": 2, "tiles": "345m111222333s99s"})]}
    assert ("events[2].winners[1].tiles", "5m appears 5 times across this hand's records (3 in seat 1's kong, 1 in seat 3's winning hand, 1 in seat 2's winning hand): there are only four of "
            "each tile") in errors(doc)
    # A fourth 5m in seat 1's hand is a fifth on the table.
    doc = {"rules": {"robbable_kongs": "added_direct"}, "events": robbed, "exhausted": True,
           "ready": {"1": {"tiles": "5555m678m445566p"}}}
    assert ("ready.1.tiles", "5m appears 5 times across this hand's records (3 in seat 1's kong, 1 in seat 3's winning hand, 1 in seat 1's ready hand): there are only four of each tile") \
        in errors(doc)


def test_jin_gou_diao_by_quick_entry_takes_the_names_a_four_pong_hand_has_at_the_table():
    # With 清对 at 1 fan, four pongs of one suit are named 清一色 (2): by tiles and by quick entry alike.
    rules = {"jin_gou_diao_fan": 1, "pattern_fan": {"qing_dui": 1}}
    by_tiles = {"player": 1, "tiles": "55m", "melds": ["111m", "222m", "333m", "444m"], "flags": ["jin_gou_diao"]}
    quick = {"player": 1, "pattern": "qing_yi_se", "flags": ["jin_gou_diao"]}
    for winner in (by_tiles, quick):
        doc = {"rules": rules, "events": [win(None, winner)], "exhausted": True}
        assert score_hand(doc).as_dict()["wins"][0] | {"event": 0} == {
            "event": 0, "player": 1, "from": None, "pattern": "qing_yi_se", "roots": 0, "flags": ["jin_gou_diao"],
            "fan": 3, "multiplier": 8}
    # At the usual fans 清一色 is never a four-pong hand's name, so 金钩钓 on it is refused; 七对 never is.
    for pattern, table in (("qing_yi_se", {"jin_gou_diao_fan": 1}), ("qi_dui", rules)):
        doc = {"rules": table, "events": [win(None, {**quick, "pattern": pattern})], "exhausted": True}
        assert errors(doc)[0][0] == "events[0].winners[0].flags[0]"
    # 对对胡 at 0 ties with 平胡, listed first: four pongs of two suits are named 平胡 there.
    doc = {"rules": {"jin_gou_diao_fan": 1, "pattern_fan": {"dui_dui_hu": 0}},
           "events": [win(None, {**quick, "pattern": "ping_hu"})], "exhausted": True}
    assert score_hand(doc).as_dict()["wins"][0]["fan"] == 1


def test_a_robbed_kong_that_was_not_recorded_counts_towards_the_four():
    # Seat 1 made four kongs; a 抢杠胡 on seat 1 with no kong event before it robs a fifth (RULES.md §5, §7).
    robbed = {"type": "win", "from": 1, "winners": [w(0, flags=["qiang_gang_hu"])]}
    doc = {"events": [kong(1, "concealed")] * 4 + [kong(2, "concealed"), robbed], "exhausted": True}
    assert errors(doc) == [("events[5].from", "seat 1 has already made 4 kongs: a hand holds at most four")]
    doc["events"] = [kong(1, "concealed")] * 3 + [kong(2, "concealed"), robbed, kong(1, "concealed")]
    assert errors(doc) == [("events[5].player", "seat 1 has already made 4 kongs: a hand holds at most four")]
    doc["events"] = [kong(1, "concealed")] * 3 + [kong(2, "concealed"), robbed]
    assert score_hand(doc).as_dict()["net"] == ["1", "-1", "0", "0"]
    # The table's choices: 抢杠胡 here robs seat 1's fourth; seat 1 may not be robbed of a fifth.
    assert "qiang_gang_hu" in hand_choices(doc)["events"][4]["flags"]
    doc["events"] = [kong(1, "concealed")] * 4 + [kong(2, "concealed"), {**robbed, "from": 3}]
    assert 1 not in hand_choices(doc)["events"][5]["from"] and 3 in hand_choices(doc)["events"][5]["from"]
    doc["events"][5] = {"type": "win", "from": 1, "winners": [w(0)]}
    assert "qiang_gang_hu" not in hand_choices(doc)["events"][5]["flags"]
    # Three kongs before and one after: robbing seat 1 here would make a fifth, so 'from' does not offer seat 1.
    doc["events"] = [kong(1, "concealed")] * 3 + [kong(2, "concealed"), {**robbed, "from": 3}, kong(1, "concealed")]
    assert 1 not in hand_choices(doc)["events"][4]["from"] and 3 in hand_choices(doc)["events"][4]["from"]
    doc["events"][4]["from"] = 1  # as the 'from' stands, too: the record is refused, and the choice says so
    assert 1 not in hand_choices(doc)["events"][4]["from"]
    doc["events"].pop()  # without the kong after it, robbing seat 1's fourth is offered again
    assert 1 in hand_choices(doc)["events"][4]["from"]


@pytest.mark.parametrize("doc, path", [
    ({"base": 1.5}, "base"), ({"base": "-1"}, "base"), ({"rules": {"max_fans": 3}}, "rules.max_fans"),
    ({"rules": {"max_fan": 0}}, "rules.max_fan"), ({"rules": {"cha_jiao": "big"}}, "rules.cha_jiao"),
    ({"dealer": 4}, "dealer"), ({"events": [{"type": "chi"}]}, "events[0].type"),
    ({"events": [kong(0, "secret")]}, "events[0].kind"), ({"events": [kong(0, "direct")]}, "events[0].from"),
    ({"events": [win(1, {"player": 0, "pattern": "big_win"})]}, "events[0].winners[0].pattern"),
    ({"events": [win(1, w(0, "qi_dui", 1))]}, "events[0].winners[0].roots"),
    ({"events": [win(1, w(0, flags=["lucky"]))]}, "events[0].winners[0].flags[0]"),
    ({"surprise": True}, "surprise"),
])
def test_bad_fields_are_reported_where_they_are(doc, path):
    assert [p for p, _ in errors(doc)] == [path]


def test_every_problem_is_reported_at_once_in_chinese_too():
    doc = {"base": "x", "dealer": 9, "events": [win(1, {"player": 0, "tiles": "123m456p789s11m456m"})]}
    zh = errors(doc, "zh")
    assert [p for p, _ in zh] == ["base", "dealer", "events[0].winners[0].tiles"]
    assert "缺一门" in zh[2][1]




def test_a_hua_zhu_list_longer_than_the_table_says_so_rather_than_dropping_entries_unseen():
    doc = {"events": [], "exhausted": True, "rules": {"hua_zhu": True}, "hua_zhu": [0, 0, 0, 0, 0, "x"]}
    found = errors(doc)
    assert found[0] == ("hua_zhu", "hua_zhu lists 6 entries: this table has 4 players (the first 5 are read)")
    assert [path for path, _ in found[1:]] == ["hua_zhu[1]", "hua_zhu[2]", "hua_zhu[3]", "hua_zhu[4]"]
    doc["hua_zhu"] = [0, 1, 2, 3, 0]  # one more than the table, read whole: the repeat is named
    assert errors(doc) == [("hua_zhu[4]", "seat 0 is listed twice")]


def test_xue_liu_counts_the_kongs_on_the_table_with_the_ready_hands_at_cha_jiao():
    # 血流: hands are recorded at several moments, but a kong stays where it was made: two concealed kongs of 5p
    # (eight) cannot both be, nor a ready hand's 5p beside another player's kong of it.
    rules = {"mode": "xue_liu"}
    doc = {"rules": rules, "events": [kong(0, "concealed", tile="5p"), kong(1, "concealed", tile="5p")],
           "exhausted": True}
    assert errors(doc) == [("events[1].tile", "5p appears 8 times across this hand's records (4 in seat 0's kong, 4 in seat 1's kong): there are only four of each tile")]
    doc = {"rules": rules, "events": [kong(0, "concealed", tile="5p")], "exhausted": True,
           "ready": {"1": {"tiles": "123m456m789m5p666p"}}}
    assert errors(doc) == [("ready.1.tiles", "5p appears 5 times across this hand's records (4 in seat 0's kong, 1 in seat 1's ready hand): there are only four of each tile")]
    # The kong's own player may list it among the ready hand's melds: one kong, not two.
    doc["ready"] = {"0": {"tiles": "123m456m789m6p", "melds": ["5555p"]}}
    assert score_hand(doc).as_dict()["ready"]["0"]["waits"] == ["6p"]
    # A robbed kong's fourth tile is its robber's: with the robbed player's three (a pong meld) and one more
    # in another ready hand, five.
    doc = {"rules": rules, "events": [kong(1, "added", tile="5m"),
                                      win(1, {"player": 3, "pattern": "ping_hu", "flags": ["qiang_gang_hu"]})],
           "exhausted": True, "ready": {"1": {"tiles": "123p456p789p1p", "melds": ["555m"]},
                                        "2": {"tiles": "456m111222333s9s"}, "3": {"fan": 0}}}
    assert errors(doc) == [("ready.2.tiles", "5m appears 5 times across this hand's records (4 in seat 1's kong, 1 in seat 2's ready hand): there are only four of each tile")]
    # Without kongs the ready hands alone are counted together, as before.
    doc = {"rules": rules, "events": [], "exhausted": True,
           "ready": {"1": {"tiles": "123m456m789m5556p"}, "2": {"tiles": "123p456m789m5566p"}}}
    assert errors(doc) == [("ready.2.tiles", "5p appears 5 times across the ready hands (3 in seat 1's ready hand, 2 in seat 2's ready hand) at the ready check (查叫): there are only four of each tile")]


def test_a_ready_hand_shows_its_own_kong_for_its_root_and_is_not_made_to():
    """RULES.md §7 asks a winner typed as tiles to hold their kongs among the melds; of a ready player it asks only
    that they have not won and are ready. So a ready hand is charged as typed: with its kong among the melds, the
    kong's root counts (清一色 + 1 root = 3 fan); without it, the hand typed is charged as it stands."""
    kong_9p = {"type": "kong", "player": 0, "kind": "concealed", "tile": "9p"}
    doc = {"events": [kong_9p], "exhausted": True, "ready": {"0": {"tiles": "45p123p456p88p", "melds": ["9999p"]}}}
    result = score_hand(doc).as_dict()
    assert result["ready"]["0"] == {"waits": ["3p", "6p"], "fan": 3} and result["net"] == ["30", "-10", "-10", "-10"]
    doc["ready"] = {"0": {"tiles": "45p123p456p777p88p"}}  # the documents' letter: not refused
    assert score_hand(doc).as_dict()["ready"]["0"] == {"waits": ["3p", "6p"], "fan": 2}


def test_a_robbed_kongs_fourth_tile_is_its_robbers_though_entered_by_pattern():
    """The robbed player keeps three 5p; the robber took the fourth (RULES.md §5, §7). A later hand of the robbed
    player showing 5555p (a root the robbed kong does not give) holds a fifth, whatever way the robber was entered."""
    added = {"type": "kong", "player": 1, "kind": "added", "tile": "5p"}
    robbed = {"type": "win", "from": 1, "winners": [{"player": 0, "pattern": "ping_hu", "flags": ["qiang_gang_hu"]}]}
    later = {"type": "win", "from": None, "winners": [{"player": 1, "tiles": "123s456s789s11s", "melds": ["5555p"]}]}
    doc = {"events": [added, robbed, later], "exhausted": True}
    fifth = "5p appears 5 times across this hand's records (3 in seat 1's kong, 1 in seat 0's winning hand, 1 in seat 1's winning hand): there are only four of each tile"
    assert errors(doc) == [("events[2].winners[0].tiles", fifth)]
    doc["events"][2] = {**later, "winners": [{"player": 1, "tiles": "123s456s789s11s", "melds": ["555p"]}]}
    assert score_hand(doc).as_dict()["wins"][1]["roots"] == 0  # the pong it kept: no root
    three = {"players": 3, "suits": "ps"}  # and a ready hand at a table of three, as in 血流 already
    ready = {"events": [added, robbed], "exhausted": True, "rules": three,
             "ready": {"1": {"tiles": "123s456s789s1s", "melds": ["5555p"]}}}
    assert errors(ready) == [("ready.1.tiles", fifth.replace("seat 1's winning hand", "seat 1's ready hand"))]
    typed = {**robbed, "winners": [{"player": 0, "tiles": "234s567s888s345p99s", "flags": ["qiang_gang_hu"]}]}
    score_hand({**doc, "events": [added, typed, doc["events"][2]]})  # typed, the robber's 5p is counted once: no error
    assert errors({**doc, "events": [added, typed, later]}) == [("events[2].winners[0].tiles", fifth)]


def test_a_missing_field_is_reported_where_it_is_missing():
    """"Each with where it is": a win without `from`, a kong or a winner without `player`, at that field (they were
    reported at the event or the winner, while a direct kong's missing `from` and a fee's `mode` were at the field)."""
    cases = [
        ({"type": "win", "winners": [{"player": 1, "pattern": "ping_hu"}]}, "events[0].from"),
        ({"type": "kong", "kind": "concealed"}, "events[0].player"),
        ({"type": "win", "from": None, "winners": [{"pattern": "ping_hu"}]}, "events[0].winners[0].player"),
    ]
    for event, path in cases:
        found = errors({"events": [event], "exhausted": True})
        assert (path, f"missing field '{path.rsplit('.', 1)[1]}'") in found, (event, found)


def test_an_exhausted_that_is_not_a_boolean_is_one_error_not_two():
    """"exhausted": "yes" was also read as false, which added "the hand is not over" (or "records nothing")."""
    one_win = [{"type": "win", "from": None, "winners": [{"player": 1, "pattern": "ping_hu"}]}]
    for events in (one_win, []):
        found = errors({"events": events, "exhausted": "yes", "ready": {"0": {"fan": 0}}}, require_end=True)
        assert [path for path, _message in found] == ["exhausted"], found


def test_english_messages_keep_chinese_terms_in_brackets_only():
    """A walk: "this table plays 筒 and 条 only: no 万 tile (1m) may appear" read half in Chinese. English says it in
    English; a Chinese term the players use stays beside it, in brackets (查叫, 花猪, 血流成河)."""
    import re
    from scoring.messages import MESSAGES
    han = re.compile(r"[\u4e00-\u9fff]")
    mixed = {code: en for code, (_zh, en) in MESSAGES.items() if han.search(re.sub(r"\([^)]*\)", "", en))}
    assert mixed == {}


def test_too_many_of_a_tile_says_where_they_all_are_in_chinese_too():
    doc = {"events": [kong(2, "concealed", tile="5m"), win(None, {"player": 1, "tiles": "55m123p456p789p111p"})],
           "exhausted": True}
    with pytest.raises(ScoringError) as caught:
        score_hand(doc)
    [problem] = caught.value.problems
    assert problem.path == "events[1].winners[0].tiles"
    assert problem.message("zh") == "5万 在本局记录里共出现 6 次（2号位的杠 4 张、1号位胡牌的手牌 2 张）：每种牌只有 4 张"


@pytest.mark.parametrize("tag, chinese", [("zh", True), ("zh-CN", True), ("zh_Hans", True), ("ZH-cn", True),
                                          ("en", False), ("en-GB", False), ("EN_us", False), ("fr", True)])
def test_an_error_speaks_the_language_of_a_full_tag_and_chinese_by_default(tag, chinese):
    """The Python API takes a language tag as the HTTP API does: zh-CN is Chinese (it was English: only 'zh' was),
    anything neither Chinese nor English the default, Chinese. Tiles are named in the language too."""
    doc = {"events": [win(None, {"player": 0, "tiles": "1m1m1m2p3p4p5s6s7s8s8s8s9s9s"})], "exhausted": True}
    with pytest.raises(ScoringError) as error:
        score_hand(doc)
    [problem] = error.value.as_dict(tag)["errors"]
    assert problem["path"] == "events[0].winners[0].tiles"
    assert ("三门" in problem["message"]) is chinese and ("three suits" in problem["message"]) is not chinese
    assert error.value.as_dict()["errors"] == error.value.as_dict("zh-CN")["errors"]
