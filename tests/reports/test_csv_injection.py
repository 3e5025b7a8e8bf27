"""CSV formula injection (issue 16, item 7): a player name or a reason a spreadsheet would run as a formula is
written with a leading ' (OWASP); amounts such as -5 stay numbers."""
import csv
import datetime as dt
import io
from decimal import Decimal

import pytest

from ledger.services import nights as services
from ledger.management.commands.demo import DEMO_HANDS
from ledger.reports import night_report, render
from ledger.reports.spreadsheet import cell

HOSTILE = ['=HYPERLINK("http://evil.example","点我")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
           "@SUM(1+1)*cmd|' /C calc'!A0"]


@pytest.mark.parametrize("text", [*HOSTILE, "\t=1+1", "\r=1+1", "=1", "-", "+", "@"])
def test_a_cell_that_starts_like_a_formula_is_made_text(text):
    assert cell(text) == "'" + text


@pytest.mark.parametrize("text", ["-5", "+8", "0", "0.5", "-19.25", "12", "张三", "补记 = 1", "a-b", ""])
def test_numbers_and_ordinary_text_are_left_as_they_are(text):
    assert cell(text) == text


@pytest.fixture
def hostile_night(owner, group):
    players = [services.player_get_or_create(name=n, group=group) for n in HOSTILE]
    night = services.night_create(owner=owner, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal("2"),
                                  players=players, first_dealer=0)
    for entry in DEMO_HANDS[:3]:
        services.hand_record(night=night, by=owner, entry=entry)
    services.hand_void(hand=night.hands.get(number=2), by=owner, reason="=HYPERLINK(\"http://evil.example\")")
    return night


def rows_of(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


@pytest.mark.parametrize("fmt", ["hands.csv", "payments.csv"])
def test_no_cell_of_either_file_starts_a_formula_but_amounts_stay_numbers(hostile_night, fmt):
    rows = rows_of(render(fmt, night_report(hostile_night), "zh")[2])
    cells = [c for row in rows[1:] for c in row]
    dangerous = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert all(Decimal(c) is not None for c in dangerous)  # only signed amounts (hands.csv's nets) start so
    assert any(c == "'" + HOSTILE[0] for c in cells) and any(c == "'" + HOSTILE[1] for c in cells)


def test_the_void_reason_is_made_text_and_the_nets_stay_numbers(hostile_night):
    rows = rows_of(render("hands.csv", night_report(hostile_night), "en")[2])
    assert rows[2][3] == "'=HYPERLINK(\"http://evil.example\")"
    nets = [Decimal(x) for x in rows[1][9:13]]
    assert sum(nets) == 0 and any(n < 0 for n in nets)
