"""Charts are static SVG: pygal's inline config script is taken out (the pages' CSP would block it)."""
from decimal import Decimal

from ledger.reports.chart import running_totals_svg
from ledger.reports.context import Series


def test_the_chart_carries_no_script_and_still_draws_its_lines():
    svg = running_totals_svg([Series("张三", (Decimal(0), Decimal(4), Decimal(-2))), Series("李四", (0, -4, 2))])
    assert "<script" not in svg and "window.pygal" not in svg
    assert svg.startswith("<svg") and svg.count('class="line reactive') >= 2


def test_every_hand_number_the_axis_names_is_labelled():
    """Up to ten hands every hand is named on the x axis, then round steps (pygal's major-label count hid some: a
    night of nine hands read 0 1 2 3 _ 5 6 7 _ 9)."""
    import re
    from decimal import Decimal

    from ledger.reports.context import Series

    def labels(hands):
        svg = running_totals_svg([Series(name="甲", points=tuple(Decimal(i) for i in range(hands + 1)))])
        start = svg.index('class="axis x"')
        end = svg.find('class="axis y', start)
        axis = svg[start:end if end > 0 else len(svg)]
        return [int(t) for t in re.findall(r">(\d+)</text>", axis)]

    assert labels(9) == list(range(10)) and labels(10) == list(range(11))
    assert labels(12) == list(range(0, 13, 2)) and labels(30) == list(range(0, 31, 5))
