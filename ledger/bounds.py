"""Bounds on what the ledger stores (issue 9): names, stakes and amounts that always fit the database.

- A night's base passes the engine's ``scoring.parse_base`` (the one check of a stake) and, to fit
  ``Night.base`` (2 decimals), the ledger's narrower storage bound: 0.01 to ``MAX_BASE`` (100,000).
- Every payment must fit the ledger's amount columns (``max_digits=14, decimal_places=4``, as ``SeatResult.net``):
  less than 10^10 in absolute value with at most 4 decimals. That is at most 14 significant digits, so amounts stay
  exact on SQLite too (it stores decimals as REAL, exact up to 15 significant digits). A hand whose payment would
  not fit is refused, naming the event (or ``ready`` for end-of-hand settlements).
- Names are trimmed and refuse control, format (invisible) and unassigned characters and lone surrogates.
"""
from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import Any, Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring

MIN_BASE = Decimal("0.01")
MAX_BASE = Decimal("100000")
AMOUNT_LIMIT = Decimal(10) ** 10  # the amount columns: 14 digits, 4 of them decimals
AMOUNT_EXPONENT = -4
#: The most usernames one list names (a night's members or scorekeepers), counted as given.
MAX_USERNAMES = 50
#: A real hand has at most 3 wins and 16 kongs (4 players x 4 quads): the engine's bound; a 血流成河 hand
#: (RULES.md §9) has more wins, up to the engine's MAX_EVENTS_XUE_LIU. The engine checks each record by its mode.
MAX_EVENTS = max(scoring.MAX_EVENTS, scoring.MAX_EVENTS_XUE_LIU)

#: Unicode categories refused in names: controls, format (zero-width, bidi), surrogates, private use, unassigned.
_BAD_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def bad_text(value: str) -> bool:
    """True if the text holds a lone surrogate or NUL (it cannot be stored as UTF-8 text)."""
    if "\x00" in value:
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def invisible(value: str) -> bool:
    """True if the text holds a control, format (U+202E, U+200D…), private-use or unassigned character, a line
    break or a whitespace other than the space, or cannot be stored: what no name or one-line text may hold."""
    return bad_text(value) or any(unicodedata.category(c) in _BAD_CATEGORIES for c in value) \
        or any(c.isspace() and c != " " for c in value)


def clean_text(value: str, *, field: str, max_length: int, blank: bool = True) -> str:
    """A one-line text (a night's or an evening's title and venue, a reason): trimmed, at most max_length
    characters, refused for the characters names refuse (a title is shown like a name: a U+202E reverses it)."""
    text = unicodedata.normalize("NFC", value.strip()) if not bad_text(value) else value
    if invisible(text):
        raise ValidationError({field: _("不能含有控制字符或不可见字符")})
    if not text and not blank:
        raise ValidationError({field: _("不能为空")})
    if len(text) > max_length:
        raise ValidationError({field: _("最多 %(n)d 个字") % {"n": max_length}})
    return text


def clean_name(value: str, *, field: str = "name", max_length: int = 40) -> str:
    """A display name: trimmed, 1..max_length characters, no control or invisible characters."""
    name = unicodedata.normalize("NFC", value.strip()) if not bad_text(value) else value
    if invisible(name):
        raise ValidationError({field: _("名字不能含有控制字符或不可见字符")})
    if not name:
        raise ValidationError({field: _("名字不能为空")})
    if len(name) > max_length:
        raise ValidationError({field: _("名字最多 %(n)d 个字") % {"n": max_length}})
    return name


def check_base(base: Decimal, *, field: str = "base") -> None:
    try:
        scoring.parse_base(format(base, "f") if base.is_finite() else str(base), field)
    except scoring.ScoringError as exc:  # the engine's words, as a field error of the ledger
        language = scoring.normalise_language(get_language())
        raise ValidationError({field: [p.message(language) for p in exc.problems]}) from exc
    if not base.is_finite() or base < MIN_BASE or base > MAX_BASE or base != base.quantize(Decimal("0.01")):
        raise ValidationError({field: _("底金应在 0.01 到 100000 之间，最多两位小数")})


def check_payments(payments: Iterable[Any]) -> None:
    """Refuse a hand whose payment would not fit an amount column exactly, naming the event."""
    for payment in payments:
        amount = Decimal(payment.amount)
        if abs(amount) >= AMOUNT_LIMIT or amount.normalize().as_tuple().exponent < AMOUNT_EXPONENT:  # type: ignore[operator]
            field = f"events[{payment.event}]" if payment.event is not None else "ready"
            raise ValidationError({field: _("这一局的金额太大，无法记账（每笔最多 10 位整数、4 位小数）")})
