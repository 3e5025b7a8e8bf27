"""Pages speak Simplified Chinese unless the user picked English with the language switch."""
from __future__ import annotations

from typing import Callable

from django.http import HttpRequest, HttpResponse


class ChineseFirstMiddleware:
    """Drop the browser's Accept-Language on pages, so a phone set to English still gets Chinese.

    The API keeps it: HAND_FORMAT.md answers errors in the language of the request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
