"""Bounds on API request bodies (issue 9): size (413), JSON depth, text that cannot be stored.

- ``API_MAX_BODY`` bytes at most (64 KiB: a hand with every tile typed is about 2 KiB); larger bodies
  get 413 with the errors document, before anything reads them.
- JSON nested deeper than ``MAX_JSON_DEPTH`` is refused before parsing (Python's parser would recurse).
- Strings with a lone surrogate or NUL (``"\\ud800"``, ``"\\u0000"``) are refused as bad text with their path:
  they cannot be encoded as UTF-8 nor stored by PostgreSQL.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

from scoring import Problem, ScoringError

API_MAX_BODY = 64 * 1024
#: A night's JSON backup may be much larger (about 3 KB a hand with its revisions and audit entries).
BACKUP_MAX_BODY = 16 * 1024 * 1024
BACKUP_PATH = "/api/nights/import/"


def body_limit(path: str) -> int:
    """The most bytes a request to this path may send."""
    return BACKUP_MAX_BODY if path == BACKUP_PATH else API_MAX_BODY
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


def bad_text_path(value: Any, path: str = "") -> str | None:
    """The path of the first string (key or value) holding a lone surrogate or NUL, else None."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or not _encodable(item):
                return where
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{where}.{key}" if where else str(key)
                if "\x00" in key or not _encodable(key):
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


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with a size limit, a depth limit and text that can be stored."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        from .api.errors import PayloadTooLarge
        request = (parser_context or {}).get("request")
        limit = body_limit(request.path) if request is not None else API_MAX_BODY
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(limit)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ScoringError([Problem("", "bad_json", {"detail": str(exc)})]) from exc
        if json_depth(text) > MAX_JSON_DEPTH:
            raise ParseError(_("JSON 嵌套太深（最多 %(n)d 层）") % {"n": MAX_JSON_DEPTH})
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as exc:
            raise ScoringError([Problem("", "bad_json", {"detail": str(exc)})]) from exc
        where = bad_text_path(data)
        if where is not None:
            raise ValidationError({where: [_("含有无法保存的字符（孤立代理项或 NUL）")]})
        return data


class BodyLimitMiddleware:
    """413 with the errors document for API requests whose declared body is too large."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            limit = body_limit(request.path)
            if length > limit:
                message = _("请求太大（最多 %(n)d 字节）") % {"n": limit}
                return JsonResponse({"errors": [{"path": "", "message": message}]}, status=413,
                                    json_dumps_params={"ensure_ascii": False})
        return self.get_response(request)
