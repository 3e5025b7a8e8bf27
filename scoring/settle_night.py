"""Settlement of a night: the fewest transfers that settle every player's net (结账)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Generic, Hashable, Literal, Mapping, TypeVar

from .messages import Problem, ScoringError
from .money import exact

#: Up to this many players with a non-zero net (after pairing exact opposites) the plan is a proven minimum;
#: measured (bench/bench_scoring.py): 14 players with no zero-sum subset take about 30 ms, 15 about 60 ms.
EXACT_LIMIT = 14

#: Whatever the caller names a player by (a name, an id, a Player): transfers name them the same way.
Who = TypeVar("Who", bound=Hashable)


@dataclass(frozen=True)
class Transfer(Generic[Who]):
    """`payer` pays `payee` `amount` at the end of the night."""

    payer: Who
    payee: Who
    amount: Decimal


@dataclass
class _Balance(Generic[Who]):
    name: Who
    order: int
    amount: Decimal  # still to pay (debtor) or to receive (creditor), positive


def _settle_group(members: list[tuple[Who, Decimal]]) -> list[Transfer[Who]]:
    """Settle a zero-sum group in at most len(group) - 1 transfers: the largest debtor pays the largest creditor."""
    debtors = [_Balance(name, i, -amount) for i, (name, amount) in enumerate(members) if amount < 0]
    creditors = [_Balance(name, i, amount) for i, (name, amount) in enumerate(members) if amount > 0]
    transfers: list[Transfer[Who]] = []
    while debtors and creditors:
        debtors.sort(key=lambda b: (-b.amount, b.order))
        creditors.sort(key=lambda b: (-b.amount, b.order))
        debt, credit = debtors[0], creditors[0]
        amount = min(debt.amount, credit.amount)
        transfers.append(Transfer(debt.name, credit.name, amount))
        debt.amount -= amount
        credit.amount -= amount
        debtors = [d for d in debtors if d.amount != 0]
        creditors = [c for c in creditors if c.amount != 0]
    return transfers


def _zero_sum_groups(amounts: list[Decimal]) -> list[list[int]]:
    """Split indices into the largest number of zero-sum groups (exact; 2^n states, n up to EXACT_LIMIT)."""
    n = len(amounts)
    size = 1 << n
    # Whole numbers of the smallest unit: integer sums are exact and much faster than Decimal ones.
    exponents = [a.as_tuple().exponent for a in amounts]
    places = max((-e for e in exponents if isinstance(e, int)), default=0)
    scale = Decimal(10) ** max(places, 0)
    with exact():
        units = [int(a * scale) for a in amounts]
    sums = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + units[low.bit_length() - 1]
    best = bytearray(size)  # best[mask]: most zero-sum groups the members of mask can form, in prefix order
    bits = [1 << i for i in range(n)]
    for mask in range(1, size):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            value = best[mask ^ low]
            if value > top:
                top = value
            rest ^= low
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back: peel members off while keeping the count, cutting a group at each zero-sum prefix.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = size - 1
    while mask:
        here = best[mask] - (1 if sums[mask] == 0 else 0)
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        for i in range(n):
            if mask & bits[i] and best[mask ^ bits[i]] == here:
                current.append(i)
                mask ^= bits[i]
                break
    if current:
        groups.append(current)
    return [sorted(g) for g in reversed(groups)]


@dataclass(frozen=True)
class Plan(Generic[Who]):
    """A night's settlement: the transfers, how they were found, and the fewest any plan can have.

    `method` is "exact" (a proven minimum: `lower_bound == len(transfers)`) or "greedy" (more than
    EXACT_LIMIT players left after pairing exact opposites: at most one transfer fewer than players,
    and `lower_bound` says how far from the minimum it can be at worst).
    """

    transfers: list[Transfer[Who]]
    method: Literal["exact", "greedy"]
    lower_bound: int


def settle_night(nets: Mapping[Who, Decimal | int | str]) -> list[Transfer[Who]]:
    """Return the fewest transfers that settle every debt (deterministic); see settle_night_plan."""
    return settle_night_plan(nets).transfers


def settle_night_plan(nets: Mapping[Who, Decimal | int | str]) -> Plan[Who]:
    """Settle a night: the transfers and the method used ("exact" or "greedy").

    Exact opposites are paired first (always part of some optimal plan). While at most EXACT_LIMIT
    players are left, an exact zero-sum partition gives the proven minimum (2^n states: about 30 ms
    for 14 players, doubling with each one more). Beyond, the largest debtor pays the largest creditor
    (at most n - 1 transfers for n players left); no zero-sum group left has fewer than three members,
    so at least n - n // 3 transfers are needed, which `lower_bound` reports.
    """
    values: list[tuple[Who, Decimal]] = []
    for name, raw in nets.items():
        try:
            amount = Decimal(raw) if not isinstance(raw, float) else Decimal("NaN")
        except Exception:
            amount = Decimal("NaN")
        if not amount.is_finite():
            raise ScoringError([Problem(str(name), "bad_amount")])
        values.append((name, amount))
    with exact():
        total = sum((a for _, a in values), Decimal(0))
    if total != 0:
        raise ScoringError([Problem("", "nets_not_zero", {"total": str(total)})])
    order = {name: i for i, (name, _) in enumerate(values)}
    open_ = [(name, a) for name, a in values if a != 0]
    transfers: list[Transfer[Who]] = []
    # Exact opposites always form a group of their own in some optimal plan.
    remaining: list[tuple[Who, Decimal]] = []
    pairs = 0
    for name, amount in open_:
        match = next((i for i, (_, a) in enumerate(remaining) if a == -amount), None)
        if match is None:
            remaining.append((name, amount))
        else:
            other = remaining.pop(match)
            transfers.extend(_settle_group([other, (name, amount)]))
            pairs += 1
    method: Literal["exact", "greedy"] = "exact"
    with exact():
        if len(remaining) <= EXACT_LIMIT:
            for group in _zero_sum_groups([a for _, a in remaining]):
                transfers.extend(_settle_group([remaining[i] for i in group]))
            lower_bound = len(transfers)
        else:
            transfers.extend(_settle_group(remaining))
            method = "greedy"
            lower_bound = pairs + len(remaining) - len(remaining) // 3
    return Plan(sorted(transfers, key=lambda t: (order[t.payer], order[t.payee])), method, lower_bound)
