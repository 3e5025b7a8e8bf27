"""Penalties and adjustments (罚分/调整) of a night: 诈胡 (a false win: the player pays every other seat) and fixed
transfers between two seats with a reason. Writes (one transaction each, audited, live) and reads.

An adjustment is made between hands: it has its own number in the night (1, 2, 3…, gap-free, taken under the
night's row lock, apart from the hands' numbers) and remembers the last hand's number when it was made
(`after_hand`), which places it between the hands everywhere it is shown. It counts in the totals, the
settlement and the players' nets, never in wins, deal-ins or the table fee (which follows the play).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from scoring import format_amount

from ledger import bounds, rights
from ledger.services import audit as audit_log
from ledger.services import events
from ledger.services import standings
from ledger.models import Adjustment, AdjustmentSeat, AuditEntry, Hand, Night
from ledger.selectors.nights import night_seating

#: The fan of a 诈胡 when none is given and the night has no cap (封顶).
DEFAULT_ZHA_HU_FAN = 4
MAX_FAN = 20
#: The largest fixed transfer, as for table fees: money with at most 2 decimals, up to 100,000.
MAX_TRANSFER = Decimal("100000")
#: What each kind reads; anything else sent with it is an error (a typo must not be silently ignored).
FIELDS = {Adjustment.Kind.ZHA_HU: ("kind", "player", "fan", "reason"),
          Adjustment.Kind.TRANSFER: ("kind", "from", "to", "amount", "reason")}


@dataclass(frozen=True)
class AdjustmentValues:
    """A checked adjustment: who pays (`payer`), who receives (`payee`, None for 诈胡: every other seat), and the
    amount each receiving seat gets."""

    kind: str
    payer: int
    payee: int | None
    fan: int | None
    amount: Decimal
    note: str


def adjustment_nets(kind: str, payer: int, payee: int | None, amount: Decimal, *, seats: int) -> list[Decimal]:
    """Each seat's net of an adjustment at a table of `seats` players (RULES.md §9: 4, 3 or 2): 诈胡 pays `amount`
    to every other seat; a transfer pays it to `payee`. The nets sum to zero, exactly."""
    nets = [Decimal(0)] * seats
    receivers: list[int | None] = [s for s in range(seats) if s != payer] if kind == Adjustment.Kind.ZHA_HU else [payee]
    for seat in receivers:
        if seat is None:
            raise ValueError("a transfer needs its payee")
        nets[seat] += amount
        nets[payer] -= amount
    return nets


def zha_hu_amount(base: Decimal, fan: int) -> Decimal:
    """What each other seat receives from a 诈胡 at `fan`: base x 2^fan, exact."""
    return Decimal(base) * Decimal(2) ** fan


def zha_hu_default_fan(night: Night) -> int:
    """The fan of a 诈胡 recorded without one: the night's cap (max_fan), or 4 where it has none."""
    cap = night.rules.get("max_fan") if isinstance(night.rules, dict) else None
    return cap if isinstance(cap, int) and not isinstance(cap, bool) else DEFAULT_ZHA_HU_FAN


def _seat(data: Mapping[str, Any], field: str, errors: dict[str, str], seats: int) -> int | None:
    """A seat of this table (0 … seats − 1: a smaller table has no seat 3, RULES.md §9)."""
    value = data.get(field)
    if value is None:
        errors[field] = _("请选择座位")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        errors[field] = _("本桌 %(players)d 人：座位应为 0–%(n)d") % {"players": seats, "n": seats - 1}
        return None
    return int(value)


def _amount(value: Any, errors: dict[str, str]) -> Decimal | None:
    if value is None or value == "":
        errors["amount"] = _("请填写金额")
        return None
    try:
        amount = Decimal(value) if isinstance(value, (str, int, Decimal)) and not isinstance(value, bool) else None
    except InvalidOperation:
        amount = None
    if amount is None or not amount.is_finite():
        errors["amount"] = _("金额应是一个数，如 5 或 2.5")
        return None
    if amount <= 0:
        errors["amount"] = _("金额必须大于 0")
    elif amount > MAX_TRANSFER:  # before the decimals: quantizing a huge number would raise
        errors["amount"] = _("金额最多 %(n)s") % {"n": format_amount(MAX_TRANSFER)}
    elif amount != amount.quantize(Decimal("0.01")):
        errors["amount"] = _("金额最多两位小数")
    else:
        return amount
    return None


def adjustment_values(night: Night, data: Mapping[str, Any]) -> AdjustmentValues:
    """Check what was entered for an adjustment (the API's field names: kind, player, fan; from, to, amount,
    reason); every problem is a ValidationError naming its field, nothing is written."""
    kind = data.get("kind")
    if kind not in FIELDS:
        raise ValidationError({"kind": _("类型应为 zha_hu（诈胡）或 transfer（转账）")})
    errors: dict[str, str] = {}
    for name in sorted(set(k for k, v in data.items() if v is not None) - set(FIELDS[Adjustment.Kind(kind)])):
        errors[name] = _("%(kind)s不用填这一项") % {"kind": Adjustment.Kind(kind).label}
    reason = data.get("reason") or ""
    if not isinstance(reason, str) or len(reason) > 200:
        errors["reason"] = _("原因最多 200 个字")
        reason = ""
    reason = reason.strip()
    seats = night.seat_count
    if kind == Adjustment.Kind.ZHA_HU:
        payer = _seat(data, "player", errors, seats)
        fan = data.get("fan")
        if fan is None:
            fan = zha_hu_default_fan(night)
        if isinstance(fan, bool) or not isinstance(fan, int) or not 0 <= fan <= MAX_FAN:
            errors["fan"] = _("番数应为 0–%(n)d") % {"n": MAX_FAN}
            fan = None
        amount = zha_hu_amount(night.base, fan) if fan is not None else None
        if amount is not None and amount * (seats - 1) >= bounds.AMOUNT_LIMIT:
            errors["fan"] = _("金额太大，无法记账：请用小一些的番数")
        if errors:
            raise ValidationError(errors)
        assert payer is not None and amount is not None
        return AdjustmentValues(kind, payer, None, fan, amount.normalize(), reason)
    payer = _seat(data, "from", errors, seats)
    payee = _seat(data, "to", errors, seats)
    if payer is not None and payer == payee:
        errors["to"] = _("不能付给自己：收款人应是另一个座位")
    amount = _amount(data.get("amount"), errors)
    if not reason:
        errors["reason"] = _("转账需要写明原因（如 迟到）")
    if errors:
        raise ValidationError(errors)
    assert payer is not None and payee is not None and amount is not None
    return AdjustmentValues(kind, payer, payee, None, amount.normalize(), reason)


def snapshot(adjustment: Adjustment) -> dict[str, Any]:
    """An adjustment's values for its audit entries (names as recorded, amounts as exact strings)."""
    nets = adjustment_nets_of(adjustment)
    return {"adjustment": adjustment.number, "version": adjustment.version, "kind": adjustment.kind,
            "players": list(adjustment.player_names), "payer": adjustment.payer_seat,
            "payee": adjustment.payee_seat, "fan": adjustment.fan, "amount": format_amount(adjustment.amount),
            "note": adjustment.note, "net": [format_amount(n) for n in nets]}


def _check_open(night: Night) -> None:
    if night.is_closed:
        raise ValidationError({"night": _("这一场已经结束，不能再修改")})


def _seat_rows(adjustment: Adjustment, players: list[int]) -> list[AdjustmentSeat]:
    nets = adjustment_nets_of(adjustment)
    return [AdjustmentSeat(adjustment=adjustment, seat=s, player_id=pk, net=nets[s]) for s, pk in enumerate(players)]


def _apply(adjustment: Adjustment, values: AdjustmentValues) -> None:
    adjustment.kind, adjustment.payer_seat, adjustment.payee_seat = values.kind, values.payer, values.payee
    adjustment.fan, adjustment.amount, adjustment.note = values.fan, values.amount, values.note


@transaction.atomic
def adjustment_record(*, night: Night, by: User, data: Mapping[str, Any]) -> Adjustment:
    """Record a 诈胡 or a transfer between the seats as they are now; nothing is written on error."""
    # The night's row lock (a plain one), then the numbers read inside it: gap-free, as the hands'.
    night = Night.objects.select_for_update().get(pk=night.pk)
    rights.require(rights.may_write_night(by, night))
    _check_open(night)
    values = adjustment_values(night, data)
    number = (night.adjustments.aggregate(top=Max("number"))["top"] or 0) + 1
    after_hand = night.hands.aggregate(top=Max("number"))["top"] or 0
    players = night_seating(night)
    adjustment = Adjustment(night=night, number=number, after_hand=after_hand, recorded_by=by,
                            player_names=[p.name for p in players])
    _apply(adjustment, values)
    adjustment.save()
    AdjustmentSeat.objects.bulk_create(_seat_rows(adjustment, [p.pk for p in players]))
    standings.refresh([night.pk])
    audit_log.log(AuditEntry.Action.ADJUSTMENT_RECORDED, night=night, adjustment=adjustment, actor=by,
                  after=snapshot(adjustment))
    events.adjustment_changed(adjustment, events.ADJUSTMENT_RECORDED)
    return adjustment


def _locked(adjustment: Adjustment) -> Adjustment:
    Night.objects.select_for_update().only("pk").get(pk=adjustment.night_id)  # the night's lock first, as everywhere
    locked = Adjustment.objects.select_for_update().select_related("night").get(pk=adjustment.pk)
    _check_open(locked.night)
    return locked


@transaction.atomic
def adjustment_correct(*, adjustment: Adjustment, by: User, data: Mapping[str, Any], reason: str) -> Adjustment:
    """Change an adjustment's values (same players, same place in the night); the audit entry keeps the old ones."""
    adjustment = _locked(adjustment)
    rights.require(rights.may_write_night(by, adjustment.night))
    if not reason.strip():
        raise ValidationError({"reason": _("更正需要写明原因")})
    if adjustment.status == Hand.Status.VOIDED:
        raise ValidationError({"adjustment": _("已作废的罚分/调整不能更正")})
    try:
        values = adjustment_values(adjustment.night, data)
    except ValidationError as exc:  # the new values are under "adjustment" in a correction's body
        raise ValidationError({f"adjustment.{k}": v for k, v in exc.message_dict.items()}) from exc
    before = snapshot(adjustment)
    players = list(adjustment.seats.order_by("seat").values_list("player_id", flat=True))
    _apply(adjustment, values)
    adjustment.version += 1
    adjustment.save()
    adjustment.seats.all().delete()  # derived from the values, written again below
    AdjustmentSeat.objects.bulk_create(_seat_rows(adjustment, players))
    standings.refresh([adjustment.night_id])
    audit_log.log(AuditEntry.Action.ADJUSTMENT_CORRECTED, night=adjustment.night, adjustment=adjustment, actor=by,
                  reason=reason, before=before, after=snapshot(adjustment))
    events.adjustment_changed(adjustment, events.ADJUSTMENT_CORRECTED)
    return adjustment


@transaction.atomic
def adjustment_void(*, adjustment: Adjustment, by: User, reason: str) -> Adjustment:
    """Void an adjustment: it stays listed (struck through), out of the totals."""
    adjustment = _locked(adjustment)
    rights.require(rights.may_write_night(by, adjustment.night))
    if not reason.strip():
        raise ValidationError({"reason": _("作废需要写明原因")})
    if adjustment.status == Hand.Status.VOIDED:
        raise ValidationError({"adjustment": _("这一项已经作废")})
    adjustment.status, adjustment.void_reason = Hand.Status.VOIDED, reason
    adjustment.save(update_fields=["status", "void_reason"])
    standings.refresh([adjustment.night_id])
    audit_log.log(AuditEntry.Action.ADJUSTMENT_VOIDED, night=adjustment.night, adjustment=adjustment, actor=by,
                  reason=reason, before={"status": Hand.Status.RECORDED}, after={"status": Hand.Status.VOIDED})
    events.adjustment_changed(adjustment, events.ADJUSTMENT_VOIDED)
    return adjustment


def night_adjustments(night: Night) -> QuerySet[Adjustment]:
    """The night's adjustments in the night's order (by the hand they follow, then number), voided ones included."""
    return night.adjustments.select_related("recorded_by").order_by("after_hand", "number")


def adjustment_nets_of(adjustment: Adjustment) -> list[Decimal]:
    """Each seat's net of an adjustment as it stands, one per seat of its table (zero for a voided one is the
    caller's choice). A seat outside the table, which only an older version let through (migration 0021 voided
    those), neither pays nor receives here, so the row can still be shown."""
    seats = len(adjustment.player_names)
    wide = max(seats, adjustment.payer_seat + 1, (adjustment.payee_seat or 0) + 1)
    return adjustment_nets(adjustment.kind, adjustment.payer_seat, adjustment.payee_seat, adjustment.amount,
                           seats=wide)[:seats]
