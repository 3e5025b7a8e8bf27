"""A body that cannot be parsed is 400 on every write, with or without an Idempotency-Key (issue 16).

With a key, the body used to be hashed after DRF had met the parse error and kept `{}` as the data, so the write
went through as if nothing had been sent. It must be refused before any key is claimed, and nothing written.
"""
import pytest

from ledger.services import evenings
from ledger.models import GroupMember
from ledger.web.idempotency import IdempotencyRecord
from ledger.models import AuditEntry, Night

from tests.conftest import api_client
from tests.evening_helpers import two_tables

BODIES = [
    ("application/json", b"not json"),
    ("application/json", b'{"a": '),
    ("application/json", b"\xff\xfe"),
    ("text/plain", b"not json"),
    (None, b"not json"),  # no Content-Type header at all
]
IDS = ["garbage", "truncated", "not-utf8", "text-plain", "no-content-type"]


def post(client, method, url, content_type, body, key):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    if content_type is None:
        # The test client always sends a Content-Type; a raw request with none is what a script may send.
        return client.generic(method, url, body, content_type="", **headers)
    return client.generic(method, url, body, content_type=content_type, **headers)


def assert_refused(response):
    assert response.status_code in (400, 415), response.content
    errors = response.json()["errors"]
    assert errors and all({"path", "message"} <= set(e) for e in errors)


@pytest.fixture
def settled(owner, group):
    evening, first, _second = two_tables(owner, group)
    return evenings.settle_evening(by=owner, evening=evening)


@pytest.mark.parametrize("key", ["k-1", None], ids=["with-key", "without-key"])
@pytest.mark.parametrize("content_type,body", BODIES, ids=IDS)
def test_closing_a_night_with_a_body_that_is_not_json_is_refused(night, owner, key, content_type, body):
    before = AuditEntry.objects.count()
    assert_refused(post(api_client(owner), "POST", f"/api/nights/{night.pk}/close/", content_type, body, key))
    assert not Night.objects.get(pk=night.pk).is_closed
    assert AuditEntry.objects.count() == before and not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize("key", ["k-1", None], ids=["with-key", "without-key"])
@pytest.mark.parametrize("content_type,body", BODIES, ids=IDS)
def test_removing_a_member_with_a_body_that_is_not_json_is_refused(owner, group, viewer, key, content_type, body):
    GroupMember.objects.create(group=group, user=viewer, role=GroupMember.Role.MEMBER)
    url = f"/api/groups/{group.pk}/members/{viewer.pk}/remove/"
    assert_refused(post(api_client(owner), "POST", url, content_type, body, key))
    assert GroupMember.objects.filter(group=group, user=viewer).exists()
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize("key", ["k-1", None], ids=["with-key", "without-key"])
@pytest.mark.parametrize("content_type,body", BODIES, ids=IDS)
def test_marking_a_transfer_with_a_body_that_is_not_json_is_refused(owner, settled, key, content_type, body):
    url = f"/api/settlements/{settled.pk}/transfers/1/paid/"
    assert_refused(post(api_client(owner), "POST", url, content_type, body, key))
    assert settled.transfers.get(position=1).paid_at is None
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize("key", ["k-1", None], ids=["with-key", "without-key"])
@pytest.mark.parametrize("content_type,body", BODIES, ids=IDS)
def test_patching_a_group_with_a_body_that_is_not_json_is_refused(owner, group, key, content_type, body):
    name = group.name
    assert_refused(post(api_client(owner), "PATCH", f"/api/groups/{group.pk}/", content_type, body, key))
    group.refresh_from_db()
    assert group.name == name and not IdempotencyRecord.objects.exists()


def test_an_empty_body_still_closes_a_night_with_a_key(night, owner):
    """Writes that take no fields may be sent with no body at all, as before."""
    response = api_client(owner).post(f"/api/nights/{night.pk}/close/", HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 200, response.content
    assert Night.objects.get(pk=night.pk).is_closed
