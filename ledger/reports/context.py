"""The report of a night, built once: nets after the table fee, the fee, transfers, running totals, statistics and
every hand.

`night_report(night)` reads the database in a fixed number of queries (however many hands), and
every renderer (PDF, PNG, text, CSV) works only from the `NightReport` it returns.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Sequence

from django.db.models import Count, Prefetch
from django.utils import timezone
from django.utils.translation import get_language

from scoring import Fee, Transfer

from ledger.models import Evening, Hand, HandRevision, Night, Player, SettlementTransfer, win_amounts
from ledger.presenters.nights import describe, hand_words, robbed_kongs
from ledger.selectors.evenings import carried_transfers, evening_view, party, settlement_of
from ledger.selectors.nights import Party, Total, night_fee, night_seating, night_summary, night_totals, plan_of

KONG_KINDS = ("direct", "added", "concealed")


@dataclass(frozen=True)
class HandPayment:
    """One payment of a hand, with names: who paid whom, how much and why."""

    event: int | None
    payer: str
    payee: str
    amount: Decimal
    reason: str


@dataclass(frozen=True)
class HandRow:
    """One hand as the report shows it (its current revision; voided hands included)."""

    number: int
    counted: bool  # False for a voided hand: listed, out of the totals
    void_reason: str
    version: int
    revision_count: int
    dealer: str
    players: tuple[str, ...]  # by seat
    player_ids: tuple[int, ...]
    record: dict[str, Any]
    result: dict[str, Any]
    payments: tuple[HandPayment, ...]
    net: tuple[Decimal, ...]  # by seat
    recorded_at: dt.datetime
    correction_reason: str = ""  # why its current revision was made (a correction's reason; "" for the first)

    @property
    def corrected(self) -> bool:
        return self.revision_count > 1


@dataclass(frozen=True)
class AdjustmentRow:
    """A penalty or adjustment (罚分/调整) as the report shows it, in the night's order (after hand `after_hand`)."""

    number: int
    after_hand: int
    counted: bool  # False for a voided one: listed, out of the totals
    void_reason: str
    version: int
    kind: str
    players: tuple[str, ...]  # by seat, as recorded
    payer: int
    payee: int | None
    fan: int | None
    amount: Decimal  # what each receiving seat gets
    note: str
    net: tuple[Decimal, ...]  # by seat
    player_ids: tuple[int, ...]

    def line(self) -> str:
        """In words, in the active language."""
        from ledger.presenters.nights import adjustment_line
        return adjustment_line(self.kind, self.players, self.payer, self.payee, self.fan, self.amount, self.note)

    def payments(self) -> list[tuple[str, str, Decimal]]:
        """(payer, payee, amount) of each payment it makes."""
        return [(self.players[self.payer], self.players[s], a) for s, a in enumerate(self.net) if a > 0]


@dataclass
class PlayerStats:
    """What one player did over the night's counted hands."""

    name: str
    net: Decimal
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0  # 点炮: this player's discards won on (一炮多响 once)
    kongs: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KONG_KINDS, 0))
    cha_jiao_paid: Decimal = Decimal(0)
    cha_jiao_received: Decimal = Decimal(0)
    #: {"pattern", "fan", "amount", "number"} of the win with the most fan, then the most won by it, then the latest
    #: (as the player's page ranks its biggest hands: the report picked the first of equal fan, a walk)
    biggest: dict[str, Any] | None = None
    fan_total: int = 0

    @property
    def kong_count(self) -> int:
        return sum(self.kongs.values())

    @property
    def average_fan(self) -> Decimal | None:
        if not self.wins:
            return None
        return (Decimal(self.fan_total) / self.wins).quantize(Decimal("0.1"))


@dataclass(frozen=True)
class Series:
    """A player's running total: points[0] = 0 before the first hand, points[i] after hand i."""

    name: str
    points: tuple[Decimal, ...]


@dataclass
class NightReport:
    """Everything a report of the night shows, read from the database once."""

    night: Night
    seating: list[Player]
    hands: list[HandRow]
    totals: list[Total]
    to_pay: ToPay  # the transfers to give, the night's own or its evening's
    running: list[Series]
    stats: list[PlayerStats]
    made_at: dt.datetime
    fee: Decimal = Decimal(0)  # what the table fee (台费) collected: the players' nets plus this sum to zero
    fee_rule: Fee = field(default_factory=Fee)  # the night's fee as frozen at creation
    adjustments: list[AdjustmentRow] = field(default_factory=list)  # 罚分/调整, in the night's order
    signoffs: list[Any] = field(default_factory=list)  # confirmations.SignOff of each player (closed nights)
    _lines: dict[str, list[list[str]]] = field(default_factory=dict, repr=False)

    def lines(self) -> list[list[str]]:
        """Each hand in words, in the active language (built once per language)."""
        language = get_language() or "zh-hans"
        if language not in self._lines:
            words = hand_words(language)
            self._lines[language] = [describe(h.players, h.record, h.result, words) for h in self.hands]
        return self._lines[language]

    @property
    def transfers(self) -> list[Transfer[Party]]:
        return self.to_pay.transfers

    @property
    def counted_hands(self) -> int:
        return sum(1 for h in self.hands if h.counted)


def _hand_rows(night: Night) -> list[HandRow]:
    current = HandRevision.objects.filter(is_current=True).select_related(
        "player_0", "player_1", "player_2", "player_3")
    hands = (night.hands.annotate(revision_count=Count("revisions"))
             .prefetch_related(Prefetch("revisions", queryset=current, to_attr="current_list"))
             .order_by("number"))
    rows = []
    for hand in hands:
        revision = hand.current_list[0]
        players = revision.players
        names = tuple(revision.names)  # as recorded with the revision
        result = revision.result
        payments = tuple(HandPayment(p["event"], names[p["from"]], names[p["to"]], Decimal(p["amount"]), p["reason"])
                         for p in result["payments"])
        rows.append(HandRow(
            number=hand.number, counted=hand.status == Hand.Status.RECORDED, void_reason=hand.void_reason,
            version=revision.version, revision_count=hand.revision_count, dealer=names[revision.dealer],
            players=names,
            player_ids=tuple(p.pk for p in players),
            record=revision.record, result=result, payments=payments,
            net=tuple(Decimal(a) for a in result["net"]),
            recorded_at=hand.recorded_at, correction_reason=revision.reason if hand.revision_count > 1 else ""))
    return rows


def _adjustment_rows(night: Night) -> list[AdjustmentRow]:
    from ledger.services.adjustments import adjustment_nets_of, night_adjustments
    rows = []
    for a in night_adjustments(night).prefetch_related("seats"):
        seats = sorted(a.seats.all(), key=lambda s: s.seat)
        rows.append(AdjustmentRow(
            number=a.number, after_hand=a.after_hand, counted=a.status == Hand.Status.RECORDED,
            void_reason=a.void_reason, version=a.version, kind=a.kind, players=tuple(a.player_names),
            payer=a.payer_seat, payee=a.payee_seat, fan=a.fan, amount=a.amount, note=a.note,
            net=tuple(adjustment_nets_of(a)), player_ids=tuple(s.player_id for s in seats)))
    return rows


def _running(totals: list[Total], hands: list[HandRow], adjustments: Sequence[AdjustmentRow] = ()) -> list[Series]:
    """Running totals by hand; an adjustment counts in the point of the hand it followed (before any hand: 0)."""
    position = {t.player.pk: i for i, t in enumerate(totals)}
    current = [Decimal(0)] * len(totals)
    points = [[Decimal(0)] for _ in totals]

    def adjust(after: int) -> None:
        for a in adjustments:
            if a.after_hand == after and a.counted:
                for seat, pk in enumerate(a.player_ids):
                    if pk in position:
                        current[position[pk]] += a.net[seat]
    adjust(0)
    for i, value in enumerate(current):
        points[i][0] = value
    for hand in hands:
        if hand.counted:
            for seat, pk in enumerate(hand.player_ids):
                if pk in position:
                    current[position[pk]] += hand.net[seat]
        adjust(hand.number)
        for i, value in enumerate(current):
            points[i].append(value)
    return [Series(t.player.name, tuple(p)) for t, p in zip(totals, points)]




def _stats(totals: list[Total], hands: list[HandRow]) -> list[PlayerStats]:
    stats = {t.player.pk: PlayerStats(t.player.name, t.amount) for t in totals}
    for hand in (h for h in hands if h.counted):
        by_seat = [stats.get(pk) for pk in hand.player_ids]
        events = hand.record.get("events", [])
        robbed = robbed_kongs(events, hand.result)
        amounts = win_amounts(hand.result)
        for index, event in enumerate(events):
            konger = by_seat[event["player"]] if event["type"] == "kong" and index not in robbed else None
            if konger is not None:
                konger.kongs[event["kind"]] = konger.kongs.get(event["kind"], 0) + 1
        discards = {(win["event"], win["from"]) for win in hand.result["wins"] if win["from"] is not None}
        for _event, seat in discards:  # 一炮多响 is one deal-in: once per discard, as the player page counts
            discarder = by_seat[seat]
            if discarder is not None:
                discarder.deal_ins += 1
        for win in hand.result["wins"]:
            winner = by_seat[win["player"]]
            if winner is not None:
                winner.wins += 1
                winner.fan_total += win["fan"]
                winner.self_draws += win["from"] is None
                won = amounts.get((win["event"], win["player"]), Decimal(0))
                ranked = (win["fan"], won, hand.number)  # the same hand's first win of equal rank stays
                if winner.biggest is None or ranked > (winner.biggest["fan"], winner.biggest["amount"],
                                                       winner.biggest["number"]):
                    winner.biggest = {"pattern": win["pattern"], "roots": win["roots"], "flags": win["flags"],
                                      "fan": win["fan"], "amount": won, "number": hand.number}
        for p in hand.result["payments"]:
            if p["reason"] == "cha_jiao":
                payer, payee = by_seat[p["from"]], by_seat[p["to"]]
                if payer is not None:
                    payer.cha_jiao_paid += Decimal(p["amount"])
                if payee is not None:
                    payee.cha_jiao_received += Decimal(p["amount"])
    return list(stats.values())


@dataclass(frozen=True)
class ToPay:
    """The transfers a night's reports give, and whose they are: the night's own (``evening`` None), or its
    evening's (all its tables together) when the reader may see the evening: computed so far, or, once settled
    (``settled``), the fixed ones still to pay (neither paid nor carried into a later settlement)."""

    transfers: list[Transfer[Party]]
    evening: Evening | None = None
    settled: bool = False
    carried_in: bool = False  # the settlement took in debts from before (把之前没付的一起结)
    #: Those debts, for a reader who may see the group (they name its other nights); in words when rendered.
    carried: tuple[SettlementTransfer, ...] = ()
    #: This settlement's own transfers, unpaid, that a later one took in (to be paid there), for the same readers.
    carried_out: tuple[SettlementTransfer, ...] = ()
    #: Its transfers marked paid, listed after those still to pay with ✓ 已付 (a walk: once 王五 → 张三 ¥32 was
    #: marked paid the picture for the group chat said nothing of it, and 王五's -32 had no transfer beside it).
    paid: tuple[Transfer[Party], ...] = ()


def transfers_to_pay(night: Night, summary: Any, totals: list[Total], *, evening_visible: bool) -> ToPay:
    """At a table of an evening the transfers to pay are the evening's (a table's own are what nobody pays, and the
    picture shared to the group chat gave them with only a note not to pay them); those name the other tables'
    players, so only for a reader who may see the evening (``evening_visible``: the group's members). Anyone else
    gets the table's own, with the note, as before."""
    if night.evening is not None and evening_visible:
        view = evening_view(night.evening)
        if view.settlement is None:
            return ToPay(list(view.plan.transfers), night.evening)
        return ToPay(_due(view.settlement), night.evening, settled=True, carried_in=view.settlement.include_carry,
                     carried=tuple(carried_transfers(view.settlement)), carried_out=_carried_out(view.settlement),
                     paid=_paid(view.settlement))
    fixed = settlement_of(night=night) if night.evening_id is None and night.is_closed else None
    if fixed is not None:  # a night of its own, settled: what is still to pay, as at an evening's table
        return ToPay(_due(fixed), settled=True, carried_in=fixed.include_carry,
                     carried=tuple(carried_transfers(fixed)) if evening_visible else (),
                     carried_out=_carried_out(fixed) if evening_visible else (), paid=_paid(fixed))
    return ToPay(list(plan_of(summary, {t.player.pk: t.player for t in totals}).transfers))


def _due(settlement: Any) -> list[Transfer[Party]]:
    """A fixed settlement's transfers neither paid nor carried into a later one, as parties."""
    return _as_parties(settlement, lambda t: t.paid_at is None and t.carried_into_id is None)


def _paid(settlement: Any) -> tuple[Transfer[Party], ...]:
    """A fixed settlement's transfers marked paid, in its order."""
    return tuple(_as_parties(settlement, lambda t: t.paid_at is not None))


def _as_parties(settlement: Any, keep: Callable[[SettlementTransfer], bool]) -> list[Transfer[Party]]:
    """A fixed settlement's transfers that `keep` keeps, in its order, as parties."""
    return [Transfer(party(t.payer), party(t.payee), t.amount) for t in getattr(settlement, "transfers_list", [])
            if keep(t)]


def _carried_out(settlement: Any) -> tuple[SettlementTransfer, ...]:
    """A fixed settlement's transfers not paid but taken into a later settlement (把之前没付的一起结): owed there."""
    return tuple(t for t in getattr(settlement, "transfers_list", [])
                 if t.paid_at is None and t.carried_into_id is not None)


def night_report(night: Night, *, evening_visible: bool = True) -> NightReport:
    """Read the night once for every report format (a fixed number of queries, whatever the hands); a table of an
    evening gives the evening's transfers only where ``evening_visible`` (transfers_to_pay)."""
    from ledger.services.confirmations import night_signoffs
    hands = _hand_rows(night)
    adjustments = _adjustment_rows(night)
    totals = night_totals(night)
    summary = night_summary(night)
    return NightReport(
        night=night, seating=night_seating(night), hands=hands, totals=totals,
        to_pay=transfers_to_pay(night, summary, totals, evening_visible=evening_visible),
        running=_running(totals, hands, adjustments), stats=_stats(totals, hands), made_at=timezone.now(),
        fee=summary.fee, fee_rule=night_fee(night), adjustments=adjustments,
        signoffs=night_signoffs(night) if night.is_closed else [])
