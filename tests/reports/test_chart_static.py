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


def test_a_low_chart_names_few_round_amounts_that_hold_every_line():
    """pygal's own y labels at 160 of 800 (page one's lowest chart) were thirteen, written over each other."""
    import re

    def amounts(height):
        svg = running_totals_svg([Series("甲", (Decimal(0), Decimal(-75), Decimal(-30))),
                                  Series("乙", (Decimal(0), Decimal(60), Decimal(33)))], height=height)
        start = svg.index('class="axis y')
        return [int(t) for t in re.findall(r">(-?\d+)</text>", svg[start:svg.index('class="axis x', start)])]

    low, tall = amounts(160), amounts(420)
    assert low == [-100, -50, 0, 50, 100]
    assert tall == [-80, -60, -40, -20, 0, 20, 40, 60]
    assert all(len(amounts(h)) <= h // 32 + 1 for h in (160, 230, 320, 420))
