"""Every write of the ledger: typed, keyword-only, one transaction each, always with an audit entry."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Iterable, Mapping

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connections, router, transaction
from django.db.models import IntegerField, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import HandResult, ScoringError, parse_fee, score_hand
from scoring import preview as shared_preview

from ledger import bounds, rights
from ledger.services import audit as audit_log
from ledger.services import events
from ledger.services.confirmations import confirmations_clear
from ledger.services import standings
from ledger.models import Evening, FeeShare, Group, Settlement
from ledger.services.groups import personal_group, player_get_or_create
from ledger.selectors.house_rules import night_rules
from ledger.models import (SEATS, AuditEntry, Hand, HandRevision, Night, Player, Seating, SeatResult, WinResult,
                     seat_results, win_results)
from ledger.selectors.nights import night_fee_shares, night_nets, night_next_dealer

#: The fields of a hand record that the table enters; base, rules and dealer come from the night.
ENTRY_FIELDS = shared_preview.ENTRY_FIELDS


@transaction.atomic
def night_create(*, owner: User, title: str, date: dt.date, base: Decimal, players: list[Player],
                 first_dealer: int, venue: str = "", stake: str = Night.Stake.MONEY, currency: str = "CNY",
                 preset: str = "chengdu", rule_overrides: Mapping[str, Any] | None = None,
                 members: Iterable[User] = (), scorekeepers: Iterable[User] = (), evening: Evening | None = None,
                 table_no: int | None = None, fee: Mapping[str, Any] | None = None) -> Night:
    """Create a night with its seated players (as many as its rules' `players`: 4, 3 or 2) of one group (the
    night's group) and its rules, table shape included, frozen."""
    rules = night_rules(preset=preset, overrides=rule_overrides)
    seats = rules["players"]
    if len(players) != seats or len({p.pk for p in players}) != seats:
        raise ValidationError({"players": _("这一桌是 %(n)d 人桌：需要 %(n)d 位不同的玩家") % {"n": seats}})
    groups = {p.group_id for p in players}
    if len(groups) != 1:
        raise ValidationError({"players": _("这一桌的玩家需要在同一个圈子里")})
    group = Group.objects.get(pk=groups.pop())
    fee_doc = parse_fee(fee).as_dict()  # ScoringError (paths fee.mode, fee.amount, ...) before anything is written
    table_no = _table_of(evening=evening, group=group, date=date, table_no=table_no, stake=stake,
                         currency=currency if stake == Night.Stake.MONEY else "")
    if first_dealer not in SEATS[:seats]:
        raise ValidationError({"first_dealer": _("庄家座位应为 0–%(last)d") % {"last": seats - 1}})
    if base <= 0:
        raise ValidationError({"base": _("底金必须大于 0")})
    bounds.check_base(base)
    title = bounds.clean_text(title, field="title", max_length=80, blank=False)
    venue = bounds.clean_text(venue, field="venue", max_length=80)
    night = Night(owner=owner, group=group, evening=evening, table_no=table_no, fee=fee_doc,
                  title=title, date=date, venue=venue, base=base, stake=stake,
                  currency=currency if stake == Night.Stake.MONEY else "", preset=preset, rules=rules,
                  first_dealer=first_dealer)
    night.full_clean()
    night.save()
    night.members.set(members)
    night.scorekeepers.set(scorekeepers)
    Seating.objects.bulk_create(Seating(night=night, seat=s, player=p) for s, p in enumerate(players))
    standings.seat(night.pk, [p.pk for p in players])
    audit_log.log(AuditEntry.Action.NIGHT_CREATED, night=night, actor=owner,
                  after={"players": [p.name for p in players], "rules": rules, "base": str(base),
                         "fee": fee_doc, "evening": evening.pk if evening else None, "table_no": table_no})
    events.table_added(night)
    return night


def same_unit(evening: Evening, *, stake: str, currency: str) -> bool:
    """Whether a table with this stake and currency may join the evening: one settlement adds the tables' nets,
    so they must all be money in one currency, or all points."""
    return not Night.objects.filter(evening=evening).exclude(stake=stake, currency=currency).exists()


def _table_of(*, evening: Evening | None, group: Group, date: dt.date, table_no: int | None, stake: str,
              currency: str) -> int | None:
    """The night's table number in its evening (the next free one unless given), checked under the evening's row
    lock: unique within the evening, in the evening's unit, and no table joins an evening once it is settled."""
    if evening is None:
        if table_no is not None:
            raise ValidationError({"table_no": _("桌号只用于活动里的牌局")})
        return None
    if evening.group_id != group.pk:
        raise ValidationError({"evening": _("这个活动属于另一个圈子")})
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if Settlement.objects.filter(evening=evening).exists():
        raise ValidationError({"evening": _("这个活动已经结算，不能再加牌桌")})
    if evening.date != date:
        raise ValidationError({"evening": _("这个活动在 %(date)s，和牌局的日期不同") % {"date": evening.date.isoformat()}})
    if not same_unit(evening, stake=stake, currency=currency):
        raise ValidationError({"stake": _("这个活动的其他牌桌用另一种计分方式或币种：同一个活动要一起结算，必须相同")})
    taken = set(Night.objects.filter(evening=evening).values_list("table_no", flat=True))
    if table_no is None:
        return max((n for n in taken if n), default=0) + 1
    if not 1 <= table_no <= 99:
        raise ValidationError({"table_no": _("桌号应为 1–99")})
    if table_no in taken:
        raise ValidationError({"table_no": _("这个活动已经有 %(n)d 号桌") % {"n": table_no}})
    return table_no


def _check_open(night: Night) -> None:
    if night.is_closed:
        raise ValidationError({"night": _("这一场已经结束，不能再修改")})


_check_entry = shared_preview.check_entry


def night_base(night: Night) -> str:
    """The night's stake as the hand record writes it (the engine in the phone is given the same string)."""
    return format(night.base.normalize(), "f")


def hand_document(*, night: Night, entry: Mapping[str, Any], dealer: int) -> dict[str, Any]:
    """The full hand record for an entry at this night's table: its base, frozen rules and the dealer."""
    return shared_preview.hand_document(entry, base=night_base(night), rules=night.rules, dealer=dealer)


def hand_preview(*, night: Night, entry: Mapping[str, Any], dealer: int | None = None,
                 lang: str = "zh") -> tuple[int, dict[str, Any]]:
    """Score an entry at this night's table without storing anything: the status and body of the preview API.

    The document is scoring.preview's, the very function the table page runs in the phone while offline.
    """
    return shared_preview.preview_document(entry, base=night_base(night), rules=night.rules,
                                           dealer=night_next_dealer(night) if dealer is None else dealer, lang=lang)


def _revision_rows(*, hand: Hand, version: int, by: User, players: list[Player], doc: dict[str, Any],
                   result: HandResult, reason: str,
                   names: list[str] | None = None
                   ) -> tuple[HandRevision, list[SeatResult], list[WinResult]]:
    """A scored revision (its payments in its result) with its seat results and wins, unsaved (the caller checked
    the payments' bounds, and stores them with `_write_revision`).

    `players` are the table's seats (4, 3 or 2): the columns of seats the table lacks stay empty.
    """
    seated: list[Player | None] = [*players, *[None] * (len(SEATS) - len(players))]
    revision = HandRevision(
        hand=hand, version=version, dealer=doc["dealer"], player_0=seated[0], player_1=seated[1],
        player_2=seated[2], player_3=seated[3], record=doc, result=result.as_dict(), created_by=by, reason=reason,
        player_names=names if names is not None else [p.name for p in players])
    return revision, seat_results(revision.result, players), win_results(revision.result, players)


def _write_revision(revision: HandRevision, seats: list[SeatResult], wins: list[WinResult]) -> None:
    """Save a revision (its hand saved already), then its seat results and wins: one INSERT each. Its payments are
    its result's (who paid whom, in seats): every page, report and check reads them there."""
    revision.save()
    for rows in (seats, wins):
        for row in rows:
            row.revision = revision
    SeatResult.objects.bulk_create(seats)
    WinResult.objects.bulk_create(wins)


def _snapshot(revision: HandRevision) -> dict[str, Any]:
    return {"version": revision.version, "players": revision.names, "record": revision.record,
            "result": revision.result}


def _record_numbers(night_id: int) -> dict[str, Subquery]:
    """The night's last hand number and the next dealer its last counted hand gave, as subqueries that the read of
    its seats (standings.seated_lines) takes along: one statement, after the night's row lock is held.

    A statement of its own after the lock, not part of the locking one: under READ COMMITTED each statement sees
    what was committed when it began, so a writer that waited for the lock sees the hand of the writer it waited
    for (a subquery of the locking statement would see the snapshot taken before the wait, and the same number).
    """
    counted = HandRevision.objects.filter(hand__night=night_id, hand__status=Hand.Status.RECORDED,
                                          is_current=True).order_by("-hand__number")
    return {"top_number": Subquery(Hand.objects.filter(night=night_id).order_by("-number").values("number")[:1]),
            "last_next_dealer": Subquery(counted.values(next_dealer=Cast(KT("result__next_dealer"),
                                                                         IntegerField()))[:1])}


def hand_record(*, night: Night | int, by: User, entry: Mapping[str, Any], dealer: int | None = None) -> Hand:
    """Score and store the next hand of a night (or of the night with this id) with its current seating; nothing is
    written on error.

    The night's row is read and locked first (`select_for_update`, as it is now) among the nights `by` may write to
    (rights.writable_nights: a caller refused finds no row and holds no lock; rights.refuse_night answers 403 or 404).
    Then one statement reads the seats with their players' standings (`standings.seated_lines`) and the last hand
    number and next dealer (`_record_numbers`), so parallel writers on one night take numbers one after another. The
    seated players' standings take the hand's seat results (one upsert: `standings.add_recorded`). The dealer is the
    night's next dealer unless `dealer` overrides it, which the audit entry records. The rows are written with
    `save()` and `bulk_create()` (`_write_revision`), one INSERT per table, and the audit entry with them.

    Inside a caller's transaction (an API write) it adds no savepoint, which would cost two round trips per hand:
    everything that can refuse the hand (the rights, a closed night, an unknown field, the engine's errors, the
    bounds) is checked before the first write, so a refusal leaves the caller's transaction as it was, and an error
    while writing marks the whole transaction for rollback.
    """
    alias = router.db_for_write(Night)
    if not connections[alias].in_atomic_block:
        with transaction.atomic(using=alias):
            return hand_record(night=night, by=by, entry=entry, dealer=dealer)
    pk = night if isinstance(night, int) else night.pk
    locked = rights.writable_nights(by).select_for_update().filter(pk=pk).first()
    if locked is None:
        rights.refuse_night(by, pk)
    night = locked
    seated, state = standings.seated_lines(night.pk, night.group_id, also=_record_numbers(night.pk))
    _check_open(night)
    _check_entry(entry)
    last_next_dealer: int | None = state["last_next_dealer"]
    computed = night.first_dealer if last_next_dealer is None else last_next_dealer
    doc = hand_document(night=night, entry=entry, dealer=computed if dealer is None else dealer)
    result = score_hand(doc)
    bounds.check_payments(result.payments)
    top_number: int | None = state["top_number"]
    players = [s.player for s in seated]
    hand = Hand(night=night, number=(top_number or 0) + 1, recorded_by=by)
    revision, seats, wins = _revision_rows(hand=hand, version=1, by=by, players=players, doc=doc, result=result,
                                           reason="")
    after = _snapshot(revision)
    if doc["dealer"] != computed:
        # The table may know better (a re-roll, a house custom); the audit trail says so explicitly.
        after["dealer_override"] = {"computed": computed, "given": doc["dealer"]}
    with transaction.atomic(using=alias, savepoint=False):
        hand.save()
        _write_revision(revision, seats, wins)
        standings.add_recorded(night.pk, seated, seats)
        audit_log.log(AuditEntry.Action.HAND_RECORDED, night=night, hand=hand, actor=by, after=after)
    hand.current_list = [revision]  # type: ignore[attr-defined]  # as selectors.night_hands: no re-read
    events.hand_recorded(hand, next_dealer=result.next_dealer)
    return hand


@transaction.atomic
def hand_correct(*, hand: Hand, by: User, entry: Mapping[str, Any], reason: str,
                 dealer: int | None = None) -> Hand:
    """Re-score a hand from a corrected entry; the old revision is kept (no longer current)."""
    Night.objects.select_for_update().only("pk").get(pk=hand.night_id)  # the night's lock first, as everywhere
    hand = Hand.objects.select_for_update().select_related("night").get(pk=hand.pk)
    rights.require(rights.may_write_night(by, hand.night))
    _check_open(hand.night)
    if not reason.strip():
        raise ValidationError({"reason": _("更正需要写明原因")})
    if hand.status == Hand.Status.VOIDED:
        raise ValidationError({"hand": _("已作废的局不能更正")})
    _check_entry(entry)
    old = hand.current
    doc = hand_document(night=hand.night, entry=entry, dealer=old.dealer if dealer is None else dealer)
    result = score_hand(doc)
    bounds.check_payments(result.payments)
    old.is_current = False
    old.save(update_fields=["is_current"])
    revision, seats, wins = _revision_rows(hand=hand, version=old.version + 1, by=by, players=old.players,
                                           doc=doc, result=result, reason=reason, names=old.names)
    _write_revision(revision, seats, wins)
    standings.add_hand(hand.night_id, seats, taken=old.seat_results.all())
    audit_log.log(AuditEntry.Action.HAND_CORRECTED, night=hand.night, hand=hand, actor=by, reason=reason,
                  before=_snapshot(old), after=_snapshot(revision))
    events.hand_corrected(hand)
    return hand


@transaction.atomic
def hand_void(*, hand: Hand, by: User, reason: str) -> Hand:
    """Mark a hand void: it stays listed, out of the totals."""
    Night.objects.select_for_update().only("pk").get(pk=hand.night_id)  # the night's lock first, as everywhere
    hand = Hand.objects.select_for_update().select_related("night").get(pk=hand.pk)
    rights.require(rights.may_write_night(by, hand.night))
    _check_open(hand.night)
    if not reason.strip():
        raise ValidationError({"reason": _("作废需要写明原因")})
    if hand.status == Hand.Status.VOIDED:
        raise ValidationError({"hand": _("这一局已经作废")})
    hand.status, hand.void_reason = Hand.Status.VOIDED, reason
    hand.save(update_fields=["status", "void_reason"])
    standings.add_hand(hand.night_id, [], taken=SeatResult.objects.filter(revision__hand=hand, revision__is_current=True))
    audit_log.log(AuditEntry.Action.HAND_VOIDED, night=hand.night, hand=hand, actor=by, reason=reason,
                  before={"status": Hand.Status.RECORDED}, after={"status": Hand.Status.VOIDED})
    events.hand_voided(hand)
    return hand


@transaction.atomic
def seat_change(*, night: Night, by: User, seat: int, player: Player) -> Night:
    """Put another player in a seat from the next hand on (换人), under the night's row lock."""
    night = Night.objects.select_for_update().get(pk=night.pk)
    rights.require(rights.may_write_night(by, night))
    if seat not in night.seats:
        raise ValidationError({"seat": _("座位应为 0–%(last)d") % {"last": night.seat_count - 1}})
    _check_open(night)
    seating = Seating.objects.select_for_update().select_related("player").get(night=night, seat=seat)
    if seating.player_id == player.pk:
        return night
    if player.group_id != night.group_id or player.merged_into_id is not None:
        raise ValidationError({"player": _("这位玩家不在这个圈子里")})
    if Seating.objects.filter(night=night, player=player).exclude(seat=seat).exists():
        raise ValidationError({"player": _("这位玩家已经在别的座位上")})
    before = seating.player.name
    seating.player = player
    seating.save(update_fields=["player"])
    standings.seat(night.pk, [player.pk])
    audit_log.log(AuditEntry.Action.SEAT_CHANGED, night=night, actor=by,
                  before={"seat": seat, "player": before}, after={"seat": seat, "player": player.name})
    events.seat_changed(night, seat)
    return night


@transaction.atomic
def night_close(*, night: Night, by: User) -> Night:
    """Close a night: no more hands or corrections.  Idempotent: closing a closed night changes nothing.

    The night's row is locked first and ``closed_at`` is taken inside the lock, so parallel closes
    write one audit entry and the time is that of the close that counted.
    """
    night = Night.objects.select_for_update().get(pk=night.pk)
    rights.require(rights.may_write_night(by, night))
    if night.is_closed:
        return night
    night.is_closed, night.closed_at = True, timezone.now()
    night.save(update_fields=["is_closed", "closed_at"])
    # What each player paid towards the table fee, fixed with the close (history and leaderboards sum these).
    shares = night_fee_shares(night, night_nets(night))
    FeeShare.objects.bulk_create(FeeShare(night=night, player_id=pk, amount=amount) for pk, amount in shares.items())
    standings.refresh([night.pk])
    audit_log.log(AuditEntry.Action.NIGHT_CLOSED, night=night, actor=by,
                  after={"closed_at": night.closed_at.isoformat(), **_fee_audit(shares)})
    events.night_closed(night)
    return night


def reopen_refusal(night: Night) -> str | None:
    """Why a closed night may not be opened again, or None: once its money is settled (on its own or with its
    evening), the transfers stand on its totals, so it stays closed."""
    if not night.is_closed:
        return _("这一场还没结束")
    if Settlement.objects.filter(night=night).exists() or (
            night.evening_id is not None and Settlement.objects.filter(evening_id=night.evening_id).exists()):
        return _("这一场已经结算，不能再打开")
    return None


@transaction.atomic
def night_reopen(*, night: Night, by: User) -> Night:
    """Open a closed night again (结束牌局 tapped too early: a walk found no way back), while nothing is settled on
    it. What the close fixed goes: the fee shares (fixed again at the next close) and the players' confirmations
    (given on totals that may now change; cleared with their own audit entry). Reopening an open night changes
    nothing."""
    night = Night.objects.select_for_update().get(pk=night.pk)
    rights.require(rights.may_write_night(by, night))
    if not night.is_closed:
        return night
    # A settlement fixes its transfers under the group's row (services.evenings): taken here too, after the night's
    # (the order every write under a night's lock takes, its audit bumping the group), so a settlement made meanwhile
    # is seen below and one made after sees the night open again.
    Group.objects.select_for_update().only("pk").get(pk=night.group_id)
    refusal = reopen_refusal(night)
    if refusal:
        raise ValidationError({"night": refusal})
    shares = dict(FeeShare.objects.filter(night=night).values_list("player_id", "amount"))
    before = {"closed_at": night.closed_at.isoformat() if night.closed_at else None, **_fee_audit(shares)}
    confirmations_clear(night=night, by=by, cause={"cause": "reopened"})
    FeeShare.objects.filter(night=night).delete()
    night.is_closed, night.closed_at = False, None
    night.save(update_fields=["is_closed", "closed_at"])
    standings.refresh([night.pk])
    audit_log.log(AuditEntry.Action.NIGHT_REOPENED, night=night, actor=by, before=before, after={})
    events.night_reopened(night)
    return night


def delete_refusal(night: Night) -> str | None:
    """Why a night may not be deleted, or None: only a night made by mistake, with nothing recorded on it (no hand,
    even voided, no penalty or adjustment, no settlement), goes; anything else is kept and voided where wrong."""
    if night.hands.exists() or night.adjustments.exists():
        if night.hands.filter(status=Hand.Status.RECORDED).exists() \
                or night.adjustments.filter(status=Hand.Status.RECORDED).exists():
            return _("这一场已经记了局或罚分/调整，不能删除：记错的局可以作废")
        # Everything on it voided (a walk: one hand saved and undone): it looks empty, but the voided stay on record.
        return _("这一场记过局或罚分/调整（都已作废）：作废的也留在记录里，所以不能删除")
    if Settlement.objects.filter(night=night).exists():
        return _("这一场已经结算，不能删除")
    return None


@transaction.atomic
def night_delete(*, night: Night, by: User) -> None:
    """Delete a night made by mistake (a walk started one twice; the empty copy stayed on the group page and asked
    to be signed off). Only the night's manager, only with nothing recorded on it (delete_refusal). Its own audit
    entries (made, members) go with it; the group's trail keeps one entry saying what was deleted and by whom."""
    night = Night.objects.select_for_update().get(pk=night.pk)
    rights.require(rights.may_manage_night(by, night))
    group = Group.objects.select_for_update().get(pk=night.group_id)  # as a settlement would (reopen: the order)
    refusal = delete_refusal(night)
    if refusal:
        raise ValidationError({"night": refusal})
    gone = {"title": night.title, "date": night.date.isoformat(),
            "players": list(night.seating.order_by("seat").values_list("player__name", flat=True)),
            "evening": night.evening_id, "table_no": night.table_no}
    audit_log.forget_night(night)
    FeeShare.objects.filter(night=night).delete()
    night.delete()  # its seats, links, members, confirmations and standings with it (CASCADE)
    audit_log.log(AuditEntry.Action.NIGHT_DELETED, group=group, actor=by, before=gone)


def evening_close_tables(*, evening: Evening, by: User) -> list[Night]:
    """Close every open table of an evening, all or none.

    Locks, in this order: the evening's row (as a table joining the evening takes it), then every open night of
    the evening by id, and only then the closes, each of which bumps the group's generation. A hand saved meanwhile
    holds its night and then the group's row: were the nights locked one close at a time, this close would hold
    the group (from the first close) while waiting for that hand's night, and the hand would wait for the group.
    """
    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)
        nights = list(Night.objects.select_for_update().filter(evening=evening, is_closed=False).order_by("pk"))
        return [night_close(night=night, by=by) for night in nights]


def _fee_audit(shares: Mapping[int, Decimal]) -> dict[str, Any]:
    """The fee shares of a closed night for its audit entry, by player name."""
    if not shares:
        return {}
    names = Player.objects.in_bulk(list(shares))
    return {"fee_shares": {names[pk].name: str(amount) for pk, amount in shares.items()}}


__all__ = ["ScoringError", "evening_close_tables", "hand_correct", "hand_preview", "hand_record", "hand_void", "night_close", "night_create", "night_delete", "night_reopen",
           "night_rules", "personal_group", "player_get_or_create", "delete_refusal", "reopen_refusal", "seat_change"]
