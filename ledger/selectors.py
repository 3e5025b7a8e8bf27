"""Reads of the ledger: seating, next dealer, totals, settlement, and hands described in words."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import MODIFIERS, PATTERNS, Transfer, format_amount, settle_night

from .models import Hand, HandRevision, Night, Payment, Player


def night_seating(night: Night) -> list[Player]:
    """The players in seats 0-3 now."""
    return [s.player for s in night.seating.select_related("player").order_by("seat")]


def night_next_dealer(night: Night) -> int:
    """The dealer of the next hand: from the last hand that counts, else the first dealer."""
    last = (HandRevision.objects.filter(hand__night=night, hand__status=Hand.Status.RECORDED, is_current=True)
            .order_by("-hand__number").values_list("result", flat=True).first())
    return int(last["next_dealer"]) if last else night.first_dealer


def night_hands(night: Night) -> list[Hand]:
    """Every hand of the night, voided ones included, with its current revision and players loaded."""
    return list(night_hands_query(night).order_by("number"))


def night_hands_query(night: Night) -> QuerySet[Hand]:
    """The night's hands with `current_list` (the current revision and its players) prefetched; filter at will."""
    current = HandRevision.objects.filter(is_current=True).select_related(
        "player_0", "player_1", "player_2", "player_3")
    return (night.hands.select_related("recorded_by")
            .prefetch_related(Prefetch("revisions", queryset=current, to_attr="current_list")))


@dataclass(frozen=True)
class Total:
    player: Player
    seat: int | None  # seat now, None for a player substituted out
    amount: Decimal


def night_totals(night: Night) -> list[Total]:
    """Each player's running total (database sums of payments that count), seated players first."""
    net = Payment.objects.filter(revision__hand__night=night).counted().net_by_player()
    seating = night_seating(night)
    seat_of = {p.pk: s for s, p in enumerate(seating)}
    others = Player.objects.filter(pk__in=set(net) - set(seat_of)).order_by("name")
    totals = [Total(p, s, net.get(p.pk, Decimal(0))) for s, p in enumerate(seating)]
    totals += [Total(p, None, net[p.pk]) for p in others]
    return totals


def night_settlement(night: Night) -> list[Transfer]:
    """The fewest transfers that settle the night (payer and payee are Player objects)."""
    totals = night_totals(night)
    return settle_night({t.player: t.amount for t in totals})


def pattern_name(code: str) -> str:
    pattern = PATTERNS[code]
    return pattern.en if _english() else pattern.zh


def modifier_name(code: str) -> str:
    modifier = MODIFIERS[code]
    return modifier.en if _english() else modifier.zh


def _english() -> bool:
    return (get_language() or "zh").startswith("en")


def describe_hand(revision: HandRevision) -> list[str]:
    """The hand in words, one line per win, kong and end-of-hand settlement.

    e.g. "张三 自摸 清一色 带1根 3番，各家付8".
    """
    names = revision.names  # as recorded with the revision
    result: dict[str, Any] = revision.result
    payments = result["payments"]
    lines = []
    for index, event in enumerate(revision.record.get("events", [])):
        paid = [p for p in payments if p["event"] == index and p["reason"] != "call_transfer"]
        if event["type"] == "kong":
            kind = {"direct": _("直杠"), "added": _("补杠"), "concealed": _("暗杠")}[event["kind"]]
            who = names[event["player"]]
            line = f"{who} {kind}"
            if event.get("tile"):
                line += f" {event['tile']}"
            line += _("，%(payers)s") % {"payers": _payers(paid, names)}
            lines.append(line)
            continue
        for win in (w for w in result["wins"] if w["event"] == index):
            how = _("自摸") if win["from"] is None else _("胡 %(name)s 的炮") % {"name": names[win["from"]]}
            parts = [names[win["player"]], how, pattern_name(win["pattern"])]
            if win["roots"]:
                parts.append(_("带%(n)d根") % {"n": win["roots"]})
            parts += [modifier_name(f) for f in win["flags"]]
            parts.append(_("%(fan)d番") % {"fan": win["fan"]})
            mine = [p for p in paid if p["to"] == win["player"]]
            lines.append(" ".join(parts) + _("，%(payers)s") % {"payers": _payers(mine, names)})
        for p in (p for p in payments if p["event"] == index and p["reason"] == "call_transfer"):
            lines.append(_("呼叫转移：%(a)s 把杠钱 %(amount)s 转给 %(b)s")
                         % {"a": names[p["from"]], "b": names[p["to"]], "amount": p["amount"]})
    end = [p for p in payments if p["event"] is None]
    labels = {"cha_jiao": _("查叫"), "hua_zhu": _("查花猪"), "kong_refund": _("退杠钱")}
    for reason in ("cha_jiao", "hua_zhu", "kong_refund"):
        for p in (p for p in end if p["reason"] == reason):
            lines.append(_("%(label)s：%(a)s 付 %(b)s %(amount)s")
                         % {"label": labels[reason], "a": names[p["from"]], "b": names[p["to"]], "amount": p["amount"]})
    if revision.record.get("exhausted") and not end:
        lines.append(_("流局，无人查叫"))
    if not lines:
        lines.append(_("无输赢"))
    return lines


def _payers(paid: list[dict[str, Any]], names: list[str]) -> str:
    amounts = {p["amount"] for p in paid}
    if len(paid) > 1 and len(amounts) == 1:
        return _("各家付%(amount)s") % {"amount": amounts.pop()}
    return "、".join(_("%(name)s付%(amount)s") % {"name": names[p["from"]], "amount": p["amount"]} for p in paid) or _("无人付")


def money(amount: Decimal | str) -> str:
    """Signed exact amount for display: +8, -19, 0."""
    value = Decimal(amount)
    text = format_amount(abs(value))
    return f"+{text}" if value > 0 else (f"-{text}" if value < 0 else "0")
