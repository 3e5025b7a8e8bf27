"""A night begun after midnight is still the night before: its date and title on the night and evening forms (a
walk began a night at 05:09 on a Tuesday and was offered 周二夜 on Tuesday's date)."""
import datetime as dt
from unittest import mock
from zoneinfo import ZoneInfo

import pytest

from ledger.models import night_day

from tests.factories import page_client as client_for

SHANGHAI = ZoneInfo("Asia/Shanghai")
MONDAY = dt.date(2026, 12, 7)


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=SHANGHAI)


@pytest.mark.parametrize("now, day", [
    (at(MONDAY, 20), MONDAY),
    (at(MONDAY, 23, 59), MONDAY),
    (at(MONDAY + dt.timedelta(days=1), 0, 30), MONDAY),  # Monday's second table
    (at(MONDAY + dt.timedelta(days=1), 5, 9), MONDAY),
    (at(MONDAY + dt.timedelta(days=1), 6), MONDAY + dt.timedelta(days=1)),  # a Tuesday afternoon game begins
    (at(MONDAY, 3).astimezone(dt.timezone.utc), MONDAY - dt.timedelta(days=1)),  # read in the site's time zone
])
def test_the_day_a_night_is_played_on_begins_at_six_in_the_morning(now, day):
    assert night_day(now) == day


@pytest.mark.parametrize("now, title, date", [
    (at(MONDAY + dt.timedelta(days=1), 5, 9), "周一夜", "2026-12-07"),
    (at(MONDAY + dt.timedelta(days=1), 6, 1), "周二夜", "2026-12-08"),
])
def test_the_night_form_offers_the_night_it_still_is(owner, group, now, title, date):
    with mock.patch("django.utils.timezone.now", return_value=now):
        form = client_for(owner).get("/nights/new/").content.decode()
    assert f'value="{title}"' in form and f'value="{date}"' in form


def test_the_evening_form_offers_the_night_it_still_is(owner, group):
    with mock.patch("django.utils.timezone.now", return_value=at(MONDAY + dt.timedelta(days=1), 1)):
        form = client_for(owner).get(f"/evenings/new/?group={group.pk}").content.decode()
    assert 'value="周一麻将局"' in form and 'value="2026-12-07"' in form
