"""Helpers for the hardening tests: finished hands, JSON posts, parallel calls, database snapshots."""
import threading

from django.db import connection, connections

from ledger.models import AuditEntry, Hand, HandRevision, IdempotencyRecord, Night, Player, Seating

from tests.factories import post_json, stored_payments  # noqa: F401 (the hardening tests import post_json from here)
from tests.hand_helpers import w, win

#: A finished hand (RULES.md §7: three wins): 李四 self-draws 清一色, then 王五 and 赵六 self-draw.
THREE_SELF_DRAWS = {"events": [win(None, w(1, "qing_yi_se", 1)), win(None, w(2)), win(None, w(3))]}
EXHAUSTED = {"events": [], "exhausted": True}

on_postgresql = connection.vendor == "postgresql"


def in_parallel(calls):
    """Run each call in its own thread (own database connection), all released at once; return results."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def snapshot():
    """Row counts of every ledger table and the sum of all payments: equal snapshots = nothing written."""
    return {
        "players": Player.objects.count(), "nights": Night.objects.count(), "seating": Seating.objects.count(),
        "seats": sorted(Seating.objects.values_list("night_id", "seat", "player_id")),
        "hands": Hand.objects.count(), "revisions": HandRevision.objects.count(),
        "payments": len(list(stored_payments())), "audit": AuditEntry.objects.count(),
        "keys": IdempotencyRecord.objects.count(),
        "total": sum(amount for _payer, _payee, amount in stored_payments()),
        "voided": Hand.objects.filter(status="voided").count(),
        "closed": Night.objects.filter(is_closed=True).count(),
        "bases": sorted(str(b) for b in Night.objects.values_list("base", flat=True)),
    }
