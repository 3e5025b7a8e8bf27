"""A group's audit entries in words (the night's entries have their own page): one line each, never a dump."""
from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ledger.models import AuditEntry, Night
from ledger.presenters.audit import amount_words, transfer_words


def role_label(value: Any) -> str:
    """A role in words (the roles' own labels are shared with other words: 成员 is also "members")."""
    words = {"owner": pgettext("role", "圈主"), "scorekeeper": pgettext("role", "记分员"),
             "member": pgettext("role", "成员")}
    return words.get(str(value), str(value))


def _member_line(before: dict[str, Any], after: dict[str, Any]) -> str:
    link = after.get("invite_link")
    if link == "off":
        return _("关闭了邀请链接")
    if link in ("on", "renewed"):
        return _("打开了邀请链接") if link == "on" else _("换了一个新的邀请链接")
    user = after.get("user") or before.get("user", "")
    if after.get("joined"):
        return _("%(user)s 通过邀请链接加入") % {"user": user}
    if after.get("removed"):
        return _("%(user)s 离开了圈子（原来是%(role)s）") % {"user": user, "role": role_label(before.get("role"))}
    return _("%(user)s：%(before)s → %(after)s") % {"user": user, "before": role_label(before.get("role")),
                                                    "after": role_label(after.get("role"))}


def _changed_line(before: dict[str, Any], after: dict[str, Any]) -> str:
    if "name" in after and "claimed_by" not in after:  # a claim names its player too
        return _("圈子改名：%(before)s → %(after)s") % {"before": before.get("name", ""), "after": after["name"]}
    if "defaults" in after:
        return _("修改了默认规则")
    if "player_added" in after:
        return _("添加玩家 %(name)s") % {"name": after["player_added"]}
    if "claimed_by" in after:
        if "name" in after:
            return _("%(user)s 认领了 %(name)s") % {"user": after["claimed_by"], "name": after["name"]}
        return _("%(user)s 认领了一个名字") % {"user": after["claimed_by"]}  # entries from before names were kept
    if "claimed_by" in before:
        if "name" in before:
            return _("%(user)s 取消了认领 %(name)s") % {"user": before["claimed_by"], "name": before["name"]}
        return _("%(user)s 取消了认领") % {"user": before["claimed_by"]}
    if isinstance(after.get("evening"), dict):
        evening = after["evening"]
        return _("新建活动 %(title)s（%(date)s）") % {"title": evening.get("title", ""), "date": evening.get("date", "")}
    return str(AuditEntry.Action.GROUP_CHANGED.label)


def _settled_line(after: dict[str, Any], amount: Callable[[Decimal], str]) -> str:
    transfers = [transfer_words(t, amount) for t in after.get("transfers") or []]
    words = pgettext("list", "；").join(transfers) if transfers else _("无需转账。")
    if after.get("title"):  # which evening or night (kept in the entry from now on)
        line = _("结算 %(title)s：%(transfers)s") % {"title": after["title"], "transfers": words}
    else:
        line = _("结算：%(transfers)s") % {"transfers": words}
    return line + (_("（含之前没付的）") if after.get("include_carry") else "")


def group_entry_line(entry: AuditEntry, stake: Night | None = None) -> str:
    """What one audit entry of a group says, in the page's language; a settlement's amounts in `stake`, the night
    whose stake they are in (¥27, 27 分), where it is known (selectors.settlement_stakes)."""
    before, after = entry.before or {}, entry.after or {}
    amount = amount_words(stake)
    if entry.action == AuditEntry.Action.GROUP_CREATED:
        return _("创建了圈子 %(name)s") % {"name": after.get("name", "")}
    if entry.action == AuditEntry.Action.MEMBER_CHANGED:
        return _member_line(before, after)
    if entry.action == AuditEntry.Action.PLAYER_RENAMED:
        return _("%(before)s 改名为 %(after)s") % {"before": before.get("name", ""), "after": after.get("name", "")}
    if entry.action == AuditEntry.Action.PLAYER_MERGED:
        counts = after.get("counts") or {}
        return _("%(source)s 合并到 %(into)s：%(hands)d 个局的记录、%(nights)d 场牌局") % {
            "source": before.get("name", ""), "into": after.get("name", ""), "hands": counts.get("revisions", 0),
            "nights": len(after.get("nights") or [])}
    if entry.action == AuditEntry.Action.GROUP_CHANGED:
        return _changed_line(before, after)
    if entry.action == AuditEntry.Action.SETTLED:
        return _settled_line(after, amount)
    if entry.action in (AuditEntry.Action.TRANSFER_PAID, AuditEntry.Action.TRANSFER_UNPAID) and "transfer" in after:
        return _("%(action)s：%(transfer)s") % {"action": entry.get_action_display(),
                                                "transfer": transfer_words(after["transfer"], amount)}
    if entry.action == AuditEntry.Action.NIGHT_DELETED:  # which night (a walk: two nights of one name and day)
        return _("删除牌局：%(title)s（%(date)s · %(players)s）") % {
            "title": before.get("title", ""), "date": before.get("date", ""),
            "players": " / ".join(map(str, before.get("players") or []))}
    return str(entry.get_action_display())
