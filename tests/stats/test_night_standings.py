"""The night standings (one row per night and player, what statistics add up) stay equal to what they sum after
every kind of change, in any order: hands recorded, corrected and voided, seats changed, penalties and
adjustments, nights closed with a fee (a property test), and a merge of two names; a restored backup is checked in
tests/reports/test_reports_backup.py, parallel writers in tests/nights/test_concurrent_saves.py."""
import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from ledger.models import Hand, NightStanding
from ledger.selectors.nights import night_adjustment_nets, night_nets
from ledger.selectors.stats import group_leaderboard, nights_played
from ledger.services import nights as services
from ledger.services import standings
from ledger.services.adjustments import adjustment_correct, adjustment_record, adjustment_void
from ledger.services.groups import group_create, player_merge

from tests.hand_helpers import w, win

ENTRIES = [
    {"events": [win(1, w(0, "qing_yi_se"), w(2), w(3))]},  # 一炮三响
    {"events": [win(None, w(0, "dui_dui_hu")), win(2, w(1)), win(None, w(3))]},
    {"events": [win(3, w(2, "qi_dui"), w(0), w(1))]},
    {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True},
]

#: One step of a night: (what, which entry or row, which seat) drawn by hypothesis.
STEPS = st.lists(st.tuples(st.sampled_from(["record", "record", "correct", "void", "seat", "penalty", "transfer",
                                            "adjust", "unadjust"]),
                           st.integers(0, len(ENTRIES) - 1), st.integers(0, 3)), min_size=1, max_size=12)


def assert_kept_right(*nights):
    assert standings.differences([n.pk for n in nights]) == []


def apply(step, night, owner, bench):
    what, i, seat = step
    hands = list(night.hands.filter(status=Hand.Status.RECORDED).order_by("number"))
    adjustments = list(night.adjustments.filter(status=Hand.Status.RECORDED).order_by("number"))
    if what == "record":
        services.hand_record(night=night, by=owner, entry=ENTRIES[i])
    elif what == "correct" and hands:
        services.hand_correct(hand=hands[i % len(hands)], by=owner, entry=ENTRIES[(i + 1) % len(ENTRIES)],
                              reason="记错了")
    elif what == "void" and hands:
        services.hand_void(hand=hands[i % len(hands)], by=owner, reason="重复")
    elif what == "seat":
        newcomer = bench[i % len(bench)]
        if not night.seating.filter(player=newcomer).exists():
            services.seat_change(night=night, by=owner, seat=seat, player=newcomer)
    elif what == "penalty":
        adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": seat})
    elif what == "transfer":
        adjustment_record(night=night, by=owner, data={"kind": "transfer", "from": seat, "to": (seat + 1) % 4,
                                                       "amount": f"{i + 1}.25", "reason": "迟到"})
    elif what == "adjust" and adjustments:
        adjustment_correct(adjustment=adjustments[i % len(adjustments)], by=owner, reason="改",
                           data={"kind": "transfer", "from": (seat + 2) % 4, "to": seat, "amount": "3",
                                 "reason": "改"})
    elif what == "unadjust" and adjustments:
        adjustment_void(adjustment=adjustments[i % len(adjustments)], by=owner, reason="不算")


@pytest.mark.django_db
@hypothesis_settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_after_any_sequence_of_changes_the_standings_equal_what_they_sum(steps, owner):
    # A group of its own for each example (hypothesis runs them all in the one test's transaction).
    group = group_create(by=owner, name=f"随机{uuid.uuid4().hex[:8]}")
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title="随机", date=dt.date(2026, 11, 27), base=Decimal("2"),
                                  players=players, first_dealer=0, fee={"mode": "per_player", "amount": "5"})
    bench = [services.player_get_or_create(name=n, group=group) for n in ("替补甲", "替补乙")]
    for step in steps:
        apply(step, night, owner, bench)
        assert_kept_right(night)
    services.night_close(night=night, by=owner)
    assert_kept_right(night)
    # What the statistics read from the standings is what the night's own totals say.
    nets, adjusted = night_nets(night), night_adjustment_nets(night)
    board = {s.player_id: s for s in group_leaderboard(group, None, None)}
    for player in [*players, *bench]:
        assert board[player.pk].net == nets.get(player.pk, Decimal(0)) + adjusted.get(player.pk, Decimal(0)) - sum(
            night.fee_shares.filter(player=player).values_list("amount", flat=True), Decimal(0))
        assert sum((n.hands for n in nights_played(player)), 0) == sum(
            1 for h in night.hands.filter(status=Hand.Status.RECORDED) if player in h.current.players)


def test_a_recorded_hand_moves_its_nights_lines_with_one_upsert_after_reading_them_with_the_seats(night, owner, players):
    services.hand_record(night=night, by=owner, entry=ENTRIES[0])
    with CaptureQueriesContext(connection) as queries:
        services.hand_record(night=night, by=owner, entry=ENTRIES[1])
    touching = [q["sql"] for q in queries.captured_queries if "ledger_nightstanding" in q["sql"]]
    assert len(touching) == 2
    assert touching[0].startswith("SELECT") and "ledger_seating" in touching[0]  # the seats, with their lines
    assert touching[1].startswith("INSERT") and "ON CONFLICT" in touching[1]
    lines = {s.player_id: s for s in NightStanding.objects.filter(night=night)}
    zhang = lines[players[0].pk]
    assert (zhang.hands, zhang.wins, zhang.self_draws) == (2, 2, 1)
    assert lines[players[1].pk].deal_in_hands == 1 and lines[players[2].pk].deal_in_hands == 1
    assert sum(s.hands_net for s in lines.values()) == 0
    assert_kept_right(night)


@pytest.mark.parametrize("then", ["record", "correct", "void"])
def test_a_missing_line_is_recomputed_rather_than_lost(night, owner, players, then):
    first = services.hand_record(night=night, by=owner, entry=ENTRIES[0])
    NightStanding.objects.filter(night=night, player=players[3]).delete()  # as if it had never been written
    if then == "record":
        services.hand_record(night=night, by=owner, entry=ENTRIES[1])
    elif then == "correct":
        services.hand_correct(hand=first, by=owner, entry=ENTRIES[1], reason="记错了")
    else:
        services.hand_void(hand=first, by=owner, reason="重复")
    assert NightStanding.objects.get(night=night, player=players[3]).hands == (2 if then == "record" else
                                                                                1 if then == "correct" else 0)
    assert_kept_right(night)


def test_a_merge_sums_both_names_lines_of_a_night(night, owner, group, players):
    alias = services.player_get_or_create(name="张三丰", group=group)
    services.hand_record(night=night, by=owner, entry=ENTRIES[0])
    services.seat_change(night=night, by=owner, seat=0, player=alias)
    services.hand_record(night=night, by=owner, entry=ENTRIES[1])
    services.night_close(night=night, by=owner)
    player_merge(source=alias, into=players[0], by=owner)
    assert_kept_right(night)
    [line] = NightStanding.objects.filter(night=night, player=players[0])
    assert line.hands == 2 and not NightStanding.objects.filter(player=alias).exists()
    assert next(s for s in group_leaderboard(group, None, None) if s.player_id == players[0].pk).hands == 2


def test_check_ledger_reports_a_standing_that_drifted(night, owner, players):
    services.hand_record(night=night, by=owner, entry=ENTRIES[0])
    NightStanding.objects.filter(night=night, player=players[0]).update(hands_net=Decimal("999"))
    with pytest.raises(Exception, match="differences"):
        call_command("check_ledger", stdout=open("/dev/null", "w"))
    standings.refresh([night.pk])
    call_command("check_ledger", stdout=open("/dev/null", "w"))
