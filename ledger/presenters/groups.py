"""A group's audit entries in words (the night's entries have their own page): one line each, never a dump."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ledger.models import AuditEntry


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
    if "name" in after:
        return _("圈子改名：%(before)s → %(after)s") % {"before": before.get("name", ""), "after": after["name"]}
    if "defaults" in after:
        return _("修改了默认规则")
    if "player_added" in after:
        return _("添加玩家 %(name)s") % {"name": after["player_added"]}
    if "claimed_by" in after:
        return _("%(user)s 认领了一个名字") % {"user": after["claimed_by"]}
    if "claimed_by" in before:
        return _("%(user)s 取消了认领") % {"user": before["claimed_by"]}
    return str(AuditEntry.Action.GROUP_CHANGED.label)


def group_entry_line(entry: AuditEntry) -> str:
    """What one audit entry of a group says, in the page's language."""
    before, after = entry.before or {}, entry.after or {}
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
    return str(entry.get_action_display())
