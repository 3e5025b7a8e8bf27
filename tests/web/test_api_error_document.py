"""One error path for the API (issue 9 hole 10, issue 7): every failure is the errors document, in the request's language."""
import ast
import inspect
import logging

from django.urls import reverse

from ledger.services import nights as services
from ledger.api import nights as views

from tests.conftest import api_client
from tests.harden_helpers import EXHAUSTED, THREE_SELF_DRAWS, post_json


def errors(response):
    body = response.json()
    assert set(body) == {"errors"} and body["errors"], body
    assert all(set(e) == {"path", "message"} and e["message"] for e in body["errors"]), body
    return body["errors"]


def test_the_api_views_have_no_try_except_left():
    tree = ast.parse(inspect.getsource(views))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Try)]


def test_a_serializer_error_names_its_field_in_english_and_chinese(owner):
    en = post_json(api_client(owner), "/api/nights/", {"date": "2026-11-28", "base": "1", "players": ["甲", "乙", "丙", "丁"]},
                   HTTP_ACCEPT_LANGUAGE="en")
    zh = post_json(api_client(owner), "/api/nights/", {"date": "2026-11-28", "base": "1", "players": ["甲", "乙", "丙", "丁"]})
    assert en.status_code == zh.status_code == 400
    assert errors(en) == [{"path": "title", "message": "This field is required."}]
    assert errors(zh) == [{"path": "title", "message": "该字段是必填项。"}]


def test_a_nested_serializer_error_has_a_nested_path(owner):
    response = post_json(api_client(owner), "/api/nights/",
                         {"title": "t", "date": "2026-11-28", "base": "1", "players": ["甲", "", "丙", "丁"]})
    assert [e["path"] for e in errors(response)] == ["players[1]"]


def test_a_service_validation_error_becomes_the_errors_document(owner):
    response = post_json(api_client(owner), "/api/nights/",
                         {"title": "t", "date": "2026-11-28", "base": "1", "players": ["甲", "甲", "丙", "丁"]},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and [e["path"] for e in errors(response)] == ["players"]


def test_an_engine_error_keeps_its_path(night, owner):
    response = post_json(api_client(owner), reverse("api-hands", args=[night.pk]), {"events": [{"type": "nap"}]},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and errors(response)[0]["path"].startswith("events[0]")


def test_malformed_json_is_the_errors_document_in_english(night, owner):
    response = post_json(api_client(owner), reverse("api-hands", args=[night.pk]), "{nope", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and errors(response)[0]["message"].startswith("not valid JSON")


def test_signing_in_is_asked_for_with_401_and_the_errors_document(db):
    response = api_client().get("/api/nights/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 401 and response.headers["WWW-Authenticate"] == "Token"
    assert errors(response) == [{"path": "", "message": "Authentication credentials were not provided."}]


def test_404_and_403_are_the_errors_document(night, outsider, viewer):
    url = reverse("api-hands", args=[night.pk])
    assert errors(post_json(api_client(outsider), url, EXHAUSTED)) and \
        post_json(api_client(outsider), url, EXHAUSTED).status_code == 404
    forbidden = post_json(api_client(viewer), url, EXHAUSTED, HTTP_ACCEPT_LANGUAGE="en")
    assert forbidden.status_code == 403
    assert errors(forbidden) == [{"path": "", "message": "You may look at this night but not record or change it: "
                                                         "ask the group's owner or the night's owner to make you a "
                                                         "scorekeeper"}]
    chinese = post_json(api_client(viewer), url, EXHAUSTED)
    assert errors(chinese) == [{"path": "", "message": "你可以查看这一场，但不能记分或修改：请圈主或这一场的主人把你设为记分员"}]


def test_an_unknown_hand_is_404_with_the_errors_document(night, owner):
    response = api_client(owner).get(reverse("api-hand", args=[night.pk, 99]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404 and errors(response) == [{"path": "", "message": "not found"}]


def test_another_media_type_is_415_with_the_errors_document(night, owner):
    response = api_client(owner).post(reverse("api-hands", args=[night.pk]), "events=", content_type="text/plain")
    assert response.status_code == 415 and errors(response)


def test_an_unexpected_exception_is_500_json_and_logged_with_its_traceback(night, owner, monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(services, "hand_record", broken)
    with caplog.at_level(logging.ERROR, logger="ledger.api"):
        response = post_json(api_client(owner), reverse("api-hands", args=[night.pk]), THREE_SELF_DRAWS,
                             HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    assert errors(response) == [{"path": "", "message": "server error (logged); please try again later"}]
    record = next(r for r in caplog.records if r.name == "ledger.api")
    assert record.exc_info and "RuntimeError: boom" in caplog.text


def test_throttled_calls_get_429_with_the_errors_document(db, settings):
    settings.LEDGER_THROTTLE_RATES = {"calculator": "2/min", "write": "2/min"}
    answers = [post_json(api_client(), "/api/analyse/", {"tiles": "11122233355m", "melds": ["7777s"]})
               for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert errors(answers[2]) and int(answers[2].headers["Retry-After"]) > 0


def test_writes_are_throttled_per_user(night, owner, settings):
    settings.LEDGER_THROTTLE_RATES = {"calculator": "100/min", "write": "2/min"}
    url = reverse("api-hands", args=[night.pk])
    codes = [post_json(api_client(owner), url, EXHAUSTED).status_code for _ in range(3)]
    assert codes == [201, 201, 429] and night.hands.count() == 2
    assert api_client(owner).get(url).status_code == 200  # reads are not throttled


def test_the_schema_says_the_hand_list_is_a_page_of_hands(schema):
    listed = schema["paths"]["/api/nights/{id}/hands/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert listed["schema"] == {"$ref": "#/components/schemas/PaginatedHandList"}
    page = schema["components"]["schemas"]["PaginatedHandList"]["properties"]
    assert page["results"] == {"type": "array", "items": {"$ref": "#/components/schemas/Hand"}}
    assert "number" in schema["components"]["schemas"]["Hand"]["properties"]


def test_the_schema_documents_400_403_404_with_the_errors_document_on_every_write(schema):
    errors_ref = {"$ref": "#/components/schemas/Errors"}
    for path, operations in schema["paths"].items():
        post = operations.get("post")
        if not post or path in ("/api/score/", "/api/analyse/", "/api/token/"):
            continue
        for code in ("400", "403", "404"):
            assert post["responses"][code]["content"]["application/json"]["schema"] == errors_ref, (path, code)
    assert schema["components"]["schemas"]["Errors"]["properties"]["errors"]["type"] == "array"


def test_the_calculator_answers_a_valid_hand_exactly_as_score_hand(db):
    from scoring import score_hand

    from tests.hand_helpers import WORKED_EXAMPLE
    response = post_json(api_client(), "/api/score/", WORKED_EXAMPLE)
    assert response.json() == score_hand(WORKED_EXAMPLE).as_dict()


def test_an_api_url_that_matches_nothing_is_404_json(db):
    response = api_client().get("/api/nights/abc/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"errors": [{"path": "", "message": "not found"}]}


def test_pages_keep_their_404_page(db):
    response = api_client().get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_the_schema_says_request_bodies_refuse_unknown_fields(schema):
    components = schema["components"]["schemas"]
    for name in ("NightInputRequest", "HandEntryRequest", "HandCorrectInputRequest", "ReasonRequest", "PlayerInputRequest"):
        assert components[name]["additionalProperties"] is False, name


def test_an_api_address_without_its_final_slash_is_served_not_redirected(db):
    """POST /api/score was a 500 page under DEBUG (APPEND_SLASH cannot redirect a POST) and a 301 otherwise."""
    from scoring import score_hand

    from tests.hand_helpers import WORKED_EXAMPLE
    response = post_json(api_client(), "/api/score", WORKED_EXAMPLE)
    assert response.status_code == 200 and response.json() == score_hand(WORKED_EXAMPLE).as_dict()
    assert api_client().get("/api/nights", HTTP_ACCEPT_LANGUAGE="en").status_code == 401  # the API's own answer
    assert api_client().get("/rules").status_code == 301  # pages keep Django's redirect


def test_the_api_answers_json_only_even_to_a_browser(db):
    """No DRF browsable page (HTML with a CSRF cookie): the calculator answers its documents as JSON."""
    from tests.hand_helpers import WORKED_EXAMPLE
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    response = post_json(api_client(), "/api/score/", WORKED_EXAMPLE, HTTP_ACCEPT=browser)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    html_only = post_json(api_client(), "/api/score/?format=api", WORKED_EXAMPLE)
    assert html_only.status_code == 404 and html_only["Content-Type"] == "application/json"


def test_a_report_is_its_address_s_type_whatever_accept_asks(night, owner):
    """report.txt asked with a browser's or a picky Accept is still the text (the JSON-only API once answered 406);
    its errors stay the errors document."""
    client = api_client(owner)
    for accept in ("text/html", "application/pdf", "text/plain", "*/*"):
        response = client.get(f"/api/nights/{night.pk}/report.txt", HTTP_ACCEPT=accept)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/plain"), accept
    missing = client.get(f"/api/nights/{night.pk + 1000}/hands.csv", HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="en")
    assert missing.status_code == 404 and missing.json() == {"errors": [{"path": "", "message": "not found"}]}
