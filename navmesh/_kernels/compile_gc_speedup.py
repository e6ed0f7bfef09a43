"""Fewer of Python's garbage collections while numba compiles: less of navmesh's compile time.

numba's compiler allocates millions of short-lived objects (IR nodes, types, llvmlite values), so
Python's cyclic garbage collector runs young collections every 700 allocations and full ones
over the whole heap every 100 of those: 1,290 collections and 1.7 CPU seconds (8 per cent) of a
cold compile of the waypoint kernels, 1.2 s of it in full collections.

:func:`install` registers a listener of numba's ``numba:compiler_lock`` event (numba's own way to
observe compilation; no numba function is replaced): while any thread holds numba's compiler lock,
the collector's thresholds are :data:`COMPILE_THRESHOLDS` (a young collection every 10,000
allocations, full ones far apart); when the last holder lets go, the thresholds in force before are
put back (unless someone changed them meanwhile). Garbage is still collected during compilation,
only less often; nothing numba computes depends on when it is, so the compiled code is unchanged.
It applies only to the numba versions it was checked against (:data:`CHECKED_NUMBA`) and changes
collection for the whole process during compilation (other threads' too).
"""

from __future__ import annotations

import gc
import threading
from typing import Any

from numba.core import event

from navmesh._kernels.call_type_cache import numba_version

#: numba versions whose compiler lock was checked to raise ``numba:compiler_lock`` around every
#: compilation (major, minor).
CHECKED_NUMBA = ((0, 68),)

#: The collector's thresholds (``gc.set_threshold``) while numba compiles: 1,290 collections of the
#: waypoint kernels' compile become 78, none of them full.
COMPILE_THRESHOLDS = (10_000, 20, 100)

_STATE: dict[str, Any] = {}


class _CompileCollection(event.Listener):
    """numba event listener: :data:`COMPILE_THRESHOLDS` while the compiler lock is held."""

    def __init__(self) -> None:
        super().__init__()
        self._guard = threading.Lock()
        self.holders = 0
        self.saved: tuple[int, ...] | None = None

    def on_start(self, ev: Any) -> None:  # noqa: ARG002 - numba's listener signature
        with self._guard:
            self.holders += 1
            if self.holders == 1:
                self.saved = gc.get_threshold()
                gc.set_threshold(*COMPILE_THRESHOLDS)

    def on_end(self, ev: Any) -> None:  # noqa: ARG002 - numba's listener signature
        with self._guard:
            self.holders = max(self.holders - 1, 0)
            if self.holders == 0 and self.saved is not None:
                if gc.get_threshold() == COMPILE_THRESHOLDS:
                    gc.set_threshold(*self.saved)
                self.saved = None


def install() -> bool:
    """Register the listener (see the module's docstring; process-wide).

    Returns
    -------
    bool
        True if it is registered (now or from an earlier call), False if this numba version is not
        one it was checked against (numba is then left alone).
    """
    if "listener" in _STATE:
        return True
    if numba_version() not in CHECKED_NUMBA:
        return False
    listener = _CompileCollection()
    event.register("numba:compiler_lock", listener)
    _STATE["listener"] = listener
    return True
