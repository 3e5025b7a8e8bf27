"""Shared fixtures: users with different rights, their group, a night of four players (played, recorded), a cache
of the test's own, the API schema."""
import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from ledger.services import nights as services

from tests.factories import api_client  # noqa: F401 (imported from here by older tests)
from tests.hand_helpers import w, win


# What a rerun may follow: a wait that timed out (Playwright), or SQLite's shared in-memory test database refusing a
# request of the page's while the test's own thread wrote to it. An assertion (wrong money, a hand lost) fails at
# once: a bug that shows only now and then must not pass on its second try.
RERUN_ONLY = ["TimeoutError", "database table is locked"]


def pytest_collection_modifyitems(config, items):
    """A browser test that times out is run once more (pytest-rerunfailures): Chromium beside a live server on the
    shared SQLite test database, on a loaded machine, can miss a moment once in a few thousand runs (the fresh-clone
    CI of stop 37: a preview awaited for 30 s). A second failure fails the run. scripts/test shows every rerun with
    its traceback and what the page said (--rerun-show-tracebacks; tests.browser_helpers.page_diary)."""
    if not config.pluginmanager.hasplugin("rerunfailures"):
        return
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=RERUN_ONLY))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the test (item.phase_call …), for fixtures that say more when a test failed; a failed
    browser test's report carries what its page said (console, failed requests), kept with a rerun's traceback."""
    report = yield
    setattr(item, f"phase_{report.when}", report)
    diary = getattr(item, "page_diary", None)
    if report.when == "call" and report.failed and diary and hasattr(report.longrepr, "addsection"):
        report.longrepr.addsection("what the page said", "\n".join(diary))
    return report


@pytest.fixture
def owner(db):
    return get_user_model().objects.create_user("owner", password="pw-owner")


@pytest.fixture
def viewer(db):
    return get_user_model().objects.create_user("viewer", password="pw-viewer")


@pytest.fixture
def keeper(db):
    return get_user_model().objects.create_user("keeper", password="pw-keeper")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider", password="pw-outsider")


@pytest.fixture
def group(owner):
    """The owner's own group (圈子): the players of the shared night belong to it."""
    return services.personal_group(owner)


@pytest.fixture
def players(group):
    return [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]


@pytest.fixture
def night(owner, viewer, keeper, players):
    return services.night_create(owner=owner, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal("2"),
                                 players=players, first_dealer=0, members=[viewer], scorekeepers=[keeper])


@pytest.fixture
def played(night, owner):
    """The night with the demo's first three hands (a file that needs other hands defines its own `played`)."""
    from ledger.management.commands.demo import DEMO_HANDS
    for entry in DEMO_HANDS[:3]:
        services.hand_record(night=night, by=owner, entry=entry)
    return night


@pytest.fixture
def recorded(night, owner):
    """The night with one hand: 李四 self-draws 清一色 with a root, then the wall runs out."""
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True})
    return night


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    """The API's OpenAPI schema, built once per module."""
    from drf_spectacular.generators import SchemaGenerator
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


@pytest.fixture
def own_cache(settings):
    """A default cache of this test's own, in memory, emptied (rate-limit counts): never a shared Redis. (Kept
    statistics and pieces are in the "pieces" cache, emptied between tests by no_kept_pieces.)"""
    settings.CACHES = {**settings.CACHES,
                       "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}
    from django.core.cache import cache
    cache.clear()


@pytest.fixture
def keep_the_test_transactions_connection(monkeypatch):
    """Consumers close stale connections around each query; in a test transaction that would drop the test's own
    connection (PostgreSQL). Django's test case disconnects the same clean-up from its request signals."""
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Password hashing is deliberately slow; tests need none of that."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def chinese_between_tests():
    """A request in English leaves English active in the thread (LocaleMiddleware); start each test afresh."""
    yield
    from django.utils import translation
    translation.deactivate()


@pytest.fixture(autouse=True)
def no_kept_pieces():
    """The "pieces" cache (rendered cards, audit rows, group page bodies) lives in the process: start each test
    without what another test's rows left (SQLite hands out a rolled-back test's ids again)."""
    from django.core.cache import caches
    caches["pieces"].clear()
