"""Who may do what: the one home of every "may this user do X to Y" rule of the ledger.

Pages ask these to decide what they offer, the API to answer 403/404, the services to refuse, the sockets to let a
listener in and the reports to hand a file over; none of them keeps its own copy. Rules over models only: this
module imports the models and Django, never services, selectors, views or the API (an import-linter contract).

The roles: a group's owner (圈主) and scorekeepers (记分员) write to the group and to every table of it; its
members look. A night's owner and the night's own scorekeepers write to that night alone (a night-level grant,
for people outside the group); the night's members look.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from django.core.exceptions import PermissionDenied
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from ledger.models import Evening, Group, GroupMember, Night, Player, Settlement, SettlementTransfer
from ledger.models.groups import EveningQuerySet, GroupQuerySet
from ledger.models.nights import NightQuerySet
from ledger.models.players import PlayerQuerySet

#: The roles of a group that record at its tables and manage its players, invite links, rules and settlements.
GROUP_WRITERS = (GroupMember.Role.OWNER, GroupMember.Role.SCOREKEEPER)


def require(allowed: bool) -> None:
    """Refuse (PermissionDenied: 403) unless the rule asked allowed it."""
    if not allowed:
        raise PermissionDenied


def _signed_in(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


# Groups ---------------------------------------------------------------------------------------------------------

def visible_groups(user: Any) -> GroupQuerySet:
    """The groups the user may see: those they are a member of, with any role."""
    return Group.objects.visible_to(user)


def visible_players(user: Any) -> PlayerQuerySet:
    """The players the user may see: those of the groups they see."""
    return Player.objects.visible_to(user)


def visible_evenings(user: Any) -> EveningQuerySet:
    """The evenings the user may see: those of the groups they see."""
    return Evening.objects.visible_to(user)


def may_view_group(user: Any, group: Group) -> bool:
    """See the group's pages (players, members, nights, evenings, statistics): its members, with any role."""
    return group.role_of(user) is not None


def may_view_evening_of(user: Any, night: Night) -> bool:
    """Follow a table to its evening's page and money (every table's players and transfers): the members of the
    table's group (may_view_group), asked by the group's id. Anyone else who may see the table is shown the
    evening's tables they may see."""
    return _signed_in(user) and GroupMember.objects.filter(group_id=night.group_id, user=user).exists()


def may_follow_to_evening(user: Any, night: Night) -> bool:
    """Follow a table's link to its evening: the group's members (the whole evening: may_view_evening_of), or
    someone who may see a table of it (the tables they may see). A visitor of a view link only would meet a 404."""
    return _signed_in(user) and night.evening_id is not None and (
        may_view_evening_of(user, night) or visible_nights(user).filter(evening_id=night.evening_id).exists())


def role_writes_group(role: str | None) -> bool:
    """Whether a member with this role (None: an outsider) writes to the group: its owners and scorekeepers."""
    return role in GROUP_WRITERS


def may_write_group(user: Any, group: Group) -> bool:
    """Record at the group's tables, manage its players, invite links, default rules, evenings and settlements."""
    return role_writes_group(group.role_of(user))


def may_manage_group(user: Any, group: Group) -> bool:
    """Rename the group and change who is in it with which role: its owners only."""
    return group.role_of(user) == GroupMember.Role.OWNER


def may_claim_player(user: Any, player: Player, night_names: set[int] | None = None) -> bool:
    """Say "this is me" (这是我) for a name: any member of its group; someone with only a night's grant, one of that
    night's names (`night_names`: the ids of that night's players)."""
    if not _signed_in(user):
        return False
    if GroupMember.objects.filter(group_id=player.group_id, user=user).exists():
        return True
    return night_names is not None and player.pk in night_names


def may_settle(user: Any, group: Group) -> bool:
    """Fix a settlement (结算), close an evening's tables: it moves the group's money, so the group's writers only,
    never a night-level grant."""
    return may_write_group(user, group)


def may_mark_transfer(user: Any, transfer: SettlementTransfer, *, settlement: Settlement,
                      group_writer: bool | None = None) -> bool:
    """Mark a transfer paid (已付) or take the mark back: its payer or payee (the accounts that claimed those names
    before the settlement was fixed), or the group's writers. `group_writer`: may_write_group, when known already."""
    # A name claimed after the settlement does not count: otherwise a member could claim someone else's name
    # (这是我) and then mark that person's debt paid (older claims, without a time, count).
    made = settlement.created_at
    own = {p.user_id for p in (transfer.payer, transfer.payee)
           if p is not None and p.user_id is not None and (p.claimed_at is None or p.claimed_at <= made)}
    if getattr(user, "pk", None) in own:
        return True
    return may_write_group(user, settlement.group) if group_writer is None else group_writer


def claimed_after_settling(user: Any, transfer: SettlementTransfer, *, settlement: Settlement) -> bool:
    """Whether the user's own name in the transfer (payer or payee) was claimed after the settlement was fixed: why
    may_mark_transfer gives them no 标记已付 for it, said on the page (a walk: 未付 with no button and no reason)."""
    pk = getattr(user, "pk", None)
    return pk is not None and any(p is not None and p.user_id == pk and p.claimed_at is not None
                                  and p.claimed_at > settlement.created_at for p in (transfer.payer, transfer.payee))


# Nights ---------------------------------------------------------------------------------------------------------

def visible_nights(user: Any) -> NightQuerySet:
    """The nights the user may see: its group's, plus those owned, or shared with them as member or scorekeeper."""
    return Night.objects.visible_to(user)


def visible_night_ids(user: Any, nights: Iterable[tuple[int, int]], *, member_of: int) -> set[int]:
    """The ids of those of `nights` ((night id, its group's id) pairs) the user sees (visible_nights), for a page
    of a group the user is a member of (`member_of`: the group of a player found among visible_players, the players
    of the user's groups). That group's nights are visible by the group rule without asking the database; any
    other night is asked."""
    nights = list(nights)
    seen = {pk for pk, group_id in nights if group_id == member_of}
    others = [pk for pk, _group_id in nights if pk not in seen]
    if others:
        seen |= set(visible_nights(user).filter(pk__in=others).values_list("pk", flat=True))
    return seen


def may_view_night(user: Any, night: Night) -> bool:
    """See the night's pages, its hands and totals."""
    return visible_nights(user).filter(pk=night.pk).exists()


def may_write_night(user: Any, night: Night) -> bool:
    """Record, correct or void hands, seat players, close the night: its owner or its own scorekeepers, or the
    owner or a scorekeeper of its group."""
    if not _signed_in(user):
        return False
    if night.owner_id == user.pk:
        return True
    return (night.scorekeepers.filter(pk=user.pk).exists()
            or GroupMember.objects.filter(group_id=night.group_id, user=user, role__in=GROUP_WRITERS).exists())


def writable_nights(user: Any) -> NightQuerySet:
    """The nights the user may write to (may_write_night), as a query: a write that reads its night with this takes
    the rule and the night in one statement, and a caller refused finds no row (so, locking, holds none)."""
    if not _signed_in(user):
        return Night.objects.none()
    keeper, writer = _write_grants(user)
    return Night.objects.filter(Q(owner=user) | Exists(keeper) | Exists(writer))


def _write_grants(user: Any) -> tuple[QuerySet[Any], QuerySet[GroupMember]]:
    """may_write_night's two grants besides ownership, as subqueries of a night query: the night's own scorekeepers,
    and the writers of its group."""
    return (Night.scorekeepers.through.objects.filter(night=OuterRef("pk"), user=user),
            GroupMember.objects.filter(group=OuterRef("group_id"), user=user, role__in=GROUP_WRITERS))


def refuse_night(user: Any, pk: int) -> NoReturn:
    """Refuse a write to night `pk` that `writable_nights` did not find: 403 if the user sees the night (they may
    look, not write), else 404, as for any night they do not see (its existence is not given away)."""
    if visible_nights(user).filter(pk=pk).exists():
        raise PermissionDenied(_("你可以查看这一场，但不能记分或修改：请圈主或这一场的主人把你设为记分员"))
    raise Http404


def may_manage_night(user: Any, night: Night) -> bool:
    """Change the night's own members and scorekeepers, turn its invite and view links on or off: its owner."""
    return _signed_in(user) and night.owner_id == user.pk


def may_listen(user: Any, night: Night) -> bool:
    """Follow the night live (its socket), as a signed-in viewer; a view link's holder listens by the link."""
    return may_view_night(user, night)


def downloadable_nights(user: Any) -> QuerySet[Night]:
    """The nights whose reports (PDF, PNG, text, CSV, backup) the user may download: every night they see."""
    return visible_nights(user)


def may_import_backup(user: Any, owner: object) -> bool:
    """Restore a night from its backup: the night's owner (the backup's `night.owner` username), or staff."""
    return bool(getattr(user, "is_staff", False)) or (
        _signed_in(user) and isinstance(owner, str) and owner == user.get_username())


def may_import_unsigned_backup(user: Any) -> bool:
    """Restore a backup this server did not sign (it could name anyone as the author of its hands): staff only."""
    return bool(getattr(user, "is_staff", False))


def with_rights(nights: QuerySet[Night], user: Any) -> QuerySet[Night]:
    """Annotate `user_can_write` (may_write_night, in the query) and `user_group_writer` (may_write_group of the
    night's group), for a page that reads the night and the caller's rights in one statement."""
    keeper, writer = _write_grants(user)
    return nights.annotate(user_can_write=ExpressionWrapper(Q(owner=user) | Exists(keeper) | Exists(writer),
                                                            output_field=BooleanField()),
                           user_group_writer=Exists(writer))
