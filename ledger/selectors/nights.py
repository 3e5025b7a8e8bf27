"""Reads of the ledger: seating, next dealer, hands, totals after the table fee and settlement (words are in
presenters.py)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping, Union, cast

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils.translation import gettext

from scoring import Fee, Plan, Transfer, fee_shares, parse_fee, settle_night_plan

from ledger import rights
from ledger.models import (SEATS, AdjustmentSeat, AuditEntry, FeeShare, Group, Hand, HandRevision, MoneySum, Night, NightPage, Player, Seating,
                     SeatResult, Settlement)


def _night_page_query(pk: int, user: int) -> QuerySet[Night]:
    from django.contrib.auth import get_user_model
    from django.db.models import IntegerField
    from django.db.models.fields.json import KT
    from django.db.models.functions import Cast

    from ledger.models import GroupLink
    from ledger.models import NightLink
    who = get_user_model()(pk=user)
    hands = Hand.objects.filter(night=OuterRef("pk")).order_by("-number")
    counted = HandRevision.objects.filter(hand__night=OuterRef("pk"), hand__status=Hand.Status.RECORDED,
                                          is_current=True).order_by("-hand__number")
    newest = HandRevision.objects.filter(hand__night=OuterRef("pk"), is_current=True).order_by("-hand__number")
    seats = {f"seat_{s}_{f}": Subquery(Seating.objects.filter(night=OuterRef("pk"), seat=s).values(f"player__{f}")[:1])
             for s in SEATS for f in ("id", "name")}
    return (rights.with_rights(rights.visible_nights(who), who).filter(pk=pk).annotate(
        top_number=Subquery(hands.values("number")[:1]),
        counted_number=Subquery(hands.filter(status=Hand.Status.RECORDED).values("number")[:1]),
        last_next_dealer=Subquery(counted.values(next_dealer=Cast(KT("result__next_dealer"), IntegerField()))[:1]),
        newest_revision=Subquery(newest.values("id")[:1]),
        newest_status=Subquery(hands.values("status")[:1]),
        newest_void_reason=Subquery(hands.values("void_reason")[:1]),
        latest_audit=Subquery(AuditEntry.objects.filter(night=OuterRef("pk")).order_by("-id").values("id")[:1]),
        group_name=Subquery(Group.objects.filter(pk=OuterRef("group_id")).values("name")[:1]),
        group_link=Subquery(GroupLink.objects.filter(group=OuterRef("group_id"), revoked_at__isnull=True)
                            .values("token")[:1]),
        invite_link=Subquery(NightLink.objects.filter(night=OuterRef("pk"), kind=NightLink.Kind.INVITE,
                                                      revoked_at__isnull=True).values("token")[:1]),
        **seats))


def night_for_page(pk: int, user: Any) -> Night | None:
    """The night if the user may see it (`Night.objects.visible_to`), with `night.page` (models.NightPage): what
    its pages show besides, read in the same statement. The readers below (night_seating, night_next_dealer) and
    live.fragments use it when the night carries it."""
    night = _night_page_query(pk, user.pk).first() if user.is_authenticated else None
    if night is None:
        return None
    a = night.__dict__
    newest = a["newest_revision"]
    night.page = NightPage(
        can_write=bool(a["user_can_write"]), group_writer=bool(a["user_group_writer"]), top_number=a["top_number"] or 0,
        counted_number=a["counted_number"],
        next_dealer=night.first_dealer if a["last_next_dealer"] is None else int(a["last_next_dealer"]),
        newest=(newest, a["newest_status"], a["newest_void_reason"]) if newest is not None else None,
        latest_audit=a["latest_audit"] or 0, group_name=a["group_name"], group_link=a["group_link"],
        invite_link=a["invite_link"], seats=tuple((a[f"seat_{s}_id"], a[f"seat_{s}_name"]) for s in night.seats))
    return night


def hand_last_snapshot(hand_id: int) -> dict[str, Any] | None:
    """The hand as its last recording or correction left it, as the trail keeps it (its version, players, record,
    result and any dealer the table chose): what a void took off. None for a hand with no such entry."""
    Action = AuditEntry.Action
    after = (AuditEntry.objects.filter(hand_id=hand_id, action__in=(Action.HAND_RECORDED, Action.HAND_CORRECTED))
             .order_by("-at", "-id").values_list("after", flat=True).first())
    return after if isinstance(after, dict) else None


def night_trail(night: Night, user: Any) -> QuerySet[AuditEntry]:
    """The night's audit trail: its own entries, and, for the group's members (they move the group's money: the
    other tables' players, debts from before), the group's entries about its money: the settlement (结算) of the
    night, or of the evening it is a table of, and each 标记已付 / 撤销已付 of that settlement's transfers. Those stay
    the group's (and out of the night's backup); each names what it is about."""
    if not rights.may_view_group(user, night.group):
        return AuditEntry.objects.filter(night=night)
    Action = AuditEntry.Action
    of_night = Q(night=night.pk)
    settled = Q(action=Action.SETTLED, after__night=night.pk)
    if night.evening_id is not None:
        of_night |= Q(evening=night.evening_id)
        settled |= Q(action=Action.SETTLED, after__evening=night.evening_id)
    settlements = list(Settlement.objects.filter(of_night).values_list("pk", flat=True))
    marked = Q(action__in=[Action.TRANSFER_PAID, Action.TRANSFER_UNPAID], after__settlement__in=settlements)
    money = Q(night__isnull=True, group_id=night.group_id) & (settled | marked if settlements else settled)
    return AuditEntry.objects.filter(Q(night=night) | money)


#: Two phones that recorded one hand save it within moments of each other; a hand played again the same way comes
#: minutes later at the least.
SAME_HAND_WITHIN = dt.timedelta(minutes=2)


def same_as_before(night: Night, number: int) -> int | None:
    """The number of the hand just before `number` when both count and hold the very same entry, recorded within
    SAME_HAND_WITHIN: most likely one hand recorded on two phones, which the table should be told (one to void)."""
    rows = {n: (record, at) for n, record, at in HandRevision.objects.filter(
        hand__night=night, hand__number__in=[number - 1, number], hand__status=Hand.Status.RECORDED,
        is_current=True).values_list("hand__number", "record", "hand__recorded_at")}
    if len(rows) != 2:
        return None
    (before, at_before), (this, at_this) = rows[number - 1], rows[number]
    def entry(record: dict[str, Any]) -> tuple[Any, ...]:
        return (record.get("events") or [], bool(record.get("exhausted")), record.get("ready") or {},
                record.get("hua_zhu") or [])

    same = entry(before) == entry(this)
    return number - 1 if same and abs(at_this - at_before) <= SAME_HAND_WITHIN else None


def night_seating(night: Night) -> list[Player]:
    """The players in the night's seats now (from the night's prefetched seating when the view loaded it)."""
    if night.page is not None:  # night_for_page read them with the night
        return [Player(pk=pk, name=name, group_id=night.group_id) for pk, name in night.page.seats]
    if "seating" in getattr(night, "_prefetched_objects_cache", {}):
        return [s.player for s in sorted(night.seating.all(), key=lambda s: s.seat)]
    return [s.player for s in night.seating.select_related("player").order_by("seat")]


def last_table_names(group: Group) -> list[str]:
    """The names at the group's last table, by seat: the first table of its last day, the night its defaults come
    from (services.groups.group_night_defaults). A new night of the group starts with them (a walk: the same four
    typed again every week). [] for a group with no night. One statement."""
    last = Night.objects.filter(group_id=group.pk).first_tables_last_first().values("pk")[:1]
    return list(Seating.objects.filter(night__in=Subquery(last)).order_by("seat")
                .values_list("player__name", flat=True))


def night_next_dealer(night: Night) -> int:
    """The dealer of the next hand: from the last hand that counts, else the first dealer."""
    if night.page is not None:  # night_for_page read it with the night
        return night.page.next_dealer
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


class TableFee:
    """The table fee (台费) as a participant of totals and settlements: it receives what the players pay towards the
    fee. Transfers name it where they name a Player (it has a `name` and no `pk`); stored transfers name it NULL."""

    pk = None

    @property
    def name(self) -> str:
        return gettext("台费")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return "TABLE_FEE"


#: The one table-fee participant.
TABLE_FEE = TableFee()
#: Who is in a settlement: a player, or the table fee.
Party = Union[Player, TableFee]


@dataclass(frozen=True)
class Total:
    player: Player
    seat: int | None  # seat now, None for a player substituted out
    amount: Decimal  # after the table fee
    fee: Decimal = Decimal(0)  # this player's share of the table fee (already taken off `amount`)


def night_nets(night: Night) -> dict[int, Decimal]:
    """Player id -> running total of the night, in one aggregate query over the seat results that count.

    Every player who played a counted hand is a key (with 0 if they broke even).
    """
    rows = (SeatResult.objects.filter(revision__hand__night=night, revision__is_current=True,
                                      revision__hand__status=Hand.Status.RECORDED)
            .order_by().values("player_id").annotate(total=MoneySum("net")))
    return {row["player_id"]: row["total"] for row in rows}


def night_adjustment_nets(night: Night) -> dict[int, Decimal]:
    """Player id -> what the night's adjustments (罚分/调整) that count (not voided) brought, in one aggregate."""
    rows = (AdjustmentSeat.objects.filter(adjustment__night=night, adjustment__status=Hand.Status.RECORDED)
            .order_by().values("player_id").annotate(total=MoneySum("net")))
    return {row["player_id"]: row["total"] for row in rows}


def night_fee(night: Night) -> Fee:
    """The night's table fee as frozen at creation (a night stored before fees existed has none)."""
    return parse_fee(night.fee or None)


def night_fee_shares(night: Night, nets: dict[int, Decimal]) -> dict[int, Decimal]:
    """Player id -> share of the night's table fee, given the nets before the fee (``night_nets``); a per-win fee
    reads each player's wins and self-draws in one aggregate query over the seat results that count."""
    fee = night_fee(night)
    wins: dict[int, int] = {}
    draws: dict[int, int] = {}
    if fee.mode == "per_win":
        rows = (SeatResult.objects.filter(revision__hand__night=night, revision__is_current=True,
                                          revision__hand__status=Hand.Status.RECORDED)
                .order_by().values("player_id")
                .annotate(wins=Sum("wins"), draws=Sum("self_draws")))  # each win (血流: several a hand)
        for row in rows:
            wins[row["player_id"]], draws[row["player_id"]] = row["wins"], row["draws"]
    return fee_shares(fee, nets=nets, played=sorted(nets), wins=wins, self_draws=draws)


@dataclass(frozen=True)
class Summary:
    nets: dict[int, Decimal]  # player id -> the night's total, after the table fee
    transfers: list[tuple[int | None, int | None, Decimal]]  # (payer id, payee id, amount); None is the table fee
    method: str  # how the settlement was found: "exact" or "greedy" (scoring.settle_night_plan)
    lower_bound: int  # the fewest transfers any settlement can have
    fee: Decimal = Decimal(0)  # the table fee of the night (what 台费 receives): nets plus fee sum to zero
    fee_shares: dict[int, Decimal] = field(default_factory=dict)  # player id -> share of the fee


def night_summary(night: Night) -> Summary:
    """The night's totals after the table fee, the fee, and the settlement (the fewest transfers over the players
    and the fee, and how they were found), computed from the seat results, fee shares and adjustments that count."""
    gross = night_nets(night)
    # A closed night's fee is what was shared out when it closed (FeeShare, frozen then): a later merge of two
    # players must not re-divide it. An open night's shares follow its hands.
    frozen = dict(FeeShare.objects.filter(night=night).values_list("player_id", "amount")) if night.is_closed else {}
    shares = frozen or night_fee_shares(night, gross)
    # Adjustments (罚分/调整) count in the totals and the settlement, not in the table fee: the fee follows the
    # play (who won hands), as it did when the night closed (services.night_close shares the hands' nets).
    combined = dict(gross)
    for pk, amount in night_adjustment_nets(night).items():
        combined[pk] = combined.get(pk, Decimal(0)) + amount
    totals = _compute_totals(night, combined)
    nets = {t.player.pk: t.amount - shares.get(t.player.pk, Decimal(0)) for t in totals}
    fee = sum(shares.values(), Decimal(0))
    parties: dict[int | None, Decimal] = {pk: amount for pk, amount in nets.items()}
    if fee:
        parties[None] = fee  # the table fee (台费) collects: a creditor like any winner
    plan = settle_night_plan(parties)
    return Summary(nets, [(t.payer, t.payee, t.amount) for t in plan.transfers], plan.method, plan.lower_bound,
                   fee, shares)


def _compute_totals(night: Night, net: dict[int, Decimal], shares: dict[int, Decimal] | None = None) -> list[Total]:
    seating = night_seating(night)
    seat_of = {p.pk: s for s, p in enumerate(seating)}
    missing = set(net) - set(seat_of)
    others = Player.objects.filter(pk__in=missing).order_by("name") if missing else []
    shares = shares or {}
    totals = [Total(p, s, net.get(p.pk, Decimal(0)), shares.get(p.pk, Decimal(0))) for s, p in enumerate(seating)]
    totals += [Total(p, None, net[p.pk], shares.get(p.pk, Decimal(0))) for p in others]
    return totals


def night_totals(night: Night) -> list[Total]:
    """Each player's running total after the table fee (the seats' nets summed by the database), seated players
    first; the fee itself is ``night_summary(night).fee``."""
    summary = night_summary(night)
    return _compute_totals(night, summary.nets, summary.fee_shares)


def plan_of(summary: Summary, players: Mapping[int, Player]) -> Plan[Party]:
    """A summary's settlement with Player objects (and TABLE_FEE for the fee) for its ids."""
    def party(pk: int | None) -> Party:
        return TABLE_FEE if pk is None else players[pk]
    return Plan([Transfer(party(payer), party(payee), amount) for payer, payee, amount in summary.transfers],
                cast(Any, summary.method), summary.lower_bound)


def night_settlement_plan(night: Night) -> Plan[Party]:
    """The settlement of the night (payer and payee are Player objects, or TABLE_FEE) and how it was found."""
    summary = night_summary(night)
    ids = {t[0] for t in summary.transfers} | {t[1] for t in summary.transfers}
    ids.discard(None)
    players = Player.objects.in_bulk(ids) if ids else {}
    return plan_of(summary, players)


def night_outcome(night: Night) -> tuple[Summary, list[Total], Plan[Party]]:
    """The summary, each player's total and the settlement, from one computation of the summary (the settle page
    and its live fragment need all three; the plan's players are the totals' own, so no second read)."""
    summary = night_summary(night)
    totals = _compute_totals(night, summary.nets, summary.fee_shares)
    players = {t.player.pk: t.player for t in totals}
    missing = {pk for t in summary.transfers for pk in t[:2] if pk is not None and pk not in players}
    if missing:  # a player with a zero net in no seat (never happens for a payer or payee, but be exact)
        players.update(Player.objects.in_bulk(missing))
    return summary, totals, plan_of(summary, players)


def night_settlement(night: Night) -> list[Transfer[Party]]:
    """The fewest transfers that settle the night (payer and payee are Player objects, or TABLE_FEE)."""
    return night_settlement_plan(night).transfers
