"""Pages speak Simplified Chinese unless the user picked English with the language switch."""
from __future__ import annotations

from typing import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import is_valid_path
from django.utils.translation.trans_real import parse_accept_lang_header


def acceptable_languages(header: str) -> list[str]:
    """The languages an Accept-Language header accepts, most wanted first: Django's parse without the ones it
    refuses (`q=0`, RFC 9110 §12.4.2: "not acceptable", which Django's own choice would still pick) or `*`."""
    return [code for code, q in parse_accept_lang_header(header) if q > 0 and code != "*"]


class ChineseFirstMiddleware:
    """Drop the browser's Accept-Language on pages, so a phone set to English still gets Chinese.

    The API keeps it: HAND_FORMAT.md answers errors in the language of the request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        elif "HTTP_ACCEPT_LANGUAGE" in request.META:  # in its order, without what it refuses (en;q=0: Chinese)
            request.META["HTTP_ACCEPT_LANGUAGE"] = ", ".join(acceptable_languages(request.META["HTTP_ACCEPT_LANGUAGE"]))
        return self.get_response(request)


class ApiSlashMiddleware:
    """An API address without its final slash (`POST /api/score`) is served as the one with it.

    Django's APPEND_SLASH would redirect it (301; a client following it turns the POST into a GET, 405) or, under
    DEBUG, fail with a 500 page for a POST: neither is the errors document. Pages keep the redirect.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith("/api/") and not path.endswith("/") and not is_valid_path(path) \
                and is_valid_path(path + "/"):
            request.path_info += "/"
            request.path += "/"
        return self.get_response(request)


#: Pages opened with a token in the address (a view link, an invite): private to whoever holds it.
TOKEN_PAGES = ("/v/", "/join/", "/groups/join/")


class PrivatePagesMiddleware:
    """`Cache-Control: private, no-store` on every response made for a signed-in user (session or API token) or
    for a token in the address, unless the view chose its own: a shared cache or the browser's back-forward
    history must not keep a night's hands, names and money. Public pages (the rules, sign-in) and static files
    (served before this runs) stay cacheable for anonymous visitors."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" not in response:
            user = getattr(request, "user", None)  # DRF puts a token's user here too
            if (user is not None and user.is_authenticated) or request.path.startswith(TOKEN_PAGES):
                response["Cache-Control"] = "private, no-store"
        return response


class FormAddressMiddleware:
    """A form's address opened as a page (a view that takes POST only, asked with GET: a link copied from the
    address bar, a reload) answers a page in the app's words, not a bare "405 Method Not Allowed" (a walk: a void
    link opened in the browser). The API keeps its errors document."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (response.status_code == 405 and request.method == "GET" and not request.path.startswith("/api/")
                and not response.content):
            page = render(request, "405.html", status=405)
            page["Allow"] = response.get("Allow", "POST")
            return page
        return response
