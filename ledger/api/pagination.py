"""Cursor pages of the API lists, newest first (issue 10).

Every list (hands, audit, nights, players) answers ``{"next", "previous", "results"}`` with at most
``size`` items (default 20, never more than 100). The cursor is opaque and keyed on the list's order
(hand number; time then id; date then id; id), so a page does not shift while rows are added and every
page costs the same whatever the length of the list.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.web import params

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


class NewestFirst(CursorPagination):
    page_size = DEFAULT_PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "size"
    cursor_query_param = "cursor"
    ordering: Any = ("-id",)

    def get_page_size(self, request: Any) -> int | None:
        """`?size=` is an integer from 1 to MAX_PAGE_SIZE, or absent: anything else is an error, never ignored."""
        values = request.query_params.getlist(self.page_size_query_param)
        if not values:
            return self.page_size
        size = params.whole_number(values[0], low=1, high=MAX_PAGE_SIZE) if len(values) == 1 else None
        if size is None:
            raise ValidationError({self.page_size_query_param: [
                _("每页条数应为 1–%(n)d 的整数") % {"n": MAX_PAGE_SIZE}]})
        return size

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list[Any] | None:
        self.model = queryset.model  # what decode_cursor reads the cursor's position as
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request: Any) -> Cursor | None:
        """`?cursor=` as this list wrote it, or a 400 naming `cursor`: DRF answers a cursor it cannot read with 404,
        and filters by the position as given (`p=abc` on a date, a 40-digit id), which the database refuses."""
        refused = ValidationError({self.cursor_query_param: [_("分页游标无效：请从第一页重新开始")]})
        if len(request.query_params.getlist(self.cursor_query_param)) > 1 \
                or len(request.query_params.get(self.cursor_query_param, "")) > 400:
            raise refused
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise refused from None
        if cursor is None or cursor.position is None:
            return cursor
        field = self.model._meta.get_field(self.ordering[0].lstrip("-"))
        if params.key_value(field, cursor.position) is None:
            raise refused
        return cursor  # DRF compares the position as text with the rows' (str of the value)


class HandsNewestFirst(NewestFirst):
    ordering = ("-number",)


class AdjustmentsNewestFirst(NewestFirst):
    ordering = ("-number",)


class AuditNewestFirst(NewestFirst):
    ordering = ("-at", "-id")


class NightsNewestFirst(NewestFirst):
    ordering = ("-date", "-id")


class PlayersNewestFirst(NewestFirst):
    ordering = ("-id",)


def paginated(view: APIView, request: Request, queryset: QuerySet[Any],
              to_data: Callable[[list[Any]], Iterable[Any]]) -> Response:
    """One page of `queryset` in the view's `pagination_class` order, its items turned into data by `to_data`."""
    paginator = view.pagination_class()  # type: ignore[attr-defined]
    page = paginator.paginate_queryset(queryset, request, view=view)
    response: Response = paginator.get_paginated_response(list(to_data(page or [])))
    return response
