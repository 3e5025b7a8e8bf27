"""API of the reports: a night's report in each format, its JSON backup, and restoring a backup."""
from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.nights import KEY, READ_ERRORS, WRITE_ERRORS
from ledger.web.idempotency import idempotent
from ledger import rights
from ledger.reports import night_report, render
from ledger.reports.backup import BackupError, BackupRefused, import_night
from ledger.reports.base import content_disposition

LANG = OpenApiParameter("lang", str, enum=["zh", "en"], description="Language of the report (default: zh, or the "
                        "request's Accept-Language)")
MEDIA_TYPES = {"pdf": "application/pdf", "png": "image/png", "txt": "text/plain", "hands.csv": "text/csv",
               "payments.csv": "text/csv", "json": "application/json"}


def report_response(request: Request, pk: int, fmt: str) -> HttpResponse:
    """The night (404 unless the caller may see it) rendered in one format, as a named file."""
    night = get_object_or_404(rights.downloadable_nights(request.user), pk=pk)
    asked = request.query_params.getlist("lang")
    if len(asked) > 1 or (asked and asked[0] not in ("zh", "en")):
        raise ValidationError({"lang": [_("语言应为 zh 或 en")]})
    lang = asked[0] if asked else ("en" if (get_language() or "").startswith("en") else "zh")
    # A table of an evening gives the evening's transfers to the group's members only (they name other tables).
    report = night_report(night, evening_visible=rights.may_view_group(request.user, night.group))
    filename, content_type, data = render(fmt, report, lang)
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = content_disposition(filename, inline=fmt == "txt")
    response["Cache-Control"] = "private, no-store"
    return response


class ByAddress(BaseContentNegotiation):
    """A report's type is its address's (report.pdf, hands.csv), whatever the Accept header asks; an error is the
    errors document, in JSON (the API's one renderer). DRF's own example of ignoring the client's Accept."""

    def select_parser(self, request: Any, parsers: Any) -> Any:
        return parsers[0]

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


def _report_view(fmt: str, summary: str) -> type[APIView]:
    class ReportView(APIView):
        content_negotiation_class = ByAddress

        @extend_schema(summary=summary, parameters=[LANG], tags=["reports"],
                       responses={(200, MEDIA_TYPES[fmt]): OpenApiResponse(
                           OpenApiTypes.OBJECT if fmt == "json" else OpenApiTypes.BINARY),
                           **{code: r for code, r in READ_ERRORS.items() if code != 406}})  # ByAddress: never 406
        def get(self, request: Request, pk: int) -> HttpResponse:
            return report_response(request, pk, fmt)

    ReportView.__name__ = ReportView.__qualname__ = f"Report{fmt.title().replace('.', '')}View"
    return ReportView


ReportPdfView = _report_view("pdf", "The night report as a PDF (A4, Chinese or English)")
ReportPngView = _report_view("png", "The outcome (page 1 of the report) as a PNG 1080 px wide")
ReportTextView = _report_view("txt", "Nets and fewest transfers as plain text")
HandsCsvView = _report_view("hands.csv", "Every hand as CSV (UTF-8 with BOM)")
PaymentsCsvView = _report_view("payments.csv", "Every payment as CSV (UTF-8 with BOM)")
BackupView = _report_view("json", "The night's JSON backup: players, rules, every hand and revision, voids, audit")


class ImportView(APIView):
    """POST /api/nights/import/: restore a night from its backup (the caller must be its owner, or staff; a backup
    this server did not sign: staff only, see backup.import_night)."""

    @extend_schema(summary="Restore a night from its JSON backup (at most 16 MiB)", tags=["reports"],
                   request=OpenApiTypes.OBJECT, parameters=[KEY],
                   responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, **WRITE_ERRORS})
    @idempotent
    def post(self, request: Request) -> Response:
        doc: Any = request.data
        owner = doc.get("night", {}).get("owner") if isinstance(doc, dict) and isinstance(doc.get("night"), dict) else None
        if not rights.may_import_backup(request.user, owner):
            raise PermissionDenied(_("只有这一场的创建人（或管理员）可以导入它的备份"))
        try:
            restored = import_night(doc, by=request.user)
        except BackupRefused as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_403_FORBIDDEN)
        except BackupError as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        night = restored.night
        return Response({"id": night.pk, "uuid": str(night.uuid), "created": restored.created,
                         "hands": night.hands.count(), "new_users": restored.new_users},
                        status=status.HTTP_201_CREATED if restored.created else status.HTTP_200_OK)
