"""Writes of evenings and paying up: creating an evening, fixing a settlement (结算), marking transfers paid.

Each write is one transaction with an audit entry of the group. A settlement takes the group's row lock first, so two
settlements of one group never fold the same unpaid transfer in: each unpaid transfer is carried exactly once.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import settle_night_plan

from ledger import bounds, rights
from ledger.services import audit as audit_log
from ledger.models import Evening, Group, Settlement, SettlementTransfer
from ledger.services.groups import check_group_writer
from ledger.services import events as live_events
from ledger.models import AuditEntry, Night, Player
from ledger.selectors.nights import night_summary
from ledger.selectors import evenings as selectors


@transaction.atomic
def evening_create(*, by: User, group: Group, title: str, date: dt.date, venue: str = "") -> Evening:
    """Create an evening of a group (its owner or a scorekeeper): tables join it when they are created."""
    check_group_writer(group, by)
    if not title.strip():
        raise ValidationError({"title": _("活动需要一个名称")})
    title = bounds.clean_text(title, field="title", max_length=80)
    evening = Evening(group=group, title=title, date=date, venue=bounds.clean_text(venue, field="venue", max_length=80),
                      created_by=by)
    evening.full_clean()
    evening.save()
    audit_log.log(AuditEntry.Action.GROUP_CHANGED, group=group, actor=by,
                  after={"evening": {"id": evening.pk, "title": title, "date": date.isoformat(),
                                     "venue": evening.venue}})
    return evening


@transaction.atomic
def settle_evening(*, by: User, evening: Evening, include_carry: bool = False) -> Settlement:
    """Fix the transfers that settle an evening over all its tables (every table must be closed)."""
    group = Group.objects.select_for_update().get(pk=evening.group_id)
    rights.require(rights.may_settle(by, group))
    nights = list(Night.objects.filter(evening=evening).order_by("table_no", "id"))
    if not nights:
        raise ValidationError({"evening": _("这个活动还没有牌桌")})
    if any(not n.is_closed for n in nights):
        raise ValidationError({"evening": _("还有牌桌没结束：先结束所有牌桌再结算")})
    return _settle(by=by, group=group, nights=nights, evening=evening, night=None, include_carry=include_carry)


@transaction.atomic
def settle_night(*, by: User, night: Night, include_carry: bool = False) -> Settlement:
    """Fix the transfers that settle a closed night that is not a table of an evening."""
    group = Group.objects.select_for_update().get(pk=night.group_id)
    # Settling moves the group's money (with include_carry, its earlier debts): the group's writers only, never a
    # night-level grant (a night's own scorekeeper outside the group).
    rights.require(rights.may_settle(by, group))
    night = Night.objects.get(pk=night.pk)
    if night.evening_id is not None:
        raise ValidationError({"night": _("这一桌属于一个活动：在活动页面一起结算")})
    if not night.is_closed:
        raise ValidationError({"night": _("先结束牌局再结算")})
    return _settle(by=by, group=group, nights=[night], evening=None, night=night, include_carry=include_carry)


def _settle(*, by: User, group: Group, nights: list[Night], evening: Evening | None, night: Night | None,
            include_carry: bool) -> Settlement:
    if Settlement.objects.filter(evening=evening, night=night).exists():
        raise ValidationError({"settlement": _("已经结算过了")})
    nets = selectors.combined_nets([night_summary(n) for n in nights])
    carried: list[SettlementTransfer] = []
    if include_carry:
        # Under the group's lock: nobody else can carry these meanwhile.
        carried = list(selectors.outstanding(group).select_for_update())
        nets = selectors.with_carried(nets, carried)
    plan = settle_night_plan(nets)
    settlement = Settlement.objects.create(group=group, evening=evening, night=night, include_carry=include_carry,
                                           method=plan.method, created_by=by)
    SettlementTransfer.objects.bulk_create(
        SettlementTransfer(settlement=settlement, position=i, payer_id=t.payer, payee_id=t.payee, amount=t.amount)
        for i, t in enumerate(plan.transfers, start=1))
    SettlementTransfer.objects.filter(pk__in=[t.pk for t in carried]).update(carried_into=settlement)
    names = _names({t.payer for t in plan.transfers} | {t.payee for t in plan.transfers})
    audit_log.log(AuditEntry.Action.SETTLED, group=group, actor=by, after={
        "settlement": settlement.pk, "evening": evening.pk if evening else None, "night": night.pk if night else None,
        "title": evening.title if evening else night.title if night else "",
        "include_carry": include_carry, "carried": [t.pk for t in carried], "method": plan.method,
        "transfers": [f"{names[t.payer]} → {names[t.payee]} {t.amount}" for t in plan.transfers]})
    live_events.money_changed(group.pk)  # the group's evening pages: this one settled, or older debts carried
    return settlement


def _names(ids: set[int | None]) -> dict[int | None, str]:
    players: dict[int | None, str] = {pk: p.name for pk, p in Player.objects.in_bulk([i for i in ids if i]).items()}
    players[None] = _("台费")
    return players


def check_transfer_marker(transfer: SettlementTransfer, user: Any) -> None:
    """Refuse unless rights.may_mark_transfer: the rule the settle page asks before it offers 已付."""
    rights.require(rights.may_mark_transfer(user, transfer, settlement=transfer.settlement))


def _locked(transfer: SettlementTransfer) -> SettlementTransfer:
    """The transfer's row, locked after its group's (as settling takes the group and then the transfers it
    carries), so a mark and a settlement never wait for each other."""
    Group.objects.select_for_update(of=("self",)).filter(settlements__transfers=transfer.pk).get()
    locked = (SettlementTransfer.objects.select_for_update(of=("self",))
              .select_related("settlement__group", "payer", "payee").get(pk=transfer.pk))
    if locked.carried_into_id is not None:
        raise ValidationError({"transfer": _("这笔已经并入之后的结算，在那边付")})
    return locked


@transaction.atomic
def transfer_mark_paid(*, by: User, transfer: SettlementTransfer) -> SettlementTransfer:
    """Mark a transfer paid (when, and by whom); marking a paid transfer again changes nothing."""
    transfer = _locked(transfer)
    check_transfer_marker(transfer, by)
    if transfer.paid_at is not None:
        return transfer
    transfer.paid_at, transfer.paid_by = timezone.now(), by
    transfer.save(update_fields=["paid_at", "paid_by"])
    _audit_mark(transfer, by, AuditEntry.Action.TRANSFER_PAID, before={"paid_at": None},
                after={"paid_at": transfer.paid_at.isoformat(), "paid_by": by.get_username()})
    live_events.transfer_marked(transfer.settlement)
    return transfer


@transaction.atomic
def transfer_mark_unpaid(*, by: User, transfer: SettlementTransfer) -> SettlementTransfer:
    """Take back a "paid" mark (a mistake); marking an unpaid transfer unpaid changes nothing."""
    transfer = _locked(transfer)
    check_transfer_marker(transfer, by)
    if transfer.paid_at is None:
        return transfer
    before = {"paid_at": transfer.paid_at.isoformat(),
              "paid_by": transfer.paid_by.get_username() if transfer.paid_by else None}
    transfer.paid_at, transfer.paid_by = None, None
    transfer.save(update_fields=["paid_at", "paid_by"])
    _audit_mark(transfer, by, AuditEntry.Action.TRANSFER_UNPAID, before=before, after={"paid_at": None})
    live_events.transfer_marked(transfer.settlement)
    return transfer


def _audit_mark(transfer: SettlementTransfer, by: User, action: str, *, before: dict[str, Any],
                after: dict[str, Any]) -> None:
    what = {"settlement": transfer.settlement_id, "position": transfer.position,
            "transfer": f"{selectors.party_name(transfer.payer)} → {selectors.party_name(transfer.payee)} "
                        f"{transfer.amount.normalize():f}"}
    audit_log.log(action, group_id=transfer.settlement.group_id, actor=by,
                  before={**what, **before}, after={**what, **after})
