"""Money: the stake (底金) and its bounds, and the exact decimal context every amount is computed in.

The bounds keep the largest legal hand small and exact: a base is at most MAX_BASE with at most
BASE_PLACES decimal places, a win is at most MAX_WIN_FAN fan (every modifier at its highest
option), so any payment is below MAX_BASE * 2**MAX_WIN_FAN (< 10**37) with at most BASE_PLACES
decimal places: 43 significant digits at most, inside EXACT's precision. EXACT traps
Inexact, Overflow and InvalidOperation, so a computation that would round raises instead.
"""
from __future__ import annotations

import re
from decimal import Context, Decimal, Inexact, InvalidOperation, Overflow, localcontext
from typing import ContextManager

from .messages import Problem, ScoringError

#: The largest stake per x1.
MAX_BASE = Decimal(10) ** 9
#: The most decimal places of a stake (after trailing zeros are dropped: "0.50" has one).
BASE_PLACES = 6
#: Longest base text read (digits, sign, point and spaces); longer is refused unread.
MAX_BASE_TEXT = 40
#: A plain decimal in ASCII digits ("2", "0.5", "2.00"): Decimal() also reads "1e9", "１２" and "٣", which a
#: stake typed at a table never is (issue 16).
_PLAIN_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
#: A bound on the total fan of a win: a pattern at its highest table fan (10, RULES.md §10) + 4 roots, every
#: modifier at its highest option (杠上花 5, 杠上炮 1, 抢杠胡 5, 报叫 2, 天胡 20, 地胡 20, 海底 5, 金钩钓 5, 门清 3,
#: 中张 3, 夹心五 3, 海底炮 3) and 自摸加番 1 (tests/scoring/test_bounds.py sums them from the options).
MAX_WIN_FAN = 10 + 4 + 5 + 1 + 5 + 2 + 20 + 20 + 5 + 5 + 3 + 3 + 3 + 3 + 1
#: Digits of precision of EXACT: payments need at most 43, sums of a hand's payments a few more.
PRECISION = 60

EXACT = Context(prec=PRECISION, traps=[Inexact, Overflow, InvalidOperation])


def exact() -> ContextManager[Context]:
    """A local decimal context in which nothing rounds or overflows silently (it raises instead)."""
    return localcontext(EXACT)


def parse_base(value: object, path: str = "base") -> Decimal:
    """Return the stake as an exact Decimal; raise ScoringError unless it is a decimal string or an
    integer, greater than 0, at most MAX_BASE, with at most BASE_PLACES decimal places.

    Floats are refused (money is exact), and so are NaN, infinities, exponents ("1e9") and digits other than
    ASCII ("１２"), without computing with them.
    """
    amount: Decimal | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 < value <= MAX_BASE:
            amount = Decimal(value)
    elif isinstance(value, str) and len(value) <= MAX_BASE_TEXT and _PLAIN_DECIMAL.fullmatch(value.strip()):
        try:
            parsed = Decimal(value.strip())
        except (InvalidOperation, ValueError):
            parsed = None
        if parsed is not None and parsed.is_finite() and parsed > 0:
            sign, digits, exponent = parsed.as_tuple()
            assert isinstance(exponent, int)
            # Trailing zeros do not count as places: strip them without rounding.
            while exponent < 0 and digits and digits[-1] == 0:
                digits, exponent = digits[:-1], exponent + 1
            magnitude = len(digits) + exponent  # digits before the point
            if -exponent <= BASE_PLACES and magnitude <= 10:
                candidate = Decimal((sign, digits, exponent))
                if candidate <= MAX_BASE:
                    amount = candidate
    if amount is None:
        raise ScoringError([Problem(path, "bad_base", {"high": str(MAX_BASE), "places": BASE_PLACES})])
    return amount


def format_amount(amount: Decimal) -> str:
    """Exact decimal text without exponent or trailing zeros: Decimal('8.00') -> '8'."""
    if amount == 0:
        return "0"
    with exact():
        return format(amount.normalize(), "f")
