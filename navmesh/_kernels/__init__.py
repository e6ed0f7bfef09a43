"""numba kernels over plain arrays: graph search, grid search, line of sight, any-angle refinement.

Kernels trust their inputs (the public functions validate them), keep all search state in arrays
owned by one call, and also run as plain Python with ``NUMBA_DISABLE_JIT=1``. Shared pieces: one
binary heap and trace-back (:mod:`.heap`), one set of status codes (:mod:`.status`).

Importing the kernels registers the one-time notice of :data:`navmesh.warmup.COMPILE_NOTICE`:
logged on the ``navmesh`` logger the first time numba really compiles a navmesh kernel, and makes
numba's comparison of compile flags faster (:mod:`.compile_speedups`: same results, less compile time).
"""

from __future__ import annotations

import logging

from numba.core import event

from navmesh._kernels import compile_speedups
from navmesh.warmup import COMPILE_NOTICE

compile_speedups.install()


class _CompileNotice(event.Listener):
    """Logs the compile notice the first time numba really compiles a navmesh kernel."""

    def __init__(self) -> None:
        self.told = False

    def on_start(self, ev: event.Event) -> None:
        if self.told:
            return
        dispatcher = (ev.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if module.startswith("navmesh."):
            self.told = True
            logging.getLogger("navmesh").warning(COMPILE_NOTICE)

    def on_end(self, ev: event.Event) -> None:
        pass


event.register("numba:compile", _CompileNotice())
