"""The pure helpers of bench/bench_capacity.py (percentiles, a table's schedule, delivery per save); no server."""
import importlib.util
import math
from pathlib import Path

SPEC = importlib.util.spec_from_file_location("bench_capacity", Path(__file__).resolve().parents[2] / "bench" / "bench_capacity.py")
bench = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(bench)


def test_percentile_is_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]  # 1..100, shuffled order does not matter
    assert bench.percentile(list(reversed(values)), 0.5) == 50
    assert bench.percentile(values, 0.95) == 95
    assert bench.percentile(values, 1.0) == 100
    assert bench.percentile(values, 0.0) == 1
    assert bench.percentile([7.0], 0.95) == 7
    assert math.isnan(bench.percentile([], 0.5))


def test_a_table_saves_every_period_from_its_phase_until_the_end():
    assert bench.schedule(30, 120, 12.5) == [12.5, 42.5, 72.5, 102.5]
    assert bench.schedule(30, 120, 0) == [0, 30, 60, 90]
    assert bench.schedule(30, 10, 12) == []


def test_delivery_counts_saves_reaching_every_follower_and_the_delays():
    saves = [{"table": 0, "number": 1, "start": 10.0}, {"table": 1, "number": 1, "start": 20.0}]
    received = {(0, 0, 1): 10.1, (0, 1, 1): 10.2, (1, 0, 1): 20.3, (1, 0, 2): 99.0}
    complete, missed, delays = bench.delivery(saves, received, followers=2)
    assert (complete, missed) == (1, 1)  # table 1's second follower never got hand 1
    assert [round(d, 3) for d in delays] == [0.1, 0.2, 0.3]
