"""Stored nets and the cached settlement (issue 10): totals in one aggregate, the plan computed once per change."""
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger import selectors, services
from ledger.models import HandRevision, Night, Payment

from .hand_helpers import kong, w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}
DISCARD = {"events": [kong(2, "concealed"), win(0, w(3, "dui_dui_hu"))], "exhausted": True}


def sums_of_payments(night):
    expected: dict[str, Decimal] = {}
    for p in Payment.objects.filter(revision__hand__night=night).counted().select_related("payer", "payee"):
        expected[p.payer.name] = expected.get(p.payer.name, Decimal(0)) - p.amount
        expected[p.payee.name] = expected.get(p.payee.name, Decimal(0)) + p.amount
    return {name: amount for name, amount in expected.items() if amount}


def totals(night):
    return {t.player.name: t.amount for t in selectors.night_totals(night) if t.amount}


@pytest.fixture
def settle_calls(monkeypatch):
    calls = []
    real = selectors.settle_night_plan

    def counting(nets):
        calls.append(nets)
        return real(nets)

    monkeypatch.setattr(selectors, "settle_night_plan", counting)
    return calls


def test_each_revision_stores_its_four_nets(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    revision = hand.current
    assert [revision.net_0, revision.net_1, revision.net_2, revision.net_3] == [-16, 48, -16, -16]
    assert [str(n.normalize()) for n in (revision.net_0, revision.net_1, revision.net_2, revision.net_3)] \
        == revision.result["net"]


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


def test_the_settlement_is_computed_once_and_then_read_from_the_night(night, owner, settle_calls):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    first = selectors.night_settlement(night)
    again = selectors.night_settlement(night)
    assert len(settle_calls) == 1
    assert [(t.payer.name, t.payee.name, t.amount) for t in again] == \
           [(t.payer.name, t.payee.name, t.amount) for t in first]
    assert Night.objects.get(pk=night.pk).totals_cache["audit"] == night.audit.latest("id").pk


@pytest.mark.parametrize("change", ["record", "correct", "void", "seat change"])
def test_the_cached_settlement_is_invalidated_by(change, night, owner, settle_calls):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    before = [(t.payer.name, t.payee.name, t.amount) for t in selectors.night_settlement(night)]
    selectors.night_settlement(night)
    assert len(settle_calls) == 1
    if change == "record":
        services.hand_record(night=night, by=owner, entry=DISCARD)
    elif change == "correct":
        services.hand_correct(hand=hand, by=owner, entry=DISCARD, reason="看错了")
    elif change == "void":
        services.hand_void(hand=hand, by=owner, reason="undo")
    else:
        services.seat_change(night=night, by=owner, seat=1, player=services.player_get_or_create(name="孙七", group=night.group))
    after = [(t.payer.name, t.payee.name, t.amount) for t in selectors.night_settlement(night)]
    assert len(settle_calls) == 2
    if change != "seat change":  # a substitute changes who sits, not who owes
        assert after != before
    selectors.night_settlement(night)
    assert len(settle_calls) == 2


def test_a_failed_write_does_not_invalidate_the_settlement(night, owner, settle_calls):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    selectors.night_settlement(night)
    with pytest.raises(Exception):
        services.hand_record(night=night, by=owner, entry={"events": [{"type": "chi"}]})
    selectors.night_settlement(night)
    assert len(settle_calls) == 1


def test_the_migration_fills_the_nets_of_existing_revisions_from_their_payments(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_record(night=night, by=owner, entry=DISCARD)
    HandRevision.objects.update(net_0=0, net_1=0, net_2=0, net_3=0)
    migration = __import__("ledger.migrations.0004_stored_nets_and_cached_totals", fromlist=["fill_nets"])
    migration.fill_nets(apps, None)
    for revision in HandRevision.objects.all():
        assert [format(n.normalize(), "f") for n in (revision.net_0, revision.net_1, revision.net_2, revision.net_3)] \
            == revision.result["net"]


def test_an_unchanged_nights_totals_and_settlement_are_read_in_one_query(night, owner):
    for _ in range(3):
        services.hand_record(night=night, by=owner, entry=DISCARD)
    summary = selectors.night_summary(night)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.night_summary(night) == summary
    assert len(queries) == 1
    assert sum(summary.nets.values()) == 0 and summary.transfers and summary.method == "exact"


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


def summary_now(night):
    """The summary as a reader recomputing the whole night would find it."""
    computed = selectors._compute_summary(Night.objects.get(pk=night.pk))
    return computed.nets, computed.transfers, computed.method


def test_recording_a_hand_brings_a_current_summary_up_to_date_so_no_reader_sums_the_night_again(
        night, owner, settle_calls):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    selectors.night_summary(night)  # a reader makes the cache
    for entry in [DISCARD, SELF_DRAW, DISCARD, DISCARD, SELF_DRAW]:
        planned = len(settle_calls)
        services.hand_record(night=night, by=owner, entry=entry)
        with CaptureQueriesContext(connection) as queries:
            summary = selectors.night_summary(night)
        assert len(queries) == 1  # the cache, current: the writer brought it up to its hand
        assert len(settle_calls) == planned + 1  # planned once, by the writer
        assert (summary.nets, summary.transfers, summary.method) == summary_now(night)
    assert Night.objects.get(pk=night.pk).totals_cache["audit"] == night.audit.latest("id").pk


def test_a_night_with_a_table_fee_or_a_substitute_with_a_total_is_summed_again_by_the_next_reader(
        night, owner, players, settle_calls):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.seat_change(night=night, by=owner, seat=1, player=services.player_get_or_create(name="孙七", group=night.group))
    selectors.night_summary(night)
    services.hand_record(night=night, by=owner, entry=DISCARD)  # 李四 has a total and no seat
    with CaptureQueriesContext(connection) as queries:
        summary = selectors.night_summary(night)
    assert len(queries) > 1 and (summary.nets, summary.transfers, summary.method) == summary_now(night)

    fee_night = services.night_create(owner=owner, title="有台费", date=night.date, base=Decimal(2), players=players,
                                      first_dealer=0, fee={"mode": "per_player", "amount": "5"})
    services.hand_record(night=fee_night, by=owner, entry=SELF_DRAW)
    selectors.night_summary(fee_night)
    services.hand_record(night=fee_night, by=owner, entry=DISCARD)
    with CaptureQueriesContext(connection) as queries:
        summary = selectors.night_summary(fee_night)
    assert len(queries) > 1 and summary.fee == Decimal(20)
