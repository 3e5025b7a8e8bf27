"""Rendered pieces kept per process (hand cards, audit rows), and the viewer's CSRF token put into them when served.

A piece that is a function of rows never changed once written (a hand revision, an audit entry) and of a few
flags is rendered once and kept under a key holding all of them, so an entry never goes stale; the number kept
bounds the memory. A piece with a form holds `CSRF_PLACEHOLDER` where the token goes: the token is the viewer's
own, so `fill_csrf` puts it in when a page is served. The placeholder is made anew by each process, and only the
form field as our templates write it is filled, so user text can never be turned into a token.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

#: Made anew by each process (kept pieces live in the process), so nobody can know it in advance.
CSRF_PLACEHOLDER = f"csrf-placeholder-{secrets.token_hex(8)}"
_CSRF_FIELD = f'value="{CSRF_PLACEHOLDER}"'

R = TypeVar("R", bound=HttpResponse)


class RenderedCache:
    """Rendered HTML by key, least recently used first out; `size` entries at most (about 1 KB each)."""

    def __init__(self, size: int) -> None:
        self.size, self._items, self._lock = size, OrderedDict[tuple[Any, ...], str](), threading.Lock()

    def get(self, key: tuple[Any, ...]) -> str | None:
        with self._lock:
            html = self._items.get(key)
            if html is not None:
                self._items.move_to_end(key)
            return html

    def put(self, key: tuple[Any, ...], html: str) -> None:
        with self._lock:
            self._items[key] = html
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def fill_csrf(request: HttpRequest, response: R) -> R:
    """Put the viewer's CSRF token where rendered pieces hold the placeholder: the form field as our templates
    write it in an HTML page (user text there is escaped: no quote), or as JSON escapes it in the live fragments
    (whose strings are all rendered HTML). Never the escaped form in a page: a page's embedded JSON holds user
    text with its quotes escaped."""
    content = response.content
    if CSRF_PLACEHOLDER.encode() in content:
        token = get_token(request)
        field = _CSRF_FIELD.replace('"', '\\"') if response["Content-Type"].startswith("application/json") \
            else _CSRF_FIELD
        response.content = content.replace(field.encode(), field.replace(CSRF_PLACEHOLDER, token).encode())
    return response
