"""Writes of groups (圈子): the group itself and its default house rules, members and invite links, its players
(create, rename, merge). Each is typed, keyword-only, one transaction, and writes an audit entry of the group."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import PRESETS, ScoringError, format_amount, normalise_language, parse_fee

from ledger import bounds, rights
from ledger.services import audit as audit_log
from ledger.selectors.house_rules import night_rules
from ledger.services import events
from ledger.services import standings
from ledger.models import AdjustmentSeat, AuditEntry, HandRevision, Night, Player, Seating, SeatResult, WinResult
from ledger.models import FeeShare, Group, GroupLink, GroupMember, SettlementTransfer

Role = GroupMember.Role
#: What a new night takes from its group when the group says nothing (the night form's own initial values).
FALLBACK_DEFAULTS: dict[str, Any] = {"preset": "chengdu", "rules": {}, "base": "1", "stake": "money",
                                     "currency": "CNY"}
REVISION_SEATS = ("player_0", "player_1", "player_2", "player_3")


def _audit(*, group: Group, by: User, action: str, before: dict[str, Any] | None = None,
           after: dict[str, Any] | None = None) -> AuditEntry:
    return audit_log.log(action, group=group, actor=by, before=before, after=after)


# ---- the group ---------------------------------------------------------------------------------------

def _clean_group_name(name: str) -> str:
    if not name.strip():
        raise ValidationError({"name": _("圈子需要一个名称")})
    name = bounds.clean_name(name, max_length=60)
    if not name:
        raise ValidationError({"name": _("圈子需要一个名称")})
    return name


@transaction.atomic
def group_create(*, by: User, name: str, defaults: dict[str, Any] | None = None, invite: bool = False) -> Group:
    """Create a group with `by` as its owner; with `invite`, its invite link on at once (a group made on purpose,
    by the page or the API: inviting is the next step; not the personal group made on the side)."""
    name = _clean_group_name(name)
    group = Group(name=name, created_by=by, defaults=defaults or {})
    group.full_clean()
    group.save()
    GroupMember.objects.create(group=group, user=by, role=Role.OWNER)
    _audit(group=group, by=by, action=AuditEntry.Action.GROUP_CREATED, after={"name": name})
    if invite:
        group_link_renew(group=group, by=by)
    return group


def personal_group(user: User) -> Group:
    """The group a user records in when none is named: the first group they own, created if they own none."""
    owned = (Group.objects.filter(memberships__user=user, memberships__role=Role.OWNER)
             .order_by("id").first())
    return owned or group_create(by=user, name=_("%(name)s的圈子") % {"name": user.get_username()})


def check_group_writer(group: Group, user: Any) -> None:
    """Refuse unless rights.may_write_group: the group's owner and scorekeepers manage its players, invite links,
    default rules and settlements."""
    rights.require(rights.may_write_group(user, group))


def check_group_owner(group: Group, user: Any) -> None:
    """Refuse unless rights.may_manage_group: only an owner renames the group and changes who is in it."""
    rights.require(rights.may_manage_group(user, group))


@transaction.atomic
def group_rename(*, group: Group, by: User, name: str) -> Group:
    """Give the group another name (owners only)."""
    check_group_owner(group, by)
    group = Group.objects.select_for_update().get(pk=group.pk)
    name = _clean_group_name(name)
    if name == group.name:
        return group
    before = group.name
    group.name = name
    group.save(update_fields=["name"])
    _audit(group=group, by=by, action=AuditEntry.Action.GROUP_CHANGED, before={"name": before}, after={"name": name})
    return group


def _scoring_messages(error: ScoringError) -> dict[str, list[ValidationError]]:
    """The engine's problems with rules as field errors of the ledger, by path ("rules.max_fan"), each with the
    engine's code (a form may say it in its own words: forms.nights.RULE_PROBLEM_WORDS)."""
    language = normalise_language(get_language())
    errors: dict[str, list[ValidationError]] = {}
    for problem in error.problems:
        errors.setdefault(problem.path or "rules", []).append(
            ValidationError(problem.message(language), code=problem.code))
    return errors


def clean_defaults(*, preset: str, rules: Mapping[str, Any] | None, base: Decimal | str | int,
                   stake: str, currency: str, fee: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check a group's default house rules (and table fee) as a night would, and return them as stored."""
    errors: dict[str, list[Any]] = {}  # messages, or ValidationErrors with the engine's code
    overrides = dict(rules or {})
    if preset not in PRESETS:
        errors["preset"] = [_("未知的规则预设")]
    else:
        try:
            full = night_rules(preset=preset, overrides=overrides)
        except ScoringError as exc:
            errors.update(_scoring_messages(exc))
        else:  # keep only what differs from the preset, in the engine's canonical values
            preset_rules = night_rules(preset=preset)
            overrides = {k: full[k] for k in overrides if full[k] != preset_rules[k]}
    try:
        amount = Decimal(str(base)) if not isinstance(base, Decimal) else base
        if amount <= 0:
            raise ValidationError({"base": _("底金必须大于 0")})
        bounds.check_base(amount)
    except (InvalidOperation, ValueError):
        errors["base"] = [_("底金应在 0.01 到 100000 之间，最多两位小数")]
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if stake not in Night.Stake.values:
        errors["stake"] = [_("计分方式应为 钱 或 积分")]
    currency = currency.strip() if stake == Night.Stake.MONEY else ""
    if len(currency) > 8 or any(not c.isprintable() or c.isspace() for c in currency):
        errors["currency"] = [_("币种最多 8 个字符，不能有空格")]
    fee_doc: dict[str, Any] = {"mode": "none"}
    try:
        fee_doc = parse_fee(fee).as_dict()
    except ScoringError as exc:
        errors.update(_scoring_messages(exc))
    if errors:
        raise ValidationError(errors)
    return {"preset": preset, "rules": overrides, "base": format(amount.normalize(), "f"), "stake": stake,
            "currency": currency, "fee": fee_doc}


@transaction.atomic
def group_set_defaults(*, group: Group, by: User, preset: str = "chengdu", rules: Mapping[str, Any] | None = None,
                       base: Decimal | str | int = Decimal(1), stake: str = Night.Stake.MONEY,
                       currency: str = "CNY", fee: Mapping[str, Any] | None = None) -> Group:
    """Set the house rules and table fee a new night of the group starts from (a night then freezes its own).

    Owners and scorekeepers may; the rules are checked by the scoring engine as a night's would be, the fee by
    ``scoring.parse_fee`` (errors at ``fee.mode``, ``fee.amount``…), and nothing is written on any error.
    """
    check_group_writer(group, by)
    group = Group.objects.select_for_update().get(pk=group.pk)
    cleaned = clean_defaults(preset=preset, rules=rules, base=base, stake=stake, currency=currency, fee=fee)
    before = dict(group.defaults)
    after = {**before, **cleaned}
    if after == before:
        return group
    group.defaults = after
    group.save(update_fields=["defaults"])
    _audit(group=group, by=by, action=AuditEntry.Action.GROUP_CHANGED, before={"defaults": before},
           after={"defaults": after})
    return group


def group_night_defaults(group: Group) -> dict[str, Any]:
    """What a new night of the group starts from, as keyword arguments of ``ledger.services.night_create``:
    ``preset``, ``rule_overrides``, ``base`` (Decimal), ``stake``, ``currency`` and ``fee`` (None for none).

    The full rule set is ``night_rules(preset=..., overrides=rule_overrides)``. A group that never saved defaults
    (默认规则) starts from its last night's stake, rules and fee (a walk: a new week's first table started at 底金 1 and
    no table fee after a week at ¥2 and ¥10 a head): the first table of its last day (lowest table number, else the
    first made), so the night form, the 默认规则 page and the API agree. Missing
    values fall back to the night form's own (Chengdu standard, base 1, money in CNY).
    """
    stored = {**FALLBACK_DEFAULTS, **(group.defaults or {})}
    last = None if group.defaults else Night.objects.filter(group_id=group.pk).first_tables_last_first().first()
    if last is not None:
        stored = {**FALLBACK_DEFAULTS, "preset": last.preset, "rules": last.rules, "base": format_amount(last.base),
                  "stake": last.stake, "currency": last.currency, "fee": last.fee}
    return {"preset": stored["preset"], "rule_overrides": dict(stored["rules"] or {}),
            "base": Decimal(str(stored["base"])), "stake": stored["stake"], "currency": stored["currency"],
            "fee": None if not stored.get("fee") or stored["fee"].get("mode") == "none" else stored["fee"]}


# ---- members and invite links ------------------------------------------------------------------------

def group_link_active(group: Group) -> GroupLink | None:
    """The group's invite link that works now, if it is on."""
    return GroupLink.objects.filter(group_id=group.pk, revoked_at__isnull=True).first()


def _revoke_links(group: Group) -> bool:
    revoked = GroupLink.objects.select_for_update().filter(group=group, revoked_at__isnull=True)
    return revoked.update(revoked_at=timezone.now()) > 0


@transaction.atomic
def group_link_renew(*, group: Group, by: User) -> GroupLink:
    """Turn the invite link on with a fresh token; the previous one (if any) stops working."""
    check_group_writer(group, by)
    Group.objects.select_for_update().get(pk=group.pk)
    renewed = _revoke_links(group)
    link = GroupLink.objects.create(group=group, created_by=by)
    _audit(group=group, by=by, action=AuditEntry.Action.MEMBER_CHANGED,
           after={"invite_link": "renewed" if renewed else "on"})
    return link


@transaction.atomic
def group_link_turn_off(*, group: Group, by: User) -> None:
    """Revoke the invite link: opening it no longer makes anyone a member."""
    check_group_writer(group, by)
    Group.objects.select_for_update().get(pk=group.pk)
    if _revoke_links(group):
        _audit(group=group, by=by, action=AuditEntry.Action.MEMBER_CHANGED, after={"invite_link": "off"})


def group_for_link(token: str) -> Group | None:
    """The group a working invite link opens, or None."""
    link = GroupLink.objects.filter(token=token, revoked_at__isnull=True).select_related("group").first()
    return link.group if link else None


@transaction.atomic
def group_join(*, token: str, user: User) -> Group:
    """Make the user a member of the group the invite link opens (a no-op for those already in)."""
    group = group_for_link(token)
    if group is None:
        raise ValidationError({"token": _("邀请链接已失效")})
    _membership, created = GroupMember.objects.get_or_create(group=group, user=user,
                                                             defaults={"role": Role.MEMBER})
    if created:
        _audit(group=group, by=user, action=AuditEntry.Action.MEMBER_CHANGED,
               after={"user": user.get_username(), "role": Role.MEMBER, "joined": True})
    return group


def _membership(group: Group, user: Any) -> GroupMember:
    membership = GroupMember.objects.select_for_update().filter(group=group, user=user).first()
    if membership is None:
        raise ValidationError({"user": _("这个人不是这个圈子的成员")})
    return membership


def _check_not_last_owner(group: Group, membership: GroupMember, message: str) -> None:
    """A group always keeps at least one owner (owners' rows are locked first, so two cannot both leave)."""
    if membership.role != Role.OWNER:
        return
    owners = list(GroupMember.objects.select_for_update().filter(group=group, role=Role.OWNER).values_list(
        "pk", flat=True))
    if owners == [membership.pk]:
        raise ValidationError({"user": message})


@transaction.atomic
def membership_set_role(*, group: Group, by: User, user: Any, role: str) -> GroupMember:
    """Give a member another role (owners only); the last owner cannot step down."""
    check_group_owner(group, by)
    if role not in Role.values:
        raise ValidationError({"role": _("未知的角色")})
    Group.objects.select_for_update().get(pk=group.pk)
    membership = _membership(group, user)
    if membership.role == role:
        return membership
    if role != Role.OWNER:
        _check_not_last_owner(group, membership, _("圈子至少要有一位圈主：先让别人当圈主"))
    before = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    _audit(group=group, by=by, action=AuditEntry.Action.MEMBER_CHANGED,
           before={"user": user.get_username(), "role": before}, after={"user": user.get_username(), "role": role})
    events.group_role_changed(group.pk, user_id=user.pk)  # their open table pages: rights changed, reload
    return membership


@transaction.atomic
def membership_remove(*, group: Group, by: User, user: Any) -> None:
    """Take someone out of the group (owners only; anyone may take themselves out: see group_leave), and release
    the player name they claimed there."""
    if user.pk != by.pk:
        check_group_owner(group, by)
    Group.objects.select_for_update().get(pk=group.pk)
    membership = _membership(group, user)
    _check_not_last_owner(group, membership, _("圈子至少要有一位圈主：先让别人当圈主"))
    role = membership.role
    membership.delete()  # the audit entry keeps who it was and with which role
    _audit(group=group, by=by, action=AuditEntry.Action.MEMBER_CHANGED,
           before={"user": user.get_username(), "role": role}, after={"user": user.get_username(), "removed": True})
    # Out of the group, their claim would keep the name from anyone else for good (they can no longer see it to give
    # it up): it is released, and may be claimed again (by them too, if they come back); unless the name sits at a
    # night they are still a member, scorekeeper or owner of, where it lets them confirm (sitting there now, or
    # having played there before a substitution: its totals name them).
    still = set(Night.objects.filter(Q(members=user) | Q(scorekeepers=user) | Q(owner=user), group=group)
                .values_list("pk", flat=True))
    keep = [p.pk for p in Player.objects.filter(group=group, user=user) if still & set(_affected_nights(p))]
    _release_claims(group, user, by=by, keep=keep)
    events.group_access_revoked(group.pk, user_id=user.pk)  # their open sockets on the group's nights close


def group_leave(*, group: Group, user: User) -> None:
    """Leave the group; its last owner cannot (hand the group to someone first)."""
    membership_remove(group=group, by=user, user=user)


# ---- players -----------------------------------------------------------------------------------------

def _named(group: Group, name: str) -> Player | None:
    """The group's active player of this name: written exactly so, else written with other letter case ("alice"
    typed for Alice is Alice: names differ by more than case, `_check_name_free`)."""
    players = Player.objects.active().filter(group=group)
    return players.filter(name=name).first() or players.filter(name__iexact=name).order_by("pk").first()


def player_get_or_create(*, name: str, group: Group, exact: bool = False) -> Player:
    """Return the group's (not merged) player with this display name (letter case aside), creating it if new.
    `exact`: the name as written only (a backup restores its players as they were, "alice" beside "Alice" included)."""
    name = bounds.clean_name(name)
    found = None if exact else _named(group, name)
    if found is not None:
        return found
    player, _created = Player.objects.get_or_create(group=group, name=name, merged_into__isnull=True,
                                                    defaults={"group": group, "name": name})
    return player


def _check_name_free(group: Group, name: str, *, but: Player | None = None) -> None:
    """A new or changed name must be free among the group's players, letter case aside ("alice" beside "Alice" is
    the same person typed twice, not a second player)."""
    taken = Player.objects.active().filter(group=group, name__iexact=name)
    if but is not None:
        taken = taken.exclude(pk=but.pk)
    other = taken.first()
    if other is not None:
        raise ValidationError({"name": _("这个圈子里已经有叫 %(name)s 的玩家") % {"name": other.name}})


@transaction.atomic
def player_create(*, group: Group, by: User, name: str) -> Player:
    """Add a player to the group; the name must be new among its players."""
    check_group_writer(group, by)
    Group.objects.select_for_update().get(pk=group.pk)
    name = bounds.clean_name(name)
    _check_name_free(group, name)
    player = Player.objects.create(group=group, name=name)
    _audit(group=group, by=by, action=AuditEntry.Action.GROUP_CHANGED, after={"player_added": name,
                                                                             "player": player.pk})
    return player


def player_find_or_add(*, group: Group, by: User, name: str) -> Player:
    """The group's active player of this name, or a new one added by `by` (audited like `player_create`)."""
    found = _named(group, bounds.clean_name(name))
    return found or player_create(group=group, by=by, name=name)


def _check_active(player: Player, field: str) -> None:
    if player.merged_into_id is not None:
        raise ValidationError({field: _("%(name)s 已经合并到别的玩家") % {"name": player.name}})


@transaction.atomic
def player_rename(*, player: Player, by: User, name: str) -> Player:
    """Rename a player; hands recorded before keep the name they were recorded with (HandRevision.player_names)."""
    check_group_writer(player.group, by)
    Group.objects.select_for_update().get(pk=player.group_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    _check_active(player, "name")
    name = bounds.clean_name(name)
    if name == player.name:
        return player
    _check_name_free(player.group, name, but=player)
    before = player.name
    player.name = name
    player.save(update_fields=["name"])
    _audit(group=player.group, by=by, action=AuditEntry.Action.PLAYER_RENAMED,
           before={"player": player.pk, "name": before}, after={"player": player.pk, "name": name})
    return player


def _in_revision(player: Player) -> Q:
    return Q(player_0=player) | Q(player_1=player) | Q(player_2=player) | Q(player_3=player)


def _merge_conflicts(source: Player, into: Player, same_person: bool) -> None:
    """A merge must not put one person in two seats of a hand or a night, nor make someone pay themselves; two
    names at two tables of one evening merge only once the caller says they are one person (`same_person`)."""
    together = HandRevision.objects.filter(_in_revision(source)).filter(_in_revision(into))
    hand = together.select_related("hand__night").first()
    if hand is not None:
        raise ValidationError({"into": _("%(a)s 和 %(b)s 在同一局（%(night)s 第 %(n)d 局）里同时出现，不能合并")
                               % {"a": source.name, "b": into.name, "night": hand.hand.night.title,
                                  "n": hand.hand.number}})
    adjusted = (AdjustmentSeat.objects.filter(player=source, adjustment__seats__player=into)
                .select_related("adjustment__night").first())
    if adjusted is not None:
        raise ValidationError({"into": _("%(a)s 和 %(b)s 在同一项罚分/调整（%(night)s）里同时出现，不能合并")
                               % {"a": source.name, "b": into.name, "night": adjusted.adjustment.night.title}})
    seated = Seating.objects.filter(player=source, night__seating__player=into).select_related("night").first()
    if seated is not None:
        raise ValidationError({"into": _("%(a)s 和 %(b)s 都坐在 %(night)s 的牌桌上，不能合并")
                               % {"a": source.name, "b": into.name, "night": seated.night.title}})
    if SettlementTransfer.objects.filter(Q(payer=source, payee=into) | Q(payer=into, payee=source)).exists():
        raise ValidationError({"into": _("%(a)s 和 %(b)s 之间有结算转账，不能合并") % {"a": source.name, "b": into.name}})
    if source.user_id and into.user_id and source.user_id != into.user_id:
        raise ValidationError({"into": _("%(a)s 和 %(b)s 已被不同的账号认领，不能合并")
                               % {"a": source.name, "b": into.name}})
    apart = None if same_person else _at_two_tables_of_an_evening(source, into)
    if apart is not None:
        raise ValidationError({"same_person": _(
            "%(a)s（%(night_a)s）和 %(b)s（%(night_b)s）在同一个活动的两桌都打过：同时在打的是两个人。"
            "确定是同一个人（换过桌），再勾选“是同一个人”合并")
            % {"a": source.name, "b": into.name, "night_a": apart[0], "night_b": apart[1]}})


def _at_two_tables_of_an_evening(source: Player, into: Player) -> tuple[str, str] | None:
    """The titles of two tables of one evening where one name and the other played (a hand each), if any. Two
    friends side by side there are two people (a walk merged two who had swapped tables, and every table of the
    evening then charged the one name its fee); one friend who changed tables, typed two ways, is one. Which it
    was, the table knows, not the ledger: a hand's time is when the server got it (a phone offline sends later), so
    the merge asks (`same_person`) rather than guesses."""
    def tables(player: Player) -> dict[int, tuple[int, str]]:
        rows = (HandRevision.objects.filter(_in_revision(player), is_current=True, hand__night__evening__isnull=False)
                .values_list("hand__night_id", "hand__night__evening_id", "hand__night__title").distinct())
        return {night: (evening, title) for night, evening, title in rows}
    theirs = tables(into)
    for night, (evening, title) in tables(source).items():
        other = next((t for n, (e, t) in theirs.items() if e == evening and n != night), None)
        if other is not None:
            return title, other
    return None


def _affected_nights(source: Player) -> list[int]:
    """Nights where the source sits or played a hand (their totals name the source)."""
    seated = Seating.objects.filter(player=source).values_list("night_id", flat=True)
    played = HandRevision.objects.filter(_in_revision(source)).values_list("hand__night_id", flat=True)
    adjusted = AdjustmentSeat.objects.filter(player=source).values_list("adjustment__night_id", flat=True)
    return sorted(set(seated) | set(played) | set(adjusted))


def _merge_fee_shares(source: Player, into: Player) -> int:
    """A night where both paid a share of the fee (one replaced the other at the table): one share, the sum."""
    moved = 0
    for share in FeeShare.objects.select_for_update().filter(player=source):
        existing = FeeShare.objects.select_for_update().filter(night_id=share.night_id, player=into).first()
        if existing is None:
            share.player = into
            share.save(update_fields=["player"])
        else:
            existing.amount += share.amount
            existing.save(update_fields=["amount"])
            share.delete()  # derived from the night's fee; the target's share now holds both
        moved += 1
    return moved


def _payments_of(player: Player) -> int:
    """How many payments of the revisions `player` sits in (every version) have them pay or be paid."""
    count = 0
    for index, seat in enumerate(REVISION_SEATS):
        for result in HandRevision.objects.filter(**{seat: player}).values_list("result", flat=True):
            count += sum(1 for p in result["payments"] if index in (p["from"], p["to"]))
    return count


@transaction.atomic
def player_merge(*, source: Player, into: Player, by: User, same_person: bool = False) -> Player:
    """Merge two names of one person in a group: every hand, seat, payment (by the seats of its revision), result,
    fee share and settlement transfer of `source` now names `into`; `source` stays (marked merged) for the audit trail.

    Totals of every night stay the same, under the target's name. The names recorded with past revisions are
    kept as they were. Refused when both appear in one hand or sit at one table (one person, two seats), and, unless
    the caller says they are one person (`same_person`), when they played at two tables of one evening.
    """
    check_group_writer(source.group, by)
    if source.group_id != into.group_id:
        raise ValidationError({"into": _("只能合并同一个圈子里的玩家")})
    if source.pk == into.pk:
        raise ValidationError({"into": _("不能把玩家合并到自己")})
    # The nights' row locks first (as every write of a night takes), then the group's (a night's change bumps its
    # group's generation after its own lock: ledger.services.audit), then the players'. Which nights is read again
    # once they are locked: a night that seated the source meanwhile is locked too (and its standings recomputed
    # below with the others), so no row of an unlocked night moves.
    nights = _affected_nights(source)
    while True:
        list(Night.objects.select_for_update().filter(pk__in=nights).order_by("pk").values_list("pk", flat=True))
        again = _affected_nights(source)
        if set(again) <= set(nights):
            break
        nights = sorted(set(nights) | set(again))
    group = Group.objects.select_for_update().get(pk=source.group_id)
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, into.pk]).order_by("pk")}
    source, into = locked[source.pk], locked[into.pk]
    _check_active(source, "player")
    _check_active(into, "into")
    _merge_conflicts(source, into, same_person)
    # Each win's row follows its seat result (the audit's counts name the seat results, as before).
    WinResult.objects.filter(player=source).update(player=into)
    paid = _payments_of(source)  # in the revisions' results, by seat: they follow the revisions' seats
    counts = {
        "seats": Seating.objects.filter(player=source).update(player=into),
        "revisions": sum(HandRevision.objects.filter(**{f"{seat}": source}).update(**{seat: into})
                         for seat in REVISION_SEATS),
        "payments": paid,
        "seat_results": SeatResult.objects.filter(player=source).update(player=into),
        "adjustment_seats": AdjustmentSeat.objects.filter(player=source).update(player=into),
        "fee_shares": _merge_fee_shares(source, into),
        "transfers": (SettlementTransfer.objects.filter(payer=source).update(payer=into)
                      + SettlementTransfer.objects.filter(payee=source).update(payee=into)),
    }
    standings.refresh(nights)  # the source's lines of those nights become the target's (summed where both played)
    user_moved = source.user_id is not None and into.user_id is None
    user_id, claimed_at = source.user_id, source.claimed_at
    source.merged_into = into
    if user_moved:
        source.user, source.claimed_at = None, None
    source.save(update_fields=["merged_into", "user", "claimed_at"])
    if user_moved:  # the claim moves with its time: a name claimed after a settlement still counts as such there
        into.user_id, into.claimed_at = user_id, claimed_at
        into.save(update_fields=["user", "claimed_at"])
    # The people behind a closed night's result changed: its sign-offs (签字确认) no longer hold (see
    # ledger.services.confirmations; the only change a closed night can still undergo).
    from ledger.services.confirmations import confirmations_clear
    for night in Night.objects.filter(pk__in=nights, is_closed=True).order_by("pk"):
        confirmations_clear(night=night, by=by, cause={"cause": "merge", "from": source.name, "into": into.name})
    _audit(group=group, by=by, action=AuditEntry.Action.PLAYER_MERGED,
           before={"player": source.pk, "name": source.name},
           after={"into": into.pk, "name": into.name, "counts": counts, "nights": nights,
                  "user_moved": user_moved})
    return into


@transaction.atomic
def player_claim(*, player: Player, user: User, night_names: set[int] | None = None) -> Player:
    """Say "this is me": link one of the group's players to the member's account (one name per group).

    A member of the group may claim any of its names; someone who only has a night's grant (`night_names`: the
    ids of that night's players) only one of that night's names. Audited; the group's row is locked first, so
    two claims at once cannot both pass the one-name-per-group check.
    """
    rights.require(rights.may_claim_player(user, player, night_names))
    Group.objects.select_for_update().only("pk").get(pk=player.group_id)
    player = Player.objects.select_for_update().select_related("group").get(pk=player.pk)
    _check_active(player, "player")
    if player.user_id == user.pk:
        return player
    if player.user_id is not None:
        raise ValidationError({"player": _("%(name)s 已经被别人认领") % {"name": player.name}})
    mine = Player.objects.filter(user=user, group_id=player.group_id).first()
    if mine is not None:
        raise ValidationError({"player": _("你已经认领了 %(name)s，先取消再认领别的名字") % {"name": mine.name}})
    player.user, player.claimed_at = user, timezone.now()
    player.save(update_fields=["user", "claimed_at"])
    _audit(group=player.group, by=user, action=AuditEntry.Action.GROUP_CHANGED,
           after={"player": player.pk, "name": player.name, "claimed_by": user.get_username()})
    return player


@transaction.atomic
def player_unclaim(*, group: Group, user: User) -> None:
    """Undo "this is me" in the group: the user's player name there is nobody's again. The group's row first, as
    renames, claims and merges take it, so an unclaim and a rename never wait for each other."""
    Group.objects.select_for_update().get(pk=group.pk)
    _release_claims(group, user, by=user)


def _release_claims(group: Group, user: Any, *, by: User, keep: Any = None) -> None:
    """The user's player name in the group is nobody's again (audited), but those among `keep` (player ids); the
    caller holds the group's row."""
    claimed = Player.objects.select_for_update().filter(group=group, user=user)
    for player in claimed.exclude(pk__in=keep) if keep is not None else claimed:
        player.user, player.claimed_at = None, None
        player.save(update_fields=["user", "claimed_at"])
        _audit(group=group, by=by, action=AuditEntry.Action.GROUP_CHANGED,
               before={"player": player.pk, "name": player.name, "claimed_by": user.get_username()})
