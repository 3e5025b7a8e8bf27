"""The REST API: thin views, each fetch → service → Response.

Errors are raised, never caught here: ``ledger.api.errors.exception_handler`` turns every one into
the errors document.  Writes honour the ``Idempotency-Key`` header (``ledger.web.idempotency``).
"""
from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import Problem, ScoringError, format_amount, normalise_language, read_json, score_hand
from scoring.preview import analysis_answer

from ledger import rights
from ledger.services import adjustments
from ledger.services import confirmations
from ledger.services import nights as services
from ledger.services import groups as group_services
from ledger.web.http_limits import AnyTypeJSONParser
from ledger.web.idempotency import HEADER, idempotent
from ledger.models import Adjustment, Group, Hand, Night
from ledger.selectors.nights import (TABLE_FEE, night_fee, night_for_page, night_hands_query, night_next_dealer,
                         night_settlement_plan, night_summary, night_totals, night_trail)
from ledger.api.pagination import AdjustmentsNewestFirst, AuditNewestFirst, HandsNewestFirst, NightsNewestFirst, PlayersNewestFirst, paginated
from ledger.api.serializers.nights import (AdjustmentCorrectInputSerializer, AdjustmentInputSerializer, AdjustmentSerializer,
                          AuditEntrySerializer, ConfirmationSerializer, adjustment_data, EmptyInputSerializer, ErrorsSerializer, HandCorrectInputSerializer,
                          HandEntrySerializer, HandSerializer, NightDetailSerializer, NightInputSerializer,
                          NightSerializer, PlayerInputSerializer, PlayerSerializer, PreviewInputSerializer,
                          ReasonSerializer, SettlementSerializer, TotalsSerializer, entry_of, hand_data)
from ledger.api.throttles import CalculatorThrottle, WriteThrottle
from ledger.web.users import signed_in

ERRORS = OpenApiResponse(ErrorsSerializer, description="The errors document of HAND_FORMAT.md.")
READ_ERRORS = {400: ERRORS, 401: ERRORS, 403: ERRORS, 404: ERRORS, 406: ERRORS, 429: ERRORS}
WRITE_ERRORS = {400: ERRORS, 401: ERRORS, 403: ERRORS, 404: ERRORS, 406: ERRORS, 409: ERRORS, 413: ERRORS,
                415: ERRORS, 422: ERRORS, 429: ERRORS}
CALC_ERRORS = {400: ERRORS, 406: ERRORS, 413: ERRORS, 415: ERRORS, 429: ERRORS}
SCORE_ERRORS = {400: ERRORS, 406: ERRORS, 413: ERRORS, 429: ERRORS}  # any body is read as JSON: never a 415
KEY = OpenApiParameter(HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
                       description="A fresh key per write, the same on retry: a repeat answers the first response "
                                   "and writes nothing; the same key with another body gets 422.")


def validated(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def json_object(request: Request, fields: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The body as a JSON object; with `fields`, a field not among them is an error (a typo is never ignored)."""
    body = sent(request)
    if not isinstance(body, dict):
        raise ScoringError([Problem("", "not_object")])
    if fields is not None:
        unknown = sorted(str(name) for name in body if name not in fields)
        if unknown:
            raise ScoringError([Problem(name, "unknown_field", {"name": name}) for name in unknown])
    return body


def sent(request: Request) -> Any:
    """The body's JSON value; an empty body is not a document (DRF reads it as {}: `score_hand FILE` of an empty
    file says there is nothing, and so does the API)."""
    if request.stream is None:
        read_json(b"")  # raises json_empty
    return request.data


class ScoreView(APIView):
    """POST /api/score/: the stateless calculator; no sign-in, nothing stored."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [CalculatorThrottle]
    parser_classes = [AnyTypeJSONParser]
    stores_nothing = True  # text that could not be stored is the engine's to report (ledger.web.http_limits)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, **SCORE_ERRORS},
                   summary="Score a hand record (HAND_FORMAT.md)", auth=[])
    def post(self, request: Request) -> Response:
        return Response(score_hand(sent(request)).as_dict())


PARTIAL = OpenApiParameter("partial", str, required=False,
                           description="1: an entry (or tiles) still being typed answers 200 with its errors document "
                                       "instead of 400 (the table page asks at every tap); any other value is ignored")
# The paths an analysis' errors may have for tiles still being typed; other errors (suits, rules, a meld list that
# is no list) stay a failed request under ?partial=1 too.
TYPED = ("tiles", "melds")


class AnalyseView(APIView):
    """POST /api/analyse/: tiles -> pattern, roots and fan (a win) or waits (a ready hand); nothing stored.

    400 with the errors document for tiles that cannot be read. With `?partial=1` (the table's keypad, asking as
    tiles are typed) that document answers 200 when every error is about the tiles or melds typed, as the preview's
    does: tiles half typed are not a failed request. Errors of the suits or rules stay 400.
    """

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [CalculatorThrottle]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, **CALC_ERRORS}, parameters=[PARTIAL],
                   summary="Analyse tiles: {'tiles': '...', 'melds': [...], 'ready': false, 'suits': 'mps'|'ps', "
                           "'rules': {...}}", auth=[])
    def post(self, request: Request) -> Response:
        # The same function as the engine in the phone (scoring.preview), so the two cannot drift.
        body = json_object(request, ("tiles", "melds", "ready", "suits", "rules"))
        code, document = analysis_answer(body, normalise_language(get_language()))
        # Tiles being typed come as the schema has them (tiles a string, melds strings, ready true or false): a
        # request of another shape is malformed, partial or not.
        melds = body.get("melds", [])
        shaped = (isinstance(body.get("tiles"), str) and isinstance(melds, list)
                  and all(isinstance(m, str) for m in melds) and isinstance(body.get("ready", False), bool))
        typed = code == 400 and shaped and all(
            e["path"].split(".")[0].split("[")[0] in TYPED for e in document["errors"])
        if typed and request.query_params.get("partial") == "1":
            code = 200  # the document says what is wrong with the tiles; the request itself went well
        return Response(document, status=code)


class WriteThrottled:
    """Writes (POST) are throttled per user; reads are not."""

    def get_throttles(self) -> list[Any]:
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST":
            return [WriteThrottle()]
        return []


class PlayerListView(WriteThrottled, APIView):
    pagination_class = PlayersNewestFirst

    @extend_schema(responses={200: PlayerSerializer(many=True), **READ_ERRORS})
    def get(self, request: Request) -> Response:
        players = rights.visible_players(request.user).active().select_related("group")
        return paginated(self, request, players, lambda page: PlayerSerializer(page, many=True).data)

    @extend_schema(request=PlayerInputSerializer, responses={201: PlayerSerializer, **WRITE_ERRORS}, parameters=[KEY])
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(PlayerInputSerializer, request)
        player = group_services.player_find_or_add(group=writable_group(request, data.get("group")),
                                                   by=signed_in(request), name=data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


def writable_group(request: Request, pk: int | None) -> Group:
    """The group named by a write (404 if the caller is not in it, 403 if they may not write there), or the
    caller's own group when none is named."""
    user = signed_in(request)
    if pk is None:
        return services.personal_group(user)
    group = get_object_or_404(rights.visible_groups(user), pk=pk)
    rights.require(rights.may_write_group(user, group))
    return group


def visible_nights(request: Request) -> QuerySet[Night]:
    return rights.visible_nights(request.user).prefetch_related("seating__player").select_related("owner")


class NightMixin(WriteThrottled):
    """Scope to nights the caller may see (others: 404), and check write rights (403)."""

    def night(self, request: Request, pk: int, *, write: bool = False) -> Night:
        if write:
            # The write path needs no seating prefetch (the services read the seats under the night's lock). Who
            # may write may see (owner, scorekeepers, the group's writers), so a plain read by id and the rights
            # check settle it without the visibility query (four EXISTS to build and run); only a refusal asks
            # whether the night is visible at all: 403 if so, else 404 as for any unseen night.
            night = Night.objects.filter(pk=pk).first()
            if night is not None and rights.may_write_night(request.user, night):
                return night
            rights.refuse_night(request.user, pk)
        # A read: the night with its rights, seats and cursors in one statement (night_for_page).
        found = night_for_page(pk, request.user)
        if found is None:
            raise Http404
        return found


    def hand(self, night: Night, number: int) -> Hand:
        # With its current revision and players prefetched (3 queries, not 7): hand_data reads them.
        return get_object_or_404(night_hands_query(night), number=number)


class NightListView(WriteThrottled, APIView):
    pagination_class = NightsNewestFirst

    @extend_schema(responses={200: NightSerializer(many=True), **READ_ERRORS})
    def get(self, request: Request) -> Response:
        return paginated(self, request, visible_nights(request), lambda page: NightSerializer(page, many=True).data)

    @extend_schema(request=NightInputSerializer, responses={201: NightSerializer, **WRITE_ERRORS}, parameters=[KEY])
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(NightInputSerializer, request)
        evening = (get_object_or_404(rights.visible_evenings(request.user), pk=data["evening"])
                   if data.get("evening") else None)
        group = writable_group(request, data.get("group") or (evening.group_id if evening else None))
        night = services.night_create(
            owner=signed_in(request), title=data["title"], date=data["date"], venue=data["venue"], base=data["base"],
            stake=data["stake"], currency=data["currency"], preset=data["preset"], rule_overrides=data["rules"],
            players=[services.player_get_or_create(name=n, group=group) for n in data["players"]],
            first_dealer=data["first_dealer"], members=data["members"], scorekeepers=data["scorekeepers"],
            evening=evening, table_no=data.get("table_no"), fee=data.get("fee"))
        return Response(NightSerializer(night).data, status=status.HTTP_201_CREATED)


class NightDetailView(NightMixin, APIView):
    @extend_schema(responses={200: NightDetailSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        night = get_object_or_404(visible_nights(request), pk=pk)  # with its seating and owner, as listed
        return Response(NightDetailSerializer(night, context={
            "next_dealer": night_next_dealer(night),
            "confirmations": confirmations.confirmations_data(night)}).data)

    @extend_schema(request=None, responses={204: None, **WRITE_ERRORS})
    def delete(self, request: Request, pk: int) -> Response:
        """A night made by mistake, nothing recorded on it, deleted by its owner (400 once anything is recorded; the
        group's audit trail keeps an entry of it)."""
        night = get_object_or_404(visible_nights(request), pk=pk)
        services.night_delete(night=night, by=signed_in(request))
        return Response(status=204)


class HandListView(NightMixin, APIView):
    pagination_class = HandsNewestFirst

    @extend_schema(responses={200: HandSerializer(many=True), **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        hands = night_hands_query(self.night(request, pk))
        # hand_data already has HandSerializer's types (the schema's): the page is the body as it is.
        return paginated(self, request, hands, lambda page: [hand_data(h) for h in page])

    @extend_schema(request=HandEntrySerializer, responses={201: HandSerializer, **WRITE_ERRORS}, parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        serializer = HandEntrySerializer(data=request.data)
        if not serializer.is_valid():
            self.night(request, pk, write=True)  # a refused caller hears 403 or 404 first, as from every write
            raise ValidationError(serializer.errors)
        entry, dealer = entry_of(dict(serializer.validated_data))
        # The service reads the night with the caller's rights and locks it, in one statement (403/404 if refused).
        hand = services.hand_record(night=pk, by=signed_in(request), entry=entry, dealer=dealer)
        # hand_data already has HandSerializer's types (the schema's), so it is the body as it is.
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


class PreviewView(NightMixin, APIView):
    """POST /api/nights/{id}/preview/: score an entry with the night's rules; nothing stored.

    200: the result document with `choices`; 400: the errors document with `choices` and `so_far`
    (the payments of an unfinished hand up to now, or null). `choices` is the engine's answer to
    "what may be chosen next" (scoring.hand_choices), which the table page draws its buttons from.
    With `?partial=1` (the table page, asking at every tap) an entry with errors answers 200 with that same
    document: a hand half entered is not a failed request (each was a red 400 in the browser's console).
    """

    def get_throttles(self) -> list[Any]:
        return [CalculatorThrottle()]

    @extend_schema(request=PreviewInputSerializer, responses={200: OpenApiTypes.OBJECT, **WRITE_ERRORS},
                   parameters=[PARTIAL])
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        entry, dealer = entry_of(validated(PreviewInputSerializer, request))
        code, body = services.hand_preview(night=night, entry=entry, dealer=dealer, lang=get_language())
        if code == 400 and request.query_params.get("partial") == "1":
            code = 200  # the document says what is wrong (its `errors`); the request itself went well
        return Response(body, status=code)


class HandDetailView(NightMixin, APIView):
    @extend_schema(responses={200: HandSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(HandSerializer(hand_data(self.hand(self.night(request, pk), number))).data)


class HandCorrectView(NightMixin, APIView):
    @extend_schema(request=HandCorrectInputSerializer, responses={200: HandSerializer, **WRITE_ERRORS},
                   parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        night = self.night(request, pk, write=True)
        hand = self.hand(night, number)
        data = validated(HandCorrectInputSerializer, request)
        entry, dealer = entry_of(data)
        services.hand_correct(hand=hand, by=signed_in(request), entry=entry, reason=data["reason"], dealer=dealer)
        return Response(HandSerializer(hand_data(self.hand(night, number))).data)


class HandVoidView(NightMixin, APIView):
    @extend_schema(request=ReasonSerializer, responses={200: HandSerializer, **WRITE_ERRORS}, parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        night = self.night(request, pk, write=True)
        hand = self.hand(night, number)
        data = validated(ReasonSerializer, request)
        services.hand_void(hand=hand, by=signed_in(request), reason=data["reason"])
        return Response(HandSerializer(hand_data(self.hand(night, number))).data)


class TotalsView(NightMixin, APIView):
    @extend_schema(responses={200: TotalsSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        return Response(TotalsSerializer({
            "totals": [{"player": t.player.name, "seat": t.seat, "amount": format_amount(t.amount),
                        "fee": format_amount(t.fee)} for t in night_totals(night)],
            "table_fee": {"rule": night_fee(night).as_dict(), "amount": format_amount(night_summary(night).fee)},
            "next_dealer": night_next_dealer(night)}).data)


class SettlementView(NightMixin, APIView):
    @extend_schema(responses={200: SettlementSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        plan = night_settlement_plan(night)
        return Response(SettlementSerializer({
            "transfers": [{"from": t.payer.name, "to": t.payee.name, "amount": format_amount(t.amount),
                           "fee": t.payee is TABLE_FEE} for t in plan.transfers],
            "method": plan.method, "lower_bound": plan.lower_bound,
            "table_fee": format_amount(night_summary(night).fee)}).data)


class AuditView(NightMixin, APIView):
    pagination_class = AuditNewestFirst

    @extend_schema(responses={200: AuditEntrySerializer(many=True), **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        entries = night_trail(night, request.user).select_related("actor", "hand", "adjustment")
        return paginated(self, request, entries, lambda page: AuditEntrySerializer(page, many=True).data)


class CloseView(NightMixin, APIView):
    @extend_schema(request=EmptyInputSerializer, responses={200: NightSerializer, **WRITE_ERRORS}, parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk, write=True)
        validated(EmptyInputSerializer, request)
        services.night_close(night=night, by=signed_in(request))
        return Response(NightSerializer(get_object_or_404(visible_nights(request), pk=pk)).data)


class ReopenView(NightMixin, APIView):
    """POST /api/nights/{id}/reopen/: a closed night takes hands again while nothing is settled on it (400
    otherwise); its sign-offs are cleared. Reopening an open night changes nothing."""

    @extend_schema(request=EmptyInputSerializer, responses={200: NightSerializer, **WRITE_ERRORS}, parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk, write=True)
        validated(EmptyInputSerializer, request)
        services.night_reopen(night=night, by=signed_in(request))
        return Response(NightSerializer(get_object_or_404(visible_nights(request), pk=pk)).data)


class AdjustmentMixin(NightMixin):
    def adjustment(self, night: Night, number: int) -> Adjustment:
        return get_object_or_404(night.adjustments.select_related("recorded_by", "night"), number=number)


class AdjustmentListView(AdjustmentMixin, APIView):
    """GET/POST /api/nights/{id}/adjustments/: the night's penalties and adjustments (罚分/调整), newest first;
    record one: a 诈胡 or a transfer between two seats."""

    pagination_class = AdjustmentsNewestFirst

    @extend_schema(responses={200: AdjustmentSerializer(many=True), **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        found = self.night(request, pk).adjustments.select_related("recorded_by")
        return paginated(self, request, found, lambda page: [adjustment_data(a) for a in page])

    @extend_schema(request=AdjustmentInputSerializer, responses={201: AdjustmentSerializer, **WRITE_ERRORS},
                   parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk, write=True)
        data = validated(AdjustmentInputSerializer, request)
        made = adjustments.adjustment_record(night=night, by=signed_in(request), data=data)
        return Response(adjustment_data(made), status=status.HTTP_201_CREATED)


class AdjustmentDetailView(AdjustmentMixin, APIView):
    @extend_schema(responses={200: AdjustmentSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(adjustment_data(self.adjustment(self.night(request, pk), number)))


class AdjustmentCorrectView(AdjustmentMixin, APIView):
    @extend_schema(request=AdjustmentCorrectInputSerializer, responses={200: AdjustmentSerializer, **WRITE_ERRORS},
                   parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        night = self.night(request, pk, write=True)
        found = self.adjustment(night, number)
        data = validated(AdjustmentCorrectInputSerializer, request)
        adjustments.adjustment_correct(adjustment=found, by=signed_in(request), data=dict(data["adjustment"]),
                                       reason=data["reason"])
        return Response(adjustment_data(self.adjustment(night, number)))


class AdjustmentVoidView(AdjustmentMixin, APIView):
    @extend_schema(request=ReasonSerializer, responses={200: AdjustmentSerializer, **WRITE_ERRORS},
                   parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int, number: int) -> Response:
        night = self.night(request, pk, write=True)
        found = self.adjustment(night, number)
        data = validated(ReasonSerializer, request)
        adjustments.adjustment_void(adjustment=found, by=signed_in(request), reason=data["reason"])
        return Response(adjustment_data(self.adjustment(night, number)))


class ConfirmView(NightMixin, APIView):
    """POST /api/nights/{id}/confirm/: a player whose name the caller claimed confirms the closed night (签字确认);
    twice is once. 403 for a member who is not a claimed player of the night."""

    @extend_schema(request=EmptyInputSerializer, responses={200: ConfirmationSerializer(many=True), **WRITE_ERRORS},
                   parameters=[KEY])
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)  # any viewer of the night (404 otherwise); the service checks the claim
        validated(EmptyInputSerializer, request)
        confirmations.night_confirm(night=night, user=signed_in(request))
        return Response(confirmations.confirmations_data(night))
