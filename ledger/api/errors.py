"""One error path for the API: every failure becomes the errors document of HAND_FORMAT.md.

``{"errors": [{"path": "events[0].winners", "message": "..."}]}`` in the request's language
(``Accept-Language``; Chinese when none is given), whatever raised it: the engine's ``ScoringError``,
Django's ``ValidationError``, DRF's validation, parse, authentication, permission, 404 and throttle
errors, a body too large (413), and unexpected exceptions (500, logged with the traceback).
"""
from __future__ import annotations

import logging
from decimal import DecimalException
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error

from scoring import ScoringError, normalise_language

from ledger.web.http_limits import PayloadTooLarge, body_limit

logger = logging.getLogger("ledger.api")


def errors_document(errors: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    return {"errors": errors or [{"path": "", "message": _("请求有误")}]}


def _join(prefix: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    if key in ("non_field_errors", "__all__"):
        return prefix
    return f"{prefix}.{key}" if prefix else str(key)


def flatten(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested error details (dicts, lists, strings) as a flat list of {path, message}."""
    if isinstance(detail, dict):
        return [e for key, value in detail.items() for e in flatten(value, _join(prefix, key))]
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return [{"path": prefix, "message": str(item)} for item in detail]
        out = []
        for index, item in enumerate(detail):
            if item:  # DRF leaves {} for valid list items
                out += flatten(item, _join(prefix, index) if isinstance(item, (dict, list)) else prefix)
        return out
    return [{"path": prefix, "message": str(detail)}]


def django_errors(exc: DjangoValidationError) -> list[dict[str, str]]:
    if hasattr(exc, "error_dict"):
        return [{"path": "" if field == "__all__" else field, "message": m}
                for field, messages in exc.message_dict.items() for m in messages]
    return [{"path": "", "message": m} for m in exc.messages]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER (settings.REST_FRAMEWORK)."""
    lang = normalise_language(get_language())
    headers: dict[str, str] = {}
    if isinstance(exc, ScoringError):
        return Response(exc.as_dict(lang), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        return Response(errors_document(django_errors(exc)), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE: name the path's own limit
        request = context.get("request")
        exc = PayloadTooLarge(body_limit(request.path) if request is not None else None)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(_("没有找到"))
    elif isinstance(exc, DjangoPermissionDenied):
        # A service's own words when it gave some; else the app's (DRF's are formal: 您没有执行该操作的权限).
        exc = exceptions.PermissionDenied(str(exc) or _("你没有权限这样做"))
    elif isinstance(exc, (DecimalException, OverflowError)):
        exc = exceptions.ValidationError({"": [_("数字超出范围")]})
    elif isinstance(exc, (DataError, IntegrityError)):
        # The services check everything first; this is a last line of defence, logged like a bug.
        logger.error("Database refused a write on %s", _path(context), exc_info=exc)
        return Response(errors_document([{"path": "", "message": _("数据与已有记录冲突，请刷新后重试")}]),
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, exceptions.APIException):
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        if getattr(exc, "wait", None) is not None:
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
        if isinstance(exc, exceptions.ValidationError):
            errors = flatten(as_serializer_error(exc) if not isinstance(exc.detail, (dict, list)) else exc.detail)
        else:
            errors = flatten(exc.detail)
        return Response(errors_document(errors), status=exc.status_code, headers=headers)
    logger.error("Unexpected error on %s", _path(context), exc_info=exc)
    return Response(errors_document([{"path": "", "message": _("服务器出错了，已记录，请稍后再试")}]),
                    status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def _path(context: dict[str, Any]) -> str:
    request = context.get("request")
    return getattr(request, "path", "?")


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
    """handler500: JSON errors document under /api/, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(errors_document([{"path": "", "message": _("服务器出错了，已记录，请稍后再试")}]),
                            status=500, json_dumps_params={"ensure_ascii": False})
    return defaults.server_error(request, *args, **kwargs)


def not_found(request: HttpRequest, exception: Exception | None = None) -> Any:
    """handler404: JSON errors document under /api/ (an id that is not a number), the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(errors_document([{"path": "", "message": _("没有找到")}]), status=404,
                            json_dumps_params={"ensure_ascii": False})
    return defaults.page_not_found(request, exception)
