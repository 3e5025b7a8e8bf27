"""The statistics' cache is keyed on the group's generation: kept until a change of the group commits, recomputed
right after it, and untouched by other groups' changes."""
import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from ledger.services import nights as services
from ledger.services import groups
from ledger.models import Group
from ledger.selectors import stats_cache

from tests.hand_helpers import w, win


@pytest.fixture(autouse=True)
def memory_cache(settings):
    """The statistics are kept in the "pieces" memory cache (emptied between tests: conftest.no_kept_pieces); the
    default cache is one of this file's own."""
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                                      "LOCATION": "stats-generations"}}


def fresh(group):
    return Group.objects.get(pk=group.pk)  # as a request reads it


def computed(group, parts=("board",)):
    """How many times `compute` ran for this read (0: served from the cache)."""
    runs = []
    stats_cache.cached(fresh(group), parts, lambda: runs.append(1) or "value")
    return len(runs)


def test_a_result_is_kept_until_the_group_changes_then_computed_again(owner, group, night):
    assert computed(group) == 1
    assert computed(group) == 0
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    assert computed(group) == 1  # the hand's audit entry bumped the group's generation
    assert computed(group) == 0
    groups.player_rename(player=night.seating.get(seat=0).player, by=owner, name="张三丰")
    assert computed(group) == 1  # a change of the group as a whole too


def test_another_groups_change_leaves_the_result_cached(owner, group, night):
    other_owner = get_user_model().objects.create_user("other")
    other = groups.personal_group(other_owner)
    names = [groups.player_get_or_create(name=n, group=other) for n in "甲乙丙丁"]
    elsewhere = services.night_create(owner=other_owner, title="别处", date=dt.date(2026, 11, 28),
                                      base=Decimal(1), players=names, first_dealer=0)
    assert computed(group) == 1
    services.hand_record(night=elsewhere, by=other_owner, entry={"events": [win(None, w(1))], "exhausted": True})
    assert computed(group) == 0


def test_the_leaderboard_shows_a_hand_recorded_after_it_was_cached(owner, group, players, night):
    from ledger.selectors.stats import group_leaderboard
    assert all(s.net == 0 for s in group_leaderboard(fresh(group), None, None))
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    board = {s.name: s.net for s in group_leaderboard(fresh(group), None, None)}
    assert board["李四"] > 0
