"""The grid as a :class:`~navmesh.graph.NavGraph`: one node per cell, one arc per allowed step.

Graph searches with default weights then solve the same problem as the grid searches (see
:meth:`navmesh.grid.GridMap.to_navgraph`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from navmesh._kernels.grid import DCOL, DROW, STEP_LEN
from navmesh.graph import NavGraph

if TYPE_CHECKING:
    from navmesh.grid.map import GridMap

__all__ = ["grid_graph"]


def grid_graph(grid: GridMap) -> NavGraph:
    """Node ``i`` is cell ``i`` at its centre, arcs carry the step costs, wrapped steps the tag ``"wrap"``."""
    a = grid.arrays
    h, w = grid.height, grid.width
    rows, cols = np.divmod(np.arange(grid.n_cells, dtype=np.int64), w)
    src_parts, dst_parts, len_parts, tag_parts = [], [], [], []
    for d in range(8):
        src = np.flatnonzero(a.moves & (1 << d))
        if src.size == 0:
            continue
        r2 = rows[src] + int(DROW[d])
        c2 = cols[src] + int(DCOL[d])
        crossed = (r2 < 0) | (r2 >= h) | (c2 < 0) | (c2 >= w)
        dst = (r2 % h) * w + (c2 % w)
        src_parts.append(src)
        dst_parts.append(dst)
        len_parts.append(STEP_LEN[d] * (a.half_cost[src] + a.half_cost[dst]))
        tag_parts.append(crossed.astype(np.int32))
    if src_parts:
        src = np.concatenate(src_parts)
        dst = np.concatenate(dst_parts)
        lens = np.concatenate(len_parts)
        tags = np.concatenate(tag_parts)
    else:
        src = dst = np.zeros(0, dtype=np.int64)
        lens = np.zeros(0)
        tags = np.zeros(0, dtype=np.int32)
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(grid.n_cells + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=grid.n_cells), out=indptr[1:])
    points = grid.cell_center(np.arange(grid.n_cells, dtype=np.int64))
    return NavGraph(points, indptr, dst[order], lens[order], tags[order], ("", "wrap"))
