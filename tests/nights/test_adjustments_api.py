"""The adjustments API (罚分/调整): record, list, read, void, correct; errors by field in the request's language;
rights; idempotency; totals and the audit trail (issue 21 §1)."""

import pytest
from django.urls import reverse

from ledger.services import nights as services
from ledger.models import Adjustment

from tests.conftest import api_client
from tests.factories import post_json as post

LATE = {"kind": "transfer", "from": 0, "to": 3, "amount": "5", "reason": "迟到"}


def test_record_list_and_read_an_adjustment(night, owner):
    client = api_client(owner)
    made = post(client, reverse("api-adjustments", args=[night.pk]), {"kind": "zha_hu", "player": 1})
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["number"] == 1 and body["after_hand"] == 0 and body["fan"] == 4
    assert body["amount"] == "32" and body["net"] == ["32", "-96", "32", "32"] and body["payee"] is None
    assert "诈胡" in body["line"] and "李四" in body["line"]
    assert post(client, reverse("api-adjustments", args=[night.pk]), LATE).json()["number"] == 2
    listed = client.get(reverse("api-adjustments", args=[night.pk])).json()
    assert [a["number"] for a in listed["results"]] == [2, 1]
    one = client.get(reverse("api-adjustment", args=[night.pk, 2])).json()
    assert one["reason"] == "迟到" and one["amount"] == "5" and one["net"] == ["-5", "0", "0", "5"]
    totals = {t["player"]: t["amount"] for t in client.get(reverse("api-totals", args=[night.pk])).json()["totals"]}
    assert totals == {"张三": "27", "李四": "-96", "王五": "32", "赵六": "37"}


def test_void_and_correct_over_the_api(night, owner):
    client = api_client(owner)
    post(client, reverse("api-adjustments", args=[night.pk]), LATE)
    corrected = post(client, reverse("api-adjustment-correct", args=[night.pk, 1]),
                     {"reason": "写错金额", "adjustment": {**LATE, "amount": "7.5"}})
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["amount"] == "7.5" and corrected.json()["version"] == 2
    voided = post(client, reverse("api-adjustment-void", args=[night.pk, 1]), {"reason": "不算"})
    assert voided.json()["status"] == "voided"
    totals = client.get(reverse("api-totals", args=[night.pk])).json()["totals"]
    assert {t["amount"] for t in totals} == {"0"}
    audit = client.get(reverse("api-audit", args=[night.pk])).json()["results"]
    assert [(a["action"], a["adjustment"]) for a in audit[:3]] == [
        ("adjustment_voided", 1), ("adjustment_corrected", 1), ("adjustment_recorded", 1)]


@pytest.mark.parametrize("body, path", [
    ({"kind": "zha_hu", "player": 4}, "player"),
    ({"kind": "zha_hu", "player": "1"}, "player"),
    ({"kind": "zha_hu", "player": 1, "fan": 25}, "fan"),
    ({"kind": "transfer", "from": 2, "to": 2, "amount": "5", "reason": "x"}, "to"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "0", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "2.345", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": 2.5, "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "5"}, "reason"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "5", "reason": "x", "extra": 1}, "extra"),
    ({"kind": "nope"}, "kind"),
])
def test_bad_input_gets_an_error_naming_the_field_and_writes_nothing(night, owner, body, path):
    response = post(api_client(owner), reverse("api-adjustments", args=[night.pk]), body)
    assert response.status_code == 400
    assert path in [e["path"] for e in response.json()["errors"]], response.json()
    assert not Adjustment.objects.exists()


def test_errors_come_in_the_requests_language(night, owner):
    body = {"kind": "transfer", "from": 1, "to": 1, "amount": "5", "reason": "x"}
    zh = post(api_client(owner), reverse("api-adjustments", args=[night.pk]), body).json()["errors"][0]["message"]
    en = post(api_client(owner), reverse("api-adjustments", args=[night.pk]), body,
              HTTP_ACCEPT_LANGUAGE="en").json()["errors"][0]["message"]
    assert "自己" in zh and "cannot pay itself" in en, en


def test_a_correction_error_names_the_inner_field(night, owner):
    client = api_client(owner)
    post(client, reverse("api-adjustments", args=[night.pk]), LATE)
    response = post(client, reverse("api-adjustment-correct", args=[night.pk, 1]),
                    {"reason": "x", "adjustment": {**LATE, "amount": "-1"}})
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["adjustment.amount"]


def test_a_closed_night_refuses_adjustments(night, owner):
    services.night_close(night=night, by=owner)
    response = post(api_client(owner), reverse("api-adjustments", args=[night.pk]), LATE)
    assert response.status_code == 400 and not Adjustment.objects.exists()


def test_outsiders_get_404_and_members_403_on_writes(night, owner, outsider, viewer):
    post(api_client(owner), reverse("api-adjustments", args=[night.pk]), LATE)
    writes = [("api-adjustments", [night.pk], LATE),
              ("api-adjustment-void", [night.pk, 1], {"reason": "x"}),
              ("api-adjustment-correct", [night.pk, 1], {"reason": "x", "adjustment": LATE})]
    for name, args, body in writes:
        assert post(api_client(outsider), reverse(name, args=args), body).status_code == 404
        assert post(api_client(viewer), reverse(name, args=args), body).status_code == 403
    for name, args in (("api-adjustments", [night.pk]), ("api-adjustment", [night.pk, 1])):
        assert api_client(outsider).get(reverse(name, args=args)).status_code == 404
        assert api_client(viewer).get(reverse(name, args=args)).status_code == 200
    assert Adjustment.objects.get().version == 1 and Adjustment.objects.get().status == "recorded"


def test_a_retried_write_with_the_same_key_records_once(night, owner):
    client = api_client(owner)
    url = reverse("api-adjustments", args=[night.pk])
    first = post(client, url, LATE, HTTP_IDEMPOTENCY_KEY="k-1")
    again = post(client, url, LATE, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.json() == again.json() and Adjustment.objects.count() == 1


def test_the_schema_lists_the_adjustment_endpoints(db):
    schema = api_client().get(reverse("schema"), HTTP_ACCEPT="application/json")
    text = schema.content.decode()
    assert "/api/nights/{id}/adjustments/" in text and "/api/nights/{id}/confirm/" in text


@pytest.mark.django_db(transaction=True)
def test_parallel_adjustments_take_gap_free_numbers(owner, players):
    """Numbers are taken under the night's row lock (read after it, not in the locking statement): ten writers at
    once get 1..10 and every one counts."""
    import datetime as dt
    from decimal import Decimal

    from tests.harden_helpers import in_parallel, on_postgresql
    if not on_postgresql:
        pytest.skip("SQLite's in-memory test database cannot take parallel writers")
    night = services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal(2),
                                  players=players, first_dealer=0)
    responses = in_parallel([lambda: post(api_client(owner), reverse("api-adjustments", args=[night.pk]), LATE)] * 10)
    assert {getattr(r, "status_code", r) for r in responses} == {201}, responses
    assert sorted(r.json()["number"] for r in responses) == list(range(1, 11))
    totals = {t["player"]: t["amount"] for t in api_client(owner).get(
        reverse("api-totals", args=[night.pk])).json()["totals"]}
    assert totals["张三"] == "-50" and totals["赵六"] == "50"
