"""Recording a hand over the API: a bounded number of SQL statements, the same answer as before (issues 10, 17)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger.services import nights as services
from ledger.models import Hand, Night
from ledger.selectors.nights import night_next_dealer

from tests.hand_helpers import w, win


def token_client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture(autouse=True)
def daily_write_window(settings):
    """The write throttle counts in windows of a day here: its counter's one statement (an INSERT … ON CONFLICT,
    ledger/web/counters.py) is then the same in every counted request (a new window also forgets expired counts)."""
    settings.LEDGER_THROTTLE_RATES = {**settings.LEDGER_THROTTLE_RATES, "write": "100000/day"}


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


WRITES = ["INSERT ledger_hand", "INSERT ledger_handrevision", "INSERT ledger_seatresult", "INSERT ledger_winresult",
          "INSERT ledger_auditentry"]  # a hand's wins, one row each (issue 18); its payments are in its revision's result


def record_shapes():
    """Token, the write throttle's count, the night read and locked among those the caller may write to (one
    statement: rights.writable_nights; a refused caller finds no row and holds no lock), then (after the lock is
    held, so parallel writers see each other's hands) its seats with their players' standings and its last hand
    and next dealer (one statement), the hand's rows (one INSERT per table: save() and bulk_create()), the standings
    with the hand added (one upsert: ledger.services.standings), its audit entry, the generation of its group
    (ledger.services.audit), the commit."""
    return ["SELECT authtoken_token", "INSERT ledger_ratecounter", "BEGIN", "SELECT ledger_night",
            "SELECT ledger_seating", *WRITES[:-1], "INSERT ledger_nightstanding", WRITES[-1], "UPDATE ledger_group",
            "COMMIT"]


def most(postgresql: int, sqlite: int) -> int:
    return postgresql if connection.vendor == "postgresql" else sqlite


def test_recording_a_hand_takes_thirteen_statements_with_token_authentication(transactional_db, night, owner):
    """Everything counted (token, the write throttle's counter, the night with its rights and its lock, its seats
    and last hand, inserts, the standings, the group's generation, the transaction). With REDIS_URL the counter is
    in Redis: one statement less. No savepoint (services.hand_record checks before it writes)."""
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    response, queries = record_statements(client, night, {"events": [win(2, w(3, "qing_yi_se"))], "exhausted": True})
    assert shapes(queries) == record_shapes(), "\n".join(q["sql"][:120] for q in queries.captured_queries)
    assert len(queries) == 13  # one INSERT per table (issue 17: the chained INSERT of 8 on PostgreSQL is gone)
    [read] = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT") and "FROM \"ledger_night\""
              in q["sql"]]
    assert connection.vendor != "postgresql" or "FOR UPDATE" in read
    assert "EXISTS" in read  # the scorekeepers' and the group's writers' grants (rights.writable_nights)
    assert response.json()["number"] == 2
    assert response.json()["players"] == ["张三", "李四", "王五", "赵六"]
    assert response.json()["dealer"] == 1  # the self-drawing winner of hand 1 deals


def test_the_write_throttle_counts_in_one_statement_and_a_new_window_forgets_expired_counts(night, owner, settings):
    """One atomic INSERT … ON CONFLICT … RETURNING per write; no read-then-write of a cache (issue 16)."""
    settings.LEDGER_THROTTLE_RATES = {**settings.LEDGER_THROTTLE_RATES, "write": "1000/min"}
    client = token_client(owner)
    _response, first = record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    _response, second = record_statements(client, night, {"events": [win(None, w(2))], "exhausted": True})
    counted = [q["sql"] for q in second.captured_queries if "ledger_ratecounter" in q["sql"]]
    assert len(counted) == 1 and "ON CONFLICT" in counted[0] and "RETURNING" in counted[0]
    assert not any("ledger_cache" in q["sql"] for q in second.captured_queries)
    starts = [q["sql"] for q in first.captured_queries if "ledger_ratecounter" in q["sql"]]
    assert len(starts) in (1, 2) and (len(starts) == 1 or starts[1].startswith("DELETE"))


def test_a_scorekeeper_records_in_as_many_statements_as_the_owner(transactional_db, night, keeper, settings):
    """The keeper's grant is asked inside the night's locked read (rights.writable_nights), not by a query of its
    own."""
    client = token_client(keeper)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    _response, queries = record_statements(client, night, {"events": [win(None, w(2))], "exhausted": True})
    assert shapes(queries) == record_shapes()


def test_with_an_idempotency_key_a_hand_takes_two_statements_more(transactional_db, night, owner, settings):
    """The key's row is claimed by one INSERT in the write's transaction (no savepoint) and given the response."""
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})  # the day's count begins
    body = {"events": [win(None, w(2))], "exhausted": True}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/nights/{night.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 201
    expected = record_shapes()
    assert shapes(queries) == (expected[:3] + ["INSERT ledger_idempotencyrecord"] + expected[3:-1]
                               + ["UPDATE ledger_idempotencyrecord", "COMMIT"])
    assert not any("SAVEPOINT" in q["sql"] for q in queries.captured_queries)
    assert len(queries) == 15
    again = client.post(f"/api/nights/{night.pk}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.json() == response.json() and again["Idempotent-Replayed"] == "true"
    assert night.hands.count() == 2


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

    def half_written(revision, seats, wins):
        revision.save()  # the hand and its revision go in, then the database refuses the rest
        raise IntegrityError("disk full")
    monkeypatch.setattr(services, "_write_revision", half_written)
    with pytest.raises(IntegrityError):
        with transaction.atomic():
            night.title = "改了名"
            night.save(update_fields=["title"])
            services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    night.refresh_from_db()
    assert night.title == "周五夜" and night.hands.count() == 0 and not Hand.objects.exists()


def test_a_hand_is_written_with_one_insert_per_table(transactional_db, night, owner, settings):
    """The hand, its revision (its payments in its result), seat results, wins and audit entry: save() and
    bulk_create()."""
    client = token_client(owner)
    record_statements(client, night, {"events": [win(None, w(1))], "exhausted": True})
    response, queries = record_statements(client, night, {"events": [win(2, w(3, "qing_yi_se"))], "exhausted": True})
    writes = [q["sql"] for q in queries.captured_queries
              if not q["sql"].startswith(("SELECT", "BEGIN", "COMMIT")) and "ledger_ratecounter" not in q["sql"]
              and "ledger_nightstanding" not in q["sql"]  # the standings moved by the hand (one upsert, counted above)
              and "SET \"generation\"" not in q["sql"]]  # the group's generation (ledger.services.audit)
    assert len(writes) == len(WRITES) and all(sql.startswith("INSERT INTO") for sql in writes)
    hand = Hand.objects.get(night=night, number=2)
    revision = hand.revisions.get()
    payments = response.json()["result"]["payments"]
    assert revision.result["payments"] == payments  # who paid whom, by seat, as the engine gave them
    [winner] = [w["player"] for w in response.json()["result"]["wins"]]
    assert [(r.seat, r.won) for r in revision.seat_results.order_by("seat")] == [(s, s == winner) for s in range(4)]
    entry = hand.audit_entries.get() if hasattr(hand, "audit_entries") else night.audit.get(hand=hand)
    assert entry.after["version"] == 1 and entry.after["result"] == revision.result
