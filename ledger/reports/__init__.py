"""Reports of a night: one context (`night_report`), one renderer per format (pretix's contract).

Every renderer is `render(report, lang) -> (filename, content_type, bytes)`; views, API views and
commands only pick one from `RENDERERS` and send or write what it returns.
"""
from __future__ import annotations

from ledger.reports.base import Rendered, Renderer, file_stem, language
from ledger.reports.context import NightReport, night_report


def _renderers() -> dict[str, Renderer]:
    from ledger.reports import backup, pdf, spreadsheet, text

    return {"pdf": pdf.render, "png": pdf.render_png, "txt": text.render, "hands.csv": spreadsheet.render_hands,
            "payments.csv": spreadsheet.render_payments, "json": backup.render}


def render(fmt: str, report: NightReport, lang: str = "zh") -> Rendered:
    """Render the report in a format of FORMATS ("pdf", "png", "txt", "hands.csv", "payments.csv", "json")."""
    return _renderers()[fmt](report, lang)


FORMATS = ("pdf", "png", "txt", "hands.csv", "payments.csv", "json")

__all__ = ["FORMATS", "NightReport", "Rendered", "Renderer", "file_stem", "language", "night_report", "render"]
