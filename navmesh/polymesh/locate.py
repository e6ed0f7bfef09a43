"""Point location on a :class:`~navmesh.polymesh.mesh.PolyMesh`: a uniform bucket grid.

Each cell of a grid of at least one cell per polygon (finer on small meshes) lists the polygons that may contain a point of
it, each with the few edges a point of the cell must be tested against; a query reads one cell
and tests those edges exactly (a point is in a convex polygon when it is on the inner side of,
or on, every edge), so locating a point costs O(1) on meshes of evenly sized polygons and never
more than the edges of one cell. Points on a shared edge or vertex belong to every polygon
around them.

The lists are cut when the grid is made, with a margin (:data:`MARGIN`): a polygon whose
bounding box meets the cell but one of whose edges has the whole cell on its outer side is not
listed, and an edge that has the whole cell on its inner side is not tested (a cell inside one
polygon lists it with no edge at all). Both cuts hold with room to spare for floating-point
rounding (the kernel's test of every point of the cell would give the same answer), so the
answers are those of testing every edge of every polygon whose box meets the cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from navmesh._kernels.polyanya import EDGE_SHIFT
from navmesh.polymesh.mesh import PolyMesh, next_slots

__all__ = ["BucketGrid", "bucket_grid", "CELLS_PER_POLYGON", "MARGIN", "MIN_CELLS"]

#: An edge is left out of a cell's tests (or its polygon out of the cell) only when every corner
#: of the cell, widened by this fraction of the mesh's size, lies on one side of the edge's line
#: by more than this fraction of (the mesh's size) squared: far more than the rounding of the
#: kernel's orientation test or of its choice of cell.
MARGIN = 1e-9
#: A small mesh gets a finer grid, up to this many cells per polygon and :data:`MIN_CELLS` cells
#: in all (arena, 42 polygons: 52 x 52 cells; a point's cell then lists 1.1 polygons and 0.9 edges
#: to test on average, against 3.6 polygons and 13 edges with one cell per polygon); a large one
#: one cell per polygon (its lists stay about as big as its mesh).
CELLS_PER_POLYGON = 64
MIN_CELLS = 4096


@dataclass(frozen=True, eq=False)
class BucketGrid:
    """Cells (row-major, x fastest) and, per cell, the polygons a point of it may lie in.

    Attributes
    ----------
    cell_ptr : int64 array (cells + 1,)
        Cell ``c``'s entries are ``cell_polys[cell_ptr[c]:cell_ptr[c + 1]]``.
    cell_polys : int64 array
        Per cell, one record per polygon: the polygon, the number ``n`` of its edges to test,
        then those ``n`` edges in the polygon's order, each as ``a + (b << EDGE_SHIFT)`` for its
        vertex ``a`` and the next vertex ``b``.
    grid : float64 array of shape (5,)
        x0, y0, 1 / cell size, nx, ny.
    """

    cell_ptr: NDArray[np.int64]
    cell_polys: NDArray[np.int64]
    grid: NDArray[np.float64]


def bucket_grid(mesh: PolyMesh) -> BucketGrid:
    """The point-location grid of ``mesh`` (built once per mesh and cached on it)."""
    cached = mesh._cache.get("grid")
    if cached is not None:
        return cached
    n = mesh.n_polygons
    if n == 0:
        out = BucketGrid(np.zeros(1, np.int64), np.zeros(0, np.int64), np.array([0.0, 0.0, 1.0, 0.0, 0.0]))
        mesh._cache["grid"] = out
        return out
    xy = mesh.vertices[mesh.indices]
    lo = np.minimum.reduceat(xy, mesh.indptr[:-1], axis=0)
    hi = np.maximum.reduceat(xy, mesh.indptr[:-1], axis=0)
    x0, y0 = lo.min(axis=0)
    x1, y1 = hi.max(axis=0)
    w, h = max(x1 - x0, 1e-300), max(y1 - y0, 1e-300)
    cells = max(n, min(CELLS_PER_POLYGON * n, MIN_CELLS))
    size = math.sqrt(w * h / cells) if w * h > 0 else max(w, h) / cells
    size = max(size, max(w, h) / 4096.0)
    inv = 1.0 / size
    nx = int(math.floor(w * inv)) + 1
    ny = int(math.floor(h * inv)) + 1
    cx0 = np.clip(np.floor((lo[:, 0] - x0) * inv).astype(np.int64), 0, nx - 1)
    cx1 = np.clip(np.floor((hi[:, 0] - x0) * inv).astype(np.int64), 0, nx - 1)
    cy0 = np.clip(np.floor((lo[:, 1] - y0) * inv).astype(np.int64), 0, ny - 1)
    cy1 = np.clip(np.floor((hi[:, 1] - y0) * inv).astype(np.int64), 0, ny - 1)
    wx, wy = cx1 - cx0 + 1, cy1 - cy0 + 1
    counts = wx * wy
    poly = np.repeat(np.arange(n, dtype=np.int64), counts)
    k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    cells = (np.repeat(cy0, counts) + k // np.repeat(wx, counts)) * nx + np.repeat(cx0, counts) + k % np.repeat(wx, counts)
    order = np.argsort(cells, kind="stable")
    poly, cells = poly[order], cells[order]
    scale = max(w, h, abs(x0), abs(y0), abs(x1), abs(y1))
    records, tested = _records(mesh, poly, cells, nx, x0, y0, size, MARGIN * scale, MARGIN * scale * scale)
    cell_ptr = np.zeros(nx * ny + 1, np.int64)
    np.cumsum(np.bincount(cells, weights=records, minlength=nx * ny).astype(np.int64), out=cell_ptr[1:])
    out = BucketGrid(cell_ptr, tested, np.array([x0, y0, inv, nx, ny], dtype=np.float64))
    mesh._cache["grid"] = out
    return out


def _records(mesh: PolyMesh, poly, cells, nx: int, x0: float, y0: float, size: float, widen: float,
             clear: float) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The cell lists of :class:`BucketGrid` for the (cell, polygon) pairs ``cells`` / ``poly``
    (sorted by cell): the length of each pair's record (0: the polygon is left out) and the
    records one after the other. ``widen``: how far the cell is widened; ``clear``: how far
    from 0 an orientation must be to count as one side."""
    indptr, indices, v = mesh.indptr, mesh.indices, mesh.vertices
    deg = np.diff(indptr)[poly]
    pair = np.repeat(np.arange(len(poly)), deg)  # one row per (pair, edge of its polygon)
    slot = indptr[poly][pair] + np.arange(len(pair)) - np.repeat(np.cumsum(deg) - deg, deg)
    a = indices[slot]
    b = indices[next_slots(indptr)[slot]]
    ax, ay = v[a, 0], v[a, 1]
    dx, dy = v[b, 0] - ax, v[b, 1] - ay
    # the edge's orientation (as the kernel's test) at the cell's centre, and how far it varies
    # over the widened cell
    half = 0.5 * size + widen
    centre_x = x0 + ((cells % nx)[pair] + 0.5) * size
    centre_y = y0 + ((cells // nx)[pair] + 0.5) * size
    mid = dx * (centre_y - ay) - dy * (centre_x - ax)
    spread = (np.abs(dx) + np.abs(dy)) * half
    inner = mid - spread > clear  # the whole cell inside this edge: no test
    outer = mid + spread < -clear  # the whole cell outside: the polygon has no point in the cell
    gone = np.bincount(pair, weights=outer, minlength=len(poly)) > 0
    test = ~inner & ~gone[pair]
    n_tests = np.bincount(pair, weights=test, minlength=len(poly)).astype(np.int64)
    length = np.where(gone, 0, 2 + n_tests)
    start = np.cumsum(length) - length
    out = np.empty(int(length.sum()), np.int64)
    kept = ~gone
    out[start[kept]] = poly[kept]
    out[start[kept] + 1] = n_tests[kept]
    rank = (np.cumsum(test) - 1 - np.repeat(np.cumsum(n_tests) - n_tests, deg))[test]  # an edge's place in its record
    out[start[pair[test]] + 2 + rank] = a[test] + (b[test].astype(np.int64) << EDGE_SHIFT)
    return length, out
