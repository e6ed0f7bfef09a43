"""navmesh's kernel decorator, and one compiled specialisation per argument type.

:func:`njit` is numba's ``njit`` with the options of every navmesh kernel (:data:`KERNEL_OPTIONS`),
kept here in one place. numba compiles its own implementations of numpy functions (``np.empty``,
``np.full``, ``np.argsort`` ...) once per set of options of the calling kernel: a ``nogil`` kernel
and a plain one each compiled their own ``np.empty(n, np.int32)``. With one set of options for
every kernel, each such implementation is compiled once per process.

The rest of the module: one compiled specialisation per argument type, not one more per
constant value or int width.

When a kernel calls another with a constant (``heap_push(keys, vals, 0, ...)``, ``False``, ``-1``),
numba types that argument as a literal (``Literal[int](0)``) and compiles the callee once more for
it, although the code is the same; type inference can also pass a literal first and the plain
type later, compiling twice at one call site. Those copies were about a tenth of navmesh's cold
compile time. Likewise a node id read from an int32 array (``indices[e]``) and one counted by a
loop (int64) made two copies of every callee that takes a node id (``heap_push``, ``metric``,
Polyanya's ``_push``). :func:`plain_arguments` makes the dispatchers of a kernel module compile
for the plain type of every argument, with every integer scalar narrower than 64 bits widened to
int64; a call with a constant or a narrower integer then uses that one specialisation (numba
widens the argument at the call).
"""

from __future__ import annotations

from typing import Any

import numba
from numba.core import types

#: The options of every kernel: machine code cached on disk, and the GIL released (a kernel never
#: touches a Python object), so that a kernel can run beside a game's own threads; no C entry point
#: (nothing calls kernels through one, and its wrapper is compiled and optimised for every kernel).
KERNEL_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "no_cfunc_wrapper": True}


#: Added to :data:`KERNEL_OPTIONS` for a kernel that only other kernels call (``internal=True``):
#: numba then makes no CPython entry point for it either. The wrappers were about a third of a small
#: kernel's compile time (their code is also optimised and emitted). Such a kernel cannot be called
#: from Python, and it must not allocate (``np.empty`` ...): numba compiles the numpy
#: implementations once per set of options, so it would compile them a second time.
INTERNAL_OPTIONS: dict[str, Any] = {"no_cpython_wrapper": True}


def njit(func: Any = None, /, *, internal: bool = False, **options: Any) -> Any:
    """``numba.njit`` with :data:`KERNEL_OPTIONS`; ``options`` add to them (``parallel=True``),
    and ``internal=True`` adds :data:`INTERNAL_OPTIONS` (a kernel only other kernels call).

    Used like numba's: ``@njit`` or ``@njit(cache=True)``. With ``NUMBA_DISABLE_JIT=1`` the
    function stays plain Python, as with numba's own decorator.
    """
    decorate = numba.njit(**{**KERNEL_OPTIONS, **(INTERNAL_OPTIONS if internal else {}), **options})
    return decorate if func is None else decorate(func)


def _plain_type(t: Any) -> Any:
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.bitwidth < 64:
        return types.int64
    return t


def _plain(dispatcher: Any) -> None:
    literal_aware = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return literal_aware(tuple(_plain_type(a) for a in args), {k: _plain_type(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


def plain_arguments(namespace: dict[str, Any]) -> None:
    """Apply the rule above to every numba dispatcher defined in the module ``namespace``
    (``globals()`` at the end of a kernel module); a no-op with ``NUMBA_DISABLE_JIT=1``."""
    module = namespace.get("__name__")
    for value in list(namespace.values()):
        if hasattr(value, "get_call_template") and getattr(getattr(value, "py_func", None), "__module__", None) == module:
            _plain(value)
