"""What every renderer shares: its contract, file names, and rendering in a given language."""
from __future__ import annotations

import re
from urllib.parse import quote
from typing import Callable

from ledger.models import Night
from ledger.reports.context import NightReport

#: pretix's contract: render(report, lang) -> (filename, content_type, bytes).
Rendered = tuple[str, str, bytes]
Renderer = Callable[[NightReport, str], Rendered]

LANGUAGES = {"zh": "zh-hans", "en": "en"}


def language(lang: str | None) -> str:
    """The Django language code of a report language ("zh" by default, or "en")."""
    return LANGUAGES.get((lang or "zh").lower()[:2], "zh-hans")


def file_stem(night: Night) -> str:
    """What the file is: its date and title, e.g. 2026-11-30-周五夜场 (safe on every file system)."""
    title = re.sub(r"[^\w]+", "-", night.title, flags=re.UNICODE).strip("-_") or "night"
    return f"{night.date:%Y-%m-%d}-{title}"


def content_disposition(filename: str, *, inline: bool = False) -> str:
    """RFC 6266/5987: an ASCII fallback name, then the real (UTF-8) name for clients that read it."""
    stem, dot, ext = filename.rpartition(".")
    fallback = re.sub(r"-{2,}", "-", re.sub(r"[^A-Za-z0-9._-]+", "-", stem)).strip("-") or "night"
    date, rest = fallback[:10], fallback[11:]  # file_stem: the night's date, its title, then -hands / -payments
    if date == stem[:10] and rest in ("", "hands", "payments"):  # nothing of the title survived
        fallback = "-".join(p for p in (date, "night", rest) if p)
    return (f"{'inline' if inline else 'attachment'}; filename=\"{fallback}{dot}{ext}\"; "
            f"filename*=UTF-8''{quote(filename, safe='')}")
