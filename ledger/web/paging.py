"""Keyset ("cursor") paging of the server-rendered lists, newest first (issue 10).

A page is the first ``size`` rows strictly after the cursor in descending key order; the cursor is the
last row's key, so a page never shifts when rows are added above it (unlike ``?page=N``) and every page
costs the same, whatever the length of the list (an index range scan, no OFFSET).
"""
from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import re
from dataclasses import dataclass
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db.models import Model, Q, QuerySet

from ledger.web import params

M = TypeVar("M", bound=Model)
R = TypeVar("R")

#: The most rows a page shows, whatever ?size= asks for.
MAX_PAGE_SIZE = 100
_CURSOR = re.compile(r"[A-Za-z0-9_-]+={0,2}")


@dataclass(frozen=True)
class KeysetPage(Generic[R]):
    items: list[R]
    next_cursor: str | None  # None on the last page
    is_first: bool


def _encode(values: list[Any]) -> str:
    plain = [v.isoformat() if isinstance(v, (dt.date, dt.datetime)) else v for v in values]
    return base64.urlsafe_b64encode(json.dumps(plain, separators=(",", ":")).encode()).decode().rstrip("=")


def _decode(model: type[Model], cursor: str, keys: tuple[str, ...]) -> list[Any] | None:
    """The cursor's key values, each read as its field's type (a tampered cursor, e.g. a date that is not a date,
    is no cursor: never a database error)."""
    if len(cursor) > 400:
        return None
    try:
        values = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None
    if not isinstance(values, list) or len(values) != len(keys):
        return None
    fields: list[Any] = [model._meta.get_field(key) for key in keys]
    read = [params.key_value(field, value) for field, value in zip(fields, values)]
    return None if any(v is None for v in read) else read


def cursor_param(raw: str | None) -> str | None:
    """?cursor= as a keyset page may have written it (URL-safe base64, bounded), else None: what a cache key may
    hold (a 5,000-character cursor would overflow the database cache's key column)."""
    return raw if raw and len(raw) <= 400 and _CURSOR.fullmatch(raw) else None


def page_size(raw: str | None, default: int) -> int:
    """?size= bounded to 1..MAX_PAGE_SIZE (the default when absent or not a number)."""
    return params.page_size(raw, default, MAX_PAGE_SIZE)


def keyset_page(queryset: QuerySet[M], keys: tuple[str, ...], cursor: str | None, size: int) -> KeysetPage[M]:
    """The page after ``cursor`` of ``queryset`` ordered by ``keys`` descending (the last key must be unique).

    A cursor that cannot be read gives the first page.
    """
    queryset = queryset.order_by(*(f"-{k}" for k in keys))
    cursor = cursor_param(cursor)
    values = _decode(queryset.model, cursor, keys) if cursor else None
    if values is not None:
        after = Q()
        for i in reversed(range(len(keys))):  # (k0 < v0) or (k0 = v0 and (k1 < v1 or ...))
            strictly = Q(**{f"{keys[i]}__lt": values[i]})
            after = strictly if i == len(keys) - 1 else strictly | (Q(**{keys[i]: values[i]}) & after)
        queryset = queryset.filter(after)
    rows = list(queryset[:size + 1])
    more = len(rows) > size
    rows = rows[:size]
    next_cursor = _encode([getattr(rows[-1], k) for k in keys]) if more and rows else None
    return KeysetPage(rows, next_cursor, values is None)


def keyset_slice(rows: Sequence[R], model: type[Model], keys: tuple[str, ...], key: Callable[[R], tuple[Any, ...]],
                 cursor: str | None, size: int) -> KeysetPage[R]:
    """`keyset_page` of rows already read, in descending order of `key` (a row's values of `model`'s `keys`): the
    same cursors, so a page's links are those `keyset_page` gives for the same rows."""
    cursor = cursor_param(cursor)
    values = _decode(model, cursor, keys) if cursor else None
    after = [r for r in rows if key(r) < tuple(values)] if values is not None else list(rows)
    page = after[:size]
    next_cursor = _encode(list(key(page[-1]))) if len(after) > size and page else None
    return KeysetPage(page, next_cursor, values is None)
