"""Every navmesh kernel is compiled with one set of options (navmesh._kernels.signatures.njit).

numba compiles its implementations of numpy functions (``np.empty``, ``np.full`` ...) once per
set of options of the calling kernel, so one kernel with other options costs a second copy of
each of them on a cold start.
"""

from __future__ import annotations

import importlib
import os
import pkgutil

import pytest

import navmesh._kernels as kernels_package
from navmesh._kernels.signatures import INTERNAL_OPTIONS, KERNEL_OPTIONS, njit

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no dispatchers without the JIT")


def _kernels():
    from numba.core.registry import CPUDispatcher

    found = {}
    for info in pkgutil.iter_modules(kernels_package.__path__):
        module = importlib.import_module(f"navmesh._kernels.{info.name}")
        for attr, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                found[f"{module.__name__}.{attr}"] = value
    return found


def test_every_kernel_has_the_project_options_and_a_disk_cache():
    from numba.core.caching import FunctionCache

    found = _kernels()
    assert len(found) > 60  # the scan really saw the kernel modules (97 kernels on 2026-11-26)
    expected = {k: v for k, v in KERNEL_OPTIONS.items() if k != "cache"}
    internal = {**expected, **INTERNAL_OPTIONS}  # (a kernel only other kernels call)
    # either set without reference counting (_nrt=False: Polyanya's kernels): numba then refuses to
    # compile any allocation, so such a kernel never compiles a second copy of numpy's implementations
    # Or reference counting named explicitly (_nrt=True, the default): numba passes a caller's
    # _nrt=False on to callees that do not set it, so a kernel that allocates and is called from
    # one without reference counting must set it (the same flags as the default: numpy's
    # implementations are still compiled once)
    sets = (expected, internal, {**expected, "_nrt": False}, {**internal, "_nrt": False}, {**expected, "_nrt": True})
    odd = {}
    for name, dispatcher in found.items():
        options = {k: v for k, v in dispatcher.targetoptions.items() if k not in ("nopython", "boundscheck", "parallel")}
        if options not in sets or not isinstance(dispatcher._cache, FunctionCache):
            odd[name] = dispatcher.targetoptions
    assert odd == {}


def test_numpy_implementations_compile_once_for_kernels_made_alike():
    import numpy as np
    from numba.core import event

    compiled = []

    class Seen(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    @njit(cache=False)
    def first(n):
        return np.full(n, 3, np.int16)

    @njit(cache=False)
    def second(n):
        return np.full(n + 1, 4, np.int16)

    listener = Seen()
    event.register("numba:compile", listener)
    try:
        assert first(2).tolist() == [3, 3]
        assert second(2).tolist() == [4, 4, 4]
    finally:
        event.unregister("numba:compile", listener)
    assert [name.rsplit(".", 1)[1] for name in compiled if "<locals>.first" in name or "<locals>.second" in name] == ["first", "second"]
    assert len([name for name in compiled if "np_full" in name]) == 1  # np.full(n, value, int16): once
