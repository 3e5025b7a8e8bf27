"""No 500 from any input (issue 9, holes 3, 4 and 10): a corpus of bad inputs tried on every write endpoint.

Each answers 4xx with the errors document (naming the field on the endpoint it was written for), and the
database is unchanged: row counts, seats, payment totals, bases and states compared before and after.
"""
import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledger.services import nights as services
from ledger.models import HandRevision, Night

from tests.conftest import api_client
from tests.hand_helpers import w, win
from tests.harden_helpers import THREE_SELF_DRAWS, post_json, snapshot

CORPUS = json.loads((Path(__file__).resolve().parents[1] / "data" / "bad_inputs.json").read_text())


def body_of(entry):
    if "raw" in entry:
        return entry["raw"].encode("utf-8", "surrogatepass")
    if "raw_hex" in entry:
        return bytes.fromhex(entry["raw_hex"])
    if "raw_repeat" in entry:
        head, unit, times, tail = entry["raw_repeat"]
        return (head + unit * times + tail).encode()
    return json.dumps(entry["body"]).encode()


def endpoints(night):
    return {
        "nights": reverse("api-nights"), "players": reverse("api-players"),
        "hands": reverse("api-hands", args=[night.pk]), "preview": reverse("api-preview", args=[night.pk]),
        "correct": reverse("api-hand-correct", args=[night.pk, 1]), "void": reverse("api-hand-void", args=[night.pk, 1]),
        "close": reverse("api-close", args=[night.pk]), "score": reverse("api-score"), "analyse": reverse("api-analyse"),
    }


@pytest.fixture
def table(night, owner, settings):
    settings.LEDGER_THROTTLE_RATES = {"calculator": None, "write": None}
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    return night


def test_the_corpus_holds_at_least_sixty_bad_inputs_with_unique_names():
    assert len(CORPUS) >= 60 and len({e["name"] for e in CORPUS}) == len(CORPUS)


def on_field(path, field):
    return path == field or path.startswith(field + ".") or path.startswith(field + "[")


@pytest.mark.parametrize("entry", CORPUS, ids=[e["name"] for e in CORPUS])
def test_a_bad_input_gets_4xx_and_the_errors_document_on_every_write_endpoint_and_writes_nothing(
        table, owner, entry):
    body = body_of(entry)
    before = snapshot()
    for name, url in endpoints(table).items():
        response = api_client(owner).post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
        assert 400 <= response.status_code < 500, (name, response.status_code, response.content[:300])
        document = response.json()
        extra = {"choices", "so_far"} if name == "preview" else set()  # the preview's errors carry what may be chosen
        assert "errors" in document and set(document) - {"errors"} <= extra and document["errors"], (name, document)
        # The preview's engine errors carry their code too (the table reads it: scoring.preview).
        fields = ({"path", "message"}, {"path", "message", "code"}) if name == "preview" else ({"path", "message"},)
        assert all(set(e) in fields and e["message"] for e in document["errors"]), (name, document)
        if name == entry["target"]:
            if entry.get("status"):
                assert response.status_code == entry["status"], document
            if entry["field"]:
                paths = [e["path"] for e in document["errors"]]
                assert any(on_field(p, entry["field"]) for p in paths), (entry["field"], document)
    assert snapshot() == before


def test_a_body_over_the_limit_gets_413_before_it_is_read(table, owner):
    response = api_client(owner).post(reverse("api-hands", args=[table.pk]), b"{" + b" " * 70000 + b"}",
                                      content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    assert response.json() == {"errors": [{"path": "", "message": "request too large (at most 65536 bytes)"}]}


def test_a_night_base_beyond_the_bound_is_refused_by_the_service_too(owner, players):
    with pytest.raises(ValidationError) as error:
        services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal("9999999999.99"),
                              players=players, first_dealer=0)
    assert "base" in error.value.message_dict


def test_a_hand_whose_payment_would_not_fit_is_refused_with_its_event(night, owner):
    """A night stored before the ledger's bound existed, with the engine's largest base (10^9): 16 x 10^9 overflowed."""
    Night.objects.filter(pk=night.pk).update(base=Decimal("1000000000"))
    before = snapshot()
    response = post_json(api_client(owner), reverse("api-hands", args=[night.pk]),
                         {"events": [win(None, w(1, "qing_yi_se", 2)), win(None, w(2)), win(None, w(3))]},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "events[0]"
    assert snapshot() == before


def test_the_largest_base_and_largest_hand_fit_exactly(owner, players):
    night = services.night_create(owner=owner, title="t", date=dt.date(2026, 11, 27), base=Decimal("99999.99"),
                                  players=players, first_dealer=0, rule_overrides={"max_fan": None})
    hand = services.hand_record(night=night, by=owner, entry={"events": [
        win(None, w(1, "qing_long_qi_dui", 2)), win(None, w(2)), win(None, w(3))]})
    current = HandRevision.objects.get(hand=hand, is_current=True)  # read back from the database
    assert [str(r.net.normalize()) for r in current.seat_results.order_by("seat")] == [
        str(Decimal(n).normalize()) for n in current.result["net"]]
    assert [Decimal(p["amount"]) for p in current.result["payments"]] == [
        Decimal(p["amount"]) for p in hand.current.result["payments"]]
    assert max(abs(r.net) for r in current.seat_results.all()) > 10**6  # a large hand, stored exactly
