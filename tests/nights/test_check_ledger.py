"""`manage.py check_ledger` (issue 9): re-scores every stored revision and finds what differs."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ledger.services import nights as services
from ledger.models import Hand, HandRevision, SeatResult

from tests.harden_helpers import EXHAUSTED, THREE_SELF_DRAWS


def run(*args):
    out = StringIO()
    call_command("check_ledger", *args, stdout=out)
    return out.getvalue()


def test_the_demo_data_checks_clean(db):
    call_command("demo", stdout=StringIO())
    # tonight 20, last week 6 + 6, the evening of two table shapes (三人两房 4, 血流成河 2)
    assert run().startswith("ledger OK: 5 nights, 38 hands")


def test_corrections_and_voids_check_clean(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    services.hand_correct(hand=hand, by=owner, entry=EXHAUSTED, reason="记错")
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    services.hand_void(hand=Hand.objects.get(night=night, number=2), by=owner, reason="重复")
    assert "3 revisions" in run()


def test_a_changed_seat_result_is_found_with_its_night_and_hand(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    row = SeatResult.objects.order_by("pk").first()
    SeatResult.objects.filter(pk=row.pk).update(net=row.net + 1)
    with pytest.raises(CommandError) as error:
        run()
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_ledger", stdout=out)
    assert f"night {night.pk} hand 1 revision 1: seat result rows differ" in out.getvalue()
    assert f"night {night.pk}: totals of the seat result rows differ from the stored results" in out.getvalue()
    assert "differences" in str(error.value)


def test_a_result_that_no_longer_matches_its_record_is_found(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    revision = HandRevision.objects.get()
    revision.record = {**revision.record, "base": "3"}
    revision.save(update_fields=["record"])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_ledger", stdout=out)
    assert "result differs when re-scored (net, payments" in out.getvalue()


def test_a_gap_in_hand_numbers_is_found(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    Hand.objects.filter(night=night).update(number=2)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_ledger", stdout=out)
    assert "hand numbers are not 1..1" in out.getvalue()


def test_a_result_whose_net_does_not_sum_to_zero_is_found(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    revision = HandRevision.objects.get()
    revision.result = {**revision.result, "net": ["1", "0", "0", "0"]}
    revision.save(update_fields=["result"])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_ledger", stdout=out)
    assert "net does not sum to zero" in out.getvalue() and "totals do not sum to zero (1)" in out.getvalue()
