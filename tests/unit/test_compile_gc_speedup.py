"""navmesh._kernels.compile_gc_speedup: rarer garbage collections while numba compiles, same code."""

from __future__ import annotations

import gc
import os
import re
import sys
from pathlib import Path

import numba
import pytest
from numba.core import event

import navmesh._kernels  # noqa: F401  (installs the listener)
from navmesh._kernels import compile_gc_speedup

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fresh_python import compile_on_and_off, run_fresh  # noqa: E402


pytestmark = [
    pytest.mark.skipif("listener" not in compile_gc_speedup._STATE,
                       reason=f"numba {numba.__version__} is left alone"),
    pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles functions"),
]


class _Thresholds(event.Listener):
    """Records the collector's thresholds at the start of each compilation."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int, ...]] = []

    def on_start(self, ev: event.Event) -> None:
        self.seen.append(gc.get_threshold())

    def on_end(self, ev: event.Event) -> None:
        pass


def _compile_fresh() -> list[tuple[int, ...]]:
    """Compile a fresh kernel calling another; the thresholds each compilation started with."""

    @numba.njit
    def inner(x):
        return x * 2 + 1

    @numba.njit
    def outer(x):
        return inner(x) + inner(x + 1.0)

    recorder = _Thresholds()
    with event.install_listener("numba:compile", recorder):
        assert outer(2.0) == 5.0 + 7.0
    return recorder.seen


def test_thresholds_are_raised_while_compiling_and_restored_after() -> None:
    before = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        seen = _compile_fresh()
        assert len(seen) >= 2  # outer and, nested inside it, inner
        assert set(seen) == {compile_gc_speedup.COMPILE_THRESHOLDS}
        assert gc.get_threshold() == (1234, 5, 6)
        assert compile_gc_speedup._STATE["listener"].holders == 0
    finally:
        gc.set_threshold(*before)


def test_thresholds_changed_during_a_compilation_are_kept() -> None:
    before = gc.get_threshold()
    listener = compile_gc_speedup._STATE["listener"]
    try:
        listener.on_start(None)
        assert gc.get_threshold() == compile_gc_speedup.COMPILE_THRESHOLDS
        gc.set_threshold(999, 9, 9)  # someone's own choice, made meanwhile
        listener.on_end(None)
        assert gc.get_threshold() == (999, 9, 9)
    finally:
        gc.set_threshold(*before)


def test_install_is_idempotent() -> None:
    listener = compile_gc_speedup._STATE["listener"]
    assert compile_gc_speedup.install() is True
    assert compile_gc_speedup._STATE["listener"] is listener


def test_an_unchecked_numba_version_is_left_alone() -> None:
    code = (
        "import numba\n"
        "numba.__version__ = '0.99.0'\n"
        "import navmesh._kernels\n"
        "from navmesh._kernels import compile_gc_speedup\n"
        "assert compile_gc_speedup.install() is False\n"
        "assert not compile_gc_speedup._STATE\n"
    )
    run = run_fresh(code)
    assert run.returncode == 0, run.stderr


_KERNELS = '''
import numba, numpy as np

@numba.njit(cache=True)
def rows(n):
    out = []
    for i in range(n):
        out.append(np.arange(i + 1).sum())
    return np.array(out)

@numba.njit(cache=True)
def grid(g, n):
    out = np.empty((n, n), np.int32)
    for i in range(n):
        for j in range(n):
            out[i, j] = g[i % g.shape[0], j % g.shape[1]] + np.int32(abs(i - j))
    return np.sqrt(out.astype(np.float64)).sum() + rows(n).sum()
'''

_CHILD = '''
import gc, sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import navmesh._kernels
from numba.core import event
from navmesh._kernels import compile_gc_speedup
if sys.argv[1] == "off":
    event.unregister("numba:compiler_lock", compile_gc_speedup._STATE["listener"])
counts = []
gc.callbacks.append(lambda phase, info: counts.append(1) if phase == "start" else None)
import small_kernels as k
k.grid(np.arange(6, dtype=np.int32).reshape(2, 3), 4)
for f in (k.rows, k.grid):
    for sig in f.signatures:
        print(f.inspect_llvm(sig))
print("COLLECTIONS", len(counts))
'''


def test_small_kernels_compile_to_the_same_ir_and_object_code_with_and_without(tmp_path) -> None:
    outputs, caches = compile_on_and_off(tmp_path, _KERNELS, _CHILD)
    collections = {mode: int(out.rsplit("COLLECTIONS", 1)[1]) for mode, out in outputs.items()}
    assert collections["on"] * 3 < collections["off"]  # the listener really acted in one run only
    ir = {mode: re.sub(r"0x[0-9a-f]{6,}", "0x?", out.rsplit("COLLECTIONS", 1)[0]) for mode, out in outputs.items()}
    assert ir["on"].count("define ") >= 2 and ir["on"] == ir["off"]
    assert len(caches["on"]) >= 4 and caches["on"].keys() == caches["off"].keys()
    for name, data in caches["on"].items():
        assert re.sub(rb"0x[0-9a-f]{6,}", b"0x?", data) == re.sub(rb"0x[0-9a-f]{6,}", b"0x?", caches["off"][name]), name
