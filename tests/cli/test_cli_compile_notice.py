"""The command line says in one line that it compiles, once, and nothing when the cache is warm."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "tests" / "data" / "movingai" / "empty-8-8.map"


def test_one_stderr_line_while_compiling_and_none_from_the_cache(tmp_path: Path) -> None:
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("nothing compiles with NUMBA_DISABLE_JIT=1")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "navmesh.cli", "path", str(MAP), "0.5", "0.5", "6.5", "5.5", "--algorithm", "astar"]
    cold = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
    assert cold.returncode == 0, cold.stderr
    lines = cold.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("navmesh: compiling the search kernels once")
    warm = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    assert warm.stderr == ""
    assert warm.stdout == cold.stdout and warm.stdout.strip()
