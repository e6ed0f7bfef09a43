"""Helper processes that compile navmesh's kernels into numba's on-disk cache while a game's
loading screen keeps drawing (used by :mod:`navmesh.warmup`).

Each helper is a fresh interpreter running :func:`navmesh.warmup.serve` for some parts; it prints
the index of each finished step on its stdout, and this process then only loads those kernels.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

# Relative cold compile cost of each part (CPU seconds on the reference machine, rounded), used
# to share the parts between helper processes.
_COST = {"waypoints": 45.0, "grid": 16.0, "steering": 12.0, "mesh": 10.0, "jps": 3.0, "flowfield": 3.0}
_MAX_HELPERS = 3


class Helper:
    """A fresh interpreter that runs the steps of some parts (filling numba's on-disk cache) and
    reports each finished step on its stdout; this process then only loads what it compiled."""

    def __init__(self, parts: list[str], owned: list[str]) -> None:
        self.done: set[int] = set()  # plan indices whose kernels are in the cache
        self.failed = False
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        from numba.core import config

        if config.CACHE_DIR:
            env["NUMBA_CACHE_DIR"] = config.CACHE_DIR
        code = "import sys, navmesh.warmup as w; w.serve(sys.argv[1], sys.argv[2])"
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", code, ",".join(parts), ",".join(owned)], env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            )
        except OSError:
            self.failed = True
            return
        self.reader = threading.Thread(target=self._read, name="navmesh-warm-up", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                self.done.add(int(line))
            except ValueError:
                pass
        if self.process.wait() != 0:
            self.failed = True

    def has(self, step: int) -> bool:
        """Whether step ``step`` is compiled, or the helper cannot do it (this process must)."""
        return self.failed or step in self.done

    def stop(self) -> None:
        if not self.failed and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def start_helpers(parts: list[str], remaining: list[str]) -> dict[str, Helper]:
    """Helper processes for the ``remaining`` parts, up to one per core (at most
    ``_MAX_HELPERS``), each given about the same compile cost; returns the helper of each part."""
    n = max(1, min(len(remaining), os.cpu_count() or 1, _MAX_HELPERS))
    shares: list[list[str]] = [[] for _ in range(n)]
    loads = [0.0] * n
    for part in sorted(remaining, key=lambda p: -_COST[p]):
        k = loads.index(min(loads))
        shares[k].append(part)
        loads[k] += _COST[part]
    owner: dict[str, Helper] = {}
    for share in shares:
        helper = Helper(parts, share)
        owner.update(dict.fromkeys(share, helper))
    return owner
