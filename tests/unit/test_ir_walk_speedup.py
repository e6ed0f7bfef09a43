"""navmesh._kernels.ir_walk_speedup: the IR walks give numba's own answers, in numba's order."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import byteflow, ir

import navmesh._kernels  # noqa: F401  (installs the faster walks)
from navmesh._kernels import ir_walk_speedup

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fresh_python import run_fresh  # noqa: E402


pytestmark = pytest.mark.skipif(
    not ir_walk_speedup.ORIGINALS, reason=f"numba {numba.__version__} keeps its own IR walks"
)


def _kernels():
    """Fresh (never cached) kernels using loops, tuples, lists, dicts, closures, exceptions,
    generators, keyword arguments, array expressions and parallel loops."""

    @numba.njit
    def pairs(n):
        out = []
        for i in range(n):
            out.append((i, i * 2.0))
        d = {1: 2.0}
        d[n] = float(len(out))
        return out, d[n]

    @numba.njit
    def gen(n):
        for i in range(n):
            yield i * 3

    @numba.njit
    def mixed(a, k=2):
        t = (a[0], a[-1], (a[1], a[2]))
        f = lambda x: x + t[0]  # noqa: E731 - a closure numba inlines
        s = 0.0
        for v in gen(a.shape[0]):
            s += f(v)
        try:
            if s < 0:
                raise ValueError("negative")
        except Exception:  # noqa: BLE001 - the form numba compiles
            s = 0.0
        return s + np.sum(a * 2.0 + 1.0) + t[2][1] * k, pairs(k)[1]

    @numba.njit(parallel=True)
    def par(n):
        a = np.empty(n)
        for i in numba.prange(n):
            a[i] = np.sqrt(i) + (i % 3)
        return a.sum()

    return mixed, par


def test_walks_match_numbas_on_every_value_seen_while_compiling_kernels() -> None:
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("compiles functions")
    own_rec, own_flatten = ir_walk_speedup.ORIGINALS["_rec_list_vars"], ir_walk_speedup.ORIGINALS["_flatten_inst_regs"]
    fast_rec, fast_flatten = ir.Inst._rec_list_vars, byteflow._flatten_inst_regs
    seen = {"rec": 0, "rec_vars": 0, "flatten": 0, "flatten_regs": 0}

    def checking_rec(self, val):
        fast = fast_rec(self, val)
        own = own_rec(self, val)
        assert fast == own and [id(v) for v in fast] == [id(v) for v in own], (self, val)
        seen["rec"] += 1
        seen["rec_vars"] += len(own)
        return fast

    def checking_flatten(iterable):
        items = list(iterable)
        fast = fast_flatten(items)
        own = list(own_flatten(items))
        assert list(fast) == own, items
        seen["flatten"] += 1
        seen["flatten_regs"] += len(own)
        return fast

    ir.Inst._rec_list_vars, byteflow._flatten_inst_regs = checking_rec, checking_flatten
    try:
        mixed, par = _kernels()
        assert mixed(np.arange(5.0)) == (30.0 + 25.0 + 4.0, 2.0)  # sum(3i) + sum(2a + 1) + a[2] * 2
        assert par(9) == pytest.approx(sum(np.sqrt(i) + i % 3 for i in range(9)))
    finally:
        ir.Inst._rec_list_vars, byteflow._flatten_inst_regs = fast_rec, fast_flatten
    assert seen["rec"] > 10_000 and seen["rec_vars"] > 10_000
    assert seen["flatten"] > 100 and seen["flatten_regs"] > 100


def test_walks_of_hand_made_values() -> None:
    loc = ir.Loc("f.py", 1)
    scope = ir.Scope(None, loc)
    a, b, c = (ir.Var(scope, name, loc) for name in "abc")
    call = ir.Expr.call(a, [b, (c, [a])], [("k", b)], loc)
    assign = ir.Assign(call, c, loc)
    values = [a, call, assign, [a, (b, {"x": [c, 3, "s"]}), None, loc], {"k": (a, b)}, (), 1.5, "a"]
    own = ir_walk_speedup.ORIGINALS["_rec_list_vars"]
    for value in values:
        assert assign._rec_list_vars(value) == own(assign, value)
    assert assign.list_vars() == [a, b, c, a, b, c]
    regs = ["$a", ("$b", ["$c", ("$d",)]), 3, None, ["$e"], {"$f": 1}]
    assert list(ir_walk_speedup.flatten_inst_regs(regs)) == list(ir_walk_speedup.ORIGINALS["_flatten_inst_regs"](regs))
    assert list(ir_walk_speedup.flatten_inst_regs(regs)) == ["$a", "$b", "$c", "$d", "$e"]


def test_install_is_idempotent() -> None:
    assert ir_walk_speedup.install() is True and ir_walk_speedup.install() is True
    assert byteflow._flatten_inst_regs is ir_walk_speedup.flatten_inst_regs


def test_an_unchecked_numba_version_is_left_alone() -> None:
    code = (
        "import numba\n"
        "numba.__version__ = '0.99.0'\n"
        "from numba.core import byteflow, ir\n"
        "own = ir.Inst._rec_list_vars, byteflow._flatten_inst_regs\n"
        "import navmesh._kernels\n"
        "from navmesh._kernels import ir_walk_speedup\n"
        "assert ir_walk_speedup.install() is False\n"
        "assert (ir.Inst._rec_list_vars, byteflow._flatten_inst_regs) == own\n"
        "assert not ir_walk_speedup.ORIGINALS\n"
    )
    run = run_fresh(code)
    assert run.returncode == 0, run.stderr


def test_a_walk_replaced_by_someone_else_is_left_alone() -> None:
    code = (
        "from numba.core import byteflow\n"
        "def theirs(iterable):\n"
        "    return [x for x in iterable if isinstance(x, str)]\n"
        "byteflow._flatten_inst_regs = theirs\n"
        "import navmesh._kernels\n"
        "from navmesh._kernels import ir_walk_speedup\n"
        "assert ir_walk_speedup.install() is False\n"
        "assert byteflow._flatten_inst_regs is theirs\n"
    )
    run = run_fresh(code)
    assert run.returncode == 0, run.stderr
