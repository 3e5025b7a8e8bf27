"""Nights with many hands for the report tests and benchmark, written in bulk (the demo's hands, cycled)."""
from __future__ import annotations

from typing import Any

from ledger.services import nights as services
from ledger.management.commands.demo import DEMO_HANDS
from ledger.models import AuditEntry, Hand, HandRevision, Night, SeatResult, WinResult, seat_results, win_results
from ledger.selectors.nights import night_seating
from ledger.reports.backup import _digest
from scoring import score_hand


def add_hands(night: Night, count: int, by: Any) -> None:
    """Append `count` finished hands (the demo's twenty, cycled) with their results, in a few queries."""
    players = night_seating(night)
    start = night.hands.count()
    hands, revisions = [], []
    dealer = night.first_dealer
    for i in range(count):
        entry = DEMO_HANDS[(start + i) % len(DEMO_HANDS)]
        doc = services.hand_document(night=night, entry=entry, dealer=dealer)
        result = score_hand(doc)
        hands.append(Hand(night=night, number=start + i + 1, recorded_by=by))
        revisions.append((doc, result))
        dealer = result.next_dealer
    Hand.objects.bulk_create(hands)
    hands = list(night.hands.filter(number__gt=start).order_by("number"))
    rows = [HandRevision(hand=h, version=1, dealer=doc["dealer"], player_0=players[0], player_1=players[1],
                         player_2=players[2], player_3=players[3], record=doc, result=result.as_dict(), created_by=by)
            for h, (doc, result) in zip(hands, revisions)]
    HandRevision.objects.bulk_create(rows)
    rows = list(HandRevision.objects.filter(hand__in=hands).order_by("hand__number"))
    # The seats' results and wins, as services.hand_record writes them (the totals are summed from them).
    seats, wins = [], []
    for revision in rows:
        for row in [*seat_results(revision.result, players), *win_results(revision.result, players)]:
            row.revision = revision
            (seats if isinstance(row, SeatResult) else wins).append(row)
    SeatResult.objects.bulk_create(seats, batch_size=500)
    WinResult.objects.bulk_create(wins, batch_size=500)
    # As services.hand_record: an audit entry per hand.
    AuditEntry.objects.bulk_create(AuditEntry(night=night, hand=h, actor=by, action=AuditEntry.Action.HAND_RECORDED,
                                              after=services._snapshot(r)) for h, r in zip(hands, rows))


def unsigned(doc: dict[str, Any]) -> dict[str, Any]:
    """The backup as an editor (or an older version, or another server) leaves it: a valid digest, no signature."""
    body = {k: v for k, v in doc.items() if k not in ("digest", "signature")}
    return {**body, "digest": _digest(body)}
