"""The running-totals chart of a night: one line per player, drawn by pygal as SVG for the PDF.

pygal, not matplotlib: both draw 1,000 hands well inside the report's budget, but pygal imports in
~0.1 s (matplotlib ~1.2 s on these machines) and brings no numpy; see bench/README.md.
"""
from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Callable

import pygal
from pygal.style import Style

from ledger.reports.context import Series
from ledger.reports.palette import FONT, colour

SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)


def running_totals_svg(running: list[Series], *, width: int = 800, height: int = 420,
                       x_label: Callable[[int], str] | None = None, ticks: int = 8) -> str:
    """An SVG line chart of each player's running total, hand by hand (x = hand number).

    A player's history draws the same chart night by night: ``x_label`` names point x (a date, not a number)
    and ``ticks`` caps the labels on the x axis for a narrow chart.
    """
    style = Style(background="white", plot_background="white", foreground="#333", foreground_strong="#333",
                  foreground_subtle="#ddd", colors=tuple(colour(i) for i in range(len(running))), font_family=FONT,
                  label_font_size=14, major_label_font_size=14, stroke_width=3, guide_stroke_color="#e5e5e5",
                  major_guide_stroke_color="#999")
    hands = max((len(s.points) - 1 for s in running), default=0)
    labels = _ticks(hands, ticks)
    # The y axis names round amounts, as many as the height holds (pygal's own choice at 160 of 800 wrote thirteen
    # labels over each other): about one for every 32 units of height, at least three.
    amounts = _amount_ticks([v for s in running for v in s.points], max(3, height // 32))
    chart = pygal.XY(width=width, height=height, style=style, show_dots=hands <= 30, dots_size=3, show_legend=False,
                     js=[], disable_xml_declaration=True, explicit_size=False, margin=12, spacing=8,
                     x_labels_major_count=len(labels), show_minor_x_labels=False, y_labels_major_every=None,
                     show_x_guides=False, show_y_guides=True, include_x_axis=True, truncate_label=-1,
                     xrange=(0, max(hands, 1)), range=(amounts[0], amounts[-1]), stroke_style={"width": 3, "linejoin": "round"},
                     **({"x_value_formatter": x_label} if x_label else {}))
    chart.x_labels = labels
    chart.y_labels = amounts
    for series in running:
        chart.add(series.name, [(i, float(v)) for i, v in enumerate(series.points)])
    svg: str = chart.render(is_unicode=True)
    # pygal always writes its config as an inline <script>: the pages' CSP blocks it (a console error on every
    # page with a chart) and a PDF has no use for it. The chart is static: take it out.
    return SCRIPT.sub("", svg)


def _ticks(hands: int, most: int = 8) -> list[int]:
    """About ``most`` round hand numbers from 0 to the last hand."""
    if hands <= most + 2:
        return list(range(0, hands + 1))
    step = next(s for s in (2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if hands / s <= most)
    return list(range(0, hands + 1, step))


def _amount_ticks(values: list[Decimal | int], most: int) -> list[int]:
    """Round amounts from below the least value to above the most (0 always among them), in steps of 1, 2 or 5
    times a power of ten, at most ``most`` + 1 of them."""
    low, high = min([0, *values]), max([0, *values])
    step = 1
    while True:
        for factor in (1, 2, 5):
            size = step * factor
            first, last = math.floor(low / size), math.ceil(high / size)
            if last - first <= most:
                return [size * i for i in range(first, last + 1)] if last > first else [0, size]
        step *= 10
