"""The shared counters every rate limit counts with (ledger/web/counters.py): counts, windows, expiry (issue 16)."""
import os
import uuid

import pytest

from ledger.web import counters

BACKENDS = ["database", pytest.param("redis", marks=pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                                                       reason="the Redis counters need REDIS_URL"))]


@pytest.fixture(params=BACKENDS)
def store(request, settings, db):
    if request.param == "redis":
        settings.REDIS_URL = os.environ["REDIS_URL"]
        settings.REDIS_PREFIX = f"test-{uuid.uuid4().hex[:12]}"
    else:
        settings.REDIS_URL = ""
    yield request.param
    counters.reset_all()


def test_a_hit_answers_the_count_and_take_back_and_reset_undo_it(store):
    assert [counters.hit("k", 60) for _ in range(3)] == [1, 2, 3]
    assert counters.get("k") == 3 and counters.get("other") == 0
    counters.take_back("k")
    assert counters.get("k") == 2
    counters.reset("k")
    assert counters.get("k") == 0
    counters.take_back("k")  # nothing to take back: no count below zero, nor a count that never expires
    assert counters.hit("k", 60) == 1


def test_a_fixed_window_ends_at_its_first_hit_plus_its_length_and_a_sliding_one_at_its_last(monkeypatch, store):
    if store == "redis":
        pytest.skip("Redis keeps time itself (EXPIRE); the database store is given the time")
    now = [1_000_000.0]
    monkeypatch.setattr(counters.time, "time", lambda: now[0])
    assert counters.hit("fixed", 10) == 1 and counters.hit("sliding", 10, sliding=True) == 1
    now[0] += 8
    assert counters.hit("fixed", 10) == 2 and counters.hit("sliding", 10, sliding=True) == 2
    now[0] += 8  # 16 s after the first hit, 8 s after the last
    assert counters.get("fixed") == 0 and counters.get("sliding") == 2
    assert counters.hit("fixed", 10) == 1 and counters.hit("sliding", 10, sliding=True) == 3
    now[0] += 11
    assert counters.hit("sliding", 10, sliding=True) == 1  # expired: it starts again, and forgets the others
    assert list(counters.RateCounter.objects.values_list("key", flat=True)) == ["sliding"]
