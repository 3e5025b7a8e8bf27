"""Pages of evenings and paying up: create an evening, its one-screen page (tables, nets, settlement), 结算, paid."""
from __future__ import annotations

from typing import Any, Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from ledger import rights
from ledger.web import params
from ledger.services import nights as ledger_services
from ledger.models import Evening, Group, Settlement, SettlementTransfer
from ledger.models import Night, night_day
from ledger.presenters.nights import money
from ledger.web.users import signed_in
from ledger.selectors import evenings as selectors
from ledger.services import evenings as services
from ledger.presenters.evenings import amount_in, carry_rows, settlement_rows
from ledger.reports.text import evening_summary


#: A new evening's default title, by the day of the week (Monday first).
WEEKDAY_TITLES = [_lazy("周一麻将局"), _lazy("周二麻将局"), _lazy("周三麻将局"), _lazy("周四麻将局"), _lazy("周五麻将局"),
                  _lazy("周六麻将局"), _lazy("周日麻将局")]


class EveningForm(forms.Form):
    group = forms.ModelChoiceField(label=_lazy("圈子"), queryset=Group.objects.none(), empty_label=None)
    title = forms.CharField(label=_lazy("名称"), max_length=80)
    date = forms.DateField(label=_lazy("日期"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_lazy("地点"), max_length=80, required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["group"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = selectors.writable_groups(user)
        today = night_day()
        self.fields["date"].initial = today
        self.fields["title"].initial = WEEKDAY_TITLES[today.weekday()]  # as a new night's: 周日麻将局 on a Sunday


class SettleForm(forms.Form):
    include_carry = forms.BooleanField(label=_lazy("把之前没付的一起结"), required=False)


@login_required
def evening_create(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    group = params.row_id(request.GET.get("group"))
    initial = {"group": group} if group is not None else {}
    form = EveningForm(request.POST or None, user=user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            evening = services.evening_create(by=user, group=data["group"], title=data["title"], date=data["date"],
                                              venue=data["venue"])
        except ValidationError as exc:
            for field, errors in (exc.message_dict.items() if hasattr(exc, "error_dict") else [(None, exc.messages)]):
                form.add_error(field if field in form.fields else None, errors)
        else:
            return redirect("evening", pk=evening.pk)
    return render(request, "evenings/evening_form.html", {"form": form})


def _evening(request: HttpRequest, pk: int) -> Evening:
    return get_object_or_404(rights.visible_evenings(request.user).select_related("group"), pk=pk)


@login_required
def evening_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One screen on a phone: the tables (players x tables), combined nets, the combined settlement, 结算, paid.

    Someone who may see a table of the evening but not its group (a night's member from outside the circle: the
    table's head links here) gets the tables they may see and a word on why the rest is not shown, not a 404."""
    user = signed_in(request)
    evening = rights.visible_evenings(user).select_related("group").filter(pk=pk).first()
    if evening is None:
        tables = list(rights.visible_nights(user).filter(evening_id=pk).select_related("evening").order_by("table_no"))
        if not tables or tables[0].evening is None:
            raise Http404
        return render(request, "evenings/evening_guest.html", {"evening": tables[0].evening, "tables": tables})
    view = selectors.evening_view(evening)
    can_write = rights.may_write_group(user, evening.group)
    first = view.tables[0].night if view.tables else None
    return render(request, "evenings/evening.html", {
        "evening": evening, "view": view, "can_write": can_write,
        "matrix": _matrix(view), "fee": money(view.fee) if view.fee else "",
        "transfers": _computed(view, first) if view.settlement is None else [],
        "fixed": settlement_rows(view.settlement, user, can_write, first) if view.settlement else None,
        "settle_form": SettleForm(), "outstanding": (outstanding := selectors.outstanding(evening.group).count()),
        "carry": (carry_rows(selectors.carry_preview(evening.group,
                                                     selectors.combined_nets([t.summary for t in view.tables])), first)
                  if outstanding and can_write and view.settlement is None and view.tables and not view.open_tables
                  else None),
        "not_confirmed": _not_confirmed(view) if can_write and view.settlement is None and not view.open_tables else {},
        "summary": evening_summary(view), "next": request.get_full_path(),
        "live": {"socket": f"/ws/evenings/{evening.pk}/"}})


def _not_confirmed(view: selectors.EveningView) -> dict[str, list[str]]:
    """The players of the evening's (closed) tables who have not confirmed their table (签字确认), once each, those
    whose name an account claimed apart from those nobody claimed: the settle form says so (settling is still
    allowed)."""
    from ledger.services.confirmations import night_signoffs, not_confirmed
    return not_confirmed([s for t in view.tables for s in night_signoffs(t.night)])


def _matrix(view: selectors.EveningView) -> list[dict[str, Any]]:
    """Each player's row: their net at each table (blank where they did not sit) and over the evening."""
    rows: list[dict[str, Any]] = []
    for player in view.players:
        cells = []
        for table in view.tables:
            amount = view.cell(player, table)
            cells.append({"amount": money(amount) if amount is not None else "", "sign": _sign(amount)})
        total = view.nets[player.pk]
        rows.append({"name": player.name, "cells": cells, "total": money(total), "sign": _sign(total), "fee": False})
    if view.fee:
        cells = [{"amount": money(t.summary.fee) if t.summary.fee else "", "sign": ""} for t in view.tables]
        rows.append({"name": _("台费"), "cells": cells, "total": money(view.fee), "sign": "", "fee": True})
    return rows


def _sign(amount: Any) -> str:
    if amount is None or amount == 0:
        return ""
    return "pos" if amount > 0 else "neg"


def _computed(view: selectors.EveningView, night: Night | None) -> list[dict[str, Any]]:
    return [{"from": t.payer.name, "to": t.payee.name, "amount": amount_in(t.amount, night)} for t in view.plan.transfers]


@login_required
@require_POST
def evening_close_tables(request: HttpRequest, pk: int) -> HttpResponse:
    """Close every open table of the evening (the evening's writers), so it can be settled."""
    evening = _evening(request, pk)
    user = signed_in(request)
    rights.require(rights.may_settle(user, evening.group))
    ledger_services.evening_close_tables(evening=evening, by=user)
    messages.success(request, _("所有牌桌已结束"))
    return redirect("evening", pk=pk)


@login_required
@require_POST
def evening_settle(request: HttpRequest, pk: int) -> HttpResponse:
    evening = _evening(request, pk)
    _settle_from_page(request, lambda carry: services.settle_evening(by=signed_in(request), evening=evening,
                                                                     include_carry=carry))
    return redirect("evening", pk=pk)


def _settle_from_page(request: HttpRequest, settle: Callable[[bool], object]) -> None:
    """Settle with the page's "include earlier unpaid" box, and say how it went."""
    form = SettleForm(request.POST)
    form.is_valid()
    try:
        settle(bool(form.cleaned_data.get("include_carry", False)))
        messages.success(request, _("已结算：付了就点“标记已付”"))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))


@login_required
@require_POST
def night_settle(request: HttpRequest, pk: int) -> HttpResponse:
    """结算 a standalone closed night (from its end-of-night page)."""
    night = get_object_or_404(rights.visible_nights(request.user), pk=pk)
    _settle_from_page(request, lambda carry: services.settle_night(by=signed_in(request), night=night,
                                                                   include_carry=carry))
    return redirect("night-settle", pk=pk)


def _transfer(request: HttpRequest, settlement: int, position: int) -> SettlementTransfer:
    visible = Settlement.objects.filter(group__in=rights.visible_groups(request.user))
    found = get_object_or_404(visible, pk=settlement)
    return get_object_or_404(SettlementTransfer, settlement=found, position=position)


def _back(request: HttpRequest, transfer: SettlementTransfer) -> HttpResponse:
    """Back where the mark was made, at the transfer marked (a walk: with eight transfers, each mark came back at the
    top of the page)."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return redirect(target if "#" in target else f"{target}#transfer-{transfer.position}")
    settlement = transfer.settlement
    if settlement.evening_id:
        return redirect("evening", pk=settlement.evening_id)
    return redirect("night-settle", pk=settlement.night_id)


@login_required
@require_POST
def transfer_paid(request: HttpRequest, settlement: int, position: int) -> HttpResponse:
    transfer = _transfer(request, settlement, position)
    try:
        services.transfer_mark_paid(by=signed_in(request), transfer=transfer)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return _back(request, transfer)


@login_required
@require_POST
def transfer_unpaid(request: HttpRequest, settlement: int, position: int) -> HttpResponse:
    transfer = _transfer(request, settlement, position)
    try:
        services.transfer_mark_unpaid(by=signed_in(request), transfer=transfer)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return _back(request, transfer)
