"""Reads of player history and group leaderboards: database aggregates over the seat results that count.

A seat result counts when its revision is the hand's current one and the hand is not voided. "Net" here is
what a player won at the table minus their share of the table fee (台费, ``FeeShare``, written when a night
closes: open nights have none yet). Every function reads in a fixed number of queries, however many nights
and hands there are.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import (Count, DecimalField, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum, Value)
from django.db.models.functions import Coalesce

from .cache import cached
from ..models import AdjustmentSeat, FeeShare, Group, Hand, Night, Player, SeatResult, WinResult

#: The most nights the history chart (and the API's series) covers: the latest ones.
CHART_NIGHTS = 200
#: How many biggest hands and favourite patterns a history shows.
TOP = 5

ZERO = Value(Decimal(0), output_field=DecimalField(max_digits=16, decimal_places=4))


def counted_results() -> QuerySet[SeatResult]:
    """Seat results of current revisions of hands that are not voided."""
    return SeatResult.objects.filter(revision__is_current=True, revision__hand__status=Hand.Status.RECORDED)


def counted_wins() -> QuerySet[WinResult]:
    """Wins (one row each: a 血流成河 hand holds many) of current revisions of hands that are not voided."""
    return WinResult.objects.filter(revision__is_current=True, revision__hand__status=Hand.Status.RECORDED)


def _ratio(part: int, whole: int) -> Decimal | None:
    """part / whole to four places, or None when there is nothing to divide by."""
    return (Decimal(part) / whole).quantize(Decimal("0.0001")) if whole else None


@dataclass(frozen=True)
class PlayerTotals:
    """A player's record over every night that counts."""

    nights: int
    hands: int
    wins: int  # each win counts (血流成河: a player may win several times a hand)
    self_draws: int
    deal_in_hands: int  # hands in which the player's discard paid at least one winner (一炮多响 counts once)
    hands_net: Decimal  # what the hands brought
    fees: Decimal  # fee shares of those nights
    adjustments: Decimal = Decimal(0)  # what penalties and adjustments (罚分/调整) of those nights brought

    @property
    def net(self) -> Decimal:
        return self.hands_net + self.adjustments - self.fees

    @property
    def win_rate(self) -> Decimal | None:
        """Wins per hand played (counted per win: above 1 for a player who wins more than once a 血流 hand)."""
        return _ratio(self.wins, self.hands)

    @property
    def self_draw_rate(self) -> Decimal | None:
        """Self-draws (自摸) among wins."""
        return _ratio(self.self_draws, self.wins)

    @property
    def deal_in_rate(self) -> Decimal | None:
        """Hands in which the player dealt in (点炮) among hands played."""
        return _ratio(self.deal_in_hands, self.hands)


@dataclass(frozen=True)
class NightPoint:
    """One night of a player's history, with the running total after it (oldest first in a series)."""

    night_id: int
    date: dt.date
    title: str
    hands: int
    fee: Decimal
    net: Decimal  # after the fee share
    cumulative: Decimal


@dataclass(frozen=True)
class BigHand:
    """One of a player's biggest wins."""

    night_id: int
    night_title: str
    night_date: dt.date
    number: int
    pattern: str
    fan: int
    won_amount: Decimal
    self_drawn: bool


@dataclass(frozen=True)
class PatternCount:
    pattern: str
    wins: int


@dataclass(frozen=True)
class PlayerHistory:
    """Everything a player's page and API show but the paged list of nights."""

    player: Player
    totals: PlayerTotals
    series: list[NightPoint]  # oldest first; the latest CHART_NIGHTS nights
    series_truncated: bool  # True when older nights were left out of the series
    biggest: list[BigHand]
    favourites: list[PatternCount]


def counted_adjustments() -> QuerySet[AdjustmentSeat]:
    """Seat nets of penalties and adjustments (罚分/调整) that are not voided: they count in nets only."""
    return AdjustmentSeat.objects.filter(adjustment__status=Hand.Status.RECORDED)


def _adjusted_in_night(player: Player, night_ref: str) -> Coalesce:
    rows = (counted_adjustments().filter(player=player, adjustment__night=OuterRef(night_ref)).order_by()
            .values("player").annotate(s=Sum("net")).values("s"))
    return Coalesce(Subquery(rows), ZERO)


def _fee_of_night(player: Player, night_ref: str) -> Subquery:
    return Subquery(FeeShare.objects.filter(night=OuterRef(night_ref), player=player).values("amount")[:1])


def player_nights(player: Player) -> QuerySet[Night]:
    """The nights the player has counted hands in, each annotated with ``hands_played``, ``hands_net``, ``fee_share``
    and ``net`` (after the fee): ready for keyset paging by (date, id)."""
    results = counted_results().filter(player=player, revision__hand__night=OuterRef("pk")).order_by()

    def per_night(aggregate: Any) -> Subquery:
        return Subquery(results.values("player").annotate(v=aggregate).values("v"))

    # A player's nights are their group's (a night's four players share its group): only those are looked at.
    return (Night.objects.filter(group_id=player.group_id).filter(Exists(results))
            .annotate(hands_played=per_night(Count("pk")), hands_net=per_night(Sum("net")),
                      fee_share=Coalesce(_fee_of_night(player, "pk"), ZERO),
                      adjusted=_adjusted_in_night(player, "pk"))
            .annotate(net=F("hands_net") + F("adjusted") - F("fee_share")))


def _totals(player: Player) -> PlayerTotals:
    results = counted_results().filter(player=player)
    row = results.aggregate(
        hands=Count("pk"), nights=Count("revision__hand__night", distinct=True),
        wins=Coalesce(Sum("wins"), 0), self_draws=Coalesce(Sum("self_draws"), 0),
        deal_in_hands=Count("pk", filter=Q(dealt_in__gt=0)), hands_net=Coalesce(Sum("net"), ZERO))
    # The fee shares of the nights played (a fee share of a night whose every hand was voided is left out, so
    # the totals stay the sum of the nights listed).
    fees = (FeeShare.objects.filter(player=player)
            .filter(Exists(counted_results().filter(player=player, revision__hand__night=OuterRef("night"))))
            .order_by().values("player").annotate(s=Sum("amount")).values("s"))
    # Adjustments of the nights played, likewise (wins and deal-ins never count them); both sums in one statement.
    adjusted = (counted_adjustments().filter(player=player)
                .filter(Exists(counted_results().filter(player=player,
                                                        revision__hand__night=OuterRef("adjustment__night"))))
                .order_by().values("player").annotate(s=Sum("net")).values("s"))
    sums = (Player.objects.filter(pk=player.pk)
            .annotate(fees=Coalesce(Subquery(fees), ZERO), adjusted=Coalesce(Subquery(adjusted), ZERO))
            .values("fees", "adjusted").get())
    fees, adjusted = sums["fees"], sums["adjusted"]
    return PlayerTotals(nights=row["nights"], hands=row["hands"], wins=row["wins"], self_draws=row["self_draws"],
                        deal_in_hands=row["deal_in_hands"], hands_net=row["hands_net"], fees=fees,
                        adjustments=adjusted)


def _series(player: Player, totals: PlayerTotals) -> tuple[list[NightPoint], bool]:
    """The latest CHART_NIGHTS nights, oldest first, in one query grouped by night; the running total starts
    from what the nights left out brought, so the line ends at the player's net."""
    rows = list(counted_results().filter(player=player).order_by()
                .values(night_id=F("revision__hand__night"), date=F("revision__hand__night__date"),
                        title=F("revision__hand__night__title"))
                .annotate(hands=Count("pk"), hands_net=Sum("net"),
                          fee=Coalesce(_fee_of_night(player, "revision__hand__night"), ZERO),
                          adjusted=_adjusted_in_night(player, "revision__hand__night"))
                .order_by("-date", "-night_id")[:CHART_NIGHTS + 1])
    truncated = len(rows) > CHART_NIGHTS
    rows = rows[:CHART_NIGHTS]
    running = totals.net - sum((r["hands_net"] + r["adjusted"] - r["fee"] for r in rows), Decimal(0))
    points = []
    for r in reversed(rows):
        net = r["hands_net"] + r["adjusted"] - r["fee"]
        running += net
        points.append(NightPoint(night_id=r["night_id"], date=r["date"], title=r["title"], hands=r["hands"],
                                 fee=r["fee"], net=net, cumulative=running))
    return points, truncated


def _biggest(player: Player) -> list[BigHand]:
    rows = (counted_wins().filter(player=player)
            .order_by("-fan", "-amount", "-revision__hand__night__date", "-revision__hand__night",
                      "-revision__hand__number", "event")
            .values("pattern", "fan", "self_drawn", won_amount=F("amount"), number=F("revision__hand__number"),
                    night_id=F("revision__hand__night"), night_title=F("revision__hand__night__title"),
                    night_date=F("revision__hand__night__date"))[:TOP])
    return [BigHand(night_id=r["night_id"], night_title=r["night_title"], night_date=r["night_date"],
                    number=r["number"], pattern=r["pattern"], fan=r["fan"] or 0, won_amount=r["won_amount"],
                    self_drawn=r["self_drawn"]) for r in rows]


def _favourites(player: Player) -> list[PatternCount]:
    rows = (counted_wins().filter(player=player).order_by().values("pattern")
            .annotate(wins=Count("pk")).order_by("-wins", "pattern")[:TOP])
    return [PatternCount(r["pattern"], r["wins"]) for r in rows]


def player_history(player: Player) -> PlayerHistory:
    """A player's totals, rates, per-night series, biggest hands and favourite patterns: computed (six queries)
    once per change of the player's group, then read from the cache (see stats.cache)."""
    return cached(player.group, ("player", player.pk), lambda: compute_player_history(player))


def compute_player_history(player: Player) -> PlayerHistory:
    """`player_history` without the cache (six queries)."""
    totals = _totals(player)
    series, truncated = _series(player, totals)
    return PlayerHistory(player=player, totals=totals, series=series, series_truncated=truncated,
                         biggest=_biggest(player), favourites=_favourites(player))


@dataclass(frozen=True)
class Standing:
    """One player's line of a group leaderboard over a date range."""

    player_id: int
    name: str
    nights: int
    hands: int
    wins: int
    hands_net: Decimal
    fees: Decimal
    adjustments: Decimal = Decimal(0)  # penalties and adjustments (罚分/调整) in the range

    @property
    def net(self) -> Decimal:
        return self.hands_net + self.adjustments - self.fees

    @property
    def win_rate(self) -> Decimal | None:
        return _ratio(self.wins, self.hands)


def group_leaderboard(group: Group, date_from: dt.date | None, date_to: dt.date | None) -> list[Standing]:
    """The group's leaderboard over a date range, computed once per change of the group (see stats.cache)."""
    return cached(group, ("board", date_from, date_to), lambda: _group_leaderboard(group, date_from, date_to))


def _group_leaderboard(group: Group, date_from: dt.date | None, date_to: dt.date | None) -> list[Standing]:
    """Every active player of the group with their net (after fee shares), nights, hands and wins over the
    nights dated from ``date_from`` to ``date_to`` (both included; None: unbounded), best net first.

    One query: the seat results are aggregated per player through one join, the fee shares in a subquery
    (joining both would multiply each by the other).
    """
    in_range = Q()
    fee_range = Q()
    adjusted_range = Q()
    if date_from is not None:
        in_range &= Q(seat_results__revision__hand__night__date__gte=date_from)
        fee_range &= Q(night__date__gte=date_from)
        adjusted_range &= Q(adjustment__night__date__gte=date_from)
    if date_to is not None:
        in_range &= Q(seat_results__revision__hand__night__date__lte=date_to)
        fee_range &= Q(night__date__lte=date_to)
        adjusted_range &= Q(adjustment__night__date__lte=date_to)
    counted = in_range & Q(seat_results__revision__is_current=True,
                           seat_results__revision__hand__status=Hand.Status.RECORDED)
    fees = (FeeShare.objects.filter(fee_range, player=OuterRef("pk")).order_by().values("player")
            .annotate(s=Sum("amount")).values("s"))
    adjusted = (counted_adjustments().filter(adjusted_range, player=OuterRef("pk")).order_by().values("player")
                .annotate(s=Sum("net")).values("s"))
    players = (Player.objects.filter(group=group).active()
               .annotate(hands=Count("seat_results", filter=counted),
                         wins=Coalesce(Sum("seat_results__wins", filter=counted), 0),
                         nights=Count("seat_results__revision__hand__night", filter=counted, distinct=True),
                         hands_net=Coalesce(Sum("seat_results__net", filter=counted), ZERO),
                         fees=Coalesce(Subquery(fees), ZERO), adjusted=Coalesce(Subquery(adjusted), ZERO))
               .annotate(net=F("hands_net") + F("adjusted") - F("fees"))
               .order_by("-net", "-nights", "name", "pk")
               .values("pk", "name", "hands", "wins", "nights", "hands_net", "fees", "adjusted"))
    return [Standing(player_id=p["pk"], name=p["name"], nights=p["nights"], hands=p["hands"], wins=p["wins"],
                     hands_net=p["hands_net"], fees=p["fees"], adjustments=p["adjusted"]) for p in players]
