"""Run code in a fresh Python process from the project root: how the tests of numba's compile
speedups see numba as a game's first import does, and compile the same kernels with a speedup on
and off."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_fresh(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -c code args...`` in the project root; its output and error text are captured."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=str(ROOT), env=env)


def compile_on_and_off(tmp_path: Path, kernels: str, child: str) -> tuple[dict[str, str], dict[str, dict[str, bytes]]]:
    """Run ``child`` (argv: ``on``/``off`` and a folder holding ``kernels`` as
    ``small_kernels.py``) once per mode, each with an empty numba cache of its own; returns each
    mode's standard output and the bytes of its cache's index and object files by name."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "small_kernels.py").write_text(textwrap.dedent(kernels))
    outputs, caches = {}, {}
    for mode in ("on", "off"):
        cache = tmp_path / f"cache-{mode}"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONHASHSEED="0", PYTHONPATH=str(ROOT))
        run = run_fresh(child, mode, str(tmp_path / "src"), env=env)
        assert run.returncode == 0, run.stderr[-3000:]
        outputs[mode] = run.stdout
        caches[mode] = {str(p.relative_to(cache)): p.read_bytes() for p in sorted(cache.rglob("*"))
                        if p.suffix in (".nbi", ".nbc")}
    return outputs, caches
