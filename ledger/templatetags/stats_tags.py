"""Template helpers of the statistics pages: {% load stats_tags %}, then {{ rate|percent }},
{{ amount|sign }} and {% group_top group user as top %} (the group home page's leaderboard fragment)."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from django import template
from django.utils import timezone

from ledger.models import Group
from ledger.selectors.periods import this_year
from ledger.selectors.stats import Standing, group_leaderboard

register = template.Library()

#: How many players the group home page's fragment lists.
TOP_OF_GROUP = 5


@register.filter
def percent(rate: Decimal | None) -> str:
    """A rate as a whole percentage (33%), halves rounded up as people do (12.5% is 13%, as 37.5% is 38%: the
    decimal default rounds halves to even), or a dash when there was nothing to count."""
    if rate is None:
        return "—"
    return f"{(rate * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)}%"


@register.filter
def sign(amount: Decimal | int) -> str:
    """The CSS class of a signed amount: pos, neg or nothing."""
    return "pos" if amount > 0 else ("neg" if amount < 0 else "")


@register.simple_tag(takes_context=True)
def group_top(context: template.Context, group: Group, user: Any) -> list[Standing] | None:
    """This year's best five of the group who played, or None when the user is not a member (nothing shown). The
    group page gives the viewer's `role` in the context: then it is not read again."""
    role = context["role"] if "role" in context else group.role_of(user)
    if role is None:
        return None
    period = this_year(timezone.localdate())
    return [s for s in group_leaderboard(group, period.date_from, period.date_to) if s.nights][:TOP_OF_GROUP]
