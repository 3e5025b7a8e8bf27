"""`manage.py check_ledger`: re-score every stored revision with its frozen rules and check the money.

For each hand revision (current or not): the stored record is scored again with ``scoring.score_hand``
(the record holds its base, rules and dealer) and the result must equal the stored result; its seat
result rows must equal the result's nets (seat, player, amount); each result's ``net`` must sum to zero and
match its payments.  For each night: hand numbers are 1..n without gaps, each
hand has exactly one current revision, the totals of the hands that count (from their results) sum to
zero, and the totals the database sums from the seat result rows equal them; adjustments are numbered without gaps
and their stored seat nets are those their values give; the night standings kept for statistics equal those
recomputed from the rows they sum (ledger.services.standings).

Prints one line per difference and exits 1 if there is any (0 and a summary otherwise).
"""
from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Q

from ledger.models import Hand, HandRevision, MoneySum, Night, SeatResult
from ledger.selectors.stats import counted_results
from ledger.services import standings
from scoring import ScoringError, score_hand


def revision_problems(revision: HandRevision, rows: list[SeatResult]) -> list[str]:
    problems = []
    try:
        result = score_hand(revision.record).as_dict()
    except ScoringError as exc:
        return [f"the stored record no longer scores: {exc}"]
    except Exception as exc:  # noqa: BLE001 - a check reports, never stops
        return [f"scoring failed: {exc!r}"]
    if result != revision.result:
        keys = sorted(k for k in set(result) | set(revision.result) if result.get(k) != revision.result.get(k))
        problems.append(f"result differs when re-scored ({', '.join(keys)})")
    players = [revision.player_0_id, revision.player_1_id, revision.player_2_id, revision.player_3_id]
    stored = [(r.seat, r.player_id, Decimal(r.net)) for r in sorted(rows, key=lambda r: r.seat)]
    expected = [(seat, players[seat], Decimal(n)) for seat, n in enumerate(revision.result.get("net", []))]
    if stored != expected:
        problems.append(f"seat result rows differ from the result ({len(stored)} rows, {len(expected)} seats)")
    net = [Decimal(n) for n in revision.result.get("net", [])]
    if sum(net, Decimal(0)) != 0:
        problems.append(f"net does not sum to zero: {revision.result.get('net')}")
    by_seat = [Decimal(0)] * max(len(net), 1 + max((max(p["from"], p["to"]) for p in revision.result["payments"]),
                                                   default=0))  # one entry a seat of the table (RULES.md §9)
    for p in revision.result["payments"]:
        by_seat[p["from"]] -= Decimal(p["amount"])
        by_seat[p["to"]] += Decimal(p["amount"])
    if net and by_seat != net:
        problems.append("net does not match the payments")
    return problems


def check(nights: Any) -> tuple[list[str], dict[str, int]]:
    lines: list[str] = []
    counts = {"nights": 0, "hands": 0, "revisions": 0, "payments": 0}
    for night in nights:
        counts["nights"] += 1
        numbers = list(night.hands.order_by("number").values_list("number", flat=True))
        counts["hands"] += len(numbers)
        if numbers != list(range(1, len(numbers) + 1)):
            lines.append(f"night {night.pk}: hand numbers are not 1..{len(numbers)} without gaps: {numbers}")
        for hand in night.hands.annotate(current_count=Count("revisions", filter=Q(revisions__is_current=True))):
            if hand.current_count != 1:
                lines.append(f"night {night.pk} hand {hand.number}: {hand.current_count} current revisions")
        seat_rows: dict[int, list[SeatResult]] = defaultdict(list)
        for row in SeatResult.objects.filter(revision__hand__night=night):
            seat_rows[row.revision_id].append(row)
        for revision in HandRevision.objects.filter(hand__night=night).select_related("hand").order_by(
                "hand__number", "version"):
            counts["revisions"] += 1
            counts["payments"] += len(revision.result.get("payments", []))
            for problem in revision_problems(revision, seat_rows[revision.pk]):
                lines.append(f"night {night.pk} hand {revision.hand.number} revision {revision.version}: {problem}")
        rows = {r["player_id"]: r["total"] for r in counted_results().filter(revision__hand__night=night)
                .values("player_id").annotate(total=MoneySum("net")).order_by() if r["total"]}
        results: dict[int, Decimal] = defaultdict(Decimal)
        for revision in HandRevision.objects.filter(hand__night=night, is_current=True, hand__status=Hand.Status.RECORDED):
            seats = [revision.player_0_id, revision.player_1_id, revision.player_2_id, revision.player_3_id]
            for seat, amount in enumerate(revision.result.get("net", [])):
                player = seats[seat]
                if player is None:
                    lines.append(f"night {night.pk} hand {revision.hand_id}: seat {seat} has a net but no player")
                    continue
                results[player] += Decimal(amount)
        results = {k: v for k, v in results.items() if v}
        if sum(results.values(), Decimal(0)) != 0:
            lines.append(f"night {night.pk}: totals do not sum to zero ({sum(results.values(), Decimal(0))})")
        if rows != results:
            lines.append(f"night {night.pk}: totals of the seat result rows differ from the stored results")
        lines += adjustment_problems(night)
        lines += [f"night {night.pk} player {player}: the kept standing {kept} differs from the recomputed {computed}"
                  for _night, player, kept, computed in standings.differences([night.pk])]
    return lines, counts


def adjustment_problems(night: Night) -> list[str]:
    """A night's penalties and adjustments (罚分/调整): numbers 1..n without gaps, and each one's stored seat nets
    are those its values give (one per seat, summing to zero)."""
    from ledger.services.adjustments import adjustment_nets_of
    lines = []
    adjustments = list(night.adjustments.prefetch_related("seats").order_by("number"))
    numbers = [a.number for a in adjustments]
    if numbers != list(range(1, len(numbers) + 1)):
        lines.append(f"night {night.pk}: adjustment numbers are not 1..{len(numbers)} without gaps: {numbers}")
    for adjustment in adjustments:
        stored = [Decimal(s.net) for s in sorted(adjustment.seats.all(), key=lambda s: s.seat)]
        if stored != adjustment_nets_of(adjustment):
            lines.append(f"night {night.pk} adjustment {adjustment.number}: seat nets differ from its values")
    return lines


class Command(BaseCommand):
    help = "Re-score every stored hand revision with its frozen rules; check payments and zero sums."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--night", type=int, action="append", help="check only this night (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        nights = Night.objects.order_by("pk")
        if options["night"]:
            nights = nights.filter(pk__in=options["night"])
        lines, counts = check(nights)
        for line in lines:
            self.stdout.write(line)
        summary = (f"{counts['nights']} nights, {counts['hands']} hands, {counts['revisions']} revisions, "
                   f"{counts['payments']} payments checked")
        if lines:
            raise CommandError(f"{len(lines)} differences; {summary}")
        self.stdout.write(f"ledger OK: {summary}")


__all__ = ["Command", "check", "revision_problems", "Hand"]
