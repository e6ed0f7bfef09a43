"""Tests of navmesh.warmup: warm_up() and the one-time compile notice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from navmesh.errors import InvalidOptionError
from navmesh.warmup import COMPILE_NOTICE, PARTS, warm_up

ROOT = Path(__file__).resolve().parents[2]


def test_warm_up_reports_each_part_and_progress():
    calls = []
    seconds = warm_up(["grid", "waypoints"], progress=lambda part, done, total: calls.append((part, done, total)))
    assert list(seconds) == ["grid", "waypoints"]
    assert all(s >= 0 for s in seconds.values())
    assert calls == [("grid", 0, 2), ("waypoints", 1, 2), ("", 2, 2)]


def test_warm_up_logs_progress(caplog):
    with caplog.at_level("INFO", logger="navmesh"):
        warm_up("grid")
    messages = [r.getMessage() for r in caplog.records if r.name == "navmesh"]
    assert messages[0] == "navmesh warm-up: grid (1 of 1)"
    assert messages[-1].startswith("navmesh warm-up done in ")


@pytest.mark.parametrize("parts", [["roads"], [], ["grid", 3]])
def test_unknown_parts(parts):
    with pytest.raises(InvalidOptionError, match=r"parts=.*expected one or more of \['waypoints', 'grid', 'jps', 'flowfield', 'steering', 'mesh'\]"):
        warm_up(parts)


def test_progress_must_be_callable():
    with pytest.raises(InvalidOptionError, match="progress"):
        warm_up(["grid"], progress="yes")


def test_parts_constant():
    assert PARTS == ("waypoints", "grid", "jps", "flowfield", "steering", "mesh")


CHILD = """
import numpy as np
import navmesh.warmup
from navmesh._kernels.grid import cell_centers
for _ in range(2):
    cell_centers(np.arange(3, dtype=np.int64), 2, 2, np.array([0.0, 0.0, 1.0]))
"""


def test_compile_notice_once_on_a_real_compile_and_not_on_a_cache_load(tmp_path):
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    cold = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.count(COMPILE_NOTICE) == 1
    warm = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=300)
    assert warm.returncode == 0, warm.stderr
    assert COMPILE_NOTICE not in warm.stderr
