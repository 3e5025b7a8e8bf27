"""Bounds on request bodies (issues 9, 16): size (413), JSON depth, text that cannot be stored.

- ``API_MAX_BODY`` bytes at most (64 KiB: a hand with every tile typed is about 2 KiB), the backup import
  ``BACKUP_MAX_BODY`` (16 MiB); larger bodies get 413 with the errors document, in the request's language.
  `BodyLimitASGI` (around the app uvicorn serves, ledger/asgi.py) counts the bytes as they arrive: a declared
  Content-Length past the limit is refused before any byte is read, a chunked body (no Content-Length) once
  what arrived passes it. A chunked body within the limit is handed on whole with its Content-Length, which
  Django and DRF need to read it at all. `BodyLimitMiddleware` checks the declared length again inside Django
  (the test client, WSGI), and Django's own DATA_UPLOAD_MAX_MEMORY_SIZE is the largest limit (the backup's).
- JSON nested deeper than ``MAX_JSON_DEPTH`` is refused before parsing (Python's parser would recurse).
- Strings with a lone surrogate or NUL (``"\\ud800"``, ``"\\u0000"``) are refused as bad text with their path:
  they cannot be encoded as UTF-8 nor stored by PostgreSQL. The calculator (which stores nothing) leaves them to
  the engine, which reports them with every other problem, as ``score_hand FILE`` does.
"""
from __future__ import annotations

import json
import re
from typing import Any, Awaitable, Callable, MutableMapping

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, ValidationError
from rest_framework.parsers import JSONParser

from scoring import read_json

from ledger.web.middleware import acceptable_languages

API_MAX_BODY = 64 * 1024
#: A night's JSON backup may be much larger (about 3 KB a hand with its revisions and audit entries).
BACKUP_MAX_BODY = 16 * 1024 * 1024
BACKUP_PATH = "/api/nights/import/"


class PayloadTooLarge(APIException):
    """413 with the errors document (ledger.api.errors renders it), naming the path's own limit."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"

    def __init__(self, limit: int | None = None) -> None:
        super().__init__(_("请求太大（最多 %(n)d 字节）") % {"n": limit or API_MAX_BODY})


def body_limit(path: str) -> int:
    """The most bytes a request to this path may send (pages and API alike)."""
    return BACKUP_MAX_BODY if path in (BACKUP_PATH, BACKUP_PATH.rstrip("/")) else API_MAX_BODY  # ApiSlashMiddleware


def too_large_message(limit: int) -> str:
    return _("请求太大（最多 %(n)d 字节）") % {"n": limit}


MAX_JSON_DEPTH = 32

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped), without recursion."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def bad_text_path(value: Any, path: str = "", *, nul: bool = True) -> str | None:
    """The path of the first string (key or value) holding a lone surrogate or (with `nul`) NUL, else None."""
    def bad(text: str) -> bool:
        return (nul and "\x00" in text) or not _encodable(text)

    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if bad(item):
                return where
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{where}.{key}" if where else str(key)
                if bad(key):
                    return where
                stack.append((child, child_path))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(item))
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a size limit, a depth limit and text that can be stored."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        limit = body_limit(request.path) if request is not None else API_MAX_BODY
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(limit)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            read_json(raw)  # raises, saying where
        if json_depth(text) > MAX_JSON_DEPTH:
            raise ParseError(_("JSON 嵌套太深（最多 %(n)d 层）") % {"n": MAX_JSON_DEPTH})
        data = read_json(text)  # as `score_hand FILE` reads it (scoring.json_text)
        # A view that stores nothing (the calculator) leaves such text to the engine, which says where it is and
        # what else is wrong, as `score_hand FILE` does (it echoes nothing unescaped: scoring.messages.echo).
        stores_nothing = getattr((parser_context or {}).get("view"), "stores_nothing", False)
        where = None if stores_nothing else bad_text_path(data)
        if where is not None:
            raise ValidationError({where: [_("含有无法保存的字符（孤立代理项或 NUL）")]})
        return data


class AnyTypeJSONParser(BoundedJSONParser):
    """The calculator's body read as JSON whatever its Content-Type says (`curl -d` sends a form's type): HAND_FORMAT.md
    gives /api/score/ two answers, 200 with the result and 400 with the errors, not a 415."""

    media_type = "*/*"


class BodyLimitMiddleware:
    """413 with the errors document for requests whose declared body is too large for their path."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = body_limit(request.path)
        if length > limit:
            return JsonResponse({"errors": [{"path": "", "message": too_large_message(limit)}]}, status=413,
                                json_dumps_params={"ensure_ascii": False})
        return self.get_response(request)


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[..., Awaitable[None]]  # (scope, receive, send); Django's and Channels' own types differ


def _language(scope: Scope, headers: dict[bytes, bytes]) -> str:
    """The request's language as LocaleMiddleware would choose it: the language switch's cookie, then (for the
    API: pages ignore it, ledger.web.middleware) Accept-Language, else Chinese."""
    choices: list[str] = []
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    if settings.LANGUAGE_COOKIE_NAME in cookies:
        choices.append(cookies[settings.LANGUAGE_COOKIE_NAME])
    if str(scope.get("path", "")).startswith("/api/"):
        choices += acceptable_languages(headers.get(b"accept-language", b"").decode("latin-1"))
    for code in choices:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


async def _refuse(scope: Scope, headers: dict[bytes, bytes], send: Send, limit: int) -> None:
    language = _language(scope, headers)
    with translation.override(language):
        body = json.dumps({"errors": [{"path": "", "message": too_large_message(limit)}]},
                          ensure_ascii=False, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"content-language", language.encode()),
                            (b"connection", b"close")]})  # the rest of the body is never read
    await send({"type": "http.response.body", "body": body})


class BodyLimitASGI:
    """Refuse a body past its path's limit while it arrives (413), and give a chunked body its Content-Length."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        limit = body_limit(str(scope.get("path", "")))
        declared = headers.get(b"content-length")
        if declared is None:
            await self._chunked(scope, headers, receive, send, limit)
            return
        try:
            length = int(declared)
        except ValueError:
            length = -1
        if length > limit:
            await _refuse(scope, headers, send, limit)
            return
        # Declared within the limit: the server holds the client to it; count anyway and stop at the limit.
        received, over, started = 0, False, False

        async def counted() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    return {"type": "http.disconnect"}  # Django stops reading and answers nothing
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, watched)
        if over and not started:
            await _refuse(scope, headers, send, limit)

    async def _chunked(self, scope: Scope, headers: dict[bytes, bytes], receive: Receive, send: Send,
                       limit: int) -> None:
        """Read a body of unknown length up to the limit, then hand it on whole with its length."""
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(scope, headers, send, limit)
                return
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(parts)
        if body:
            kept = [(k, v) for k, v in scope.get("headers", []) if k.lower() not in (b"content-length",
                                                                                  b"transfer-encoding")]
            scope = {**scope, "headers": [*kept, (b"content-length", str(len(body)).encode())]}
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
