"""Every rate limit holds under parallel requests (issue 16): each count is one atomic step of a shared store.

Threads, each with its own database connection, send their requests at the same moment (a barrier). Run on
PostgreSQL with the database counters and, when REDIS_URL is set, with the Redis counters (.ci/run runs this file
so too); SQLite has one writer at a time and its test database is one in-memory file, so it skips.
"""
import os
import threading
import uuid
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, connections
from django.test import Client

from ledger.web import counters
from ledger.models import Hand

from tests.hand_helpers import w, win

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="parallel writers: PostgreSQL only (SQLite's test database takes one writer at a time)"),
    pytest.mark.django_db(transaction=True),
]

BACKENDS = ["database", pytest.param("redis", marks=pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                                                       reason="the Redis counters need REDIS_URL"))]


@pytest.fixture(params=BACKENDS)
def store(request, settings):
    """The counters' store: the database (no REDIS_URL) or Redis, under a prefix of this test's own."""
    if request.param == "redis":
        settings.REDIS_URL = os.environ["REDIS_URL"]
        settings.REDIS_PREFIX = f"test-{uuid.uuid4().hex[:12]}"
    else:
        settings.REDIS_URL = ""
    yield request.param
    counters.reset_all()


def at_once(n, send):
    """Call send(i) in n threads released together; their answers' status codes, in no order."""
    start = threading.Barrier(n)
    statuses, errors = [], []

    def run(i):
        try:
            start.wait(timeout=10)
            statuses.append(send(i).status_code)
        except BaseException as exc:  # noqa: BLE001  (reported by the main thread)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert len(statuses) == n
    return Counter(statuses)


@pytest.fixture
def checked(monkeypatch):
    """How many passwords were actually checked."""
    seen = []
    original = AbstractBaseUser.check_password

    def counting(self, raw_password):
        seen.append(1)
        return original(self, raw_password)
    monkeypatch.setattr(AbstractBaseUser, "check_password", counting)
    return seen


def test_forty_simultaneous_wrong_passwords_check_only_five(store, checked):
    get_user_model().objects.create_user("alice", password="correct horse battery")
    statuses = at_once(40, lambda i: Client(REMOTE_ADDR=f"10.0.0.{i + 1}").post(
        "/login/", {"username": "alice", "password": f"wrong-{i}"}))
    assert statuses == {200: 40}  # the form again, each time
    assert len(checked) == 5
    right = Client(REMOTE_ADDR="10.0.1.1").post("/login/", {"username": "alice", "password": "correct horse battery"})
    assert right.status_code == 200 and len(checked) == 5  # locked: not even the right password is checked


def test_forty_simultaneous_sign_ins_from_one_address_check_only_twenty(store, checked):
    for i in range(40):
        get_user_model().objects.create_user(f"user{i}", password="correct horse battery")
    at_once(40, lambda i: Client(REMOTE_ADDR="10.0.0.9").post("/login/", {"username": f"user{i}", "password": "x"}))
    assert len(checked) == 20


def test_thirty_simultaneous_sign_ups_from_one_address_make_ten_accounts(store):
    before = get_user_model().objects.count()
    statuses = at_once(30, lambda i: Client(REMOTE_ADDR="10.0.0.7").post(
        "/signup/", {"username": f"new{i}", "password1": "Tiles-and-tea-2026", "password2": "Tiles-and-tea-2026"}))
    assert statuses == {302: 10, 429: 20}
    assert get_user_model().objects.count() - before == 10


def test_thirty_simultaneous_token_requests_from_one_address_get_twenty_answers(store):
    for i in range(30):
        get_user_model().objects.create_user(f"user{i}", password="correct horse battery")
    statuses = at_once(30, lambda i: Client(REMOTE_ADDR="10.0.0.5").post(
        "/api/token/", {"username": f"user{i}", "password": "correct horse battery"}, content_type="application/json"))
    assert statuses == {200: 20, 429: 10}


def test_the_calculator_limit_holds_in_parallel(store, settings):
    settings.LEDGER_THROTTLE_RATES = {**settings.LEDGER_THROTTLE_RATES, "calculator": "5/day"}
    body = {"events": [win(None, w(0))], "exhausted": True}
    statuses = at_once(20, lambda i: Client(REMOTE_ADDR="10.0.0.3").post("/api/score/", body,
                                                                         content_type="application/json"))
    assert statuses == {200: 5, 429: 15}


def test_the_write_limit_holds_in_parallel(store, settings, night, owner):
    settings.LEDGER_THROTTLE_RATES = {**settings.LEDGER_THROTTLE_RATES, "write": "5/day"}
    client_of = {}

    def send(i):
        client = client_of.setdefault(i, Client())
        client.force_login(owner)
        return client.post(f"/api/nights/{night.pk}/hands/", {"events": [win(None, w(i % 4))], "exhausted": True},
                           content_type="application/json")
    statuses = at_once(12, send)
    assert statuses == {201: 5, 429: 7}
    assert sorted(Hand.objects.filter(night=night).values_list("number", flat=True)) == [1, 2, 3, 4, 5]
