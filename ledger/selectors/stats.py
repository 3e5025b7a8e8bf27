"""Reads of player history and group leaderboards.

A seat result counts when its revision is the hand's current one and the hand is not voided. "Net" here is
what a player won at the table minus their share of the table fee (台费, ``FeeShare``, written when a night
closes: open nights have none yet). Totals, nights and leaderboards add up the night standings
(`NightStanding`: one row per night and player, kept with every change by ledger.services.standings), so they
read one row per night, not one per hand; a player's biggest wins and favourite patterns read their wins.
Every function reads in a fixed number of queries, however many nights and hands there are.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum

from ledger.selectors.stats_cache import cached
from ledger.models import AdjustmentSeat, Group, Hand, MoneySum, NightStanding, Player, SeatResult, WinResult

#: The most nights the history chart (and the API's series) covers: the latest ones.
CHART_NIGHTS = 200
#: How many biggest hands and favourite patterns a history shows.
TOP = 5

def counted_results() -> QuerySet[SeatResult]:
    """Seat results of current revisions of hands that are not voided."""
    return SeatResult.objects.filter(revision__is_current=True, revision__hand__status=Hand.Status.RECORDED)


def counted_wins() -> QuerySet[WinResult]:
    """Wins (one row each: a 血流成河 hand holds many) of current revisions of hands that are not voided."""
    return WinResult.objects.filter(revision__is_current=True, revision__hand__status=Hand.Status.RECORDED)


def _ratio(part: int, whole: int) -> Decimal | None:
    """part / whole, exact to the decimal context's 28 digits, or None when there is nothing to divide by: rounded
    once where it is shown (the API's four places, a page's whole percent), never twice (50.495% read 51%)."""
    return Decimal(part) / whole if whole else None


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
    won_hands: int = 0  # hands won in, once each

    @property
    def net(self) -> Decimal:
        return self.hands_net + self.adjustments - self.fees

    @property
    def win_rate(self) -> Decimal | None:
        """Hands won among hands played, 0 to 1 (a 血流成河 hand won several times counts once, as 点炮率 counts a
        hand once)."""
        return _ratio(self.won_hands, self.hands)

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
    roots: int = 0  # what made the fan besides the pattern ("平胡 · 3 番" said nothing of 带1根 杠上花: a walk)
    flags: tuple[str, ...] = ()


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


@dataclass(frozen=True)
class NightPlayed:
    """What one night brought a player (read by `nights_played`): what a history and its list of nights show."""

    night_id: int
    date: dt.date
    title: str
    is_closed: bool
    group_id: int
    hands: int
    wins: int
    won_hands: int
    self_draws: int
    deal_in_hands: int
    hands_net: Decimal
    fee: Decimal
    adjusted: Decimal

    @property
    def net(self) -> Decimal:
        return self.hands_net + self.adjusted - self.fee


def nights_played(player: Player) -> list[NightPlayed]:
    """The nights the player has counted hands in, newest first, with what each brought: the player's night
    standings (one row per night, kept with every change: ledger.services.standings), one query. A fee share or
    adjustment of a night whose every hand of the player's was voided is left out, so the totals stay the sum of
    the nights listed."""
    rows = (NightStanding.objects.filter(player=player, hands__gt=0)
            .order_by("-night__date", "-night_id")
            .values("night_id", "hands", "wins", "won_hands", "self_draws", "deal_in_hands", "hands_net", "fee",
                    "adjusted",
                    date=F("night__date"), title=F("night__title"), is_closed=F("night__is_closed"),
                    group_id=F("night__group_id")))
    return [NightPlayed(**r) for r in rows]


def _totals(nights: list[NightPlayed]) -> PlayerTotals:
    return PlayerTotals(nights=len(nights), hands=sum(n.hands for n in nights), wins=sum(n.wins for n in nights),
                        self_draws=sum(n.self_draws for n in nights),
                        deal_in_hands=sum(n.deal_in_hands for n in nights),
                        hands_net=sum((n.hands_net for n in nights), Decimal(0)),
                        fees=sum((n.fee for n in nights), Decimal(0)),
                        adjustments=sum((n.adjusted for n in nights), Decimal(0)),
                        won_hands=sum(n.won_hands for n in nights))


def _series(nights: list[NightPlayed], totals: PlayerTotals) -> tuple[list[NightPoint], bool]:
    """The latest CHART_NIGHTS nights, oldest first; the running total starts from what the nights left out
    brought, so the line ends at the player's net."""
    latest = nights[:CHART_NIGHTS]
    running = totals.net - sum((n.net for n in latest), Decimal(0))
    points = []
    for n in reversed(latest):
        running += n.net
        points.append(NightPoint(night_id=n.night_id, date=n.date, title=n.title, hands=n.hands, fee=n.fee,
                                 net=n.net, cumulative=running))
    return points, len(nights) > CHART_NIGHTS


def _biggest(player: Player) -> list[BigHand]:
    rows = (counted_wins().filter(player=player)
            .order_by("-fan", "-amount", "-revision__hand__night__date", "-revision__hand__night",
                      "-revision__hand__number", "event")
            .values("pattern", "fan", "self_drawn", "event", "seat", won_amount=F("amount"),
                    number=F("revision__hand__number"), result=F("revision__result"),
                    night_id=F("revision__hand__night"), night_title=F("revision__hand__night__title"),
                    night_date=F("revision__hand__night__date"))[:TOP])
    return [BigHand(night_id=r["night_id"], night_title=r["night_title"], night_date=r["night_date"],
                    number=r["number"], pattern=r["pattern"], fan=r["fan"] or 0, won_amount=r["won_amount"],
                    self_drawn=r["self_drawn"], **_roots_and_flags(r["result"], r["event"], r["seat"])) for r in rows]


def _roots_and_flags(result: Any, event: int, seat: int) -> dict[str, Any]:
    """A win's roots and modifiers, from its revision's scored result (the win of that event and seat)."""
    wins = result.get("wins", []) if isinstance(result, dict) else []
    found: dict[str, Any] = next((w for w in wins if w.get("event") == event and w.get("player") == seat), {})
    return {"roots": int(found.get("roots") or 0), "flags": tuple(found.get("flags") or ())}


def _favourites(player: Player) -> list[PatternCount]:
    rows = (counted_wins().filter(player=player).order_by().values("pattern")
            .annotate(wins=Count("pk")).order_by("-wins", "pattern")[:TOP])
    return [PatternCount(r["pattern"], r["wins"]) for r in rows]


def player_history(player: Player) -> PlayerHistory:
    """A player's totals, rates, per-night series, biggest hands and favourite patterns: computed (five queries)
    once per change of the player's group, then read from the cache (see stats.cache)."""
    return cached(player.group, ("player", player.pk), lambda: compute_player_history(player))


def compute_player_history(player: Player, nights: list[NightPlayed] | None = None) -> PlayerHistory:
    """`player_history` without the cache (five queries, whatever the number of hands; two when given the
    player's `nights_played`)."""
    nights = nights_played(player) if nights is None else nights
    totals = _totals(nights)
    series, truncated = _series(nights, totals)
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
    won_hands: int = 0  # hands won in, once each

    @property
    def net(self) -> Decimal:
        return self.hands_net + self.adjustments - self.fees

    @property
    def win_rate(self) -> Decimal | None:
        """Hands won among hands played, 0 to 1 (see PlayerTotals.win_rate)."""
        return _ratio(self.won_hands, self.hands)


def group_leaderboard(group: Group, date_from: dt.date | None, date_to: dt.date | None) -> list[Standing]:
    """The group's leaderboard over a date range, computed once per change of the group (see stats.cache)."""
    return cached(group, ("board", date_from, date_to), lambda: _group_leaderboard(group, date_from, date_to))


def _dated(prefix: str, date_from: dt.date | None, date_to: dt.date | None) -> Q:
    """Nights dated from ``date_from`` to ``date_to`` (both included; None: unbounded), through ``prefix``."""
    dated = Q()
    if date_from is not None:
        dated &= Q(**{f"{prefix}date__gte": date_from})
    if date_to is not None:
        dated &= Q(**{f"{prefix}date__lte": date_to})
    return dated


def _group_leaderboard(group: Group, date_from: dt.date | None, date_to: dt.date | None) -> list[Standing]:
    """Every active player of the group with their net (after fee shares), nights, hands and wins over the
    nights dated from ``date_from`` to ``date_to`` (both included; None: unbounded), best net first (then more
    nights, then by name).

    Two queries: the group's active players (in the database's order of names), and their night standings (one
    row per night and player, kept with every change: ledger.services.standings) of the group's nights in the
    range, summed by player. A night counts for a player who has counted hands in it; fee shares and adjustments
    count whatever the hands. Lines of players no longer active (merged into another) are left out.
    """
    names = dict(Player.objects.filter(group=group).active().order_by("name", "pk").values_list("pk", "name"))
    sums = {r["player_id"]: r for r in
            NightStanding.objects.filter(_dated("night__", date_from, date_to), night__group=group,
                                         player_id__in=list(names))
            .order_by().values("player_id")
            .annotate(n=Count("pk", filter=Q(hands__gt=0)), h=Sum("hands"), w=Sum("wins"), wh=Sum("won_hands"),
                      net=MoneySum("hands_net"), f=MoneySum("fee"), a=MoneySum("adjusted"))}
    empty = {"n": 0, "h": 0, "w": 0, "wh": 0, "net": Decimal(0), "f": Decimal(0), "a": Decimal(0)}
    standings = [Standing(player_id=pk, name=name, nights=row["n"], hands=row["h"], wins=row["w"],
                          hands_net=row["net"], fees=row["f"], adjustments=row["a"], won_hands=row["wh"])
                 for pk, name in names.items() for row in [sums.get(pk, empty)]]
    standings.sort(key=lambda s: (-s.net, -s.nights))  # stable: equal nets and nights stay in name order
    return standings
