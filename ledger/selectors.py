"""Reads of the ledger: seating, next dealer, hands, totals and settlement (words are in presenters.py)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch, QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import Transfer, settle_night

from .models import Hand, HandRevision, Night, Payment, Player


def night_seating(night: Night) -> list[Player]:
    """The players in seats 0-3 now."""
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
    """The night's hands with `current_list` (the current revision and its players) prefetched; filter at will."""
    current = HandRevision.objects.filter(is_current=True).select_related(
        "player_0", "player_1", "player_2", "player_3")
    return (night.hands.select_related("recorded_by")
            .prefetch_related(Prefetch("revisions", queryset=current, to_attr="current_list")))


@dataclass(frozen=True)
class Total:
    player: Player
    seat: int | None  # seat now, None for a player substituted out
    amount: Decimal


def night_totals(night: Night) -> list[Total]:
    """Each player's running total (database sums of payments that count), seated players first."""
    net = Payment.objects.filter(revision__hand__night=night).counted().net_by_player()
    seating = night_seating(night)
    seat_of = {p.pk: s for s, p in enumerate(seating)}
    others = Player.objects.filter(pk__in=set(net) - set(seat_of)).order_by("name")
    totals = [Total(p, s, net.get(p.pk, Decimal(0))) for s, p in enumerate(seating)]
    totals += [Total(p, None, net[p.pk]) for p in others]
    return totals


def night_settlement(night: Night) -> list[Transfer]:
    """The fewest transfers that settle the night (payer and payee are Player objects)."""
    totals = night_totals(night)
    return settle_night({t.player: t.amount for t in totals})
