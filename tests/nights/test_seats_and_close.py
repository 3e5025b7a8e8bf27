"""Seats and closing (issue 9, holes 2 and 8): one seat per player, one close, both under the night's lock."""
import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger.services import nights as services
from ledger.models import AuditEntry, Night, Seating
from ledger.selectors.nights import night_totals

from tests.harden_helpers import in_parallel, on_postgresql


def test_the_database_refuses_a_player_in_two_seats_of_one_night(night, players):
    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.filter(night=night, seat=3).update(player=players[0])


def test_the_database_refuses_two_players_in_one_seat(night, players):
    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.create(night=night, seat=0, player=services.player_get_or_create(name="新人", group=night.group))


def test_a_seat_change_to_a_seated_player_is_refused(night, owner, players):
    with pytest.raises(ValidationError) as error:
        services.seat_change(night=night, by=owner, seat=0, player=players[1])
    assert "player" in error.value.message_dict
    assert [s.player.name for s in night.seating.all()] == ["张三", "李四", "王五", "赵六"]


def test_a_seat_change_to_the_player_already_there_changes_nothing(night, owner, players):
    services.seat_change(night=night, by=owner, seat=0, player=players[0])
    assert AuditEntry.objects.filter(action="seat_changed").count() == 0


def _night(owner, players):
    return services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal(2),
                                 players=players, first_dealer=0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not on_postgresql, reason="SQLite's in-memory test database cannot take parallel writers")
def test_twenty_parallel_seat_changes_never_seat_a_player_twice(owner, players):
    night = _night(owner, players)
    newcomer = services.player_get_or_create(name="新人", group=night.group)
    results = in_parallel([lambda s=s: services.seat_change(night=night, by=owner, seat=s % 4, player=newcomer)
                           for s in range(20)])
    assert not [r for r in results if not isinstance(r, (Night, ValidationError))], results
    seated = list(Seating.objects.filter(night=night).values_list("player__name", flat=True))
    assert seated.count("新人") == 1 and len(seated) == len(set(seated)) == 4
    assert AuditEntry.objects.filter(night=night, action="seat_changed").count() == 1
    assert len(night_totals(night)) == 4


def test_seat_changes_one_after_another_never_seat_a_player_twice(night, owner):
    newcomer = services.player_get_or_create(name="新人", group=night.group)
    outcomes = []
    for seat in [0, 1, 2, 3] * 5:
        try:
            services.seat_change(night=night, by=owner, seat=seat, player=newcomer)
            outcomes.append((seat, "ok"))
        except ValidationError:
            outcomes.append((seat, "refused"))
    seated = list(Seating.objects.filter(night=night).values_list("player__name", flat=True))
    assert seated == ["新人", "李四", "王五", "赵六"]
    assert {outcome for seat, outcome in outcomes if seat != 0} == {"refused"}
    assert AuditEntry.objects.filter(night=night, action="seat_changed").count() == 1


def test_closing_twice_writes_one_audit_entry_and_keeps_the_first_time(night, owner):
    services.night_close(night=night, by=owner)
    first = Night.objects.get(pk=night.pk).closed_at
    services.night_close(night=night, by=owner)
    assert Night.objects.get(pk=night.pk).closed_at == first
    assert AuditEntry.objects.filter(night=night, action="night_closed").count() == 1


def test_closed_at_is_taken_inside_the_lock(night, owner, monkeypatch):
    """A stale copy of the night (loaded before the close) must not decide the time or the state."""
    stale = Night.objects.get(pk=night.pk)
    before = timezone.now()
    services.night_close(night=stale, by=owner)
    closed = Night.objects.get(pk=night.pk)
    assert closed.closed_at >= before
    entry = AuditEntry.objects.get(night=night, action="night_closed")
    assert entry.after == {"closed_at": closed.closed_at.isoformat()}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not on_postgresql, reason="SQLite's in-memory test database cannot take parallel writers")
def test_parallel_closes_write_one_audit_entry(owner, players):
    night = _night(owner, players)
    results = in_parallel([lambda: services.night_close(night=night, by=owner)] * 8)
    assert all(isinstance(r, Night) for r in results), results
    assert AuditEntry.objects.filter(night=night, action="night_closed").count() == 1


def test_the_table_page_leads_to_the_seat_change_form(night, owner, viewer):
    """A walk: 换人 was only at the foot of 每局明细. The table page's links say it, for those who may write, while
    the night is open; the form is where it leads."""
    from django.test import Client
    writer = Client()
    writer.force_login(owner)
    table = writer.get(f"/nights/{night.pk}/").content.decode()
    assert f'<a href="/nights/{night.pk}/hands/#seat-change" id="to-seat-change"' in table
    assert 'id="seat-change"' in writer.get(f"/nights/{night.pk}/hands/").content.decode()
    reader = Client()
    reader.force_login(viewer)
    assert 'id="to-seat-change"' not in reader.get(f"/nights/{night.pk}/").content.decode()
