"""navmesh._kernels.signatures: a kernel called with constants is compiled once, for plain types."""

from __future__ import annotations

import os

import numpy as np
import pytest
from numba import njit

from navmesh._kernels.signatures import plain_arguments

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles without the JIT")


def _module(plain: bool) -> dict:
    @njit
    def step(values, i, flag):
        return values[i] * 2.0 if flag else values[i]

    @njit
    def caller(values, j):
        return step(values, 0, False) + step(values, j, True) + step(values, -1, flag=False)

    namespace = {"__name__": __name__, "step": step, "caller": caller}
    if plain:
        plain_arguments(namespace)
    return namespace


def test_constants_make_extra_specialisations_without_it():
    ns = _module(plain=False)
    assert ns["caller"](np.array([1.0, 2.0, 3.0]), 1) == 8.0
    assert len(ns["step"].signatures) > 1  # the numba behaviour the module works around


def test_one_specialisation_for_constants_and_variables_alike():
    ns = _module(plain=True)
    assert ns["caller"](np.array([1.0, 2.0, 3.0]), 1) == 8.0  # same answer: 1 + 4 + 3
    assert [str(t) for t in ns["step"].signatures[0]] == ["array(float64, 1d, C)", "int64", "bool"]
    assert len(ns["step"].signatures) == 1


def test_only_the_modules_own_dispatchers_change():
    @njit
    def foreign(x):
        return x

    before = foreign.get_call_template
    plain_arguments({"__name__": "somewhere.else.entirely", "foreign": foreign, "number": 3})
    assert foreign.get_call_template == before


def test_narrow_integers_share_the_int64_specialisation():
    @njit
    def twice(values, i):
        return values[i] * 2

    @njit
    def caller(values, ids):
        return twice(values, ids[0]) + twice(values, np.int16(1)) + twice(values, 2)

    namespace = {"__name__": __name__, "twice": twice, "caller": caller}
    plain_arguments(namespace)
    ids = np.array([0], np.int32)  # an int32 node id, as read from CSR ``indices``
    assert caller(np.array([1.0, 2.0, 3.0]), ids) == 12.0  # same answer: 2 + 4 + 6
    assert [str(t) for t in twice.signatures[0]] == ["array(float64, 1d, C)", "int64"]
    assert len(twice.signatures) == 1
