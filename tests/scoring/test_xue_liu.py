"""血流成河 (RULES.md §9, mode xue_liu): winners stay in, win again, pay and deal in; the hand ends only with
the wall exhausted, and every past winner is ready at 查叫. Golden hands worked out by hand (base 1,
kongs 2/1/2), then the refusals."""
import pytest

from scoring import MAX_EVENTS_XUE_LIU, MAX_WINS_XUE_LIU, PRESETS, score_hand

from tests.hand_helpers import errors, kong, w, win

XUE_LIU = {"mode": "xue_liu"}


def hand(rules, events, **extra):
    return score_hand({"rules": {**XUE_LIU, **rules}, "events": events, "exhausted": True, **extra}).as_dict()


def flows(result):
    return [(p["event"], p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]]


def test_one_player_wins_three_times_and_a_past_winner_deals_in():
    # 0: P0 self-draws 平胡: P1, P2, P3 pay 1 each.
    # 1: P0, a past winner, still plays: a concealed kong, paid 2 by each of the three others.
    # 2: P0 self-draws on the replacement tile: 对对胡 1 + 1 root (the kong) + 杠上花 1 = 3 fan: 8 from each.
    # 3: P0 deals in: P1 wins 清一色 (2 fan): P0 pays 4.
    # 4: P1, now a past winner too, deals in: P0 wins (third time) 平胡 + 1 root = 1 fan: P1 pays 2.
    # 5: P2 self-draws 平胡: the past winners P0 and P1 pay like P3, 1 each.
    # Wall exhausted: P0, P1 and P2 have won, so are ready (fans 1, 2, 0); P3 never won and is not
    # ready: P3 pays each ready player by their fan: P0 2, P1 4, P2 1. P3 made no kong: nothing to refund.
    # P0 won first, so deals next.
    result = hand({}, [win(None, w(0)), kong(0, "concealed"), win(None, w(0, "dui_dui_hu", 1, ["gang_shang_hua"])),
                       win(0, w(1, "qing_yi_se")), win(1, w(0, "ping_hu", 1)), win(None, w(2))],
                  ready={"0": {"fan": 1}, "1": {"fan": 2}, "2": {"fan": 0}})
    assert flows(result) == [
        (0, 1, 0, "1", "self_draw"), (0, 2, 0, "1", "self_draw"), (0, 3, 0, "1", "self_draw"),
        (1, 1, 0, "2", "kong"), (1, 2, 0, "2", "kong"), (1, 3, 0, "2", "kong"),
        (2, 1, 0, "8", "self_draw"), (2, 2, 0, "8", "self_draw"), (2, 3, 0, "8", "self_draw"),
        (3, 0, 1, "4", "discard"), (4, 1, 0, "2", "discard"),
        (5, 0, 2, "1", "self_draw"), (5, 1, 2, "1", "self_draw"), (5, 3, 2, "1", "self_draw"),
        (None, 3, 0, "2", "cha_jiao"), (None, 3, 1, "4", "cha_jiao"), (None, 3, 2, "1", "cha_jiao")]
    assert result["net"] == ["32", "-6", "-7", "-19"] and result["next_dealer"] == 0
    assert [(x["event"], x["player"], x["fan"]) for x in result["wins"]] == [
        (0, 0, 0), (2, 0, 3), (3, 1, 2), (4, 0, 1), (5, 2, 0)]


def test_a_multi_win_first_then_a_past_winner_deals_into_a_past_winner_with_kong_refund():
    # 0: P2's added kong: P0, P1, P3 pay 1 each.
    # 1: P3 discards; P0 (平胡: 1) and P1 (对对胡: 2) win: P3 pays 3. A multi-win first: P3 deals next.
    # 2: P1 (a past winner) discards, P0 (a past winner) wins again 七对 (2 fan): P1 pays 4.
    # Wall exhausted: P0 and P1 are ready (their fans 2 and 1), P3 never won and is ready at 0; P2 never
    # won and is not ready: P2 pays P0 4, P1 2, P3 1 and gives back its kong income (1 to each).
    result = hand({}, [kong(2, "added"), win(3, w(0), w(1, "dui_dui_hu")), win(1, w(0, "qi_dui"))],
                  ready={"0": {"fan": 2}, "1": {"fan": 1}, "3": {"fan": 0}})
    assert flows(result)[-6:] == [
        (None, 2, 0, "4", "cha_jiao"), (None, 2, 1, "2", "cha_jiao"), (None, 2, 3, "1", "cha_jiao"),
        (None, 2, 0, "1", "kong_refund"), (None, 2, 1, "1", "kong_refund"), (None, 2, 3, "1", "kong_refund")]
    assert result["net"] == ["9", "0", "-7", "-2"] and result["next_dealer"] == 3


def test_a_past_winner_pays_kongs_whatever_finished_players_pay_kongs_says():
    # P0 wins on P1's discard (1). Then P2's concealed kong is paid by all three others, P0 included,
    # with finished_players_pay_kongs false or true alike (it has no effect in 血流).
    events = [win(1, w(0)), kong(2, "concealed")]
    for option in (False, True):
        result = hand({"finished_players_pay_kongs": option}, events, ready={"0": {"fan": 0}, "1": {"fan": 0},
                                                                                "3": {"fan": 0}})
        assert [f for f in flows(result) if f[4] == "kong"] == [
            (1, 0, 2, "2", "kong"), (1, 1, 2, "2", "kong"), (1, 3, 2, "2", "kong")]
        # P2 is not ready: it pays the three ready players 1 each and refunds the 6.
        assert result["net"] == ["2", "0", "-3", "1"]


def test_a_past_winners_direct_kong_and_its_discard_are_still_theirs():
    # P1 self-draws (1 from each: P1 +3). P1, a past winner, discards into P3's direct kong: P1 pays 2;
    # P3 self-draws with 杠上花 (平胡 + 1 root + 1 = 2 fan): P0, P1, P2 pay 4 each.
    result = hand({}, [win(None, w(1)), kong(3, "direct", 1), win(None, w(3, "ping_hu", 1, ["gang_shang_hua"]))],
                  ready={"1": {"fan": 0}, "3": {"fan": 0}})
    # Exhausted: P0 and P2 never won and are not ready: each pays P1 1 and P3 1; P3's kong income (2 from P1)
    # stays: P3 is ready.
    assert result["net"] == ["-7", "-1", "-7", "15"] and result["next_dealer"] == 1


def test_a_past_winners_kong_robbed_and_call_transfer():
    rules = {"call_transfer": True}
    # 0: P0 self-draws (1 from each). 1: P0's added kong (1 from each). 2: P0 deals right after it
    # and P2 wins with 杠上炮 (平胡 + 1 = 1 fan): P0 pays 2 and passes that kong's 3 to P2 (呼叫转移).
    # 3: P1's added kong is robbed by P0 (抢杠胡, 平胡 + 1 root: P0 still holds its own kong): no kong
    # payment; P1 pays 2.
    result = hand(rules, [win(None, w(0)), kong(0, "added"), win(0, w(2, flags=["gang_shang_pao"])),
                          kong(1, "added"), win(1, w(0, "ping_hu", 1, ["qiang_gang_hu"]))],
                  ready={"0": {"fan": 0}, "2": {"fan": 0}})
    assert [f for f in flows(result) if f[0] in (2, 3, 4)] == [
        (2, 0, 2, "2", "discard"), (2, 0, 2, "3", "call_transfer"), (4, 1, 0, "2", "discard")]
    # Exhausted: P1 and P3 are not ready: each pays P0 1 and P2 1. Net P0: 3 + 3 - 2 - 3 + 2 + 2 = 5.
    assert result["net"] == ["5", "-6", "5", "-4"]


def test_three_players_blood_river_with_three_wins_by_one_player():
    # 三人三房 血流. 0: P1 self-draws 平胡: P0 and P2 pay 1. 1: P0 discards, P1 wins 对对胡 (2).
    # 2: P0 discards, P1 (平胡: 1) and P2 (平胡: 1) win on it: the winners are the two others.
    # Exhausted: P1 and P2 are ready (0 and 1 fan), P0 is not: P0 pays P1 1, P2 2.
    result = hand({"players": 3}, [win(None, w(1)), win(0, w(1, "dui_dui_hu")), win(0, w(1), w(2))],
                  ready={"1": {"fan": 0}, "2": {"fan": 1}})
    assert result["net"] == ["-8", "6", "2"] and result["next_dealer"] == 1


def test_three_players_blood_river_a_past_winner_kongs_and_wins_on_the_replacement():
    # 三人血流. 0: P2's concealed kong: P0 and P1 pay 2. 1: P1 discards, P0 wins 平胡 (1).
    # 2: P0, a past winner, makes an added kong: P1 and P2 pay 1. 3: P0 self-draws on the replacement:
    # 对对胡 1 + 1 root + 杠上花 1 = 3 fan: P1 and P2 pay 8 each (杠上花 again after a past winner's kong).
    # Exhausted: P0 ready at 1 fan; P1 and P2 never won and are not ready: each pays P0 2, and P2 gives
    # back its kong income (2 to P0, 2 to P1).
    result = hand({"players": 3}, [kong(2, "concealed"), win(1, w(0)), kong(0, "added"),
                                   win(None, w(0, "dui_dui_hu", 1, ["gang_shang_hua"]))], ready={"0": {"fan": 1}})
    assert flows(result)[-4:] == [(None, 1, 0, "2", "cha_jiao"), (None, 2, 0, "2", "cha_jiao"),
                                  (None, 2, 0, "2", "kong_refund"), (None, 2, 1, "2", "kong_refund")]
    assert result["net"] == ["23", "-12", "-11"] and result["next_dealer"] == 0


def test_three_players_two_suits_blood_river_with_tiles():
    # 三人两房 血流. P1 wins on P0's discard (123456789p11122s, 平胡: 1), then self-draws (123456789p11222s,
    # 平胡: 1 from P0 and P2). Exhausted: P1 (a past winner) is ready on 123456789p1122s (1s 2s, 0 fan) and P2
    # on 234567p34567s99s (2s 5s 8s, 0 fan); the ready hands together hold no kind more than four times.
    # P0 is not ready: pays P1 1 and P2 1.
    result = hand(PRESETS["san_ren_liang_fang"],
                  [win(0, {"player": 1, "tiles": "123456789p11122s"}), win(None, {"player": 1, "tiles": "123456789p11222s"})],
                  ready={"1": {"tiles": "123456789p1122s"}, "2": {"tiles": "234567p34567s99s"}})
    assert result["ready"] == {"1": {"waits": ["1s", "2s"], "fan": 0}, "2": {"waits": ["2s", "5s", "8s"], "fan": 0}}
    assert result["net"] == ["-4", "4", "0"] and result["next_dealer"] == 1


def test_two_players_blood_river_each_kongs_and_wins_on_the_replacement():
    # 两人血流. P0's direct kong on P1's discard: P1 pays 2. P0 self-draws 杠上花 (平胡 + 1 root + 1 = 2 fan): 4.
    # P1's concealed kong: P0 pays 2. P1 self-draws 杠上花 (对对胡 1 + 1 root + 1 = 3 fan): 8.
    # Exhausted: both have won, both are ready: nobody pays 查叫, nobody refunds.
    result = hand({"players": 2}, [kong(0, "direct", 1), win(None, w(0, "ping_hu", 1, ["gang_shang_hua"])),
                                   kong(1, "concealed"), win(None, w(1, "dui_dui_hu", 1, ["gang_shang_hua"]))],
                  ready={"0": {"fan": 1}, "1": {"fan": 3}})
    assert flows(result) == [(0, 1, 0, "2", "kong"), (1, 1, 0, "4", "self_draw"), (2, 0, 1, "2", "kong"),
                             (3, 0, 1, "8", "self_draw")]
    assert result["net"] == ["-4", "4"] and result["next_dealer"] == 0


def test_two_players_two_suits_blood_river():
    # 两人两房 血流. P0 self-draws 清一色 (4 from P1); P1 self-draws 平胡 (1 from P0); P0 wins again on P1's
    # discard (平胡: 1). Exhausted: both have won, so both are ready (by tiles); nobody is not ready,
    # so 查叫 charges nothing.
    result = hand(PRESETS["liang_ren_liang_fang"],
                  [win(None, w(0, "qing_yi_se")), win(None, w(1)), win(1, w(0))],
                  ready={"0": {"tiles": "123456789p1122s"}, "1": {"tiles": "234567p34567s99s"}})
    assert result["net"] == ["4", "-4"] and result["next_dealer"] == 0
    assert result["ready"] == {"0": {"waits": ["1s", "2s"], "fan": 0}, "1": {"waits": ["2s", "5s", "8s"], "fan": 0}}


def test_two_players_blood_river_the_one_who_never_won_pays_cha_jiao_and_refunds():
    # 两人血流. P1's concealed kong (P0 pays 2). P0 self-draws 对对胡 (P1 pays 2). Exhausted: P0 ready
    # at 1 fan, P1 never won and is not ready: pays P0 2, refunds the 2.
    result = hand({"players": 2}, [kong(1, "concealed"), win(None, w(0, "dui_dui_hu"))], ready={"0": {"fan": 1}})
    assert result["net"] == ["4", "-4"]


def test_a_player_who_won_in_one_hand_is_scored_on_each_hand_separately_with_tiles():
    # Each win is its own hand: P0 wins 清对 on 11122233355566p (P1 pays 8), then 平胡 on 123456789s55566p
    # (P2 pays 1). The tiles of different moments are not added up: 5p and 6p are in both winning hands.
    # Exhausted: P0 is ready at 0 fan; the three others are not and pay P0 1 each.
    result = hand({}, [win(1, {"player": 0, "tiles": "11122233355566p"}),
                       win(2, {"player": 0, "tiles": "123456789s55566p"})], ready={"0": {"fan": 0}})
    assert [(x["pattern"], x["fan"]) for x in result["wins"]] == [("qing_dui", 3), ("ping_hu", 0)]
    assert result["net"] == ["12", "-9", "-2", "-1"]


def test_ready_hands_at_cha_jiao_are_counted_together():
    doc = {"rules": XUE_LIU, "events": [win(None, {"player": 0, "tiles": "11122233355566p"})], "exhausted": True,
           "ready": {"0": {"tiles": "1112223335556p"}, "1": {"tiles": "123456789s5556p"}}}
    assert errors(doc) == [("ready.1.tiles", "5p appears 6 times across the ready hands (3 in seat 0's ready hand, 3 in seat 1's ready hand) at the ready check (查叫): there are only four of each tile")]


def test_tian_hu_and_di_hu_in_blood_river():
    # 天胡 is the dealer's self-draw as the hand's first event; 地胡 a non-dealer's win before any other
    # win: a winner's later wins are neither.
    result = hand({}, [win(None, w(0, flags=["tian_hu"])), win(None, w(0))], ready={"0": {"fan": 0}})
    assert result["wins"][0]["fan"] == 5
    assert errors({"rules": XUE_LIU, "events": [win(None, w(1, flags=["di_hu"])), win(None, w(1, flags=["di_hu"]))],
                   "exhausted": True, "ready": {"1": {"fan": 0}}}) == [
        ("events[1].winners[0].flags[0]", "di_hu is a non-dealer's win before any other win")]


# ---- refusals --------------------------------------------------------------------------------

def test_a_blood_river_hand_must_end_with_the_wall_exhausted():
    doc = {"rules": XUE_LIU, "events": [win(0, w(1), w(2), w(3))]}
    assert errors(doc, require_end=True) == [
        ("exhausted", "in blood river (血流成河, xue_liu) a hand ends only with the wall exhausted: exhausted must be true")]
    assert errors({"rules": XUE_LIU, "events": []}, require_end=True, lang="zh") == [
        ("exhausted", "血流成河只在流局（牌摸完）时结束：必须写 exhausted: true")]
    # Being entered (the live preview) it is fine.
    assert score_hand(doc, require_end=False).as_dict()["net"] == ["-3", "1", "1", "1"]


def test_every_past_winner_must_be_ready_at_cha_jiao():
    doc = {"rules": XUE_LIU, "events": [win(None, w(1)), win(1, w(3))], "exhausted": True, "ready": {"1": {"fan": 0}}}
    assert errors(doc) == [
        ("ready.3", "seat 3 has won in this blood river (血流成河) hand, so they are ready at the ready check (查叫): list their hand (tiles or fan) under ready")]
    assert errors(doc, lang="zh")[0][1].startswith("3号位本局已经胡过（血流成河）")
    # A past winner's hand given as tiles must be ready, like anyone's.
    doc["ready"]["3"] = {"tiles": "13579p13579s246s"}
    assert [p for p, _ in errors(doc)] == ["ready.3.tiles"]


def test_a_past_winner_cannot_be_hua_zhu():
    doc = {"rules": {**XUE_LIU, "hua_zhu": True}, "events": [win(None, w(1))], "exhausted": True,
           "ready": {}, "hua_zhu": [1, 2]}
    assert errors(doc) == [
        ("ready.1", "seat 1 has won in this blood river (血流成河) hand, so they are ready at the ready check (查叫): list their hand (tiles or fan) under ready"),
        ("hua_zhu[0]", "seat 1 has won in this blood river (血流成河) hand and holds a ready hand, so they cannot be a three-suit hand (花猪)")]


def test_hua_zhu_in_blood_river_pays_every_other_player():
    # P1 self-draws (1 from each). Exhausted, 查花猪: P2 still holds three suits and pays every non-花猪
    # player (P0, P1, P3) 2^5 = 32, instead of 查叫; P1 is ready at 0, P0 and P3 are not: each pays P1 1.
    result = hand({"hua_zhu": True}, [win(None, w(1))], ready={"1": {"fan": 0}}, hua_zhu=[2])
    assert [(f[1], f[2], f[3], f[4]) for f in flows(result) if f[0] is None] == [
        (0, 1, "1", "cha_jiao"), (3, 1, "1", "cha_jiao"), (2, 0, "32", "hua_zhu"), (2, 1, "32", "hua_zhu"),
        (2, 3, "32", "hua_zhu")]


def test_winners_of_one_discard_are_distinct_and_not_the_discarder():
    assert errors({"rules": XUE_LIU, "events": [win(None, w(0)), win(0, w(0))]}) == [
        ("events[1].winners[0].player", "the discarder cannot be the receiver")]
    assert errors({"rules": XUE_LIU, "events": [win(1, w(0), w(0))]}) == [
        ("events[0].winners[1].player", "seat 0 is listed twice on the same tile")]


def test_blood_river_bounds_its_wins_and_events():
    many = [win(None, w(s % 4)) for s in range(MAX_WINS_XUE_LIU + 1)]
    assert errors({"rules": XUE_LIU, "events": many}) == [
        (f"events[{MAX_WINS_XUE_LIU}]", f"a blood river (血流成河, xue_liu) hand has at most {MAX_WINS_XUE_LIU} win events")]
    assert len(score_hand({"rules": XUE_LIU, "events": many[:-1]}, require_end=False).wins) == MAX_WINS_XUE_LIU
    assert errors({"rules": XUE_LIU, "events": [kong(0, "concealed")] * (MAX_EVENTS_XUE_LIU + 1)}) == [
        ("events", f"a blood river (血流成河, xue_liu) hand has at most {MAX_EVENTS_XUE_LIU} events")]
    # Four kongs a player still: a hand holds four sets.
    assert errors({"rules": XUE_LIU, "events": [kong(0, "concealed")] * 5}) == [
        ("events[4].player", "seat 0 has already made 4 kongs: a hand holds at most four")]


@pytest.mark.parametrize("players", [4, 3, 2])
def test_nobody_wins_blood_river_is_a_plain_cha_jiao(players):
    result = hand({"players": players}, [], ready={"0": {"fan": 1}})
    assert result["net"] == [str(2 * (players - 1))] + ["-2"] * (players - 1)


def test_hand_choices_in_blood_river_offer_past_winners_everything_and_require_them_ready():
    from scoring import hand_choices

    doc = {"rules": XUE_LIU, "events": [win(None, w(1)), win(1, w(3))]}
    choices = hand_choices(doc)
    assert choices["next"] == {"open": True, "winners": [0, 1, 2, 3], "kongers": [0, 1, 2, 3], "exhausted": True}
    assert choices["complete"] is False and choices["ready"]["required"] == [1, 3]
    assert choices["events"][1]["from"] == [0, 1, 2] and choices["events"][1]["more_winners"] == [0, 2]
    assert hand_choices({"rules": {"mode": "first_win"}, "events": [win(None, w(1))]})["ready"]["required"] == []
