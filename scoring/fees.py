"""The table fee (台费 / 抽水) of a night: its four modes, checked, and each player's share of it, exact.

A night's fee is chosen when the night is created and frozen with it:

- ``none``: no fee;
- ``per_player``: ``amount`` from every player who played at least one counted hand;
- ``winners``: ``amount`` for the table, split among the players who are up (positive net) in proportion to
  their net; if nobody is up, split equally among those who played;
- ``per_win``: ``amount`` per win (``wins``: "all" wins, or only "self_draw" wins), paid by the winner.

Shares are money: exact, rounded to 0.01 by largest remainder, so they always sum to the fee exactly; player nets
minus their shares plus the fee (the 台费 participant) still sum to zero. A night where nobody played has no fee.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Hashable, Iterable, Literal, Mapping, TypeVar, cast

from .messages import MESSAGES, Problem, ScoringError
from .money import exact, format_amount, parse_base

#: The modes of a table fee, in the order a form offers them.
FEE_MODES = ("none", "per_player", "winners", "per_win")
#: Which wins a per-win fee counts.
FEE_WINS = ("all", "self_draw")
#: The largest fee amount (per player, per table or per win): far above any real 台费, small enough that a night's
#: fee shares fit the ledger's storage (16 digits, 4 decimals) over any number of hands.
MAX_FEE = Decimal(100000)
#: Fee amounts are money: at most this many decimal places (分).
FEE_PLACES = 2
CENT = Decimal("0.01")

FeeMode = Literal["none", "per_player", "winners", "per_win"]
FeeWins = Literal["all", "self_draw"]

Who = TypeVar("Who", bound=Hashable)

# The fee's own messages (code -> (Chinese, English)), registered with the engine's catalogue.
FEE_MESSAGES: dict[str, tuple[str, str]] = {
    "fee_bad_amount": ("台费金额必须是大于 0、不超过 {high} 的十进制数（字符串）或整数，最多 2 位小数",
                       "the fee amount must be a decimal string or an integer greater than 0 and at most {high}, "
                       "with at most 2 decimal places"),
    "fee_field_unused": ("台费方式“{mode}”不用“{name}”", "fee mode '{mode}' takes no '{name}'"),
}
MESSAGES.update(FEE_MESSAGES)


@dataclass(frozen=True)
class Fee:
    """A night's table fee: its mode, amount (0 for none) and, for a per-win fee, which wins count."""

    mode: FeeMode = "none"
    amount: Decimal = Decimal(0)
    wins: FeeWins = "all"

    def as_dict(self) -> dict[str, str]:
        """The canonical document (what a night stores): only the fields of its mode, the amount as text."""
        if self.mode == "none":
            return {"mode": "none"}
        doc = {"mode": self.mode, "amount": format_amount(self.amount)}
        if self.mode == "per_win":
            doc["wins"] = self.wins
        return doc


#: The fields each mode takes besides "mode".
_FIELDS: dict[str, tuple[str, ...]] = {"none": (), "per_player": ("amount",), "winners": ("amount",),
                                       "per_win": ("amount", "wins")}


def parse_fee(doc: object, path: str = "fee") -> Fee:
    """Return the fee a document describes; raise ScoringError with every problem (paths such as fee.amount).

    None (no fee given) is no fee. Amounts are exact (a decimal string or an integer, never a float), greater than
    0, at most MAX_FEE, with at most 2 decimal places.
    """
    if doc is None:
        return Fee()
    if not isinstance(doc, dict):
        raise ScoringError([Problem(path, "not_object")])
    problems: list[Problem] = []
    mode = doc.get("mode")
    if "mode" not in doc:
        problems.append(Problem(f"{path}.mode", "missing_field", {"name": "mode"}))
    elif mode not in FEE_MODES:
        problems.append(Problem(f"{path}.mode", "bad_choice", {"choices": ", ".join(FEE_MODES)}))
    known = _FIELDS.get(mode, ("amount", "wins")) if isinstance(mode, str) else ("amount", "wins")
    for name in sorted(str(k) for k in doc if k != "mode"):
        if name not in ("amount", "wins"):
            problems.append(Problem(f"{path}.{name}", "unknown_field", {"name": name}))
        elif name not in known:
            problems.append(Problem(f"{path}.{name}", "fee_field_unused", {"mode": str(mode), "name": name}))
    amount = Decimal(0)
    if "amount" in known:
        if "amount" not in doc:
            problems.append(Problem(f"{path}.amount", "missing_field", {"name": "amount"}))
        else:
            parsed = parse_fee_amount(doc["amount"])
            if parsed is None:
                problems.append(Problem(f"{path}.amount", "fee_bad_amount", {"high": format_amount(MAX_FEE)}))
            else:
                amount = parsed
    wins = doc.get("wins", "all")
    if "wins" in known and wins not in FEE_WINS:
        problems.append(Problem(f"{path}.wins", "bad_choice", {"choices": ", ".join(FEE_WINS)}))
    if problems:
        raise ScoringError(problems)
    return Fee(cast(FeeMode, mode), amount, cast(FeeWins, wins) if mode == "per_win" else "all")


def parse_fee_amount(value: object) -> Decimal | None:
    """The fee amount as exact money, or None unless it is > 0, at most MAX_FEE, with at most 2 places."""
    try:
        amount = parse_base(value, "amount")
    except ScoringError:
        return None
    exponent = amount.as_tuple().exponent
    if not isinstance(exponent, int) or -exponent > FEE_PLACES or amount > MAX_FEE:
        return None
    return amount


def fee_shares(fee: Fee, *, nets: Mapping[Who, Decimal], played: Iterable[Who],
               wins: Mapping[Who, int] | None = None, self_draws: Mapping[Who, int] | None = None) -> dict[Who, Decimal]:
    """Each player's share of the night's fee (players who owe nothing are left out), summing exactly to the fee.

    `nets` are the players' nets before the fee, `played` those who played at least one counted hand (in the order
    ties are broken), `wins` and `self_draws` how many wins and self-draw wins each had (for a per-win fee).
    """
    players = list(dict.fromkeys(played))
    if fee.mode == "none" or not players:
        return {}
    with exact():
        if fee.mode == "per_player":
            return {p: fee.amount for p in players}
        if fee.mode == "per_win":
            counts = self_draws if fee.wins == "self_draw" else wins
            return {p: fee.amount * n for p in players if (n := (counts or {}).get(p, 0)) > 0}
        up = [(p, Fraction(nets[p])) for p in players if nets.get(p, Decimal(0)) > 0]
        weights = up or [(p, Fraction(1)) for p in players]
        return {p: share for p, share in _split(fee.amount, weights).items() if share}


def _split(amount: Decimal, weights: list[tuple[Who, Fraction]]) -> dict[Who, Decimal]:
    """Split `amount` (whole cents) in proportion to the weights: each gets the cents below its exact share, and the
    cents left over go one each to the largest remainders (earlier players first on a tie)."""
    cents = int(amount / CENT)
    total = sum((w for _, w in weights), Fraction(0))
    exact_shares = [(who, cents * w / total) for who, w in weights]
    floors = {who: int(share) for who, share in exact_shares}  # shares are >= 0: int() is the floor
    left = cents - sum(floors.values())
    by_remainder = sorted(range(len(exact_shares)), key=lambda i: -(exact_shares[i][1] - floors[exact_shares[i][0]]))
    for i in by_remainder[:left]:
        floors[exact_shares[i][0]] += 1
    return {who: Decimal(n) * CENT for who, n in floors.items()}

