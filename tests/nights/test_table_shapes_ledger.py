"""RULES.md §9 through the calculator, the CLI and the ledger: one case per mode, the shapes the ledger
cannot seat yet refused by name, and a 血流成河 night with a repeated winner."""
import json

import pytest
from django.test import Client

from ledger.models import Night
from scoring import PRESETS, score_hand

from tests.conftest import api_client
from tests.factories import post_json, run_cli
from tests.hand_helpers import kong, w, win

#: One finished hand per mode, with what it must pay (worked out in tests/scoring/test_table_shapes.py and test_xue_liu.py).
CASES = {
    # 血战 at three: P1's concealed kong (2 from P0, P2), P0 self-draws 平胡 (1 from each), P2 deals into P1's
    # 清一色 + 1 root (8): two of three have won.
    "xue_zhan": ({"rules": {"players": 3}, "events": [kong(1, "concealed"), win(None, w(0)), win(2, w(1, "qing_yi_se", 1))]},
                 ["0", "11", "-11"]),
    # 标准下雨: P0's discard won by P1 (清一色, 4) and P3 (平胡, 1): the first win ends the hand.
    "first_win": ({"rules": {"mode": "first_win"}, "events": [win(0, w(1, "qing_yi_se"), w(3))]}, ["-5", "4", "0", "1"]),
    # 血流 at two, two suits: P0 self-draws 清一色 (4), P1 self-draws 平胡 (1), P0 wins again on P1's discard (1);
    # both have won, so both are ready at 查叫 and nobody pays it.
    "xue_liu": ({"rules": {"mode": "xue_liu", "players": 2, "suits": "ps"},
                 "events": [win(None, w(0, "qing_yi_se")), win(None, w(1)), win(1, w(0))],
                 "exhausted": True, "ready": {"0": {"fan": 0}, "1": {"fan": 0}}}, ["4", "-4"]),
}
BAD = {"rules": {"players": 3, "suits": "ps"}, "events": [win(3, {"player": 0, "tiles": "11122233355566m"})],
       "exhausted": True}
BAD_ERRORS = [{"path": "events[0].from", "message": "this table has 3 players: a seat must be an integer 0-2"},
              {"path": "events[0].winners[0].tiles", "message": "this table plays dots and bamboo only (筒条): no character tile (1m, 万) may appear"}]


@pytest.mark.parametrize("mode", list(CASES))
def test_the_calculator_scores_every_mode(db, mode):
    doc, net = CASES[mode]
    response = post_json(api_client(), "/api/score/", doc)
    assert response.status_code == 200
    assert response.json() == score_hand(doc).as_dict() and response.json()["net"] == net


def test_the_calculator_refuses_a_bad_shaped_record_with_paths(db):
    response = post_json(api_client(), "/api/score/", BAD, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response.json() == {"errors": BAD_ERRORS}
    zh = post_json(api_client(), "/api/score/", BAD, HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert zh.json()["errors"][0] == {"path": "events[0].from", "message": "本桌只有 3 人：座位必须是 0–2 的整数"}


def test_the_cli_scores_every_mode_and_refuses_the_bad_record():
    for mode, (doc, net) in CASES.items():
        done = run_cli("-", stdin=json.dumps(doc))
        assert done.returncode == 0, mode
        assert json.loads(done.stdout) == score_hand(doc).as_dict() and json.loads(done.stdout)["net"] == net
    done = run_cli("-", "--lang", "en", stdin=json.dumps(BAD))
    assert done.returncode == 2 and json.loads(done.stdout) == {"errors": BAD_ERRORS}
    done = run_cli("-", "--lang", "en", stdin=json.dumps({"rules": {"mode": "xue_liu"}, "events": [win(None, w(0))]}))
    assert done.returncode == 2 and json.loads(done.stdout)["errors"] == [
        {"path": "exhausted", "message": "in blood river (血流成河, xue_liu) a hand ends only with the wall exhausted: exhausted must be true"}]


def test_analyse_at_a_two_suit_table(db):
    ok = post_json(api_client(), "/api/analyse/", {"tiles": "1112345678999p", "ready": True, "suits": "ps"}).json()
    assert [x["tile"] for x in ok["waits"]] == [f"{r}p" for r in range(1, 10)]
    bad = post_json(api_client(), "/api/analyse/", {"tiles": "1112345678999m", "ready": True, "suits": "ps"},
                    HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and bad.json() == {"errors": [
        {"path": "tiles", "message": "this table plays dots and bamboo only (筒条): no character tile (1m, 万) may appear"}]}
    shape = post_json(api_client(), "/api/analyse/", {"tiles": "11122233355566m", "suits": "m"}, HTTP_ACCEPT_LANGUAGE="en")
    assert shape.status_code == 400 and shape.json()["errors"][0]["path"] == "suits"
    # The table page sends its night's rules: a 两房 table's say "ps", so no `suits` is needed to refuse 万.
    two_suits = {"players": 3, "suits": "ps"}
    by_rules = post_json(api_client(), "/api/analyse/", {"tiles": "1112345678999m", "ready": True, "rules": two_suits},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert by_rules.status_code == 400 and by_rules.json() == bad.json()
    assert post_json(api_client(), "/api/analyse/", {"tiles": "1112345678999p", "ready": True,
                                                     "rules": two_suits}).json()["waits"] == ok["waits"]
    assert post_json(api_client(), "/api/analyse/", {"tiles": "1112345678999m", "ready": True, "rules": {}}).status_code == 200


# ---- the ledger ------------------------------------------------------------------------------

NIGHT = {"title": "周六", "date": "2026-11-28", "base": "1", "players": ["甲", "乙", "丙", "丁"]}


@pytest.mark.parametrize("body", [{"rules": {"players": 3}}, {"preset": "san_ren_liang_fang"},
                                  {"preset": "liang_ren_liang_fang"}, {"preset": "xue_liu", "rules": {"players": 2}}])
def test_a_night_of_fewer_seats_needs_as_many_players_naming_the_field(owner, body):
    """Four names at a table of three or two seats: refused on `players`, saying how many; nothing is written."""
    en = post_json(api_client(owner), "/api/nights/", {**NIGHT, **body}, HTTP_ACCEPT_LANGUAGE="en")
    assert en.status_code == 400
    [error] = en.json()["errors"]
    seats = PRESETS.get(body.get("preset", "chengdu"), {}).get("players", 4)
    seats = body.get("rules", {}).get("players", seats)
    assert error["path"] == "players"
    assert error["message"] == f"this is a table of {seats}: it needs {seats} different players"
    zh = post_json(api_client(owner), "/api/nights/", {**NIGHT, **body})
    assert zh.json()["errors"][0]["message"] == f"这一桌是 {seats} 人桌：需要 {seats} 位不同的玩家"
    assert Night.objects.count() == 0
    made = post_json(api_client(owner), "/api/nights/", {**NIGHT, **body, "players": NIGHT["players"][:seats]})
    assert made.status_code == 201, made.json()
    assert made.json()["seats"] == NIGHT["players"][:seats] and made.json()["rules"]["players"] == seats


def test_the_night_form_seats_as_many_as_the_rules_players(owner):
    client = Client()
    client.force_login(owner)
    data = {"title": "周六夜", "date": "2026-11-28", "venue": "", "player_0": "张三", "player_1": "李四",
            "player_2": "王五", "player_3": "新人", "first_dealer": "0", "base": "1", "stake": "points", "currency": "",
            "preset": "san_ren_san_fang", "scorekeepers": "", "members": "",
            "rule_kong_direct": "2", "rule_kong_added": "1", "rule_kong_concealed": "2", "rule_gang_shang_hua_fan": "1",
            "rule_qiang_gang_hu_fan": "0", "rule_robbable_kongs": "added", "rule_self_draw_bonus": "none",
            "rule_max_fan": "", "rule_cha_jiao": "min", "rule_kong_refund": "on", "rule_hua_zhu_fan": "",
            "rule_hai_di_fan": "0", "rule_jin_gou_diao_fan": "0", "rule_dealer_when_no_winner": "stay"}
    # Without the field the preset's own value (3) applies: three seats, the fourth name is not seated.
    response = client.post("/nights/new/", data)
    assert response.status_code == 302
    night = Night.objects.get()
    assert night.seat_names == ["张三", "李四", "王五"] and night.rules["players"] == 3
    # Two seats chosen on the form: the dealer must sit at the table, and seats 0 and 1 must be filled.
    response = client.post("/nights/new/", {**data, "rule_players": "2", "first_dealer": "2", "player_1": ""})
    assert response.status_code == 200 and Night.objects.count() == 1
    assert {"first_dealer", "player_1"} <= set(response.context["form"].errors)
    # Four seats, 血流成河, two suits: a night of four.
    response = client.post("/nights/new/", {**data, "preset": "xue_liu", "rule_suits": "ps"})
    night = Night.objects.latest("id")
    assert response.status_code == 302 and night.seat_names == ["张三", "李四", "王五", "新人"]
    assert (night.rules["mode"], night.rules["players"], night.rules["suits"]) == ("xue_liu", 4, "ps")


def test_every_preset_makes_a_night_of_its_seats(owner):
    for name, values in PRESETS.items():
        seats = values.get("players", 4)
        response = post_json(api_client(owner), "/api/nights/",
                             {**NIGHT, "title": name, "preset": name, "players": NIGHT["players"][:seats]})
        assert response.status_code == 201, (name, response.json())
        assert len(response.json()["seats"]) == seats


def test_a_blood_river_night_records_repeated_winners_and_totals(owner):
    client = api_client(owner)
    night = post_json(client, "/api/nights/", {**NIGHT, "preset": "xue_liu"}).json()
    # The golden hand of test_xue_liu: P0 wins three times, P0 and P1 deal in after winning.
    hand = {"events": [win(None, w(0)), kong(0, "concealed"), win(None, w(0, "dui_dui_hu", 1, ["gang_shang_hua"])),
                       win(0, w(1, "qing_yi_se")), win(1, w(0, "ping_hu", 1)), win(None, w(2))],
            "exhausted": True, "ready": {"0": {"fan": 1}, "1": {"fan": 2}, "2": {"fan": 0}}}
    preview = post_json(client, f"/api/nights/{night['id']}/preview/", hand)
    assert preview.status_code == 200, preview.json()
    recorded = post_json(client, f"/api/nights/{night['id']}/hands/", hand)
    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["result"]["net"] == ["32", "-6", "-7", "-19"]
    assert len(recorded.json()["lines"]) >= 5
    totals = client.get(f"/api/nights/{night['id']}/totals/").json()
    assert [t["amount"] for t in totals["totals"]] == ["32", "-6", "-7", "-19"] and totals["next_dealer"] == 0
    # A 血流 hand without the wall exhausted is refused, and nothing is written.
    bad = post_json(client, f"/api/nights/{night['id']}/hands/", {"events": [win(None, w(0))]}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "exhausted"
    assert Night.objects.get(pk=night["id"]).hands.count() == 1
    # The reports and statistics read the hand with its repeated winner.
    assert client.get(f"/api/nights/{night['id']}/hands/").status_code == 200


def test_a_first_win_and_a_two_suit_night_through_the_ledger(owner):
    client = api_client(owner)
    first = post_json(client, "/api/nights/", {**NIGHT, "preset": "biao_zhun_xia_yu"}).json()
    done = post_json(client, f"/api/nights/{first['id']}/hands/", {"events": [win(0, w(1, "qing_yi_se"), w(3))]})
    assert done.status_code == 201 and done.json()["result"]["next_dealer"] == 0
    after = post_json(client, f"/api/nights/{first['id']}/hands/",
                      {"events": [win(0, w(1)), win(None, w(2))]}, HTTP_ACCEPT_LANGUAGE="en")
    assert after.status_code == 400 and after.json()["errors"] == [
        {"path": "events[1]", "message": "at this table the first win ends the hand (first_win): no event may follow"}]
    two = post_json(client, "/api/nights/", {**NIGHT, "title": "两房", "preset": "si_ren_liang_fang"}).json()
    wan = post_json(client, f"/api/nights/{two['id']}/hands/",
                    {"events": [win(0, {"player": 1, "tiles": "11122233355566m"})], "exhausted": True},
                    HTTP_ACCEPT_LANGUAGE="en")
    assert wan.status_code == 400 and wan.json()["errors"][0]["path"] == "events[0].winners[0].tiles"
    assert Night.objects.get(pk=two["id"]).hands.count() == 0


def test_a_groups_default_rules_may_seat_three(owner, group):
    from ledger.services import groups

    group = groups.group_set_defaults(group=group, by=owner, preset="san_ren_liang_fang")
    assert groups.group_night_defaults(group)["preset"] == "san_ren_liang_fang"
    group = groups.group_set_defaults(group=group, by=owner, preset="xue_liu", rules={"suits": "ps"})
    assert groups.group_night_defaults(group)["preset"] == "xue_liu"
    assert groups.group_night_defaults(group)["rule_overrides"] == {"suits": "ps"}
