"""A night's totals: one aggregate over the seat results that count, equal to the payments (issue 10, 17)."""
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger.selectors import nights as selectors
from ledger.services import nights as services
from ledger.models import HandRevision, SeatResult

from tests.factories import stored_payments
from tests.hand_helpers import kong, w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}
DISCARD = {"events": [kong(2, "concealed"), win(0, w(3, "dui_dui_hu"))], "exhausted": True}


def sums_of_payments(night):
    expected: dict[str, Decimal] = {}
    counted = HandRevision.objects.filter(hand__night=night, is_current=True, hand__status="recorded")
    for payer, payee, amount in stored_payments(counted):
        expected[payer.name] = expected.get(payer.name, Decimal(0)) - amount
        expected[payee.name] = expected.get(payee.name, Decimal(0)) + amount
    return {name: amount for name, amount in expected.items() if amount}


def totals(night):
    return {t.player.name: t.amount for t in selectors.night_totals(night) if t.amount}


def test_each_seat_result_holds_its_seats_net(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    revision = hand.current
    nets = list(SeatResult.objects.filter(revision=revision).order_by("seat").values_list("net", flat=True))
    assert nets == [-16, 48, -16, -16]
    assert [str(n.normalize()) for n in nets] == revision.result["net"]


def test_totals_are_one_aggregate_query_and_equal_the_payments_through_corrections_voids_and_substitutes(
        night, owner, players):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    second = services.hand_record(night=night, by=owner, entry=DISCARD)
    services.hand_correct(hand=second, by=owner, entry=SELF_DRAW, reason="看错了")
    voided = services.hand_record(night=night, by=owner, entry=DISCARD)
    services.hand_void(hand=voided, by=owner, reason="undo")
    services.seat_change(night=night, by=owner, seat=2, player=services.player_get_or_create(name="孙七", group=night.group))
    services.hand_record(night=night, by=owner, entry=DISCARD)
    with CaptureQueriesContext(connection) as queries:
        nets = selectors.night_nets(night)
    assert len(queries) == 1
    assert sum(nets.values()) == 0
    assert totals(night) == sums_of_payments(night)
    assert totals(night)["王五"] != 0
    assert [t.player.name for t in selectors.night_totals(night)][:4] == ["张三", "李四", "孙七", "赵六"]


@pytest.mark.django_db(transaction=True)
def test_a_night_restored_from_its_backup_has_the_same_totals(night, owner):
    import json

    from django.core.management import call_command

    from ledger.reports import night_report, render
    from ledger.reports.backup import import_night

    for entry in (SELF_DRAW, DISCARD, DISCARD):
        services.hand_record(night=night, by=owner, entry=entry)
    before = totals(night)
    document = json.loads(render("json", night_report(night), "zh")[2])
    call_command("flush", interactive=False, verbosity=0)
    restored = import_night(document).night
    assert totals(restored) == before and before


def test_a_fee_nights_summary_follows_each_new_hand(night, owner, players):
    fee_night = services.night_create(owner=owner, title="有台费", date=night.date, base=Decimal(2), players=players,
                                      first_dealer=0, fee={"mode": "per_player", "amount": "5"})
    services.hand_record(night=fee_night, by=owner, entry=SELF_DRAW)
    first = selectors.night_summary(fee_night)
    services.hand_record(night=fee_night, by=owner, entry=DISCARD)
    summary = selectors.night_summary(fee_night)
    assert summary.fee == Decimal(20) and summary.nets != first.nets
    assert sum(summary.nets.values()) + summary.fee == 0
