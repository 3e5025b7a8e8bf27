"""The rules of issue 7 made explicit: robbed kongs, the end of a hand, 抢杠胡 on the tile, kongs held, tiles on the table."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import ScoringError, hand_choices, score_hand

from tests.hand_helpers import WORKED_EXAMPLE, errors, kong, payments, score, w, win

ROOT = Path(__file__).resolve().parents[2]


def rob(robbed, *winners):
    """A win on player `robbed`'s kong tile: every winner carries qiang_gang_hu."""
    return win(robbed, *[dict(x, flags=x["flags"] + ["qiang_gang_hu"]) for x in winners])


# ---- the robbed kong (抢杠胡) ------------------------------------------------------------------

def test_a_robbed_added_kong_pays_nothing_and_the_robbed_player_pays_as_a_discarder():
    result = payments([kong(2, "added"), rob(2, w(0, "dui_dui_hu"))], exhausted=True, ready={"1": {"fan": 0}})
    assert result == [(2, 0, "2", "discard"), (2, 1, "1", "cha_jiao"), (3, 1, "1", "cha_jiao")]


def test_the_robbed_player_ends_below_zero_where_an_unrobbed_kong_would_have_paid():
    robbed = score([kong(2, "added"), rob(2, w(0, "dui_dui_hu"))], exhausted=True)
    assert robbed["net"] == ["2", "0", "-2", "0"]
    kept = score([kong(2, "added"), win(3, w(0, "dui_dui_hu"))], exhausted=True, rules={"kong_refund": False})
    assert kept["net"][2] == "3"  # 1 from each of three: 王五 +3 where the robbed kong gives -2


def test_a_robbed_kong_earns_no_refund_and_no_call_transfer():
    events = [kong(1, "added"), rob(1, w(0))]
    result = payments(events, exhausted=True, rules={"call_transfer": True})
    assert [p[3] for p in result] == ["discard"]


def test_a_robbed_kong_is_no_root_for_the_robbed_player():
    # Seat 1's kong was robbed, so its later win needs no root for it.
    result = score([kong(1, "added"), rob(1, w(0)), win(None, w(1, "ping_hu", 0))], exhausted=True)
    assert result["wins"][1]["roots"] == 0


def test_a_direct_kong_can_be_robbed_only_when_the_rules_say_so():
    events = [kong(1, "direct", 3), rob(1, w(0))]
    assert errors({"events": events, "exhausted": True}) == [
        ("events[0].kind", 'a direct kong cannot be robbed under these rules (robbable_kongs is "added"), '
                           "yet the next win robs it")]
    result = payments(events, exhausted=True, rules={"robbable_kongs": "added_direct"})
    assert result == [(1, 0, "1", "discard")]


def test_a_robbed_concealed_kong_is_an_error_in_both_languages():
    doc = {"events": [kong(1, "concealed"), rob(1, w(0))], "exhausted": True}
    assert errors(doc) == [("events[0].kind", "a concealed kong cannot be robbed, yet the next win robs it (qiang_gang_hu)")]
    assert errors(doc, "zh") == [("events[0].kind", "暗杠不能被抢，但紧接着的胡牌是抢杠胡")]


def test_a_robbed_kong_won_by_two_players_pays_each_from_the_robbed_player():
    result = payments([kong(3, "added"), rob(3, w(0, "qing_yi_se"), w(1))], exhausted=True)
    assert result == [(3, 0, "4", "discard"), (3, 1, "1", "discard")]


def test_qiang_gang_hu_without_a_kong_event_robs_an_unrecorded_added_kong():
    assert payments([rob(2, w(0))], exhausted=True) == [(2, 0, "1", "discard")]


def test_qiang_gang_hu_is_on_every_winner_of_the_tile_or_on_none():
    doc = {"events": [kong(3, "added"), win(3, w(0, flags=["qiang_gang_hu"]), w(1))], "exhausted": True}
    assert errors(doc) == [("events[1].winners", "qiang_gang_hu belongs to the robbed tile: every winner on it has "
                                                 "the flag, or none")]
    assert errors(doc, "zh")[0][1].startswith("抢杠胡属于被抢的那张牌")


def test_qiang_gang_hu_never_goes_with_gang_shang_pao():
    doc = {"events": [kong(3, "added"), win(3, w(0, flags=["gang_shang_pao", "qiang_gang_hu"]))], "exhausted": True}
    assert errors(doc) == [("events[1].winners[0].flags[0]", "qiang_gang_hu and gang_shang_pao cannot be on the same win")]


# ---- a hand must end --------------------------------------------------------------------------

def test_an_empty_hand_is_an_error_not_a_silent_draw():
    with pytest.raises(ScoringError) as exc:
        score_hand({"events": []})
    assert exc.value.as_dict("en") == {"errors": [{"path": "exhausted", "message":
                                                  "the hand records nothing: a hand with no win ends with the wall "
                                                  "exhausted (exhausted: true)"}]}
    assert exc.value.as_dict("zh")["errors"][0]["message"] == "这一局什么也没记：没人胡牌的流局要写 exhausted: true"


def test_fewer_than_three_winners_without_exhausted_is_an_error():
    assert errors({"events": [win(1, w(0)), win(None, w(2))]}, require_end=True) == [
        ("exhausted", "the hand is not over: players who have won so far: 2; record the other wins, or set exhausted: true "
                      "if the wall ran out")]


@pytest.mark.parametrize("doc", [
    {"events": [], "exhausted": True},
    {"events": [win(1, w(0))], "exhausted": True},
    {"events": [win(1, w(0)), win(2, w(1)), win(None, w(3))]},
    {"events": [win(1, w(0), w(2), w(3))]},
])
def test_a_hand_ends_with_the_third_winner_or_the_wall_exhausted(doc):
    assert sum(int(n) for n in score_hand(doc).as_dict()["net"]) == 0


def test_the_live_preview_skips_only_the_end_of_hand_check():
    assert score_hand({"events": [win(1, w(0))]}, require_end=False).as_dict()["net"] == ["1", "-1", "0", "0"]
    with pytest.raises(ScoringError) as exc:
        score_hand({"events": [win(0, w(0))]}, require_end=False)
    assert [p.code for p in exc.value.problems] == ["discarder_is_receiver"]


# ---- a winner's own kongs ---------------------------------------------------------------------

def test_quick_entry_roots_count_the_winners_own_kongs():
    doc = {"events": [kong(0, "concealed"), kong(0, "added"), win(None, w(0, "dui_dui_hu", 1))], "exhausted": True}
    assert errors(doc) == [("events[2].winners[0].roots", "seat 0 made kongs this hand (2), so roots must be at least 2")]
    doc["events"][2]["winners"][0]["roots"] = 2
    assert score_hand(doc).as_dict()["wins"][0]["fan"] == 3


def test_a_winner_who_konged_cannot_claim_seven_pairs():
    doc = {"events": [kong(0, "concealed"), win(1, w(0, "long_qi_dui", 1))], "exhausted": True}
    assert errors(doc) == [("events[1].winners[0].pattern", "seat 0 made a kong this hand, so the hand cannot be seven pairs")]


def test_tile_entry_must_show_the_very_kong_the_event_named():
    doc = {"events": [kong(1, "concealed", tile="5p"),
                      win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"]})], "exhausted": True}
    assert errors(doc) == [("events[1].winners[0].melds", "seat 1 konged 5p at events[0], so the melds must include 5555p")]
    doc["events"][0]["tile"] = "7s"
    assert score_hand(doc).as_dict()["wins"][0]["roots"] == 1


def test_tile_entry_without_a_named_kong_needs_as_many_kongs_among_the_melds():
    doc = {"events": [kong(1, "concealed"), kong(1, "concealed"),
                      win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"]})], "exhausted": True}
    assert errors(doc) == [("events[2].winners[0].melds", "seat 1 made kongs this hand (2), but the melds hold 1")]


# ---- tiles on the table -----------------------------------------------------------------------

def test_a_kong_counts_against_every_hand_on_the_table():
    doc = {"events": [kong(2, "concealed", tile="5m"),
                      win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"]})], "exhausted": True}
    assert errors(doc) == [("events[1].winners[0].tiles", "5m appears 6 times across this hand's records (4 in seat 2's kong, 2 in seat 1's winning hand): "
                                                          "there are only four of each tile")]


def test_the_worked_example_keeps_every_tile_within_four():
    kong_tiles = [e["tile"] for e in WORKED_EXAMPLE["events"] if e["type"] == "kong"]
    assert kong_tiles == ["9p", "7s"]
    assert score_hand(WORKED_EXAMPLE).as_dict()["net"] == ["-19", "24", "6", "-11"]


def test_a_robbed_kong_leaves_its_pong_and_the_robber_holds_the_fourth_tile():
    doc = {"events": [kong(2, "added", tile="9m"), rob(2, {"player": 0, "tiles": "123456789m345p55p", "flags": []})],
           "exhausted": True}
    assert score_hand(doc).as_dict()["wins"][0]["pattern"] == "ping_hu"  # three 9m with seat 2, the fourth robbed
    doc["events"][1]["winners"][0]["tiles"] = "123456789m99m999p"
    assert errors(doc) == [("events[1].winners[0].tiles", "9m appears 6 times across this hand's records (3 in seat 2's kong, 3 in seat 0's winning hand): "
                                                          "there are only four of each tile")]


@pytest.mark.parametrize("value", ["added", "added_direct"])
def test_robbable_kongs_takes_its_two_spellings(value):
    assert score([win(1, w(0))], exhausted=True, rules={"robbable_kongs": value})["net"][0] == "1"


@pytest.mark.parametrize("value", ["added+direct", ["added", "direct"], "direct", None])
def test_robbable_kongs_refuses_other_spellings(value):
    assert errors({"events": [win(1, w(0))], "exhausted": True, "rules": {"robbable_kongs": value}}) == [
        ("rules.robbable_kongs", "expected one of: added, added_direct")]


# ---- through manage.py score_hand -------------------------------------------------------------

def run_cli(doc, lang="en"):
    done = subprocess.run([sys.executable, "manage.py", "score_hand", "-", "--lang", lang], cwd=ROOT,
                          input=json.dumps(doc), capture_output=True, text=True, timeout=60)
    return done.returncode, json.loads(done.stdout)


def test_the_command_scores_a_robbed_kong():
    code, out = run_cli({"events": [kong(2, "added"), rob(2, w(0, "dui_dui_hu"))], "exhausted": True})
    assert code == 0 and out["net"] == ["2", "0", "-2", "0"]


def test_the_command_refuses_every_new_rule_with_paths_in_chinese():
    doc = {"events": [kong(1, "concealed"), rob(1, w(0)), kong(3, "concealed"), win(None, w(3))]}
    code, out = run_cli(doc, "zh")
    assert code == 2
    assert [e["path"] for e in out["errors"]] == ["events[0].kind", "events[3].winners[0].roots", "exhausted"]
    assert all(any("\u4e00" <= c <= "\u9fff" for c in e["message"]) for e in out["errors"])


def test_two_winners_on_one_discard_share_that_tile_but_no_other():
    doc = {"events": [win(3, {"player": 0, "tiles": "12345678999m555p"}, {"player": 1, "tiles": "789m123p789p555p22p"})],
           "exhausted": True}
    assert errors(doc) == [("events[0].winners[1].tiles", "5p appears 5 times across this hand's records (3 in seat 0's winning hand, 3 in seat 1's winning hand, the discard they all won on counted once): "
                                                          "there are only four of each tile")]


def test_ready_hands_at_the_wall_count_on_the_table_too():
    doc = {"events": [win(3, {"player": 0, "tiles": "11122233344455m"})], "exhausted": True,
           "ready": {"1": {"tiles": "1112345678999m"}}}
    assert errors(doc) == [("ready.1.tiles", "1m appears 6 times across this hand's records (3 in seat 0's winning hand, 3 in seat 1's ready hand): "
                                             "there are only four of each tile")]


def test_a_winners_own_kong_shown_as_event_and_meld_counts_once():
    doc = {"events": [kong(1, "concealed", tile="7s"),
                      win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"]}),
                      win(0, {"player": 2, "tiles": "123456789m11p", "melds": ["999p"]})], "exhausted": True}
    assert [w["roots"] for w in score_hand(doc).as_dict()["wins"]] == [1, 0]


def test_an_optional_modifier_left_at_0_fan_is_accepted_but_adds_nothing_and_is_not_offered():
    # 海底捞月 is off by default (hai_di_fan 0): a record may still carry it (older records do); it adds 0 fan.
    doc = {"events": [win(None, w(1, "ping_hu", 0, ["hai_di"]))], "exhausted": True}
    result = score_hand(doc).as_dict()
    assert result["wins"][0]["fan"] == 0 and result["wins"][0]["flags"] == ["hai_di"]
    assert "hai_di" not in hand_choices(doc)["events"][0]["winner_choices"][0]["flags"]
    on = {**doc, "rules": {"hai_di_fan": 1}}
    assert score_hand(on).as_dict()["wins"][0]["fan"] == 1
    assert "hai_di" in hand_choices(on)["events"][0]["winner_choices"][0]["flags"]
