"""The REST API: thin views over the services and selectors (scoping first, then one call)."""
from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import Problem, ScoringError, analyse_hand, analyse_ready, format_amount, normalise_language, score_hand

from .. import services
from ..models import Hand, Night, Player
from ..selectors import night_hands, night_next_dealer, night_settlement, night_totals
from .serializers import (AuditEntrySerializer, HandEntrySerializer, NightInputSerializer, NightSerializer,
                          PlayerSerializer, ReasonSerializer, hand_data)


def _lang() -> str:
    return normalise_language(get_language())


def errors_response(exc: ScoringError | ValidationError) -> Response:
    """400 with the errors document of HAND_FORMAT.md, in the request's language."""
    if isinstance(exc, ScoringError):
        return Response(exc.as_dict(_lang()), status=status.HTTP_400_BAD_REQUEST)
    if hasattr(exc, "error_dict"):
        errors = [{"path": field, "message": m} for field, messages in exc.message_dict.items() for m in messages]
    else:
        errors = [{"path": "", "message": m} for m in exc.messages]
    return Response({"errors": errors}, status=status.HTTP_400_BAD_REQUEST)


def _serializer_errors(errors: dict[str, Any], prefix: str = "") -> list[dict[str, str]]:
    flat = []
    for field, value in errors.items():
        path = f"{prefix}.{field}" if prefix else str(field)
        if isinstance(value, dict):
            flat += _serializer_errors(value, path)
        else:
            flat += [{"path": path, "message": str(m)} for m in value]
    return flat


def invalid(serializer: Any) -> Response:
    return Response({"errors": _serializer_errors(serializer.errors)}, status=status.HTTP_400_BAD_REQUEST)


def _json_body(request: Request) -> Any:
    """Parse the raw body ourselves so that malformed JSON gets the errors document too."""
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ScoringError([Problem("", "bad_json", {"detail": str(exc)})]) from exc


class ScoreView(APIView):
    """POST /api/score/: the stateless calculator; no sign-in, nothing stored."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   summary="Score a hand record (HAND_FORMAT.md)")
    def post(self, request: Request) -> Response:
        try:
            return Response(score_hand(_json_body(request)).as_dict())
        except ScoringError as exc:
            return errors_response(exc)


class AnalyseView(APIView):
    """POST /api/analyse/: tiles -> pattern, roots and fan (a win) or waits (a ready hand); nothing stored."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   summary="Analyse tiles: {'tiles': '...', 'melds': [...], 'ready': false}")
    def post(self, request: Request) -> Response:
        try:
            body = _json_body(request)
            if not isinstance(body, dict):
                raise ScoringError([Problem("", "not_object")])
            if body.get("ready"):
                ready = analyse_ready(body.get("tiles"), body.get("melds"))
                if ready.problem:
                    raise ScoringError([Problem("tiles", ready.problem, {"suits": ready.suits})])
                waits = [{"tile": w.tile, "pattern": w.pattern, "roots": w.roots, "fan": w.fan} for w in ready.waits]
                return Response({"tiles": ready.tiles, "melds": list(ready.melds), "waits": waits,
                                 "fan_min": ready.cha_jiao_fan("min"), "fan_max": ready.cha_jiao_fan("max")})
            hand = analyse_hand(body.get("tiles"), body.get("melds"))
            if hand.problem:
                raise ScoringError([Problem("tiles", hand.problem, {"suits": hand.suits})])
            return Response({"tiles": hand.tiles, "melds": list(hand.melds), "pattern": hand.pattern,
                             "roots": hand.roots, "fan": hand.fan,
                             "readings": [{"groups": list(r.groups), "pattern": r.pattern, "fan": r.fan}
                                          for r in hand.readings]})
        except ScoringError as exc:
            return errors_response(exc)


class PlayerListView(APIView):
    @extend_schema(responses=PlayerSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(PlayerSerializer(Player.objects.all(), many=True).data)

    @extend_schema(request=PlayerSerializer, responses={201: PlayerSerializer})
    def post(self, request: Request) -> Response:
        serializer = PlayerSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid(serializer)
        player = services.player_get_or_create(name=serializer.validated_data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


def visible_nights(request: Request) -> QuerySet[Night]:
    return Night.objects.visible_to(request.user).prefetch_related("seating__player").select_related("owner")


class NightMixin:
    """Scope to nights the caller may see (others: 404), and check write rights (403)."""

    def night(self, request: Request, pk: int, *, write: bool = False) -> Night:
        night = get_object_or_404(visible_nights(request), pk=pk)
        if write and not night.can_write(request.user):
            raise PermissionDenied()
        return night

    def hand(self, night: Night, number: int) -> Hand:
        return get_object_or_404(night.hands.select_related("recorded_by"), number=number)


class NightListView(APIView):
    @extend_schema(responses=NightSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(NightSerializer(visible_nights(request), many=True).data)

    @extend_schema(request=NightInputSerializer, responses={201: NightSerializer})
    def post(self, request: Request) -> Response:
        serializer = NightInputSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid(serializer)
        data = serializer.validated_data
        users = get_user_model().objects
        try:
            night = services.night_create(
                owner=request.user, title=data["title"], date=data["date"], venue=data["venue"], base=data["base"],
                stake=data["stake"], currency=data["currency"], preset=data["preset"], rule_overrides=data["rules"],
                players=[services.player_get_or_create(name=n) for n in data["players"]],
                first_dealer=data["first_dealer"],
                members=list(users.filter(username__in=data["members"])),
                scorekeepers=list(users.filter(username__in=data["scorekeepers"])))
        except ScoringError as exc:
            return errors_response(exc)
        except ValidationError as exc:
            return errors_response(exc)
        return Response(NightSerializer(night).data, status=status.HTTP_201_CREATED)


class NightDetailView(NightMixin, APIView):
    @extend_schema(responses=NightSerializer)
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        data = NightSerializer(night).data
        data["next_dealer"] = night_next_dealer(night)
        return Response(data)


class HandListView(NightMixin, APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        return Response([hand_data(h) for h in night_hands(self.night(request, pk))])

    @extend_schema(request=HandEntrySerializer, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk, write=True)
        try:
            entry = _entry(request)
            hand = services.hand_record(night=night, by=request.user, entry=entry, dealer=entry.pop("dealer", None))
        except (ScoringError, ValidationError) as exc:
            return errors_response(exc)
        return Response(hand_data(hand), status=status.HTTP_201_CREATED)


def _entry(request: Request) -> dict[str, Any]:
    body = _json_body(request)
    if not isinstance(body, dict):
        raise ScoringError([Problem("", "not_object")])
    return dict(body)


class PreviewView(NightMixin, APIView):
    """POST /api/nights/{id}/preview/: score an entry with the night's rules; nothing stored.

    200: the result document with `choices`; 400: the errors document with `choices` and `so_far`
    (the payments of an unfinished hand up to now, or null). `choices` is the engine's answer to
    "what may be chosen next" (scoring.hand_choices), which the table page draws its buttons from.
    """

    @extend_schema(request=HandEntrySerializer, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        try:
            entry = _entry(request)
            dealer = entry.pop("dealer", None)
            entry.pop("reason", None)
            preview = services.hand_preview(night=night, entry=entry, dealer=dealer)
        except (ScoringError, ValidationError) as exc:
            return errors_response(exc)
        if preview.result is not None:
            return Response({**preview.result.as_dict(), "choices": preview.choices})
        assert preview.error is not None
        return Response({**preview.error.as_dict(_lang()), "so_far": preview.so_far.as_dict() if preview.so_far else None,
                         "choices": preview.choices}, status=status.HTTP_400_BAD_REQUEST)


class HandDetailView(NightMixin, APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(hand_data(self.hand(self.night(request, pk), number)))


class HandCorrectView(NightMixin, APIView):
    @extend_schema(request=HandEntrySerializer, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, number: int) -> Response:
        night = self.night(request, pk, write=True)
        hand = self.hand(night, number)
        try:
            entry = _entry(request)
            reason = entry.pop("reason", "")
            if not isinstance(reason, str):
                reason = ""
            services.hand_correct(hand=hand, by=request.user, entry=entry, reason=reason,
                                  dealer=entry.pop("dealer", None))
        except (ScoringError, ValidationError) as exc:
            return errors_response(exc)
        return Response(hand_data(self.hand(night, number)))


class HandVoidView(NightMixin, APIView):
    @extend_schema(request=ReasonSerializer, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})
    def post(self, request: Request, pk: int, number: int) -> Response:
        night = self.night(request, pk, write=True)
        hand = self.hand(night, number)
        serializer = ReasonSerializer(data=request.data)
        if not serializer.is_valid():
            return invalid(serializer)
        try:
            services.hand_void(hand=hand, by=request.user, reason=serializer.validated_data["reason"])
        except ValidationError as exc:
            return errors_response(exc)
        return Response(hand_data(self.hand(night, number)))


class TotalsView(NightMixin, APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        return Response({"totals": [{"player": t.player.name, "seat": t.seat, "amount": format_amount(t.amount)}
                                    for t in night_totals(night)],
                         "next_dealer": night_next_dealer(night)})


class SettlementView(NightMixin, APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        return Response({"transfers": [{"from": t.payer.name, "to": t.payee.name, "amount": format_amount(t.amount)}
                                       for t in night_settlement(night)]})


class AuditView(NightMixin, APIView):
    @extend_schema(responses=AuditEntrySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk)
        entries = night.audit.select_related("actor", "hand")
        return Response(AuditEntrySerializer(entries, many=True).data)


class CloseView(NightMixin, APIView):
    @extend_schema(request=None, responses=NightSerializer)
    def post(self, request: Request, pk: int) -> Response:
        night = self.night(request, pk, write=True)
        try:
            services.night_close(night=night, by=request.user)
        except ValidationError as exc:
            return errors_response(exc)
        return Response(NightSerializer(self.night(request, pk)).data)
