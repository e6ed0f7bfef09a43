"""One compilation of each navmesh kernel across the processes of a parallel warm-up.

numba compiles a kernel when it is first called, or first typed inside another kernel that is
being compiled, unless its on-disk cache already holds it. Processes that start cold side by side
therefore each compile the kernels they share (the heap, the line of sight, the graph searches ...).
While :func:`compile_locks` is active, every compilation of a navmesh kernel in this process first
takes a file lock named after the kernel and its argument types; numba looks in its on-disk cache
after the lock is taken, so a kernel that another process has just compiled is loaded from the cache
instead of being compiled again.

No deadlock is possible: a process holds the locks of a chain of kernels each called by the one
before, and waits only for a kernel called by the last of them; kernels never call each other in a
cycle. Without ``fcntl`` (Windows) the locks do nothing and processes may compile a kernel twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from pathlib import Path
from typing import Any, Iterator

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no locks, duplicate compilations are only slower
    fcntl = None  # type: ignore[assignment]

__all__ = ["compile_locks"]

_state = threading.local()
_guard = threading.Lock()
_active: list[Path] = []  # the lock folders of the active compile_locks, innermost last
_original: Any = None


def _key(dispatcher: Any, args: tuple[Any, ...]) -> str:
    func = dispatcher.py_func
    return hashlib.sha1(f"{func.__module__}.{func.__qualname__}{args}".encode()).hexdigest()[:20]


def _locked_compile(self: Any, sig: Any) -> Any:
    """numba's ``Dispatcher.compile`` behind a file lock for navmesh kernels not yet in this process."""
    from numba.core import sigutils

    folder = _active[-1] if _active else None
    module = getattr(getattr(self, "py_func", None), "__module__", "") or ""
    if folder is None or fcntl is None or not module.startswith("navmesh."):
        return _original(self, sig)
    args, _ = sigutils.normalize_signature(sig)
    args = tuple(args)
    if args in self.overloads:
        return _original(self, sig)
    key = _key(self, args)
    held = getattr(_state, "held", None)
    if held is None:
        held = _state.held = set()
    if key in held:  # the same kernel again while it compiles (recursion): numba deals with it
        return _original(self, sig)
    fd = os.open(folder / key, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # waits while another process compiles this kernel
        held.add(key)
        try:
            return _original(self, sig)  # looks in the on-disk cache first
        finally:
            held.discard(key)
    finally:
        os.close(fd)  # releases the lock


@contextlib.contextmanager
def compile_locks(folder: str | os.PathLike[str]) -> Iterator[None]:
    """While active, compile each navmesh kernel under a file lock in ``folder`` (created if
    needed), shared by every process of one warm-up; see the module notes."""
    global _original
    from numba.core.dispatcher import Dispatcher

    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    with _guard:
        if not _active:
            _original = Dispatcher.compile
            Dispatcher.compile = _locked_compile
        _active.append(path)
    try:
        yield
    finally:
        with _guard:
            _active.remove(path)
            if not _active:
                Dispatcher.compile = _original
