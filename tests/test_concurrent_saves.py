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
