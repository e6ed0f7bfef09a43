"""The record of which :mod:`navmesh.warmup` parts numba's on-disk cache holds compiled.

A small JSON file beside numba's cache of the kernels (``navmesh-parts-pyXY.json``), so that a
program start knows at once, without loading any kernel, that a screen's first calls will only
load kernels from the cache (milliseconds) and never compile them (seconds).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

class CompiledParts:
    """The parts whose kernels numba's on-disk cache holds, in a small JSON file beside that cache.

    The record is valid for the kernel sources (each file's modification time and size, what
    numba checks too), numba's version, Python's version and the machine (numba's target triple,
    CPU name and features) it was written with; anything else reads as an empty record. With
    ``NUMBA_DISABLE_JIT=1`` nothing compiles, and every part counts as compiled.

    Parameters
    ----------
    known : tuple of str
        Every part there is (:data:`navmesh.warmup.PARTS`); other names in a record are ignored.
    """

    def __init__(self, known: tuple[str, ...]) -> None:
        import numba
        from numba.core import config

        from navmesh._kernels.heap import trace_back

        self.known = known  # every part there is
        self.jit = not config.DISABLE_JIT
        self.path: Path | None = None
        self.key: dict[str, Any] = {}
        if not self.jit:
            return
        try:
            self.path = Path(trace_back.stats.cache_path) / f"navmesh-parts-py{sys.version_info[0]}{sys.version_info[1]}.json"
            machine = repr(trace_back.targetctx.codegen().magic_tuple()).encode()
        except Exception:  # noqa: BLE001 - no usable cache location: no record, every part is compiled on use
            self.path = None
            return
        folder = Path(trace_back.py_func.__code__.co_filename).parent
        sources = {f.name: [f.stat().st_mtime_ns, f.stat().st_size] for f in sorted(folder.glob("*.py"))}
        self.key = {"numba": numba.__version__, "machine": hashlib.sha256(machine).hexdigest(), "sources": sources}

    def parts(self) -> set[str]:
        """The parts recorded as compiled (all of them without the JIT)."""
        if not self.jit:
            return set(self.known)
        if self.path is None:
            return set()
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return set()
        if not isinstance(data, dict) or data.get("key") != self.key or not isinstance(data.get("parts"), list):
            return set()
        return {p for p in data["parts"] if p in self.known}

    def add(self, part: str) -> None:
        """Record ``part`` as compiled (written atomically; a failure to write only loses the record)."""
        if self.path is None:
            return
        parts = sorted(self.parts() | {part})
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"key": self.key, "parts": parts}))
            os.replace(tmp, self.path)
        except OSError:
            try:
                tmp.unlink()
            except OSError:
                pass
