"""Sign-off of a closed night (签字确认): each player whose name is claimed by an account confirms the result.

A closed night is frozen (no hand or adjustment can be recorded, corrected or voided: services._check_open), so a
confirmation stands for the result it saw. Two changes clear them, each with an audit entry and a note on the night
saying why: a merge of two of its players' names (groups.services.player_merge: the people behind the result
change), and opening the night again (services.nights.night_reopen: the result may change).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ledger.services import audit as audit_log
from ledger.services import events
from ledger.models import AuditEntry, Confirmation, Night, Player
from ledger.selectors.nights import night_totals


@dataclass(frozen=True)
class SignOff:
    """One player of the night and their sign-off: who claimed the name, and when they confirmed (if they did)."""

    player_id: int
    name: str
    seat: int | None
    account: str | None  # the username that claimed the name (or confirmed it), None for an unclaimed name
    at: dt.datetime | None  # when they confirmed, None if not yet

    @property
    def confirmed(self) -> bool:
        return self.at is not None


def night_signoffs(night: Night) -> list[SignOff]:
    """Every player of the night (seated first, as the totals), with their claim and confirmation."""
    totals = night_totals(night)
    claimed = dict(Player.objects.filter(pk__in=[t.player.pk for t in totals], user__isnull=False)
                   .values_list("pk", "user__username"))
    done = {c.player_id: c for c in Confirmation.objects.filter(night=night).select_related("user")}
    rows = []
    for t in totals:
        confirmation = done.get(t.player.pk)
        account = confirmation.user.get_username() if confirmation else claimed.get(t.player.pk)
        rows.append(SignOff(t.player.pk, t.player.name, t.seat, account, confirmation.at if confirmation else None))
    return rows


def confirmations_data(night: Night) -> list[dict[str, Any]]:
    """The API's `confirmations` of a night: who confirmed (player name and seat, account, when)."""
    return [{"player": s.name, "seat": s.seat, "account": s.account, "at": s.at.isoformat()}
            for s in night_signoffs(night) if s.at is not None]


def players_of(night: Night, user: Any) -> list[tuple[int, str, int | None]]:
    """(player id, name, seat) of the night's players whose name this user claimed (usually one, never more than
    one per group)."""
    if not user.is_authenticated:
        return []
    totals = night_totals(night)
    mine = set(Player.objects.filter(pk__in=[t.player.pk for t in totals], user=user).values_list("pk", flat=True))
    return [(t.player.pk, t.player.name, t.seat) for t in totals if t.player.pk in mine]


@transaction.atomic
def night_confirm(*, night: Night, user: User) -> list[Confirmation]:
    """The user confirms the closed night for the name(s) they claimed in it; confirming twice is one confirmation.

    PermissionDenied (403) for a user who is not a claimed player of the night; a ValidationError while the night
    is open (the result may still change).
    """
    night = Night.objects.select_for_update().get(pk=night.pk)
    mine = players_of(night, user)
    if not mine:
        raise PermissionDenied(_("只有这一场里认领了名字的玩家才能确认结果（先在牌桌页点 这是我）"))
    if not night.is_closed:
        raise ValidationError({"night": _("牌局结束后才能确认结果")})
    existing = {c.player_id: c for c in Confirmation.objects.filter(night=night, player_id__in=[m[0] for m in mine])}
    made = []
    for pk, name, seat in mine:
        if pk in existing:
            made.append(existing[pk])
            continue
        confirmation = Confirmation.objects.create(night=night, player_id=pk, seat=seat, user=user)
        audit_log.log(AuditEntry.Action.NIGHT_CONFIRMED, night=night, actor=user,
                      after={"player": name, "seat": seat, "account": user.get_username()})
        made.append(confirmation)
    if len(made) > len(existing):
        events.confirmations_changed(night)
    return made


def confirmations_clear(*, night: Night, by: User, cause: dict[str, Any]) -> int:
    """Clear a night's confirmations after a change of its result (`cause`, e.g. {"cause": "merge", "from": "张三",
    "into": "张三丰"}), with an audit entry; call it inside the change's transaction, under the night's lock.
    Returns how many were cleared (0: nothing written)."""
    confirmations = list(Confirmation.objects.filter(night=night).select_related("player").order_by("seat", "pk"))
    if not confirmations:
        return 0
    Confirmation.objects.filter(pk__in=[c.pk for c in confirmations]).delete()
    audit_log.log(AuditEntry.Action.CONFIRMS_CLEARED, night=night, actor=by,
                  before={"confirmed": [c.player.name for c in confirmations]}, after=cause)
    events.confirmations_changed(night)
    return len(confirmations)


def cause_words(cause: Any) -> str:
    """Why confirmations were cleared, in the active language: "确认已清除：张三 已合并到 张三丰"."""
    if isinstance(cause, dict) and cause.get("cause") == "merge":
        return _("确认已清除：%(a)s 已合并到 %(b)s") % {"a": cause.get("from", ""), "b": cause.get("into", "")}
    if isinstance(cause, dict) and cause.get("cause") == "reopened":
        return _("确认已清除：牌局重新打开了")
    return _("确认已清除")


def clearing_note(night: Night) -> str:
    """The note a night's pages show when its confirmations were cleared and nobody has confirmed since, else ""."""
    latest = (AuditEntry.objects.filter(night=night, action__in=(AuditEntry.Action.CONFIRMS_CLEARED,
                                                                  AuditEntry.Action.NIGHT_CONFIRMED))
              .order_by("-at", "-id").only("action", "after").first())
    if latest is None or latest.action != AuditEntry.Action.CONFIRMS_CLEARED:
        return ""
    return cause_words(latest.after)


def in_use(rows: Iterable[SignOff]) -> bool:
    """Whether the night's sign-off means anything: some name of it is claimed. A table that keeps no accounts for
    its names (a walk: every name unclaimed) is not told, line after line, that nobody can confirm."""
    return any(r.account for r in rows)


def not_confirmed(rows: Iterable[SignOff]) -> dict[str, list[str]]:
    """Who has not confirmed, once each: "missing", names an account claimed (they may still confirm), and
    "unclaimed", names nobody claimed (nobody can confirm them until someone claims the name); neither when no name
    of the night is claimed (`in_use`)."""
    rows = list(rows)
    if not in_use(rows):
        return {"missing": [], "unclaimed": []}
    waiting = [r for r in rows if not r.confirmed]
    return {"missing": list(dict.fromkeys(r.name for r in waiting if r.account)),
            "unclaimed": list(dict.fromkeys(r.name for r in waiting if not r.account))}
