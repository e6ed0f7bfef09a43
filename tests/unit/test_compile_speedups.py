"""navmesh._kernels.compile_speedups: numba's compile flags compare as numba's own methods do."""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

import numba
import pytest
from numba.core import targetconfig
from numba.core.compiler import Flags

import navmesh._kernels  # noqa: F401  (installs the faster methods)
from navmesh._kernels import compile_speedups

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fresh_python import run_fresh  # noqa: E402


pytestmark = pytest.mark.skipif(
    not compile_speedups.ORIGINALS, reason=f"numba {numba.__version__} keeps its own TargetConfig methods"
)

# Options set in the flag sets below, with two values each (the second one differs from the default).
SETTINGS = {
    "nrt": (True, False),
    "no_cpython_wrapper": (False, True),
    "release_gil": (False, True),
    "error_model": ("python", "numpy"),
    "boundscheck": (False, True),
}


def _flag_sets() -> list[Flags]:
    out = [Flags()]
    names = list(SETTINGS)
    for count in (1, 2, 3):
        for chosen in itertools.combinations(names, count):
            for picks in itertools.product((0, 1), repeat=count):
                flags = Flags()
                for name, pick in zip(chosen, picks):
                    setattr(flags, name, SETTINGS[name][pick])
                out.append(flags)
    return out


def test_install_replaced_numbas_methods_and_is_idempotent() -> None:
    assert compile_speedups.install() is True
    assert targetconfig.TargetConfig.values is not compile_speedups.ORIGINALS["values"]
    assert {"values", "__eq__", "__hash__"} <= set(compile_speedups.ORIGINALS)


def test_values_equality_and_hash_match_numbas_own_methods() -> None:
    original = compile_speedups.ORIGINALS
    flag_sets = _flag_sets()
    assert len(flag_sets) > 100
    for flags in flag_sets:
        assert flags.values() == original["values"](flags)
        assert list(flags.values()) == list(original["values"](flags))  # same order
        assert hash(flags) == original["__hash__"](flags)
        assert flags == Flags(flags)  # a copy
    equal_pairs = 0
    for a, b in itertools.product(flag_sets[:60], flag_sets[:60]):
        same = original["__eq__"](a, b)
        equal_pairs += bool(same)
        assert (a == b) is same
        assert (a != b) is (not same)
    # A value set to its default equals the unset option, as in numba: the pairs are not all trivial.
    assert equal_pairs > 60


def test_a_value_outside_the_options_takes_numbas_methods() -> None:
    flags = Flags()
    flags._values["not_an_option"] = 1
    other = Flags()
    assert flags.values() == compile_speedups.ORIGINALS["values"](flags)
    assert "not_an_option" not in flags.values()
    assert hash(flags) == compile_speedups.ORIGINALS["__hash__"](flags)
    assert (flags == other) is compile_speedups.ORIGINALS["__eq__"](flags, other)


def test_a_comparison_with_another_type_is_not_implemented() -> None:
    assert Flags() != object()
    assert Flags().__eq__(3) is NotImplemented


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles a function")
def test_numba_compiles_with_the_faster_methods() -> None:
    @numba.njit(error_model="numpy")
    def half(x):
        return x / 2

    @numba.njit
    def halves(x):
        return half(x) + half(float(x))

    assert halves(3) == 3.0
    assert halves(4.0) == 4.0
    assert len(halves.overloads) == 2


def test_highlighted_error_text_is_the_same_without_colorama_re_initialising() -> None:
    from numba.core import errors

    if "ColorShell" not in compile_speedups.ORIGINALS:
        pytest.skip("numba runs without colorama here")
    scheme = errors.HighlightColorScheme(errors.themes["dark_bg"])
    pieces = ("No implementation of function", "", "ü → x")
    fast = [(scheme.errmsg(p), scheme.highlight(p), scheme.reset(p)) for p in pieces]
    errors.ColorShell = compile_speedups.ORIGINALS["ColorShell"]
    try:
        slow = [(scheme.errmsg(p), scheme.highlight(p), scheme.reset(p)) for p in pieces]
    finally:
        errors.ColorShell = compile_speedups._NoColorShell
    assert fast == slow
    assert "\x1b[" in fast[0][0] and "No implementation of function" in fast[0][0]


def test_an_unchecked_numba_version_is_left_alone() -> None:

    code = (
        "import numba\n"
        "numba.__version__ = '0.99.0'\n"
        "from numba.core import errors, targetconfig\n"
        "shell = getattr(errors, 'ColorShell', None)\n"
        "from navmesh._kernels import compile_speedups\n"
        "assert compile_speedups.install() is False\n"
        "assert targetconfig.TargetConfig.values.__qualname__ == 'TargetConfig.values'\n"
        "assert targetconfig.TargetConfig.__eq__.__qualname__ == 'TargetConfig.__eq__'\n"
        "assert getattr(errors, 'ColorShell', None) is shell\n"
        "assert not compile_speedups.ORIGINALS\n"
    )
    run = run_fresh(code)
    assert run.returncode == 0, run.stderr
