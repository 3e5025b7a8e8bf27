"""The hand record's JSON text, read alike by `score_hand FILE` and the API (HAND_FORMAT.md: "the same document").

Strict where Python's `json` is lenient: NaN and Infinity are not JSON numbers, and a key twice in one object is
refused (the last one would silently win, and a strict record never ignores what was written). Errors say where
(line and column) in the request's language.
"""
from __future__ import annotations

import json
from typing import Any

from .messages import Problem, ScoringError

#: Python's own words for what it expected, in Chinese (others are passed on as Python wrote them).
_DETAILS_ZH = {
    "Expecting value": "这里应为一个值",
    "Expecting property name enclosed in double quotes": "这里应为双引号括起的键名",
    "Expecting ':' delimiter": "这里应为冒号 :",
    "Expecting ',' delimiter": "这里应为逗号 ,",
    "Unterminated string starting at": "字符串没有结束",
    "Invalid control character at": "字符串里有控制字符",
    "Invalid \\escape": "无效的转义 \\",
    "Invalid \\uXXXX escape": "无效的 \\uXXXX 转义",
    "Extra data": "JSON 之后还有多余内容",
}


class _Refused(ValueError):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


def _no_constant(name: str) -> Any:
    raise _Refused(Problem("", "json_not_number", {"name": name}))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Refused(Problem("", "json_duplicate_key", {"name": key}))
        found[key] = value
    return found


def read_json(data: str | bytes) -> Any:
    """The JSON value of a text (bytes: UTF-8); raise ScoringError with one problem at path "" if it is none."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ScoringError([Problem("", "json_not_utf8", {"pos": exc.start + 1})]) from exc
    data = data.removeprefix("\ufeff")  # a byte order mark (Windows Notepad writes one): RFC 8259 lets a parser ignore it
    if not data.strip(" \t\r\n"):  # JSON's own whitespace only
        raise ScoringError([Problem("", "json_empty")])
    try:
        return json.loads(data, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except _Refused as exc:
        raise ScoringError([exc.problem]) from exc
    except json.JSONDecodeError as exc:
        raise ScoringError([Problem("", "json_at", {"line": exc.lineno, "column": exc.colno, "detail": exc.msg,
                                                    "detail_zh": _DETAILS_ZH.get(exc.msg, exc.msg)})]) from exc
    except (ValueError, RecursionError) as exc:  # an integer past Python's 4,300 digits; nesting too deep
        raise ScoringError([Problem("", "bad_json", {"detail": str(exc)})]) from exc
