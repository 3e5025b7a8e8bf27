"""`manage.py score_hand FILE`: score one hand record (HAND_FORMAT.md) from a file or standard input."""
from __future__ import annotations

import errno
import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring import Problem, ScoringError, read_json, score_hand

#: What the system said of a file it could not open, in Chinese (others are passed on as the system wrote them).
_OS_ZH = {errno.ENOENT: "没有这个文件", errno.EACCES: "没有读取权限", errno.EISDIR: "这是一个文件夹，不是文件"}


def unreadable(name: str, exc: OSError) -> Problem:
    detail = exc.strerror or str(exc)
    return Problem("", "file_unreadable", {"name": name, "detail": detail,
                                           "detail_zh": _OS_ZH.get(exc.errno or 0, detail)})


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # a calculator: no database, nothing to check
    help = "Score a hand record (JSON, HAND_FORMAT.md): the result on stdout (exit 0) or the errors (exit 2)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the hand record, or - for standard input")
        parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of error messages")

    def handle(self, *args: Any, **options: Any) -> None:
        lang = options["lang"]
        try:
            if options["file"] == "-":
                text = sys.stdin.buffer.read()
            else:
                with open(options["file"], "rb") as file:
                    text = file.read()
        except OSError as exc:
            self._fail(ScoringError([unreadable(options["file"], exc)]), lang)
        try:
            result = score_hand(read_json(text))  # read as the API reads a body (scoring.json_text)
        except ScoringError as exc:
            self._fail(exc, lang)
        self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))

    def _fail(self, error: ScoringError, lang: str) -> None:
        self.stdout.write(json.dumps(error.as_dict(lang), ensure_ascii=False, indent=2))
        sys.exit(2)
