"""Writes of groups: creating one, a user's own group, players of a group (create, rename, merge)."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .. import bounds
from ..models import AuditEntry, Player
from .models import Group, GroupMember


@transaction.atomic
def group_create(*, by: User, name: str, defaults: dict[str, Any] | None = None) -> Group:
    """Create a group with `by` as its owner."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("圈子需要一个名称")})
    group = Group(name=name, created_by=by, defaults=defaults or {})
    group.full_clean()
    group.save()
    GroupMember.objects.create(group=group, user=by, role=GroupMember.Role.OWNER)
    AuditEntry.objects.create(group=group, actor=by, action=AuditEntry.Action.GROUP_CREATED, after={"name": name})
    return group


def personal_group(user: User) -> Group:
    """The group a user records in when none is named: the first group they own, created if they own none."""
    owned = (Group.objects.filter(memberships__user=user, memberships__role=GroupMember.Role.OWNER)
             .order_by("id").first())
    return owned or group_create(by=user, name=_("%(name)s的圈子") % {"name": user.get_username()})


def player_get_or_create(*, name: str, group: Group) -> Player:
    """Return the group's (not merged) player with this display name, creating it if new."""
    name = bounds.clean_name(name)
    player, _created = Player.objects.get_or_create(group=group, name=name, merged_into__isnull=True,
                                                    defaults={"group": group, "name": name})
    return player


def check_group_writer(group: Group, user: Any) -> None:
    """Only the group's owner and scorekeepers manage its players and settlements."""
    if not group.can_write(user):
        raise PermissionDenied
