"""A player's net over time: one line, night by night, drawn as a small SVG by a template
(templates/stats/_net_chart.svg), sized for a phone.

Not by pygal, as the night report's chart is (ledger.reports.chart): the history page draws this chart on its first
view after every change of the group, and pygal's set-up and render took 11 of the page's 45 ms under cProfile
(about 4 ms of its 17 unprofiled; bench/README.md, issue 17). One line with its dots, a zero line, a few round values
up the side and a few dates along the bottom are plain geometry, done here; the look (font, colour) is the report
chart's (ledger.reports.palette), and this module does not import pygal (an import-linter contract).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from ledger.reports.palette import FONT, colour
from ledger.selectors.stats import NightPoint

#: Sized for a phone: drawn at 360 units wide, it is shown at about its own size, so its text stays legible.
WIDTH, HEIGHT, TICKS = 360, 230, 4
#: The plot inside the chart: room on the right for the last date, above for the top value, below for the dates;
#: on the left, room for the widest value (DIGIT units a character, at the font's 14 units).
RIGHT, TOP, BOTTOM, DIGIT = 24, 12, 30, 8.5
#: Dots on the line for up to this many nights (more would crowd it).
DOTS_UP_TO = 30


@dataclass(frozen=True)
class Tick:
    at: str  # its place along its axis, in the chart's units
    label: str


def net_over_time_svg(name: str, series: list[NightPoint]) -> str:
    """Cumulative net after each night (x: the nights in order, labelled by date; point 0 is before the first)."""
    start = series[0].cumulative - series[0].net if series else Decimal(0)
    values = [start, *(p.cumulative for p in series)]
    low, high, step = y_scale(min(values), max(values))
    labels = [(v, _number(v)) for v in _steps(low, high, step)]
    left = 12 + round(DIGIT * max(len(text) for _v, text in labels))
    width, height = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM
    last = max(len(values) - 1, 1)

    def x(i: int) -> str:
        return _unit(left + width * i / last)

    def y(value: Decimal) -> str:
        return _unit(TOP + height * float((high - value) / (high - low)))

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    dates = [p.date for p in series]
    same_year = len({d.year for d in dates}) <= 1
    return render_to_string("stats/_net_chart.svg", {
        "label": _("%(name)s的累计输赢") % {"name": name}, "width": WIDTH, "height": HEIGHT, "font": FONT,
        # Blue, not the palette's first red: one player's line read as a loss while it rose (a walk).
        "colour": colour(1), "left": left, "right": WIDTH - RIGHT, "value_at": left - 6,
        "date_at": HEIGHT - BOTTOM + 20, "zero": y(Decimal(0)), "line": " ".join(f"{px},{py}" for px, py in points),
        "dots": points if len(series) <= DOTS_UP_TO else [], "values": [Tick(y(v), text) for v, text in labels],
        "dates": _once_each([Tick(x(i), f"{d.month}/{d.day}" if same_year else f"{d.year % 100:02d}/{d.month}")
                             for i, d in ((i, dates[i - 1]) for i in date_ticks(len(dates)))])})


def _once_each(ticks: list[Tick]) -> list[Tick]:
    """A date said once, at its last night (the latest keeps its date): two tables of one evening were both labelled
    12/8 (a walk)."""
    return [t for k, t in enumerate(ticks) if k == len(ticks) - 1 or t.label != ticks[k + 1].label]


def y_scale(low: Decimal, high: Decimal) -> tuple[Decimal, Decimal, Decimal]:
    """The y axis's range, holding zero and every value and widened to whole steps of a round size (1, 2 or 5
    times a power of ten) such that about TICKS steps span it; and that step."""
    low, high = min(low, Decimal(0)), max(high, Decimal(0))
    if low == high:
        high = low + 1
    raw = (high - low) / TICKS
    power = Decimal(10) ** raw.adjusted()
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return ((low / step).to_integral_value(rounding=ROUND_FLOOR) * step,
            (high / step).to_integral_value(rounding=ROUND_CEILING) * step, step)


def _steps(low: Decimal, high: Decimal, step: Decimal) -> list[Decimal]:
    return [low + step * i for i in range(int((high - low) / step) + 1)]


def date_ticks(nights: int) -> list[int]:
    """Which of the nights 1..nights have their date written under the axis: every one of up to TICKS, else at
    most TICKS evenly spaced, counted back from the last (the latest night is always dated)."""
    if nights <= TICKS:
        return list(range(1, nights + 1))
    every = -(-nights // TICKS)  # rounded up
    return list(range(nights, 0, -every))[::-1]


def _number(value: Decimal) -> str:
    """A value up the side: as written, without trailing zeros (a step may be 0.5)."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _unit(value: float) -> str:
    """A coordinate to a tenth of a unit, as SVG writes it (never localised, unlike a number in a template)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")
