"""Exactly once (issue 9, hole 1): an Idempotency-Key makes a repeated write answer the first response."""
import pytest
from django.urls import reverse

from ledger.services import nights as services
from ledger.models import AuditEntry, Hand, HandRevision, IdempotencyRecord

from tests.conftest import api_client
from tests.harden_helpers import EXHAUSTED, THREE_SELF_DRAWS, in_parallel, on_postgresql, post_json, snapshot


def hands_url(night):
    return reverse("api-hands", args=[night.pk])


def test_the_same_post_sent_twice_with_one_key_records_one_hand(night, owner):
    client = api_client(owner)
    first = post_json(client, hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="hand-1")
    second = post_json(client, hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="hand-1")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert night.hands.count() == 1 and AuditEntry.objects.filter(action="hand_recorded").count() == 1


def test_without_a_key_each_post_records_a_hand(night, owner):
    client = api_client(owner)
    post_json(client, hands_url(night), THREE_SELF_DRAWS)
    post_json(client, hands_url(night), THREE_SELF_DRAWS)
    assert night.hands.count() == 2


def test_the_same_key_with_another_body_is_refused_and_writes_nothing(night, owner):
    client = api_client(owner)
    post_json(client, hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="k")
    before = snapshot()
    response = post_json(client, hands_url(night), EXHAUSTED, HTTP_IDEMPOTENCY_KEY="k", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    assert response.json() == {"errors": [{"path": "", "message": "this Idempotency-Key was used for another request"}]}
    assert snapshot() == before


def test_the_same_key_on_another_endpoint_is_refused(recorded_night, owner):
    client = api_client(owner)
    post_json(client, reverse("api-hand-void", args=[recorded_night.pk, 1]), {"reason": "x"}, HTTP_IDEMPOTENCY_KEY="k")
    response = post_json(client, reverse("api-close", args=[recorded_night.pk]), {}, HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 422 and not recorded_night.__class__.objects.get(pk=recorded_night.pk).is_closed


def test_key_order_and_spacing_of_the_body_do_not_make_another_request(night, owner):
    client = api_client(owner)
    post_json(client, hands_url(night), '{"exhausted": true, "events": []}', HTTP_IDEMPOTENCY_KEY="k")
    again = post_json(client, hands_url(night), '{"events":[],"exhausted":true}', HTTP_IDEMPOTENCY_KEY="k")
    assert again.status_code == 201 and night.hands.count() == 1


def test_a_refused_request_does_not_use_up_its_key(night, owner):
    client = api_client(owner)
    bad = post_json(client, hands_url(night), {"events": [], "exhuasted": True}, HTTP_IDEMPOTENCY_KEY="k")
    assert bad.status_code == 400 and IdempotencyRecord.objects.count() == 0
    fixed = post_json(client, hands_url(night), EXHAUSTED, HTTP_IDEMPOTENCY_KEY="k")
    assert fixed.status_code == 201 and night.hands.count() == 1


def test_keys_belong_to_their_user(night, owner, keeper):
    post_json(api_client(owner), hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="k")
    post_json(api_client(keeper), hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="k")
    assert night.hands.count() == 2


@pytest.mark.parametrize("key", ["", "x" * 101, "tab\there", "中文"])
def test_a_malformed_key_is_refused(night, owner, key):
    response = post_json(api_client(owner), hands_url(night), EXHAUSTED, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400 and response.json()["errors"][0]["message"]
    assert night.hands.count() == 0


@pytest.fixture
def recorded_night(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    return night


WRITES = [
    ("api-nights", lambda n: [], {"title": "周六", "date": "2026-11-28", "base": "1", "players": ["甲", "乙", "丙", "丁"]}),
    ("api-players", lambda n: [], {"name": "新人"}),
    ("api-hands", lambda n: [n.pk], THREE_SELF_DRAWS),
    ("api-hand-correct", lambda n: [n.pk, 1], {**EXHAUSTED, "reason": "记错了"}),
    ("api-hand-void", lambda n: [n.pk, 1], {"reason": "重复"}),
    ("api-close", lambda n: [n.pk], {}),
]


@pytest.mark.parametrize("name, args, body", WRITES, ids=[w[0] for w in WRITES])
def test_every_write_endpoint_answers_a_repeat_with_the_first_response_and_writes_nothing(
        recorded_night, owner, name, args, body):
    client = api_client(owner)
    url = reverse(name, args=args(recorded_night))
    first = post_json(client, url, body, HTTP_IDEMPOTENCY_KEY="once")
    assert first.status_code in (200, 201)
    after_first = snapshot()
    repeat = post_json(client, url, body, HTTP_IDEMPOTENCY_KEY="once")
    assert (repeat.status_code, repeat.json()) == (first.status_code, first.json())
    assert snapshot() == after_first


@pytest.mark.django_db(transaction=True)
def test_a_lost_response_retried_with_its_key_records_one_hand(owner, players):
    """The server commits, the answer never reaches the phone, the phone retries: still one hand."""
    import datetime as dt
    from decimal import Decimal
    night = services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal(2),
                                  players=players, first_dealer=0)
    client = api_client(owner)
    post_json(client, hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="lost")  # answer "lost"
    assert Hand.objects.filter(night=night).count() == 1  # committed
    retry = post_json(client, hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="lost")
    assert retry.status_code == 201 and retry.json()["number"] == 1
    assert Hand.objects.filter(night=night).count() == 1 and HandRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not on_postgresql, reason="SQLite's in-memory test database cannot take parallel writers")
def test_twenty_parallel_posts_with_one_key_record_one_hand(owner, players):
    import datetime as dt
    from decimal import Decimal
    night = services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal(2),
                                  players=players, first_dealer=0)
    url = hands_url(night)
    responses = in_parallel([lambda: post_json(api_client(owner), url, THREE_SELF_DRAWS,
                                               HTTP_IDEMPOTENCY_KEY="burst")] * 20)
    assert all(not isinstance(r, Exception) for r in responses), responses
    assert {r.status_code for r in responses} == {201}
    assert {r.json()["number"] for r in responses} == {1}
    assert Hand.objects.filter(night=night).count() == 1
    assert AuditEntry.objects.filter(night=night, action="hand_recorded").count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_posts_with_one_key_record_one_hand_on_any_database(owner, players):
    """The transactional version of the burst: every repeat is committed and replayed, whatever the database."""
    import datetime as dt
    from decimal import Decimal
    night = services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal(2),
                                  players=players, first_dealer=0)
    client = api_client(owner)
    responses = [post_json(client, hands_url(night), THREE_SELF_DRAWS, HTTP_IDEMPOTENCY_KEY="burst")
                 for _ in range(20)]
    assert {r.status_code for r in responses} == {201}
    assert Hand.objects.filter(night=night).count() == 1 and IdempotencyRecord.objects.count() == 1
