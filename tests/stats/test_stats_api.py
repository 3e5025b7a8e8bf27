"""The statistics API (issue 11): a player's stats and a group's leaderboard, outsiders' 404, bad dates' 400."""
import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from scoring import format_amount

from ledger.services import nights as services
from ledger.models import FeeShare, GroupMember
from ledger.selectors.nights import night_nets

from tests.conftest import api_client
from tests.hand_helpers import w, win
from tests.factories import fee_shares

#: 张三 wins 清一色 and 王五, 赵六 平胡, all on 李四's discard (一炮三响); then 张三 self-draws 对对胡.
ONE_GUN_THREE = {"events": [win(1, w(0, "qing_yi_se"), w(2), w(3))]}
SELF_DRAW = {"events": [win(None, w(0, "dui_dui_hu"))], "exhausted": True}


@pytest.fixture
def tonight(owner, players):
    night = services.night_create(owner=owner, title="今晚", date=timezone.localdate(), base=Decimal("2"),
                                  players=players, first_dealer=0)
    services.hand_record(night=night, by=owner, entry=ONE_GUN_THREE)
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    return night


def test_a_players_stats_hold_totals_rates_series_biggest_hands_and_patterns(owner, tonight, players, group):
    fee_shares(tonight, {players[0]: Decimal("2.5")})
    hands_net = night_nets(tonight)[players[0].pk]
    net = hands_net - Decimal("2.5")
    body = api_client(owner).get(f"/api/players/{players[0].pk}/stats/").json()
    assert body["player"] == {"id": players[0].pk, "name": "张三", "group": {"id": group.pk, "name": group.name}}
    assert body["totals"] == {
        "nights": 1, "hands": 2, "wins": 2, "self_draws": 1, "deal_in_hands": 0, "win_rate": "1.0000",
        "self_draw_rate": "0.5000", "deal_in_rate": "0.0000", "hands_net": format_amount(hands_net),
        "fees": "2.5", "adjustments": "0", "net": format_amount(net)}
    assert body["nights"] == [{"night": tonight.pk, "date": tonight.date.isoformat(), "title": "今晚", "hands": 2,
                               "fee": "2.5", "net": format_amount(net), "cumulative": format_amount(net)}]
    assert body["nights_truncated"] is False
    assert [(b["pattern"], b["pattern_name"], b["number"], b["self_drawn"]) for b in body["biggest_hands"]] == [
        ("qing_yi_se", "清一色", 1, False), ("dui_dui_hu", "对对胡", 2, True)]
    assert body["favourite_patterns"] == [{"pattern": "dui_dui_hu", "pattern_name": "对对胡", "wins": 1},
                                          {"pattern": "qing_yi_se", "pattern_name": "清一色", "wins": 1}]


def test_the_discarders_deal_in_rate_counts_one_gun_three_winners_once(owner, tonight, players):
    totals = api_client(owner).get(f"/api/players/{players[1].pk}/stats/").json()["totals"]
    assert (totals["hands"], totals["deal_in_hands"], totals["deal_in_rate"]) == (2, 1, "0.5000")
    assert totals["self_draw_rate"] is None  # no wins: nothing to divide


def test_pattern_names_follow_the_requests_language(owner, tonight, players):
    body = api_client(owner).get(f"/api/players/{players[0].pk}/stats/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["biggest_hands"][0]["pattern_name"] == "Full flush"


def test_the_leaderboard_ranks_the_groups_players_by_net_after_fee_shares(owner, tonight, players, group):
    fee_shares(tonight, {p: Decimal(3) for p in players})
    nets = night_nets(tonight)
    body = api_client(owner).get(f"/api/groups/{group.pk}/leaderboard/").json()
    year = timezone.localdate().year
    assert (body["group"], body["date_from"], body["date_to"]) == (
        {"id": group.pk, "name": group.name}, f"{year}-01-01", f"{year}-12-31")
    standings = body["standings"]
    assert [s["rank"] for s in standings] == [1, 2, 3, 4]
    assert [Decimal(s["net"]) for s in standings] == sorted((nets[p.pk] - 3 for p in players), reverse=True)
    first = standings[0]
    assert first == {"rank": 1, "player": players[0].pk, "name": "张三", "net": format_amount(nets[players[0].pk] - 3),
                     "fees": "3", "nights": 1, "hands": 2, "wins": 2, "win_rate": "1.0000"}


def test_the_leaderboard_range_comes_from_the_query(owner, tonight, players, group):
    old = services.night_create(owner=owner, title="旧", date=dt.date(2019, 6, 1), base=Decimal("2"),
                                players=players, first_dealer=0)
    services.hand_record(night=old, by=owner, entry=SELF_DRAW)
    client = api_client(owner)
    in_2019 = client.get(f"/api/groups/{group.pk}/leaderboard/", {"from": "2019-01-01", "to": "2019-12-31"}).json()
    assert [s["hands"] for s in in_2019["standings"]] == [1, 1, 1, 1]
    everything = client.get(f"/api/groups/{group.pk}/leaderboard/", {"from": ""}).json()
    assert (everything["date_from"], everything["date_to"]) == (None, None)
    assert [s["hands"] for s in everything["standings"]] == [3, 3, 3, 3]
    until = client.get(f"/api/groups/{group.pk}/leaderboard/", {"to": "2019-06-01"}).json()
    assert (until["date_from"], until["date_to"]) == (None, "2019-06-01")
    assert [s["nights"] for s in until["standings"]] == [1, 1, 1, 1]


@pytest.mark.parametrize("params,path,message", [
    ({"from": "2026-13-01"}, "from", "the start date (from) must be a date as YYYY-MM-DD, e.g. 2026-01-31"),
    ({"to": "next week"}, "to", "the end date (to) must be a date as YYYY-MM-DD, e.g. 2026-01-31"),
    ({"from": "2026-W01-1"}, "from", "the start date (from) must be a date as YYYY-MM-DD, e.g. 2026-01-31"),
    ({"from": "2026-12-01", "to": "2026-11-30"}, "to", "the end date (to) must not be before the start date (from)"),
    ({"from": ["2026-01-01", "2026-02-01"]}, "from", "the start date (from) may be given only once"),
])
def test_a_bad_date_range_is_a_400_naming_the_parameter(owner, group, params, path, message):
    response = api_client(owner).get(f"/api/groups/{group.pk}/leaderboard/", params, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json() == {"errors": [{"path": path, "message": message}]}


def test_a_bad_date_is_explained_in_chinese_by_default(owner, group):
    response = api_client(owner).get(f"/api/groups/{group.pk}/leaderboard/", {"from": "明天"})
    assert response.json() == {"errors": [{"path": "from", "message": "开始日期（from）应为日期，格式 YYYY-MM-DD，如 2026-01-31"}]}


@pytest.mark.parametrize("path", ["/api/players/{player}/stats/", "/api/groups/{group}/leaderboard/"])
def test_an_outsider_of_the_group_gets_404(outsider, tonight, players, group, path):
    response = api_client(outsider).get(path.format(player=players[0].pk, group=group.pk))
    assert response.status_code == 404
    assert response.json()["errors"][0]["path"] == ""


@pytest.mark.parametrize("path", ["/api/players/{player}/stats/", "/api/groups/{group}/leaderboard/"])
def test_a_member_of_one_night_only_gets_404_too(viewer, tonight, players, group, path):
    assert api_client(viewer).get(path.format(player=players[0].pk, group=group.pk)).status_code == 404


@pytest.mark.parametrize("path", ["/api/players/{player}/stats/", "/api/groups/{group}/leaderboard/"])
def test_a_plain_member_of_the_group_may_read(viewer, tonight, players, group, path):
    GroupMember.objects.create(group=group, user=viewer, role=GroupMember.Role.MEMBER)
    assert api_client(viewer).get(path.format(player=players[0].pk, group=group.pk)).status_code == 200


@pytest.mark.parametrize("path", ["/api/players/{player}/stats/", "/api/groups/{group}/leaderboard/"])
def test_an_anonymous_caller_is_refused(tonight, players, group, path):
    assert api_client().get(path.format(player=players[0].pk, group=group.pk)).status_code in (401, 403)


def test_the_schema_documents_both_endpoints_and_the_range_parameters(owner):
    schema = api_client(owner).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    board = schema["paths"]["/api/groups/{id}/leaderboard/"]["get"]
    assert {p["name"] for p in board["parameters"]} >= {"from", "to"}
    assert "400" in board["responses"] and "404" in board["responses"]
    assert "/api/players/{id}/stats/" in schema["paths"]
