"""Words for the table fee (台费) and settlements: the fee's rule in a line, a fixed settlement's transfers."""
from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import Fee

from ledger import rights
from ledger.models import Settlement
from ledger.models import Night
from ledger.presenters.nights import money, stake_amount
from ledger.selectors import evenings as selectors


def fee_rule(fee: Fee, night: Night) -> str:
    """The fee's rule in words, in the night's stake: 每人 ¥5 / 赢家按赢的比例分 ¥30 / 每次自摸 ¥1."""
    amount = stake_amount(fee.amount, night)
    if fee.mode == "per_player":
        return _("每人 %(amount)s") % {"amount": amount}
    if fee.mode == "winners":
        return _("赢家按赢的比例分摊 %(amount)s") % {"amount": amount}
    if fee.mode == "per_win":
        if fee.wins == "self_draw":
            return _("每次自摸 %(amount)s") % {"amount": amount}
        return _("每次胡牌 %(amount)s") % {"amount": amount}
    return _("不收台费")


def amount_in(amount: Any, night: Night | None) -> str:
    return stake_amount(amount, night) if night is not None else money(amount)


def settlement_rows(settlement: Settlement, user: Any, can_write: bool, night: Night | None) -> dict[str, Any]:
    """A fixed settlement for the page: each transfer with who pays whom, whether paid (when, by whom), and whether
    this user may mark it (rights.may_mark_transfer: the rule the service itself applies)."""
    rows = []
    transfers = getattr(settlement, "transfers_list", [])
    named = selectors.account_names(settlement.group_id, {t.paid_by_id for t in transfers if t.paid_by_id})
    for t in transfers:
        rows.append({
            "position": t.position, "from": selectors.party_name(t.payer), "to": selectors.party_name(t.payee),
            "to_fee": t.payee_id is None,
            "amount": amount_in(t.amount, night), "paid": t.paid_at is not None, "paid_at": t.paid_at,
            "paid_by": named.get(t.paid_by_id) or (t.paid_by.get_username() if t.paid_by else ""),
            "carried": t.carried_into_id is not None,
            "carried_to": _carried_to(t.carried_into) if t.carried_into_id is not None else None,
            "can_mark": t.carried_into_id is None and rights.may_mark_transfer(user, t, settlement=settlement,
                                                                               group_writer=can_write),
            "claimed_late": rights.claimed_after_settling(user, t, settlement=settlement),
            "paid_url": reverse("transfer-paid", args=[settlement.pk, t.position]),
            "unpaid_url": reverse("transfer-unpaid", args=[settlement.pk, t.position])})
    return {"settlement": settlement, "rows": rows, "unpaid": sum(1 for r in rows if not r["paid"] and not r["carried"]),
            "carried": sum(1 for r in rows if r["carried"]), "has_fee": any(r["to_fee"] for r in rows),
            # The older debts it took in name other nights and players: the group's members only (not a night's own
            # members from outside the group, nor a view link).
            "carried_in": [{"from": a, "to": b, "amount": amount_in(x, night), "where": where}
                           for a, b, x, where in selectors.carried_in(settlement)]
            if rights.may_view_group(user, settlement.group) else []}


def _carried_to(later: Any) -> dict[str, str]:
    """Where a transfer carried into a later settlement is to be paid now: that settlement's page, named by its
    evening (title and date) or its night's settle page."""
    # A night's named as an evening's (a walk: "that night's settlement" said not which), in the page's language.
    what, url = ((later.evening, reverse("evening", args=[later.evening_id])) if later.evening_id is not None
                 else (later.night, reverse("night-settle", args=[later.night_id])))
    return {"url": url, "name": _("%(title)s（%(date)s）") % {"title": what.title, "date": f"{what.date:%m-%d}"}}


def carry_rows(preview: selectors.CarryPreview, night: Night | None) -> dict[str, list[dict[str, Any]]]:
    """The settle form's preview of a carry-over in words, amounts in the night's stake."""
    return {"transfers": [{"from": a, "to": b, "amount": amount_in(x, night)} for a, b, x in preview.transfers],
            "carried": [{"from": a, "to": b, "amount": amount_in(x, night), "where": where}
                        for a, b, x, where in preview.carried],
            # Not in this settlement: "·", as the evening's grid marks a table a player did not sit at.
            "people": [{"name": name, "now": money(now) if now is not None else "·", "earlier": money(earlier),
                        "total": money(total), "fee": fee} for name, now, earlier, total, fee in preview.people]}
