"""Recording a hand over the API: a bounded number of SQL statements, the same answer as before (issue 10)."""
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger import services
from ledger.selectors import night_next_dealer

from .hand_helpers import w, win


def token_client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


OFF_DATABASE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def record_statements(client, night, body):
    url = f"/api/nights/{night.pk}/hands/"
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    return response, queries


def test_recording_a_hand_takes_at_most_twelve_statements_with_token_authentication(night, owner, settings):
    """Everything counted (token, scoping, the night's lock, inserts, savepoints), but the write throttle's
    counter: that lives in the cache, which a deployment puts outside the database (Redis, memcached)."""
    settings.CACHES = OFF_DATABASE_CACHE
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    response, queries = record_statements(client, night, {"events": [win(2, w(3, "qing_yi_se"))], "exhausted": True})
    assert len(queries) <= 12, "\n".join(q["sql"][:120] for q in queries.captured_queries)
    assert response.json()["number"] == 2
    assert response.json()["players"] == ["张三", "李四", "王五", "赵六"]
    assert response.json()["dealer"] == 1  # the self-drawing winner of hand 1 deals


def test_the_throttle_on_the_default_database_cache_adds_its_own_statements_and_no_more(night, owner):
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    _response, queries = record_statements(client, night, {"events": [win(None, w(2))], "exhausted": True})
    cache = [q for q in queries.captured_queries if "ledger_cache" in q["sql"]]
    assert 0 < len(cache) <= 4
    assert len(queries) <= 12 + 6  # the cache's reads and writes, and the savepoints of its own transaction


def test_a_scorekeeper_records_in_as_few_statements_as_the_owner_plus_the_rights_check(night, keeper, settings):
    settings.CACHES = OFF_DATABASE_CACHE
    client = token_client(keeper)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    _response, queries = record_statements(client, night, {"events": [win(None, w(2))], "exhausted": True})
    assert len(queries) <= 13


def test_the_recorded_hand_takes_its_number_and_dealer_from_the_last_hand_that_counts(night, owner):
    first = services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    second = services.hand_record(night=night, by=owner, entry={"events": [win(None, w(3))], "exhausted": True})
    services.hand_void(hand=second, by=owner, reason="undo")
    third = services.hand_record(night=night, by=owner, entry={"events": [win(None, w(0))], "exhausted": True})
    assert (first.number, second.number, third.number) == (1, 2, 3)
    assert third.current.dealer == 1  # hand 2 is void: hand 1's winner deals
    assert night_next_dealer(night) == 0
    assert services.hand_record(night=night, by=owner, entry={"events": [], "exhausted": True},
                                dealer=3).current.dealer == 3


def test_the_recorded_hand_returned_carries_its_revision_and_players(night, owner):
    hand = services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    with CaptureQueriesContext(connection) as queries:
        revision = hand.current_list[0]
        names = [p.name for p in revision.players]
    assert names == ["张三", "李四", "王五", "赵六"] and len(queries) == 0
