"""Point location on a :class:`~navmesh.polymesh.mesh.PolyMesh`: a uniform bucket grid.

Each cell of a grid of about one cell per polygon lists the polygons whose bounding box meets
it; a query reads one cell and tests its few polygons exactly (a point is in a convex polygon
when it is on the inner side of, or on, every edge), so locating a point costs O(1) on meshes
of evenly sized polygons and never more than the polygons of one cell. Points on a shared edge
or vertex belong to every polygon around them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from navmesh.polymesh.mesh import PolyMesh

__all__ = ["BucketGrid", "bucket_grid"]


@dataclass(frozen=True, eq=False)
class BucketGrid:
    """Cells (row-major, x fastest) listing the polygons whose bounding box meets them.

    Attributes
    ----------
    cell_ptr, cell_polys : int64 arrays
        CSR lists of polygon ids per cell.
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
    size = math.sqrt(w * h / n) if w * h > 0 else max(w, h) / max(n, 1)
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
    cell_ptr = np.zeros(nx * ny + 1, np.int64)
    np.cumsum(np.bincount(cells, minlength=nx * ny), out=cell_ptr[1:])
    out = BucketGrid(cell_ptr, poly[order], np.array([x0, y0, inv, nx, ny], dtype=np.float64))
    mesh._cache["grid"] = out
    return out
