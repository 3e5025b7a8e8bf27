"""Charts are static SVG: pygal's inline config script is taken out (the pages' CSP would block it)."""
from decimal import Decimal

from ledger.reports.chart import running_totals_svg
from ledger.reports.context import Series


def test_the_chart_carries_no_script_and_still_draws_its_lines():
    svg = running_totals_svg([Series("张三", (Decimal(0), Decimal(4), Decimal(-2))), Series("李四", (0, -4, 2))])
    assert "<script" not in svg and "window.pygal" not in svg
    assert svg.startswith("<svg") and svg.count('class="line reactive') >= 2
