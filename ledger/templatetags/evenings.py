"""Template tags of evenings: what the group page's evenings section (templates/evenings/_group_section.html) shows."""
from __future__ import annotations

from typing import Any

from django import template

from ledger import rights
from ledger.selectors.evenings import group_balance, group_evenings
from ledger.models import Group
from ledger.presenters.nights import money

register = template.Library()


@register.simple_tag(takes_context=True)
def group_evenings_context(context: template.Context, group: Group) -> dict[str, Any]:
    """The group's latest evenings, its running balance (unpaid transfers per player) and whether the viewer may
    start an evening: ``{% group_evenings_context group as ev %}`` (three queries; four without ``can_write``
    in the context)."""
    user = context.get("user") or getattr(context.get("request"), "user", None)
    known = context.get("can_write")  # the group page's own answer for this group, when it gives one
    return {
        "evenings": group_evenings(group),
        "balance": [{"name": b.who.name, "amount": money(b.amount), "positive": b.amount > 0}
                    for b in group_balance(group)],
        "can_write": known if isinstance(known, bool) else rights.may_write_group(user, group),
    }
