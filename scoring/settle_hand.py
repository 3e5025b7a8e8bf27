"""Settlement of one hand: who pays whom, in the order things happened (血战到底, 血流成河, 标准; RULES.md §9)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from collections.abc import Mapping
from typing import Any

from .house import scored_flags, uncapped_fan
from .invariants import read_record
from .money import exact, format_amount
from .patterns import MODIFIERS, PATTERNS
from .record import SEATS, HandRecord, Kong, Win, Winner
from .rules import Rules


@dataclass(frozen=True)
class Payment:
    """One payment: `payer` gives `payee` `amount`, because of event `event` (None: end of hand)."""

    event: int | None
    payer: int
    payee: int
    amount: Decimal
    reason: str  # kong, self_draw, discard, cha_jiao, kong_refund, hua_zhu, call_transfer

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "from": self.payer, "to": self.payee,
                "amount": format_amount(self.amount), "reason": self.reason}


@dataclass(frozen=True)
class ScoredWin:
    """A winner's hand as scored: pattern, roots, modifiers and the total fan (capped)."""

    event: int
    player: int
    discarder: int | None
    pattern: str
    roots: int
    flags: tuple[str, ...]
    fan: int

    @property
    def multiplier(self) -> int:
        return 1 << self.fan

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, "player": self.player, "from": self.discarder, "pattern": self.pattern,
                "roots": self.roots, "flags": list(self.flags), "fan": self.fan, "multiplier": self.multiplier}


@dataclass(frozen=True)
class ScoredReady:
    """A ready player at 查叫: the waits (when tiles were given) and the fan 查叫 charges."""

    seat: int
    waits: tuple[str, ...]
    fan: int

    def as_dict(self) -> dict[str, Any]:
        return {"waits": list(self.waits), "fan": self.fan}


@dataclass(frozen=True)
class HandResult:
    """The result of HAND_FORMAT.md: wins, ready hands, payments, net per seat, next dealer."""

    wins: tuple[ScoredWin, ...]
    ready: dict[int, ScoredReady]
    payments: tuple[Payment, ...]
    net: tuple[Decimal, ...]  # one per seat of the table (RULES.md §9)
    next_dealer: int

    def as_dict(self) -> dict[str, Any]:
        """Return the output document of HAND_FORMAT.md (amounts as exact decimal strings)."""
        return {
            "wins": [w.as_dict() for w in self.wins],
            "ready": {str(seat): r.as_dict() for seat, r in sorted(self.ready.items())},
            "payments": [p.as_dict() for p in self.payments],
            "net": [format_amount(n) for n in self.net],
            "next_dealer": self.next_dealer,
        }


def win_fan(pattern: str, roots: int, flags: list[str] | tuple[str, ...], rules: Rules, *, self_draw: bool) -> int:
    """Total fan of a win: pattern (at the table's fans) + roots + modifiers (+1 for 自摸加番), clipped to the cap."""
    return rules.cap(uncapped_fan(pattern, roots, flags, rules, self_draw=self_draw))


@dataclass
class _Ledger:
    """Running state while the events are replayed."""

    base: Decimal
    payments: list[Payment] = field(default_factory=list)
    # kong event index -> the payments it brought its player (for 退税 and 呼叫转移)
    kong_income: dict[int, list[Payment]] = field(default_factory=dict)
    transferred: set[int] = field(default_factory=set)

    def pay(self, event: int | None, payer: int, payee: int, multiple: int | Decimal, reason: str) -> Payment | None:
        amount = self.base * multiple
        if amount == 0:
            return None
        payment = Payment(event, payer, payee, amount, reason)
        self.payments.append(payment)
        return payment


def _settle_kong(kong: Kong, active: set[int], rules: Rules, ledger: _Ledger) -> None:
    assert kong.player is not None and kong.kind is not None
    if kong.robbed:
        return  # robbed (抢杠胡): the kong never happened, so no payment, refund or transfer
    if kong.kind == "direct":
        payers = [kong.discarder]
        multiple = rules.kong_direct
    else:
        multiple = rules.kong_added if kong.kind == "added" else rules.kong_concealed
        everyone = rules.finished_players_pay_kongs
        payers = [p for p in rules.seats if p != kong.player and (everyone or p in active)]
    income = [ledger.pay(kong.index, payer, kong.player, multiple, "kong") for payer in payers if payer is not None]
    ledger.kong_income[kong.index] = [p for p in income if p is not None]


def _score_winner(win: Win, winner: Winner, rules: Rules, kongs: list[Kong], *, self_draw: bool) -> ScoredWin:
    assert winner.player is not None and winner.pattern is not None
    flags = scored_flags(winner, kongs, rules)
    fan = win_fan(winner.pattern, winner.roots, flags, rules, self_draw=self_draw)
    return ScoredWin(win.index, winner.player, win.discarder, winner.pattern, winner.roots, tuple(flags), fan)


def dian_gang_hua_payer(win: Win, previous: Kong | Win | None, rules: Rules) -> int | None:
    """点杠花算点炮 (RULES.md §10): who pays a 杠上花 right after the winner's own direct kong, alone; else None."""
    if rules.dian_gang_hua != "dian_pao" or not win.self_draw or len(win.winners) != 1:
        return None
    winner = win.winners[0]
    if ("gang_shang_hua" in winner.flags and isinstance(previous, Kong) and previous.kind == "direct"
            and previous.player == winner.player and not previous.robbed):
        return previous.discarder
    return None


def _settle_win(win: Win, previous: Kong | Win | None, active: set[int], rules: Rules, ledger: _Ledger,
                kongs: list[list[Kong]]) -> list[ScoredWin]:
    fed = dian_gang_hua_payer(win, previous, rules)
    # 点杠花算点炮 is paid as a discard win: no self-draw bonus, neither 自摸加番 nor 自摸加底.
    scored = [_score_winner(win, w, rules, kongs[w.player] if w.player is not None else [],
                            self_draw=win.self_draw and fed is None) for w in win.winners]
    if fed is not None:
        (only,) = scored
        ledger.pay(win.index, fed, only.player, only.multiplier, "discard")
        return scored
    if win.self_draw:
        (only,) = scored
        bonus = 1 if rules.self_draw_bonus == "base" else 0
        for payer in rules.seats:
            if payer != only.player and payer in active:
                ledger.pay(win.index, payer, only.player, only.multiplier + bonus, "self_draw")
        return scored
    assert win.discarder is not None
    for s in scored:
        ledger.pay(win.index, win.discarder, s.player, s.multiplier, "discard")
    # 呼叫转移: a kong's income passes to whoever wins on the discard right after it (杠上炮).
    if (rules.call_transfer and isinstance(previous, Kong) and previous.player == win.discarder
            and any("gang_shang_pao" in s.flags for s in scored)):
        first = min(scored, key=lambda s: (s.player - win.discarder) % rules.players)  # type: ignore[operator]
        # last_kong: the kong just made; all_kongs: every kong of the discarder's not yet passed on (RULES.md §10).
        passed = [previous.index] if rules.call_transfer_scope == "last_kong" else [
            k.index for k in kongs[win.discarder] if k.index not in ledger.transferred]
        income = sum((p.amount for index in passed for p in ledger.kong_income.get(index, [])), Decimal(0))
        if income:
            ledger.payments.append(Payment(win.index, win.discarder, first.player, income, "call_transfer"))
            ledger.transferred.update(passed)
    return scored


def _settle_exhaustion(record: HandRecord, active: set[int], ledger: _Ledger) -> dict[int, ScoredReady]:
    """查叫 at wall exhaustion: non-ready players pay ready ones; 查花猪; kong refunds (退税)."""
    rules = record.rules
    unfinished = sorted(active)  # 血战/标准: who has not won; 血流: everyone (past winners are ready)
    ready = {seat: ScoredReady(seat, tuple(entry.waits), rules.cap(entry.fan or 0))
             for seat, entry in sorted(record.ready.items())}
    if len(unfinished) < 2:
        return ready
    pigs = [seat for seat in sorted(record.hua_zhu) if seat in active] if rules.hua_zhu else []
    not_ready = [seat for seat in unfinished if seat not in ready]
    for payer in not_ready:
        if payer in pigs:
            continue
        for seat, entry in ready.items():
            ledger.pay(None, payer, seat, 2 ** entry.fan, "cha_jiao")
    # hua_zhu_pays_winners: a 花猪 pays those who have already won too (RULES.md §10).
    payees = list(rules.seats) if rules.hua_zhu_pays_winners else unfinished
    for pig in pigs:
        for payee in payees:
            if payee not in pigs:
                ledger.pay(None, pig, payee, 2 ** rules.effective_hua_zhu_fan, "hua_zhu")
    if rules.kong_refund:
        for seat in not_ready:
            for index, income in sorted(ledger.kong_income.items()):
                if index in ledger.transferred:
                    continue
                for payment in income:
                    if payment.payee == seat:
                        ledger.payments.append(Payment(None, seat, payment.payer, payment.amount, "kong_refund"))
    return ready


def settle(record: HandRecord) -> HandResult:
    """Replay a checked hand record and return its payments (the record must come from read_record).

    Amounts are computed in the exact decimal context: within the bounds of `money` nothing rounds.
    """
    with exact():
        return _settle(record)


def _settle(record: HandRecord) -> HandResult:
    rules = record.rules
    ledger = _Ledger(record.base)
    active = set(rules.seats)
    wins: list[ScoredWin] = []
    next_dealer: int | None = None
    previous: Kong | Win | None = None
    kongs: list[list[Kong]] = [[] for _ in rules.seats]  # each seat's kongs so far, robbed ones aside
    for event in record.events:
        if isinstance(event, Kong):
            _settle_kong(event, active, rules, ledger)
            if event.player is not None and not event.robbed:
                kongs[event.player].append(event)
        else:
            scored = _settle_win(event, previous, active, rules, ledger, kongs)
            wins.extend(scored)
            if next_dealer is None:
                # The first winner deals next; after 一炮多响 the discarder does.
                next_dealer = scored[0].player if len(scored) == 1 else event.discarder
            if rules.mode != "xue_liu":  # 血流: winners stay in, pay and receive (RULES.md §9)
                active -= {s.player for s in scored}
        previous = event
    ready: dict[int, ScoredReady] = {}
    if record.exhausted:
        ready = _settle_exhaustion(record, active, ledger)
    if next_dealer is None:
        next_dealer = record.dealer if rules.dealer_when_no_winner == "stay" else (record.dealer + 1) % rules.players
    net = [Decimal(0)] * rules.players
    for p in ledger.payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return HandResult(tuple(wins), ready, tuple(ledger.payments), tuple(net), next_dealer)


def score_hand(doc: Mapping[str, Any], require_end: bool = True) -> HandResult:
    """Check a hand record (HAND_FORMAT.md) and settle it; raise ScoringError with every problem.

    `require_end=False` (the live preview of a hand being entered) skips only the check that the
    hand has ended (a third win, or the wall exhausted).
    """
    return settle(read_record(doc, require_end=require_end))
