"""navmesh._kernels.call_type_cache: remembered call typings answer as numba's own method does."""

from __future__ import annotations

import itertools
import operator
import os
import re
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import errors, types
from numba.core.registry import cpu_target
from numba.core.types import functions

import navmesh._kernels  # noqa: F401  (installs the cache)
from navmesh._kernels import call_type_cache as ctc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fresh_python import compile_on_and_off, run_fresh  # noqa: E402


pytestmark = pytest.mark.skipif(
    not ctc.ORIGINALS, reason=f"numba {numba.__version__} keeps its own call typing"
)

_ARR = [types.Array(types.float64, 1, "C"), types.Array(types.int32, 2, "A"),
        types.Array(types.float64, 1, "C", readonly=True), types.Array(types.boolean, 1, "C")]
_SCALARS = [types.int64, types.int32, types.uint8, types.float64, types.float32, types.boolean,
            types.IntegerLiteral(3)]
_OTHERS = [types.UniTuple(types.int64, 2), types.List(types.int64), types.Optional(types.int64),
           types.NPTimedelta("s"), types.NPDatetime("s"), types.complex128]
_POOL = _SCALARS + _ARR[:2] + _OTHERS

_BINARY = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
           operator.pow, operator.eq, operator.ne, operator.lt, operator.ge, operator.and_, operator.rshift,
           operator.iadd, max, min)
_UNARY = (bool, len, float, abs, operator.neg, int, np.sqrt, np.floor)
_INDEXES = (types.int64, types.uint8, types.slice2_type, types.UniTuple(types.intp, 2), types.Array(types.boolean, 1, "C"))


def _answer(fnty: types.Function, method, context, args: tuple):
    """(signature fields or the error's class, the implementation key numba records)."""
    try:
        sig = method(fnty, context, args, {})
    except Exception as e:  # noqa: BLE001 - compared between the two methods
        return type(e), None
    return (sig.return_type, sig.args, sig.recvr, str(sig.pysig)), fnty._impl_keys.get(sig.args)


def _calls() -> list[tuple]:
    """About 380 calls: a fixed sample of binary operators on many type pairs, indexing, unary calls."""
    import random

    pairs = [(fn, ab) for fn in _BINARY for ab in itertools.product(_POOL, _POOL)]
    calls = random.Random(0).sample(pairs, 200)
    calls += [(operator.getitem, (a, i)) for a in _ARR + _OTHERS[:2] for i in _INDEXES]
    calls += [(operator.setitem, (a, i, v)) for a in _ARR + _OTHERS[1:2] for i in _INDEXES[:3]
              for v in (types.float64, types.int32, types.boolean, _ARR[0])]
    calls += [(fn, (a,)) for fn in _UNARY for a in _POOL]
    return calls


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="types calls")
def test_remembered_answers_equal_numbas_own_for_many_argument_types() -> None:
    context = cpu_target.typing_context
    context.refresh()
    original = ctc.ORIGINALS["get_call_type"]
    remembered = served = 0
    matched: set[str] = set()
    for fn, args in _calls():
        fnty = context.resolve_value_type(fn)
        own = _answer(fnty, original, context, args)
        first = _answer(fnty, functions.BaseFunction.get_call_type, context, args)
        assert first == own, (fn, args)
        if isinstance(own[0], tuple):
            served += 1
            del fnty._impl_keys[own[0][1]]  # a remembered answer must record it again
        again = _answer(fnty, functions.BaseFunction.get_call_type, context, args)  # from the dict if kept
        assert again == own, (fn, args)
        found = [v for k, v in ctc.CALL_TYPES.items() if k[0] is fnty and k[3] == args]
        if found:
            remembered += 1
            matched.add(ctc.template_name(found[0][1]))
    # Many answers came from the dict, from many audited classes; not every served one was kept.
    assert remembered > 80 and remembered < served
    assert {"numba.core.typing.builtins.BinOpAdd", "numba.core.typing.arraydecl.GetItemBuffer",
            "numba.core.typing.arraydecl.SetItemBuffer", "numba.core.typing.builtins.Bool"} <= matched
    assert any(".OverloadTemplate_" in name or "OverloadTemplate_" in name for name in matched)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="types calls")
def test_each_audited_class_answers_the_same_twice_on_many_argument_types() -> None:
    context = cpu_target.typing_context
    context.refresh()
    checked = set()
    for fn, args in _calls():
        fnty = context.resolve_value_type(fn)
        for temp_cls in fnty.templates:
            audit = ctc.audit_of(temp_cls)
            if audit is None or temp_cls.__module__ == "abc" and "Overload" in temp_cls.__name__:
                continue  # @overload kinds compile: covered by the test above
            answers = []
            for _ in range(2):
                try:
                    sig = temp_cls(context).apply(args, {})
                    answers.append(None if sig is None else (sig.return_type, sig.args, str(sig.pysig)))
                except errors.NumbaError as e:
                    answers.append(type(e))
            assert answers[0] == answers[1], (temp_cls, args)
            checked.add(ctc.template_name(temp_cls))
    assert len(checked & set(ctc.AUDITED)) >= 30


def test_calls_outside_the_audit_failures_and_conditions_take_numbas_method() -> None:
    context = cpu_target.typing_context
    context.refresh()

    def kept(fn, args) -> bool:
        fnty = context.resolve_value_type(fn)
        return any(k[0] is fnty and k[3] == args for k in ctc.CALL_TYPES)

    tup = types.UniTuple(types.int64, 2)
    lists = types.List(types.int64)
    cases = [
        (operator.add, (tup, tup)),  # TupleAdd: not audited, tried before the match would be
        (bool, (types.Array(types.float64, 1, "C"),)),  # Bool delegates to operator.truth
        (operator.eq, (lists, lists)),  # ListEq types the element comparison
    ]
    for fn, args in cases:
        fnty = context.resolve_value_type(fn)
        try:
            fnty.get_call_type(context, args, {})
        except errors.NumbaError:
            pass
        assert not kept(fn, args), (fn, args)
    before = len(ctc.CALL_TYPES)
    fnty = context.resolve_value_type(operator.add)
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            fnty.get_call_type(context, (types.unicode_type, types.int64), {})
    assert not kept(operator.add, (types.unicode_type, types.int64))
    assert len(ctc.CALL_TYPES) == before


def test_a_remembered_signature_is_a_copy_each_time() -> None:
    context = cpu_target.typing_context
    fnty = context.resolve_value_type(operator.add)
    args = (types.int16, types.int16)
    first = fnty.get_call_type(context, args, {})
    second = fnty.get_call_type(context, args, {})
    second._return_type = types.float32  # what numba's parfors pass does to np.empty's signature
    third = fnty.get_call_type(context, args, {})
    assert first is not second and third is not second
    assert third.return_type == first.return_type == types.int64


def test_audit_refuses_classes_that_change_the_audited_methods() -> None:
    from numba.core.typing import builtins, templates

    class OwnApply(templates.ConcreteTemplate):
        key = operator.add
        cases = []

        def apply(self, args, kws):  # noqa: ARG002 - a changed method
            return None

    class OwnGeneric(builtins.Len):
        def generic(self, args, kws):
            return None

    OwnGeneric.__qualname__ = "Len"  # impersonates an audited name
    OwnGeneric.__module__ = "numba.core.typing.builtins"

    assert ctc.audit_of(builtins.Len) is not None
    assert ctc.audit_of(builtins.BinOpAdd) is not None
    assert ctc.audit_of(OwnApply) is None
    assert ctc.audit_of(OwnGeneric) is None
    adds = cpu_target.typing_context.resolve_value_type(operator.add).templates
    assert [ctc.audit_of(t) for t in adds if ctc.template_name(t).endswith(".TupleAdd")] == [None]
    assert ctc.audit_of(object) is None
    assert all(audit.reason for audit in list(ctc.AUDITED.values()) + list(ctc.AUDITED_KINDS.values()))


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles a function")
def test_a_call_typed_inside_the_same_function_types_typing_takes_numbas_method() -> None:
    from numba.extending import overload

    def twice(x):
        return x

    inner = []

    @overload(twice)
    def _twice(x):
        if isinstance(x, types.Float):
            context = cpu_target.typing_context
            fnty = context.resolve_value_type(twice)
            inner.append(fnty.get_call_type(context, (types.int64,), {}))
        return lambda x: x * 2

    @numba.njit
    def use(x):
        return twice(x)

    assert use(1.5) == 3.0
    assert inner and inner[0].return_type == types.int64
    fnty = cpu_target.typing_context.resolve_value_type(twice)
    keys = [k[3] for k in ctc.CALL_TYPES if k[0] is fnty]
    assert (types.float64,) in keys  # the outer call is remembered
    assert (types.int64,) not in keys  # the inner one, typed while `twice` was busy, is not


_KERNELS = '''
import numba, numpy as np

@numba.njit(cache=True)
def arith(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] > b and bool(i) or a[i] == b:
            s += a[i] * 2.0 - b / 3.0 + (i // 2) % 3
        a[i] = max(s, b)
    return s, min(a[0], b), len(a)

@numba.njit(cache=True)
def grid(g, n):
    out = np.empty((n, n), np.int32)
    for i in range(n):
        for j in range(n):
            out[i, j] = g[i % g.shape[0], j % g.shape[1]] + np.int32(abs(i - j))
    return np.sqrt(out.astype(np.float64)).sum() + np.floor(0.5)

@numba.njit(cache=True, parallel=True)
def par(n):
    a = np.empty(n)
    for i in numba.prange(n):
        a[i] = i * 0.5
    return a
'''

_CHILD = '''
import sys
import numpy as np
sys.path.insert(0, sys.argv[2])
import navmesh._kernels
from navmesh._kernels import call_type_cache
if sys.argv[1] == "off":
    call_type_cache.uninstall()
import small_kernels as k
k.arith(np.arange(6.0), 1.0)
k.grid(np.arange(6, dtype=np.int32).reshape(2, 3), 4)
k.par(5)
for f in (k.arith, k.grid, k.par):
    for sig in f.signatures:
        print(f.inspect_llvm(sig))
print("REMEMBERED", len(call_type_cache.CALL_TYPES))
'''


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiles functions")
def test_small_kernels_compile_to_the_same_ir_and_object_code_with_and_without_the_cache(tmp_path) -> None:
    outputs, caches = compile_on_and_off(tmp_path, _KERNELS, _CHILD)
    on_count = int(outputs["on"].rsplit("REMEMBERED", 1)[1])
    off_count = int(outputs["off"].rsplit("REMEMBERED", 1)[1])
    assert on_count > 20 and off_count == 0  # the cache really served one run and not the other
    # Object addresses (in the typed-IR text and the names of parfors' gufuncs) differ between any
    # two processes: masked.
    ir = {mode: re.sub(r"0x[0-9a-f]{6,}", "0x?", out.rsplit("REMEMBERED", 1)[0]) for mode, out in outputs.items()}
    assert ir["on"].count("define ") >= 3 and ir["on"] == ir["off"]
    assert len(caches["on"]) >= 6 and caches["on"].keys() == caches["off"].keys()
    for name, data in caches["on"].items():
        assert re.sub(rb"0x[0-9a-f]{6,}", b"0x?", data) == re.sub(rb"0x[0-9a-f]{6,}", b"0x?", caches["off"][name]), name


def test_an_unchecked_numba_version_is_left_alone() -> None:
    run = run_fresh(
        "import numba\n"
        "numba.__version__ = '0.99.0'\n"
        "from numba.core.types import functions\n"
        "from navmesh._kernels import call_type_cache\n"
        "assert call_type_cache.install() is False\n"
        "import navmesh._kernels\n"
        "assert functions.BaseFunction.get_call_type.__qualname__ == 'BaseFunction.get_call_type'\n"
        "assert not call_type_cache.ORIGINALS\n"
    )
    assert run.returncode == 0, run.stderr


def test_a_get_call_type_replaced_by_someone_else_is_left_alone() -> None:
    run = run_fresh(
        "from numba.core.types import functions\n"
        "own = functions.BaseFunction.get_call_type\n"
        "def theirs(self, context, args, kws):\n"
        "    return own(self, context, args, kws)\n"
        "functions.BaseFunction.get_call_type = theirs\n"
        "import navmesh._kernels\n"
        "from navmesh._kernels import call_type_cache\n"
        "assert call_type_cache.install() is False\n"
        "assert functions.BaseFunction.get_call_type is theirs\n"
        "assert not call_type_cache.ORIGINALS\n"
    )
    assert run.returncode == 0, run.stderr


def test_install_is_idempotent_and_uninstall_restores_numbas_method() -> None:
    run = run_fresh(
        "from numba.core.types import functions\n"
        "own = functions.BaseFunction.get_call_type\n"
        "import navmesh._kernels\n"
        "from navmesh._kernels import call_type_cache\n"
        "assert call_type_cache.install() is True and call_type_cache.install() is True\n"
        "assert functions.BaseFunction.get_call_type is not own\n"
        "assert call_type_cache.ORIGINALS['get_call_type'] is own\n"
        "call_type_cache.uninstall()\n"
        "assert functions.BaseFunction.get_call_type is own and not call_type_cache.CALL_TYPES\n"
        "assert call_type_cache.install() is True and functions.BaseFunction.get_call_type is not own\n"
    )
    assert run.returncode == 0, run.stderr


def test_inherits_agrees_with_issubclass_for_every_template_class_and_kind() -> None:
    from numba.core.typing import templates

    context = cpu_target.typing_context
    context.refresh()
    classes = set()
    for fn, _ in _calls():
        classes.update(context.resolve_value_type(fn).templates)
    stack = [templates.FunctionTemplate]
    while stack:  # every template class numba and navmesh defined so far
        cls = stack.pop()
        classes.add(cls)
        stack.extend(cls.__subclasses__())
    kinds = list(ctc._kind_methods())
    assert len(classes) > 500
    for cls in classes:
        for kind in kinds:
            assert ctc.inherits(cls, kind) is issubclass(cls, kind), (cls, kind)
    assert ctc.inherits(templates.ConcreteTemplate, templates.ConcreteTemplate)
    assert not ctc.inherits(object, templates.ConcreteTemplate)
