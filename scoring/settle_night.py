"""Settlement of a night: the fewest transfers that settle every player's net (结账)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Hashable, Mapping

from .messages import Problem, ScoringError

#: Up to this many players with a non-zero net (after pairing exact opposites) the plan is a proven minimum.
EXACT_LIMIT = 20


@dataclass(frozen=True)
class Transfer:
    """`payer` pays `payee` `amount` at the end of the night."""

    payer: Hashable
    payee: Hashable
    amount: Decimal


@dataclass
class _Balance:
    name: Hashable
    order: int
    amount: Decimal  # still to pay (debtor) or to receive (creditor), positive


def _settle_group(members: list[tuple[Hashable, Decimal]]) -> list[Transfer]:
    """Settle a zero-sum group in at most len(group) - 1 transfers: the largest debtor pays the largest creditor."""
    debtors = [_Balance(name, i, -amount) for i, (name, amount) in enumerate(members) if amount < 0]
    creditors = [_Balance(name, i, amount) for i, (name, amount) in enumerate(members) if amount > 0]
    transfers: list[Transfer] = []
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
    """Split indices into the largest number of zero-sum groups (exact; 2^n states)."""
    n = len(amounts)
    size = 1 << n
    sums = [Decimal(0)] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    best = bytearray(size)  # best[mask]: most zero-sum groups the members of mask can form, in prefix order
    bits = [1 << i for i in range(n)]
    for mask in range(1, size):
        top = 0
        for bit in bits:
            if mask & bit:
                value = best[mask ^ bit]
                if value > top:
                    top = value
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


def settle_night(nets: Mapping[Hashable, Decimal | int | str]) -> list[Transfer]:
    """Return the fewest transfers that settle every debt (deterministic).

    Exact minimum (a zero-sum subset partition) while at most EXACT_LIMIT players are left
    after exact opposites are paired; beyond that a greedy plan of at most n - 1 transfers.
    """
    values: list[tuple[Hashable, Decimal]] = []
    for name, raw in nets.items():
        try:
            amount = Decimal(raw) if not isinstance(raw, float) else Decimal("NaN")
        except Exception:
            amount = Decimal("NaN")
        if not amount.is_finite():
            raise ScoringError([Problem(str(name), "bad_amount")])
        values.append((name, amount))
    total = sum((a for _, a in values), Decimal(0))
    if total != 0:
        raise ScoringError([Problem("", "nets_not_zero", {"total": str(total)})])
    order = {name: i for i, (name, _) in enumerate(values)}
    open_ = [(name, a) for name, a in values if a != 0]
    transfers: list[Transfer] = []
    # Exact opposites always form a group of their own in some optimal plan.
    remaining: list[tuple[Hashable, Decimal]] = []
    for name, amount in open_:
        match = next((i for i, (_, a) in enumerate(remaining) if a == -amount), None)
        if match is None:
            remaining.append((name, amount))
        else:
            other = remaining.pop(match)
            transfers.extend(_settle_group([other, (name, amount)]))
    if len(remaining) <= EXACT_LIMIT:
        for group in _zero_sum_groups([a for _, a in remaining]):
            transfers.extend(_settle_group([remaining[i] for i in group]))
    else:
        transfers.extend(_settle_group(remaining))
    return sorted(transfers, key=lambda t: (order[t.payer], order[t.payee]))
