"""Scorekeepers saving on one night at the same moment: every save gets the next number, none is refused (issue 16).

The night's row lock serialises the writers; the last hand number must be read after the lock is held (a second
statement, with its own snapshot under READ COMMITTED), or a writer that waited takes the number of the writer it
waited for and hits hand_number_unique_in_night (409). SQLite has no row locks nor concurrent writers: the test
runs on PostgreSQL (.ci/run runs the suite there).
"""
import threading

import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger.models import Hand

from tests.hand_helpers import w, win

WRITERS = 20

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql",
                                reason="row locks and concurrent writers: PostgreSQL only (SQLite has one writer)")


def _race(night, user, *, keyed: bool):
    """WRITERS threads, each with its own database connection, post a hand to the night at the same moment."""
    token = Token.objects.create(user=user).key
    start = threading.Barrier(WRITERS)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def write(i: int) -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            headers = {"HTTP_IDEMPOTENCY_KEY": f"race-{i}"} if keyed else {}
            start.wait(timeout=10)
            response = client.post(f"/api/nights/{night.pk}/hands/",
                                   {"events": [win(None, w(i % 4))], "exhausted": True}, format="json", **headers)
            statuses.append(response.status_code)
        except BaseException as exc:  # noqa: BLE001  (reported by the main thread)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return statuses


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("keyed", [False, True], ids=["no-key", "idempotency-key"])
def test_twenty_writers_at_once_on_one_night_get_hands_one_to_twenty(night, owner, settings, keyed):
    settings.LEDGER_THROTTLE_RATES = {**settings.LEDGER_THROTTLE_RATES, "write": "1000/min"}
    statuses = _race(night, owner, keyed=keyed)
    assert sorted(statuses) == [201] * WRITERS, statuses
    numbers = sorted(Hand.objects.filter(night=night).values_list("number", flat=True))
    assert numbers == list(range(1, WRITERS + 1))
    # Each writer added its hand to the night's standings under the night's lock: none lost another's.
    from ledger.services import standings
    assert standings.differences([night.pk]) == []
    assert sum(line[0] for line in standings.kept([night.pk]).values()) == 4 * WRITERS


@pytest.mark.django_db(transaction=True)
def test_closing_an_evenings_tables_while_a_hand_is_saved_at_one_of_them_neither_deadlocks(monkeypatch):
    """A hand holds its night's lock and then its group's row (the generation's bump); closing the evening's
    tables must take every night before the first close bumps the group, or each waits for the other
    (PostgreSQL: "deadlock detected"). The hand is held between its night's lock and the group's bump."""
    import datetime as dt
    import time
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from ledger.services import audit, evenings, groups, nights

    owner = get_user_model().objects.create_user("owner", password="x")
    group = groups.group_create(by=owner, name="周五")
    players = [groups.player_create(group=group, by=owner, name=n) for n in "甲乙丙丁戊己庚辛"]
    evening = evenings.evening_create(by=owner, group=group, title="周五", date=dt.date(2026, 12, 1))
    first, second = (nights.night_create(owner=owner, title=t, date=dt.date(2026, 12, 1), base=Decimal(1),
                                         players=ps, first_dealer=0, evening=evening)
                     for t, ps in (("1 号桌", players[:4]), ("2 号桌", players[4:])))
    real, held = audit.written, threading.Event()

    def slowly(entries):
        if threading.current_thread().name == "hand":
            held.set()
            time.sleep(1.5)  # the night is locked, the group not yet
        return real(entries)

    monkeypatch.setattr(audit, "written", slowly)
    errors = []

    def run(name, work):
        try:
            work()
        except Exception as error:  # noqa: BLE001  (any failure is the finding)
            errors.append((name, repr(error)[:300]))
        finally:
            connections.close_all()

    hand = threading.Thread(name="hand", target=run, args=("hand", lambda: nights.hand_record(
        night=second, by=owner, entry={"events": [win(None, w(0))], "exhausted": True})))
    close = threading.Thread(name="close", target=run, args=("close", lambda: (
        held.wait(5), nights.evening_close_tables(evening=evening, by=owner))))
    hand.start(), close.start()
    hand.join(), close.join()
    assert errors == []
    assert Hand.objects.filter(night=second).count() == 1
    assert all(n.is_closed for n in (first, second) for n in [type(n).objects.get(pk=n.pk)])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("change", ["rename", "merge"])
def test_renaming_or_merging_a_player_while_a_hand_of_theirs_is_saved_neither_deadlocks(monkeypatch, change):
    """A hand's rows name its players, and a rename or a merge locks the group's row and then the players': neither
    waits for the other in a circle. (Django's foreign keys on PostgreSQL are checked at commit, DEFERRABLE INITIALLY
    DEFERRED, so the hand's rows take no lock on the player rows before it commits; a review feared a key-share lock
    there.) The hand is held between its rows and its audit entry while the other change runs."""
    import datetime as dt
    import time
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from ledger.models import Player
    from ledger.services import groups, nights, standings

    owner = get_user_model().objects.create_user("owner", password="x")
    group = groups.group_create(by=owner, name="周五")
    players = [groups.player_create(group=group, by=owner, name=n) for n in "甲乙丙丁"]
    alias = groups.player_create(group=group, by=owner, name="戊")
    night = nights.night_create(owner=owner, title="1 号桌", date=dt.date(2026, 12, 1), base=Decimal(1),
                                players=players, first_dealer=0)
    real, held = standings.add_recorded, threading.Event()

    def slowly(*args):
        if threading.current_thread().name == "hand":
            held.set()
            time.sleep(1.5)  # the hand's rows are written (naming 甲), its audit entry (naming the group) not yet
        return real(*args)

    monkeypatch.setattr(standings, "add_recorded", slowly)
    errors = []

    def run(name, work):
        try:
            work()
        except Exception as error:  # noqa: BLE001  (any failure is the finding)
            errors.append((name, repr(error)[:300]))
        finally:
            connections.close_all()

    def other():
        held.wait(5)
        if change == "rename":
            groups.player_rename(player=players[0], by=owner, name="甲一")
        else:
            groups.player_merge(source=alias, into=players[0], by=owner)

    hand = threading.Thread(name="hand", target=run, args=("hand", lambda: nights.hand_record(
        night=night, by=owner, entry={"events": [win(None, w(0))], "exhausted": True})))
    changer = threading.Thread(name=change, target=run, args=(change, other))
    hand.start(), changer.start()
    hand.join(), changer.join()
    assert errors == []
    assert Hand.objects.filter(night=night).count() == 1
    assert (Player.objects.get(pk=players[0].pk).name == "甲一") if change == "rename" else (
        Player.objects.get(pk=alias.pk).merged_into_id == players[0].pk)
