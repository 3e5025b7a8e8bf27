"""Settling a night: the fewest transfers, exact up to EXACT_LIMIT players, greedy beyond (and says so), deterministic."""
import itertools
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import EXACT_LIMIT, ScoringError, settle_night, settle_night_plan


def brute_force_minimum(amounts):
    """n minus the largest number of zero-sum groups, by trying every assignment of groups."""
    n = len(amounts)
    best = 0
    for labels in itertools.product(range(n), repeat=n):
        sums = {}
        for label, a in zip(labels, amounts):
            sums[label] = sums.get(label, 0) + a
        if all(v == 0 for v in sums.values()):
            best = max(best, len(sums))
    return n - best


def check_settles(nets, transfers):
    balance = {k: Decimal(v) for k, v in nets.items()}
    for t in transfers:
        assert t.amount > 0
        balance[t.payer] += t.amount
        balance[t.payee] -= t.amount
    assert all(v == 0 for v in balance.values())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-20, 20).filter(bool), min_size=1, max_size=5))
def test_it_finds_the_exact_minimum(values):
    values = values + [-sum(values)]
    nets = {f"p{i}": v for i, v in enumerate(values)}
    transfers = settle_night(nets)
    check_settles(nets, transfers)
    assert len(transfers) == brute_force_minimum([v for v in values if v])


def test_players_up_to_the_exact_limit_get_a_proven_minimum():
    rng = random.Random(7)
    groups = [[rng.randint(1, 900) for _ in range(size - 1)] for size in (4, 4, 3, 3)]
    values = []
    for g in groups:
        values += g + [-sum(g)]
    rng.shuffle(values)
    assert len(values) == EXACT_LIMIT
    nets = {f"玩家{i}": Decimal(v) / 4 for i, v in enumerate(values)}
    plan = settle_night_plan(nets)
    check_settles(nets, plan.transfers)
    assert (plan.method, len(plan.transfers), plan.lower_bound) == ("exact", EXACT_LIMIT - 4, EXACT_LIMIT - 4)
    assert settle_night(nets) == plan.transfers


def test_beyond_the_exact_limit_the_plan_says_it_is_greedy_and_how_far_it_may_be():
    rng = random.Random(5)
    values = [rng.randint(-1000, 1000) or 1 for _ in range(EXACT_LIMIT + 5)]
    values.append(-sum(values))
    plan = settle_night_plan({i: v for i, v in enumerate(values)})
    n = len(values)
    assert plan.method == "greedy"
    assert plan.lower_bound == n - n // 3 <= len(plan.transfers) <= n - 1


def test_beyond_the_exact_limit_a_greedy_plan_has_at_most_n_minus_one_transfers():
    rng = random.Random(3)
    values = [rng.randint(-1000, 1000) for _ in range(40)]
    values.append(-sum(values))
    nets = {i: v for i, v in enumerate(values)}
    transfers = settle_night(nets)
    check_settles(nets, transfers)
    assert len(transfers) <= len(values) - 1
    assert transfers == settle_night(nets)


def test_nets_must_sum_to_zero():
    with pytest.raises(ScoringError):
        settle_night({"a": 1, "b": 0})


def test_exact_opposites_pay_each_other():
    transfers = settle_night({"张三": "-8", "李四": "8", "王五": "3", "赵六": "-3"})
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [("张三", "李四", 8), ("赵六", "王五", 3)]
