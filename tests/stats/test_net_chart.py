"""A player's net over time as drawn on the history page (ledger.reports.stats_chart): every night a point, the line
ending at the player's net, round values up the side that hold zero and every point, a few dates along the bottom."""
import dataclasses
import datetime as dt
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from ledger.reports.stats_chart import DOTS_UP_TO, HEIGHT, TICKS, date_ticks, net_over_time_svg, y_scale
from ledger.selectors.stats import NightPoint


def series(nets, start=dt.date(2026, 3, 1)):
    points, running = [], Decimal(0)
    for i, net in enumerate(nets):
        running += Decimal(net)
        points.append(NightPoint(night_id=i + 1, date=start + dt.timedelta(days=7 * i), title=f"第{i + 1}夜", hands=8,
                                 fee=Decimal(0), net=Decimal(net), cumulative=running))
    return points


def drawn(svg):
    line = re.search(r'<polyline class="line" points="([^"]+)"', svg).group(1)
    points = [tuple(float(v) for v in p.split(",")) for p in line.split()]
    values = {Decimal(label): float(y) for y, label in re.findall(r'<text x="\d+" y="([\d.]+)"[^>]*>(-?[\d.]+)</text>',
                                                                  svg)}
    dates = re.findall(r'<text x="[\d.]+" y="\d+" text-anchor="middle"[^>]*>([^<]+)</text>', svg)
    return points, values, dates


def test_the_line_goes_through_every_night_and_ends_at_the_players_net():
    svg = net_over_time_svg("张三", series([12, -30, 45, 8]))
    points, values, dates = drawn(svg)
    assert len(points) == 5 and points[0][0] < points[1][0] < points[-1][0]
    # The y of 0 and of 40 (a value up the side) place every point: 35 (the net) lies 35/40 of the way.
    zero, forty = values[Decimal(0)], values[Decimal(40)]
    assert points[0][1] == pytest.approx(zero, abs=0.1)
    assert points[-1][1] == pytest.approx(zero + (forty - zero) * 35 / 40, abs=0.1)
    assert dates == ["3/1", "3/8", "3/15", "3/22"]
    assert svg.count("<circle") == 5 and "<script" not in svg and 'aria-label="张三的累计输赢"' in svg


def test_many_nights_are_drawn_without_dots_and_dated_a_few_times_ending_with_the_latest():
    nights = series([(-1) ** i * (i % 9) for i in range(DOTS_UP_TO + 20)], start=dt.date(2025, 11, 1))
    _points, _values, dates = drawn(net_over_time_svg("李四", nights))
    assert "<circle" not in net_over_time_svg("李四", nights)
    last = nights[-1].date
    assert len(dates) <= TICKS and dates[-1] == f"{last.year % 100:02d}/{last.month}"  # two years: year/month


def test_two_tables_of_one_day_are_dated_once():
    """A walk: an evening's two tables were both labelled 12/8."""
    nights = series([5, -3, 2])
    nights[1] = dataclasses.replace(nights[1], date=nights[0].date)
    _points, _values, dates = drawn(net_over_time_svg("张三", nights))
    assert dates == ["3/1", "3/15"]


def test_a_name_is_written_as_text_not_markup():
    assert "<b>" not in net_over_time_svg("<b>王五</b>", series([1]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.decimals(min_value=-10**6, max_value=10**6, places=2), min_size=1, max_size=60))
def test_the_values_up_the_side_hold_zero_and_every_point_in_round_steps(nets):
    cumulative = [sum(nets[:i + 1], Decimal(0)) for i in range(len(nets))]
    low, high, step = y_scale(min([Decimal(0), *cumulative]), max([Decimal(0), *cumulative]))
    assert low <= 0 <= high and low <= min(cumulative) and max(cumulative) <= high
    assert (high - low) / step <= 2 * TICKS + 1 and (low / step) % 1 == 0 and (high / step) % 1 == 0
    assert step.normalize().as_tuple().digits[0] in (1, 2, 5)
    points, _values, _dates = drawn(net_over_time_svg("张三", series(nets)))
    assert all(0 <= y <= HEIGHT for _x, y in points)


@given(st.integers(min_value=1, max_value=400))
def test_the_latest_night_is_always_dated_and_at_most_a_few_are(nights):
    ticks = date_ticks(nights)
    assert ticks[-1] == nights and len(ticks) <= TICKS and ticks == sorted(set(ticks)) and ticks[0] >= 1


def test_the_widest_value_up_the_side_has_room_left_of_the_plot():
    svg = net_over_time_svg("张三", series([1_200_000, -300_000]))
    labels = re.findall(r'<text x="(\d+)" y="[\d.]+" dy="0.35em" text-anchor="end"[^>]*>(-?[\d.]+)</text>', svg)
    widest = max(len(text) for _x, text in labels)
    assert widest >= 7 and all(int(x) >= 8 * widest for x, _text in labels)  # right-aligned at x: room for its digits
    line_start = float(re.search(r'points="([\d.]+),', svg).group(1))
    assert line_start > int(labels[0][0])


def test_the_chart_is_named_in_the_pages_language():
    from django.utils import translation
    with translation.override("en"):
        svg = net_over_time_svg("张三", series([3]))
    assert 'aria-label="张三&#x27;s net over time"' in svg
