"""Reads of the ledger: seating, next dealer, hands, totals and settlement (words are in presenters.py)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery, Sum

from scoring import Plan, Transfer, format_amount, settle_night_plan

from .models import SEATS, AuditEntry, Hand, HandRevision, Night, Player


def night_seating(night: Night) -> list[Player]:
    """The players in seats 0-3 now (from the night's prefetched seating when the view loaded it)."""
    if "seating" in getattr(night, "_prefetched_objects_cache", {}):
        return [s.player for s in sorted(night.seating.all(), key=lambda s: s.seat)]
    return [s.player for s in night.seating.select_related("player").order_by("seat")]


def night_next_dealer(night: Night) -> int:
    """The dealer of the next hand: from the last hand that counts, else the first dealer."""
    last = (HandRevision.objects.filter(hand__night=night, hand__status=Hand.Status.RECORDED, is_current=True)
            .order_by("-hand__number").values_list("result", flat=True).first())
    return int(last["next_dealer"]) if last else night.first_dealer


def night_hands(night: Night) -> list[Hand]:
    """Every hand of the night, voided ones included, with its current revision and players loaded."""
    return list(night_hands_query(night).order_by("number"))


def night_hands_query(night: Night) -> QuerySet[Hand]:
    """The night's hands with `current_list` (the current revision) prefetched; filter at will.

    The players' names come with each revision (`player_names`, as recorded), so the Player rows are not read.
    """
    current = HandRevision.objects.filter(is_current=True)
    return (night.hands.select_related("recorded_by")
            .prefetch_related(Prefetch("revisions", queryset=current, to_attr="current_list")))


@dataclass(frozen=True)
class Total:
    player: Player
    seat: int | None  # seat now, None for a player substituted out
    amount: Decimal


def night_nets(night: Night) -> dict[int, Decimal]:
    """Player id -> running total of the night, in one aggregate query over the revisions that count.

    Each revision stores its four seats' nets (``net_0``..``net_3``); grouping by the line-up (the four
    player columns) gives one row per distinct seating of the night, summed here per player.
    """
    seats = ("player_0", "player_1", "player_2", "player_3")
    rows = (HandRevision.objects.filter(hand__night=night, is_current=True, hand__status=Hand.Status.RECORDED)
            .order_by().values(*seats).annotate(*(Sum(f"net_{s}") for s in SEATS)))
    net: dict[int, Decimal] = {}
    for row in rows:
        for s in SEATS:
            net[row[seats[s]]] = net.get(row[seats[s]], Decimal(0)) + (row[f"net_{s}__sum"] or Decimal(0))
    return net


@dataclass(frozen=True)
class Summary:
    nets: dict[int, Decimal]  # player id -> the night's total
    transfers: list[tuple[int, int, Decimal]]  # (payer id, payee id, amount): the settlement
    method: str  # how the settlement was found: "exact" or "greedy" (scoring.settle_night_plan)
    lower_bound: int  # the fewest transfers any settlement can have


def night_summary(night: Night) -> Summary:
    """The night's totals and settlement (the fewest transfers, and how they were found), computed once per
    change of the night.

    Both are stored on the night (``Night.totals_cache``) with the id of the night's latest audit entry at
    the time, and reused while that entry is still the latest: every change of a night (record, correction,
    void, seat change, close) writes an audit entry in its transaction, under the night's row lock, so a
    newer entry means a change. A read is then one query, whatever the length of the night.
    """
    latest = AuditEntry.objects.filter(night=OuterRef("pk")).order_by("-at", "-id").values("id")[:1]
    cache, audit = (Night.objects.filter(pk=night.pk).annotate(latest_audit=Subquery(latest))
                    .values_list("totals_cache", "latest_audit").get())
    if cache and cache.get("audit") == audit:
        return Summary({int(k): Decimal(v) for k, v in cache["nets"].items()},
                       [(payer, payee, Decimal(amount)) for payer, payee, amount in cache["transfers"]],
                       cache["method"], cache["lower_bound"])
    totals = _compute_totals(night, night_nets(night))
    nets = {t.player.pk: t.amount for t in totals}
    plan = settle_night_plan(nets)
    summary = Summary(nets, [(cast(int, t.payer), cast(int, t.payee), t.amount) for t in plan.transfers],
                      plan.method, plan.lower_bound)
    # Should a write commit meanwhile, its audit entry is newer than `audit`: the next reader recomputes.
    Night.objects.filter(pk=night.pk).update(totals_cache={
        "audit": audit, "method": summary.method, "lower_bound": summary.lower_bound,
        "nets": {str(k): format_amount(v) for k, v in nets.items()},
        "transfers": [[payer, payee, format_amount(amount)] for payer, payee, amount in summary.transfers]})
    return summary


def _compute_totals(night: Night, net: dict[int, Decimal]) -> list[Total]:
    seating = night_seating(night)
    seat_of = {p.pk: s for s, p in enumerate(seating)}
    missing = set(net) - set(seat_of)
    others = Player.objects.filter(pk__in=missing).order_by("name") if missing else []
    totals = [Total(p, s, net.get(p.pk, Decimal(0))) for s, p in enumerate(seating)]
    totals += [Total(p, None, net[p.pk]) for p in others]
    return totals


def night_totals(night: Night) -> list[Total]:
    """Each player's running total (stored nets summed once per change of the night), seated players first."""
    return _compute_totals(night, night_summary(night).nets)


def night_settlement_plan(night: Night) -> Plan:
    """The settlement of the night (payer and payee are Player objects) and how it was found, once per change."""
    summary = night_summary(night)
    ids = {t[0] for t in summary.transfers} | {t[1] for t in summary.transfers}
    players = Player.objects.in_bulk(ids) if ids else {}
    return Plan([Transfer(players[payer], players[payee], amount) for payer, payee, amount in summary.transfers],
                cast(Any, summary.method), summary.lower_bound)


def night_settlement(night: Night) -> list[Transfer]:
    """The fewest transfers that settle the night (payer and payee are Player objects), once per change."""
    return night_settlement_plan(night).transfers
