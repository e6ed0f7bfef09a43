"""The Polyanya kernel's arrays for one :class:`~navmesh.polymesh.query.MeshQuery`: search
workspaces, the output block the paths live in, and the Path of a finished search.

Output block
------------
A path found by the kernel is copied once, by the kernel itself, into the query's output block:
a float array of (x, y) rows and an int32 array of polygon ids, made read-only for everybody
but the kernel. The Path's ``points`` and ``nodes`` are read-only views of the rows it wrote, so
no array is allocated, converted or frozen per query (that was about half of a short query's
time). A block holds :data:`BLOCK_ROWS` rows; when it is full the query empties it and writes
on from its start if none of its paths (nor any view of one) is alive any more, as in a loop
that keeps no path (a new block's memory costs 5-50 us to allocate and fault in), and starts a
new one otherwise: an old block lives on only as long as some path of its still does (at most
about 20 kB per block). A path longer than a quarter block gets arrays of its own when the
block has no room for it.
"""

from __future__ import annotations

import sys
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from navmesh._kernels import polyanya as PK
from navmesh.path import Path

__all__ = ["BLOCK_ROWS", "OutputBlock", "Workspace", "kernel_code", "place_ends", "run", "traced_path"]

BLOCK_ROWS = 1024  # rows of an output block: points (16 bytes each) and polygons (4 bytes each)
_trusted, _views = Path._trusted, Path._views


class Workspace:
    """Search arrays for ``capacity`` search nodes on a mesh (:func:`PK.workspace`): ``wi``,
    ``wf``, and views of the kernel's own output sections (``polys``, ``points`` as rows)."""

    __slots__ = ("wi", "wf", "capacity", "polys", "points")

    def __init__(self, n_vertices: int, n_polygons: int, params: NDArray[np.float64], capacity: int) -> None:
        self.wi, self.wf = wi, wf = PK.workspace(n_vertices, n_polygons, capacity, params)
        self.capacity = capacity
        self.polys = wi[wi[1 + PK.W_OUT_POLYS]:wi[2 + PK.W_OUT_POLYS]]
        self.points = wf[wi[11 + PK.F_OUT_POINTS]:wi[12 + PK.F_OUT_POINTS]].reshape(-1, 2)


class OutputBlock:
    """The block paths are written to (module notes): ``pts`` (flat x, y) and ``polys`` (entry 0:
    rows used) for the kernel, ``pts_ro`` / ``polys_ro`` read-only views, row-aligned, for the
    paths.

    The read-only views are made from a read-only array over a memoryview of each array
    (``_roots``): numpy sets the ``base`` of a view to the first array up the chain that owns its
    data or whose base is not an array, so every array a path holds (and every view of one) has
    a root as its ``base``, and the roots' reference counts tell whether any path of the block is
    still alive (:meth:`in_use`), whatever the query itself holds (the kernel gets the
    writeable arrays).
    """

    __slots__ = ("pts", "polys", "pts_ro", "polys_ro", "_roots", "_own_refs")

    def __init__(self, rows: int = BLOCK_ROWS) -> None:
        self.pts = np.empty(2 * rows, np.float64)
        self.polys = np.zeros(rows + 1, np.int32)
        self._roots = (np.frombuffer(memoryview(self.pts).toreadonly(), np.float64),
                       np.frombuffer(memoryview(self.polys).toreadonly(), np.int32))
        self.pts_ro = self._roots[0].reshape(rows, 2)
        self.polys_ro = self._roots[1][1:]
        self._own_refs = self._refs()

    def _refs(self) -> tuple[int, int]:
        return sys.getrefcount(self._roots[0]), sys.getrefcount(self._roots[1])

    def in_use(self) -> bool:
        """Whether a path (or any view of one) still holds some rows of the block."""
        return self._refs() != self._own_refs

    def clear(self) -> None:
        """Mark every row free again (only when not :meth:`in_use`: later paths overwrite them)."""
        self.polys[0] = 0


def kernel_code(kernel: Any, args: tuple[Any, ...]) -> Any:
    """The compiled code of the numba kernel ``kernel`` for the types of ``args``, called without
    numba's dispatch (which types each argument on every call: about a quarter microsecond of
    find_path's four on a small mesh); ``kernel`` itself until numba has code for those types
    (compiled, or loaded from the cache) and with ``NUMBA_DISABLE_JIT=1`` (a plain function). The
    code converts its arguments without checking their types: the caller must pass arguments of
    exactly the types of ``args`` (the query's own arrays and Python floats)."""
    overloads = getattr(kernel, "overloads", None)
    if not overloads:
        return kernel
    found = overloads.get(tuple(numba.typeof(a) for a in args))
    return kernel if found is None else found.entry_point


def place_ends(ws: Workspace, s_polys: NDArray[np.int64] | None, g_polys: NDArray[np.int64] | None) -> tuple[int, int]:
    """Write the start / goal polygons (at most ``PK.MAX_HITS`` each) to the workspace's
    sections; returns their counts for the kernels (-1 for None: locate in the kernel)."""
    if s_polys is None and g_polys is None:  # the fast path of find_path
        return -1, -1
    wi = ws.wi
    counts = []
    for k, polys in ((PK.W_START_POLYS, s_polys), (PK.W_GOAL_POLYS, g_polys)):
        n = -1 if polys is None else min(len(polys), PK.MAX_HITS)
        if n > 0:
            wi[wi[1 + k]:wi[1 + k] + n] = polys[:n]
        counts.append(n)
    return counts[0], counts[1]


def run(xy: NDArray[np.float64], mi: NDArray[np.int64], ws: Workspace, block: OutputBlock, op: int, s: Any, g: Any,
        n_start: int = -1, n_goal: int = -1, budget: int = PK.NO_BUDGET) -> tuple[int, int, int, int, int, float]:
    """One call of the Polyanya entry kernel (:func:`PK.search`) with the request ``op``, ...;
    returns its (status, at, points, polygons, expansions, length)."""
    PK.request(ws.wi, op, n_start, n_goal, budget)
    return PK.search(xy, mi, ws.wi, ws.wf, block.pts, block.polys, float(s[0]), float(s[1]), float(g[0]),
                     float(g[1]))


def traced_path(ws: Workspace, block: OutputBlock, at: int, n_pts: int, n_polys: int, cost: float, expansions: int,
                s_moved: bool = False, g_moved: bool = False) -> Path:
    """The Path of a FOUND search: views of the block's rows ``at ..``, or (``at`` = -1: the
    block had no room) arrays of its own copied from the workspace."""
    if at >= 0:
        path = _views(block.polys_ro[at:at + n_polys], block.pts_ro[at:at + n_pts], cost, expansions)
        if s_moved or g_moved:
            object.__setattr__(path, "start_moved", s_moved)
            object.__setattr__(path, "goal_moved", g_moved)
        return path
    return _trusted(ws.polys[:n_polys].astype(np.int32), ws.points[:n_pts].copy(), cost, expansions, False, s_moved,
                    g_moved)
