"""The API: whole responses, the calculator equals score_hand, and every endpoint tried by outsiders and viewers."""

import pytest
from django.urls import reverse

from scoring import score_hand

from tests.conftest import api_client
from tests.factories import post_json
from tests.hand_helpers import w, win
from tests.hand_helpers import WORKED_EXAMPLE, WORKED_RESULT

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


def test_the_calculator_returns_exactly_what_score_hand_returns(db):
    response = post_json(api_client(), "/api/score/", WORKED_EXAMPLE)
    assert response.status_code == 200
    assert response.json() == WORKED_RESULT == score_hand(WORKED_EXAMPLE).as_dict()


def test_the_calculator_answers_errors_in_the_language_of_the_request(db):
    bad = {"events": [win(1, {"player": 0, "tiles": "123m456p789s11m456m"})], "exhausted": True}
    en = post_json(api_client(), "/api/score/", bad, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    zh = post_json(api_client(), "/api/score/", bad, HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    assert en.status_code == zh.status_code == 400
    assert en.json() == {"errors": [{"path": "events[0].winners[0].tiles", "message":
                                     "hand holds three suits (m, p, s): a winning hand must be missing one suit"}]}
    assert zh.json() == {"errors": [{"path": "events[0].winners[0].tiles", "message":
                                     "手牌有三门（万、筒、条）：胡牌必须缺一门"}]}


@pytest.mark.parametrize("header, english", [("en;q=0", False), ("en;q=0, zh;q=0.5", False), ("en;q=0.0", False),
                                              ("fr, en;q=0.5", True), ("zh;q=0, en;q=0.1", True), ("*;q=0", False)])
def test_a_language_the_request_refuses_with_q_0_is_not_spoken(db, header, english):
    bad = {"events": [win(1, {"player": 0, "tiles": "123m456p789s11m456m"})], "exhausted": True}
    message = post_json(api_client(), "/api/score/", bad, HTTP_ACCEPT_LANGUAGE=header).json()["errors"][0]["message"]
    assert message.startswith("hand holds three suits") if english else message.startswith("手牌有三门"), message


def test_malformed_json_gets_the_errors_document(db):
    response = api_client().post("/api/score/", "{nope", content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == ""


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/octet-stream"])
def test_the_calculator_reads_json_whatever_the_content_type_says(db, content_type):
    """HAND_FORMAT.md gives /api/score/ two answers, 200 and 400: `curl -d` (a form's type) or text/plain got a 415."""
    import json
    good = api_client().post("/api/score/", json.dumps(WORKED_EXAMPLE), content_type=content_type)
    assert good.status_code == 200 and good.json() == WORKED_RESULT
    bad = api_client().post("/api/score/", "events=1", content_type=content_type, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == ""


def test_the_calculator_stores_nothing(db):
    from ledger.models import Hand
    post_json(api_client(), "/api/score/", WORKED_EXAMPLE)
    assert Hand.objects.count() == 0


def test_a_table_of_records_from_one_address_is_scored_without_a_limit_in_the_way(db):
    """The calculator's default limit (1,200 a minute per address) is a flood guard: 300 records sent at once from
    one address (a club's phones on one Wi-Fi, or a table of cases) are all scored."""
    client = api_client()
    codes = {post_json(client, "/api/score/", SELF_DRAW).status_code for _ in range(300)}
    assert codes == {200}


def test_analyse_finds_pattern_and_waits(db):
    hand = post_json(api_client(), "/api/analyse/", {"tiles": "11122233355m", "melds": ["7777s"]}).json()
    assert (hand["pattern"], hand["roots"], hand["fan"]) == ("dui_dui_hu", 1, 2)
    ready = post_json(api_client(), "/api/analyse/", {"tiles": "1112345678999m", "ready": True}).json()
    assert ready["fan_min"] == 2 and len(ready["waits"]) == 9


def test_tiles_half_typed_answer_their_errors_with_200_when_asked_partially(db):
    """The table's keypad asks ?partial=1 at every key (each half-typed hand was a red 400 in the browser's console);
    without it, the same errors document answers 400."""
    half = {"tiles": "1112345m", "ready": False}
    plain = post_json(api_client(), "/api/analyse/", half)
    partial = post_json(api_client(), "/api/analyse/?partial=1", half)
    assert plain.status_code == 400 and partial.status_code == 200
    assert partial.json() == plain.json() and partial.json()["errors"][0]["path"] == "tiles"
    whole = post_json(api_client(), "/api/analyse/?partial=1", {"tiles": "11122233355m", "melds": ["7777s"]})
    assert whole.status_code == 200 and whole.json()["pattern"] == "dui_dui_hu"
    bad = post_json(api_client(), "/api/analyse/?partial=1", ["11m"])  # not a JSON object: a failed request
    assert bad.status_code == 400
    # Errors not of the tiles being typed stay failed requests (a review): the suits, the rules, melds not a list.
    for wrong in ({"tiles": "11m", "suits": "mp"}, {"tiles": "11m", "rules": {"no_such_rule": 1}},
                  {"tiles": "11m", "melds": "777s"}, {"melds": [], "ready": False}, {"tiles": 11},
                  {"tiles": "11m", "melds": [7]}, {"tiles": "11m", "ready": "yes"}, {"tiles": "", "melds": {}},
                  {"tiles": "11m", "melds": None}):
        answer = post_json(api_client(), "/api/analyse/?partial=1", wrong)
        assert answer.status_code == 400 and answer.json()["errors"], (wrong, answer.json())


def test_recording_a_hand_returns_it_whole(night, owner):
    response = post_json(api_client(owner), f"/api/nights/{night.pk}/hands/", SELF_DRAW)
    assert response.status_code == 201
    body = response.json()
    assert body["recorded_at"] and body["record"]["rules"] == night.rules
    del body["recorded_at"]
    assert body == {
        "number": 1, "status": "recorded", "void_reason": "", "version": 1, "dealer": 0,
        "players": ["张三", "李四", "王五", "赵六"],
        "record": {"base": "2", "rules": night.rules, "dealer": 0, **SELF_DRAW},
        "result": score_hand({"base": "2", "rules": night.rules, "dealer": 0, **SELF_DRAW}).as_dict(),
        "lines": ["李四 自摸 清一色 带1根 3番，张三、王五、赵六 各付16", "流局，无人查叫"], "recorded_by": "owner",
    }
    totals = api_client(owner).get(f"/api/nights/{night.pk}/totals/").json()
    assert totals == {"totals": [{"player": "张三", "seat": 0, "amount": "-16", "fee": "0"},
                                 {"player": "李四", "seat": 1, "amount": "48", "fee": "0"},
                                 {"player": "王五", "seat": 2, "amount": "-16", "fee": "0"},
                                 {"player": "赵六", "seat": 3, "amount": "-16", "fee": "0"}],
                      "table_fee": {"rule": {"mode": "none"}, "amount": "0"}, "next_dealer": 1}
    settlement = api_client(owner).get(f"/api/nights/{night.pk}/settlement/").json()
    assert settlement == {"transfers": [{"from": "张三", "to": "李四", "amount": "16", "fee": False},
                                        {"from": "王五", "to": "李四", "amount": "16", "fee": False},
                                        {"from": "赵六", "to": "李四", "amount": "16", "fee": False}],
                          "method": "exact", "lower_bound": 3, "table_fee": "0"}


def test_a_bad_hand_gets_errors_and_writes_nothing(night, keeper):
    response = post_json(api_client(keeper), f"/api/nights/{night.pk}/hands/", {"events": [win(None, w(0), w(1))], "exhausted": True},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json() == {"errors": [{"path": "events[0].winners", "message": "a self-draw has exactly one winner"}]}
    assert night.hands.count() == 0


def test_correct_and_void_through_the_api(night, owner):
    client = api_client(owner)
    post_json(client, f"/api/nights/{night.pk}/hands/", SELF_DRAW)
    corrected = post_json(client, f"/api/nights/{night.pk}/hands/1/correct/", {**SELF_DRAW, "reason": "fix"}).json()
    assert corrected["version"] == 2
    voided = post_json(client, f"/api/nights/{night.pk}/hands/1/void/", {"reason": "undo"}).json()
    assert voided["status"] == "voided"
    audit = client.get(f"/api/nights/{night.pk}/audit/").json()["results"]  # newest first
    assert [a["action"] for a in audit] == ["hand_voided", "hand_corrected", "hand_recorded", "night_created"]


def test_creating_a_night_through_the_api(owner):
    body = {"title": "周六", "date": "2026-11-28", "base": "5", "players": ["甲", "乙", "丙", "丁"], "first_dealer": 2,
            "rules": {"max_fan": 3}}
    response = post_json(api_client(owner), "/api/nights/", body)
    assert response.status_code == 201
    assert response.json()["rules"]["max_fan"] == 3 and response.json()["seats"] == ["甲", "乙", "丙", "丁"]
    bad = post_json(api_client(owner), "/api/nights/", {**body, "rules": {"max_fan": "big"}})
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "rules.max_fan"


NIGHT_READS = ["api-night", "api-hands", "api-totals", "api-settlement", "api-audit"]
NIGHT_WRITES = [("api-hands", SELF_DRAW), ("api-close", {})]
HAND_WRITES = [("api-hand-correct", {**SELF_DRAW, "reason": "x"}), ("api-hand-void", {"reason": "x"})]


@pytest.mark.parametrize("name", NIGHT_READS + ["api-preview"])
def test_outsiders_get_404_on_every_night_endpoint(recorded, outsider, name):
    url = reverse(name, args=[recorded.pk])
    response = api_client(outsider).get(url) if name != "api-preview" else post_json(api_client(outsider), url, SELF_DRAW)
    assert response.status_code == 404


@pytest.mark.parametrize("name, body", NIGHT_WRITES + HAND_WRITES)
def test_outsiders_get_404_and_viewers_403_on_writes(recorded, outsider, viewer, name, body):
    args = [recorded.pk, 1] if name.startswith("api-hand-") else [recorded.pk]
    url = reverse(name, args=args)
    assert post_json(api_client(outsider), url, body).status_code == 404
    assert post_json(api_client(viewer), url, body).status_code == 403
    assert recorded.hands.get(number=1).revisions.count() == 1


def test_outsiders_get_404_on_a_hand(recorded, outsider, viewer):
    assert api_client(outsider).get(reverse("api-hand", args=[recorded.pk, 1])).status_code == 404
    assert api_client(viewer).get(reverse("api-hand", args=[recorded.pk, 1])).status_code == 200


def test_viewers_can_read_and_scorekeepers_can_write(recorded, viewer, keeper):
    for name in NIGHT_READS:
        assert api_client(viewer).get(reverse(name, args=[recorded.pk])).status_code == 200
    assert post_json(api_client(keeper), reverse("api-hands", args=[recorded.pk]), SELF_DRAW).status_code == 201


def test_anonymous_users_must_sign_in(recorded):
    assert api_client().get(reverse("api-nights")).status_code in (401, 403)
    assert api_client().get(reverse("api-players")).status_code in (401, 403)


def test_nights_list_only_what_the_caller_may_see(recorded, outsider, viewer):
    assert api_client(outsider).get("/api/nights/").json()["results"] == []
    assert [n["id"] for n in api_client(viewer).get("/api/nights/").json()["results"]] == [recorded.pk]


def test_token_authentication_works(recorded, owner):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient
    token = Token.objects.create(user=owner)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"/api/nights/{recorded.pk}/totals/").status_code == 200


def test_the_schema_and_its_offline_docs_page(db):
    schema = api_client().get("/api/schema/")
    assert schema.status_code == 200 and b"/api/score/" in schema.content
    docs = api_client().get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "cdn" not in html.lower() and "static/drf_spectacular_sidecar" in html


def test_listing_hands_takes_the_same_queries_for_one_hand_or_many(night, owner, django_assert_max_num_queries):
    client = api_client(owner)
    url = f"/api/nights/{night.pk}/hands/"
    post_json(client, url, SELF_DRAW)
    with django_assert_max_num_queries(5):
        assert len(client.get(url).json()["results"]) == 1
    for _ in range(5):
        post_json(client, url, SELF_DRAW)
    with django_assert_max_num_queries(5):
        assert len(client.get(url).json()["results"]) == 6
