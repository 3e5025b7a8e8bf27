"""The date range of a leaderboard, read from the query string (`from`, `to`), checked like a body.

Neither given: this year, what a player asks first ("who is up this year?"). Either given: that bound, and the
other one open; an empty value is an open bound, so `?from=` is everything. A value that is not a date
(YYYY-MM-DD), given twice, or a `to` before `from` is an error naming the parameter, never ignored.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Period:
    """From and to, both included; None is open."""

    date_from: dt.date | None
    date_to: dt.date | None

    def query(self) -> str:
        """The query string that asks for this period again."""
        return f"from={iso(self.date_from)}&to={iso(self.date_to)}"


def iso(day: dt.date | None) -> str:
    return day.isoformat() if day else ""


def this_year(today: dt.date) -> Period:
    return Period(dt.date(today.year, 1, 1), dt.date(today.year, 12, 31))


def this_month(today: dt.date) -> Period:
    following = dt.date(today.year + today.month // 12, today.month % 12 + 1, 1)
    return Period(today.replace(day=1), following - dt.timedelta(days=1))


ALL_TIME = Period(None, None)


def _label(name: str) -> str:
    return _("开始日期") if name == "from" else _("结束日期")


def _date(params: QueryDict, name: str, errors: dict[str, list[str]]) -> dt.date | None:
    values = params.getlist(name)
    if len(values) > 1:
        errors[name] = [_("%(label)s（%(name)s）只能给一次") % {"label": _label(name), "name": name}]
        return None
    text = values[0].strip() if values else ""
    if not text:
        return None
    try:
        if not ISO_DATE.match(text):
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        errors[name] = [_("%(label)s（%(name)s）应为日期，格式 YYYY-MM-DD，如 2026-01-31")
                        % {"label": _label(name), "name": name}]
        return None


def period_of(params: QueryDict, today: dt.date) -> Period:
    """The period a query string asks for (this year when it names none); ValidationError naming the parameter."""
    if "from" not in params and "to" not in params:
        return this_year(today)
    errors: dict[str, list[str]] = {}
    period = Period(_date(params, "from", errors), _date(params, "to", errors))
    if not errors and period.date_from and period.date_to and period.date_to < period.date_from:
        errors["to"] = [_("结束日期（to）不能早于开始日期（from）")]
    if errors:
        raise ValidationError(errors)
    return period
