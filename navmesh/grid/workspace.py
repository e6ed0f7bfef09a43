"""Search buffers for the grid kernels, lent to one search at a time and never cleared.

A grid search needs per-cell state (cost, stamp, parent) and a heap with a slot per cell. Making
and clearing those for every query would cost more than the search on a big map, so each map
keeps a :class:`WorkspacePool`; a search borrows a :class:`Workspace`, passes its arrays to the
kernel and gives it back. The kernels read a cell's entries only where its stamp holds the
current generation's marks (see :mod:`navmesh._kernels.grid`), and giving a workspace back moves
it to the next generation, which invalidates everything in it at no cost.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.grid import HEAP_RESERVE

__all__ = ["Workspace", "WorkspacePool"]

_MAX_GEN = 2**30 - 1


class Workspace:
    """Per-cell search buffers for one search at a time (never for two at once).

    Attributes
    ----------
    g : float64 array of shape (n,)
        Cost of the best path found to each cell (read only where the stamp says "reached").
    stamp : int32 array of shape (n,)
        Generation marks of each cell (the layout of :mod:`navmesh._kernels.grid`).
    parent : int32 array of shape (n,)
        The cell each reached cell was reached from.
    heap : float64 array of shape (2 * (n + HEAP_RESERVE),)
        The open list (:mod:`navmesh._kernels.grid_heap`).
    gen : int
        The current generation, >= 1.
    """

    __slots__ = ("g", "gen", "heap", "parent", "stamp")

    def __init__(self, n: int) -> None:
        self.g = np.empty(n, dtype=np.float64)
        self.stamp = np.zeros(n, dtype=np.int32)
        self.parent = np.empty(n, dtype=np.int32)
        self.heap = np.empty(2 * (n + HEAP_RESERVE), dtype=np.float64)
        self.gen = 1

    @property
    def n_cells(self) -> int:
        """Cells the workspace has room for."""
        return len(self.parent)

    def advance(self) -> None:
        """Move to the next generation (clearing the stamps once every 2**30 searches)."""
        self.gen += 1
        if self.gen >= _MAX_GEN:
            self.stamp[:] = 0
            self.gen = 1


class WorkspacePool:
    """Workspaces of one map, by size (the map's cells, or its cells padded by a border).

    Threads may search one map at once: each borrows its own workspace (``list.pop`` and
    ``list.append`` are atomic in CPython), and a pool keeps at most as many as were ever in use
    at the same time.
    """

    __slots__ = ("_free",)

    def __init__(self) -> None:
        self._free: dict[int, list[Workspace]] = {}

    def borrow(self, n: int) -> Workspace:
        """A workspace of ``n`` cells for one search; hand it back with :meth:`give_back`."""
        try:
            return self._free.setdefault(n, []).pop()
        except IndexError:
            return Workspace(n)

    def give_back(self, ws: Workspace) -> None:
        """Return a borrowed workspace (its generation advanced) to the pool."""
        ws.advance()
        self._free.setdefault(ws.n_cells, []).append(ws)
