"""API of evenings and paying up: a group's evenings, an evening (tables, nets, settlement), 结算, paid, balance.

Thin views (fetch -> service -> Response), scoped by ``visible_to`` (outsiders of the group get 404); writes are
throttled and honour the Idempotency-Key header like the rest of the API.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import Plan, format_amount

from ledger.api.pagination import NightsNewestFirst, paginated
from ledger.api.serializers.nights import StrictBooleanField, StrictSerializer, TextField
from ledger.api.nights import KEY, READ_ERRORS, WRITE_ERRORS, NightMixin, WriteThrottled, validated
from ledger.models import Evening, Group, Settlement, SettlementTransfer
from ledger.web.idempotency import idempotent
from ledger.models import Night
from ledger.selectors.nights import TABLE_FEE, Party, night_fee
from ledger.web.users import signed_in
from ledger.selectors import evenings as selectors
from ledger.services import evenings as services
from ledger import rights


class EveningInputSerializer(StrictSerializer):
    title = TextField(max_length=80)
    date = serializers.DateField()
    venue = TextField(max_length=80, required=False, allow_blank=True, default="")


class SettleInputSerializer(StrictSerializer):
    include_carry = StrictBooleanField(required=False, default=False, help_text=(
        "Fold the group's unpaid transfers of earlier settlements in (each is then carried exactly once)."))


def evening_data(evening: Evening) -> dict[str, Any]:
    return {"id": evening.pk, "group": evening.group_id, "title": evening.title, "date": evening.date.isoformat(),
            "venue": evening.venue}


def transfer_data(t: SettlementTransfer) -> dict[str, Any]:
    """A fixed transfer; a null side is the table fee (台费), named so and flagged with `fee`."""
    return {"position": t.position, "from": selectors.party_name(t.payer), "to": selectors.party_name(t.payee),
            "amount": format_amount(t.amount), "fee": t.payer is None or t.payee is None,
            "paid_at": t.paid_at.isoformat() if t.paid_at else None,
            "paid_by": t.paid_by.get_username() if t.paid_by else None,
            "carried_into": t.carried_into_id}


def settlement_data(settlement: Settlement) -> dict[str, Any]:
    transfers = getattr(settlement, "transfers_list", None) or list(
        settlement.transfers.select_related("payer", "payee", "paid_by").order_by("position"))
    return {"id": settlement.pk, "evening": settlement.evening_id, "night": settlement.night_id,
            "include_carry": settlement.include_carry, "method": settlement.method,
            "created_at": settlement.created_at.isoformat(), "created_by": settlement.created_by.get_username(),
            "transfers": [transfer_data(t) for t in transfers]}


def plan_data(plan: Plan[Party]) -> dict[str, Any]:
    return {"method": plan.method, "lower_bound": plan.lower_bound,
            "transfers": [{"from": t.payer.name, "to": t.payee.name, "amount": format_amount(t.amount),
                           "fee": t.payee is TABLE_FEE or t.payer is TABLE_FEE} for t in plan.transfers]}


def visible_group(request: Request, pk: int) -> Group:
    return get_object_or_404(rights.visible_groups(request.user), pk=pk)


class GroupEveningsView(WriteThrottled, APIView):
    """GET: the group's evenings, newest first; POST: create one (owner or scorekeeper)."""

    pagination_class = NightsNewestFirst

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **READ_ERRORS}, tags=["evenings"])
    def get(self, request: Request, pk: int) -> Response:
        evenings: QuerySet[Evening] = Evening.objects.filter(group=visible_group(request, pk))
        return paginated(self, request, evenings, lambda page: [evening_data(e) for e in page])

    @extend_schema(request=EveningInputSerializer, responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
                   parameters=[KEY], tags=["evenings"])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        group = visible_group(request, pk)
        data = validated(EveningInputSerializer, request)
        evening = services.evening_create(by=signed_in(request), group=group, title=data["title"], date=data["date"],
                                          venue=data["venue"])
        return Response(evening_data(evening), status=status.HTTP_201_CREATED)


class EveningMixin(WriteThrottled):
    def evening(self, request: Request, pk: int) -> Evening:
        return get_object_or_404(rights.visible_evenings(request.user), pk=pk)


class EveningDetailView(EveningMixin, APIView):
    """An evening: each table with its nets (after its fee), the combined nets and fee, and the settlement — the
    fixed one once settled (with who paid), else the fewest transfers computed now."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **READ_ERRORS}, tags=["evenings"])
    def get(self, request: Request, pk: int) -> Response:
        view = selectors.evening_view(self.evening(request, pk))
        names = {p.pk: p.name for p in view.players}
        tables = [{"night": t.night.pk, "table_no": t.night.table_no, "title": t.night.title,
                   "is_closed": t.night.is_closed, "fee": night_fee(t.night).as_dict(),
                   "table_fee": format_amount(t.summary.fee),
                   "nets": [{"player": names[pk], "amount": format_amount(a),
                             "fee": format_amount(t.summary.fee_shares.get(pk, Decimal(0)))}
                            for pk, a in t.summary.nets.items() if pk in names]}
                  for t in view.tables]
        return Response({
            **evening_data(view.evening), "tables": tables,
            "nets": [{"player": p.name, "amount": format_amount(view.nets[p.pk])} for p in view.players],
            "table_fee": format_amount(view.fee),
            "settlement": settlement_data(view.settlement) if view.settlement else None,
            "plan": plan_data(view.plan)})


class EveningSettleView(EveningMixin, APIView):
    @extend_schema(request=SettleInputSerializer, responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
                   parameters=[KEY], tags=["evenings"])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        evening = self.evening(request, pk)
        data = validated(SettleInputSerializer, request)
        settlement = services.settle_evening(by=signed_in(request), evening=evening,
                                             include_carry=data["include_carry"])
        return Response(settlement_data(settlement), status=status.HTTP_201_CREATED)


class NightSettleView(NightMixin, APIView):
    """POST /api/nights/{id}/settle/: fix the transfers of a closed night that is not a table of an evening."""

    @extend_schema(request=SettleInputSerializer, responses={201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
                   parameters=[KEY], tags=["evenings"])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        night: Night = self.night(request, pk, write=True)
        data = validated(SettleInputSerializer, request)
        settlement = services.settle_night(by=signed_in(request), night=night, include_carry=data["include_carry"])
        return Response(settlement_data(settlement), status=status.HTTP_201_CREATED)


class GroupBalanceView(APIView):
    """The group's running balance: each player's (and the fee's) outstanding amount, and the unpaid transfers."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **READ_ERRORS}, tags=["evenings"])
    def get(self, request: Request, pk: int) -> Response:
        group = visible_group(request, pk)
        unpaid = (selectors.outstanding(group).select_related("payer", "payee", "paid_by", "settlement")
                  .order_by("settlement_id", "position"))
        return Response({
            "group": group.pk,
            "balance": [{"player": b.who.name, "fee": b.who is TABLE_FEE, "amount": format_amount(b.amount)}
                        for b in selectors.group_balance(group)],
            "outstanding": [{"settlement": t.settlement_id, **transfer_data(t)} for t in unpaid[:500]]})


class TransferMarkView(WriteThrottled, APIView):
    paid = True

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS}, parameters=[KEY],
                   tags=["evenings"])
    @idempotent
    def post(self, request: Request, pk: int, position: int) -> Response:
        visible = Settlement.objects.filter(group__in=rights.visible_groups(request.user))
        transfer = get_object_or_404(SettlementTransfer, settlement=get_object_or_404(visible, pk=pk),
                                     position=position)
        mark = services.transfer_mark_paid if self.paid else services.transfer_mark_unpaid
        transfer = mark(by=signed_in(request), transfer=transfer)
        return Response(transfer_data(transfer))


class TransferPaidView(TransferMarkView):
    """POST: mark a transfer paid (its payer's or payee's account, or the group's owner and scorekeepers)."""

    paid = True


class TransferUnpaidView(TransferMarkView):
    """POST: take a "paid" mark back (the same people)."""

    paid = False
