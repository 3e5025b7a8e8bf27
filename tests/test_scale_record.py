"""Recording a hand over the API: a bounded number of SQL statements, the same answer as before (issue 10)."""
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger import services
from ledger.models import Hand, Night
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


def shapes(queries):
    """Each statement's kind and table, e.g. 'INSERT ledger_hand' ('FROM' outside any subquery for a SELECT)."""
    out = []
    for query in queries.captured_queries:
        words = query["sql"].replace('"', "").split()
        depth, table = 0, ""
        for i, word in enumerate(words[:-1]):
            if depth == 0 and word.upper() in ("INTO", "FROM", "UPDATE"):
                table = words[i + 1]
                break
            depth += word.count("(") - word.count(")")
        out.append(f"{words[0].upper()} {table}".strip())
    return out


WRITES = ["INSERT ledger_hand", "INSERT ledger_handrevision", "INSERT ledger_payment", "INSERT ledger_seatresult",
          "INSERT ledger_winresult", "INSERT ledger_auditentry"]  # a hand's wins, one row each (issue 18)


def record_shapes():
    """Token, the night's lock, the hand's rows (one statement on PostgreSQL: bulk.insert_linked), the commit."""
    writes = ["WITH"] if connection.vendor == "postgresql" else WRITES
    return ["SELECT authtoken_token", "BEGIN", "SELECT ledger_night", *writes, "COMMIT"]


def test_recording_a_hand_takes_at_most_twelve_statements_with_token_authentication(transactional_db, night, owner,
                                                                                   settings):
    """Everything counted (token, the night's lock with the rights checked on it, inserts, the transaction), but
    the write throttle's counter: that lives in the cache, which a deployment puts outside the database (Redis,
    memcached). No second read of the night, no savepoint (services.hand_record checks before it writes)."""
    settings.CACHES = OFF_DATABASE_CACHE
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    response, queries = record_statements(client, night, {"events": [win(2, w(3, "qing_yi_se"))], "exhausted": True})
    assert shapes(queries) == record_shapes(), "\n".join(q["sql"][:120] for q in queries.captured_queries)
    assert len(queries) <= 12
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


def test_a_scorekeeper_records_in_as_few_statements_as_the_owner_plus_the_rights_check(transactional_db, night, keeper,
                                                                                      settings):
    settings.CACHES = OFF_DATABASE_CACHE
    client = token_client(keeper)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    _response, queries = record_statements(client, night, {"events": [win(None, w(2))], "exhausted": True})
    assert len(queries) <= 13
    # the owner's nine, and whether the keeper is one of the night's scorekeepers
    expected = record_shapes()
    assert shapes(queries) == expected[:3] + ["SELECT auth_user"] + expected[3:]


def test_with_an_idempotency_key_a_hand_takes_two_statements_more(transactional_db, night, owner, settings):
    """The key's row is claimed by one INSERT … ON CONFLICT DO NOTHING (no savepoint) and given the response."""
    settings.CACHES = OFF_DATABASE_CACHE
    client = token_client(owner)
    body = {"events": [win(None, w(1))], "exhausted": True}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/nights/{night.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 201
    expected = record_shapes()
    assert shapes(queries) == (expected[:2] + ["INSERT ledger_idempotencyrecord"] + expected[2:-1]
                               + ["UPDATE ledger_idempotencyrecord", "COMMIT"])
    assert not any("SAVEPOINT" in q["sql"] for q in queries.captured_queries)
    again = client.post(f"/api/nights/{night.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.json() == response.json() and again["Idempotent-Replayed"] == "true"
    assert night.hands.count() == 1


def test_the_locked_night_is_the_orm_s_night_field_for_field(night, owner, players):
    """night_locked_for_record reads its row with a cursor and converts each column as the ORM does (JSON, dates,
    decimals, booleans, and on SQLite every one of them); its answers are the annotated query's."""
    from django.db import transaction
    from ledger.evenings.services import evening_create
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    evening = evening_create(group=night.group, by=owner, title="周五", date=night.date, venue="茶馆")
    other = services.night_create(owner=owner, title="二号桌", date=night.date, base=Decimal("0.5"),
                                  players=players, first_dealer=2, evening=evening,
                                  fee={"mode": "per_player", "amount": "5"})
    services.night_close(night=other, by=owner)
    for pk in (night.pk, other.pk):
        with transaction.atomic():
            locked = services.night_locked_for_record(pk)
            orm = services._record_lock_query(pk).get()
        for field in Night._meta.concrete_fields:
            assert getattr(locked, field.attname) == getattr(orm, field.attname), field.name
            assert type(getattr(locked, field.attname)) is type(getattr(orm, field.attname)), field.name
        for name in ["top_number", "last_next_dealer"] + [f"seat_{s}_{f}" for s in range(4) for f in ("id", "name")]:
            assert getattr(locked, name) == getattr(orm, name), name
    assert services.night_locked_for_record(10**9) is None


def test_a_refused_hand_leaves_the_callers_transaction_usable(night, owner):
    """No savepoint of its own: everything that refuses a hand is checked before its first write."""
    from django.db import transaction
    from scoring import ScoringError
    with transaction.atomic():
        with pytest.raises(ScoringError):
            services.hand_record(night=night, by=owner, entry={"events": [{"type": "chi"}]})
        with pytest.raises(ScoringError):
            services.hand_record(night=night, by=owner, entry={"events": [], "colour": 1})
        hand = services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    assert hand.number == 1 and night.hands.count() == 1


def test_an_error_while_writing_rolls_back_the_whole_transaction(night, owner, monkeypatch):
    from django.db import IntegrityError, transaction
    from ledger import bulk

    def half_written(steps):
        bulk.insert(steps[0][0][0])  # the hand row goes in, then the database refuses the rest
        raise IntegrityError("disk full")
    monkeypatch.setattr(bulk, "insert_linked", half_written)
    with pytest.raises(IntegrityError):
        with transaction.atomic():
            night.title = "改了名"
            night.save(update_fields=["title"])
            services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    night.refresh_from_db()
    assert night.title == "周五夜" and night.hands.count() == 0 and not Hand.objects.exists()


def test_a_hand_is_written_in_one_statement_on_postgresql(transactional_db, night, owner, settings):
    """The hand, its revision, payments, seat results and audit entry: one INSERT … WITH on PostgreSQL."""
    settings.CACHES = OFF_DATABASE_CACHE
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    response, queries = record_statements(client, night, {"events": [win(2, w(3, "qing_yi_se"))], "exhausted": True})
    writes = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SELECT", "BEGIN", "COMMIT"))]
    if connection.vendor == "postgresql":
        assert len(writes) == 1 and writes[0].startswith("WITH s0 AS (INSERT INTO")
    else:
        assert len(writes) == len(WRITES)
    hand = Hand.objects.get(night=night, number=2)
    revision = hand.revisions.get()
    payments = response.json()["result"]["payments"]
    stored = list(revision.payments.order_by("position"))
    assert [(p.payer_seat, p.payee_seat, p.amount, p.reason) for p in stored] \
        == [(p["from"], p["to"], Decimal(p["amount"]), p["reason"]) for p in payments]
    [winner] = [w["player"] for w in response.json()["result"]["wins"]]
    assert [(r.seat, r.won) for r in revision.seat_results.order_by("seat")] == [(s, s == winner) for s in range(4)]
    entry = hand.audit_entries.get() if hasattr(hand, "audit_entries") else night.audit.get(hand=hand)
    assert entry.after["version"] == 1 and entry.after["result"] == revision.result
