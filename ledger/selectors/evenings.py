"""Reads of evenings and paying up: an evening's tables and combined settlement, settlements, the running balance.

An evening page reads a fixed number of queries per table, whatever the number of hands (each table's totals come
from its summary, ``ledger.selectors.night_summary``, a few aggregate queries).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from scoring import Plan, Transfer, settle_night_plan

from ledger import rights
from ledger.web import params
from ledger.models import Evening, Group, Settlement, SettlementTransfer
from ledger.models import MoneySum, Night, Player
from ledger.selectors.nights import TABLE_FEE, Party, Summary, night_summary, plan_of


def party_name(player: Player | None) -> str:
    """A transfer's payer or payee by name; None is the table fee (台费)."""
    return TABLE_FEE.name if player is None else player.name


def account_names(group_id: int, user_ids: set[int]) -> dict[int, str]:
    """The names these accounts claimed at the group's tables (这是我), by account: who marked a transfer paid is
    said as the table knows them (东哥), not by username."""
    if not user_ids:
        return {}
    return dict(Player.objects.filter(group_id=group_id, user_id__in=user_ids).values_list("user_id", "name"))


def party(player: Player | None) -> Party:
    return TABLE_FEE if player is None else player


@dataclass(frozen=True)
class Table:
    """One table (night) of an evening with its summary (nets after its fee)."""

    night: Night
    summary: Summary


@dataclass(frozen=True)
class EveningView:
    """Everything the evening page and its API show: each table, each player's net per table and over all, the
    fee, the combined settlement (computed, or the one fixed by 结算), and what is still open."""

    evening: Evening
    tables: list[Table]
    players: list[Player]  # everyone who sat at a table, best combined net first
    nets: dict[int, Decimal]  # player id -> combined net over the tables, after fees
    fee: Decimal  # the tables' fees together (the 台费 line)
    plan: Plan[Party]  # the fewest transfers over everyone (players and the fee), payer and payee as parties
    settlement: Settlement | None  # the fixed settlement, with `transfers_list` loaded, if settled
    open_tables: int  # tables not closed yet

    def cell(self, player: Player, table: Table) -> Decimal | None:
        """The player's net at a table (after its fee), None if they did not sit there."""
        return table.summary.nets.get(player.pk)


def evening_view(evening: Evening) -> EveningView:
    """Read an evening: its tables in order, combined nets and the combined settlement (fixed or computed)."""
    nights = list(Night.objects.filter(evening=evening).order_by("table_no", "id"))
    tables = [Table(n, night_summary(n)) for n in nights]
    parties = combined_nets([t.summary for t in tables])
    fee = parties.get(None, Decimal(0))
    nets = {pk: amount for pk, amount in parties.items() if pk is not None}
    players_by_id = Player.objects.in_bulk(list(nets))
    players = sorted(players_by_id.values(), key=lambda p: (-nets[p.pk], p.name))
    settlement = settlement_of(evening=evening)
    if settlement is not None:
        plan = settlement_plan(settlement)
    else:
        computed = settle_night_plan(parties)
        summary = Summary({}, [(t.payer, t.payee, t.amount) for t in computed.transfers], computed.method,
                          computed.lower_bound)
        plan = plan_of(summary, players_by_id)
    return EveningView(evening, tables, players, nets, fee, plan, settlement,
                       sum(1 for n in nights if not n.is_closed))


def combined_nets(summaries: list[Summary]) -> dict[int | None, Decimal]:
    """Player id -> net over the nights (after their fees), and None -> their fees together (if any): the parties of
    one settlement for everyone, in the order the page and the fixed settlement both use."""
    nets: dict[int, Decimal] = {}
    fee = Decimal(0)
    for summary in summaries:
        for pk, amount in summary.nets.items():
            nets[pk] = nets.get(pk, Decimal(0)) + amount
        fee += summary.fee
    # By player id, the fee last: the same order however the summaries were read (PostgreSQL's jsonb keeps no key
    # order), so the page's plan and the fixed settlement are the same transfers.
    ordered: dict[int | None, Decimal] = {pk: nets[pk] for pk in sorted(nets)}
    if fee:
        ordered[None] = fee
    return ordered


def settlement_of(*, evening: Evening | None = None, night: Night | None = None) -> Settlement | None:
    """The fixed settlement of an evening or a night, with its transfers (and their players) loaded; None if none."""
    query = Settlement.objects.filter(evening=evening) if evening is not None else Settlement.objects.filter(night=night)
    return with_transfers(query).first()


def settlement_stakes(ids: set[int]) -> dict[int, Night]:
    """For each settlement, the night whose stake its amounts are in (¥27, 27 分): its night, or its evening's first
    table, as the evening page writes them. Two queries whatever the number of settlements."""
    settlements = list(Settlement.objects.filter(pk__in=ids).select_related("night"))
    evenings = {s.evening_id for s in settlements if s.night is None and s.evening_id is not None}
    firsts: dict[int, Night] = {}
    for night in Night.objects.filter(evening_id__in=evenings).order_by("table_no", "pk"):  # as the evening page
        assert night.evening_id is not None
        firsts.setdefault(night.evening_id, night)
    stakes = {s.pk: s.night if s.night is not None else firsts.get(s.evening_id or 0) for s in settlements}
    return {pk: night for pk, night in stakes.items() if night is not None}


def with_transfers(settlements: QuerySet[Settlement]) -> QuerySet[Settlement]:
    transfers = (SettlementTransfer.objects.select_related("payer", "payee", "paid_by", "carried_into__evening", "carried_into__night")
                 .order_by("position"))
    return settlements.select_related("created_by", "group").prefetch_related(
        Prefetch("transfers", queryset=transfers, to_attr="transfers_list"))


def settlement_plan(settlement: Settlement) -> Plan[Party]:
    """A fixed settlement as a plan (parties as on a computed one)."""
    transfers: list[Any] = getattr(settlement, "transfers_list", None) or list(
        settlement.transfers.select_related("payer", "payee").order_by("position"))
    return Plan([Transfer(party(t.payer), party(t.payee), t.amount) for t in transfers],
                "greedy" if settlement.method == "greedy" else "exact", len(transfers))


def with_carried(nets: dict[int | None, Decimal], carried: list[SettlementTransfer]) -> dict[int | None, Decimal]:
    """The parties' nets with unpaid transfers folded in (the payer owes it still, the payee is owed it): what a
    settlement with 把之前没付的一起结 settles, and what the settle form shows before it is ticked."""
    folded = dict(nets)
    for t in carried:
        folded[t.payer_id] = folded.get(t.payer_id, Decimal(0)) - t.amount
        folded[t.payee_id] = folded.get(t.payee_id, Decimal(0)) + t.amount
    # In combined_nets' order (by player id, the fee last), whatever order the debts were read in: the plan depends
    # on it, and the settle form's preview must be what 结算 fixes.
    ordered: dict[int | None, Decimal] = {pk: folded[pk] for pk in sorted(pk for pk in folded if pk is not None)}
    if None in folded:
        ordered[None] = folded[None]
    return ordered


@dataclass(frozen=True)
class CarryPreview:
    """What 结算 with the carry-over ticked would fix: the fewest transfers, and the unpaid ones it folds in, each
    with where it came from."""

    transfers: list[tuple[str, str, Decimal]]
    carried: list[tuple[str, str, Decimal, str]]
    # Each party's share: (name, this settlement's net or None for a party not in it, what earlier unpaid transfers
    # owe it (+) or it owes (-), the two together, whether it is the table fee), in the plan's order; the transfers
    # above settle the "together" column.
    people: list[tuple[str, Decimal | None, Decimal, Decimal, bool]]


def carry_preview(group: Group, nets: dict[int | None, Decimal]) -> CarryPreview:
    carried = list(outstanding(group).select_related("payer", "payee", "settlement__evening", "settlement__night")
                   .order_by("settlement_id", "position"))
    together = with_carried(nets, carried)
    plan = settle_night_plan(together)
    names = {pk: p.name for pk, p in Player.objects.in_bulk([pk for pk in together if pk]).items()}
    names[None] = TABLE_FEE.name
    zero = Decimal(0)
    people = [(names[pk], nets.get(pk), total - nets.get(pk, zero), total, pk is None)
              for pk, total in together.items() if total or nets.get(pk)]
    return CarryPreview(
        transfers=[(names[t.payer], names[t.payee], t.amount) for t in plan.transfers],
        carried=[(party_name(t.payer), party_name(t.payee), t.amount, _settled_what(t.settlement)) for t in carried],
        people=people)


def carried_transfers(settlement: Settlement) -> list[SettlementTransfer]:
    """The unpaid transfers of earlier settlements this one took in (把之前没付的一起结), oldest first."""
    if not settlement.include_carry:
        return []
    return list(SettlementTransfer.objects.filter(carried_into=settlement)
                .select_related("payer", "payee", "settlement__evening", "settlement__night")
                .order_by("settlement_id", "position"))


def carried_words(transfer: SettlementTransfer) -> tuple[str, str, Decimal, str]:
    """A carried transfer in the active language: who owed whom how much, and where it came from (its evening or
    night), as the settle form shows it."""
    return party_name(transfer.payer), party_name(transfer.payee), transfer.amount, _settled_what(transfer.settlement)


def carried_out_words(transfer: SettlementTransfer) -> tuple[str, str, Decimal, str]:
    """A transfer a later settlement took in, in the active language: who owes whom how much, and where it is to be
    paid now (that settlement's evening or night)."""
    assert transfer.carried_into is not None
    return party_name(transfer.payer), party_name(transfer.payee), transfer.amount, _settled_what(transfer.carried_into)


def carried_in(settlement: Settlement) -> list[tuple[str, str, Decimal, str]]:
    """`carried_transfers` in words (`carried_words`)."""
    return [carried_words(t) for t in carried_transfers(settlement)]


def _settled_what(settlement: Settlement) -> str:
    """Which settlement an unpaid transfer comes from, by its evening or night: 上周五（11-29）."""
    what = settlement.evening if settlement.evening_id is not None else settlement.night
    return _("%(title)s（%(date)s）") % {"title": what.title, "date": f"{what.date:%m-%d}"} if what is not None else ""


def outstanding(group: Group) -> QuerySet[SettlementTransfer]:
    """The group's transfers not paid and not carried into a later settlement: what is still owed."""
    return SettlementTransfer.objects.filter(settlement__group=group, paid_at__isnull=True, carried_into__isnull=True)


@dataclass(frozen=True)
class Balance:
    """What a player (or the table fee) is owed (+) or owes (-) from unpaid transfers of the group's settlements."""

    who: Party
    amount: Decimal


def group_balance(group: Group) -> list[Balance]:
    """The group's running balance: each party's outstanding amount, largest creditor first (two aggregate queries
    and one for the names); parties who are square are left out. The amounts sum to zero."""
    owed: dict[int | None, Decimal] = {}
    query = outstanding(group).order_by()
    for row in query.values("payee_id").annotate(total=MoneySum("amount")):
        owed[row["payee_id"]] = owed.get(row["payee_id"], Decimal(0)) + row["total"]
    for row in query.values("payer_id").annotate(total=MoneySum("amount")):
        owed[row["payer_id"]] = owed.get(row["payer_id"], Decimal(0)) - row["total"]
    players = Player.objects.in_bulk([pk for pk in owed if pk is not None])
    rows = [Balance(TABLE_FEE if pk is None else players[pk], amount) for pk, amount in owed.items() if amount]
    return sorted(rows, key=lambda b: (-b.amount, b.who.name))


def group_evenings(group: Group, limit: int = 20) -> list[Evening]:
    """The group's latest evenings (newest first), each with `table_count` and `settled`."""
    return list(Evening.objects.filter(group=group)
                .annotate(table_count=Count("nights"),
                          settled=Exists(Settlement.objects.filter(evening=OuterRef("pk"))))
                .order_by("-date", "-id")[:limit])


def writable_groups(user: Any) -> QuerySet[Group]:
    """The groups where the user may record (rights.GROUP_WRITERS), oldest first (the first is their default)."""
    return Group.objects.filter(memberships__user=user, memberships__role__in=rights.GROUP_WRITERS).order_by("id")


def joinable_evenings(user: Any, *, asked: str | None = None, days: int = 3, limit: int = 30) -> list[Evening]:
    """Evenings a new table may join: not settled, of the user's writable groups, from `days` ago on, and the one
    `asked` for by id (a page's "加一桌" link) whatever its date."""
    since = timezone.localdate() - dt.timedelta(days=days)
    wanted = params.row_id(asked)
    recent = Q(date__gte=since) | (Q(pk=wanted) if wanted is not None else Q(pk__in=[]))
    return list(Evening.objects.filter(recent, group__in=writable_groups(user))
                .exclude(Exists(Settlement.objects.filter(evening=OuterRef("pk"))))
                .select_related("group").order_by("-date", "-id")[:limit])
