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
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

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
        if len(values) > 1 or not values[0].isdigit() or not 1 <= int(values[0]) <= MAX_PAGE_SIZE:
            raise ValidationError({self.page_size_query_param: [
                _("每页条数应为 1–%(n)d 的整数") % {"n": MAX_PAGE_SIZE}]})
        return int(values[0])


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
    return paginator.get_paginated_response(list(to_data(page or [])))
