"""Writes of joining a night: sign-up, invite and view links, membership and roles, claiming a player name."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.services import audit as audit_log
from ledger.services import groups as group_services
from ledger.services import events
from ledger import rights
from ledger.models import AuditEntry, HandRevision, Night, Player
from ledger.selectors.nights import night_seating
from ledger.models import NightLink

ROLE_MEMBER, ROLE_SCOREKEEPER = "member", "scorekeeper"


def _audit(night: Night, by: Any, *, before: dict[str, Any] | None = None, after: dict[str, Any] | None = None) -> None:
    """Membership and links change who sees and who records: the night's audit trail says so."""
    audit_log.log(AuditEntry.Action.MEMBER_CHANGED, night=night, actor=by, before=before, after=after)


def _owner_only(night: Night, by: User) -> None:
    rights.require(rights.may_manage_night(by, night))


def link_active(*, night: Night, kind: str) -> NightLink | None:
    """The night's link of this kind that works now, if it is on."""
    return NightLink.objects.active().filter(night=night, kind=kind).first()


@transaction.atomic
def link_renew(*, night: Night, by: User, kind: str) -> NightLink:
    """Turn a link on with a fresh token; the previous one (if any) stops working."""
    _owner_only(night, by)
    link_turn_off(night=night, by=by, kind=kind)
    _audit(night, by, after={"link": kind, "state": "on"})
    return NightLink.objects.create(night=night, kind=kind, created_by=by)


@transaction.atomic
def link_turn_off(*, night: Night, by: User, kind: str) -> None:
    """Revoke the link of this kind: pages and sockets opened with it stop working."""
    _owner_only(night, by)
    for link in NightLink.objects.select_for_update().active().filter(night=night, kind=kind):
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        _audit(night, by, before={"link": kind, "state": "on"}, after={"link": kind, "state": "off"})
        events.access_revoked(night, link_id=link.pk)


def night_for_link(*, token: str, kind: str) -> Night | None:
    """The night a working link of this kind opens, or None."""
    link = NightLink.objects.active().filter(kind=kind, token=token).select_related("night").first()
    return link.night if link else None


@transaction.atomic
def night_join(*, token: str, user: User) -> Night:
    """Make the user a member of the night the invite link opens (a no-op for those already in)."""
    night = night_for_link(token=token, kind=NightLink.Kind.INVITE)
    if night is None:
        raise ValidationError({"token": _("邀请链接已失效")})
    if not rights.visible_nights(user).filter(pk=night.pk).exists():
        night.members.add(user)
        _audit(night, user, after={"user": user.get_username(), "role": ROLE_MEMBER, "via": "invite"})
    return night


@transaction.atomic
def member_set_role(*, night: Night, by: User, user: Any, role: str) -> None:
    """Make a member a scorekeeper (may record) or a plain member (may only look)."""
    _owner_only(night, by)
    if user.pk == night.owner_id:
        raise ValidationError({"user": _("牌局主人不能改角色")})
    if not rights.visible_nights(user).filter(pk=night.pk).exists():
        raise ValidationError({"user": _("这个人不是这一场的成员")})
    was = ROLE_SCOREKEEPER if night.scorekeepers.filter(pk=user.pk).exists() else ROLE_MEMBER
    if role == ROLE_SCOREKEEPER:
        night.scorekeepers.add(user)
        night.members.remove(user)
    elif role == ROLE_MEMBER:
        night.members.add(user)
        night.scorekeepers.remove(user)
    else:
        raise ValidationError({"role": _("未知的角色")})
    if was != role:
        _audit(night, by, before={"user": user.get_username(), "role": was},
               after={"user": user.get_username(), "role": role})
    events.role_changed(night, user_id=user.pk)


@transaction.atomic
def member_remove(*, night: Night, by: User, user: Any) -> None:
    """Take someone out of the night; their open pages stop receiving events."""
    _owner_only(night, by)
    if user.pk == night.owner_id:
        raise ValidationError({"user": _("牌局主人不能移除自己")})
    was = ROLE_SCOREKEEPER if night.scorekeepers.filter(pk=user.pk).exists() else ROLE_MEMBER
    night.members.remove(user)
    night.scorekeepers.remove(user)
    _audit(night, by, before={"user": user.get_username(), "role": was}, after={"user": user.get_username(),
                                                                               "role": "removed"})
    events.access_revoked(night, user_id=user.pk)


def night_player_names(night: Night) -> list[Player]:
    """Players of the night: seated now, or who played one of its hands."""
    seated = night_seating(night)
    ids = {p.pk for p in seated}
    for row in HandRevision.objects.filter(hand__night=night).values_list(
            "player_0", "player_1", "player_2", "player_3"):
        ids.update(pk for pk in row if pk is not None)  # a table of 3 or 2 leaves seats empty
    others = Player.objects.filter(pk__in=ids - {p.pk for p in seated}).order_by("name")
    return seated + list(others)


def player_claim(*, night: Night, user: Any, player: Player) -> Player:
    """Say "this is me" from a night's members page: one of the night's names (group members: any of the group's),
    audited in the group's trail (see groups.services.player_claim)."""
    names = {p.pk for p in night_player_names(night)}
    if player.pk not in names:
        raise ValidationError({"player": _("这个名字不在这一场")})
    return group_services.player_claim(player=player, user=user, night_names=names)


@transaction.atomic
def player_unclaim(*, user: Any, night: Night) -> None:
    """Undo "this is me" from a night's page: the user's name in the night's group is nobody's again (audited)."""
    group_services.player_unclaim(group=night.group, user=user)
