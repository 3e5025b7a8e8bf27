"""A player's net over time: the reports' running-totals chart (ledger.reports.chart), drawn night by night."""
from __future__ import annotations

from decimal import Decimal

from ledger.reports.chart import running_totals_svg
from ledger.reports.context import Series
from ledger.selectors.stats import NightPoint

#: Sized for a phone: drawn at 360 units wide, it is shown at about its own size, so its text stays legible.
WIDTH, HEIGHT, TICKS = 360, 230, 4


def net_over_time_svg(name: str, series: list[NightPoint]) -> str:
    """Cumulative net after each night (x: the nights in order, labelled by date; point 0 is before the first)."""
    start = series[0].cumulative - series[0].net if series else Decimal(0)
    points = (start, *(p.cumulative for p in series))
    dates = [p.date for p in series]
    same_year = len({d.year for d in dates}) <= 1

    def label(x: int) -> str:
        index = int(x) - 1
        if not 0 <= index < len(dates):
            return ""
        day = dates[index]
        return f"{day.month}/{day.day}" if same_year else f"{day.year % 100:02d}/{day.month}"

    return running_totals_svg([Series(name, tuple(points))], width=WIDTH, height=HEIGHT, x_label=label, ticks=TICKS)
