"""The charts' look, shared by the night report's chart (ledger.reports.chart, drawn by pygal) and a player's net
over time (ledger.reports.stats_chart, drawn by a template): one colour per line, and the font."""
from __future__ import annotations

#: One colour per line, also used by the HTML legend beside the chart (the chart draws no text but numbers).
COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#5d6d7e", "#17a589", "#a04000")
FONT = "Noto Sans CJK SC"


def colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]
