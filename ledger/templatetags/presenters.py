"""Template filters over ledger.presenters: {% load presenters %} then {{ x|money }}, {{ code|pattern_name }}."""
from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django import template
from django.utils.translation import pgettext

from ledger import rights
from ledger.models import AuditEntry, Night
from ledger.presenters import nights as presenters
from ledger.presenters.audit import amount_words, entry_title as audit_entry_title, transfer_words
from ledger.presenters.groups import role_label as _role_label

register = template.Library()


@register.filter
def money(value: Decimal | str | int) -> str:
    """Signed amount: +8, -19, 0."""
    return presenters.money(value)


@register.filter
def amount(value: Decimal | str | int) -> str:
    """Unsigned exact amount: 8, 0.5."""
    return presenters.amount(value)


@register.filter
def role_label(role: str) -> str:
    """A member's role in words: 圈主, 记分员, 成员."""
    return _role_label(role)


@register.filter
def pattern_name(code: str) -> str:
    return presenters.pattern_name(code)


@register.filter
def modifier_name(code: str) -> str:
    return presenters.modifier_name(code)


@register.filter
def win_features(win: object) -> str:
    """A win as the hand list says it, before its fan: 平胡 带1根 杠上花 (a player's biggest hands said 平胡 · 3 番)."""
    return presenters.win_features(str(getattr(win, "pattern", "")), int(getattr(win, "roots", 0) or 0),
                                   tuple(getattr(win, "flags", ()) or ()))


@register.filter
def payment_reason(reason: str) -> str:
    return presenters.payment_reason(reason)


@register.filter
def void_reason(reason: str) -> str:
    return presenters.void_reason(reason)


@register.filter
def zha_hu_amounts(night: Night) -> dict[str, str]:
    """What a 诈胡 costs at each fan (the 诈胡 form shows the one typed): see presenters.zha_hu_amounts."""
    return presenters.zha_hu_amounts(night)


@register.filter
def zha_hu_cost(amounts: dict[str, str], fan: object) -> str:
    """The 诈胡 form's line for the fan in its field, from the night's `zha_hu_amounts`, read as
    static/ledger/adjust.js reads it: the night's default when blank, nothing when it is not a fan the form takes
    (the field's error says why)."""
    typed = "" if fan is None else str(fan).strip()
    if typed == "":
        return amounts["default"]
    return amounts.get(str(int(typed)), "") if typed.isascii() and typed.isdigit() else ""


@register.filter
def entry_title(entry: AuditEntry) -> str:
    """An audit entry's title (presenters.audit.entry_title): its action, or the link turned on or off."""
    return audit_entry_title(entry)


@register.filter
def marked_transfer(entry: AuditEntry, stake: Night | None = None) -> str:
    """The transfer a 标记已付 / 撤销已付 entry is about, in words (张三 → 李四 ¥16, in the stake of `stake`, the night),
    for the trail's list; "" for any other entry."""
    if entry.action not in (AuditEntry.Action.TRANSFER_PAID, AuditEntry.Action.TRANSFER_UNPAID):
        return ""
    # The trail's list defers `after` and annotates the transfer alone (views.nights.audit): no query an entry.
    words = getattr(entry, "marked", None)
    if words is None:
        after = entry.after if isinstance(entry.after, dict) else {}
        words = after.get("transfer")
    return transfer_words(words, amount_words(stake)) if words else ""


@register.filter
def evening_visible_to(night: Night, user: object) -> bool:
    """Whether `user` may follow this table to its evening's page and money (rights.may_view_evening_of)."""
    return rights.may_view_evening_of(user, night)


@register.filter
def names(values: Iterable[object]) -> str:
    """Names joined as a list in the page's language: 张三、李四 / 张三, 李四."""
    return pgettext("list", "、").join(str(v) for v in values)


@register.filter
def evening_link_for(night: Night, user: object) -> bool:
    """Whether the table's head links `user` to its evening (rights.may_follow_to_evening)."""
    return rights.may_follow_to_evening(user, night)
