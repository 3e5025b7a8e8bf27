"""POST /api/token/: a token for a username and password (rate-limited), for scripts and other clients."""
from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import Problem, normalise_language

from ledger.web import ratelimit


class TokenView(APIView):
    """Exchange a username and password for the user's API token (`Authorization: Token <key>`)."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=AuthTokenSerializer, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                          429: OpenApiTypes.OBJECT},
                   summary="Get the API token of a username and password")
    def post(self, request: Request) -> Response:
        if not ratelimit.allow(ratelimit.TOKEN, request._request):
            return Response({"errors": [{"path": "", "message": _("尝试太频繁，请稍后再试")}]},
                            status=status.HTTP_429_TOO_MANY_REQUESTS)
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        unknown = sorted(set(request.data) - set(serializer.fields)) if isinstance(request.data, dict) else []
        if unknown or not serializer.is_valid():
            language = normalise_language(get_language())
            errors = [{"path": "" if field == "non_field_errors" else field, "message": str(m)}
                      for field, messages in (serializer.errors.items() if not unknown else []) for m in messages]
            errors += [Problem(name, "unknown_field", {"name": name}).as_dict(language) for name in unknown]
            return Response({"errors": errors}, status=status.HTTP_400_BAD_REQUEST)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})
