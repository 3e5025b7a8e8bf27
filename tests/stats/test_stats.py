"""Player history and group leaderboards (issue 11): what the aggregates count, on a small night built by hand."""
import datetime as dt
from decimal import Decimal

import pytest

from ledger.services import nights as services
from ledger.models import FeeShare, Hand, SeatResult
from ledger.selectors.nights import night_nets
from ledger.selectors.stats import CHART_NIGHTS, group_leaderboard, nights_played, player_history

from tests.hand_helpers import w, win
from tests.factories import fee_shares

#: 1: 李四 deals into three winners at once (一炮三响); 2: 张三 and 赵六 self-draw, 李四 wins on 王五's discard;
#: 3: voided; 4: recorded as 七对 for 王五, then corrected to 平胡 (counted once, as corrected).
ONE_GUN_THREE = {"events": [win(1, w(0, "qing_yi_se"), w(2), w(3))]}
SELF_DRAWS = {"events": [win(None, w(0, "dui_dui_hu")), win(2, w(1)), win(None, w(3))]}
VOIDED = {"events": [win(0, w(1, "qing_long_qi_dui"), w(2), w(3))]}
BEFORE_CORRECTION = {"events": [win(3, w(2, "qi_dui"), w(0), w(1))]}
AFTER_CORRECTION = {"events": [win(3, w(2, "ping_hu"), w(0), w(1))]}


@pytest.fixture
def played(night, owner):
    """The night above, with its four hands (one voided, one corrected)."""
    services.hand_record(night=night, by=owner, entry=ONE_GUN_THREE)
    services.hand_record(night=night, by=owner, entry=SELF_DRAWS)
    voided = services.hand_record(night=night, by=owner, entry=VOIDED)
    services.hand_void(hand=voided, by=owner, reason="记错了")
    corrected = services.hand_record(night=night, by=owner, entry=BEFORE_CORRECTION)
    services.hand_correct(hand=corrected, by=owner, entry=AFTER_CORRECTION, reason="是平胡")
    return night


def by_name(players):
    return {p.name: p for p in players}


def test_wins_self_draws_and_deal_ins_are_counted_over_the_hands_that_count(played, players):
    p = by_name(players)
    zhang = player_history(p["张三"]).totals
    assert (zhang.nights, zhang.hands, zhang.wins, zhang.self_draws, zhang.deal_in_hands) == (1, 3, 3, 1, 0)
    assert zhang.win_rate == Decimal(1) and zhang.self_draw_rate == Decimal(1) / 3 and zhang.deal_in_rate == 0


def test_one_gun_many_winners_is_one_deal_in_hand_for_the_discarder(played, players):
    li = player_history(by_name(players)["李四"]).totals
    assert (li.hands, li.wins, li.self_draws, li.deal_in_hands) == (3, 2, 0, 1)
    assert li.deal_in_rate == Decimal(1) / 3 and li.self_draw_rate == Decimal(0)
    zhao = player_history(by_name(players)["赵六"]).totals
    assert zhao.deal_in_hands == 1  # hand 4, where three won on one discard


def test_a_voided_hand_is_left_out_and_a_corrected_one_counts_once_as_corrected(played, players):
    wang = player_history(by_name(players)["王五"])
    assert (wang.totals.hands, wang.totals.wins) == (3, 2)
    assert {f.pattern: f.wins for f in wang.favourites} == {"ping_hu": 2}  # not 七对: corrected to 平胡
    li = by_name(players)["李四"]
    assert SeatResult.objects.filter(player=li, pattern="qing_long_qi_dui").exists()  # stored, but voided
    assert "qing_long_qi_dui" not in {f.pattern for f in player_history(li).favourites}
    assert "qing_long_qi_dui" not in {b.pattern for b in player_history(li).biggest}


def test_nets_are_the_nights_nets(played, players):
    nets = night_nets(played)
    for player in players:
        history = player_history(player)
        assert history.totals.net == nets[player.pk]
        assert [(pt.night_id, pt.hands, pt.net, pt.cumulative) for pt in history.series] == [
            (played.pk, 3, nets[player.pk], nets[player.pk])]
    assert sum(nets.values()) == 0


def test_fee_shares_are_subtracted_from_nets_everywhere(played, players):
    zhang = by_name(players)["张三"]
    hands_net = night_nets(played)[zhang.pk]
    fee_shares(played, {zhang: Decimal("12.5")})
    history = player_history(zhang)
    assert history.totals.net == hands_net - Decimal("12.5")
    assert history.series[-1].net == history.series[-1].cumulative == hands_net - Decimal("12.5")
    [night] = nights_played(zhang)
    assert (night.hands, night.fee, night.net) == (3, Decimal("12.5"), hands_net - Decimal("12.5"))
    standing = next(s for s in group_leaderboard(played.group, None, None) if s.player_id == zhang.pk)
    assert standing.net == hands_net - Decimal("12.5") and standing.fees == Decimal("12.5")


def test_biggest_hands_come_by_fan_then_amount_with_night_and_number(played, players):
    zhang = player_history(by_name(players)["张三"])
    top = zhang.biggest[0]
    assert (top.pattern, top.number, top.night_id, top.self_drawn) == ("qing_yi_se", 1, played.pk, False)
    assert [b.fan for b in zhang.biggest] == sorted((b.fan for b in zhang.biggest), reverse=True)
    assert len(zhang.biggest) == 3


def test_a_player_who_never_played_has_empty_history(group):
    newcomer = services.player_get_or_create(name="新人", group=group)
    history = player_history(newcomer)
    assert history.totals.hands == 0 and history.totals.net == 0
    assert history.totals.win_rate is None and history.totals.self_draw_rate is None
    assert history.series == [] and history.biggest == [] and history.favourites == []


def test_the_leaderboard_orders_the_group_by_net_and_counts_nights_hands_and_wins(played, players, owner):
    second = services.night_create(owner=owner, title="周六夜", date=dt.date(2026, 11, 28), base=Decimal("2"),
                                   players=players, first_dealer=0)
    services.hand_record(night=second, by=owner, entry=SELF_DRAWS)
    board = group_leaderboard(played.group, None, None)
    nets = [s.net for s in board]
    assert nets == sorted(nets, reverse=True) and sum(nets) == 0
    zhang = next(s for s in board if s.name == "张三")
    assert (zhang.nights, zhang.hands, zhang.wins, zhang.win_rate) == (2, 4, 4, Decimal(1))
    wang = next(s for s in board if s.name == "王五")
    assert (wang.nights, wang.hands, wang.wins, wang.win_rate) == (2, 4, 2, Decimal("0.5"))


def test_the_leaderboard_takes_only_the_nights_in_the_date_range(played, players, owner):
    later = services.night_create(owner=owner, title="下个月", date=dt.date(2026, 12, 5), base=Decimal("2"),
                                  players=players, first_dealer=0)
    services.hand_record(night=later, by=owner, entry=SELF_DRAWS)
    fee_shares(later, {players[0]: Decimal(3)})
    november = {s.name: s for s in group_leaderboard(played.group, dt.date(2026, 11, 1), dt.date(2026, 11, 30))}
    december = {s.name: s for s in group_leaderboard(played.group, dt.date(2026, 12, 1), None)}
    assert november["张三"].hands == 3 and november["张三"].fees == 0
    assert december["张三"].hands == 1 and december["张三"].fees == 3 and december["张三"].nights == 1
    nets = night_nets(played)
    assert november["李四"].net == nets[players[1].pk]


def test_the_leaderboard_lists_players_who_did_not_play_with_zeros_but_not_merged_ones(played, group, players):
    newcomer = services.player_get_or_create(name="新人", group=group)
    gone = services.player_get_or_create(name="旧名", group=group)
    gone.merged_into = players[0]
    gone.save()
    names = [s.name for s in group_leaderboard(group, None, None)]
    assert "新人" in names and "旧名" not in names
    assert next(s for s in group_leaderboard(group, None, None) if s.name == "新人").nights == 0
    assert newcomer.pk


def test_the_chart_series_keeps_the_latest_nights_and_ends_at_the_players_net(group, players, owner, settings,
                                                                           monkeypatch):
    monkeypatch.setattr("ledger.selectors.stats.CHART_NIGHTS", 3)
    for day in range(1, 6):
        night = services.night_create(owner=owner, title=f"第{day}夜", date=dt.date(2026, 10, day),
                                      base=Decimal("2"), players=players, first_dealer=0)
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(0))], "exhausted": True})
    history = player_history(players[0])
    assert history.series_truncated
    assert [p.title for p in history.series] == ["第3夜", "第4夜", "第5夜"]
    assert history.series[-1].cumulative == history.totals.net
    assert history.series[0].cumulative == history.totals.net * 3 / 5
    assert CHART_NIGHTS == 200


def test_hands_of_an_open_night_count_before_it_closes(played):
    assert played.is_closed is False
    assert Hand.objects.filter(night=played, status=Hand.Status.RECORDED).count() == 3


def test_a_biggest_hand_says_what_made_its_fan(night, owner, players):
    """A walk: "平胡 · 3 番 · 自摸" said nothing of the root and the 杠上花 that made the fan. The history says the win as
    the hand list does: 平胡 带1根 杠上花."""
    from django.test import Client
    from django.urls import reverse
    from tests.hand_helpers import kong
    entry = {"events": [kong(0, "concealed"), win(None, w(0, "ping_hu", 1, ["gang_shang_hua"]))], "exhausted": True}
    services.hand_record(night=night, by=owner, entry=entry)
    [top] = player_history(by_name(players)["张三"]).biggest
    assert (top.pattern, top.roots, top.flags, top.fan) == ("ping_hu", 1, ("gang_shang_hua",), 2)
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("player-history", args=[by_name(players)["张三"].pk])).content.decode()
    assert "<strong>平胡 带1根 杠上花</strong> · 2番 · 自摸" in page
    assert "<h2>番数最大的几手</h2>" in page  # ordered by fan, and said so (a walk read it as by amount)
