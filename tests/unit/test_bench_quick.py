"""The CI speed check of ``python -m benchmarks --quick``: the regression rule and the timing loop
(issue 21). The rule is checked on hand-made ratios; the timing loop on loops whose times are known."""

from __future__ import annotations

import json
import time

import pytest

bench = pytest.importorskip("benchmarks.__main__")
from benchmarks.timing import machine_line, stable_times  # noqa: E402


def test_a_ratio_more_than_twice_its_baseline_fails_and_one_within_passes():
    lines, failed = bench.compare({"a": 2.1, "b": 1.9, "c": 0.5}, {"a": 1.0, "b": 1.0, "c": 1.0}, 2.0)
    assert failed == ["a"]
    assert "REGRESSED" in lines[0] and "REGRESSED" not in "".join(lines[1:])


def test_missing_peers_are_reported_as_skipped_not_failed():
    lines, failed = bench.compare({"a": 1.0}, {"a": 1.0, "gone": 0.3}, 2.0)
    assert failed == []
    assert any("gone" in line and "skipped" in line for line in lines)


def test_new_ratios_without_a_baseline_never_fail():
    lines, failed = bench.compare({"new": 100.0}, {}, 2.0)
    assert failed == [] and "no baseline" in lines[0]


def test_the_stored_baseline_names_every_quick_ratio():
    stored = json.loads(bench.BASELINE.read_text())["ratios"]
    assert all(value > 0 for value in stored.values())
    assert len(stored) >= len(bench.QUICK)


def test_steady_loops_settle_after_the_minimum_rounds():
    calls = []
    t = stable_times({"x": lambda: calls.append(1)}, min_rounds=5, max_rounds=50, warmup=1,
                     tolerance=10.0)  # any change is "small": settles as soon as allowed
    assert t.settled and t.rounds == 5 and len(calls) == 6


def test_loops_that_keep_changing_stop_at_the_cap():
    delays = iter([0.0, 0.001, 0.004, 0.009, 0.016, 0.025, 0.036, 0.049, 0.064, 0.081])
    t = stable_times({"x": lambda: time.sleep(next(delays))}, min_rounds=4, max_rounds=8, warmup=1,
                     tolerance=0.05)
    assert not t.settled and t.rounds == 8
    assert t.best["x"] < t.median["x"]


def test_the_machine_line_names_the_cpus_and_the_load():
    line = machine_line()
    assert "CPUs" in line and "load" in line
