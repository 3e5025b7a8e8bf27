"""Numbers, dates and times from query strings, form fields and cursors, read one way everywhere (issue 16).

`str.isdigit()` is not a test for `int()`: "²" passes it and `int("²")` raises; "１２" and "١٢" pass both, and
`int()` refuses a number of more than 4,300 digits. A number the database cannot hold (a row id of 40 digits)
raises in the driver. So every value is read here: plain ASCII digits, a bounded length, a bounded range; a value
that is not one is None, and the caller decides: a page ignores it (or answers 404 for a row), the API answers 400
naming the parameter.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.db import models
from django.utils.dateparse import parse_datetime

#: The largest number any integer column holds on every database (PostgreSQL's integer; ids are bigint, but an id
#: past this is never one the ledger made).
MAX_INT = 2**31 - 1

_DIGITS = re.compile(r"[0-9]{1,10}")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ISO_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]{5,15}(Z|[+-][0-9]{2}:?[0-9]{2})?")


def whole_number(value: Any, *, low: int = 0, high: int = MAX_INT) -> int | None:
    """A number written with ASCII digits only (no sign, no spaces) from `low` to `high`, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if low <= value <= high else None
    if not isinstance(value, str) or not _DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if low <= number <= high else None


def row_id(value: Any) -> int | None:
    """The id of a row (1 and up) from a form field or the query string, else None."""
    return whole_number(value, low=1)


def page_size(raw: str | None, default: int, most: int) -> int:
    """?size= on a page: bounded to 1..most; the default when absent or not a number."""
    size = whole_number(raw, low=1)
    return default if size is None else min(most, size)


def iso_date(value: Any) -> dt.date | None:
    """A date written YYYY-MM-DD (ASCII digits), else None."""
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def iso_datetime(value: Any) -> dt.datetime | None:
    """A time as the ledger writes it in cursors (ISO 8601, or str() of a datetime in DRF's), else None."""
    if not isinstance(value, str) or not _ISO_TIME.fullmatch(value):
        return None
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def key_value(field: models.Field[Any, Any], value: Any) -> Any:
    """A cursor's value of one ordering key, read as that field's type; None when it cannot be one."""
    if isinstance(field, models.DateTimeField):
        return iso_datetime(value)
    if isinstance(field, models.DateField):
        return iso_date(value)
    if isinstance(field, models.IntegerField):  # ids (BigAutoField) too
        return whole_number(value, low=0)
    return value if isinstance(value, str) and len(value) <= 200 else None


class IdConverter:
    """`<id:pk>` in URLs: a row id or a number the database can hold (1 to MAX_INT); a longer number is no match
    (404), never a database error (`<id:>` takes any number of digits: a 40-digit id overflows the column)."""

    regex = "[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        number = whole_number(value, low=0)
        if number is None:
            raise ValueError(value)
        return number

    def to_url(self, value: Any) -> str:
        return str(int(value))
