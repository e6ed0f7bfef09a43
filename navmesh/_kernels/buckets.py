"""numba kernels of the uniform grid that buckets segments and points for fast neighbour lookups.

One layout for every grid here: ``grid = (origin_x, origin_y, cell_size, nx, ny)`` (float64, 5),
cell ``c = iy * nx + ix``, and CSR buckets ``ptr`` (cells + 1,) / ``items``: cell ``c`` holds
``items[ptr[c]:ptr[c + 1]]``. Several layers of one grid (the wall classes of the steering layer)
sit one after the other: layer ``k`` owns cells ``k * nx * ny .. (k + 1) * nx * ny - 1``.

Moving points (crowd units) are bucketed without a bounding grid: each point's cell (of side
``cs``, origin 0) is wrapped onto a torus of about twice as many cells as points
(:func:`hash_points`), so the table stays small however far apart the points stand, and a query
visits the 3 x 3 cells around it as three runs of consecutive buckets (:func:`near_runs`).
Points of other cells sharing a bucket are candidates that the caller's distance test rejects.

Kernels trust their inputs and also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import math

import numpy as np

from navmesh._kernels.los import _clamp as clamp_index
from navmesh._kernels.signatures import njit, plain_arguments

CELL_EPS = 1e-9  # grid-units margin so a segment on a cell border is listed in both cells


@njit(cache=True, internal=True)
def column_rows(gx0, gy0, gx1, gy1, ix, ny):
    """The rows ``(lo, hi)`` (inclusive, clipped to ``0 .. ny - 1``) that the segment from
    (gx0, gy0) to (gx1, gy1), in grid units, passes in column ``ix``: between where it enters
    and leaves the column, widened by ``CELL_EPS``."""
    # min / max written out (as Python's: ``b if b < a else a`` is min(a, b)): this kernel is
    # internal, and numba compiles its builtins once more for an internal kernel's options
    lo = gx1 if gx1 < gx0 else gx0
    hi = gx1 if gx1 > gx0 else gx0
    fx = float(ix)
    xa = fx if fx > lo else lo
    fx = float(ix + 1)
    xb = fx if fx < hi else hi
    if gx1 != gx0:
        ya = gy0 + (gy1 - gy0) * (xa - gx0) / (gx1 - gx0)
        yb = gy0 + (gy1 - gy0) * (xb - gx0) / (gx1 - gx0)
    else:
        ya, yb = gy0, gy1
    return (clamp_index(math.floor((yb if yb < ya else ya) - CELL_EPS), ny - 1),
            clamp_index(math.floor((yb if yb > ya else ya) + CELL_EPS), ny - 1))


def bucket_segments(layers, grid):
    """CSR buckets ``(ptr, items)`` of the segments of several layers of one grid: ``layers[k]``
    (m_k, 4; columns x0, y0, x1, y1) fills cells ``k * nx * ny ..`` (see the module notes);
    item ids count the segments of all layers in order (layer 0's first). A cell lists its
    segments in id order.

    A segment's cells are those of the column-by-column walk of
    :func:`navmesh._kernels.walls.crossing`: each column's rows as :func:`column_rows` gives
    them, computed here with the same arithmetic. numpy rather than a kernel: it runs once per
    :class:`navmesh.steering.Walls`, and as a kernel it cost about half a second of every cold
    compile."""
    ox, oy, cs, nx, ny = float(grid[0]), float(grid[1]), float(grid[2]), int(grid[3]), int(grid[4])
    n_cells = nx * ny
    cells, ids = [], []
    base = 0
    for layer, segments in enumerate(layers):
        seg = np.asarray(segments, np.float64).reshape(-1, 4)
        m = len(seg)
        gx0, gy0 = (seg[:, 0] - ox) / cs, (seg[:, 1] - oy) / cs
        gx1, gy1 = (seg[:, 2] - ox) / cs, (seg[:, 3] - oy) / cs
        swap = gx1 < gx0
        gx0, gx1 = np.where(swap, gx1, gx0), np.where(swap, gx0, gx1)
        gy0, gy1 = np.where(swap, gy1, gy0), np.where(swap, gy0, gy1)
        i0 = np.maximum(np.floor(gx0 - CELL_EPS), 0.0).astype(np.int64)
        i1 = np.minimum(np.floor(gx1 + CELL_EPS), nx - 1.0).astype(np.int64)
        n_col = np.maximum(i1 - i0 + 1, 0)
        e = np.repeat(np.arange(m, dtype=np.int64), n_col)
        ix = i0[e] + np.arange(len(e), dtype=np.int64) - np.repeat(np.cumsum(n_col) - n_col, n_col)
        # column_rows, per (segment, column)
        a0, a1, b0, b1 = gx0[e], gy0[e], gx1[e], gy1[e]
        fx = ix.astype(np.float64)
        xa = np.maximum(np.minimum(a0, b0), fx)
        xb = np.minimum(np.maximum(a0, b0), fx + 1.0)
        slanted = b0 != a0
        run = np.where(slanted, b0 - a0, 1.0)
        ya = np.where(slanted, a1 + (b1 - a1) * (xa - a0) / run, a1)
        yb = np.where(slanted, a1 + (b1 - a1) * (xb - a0) / run, b1)
        lo = np.maximum(np.floor(np.minimum(ya, yb) - CELL_EPS), 0.0).astype(np.int64)
        hi = np.minimum(np.floor(np.maximum(ya, yb) + CELL_EPS), ny - 1.0).astype(np.int64)
        n_row = np.maximum(hi - lo + 1, 0)
        k = np.repeat(np.arange(len(e), dtype=np.int64), n_row)
        iy = lo[k] + np.arange(len(k), dtype=np.int64) - np.repeat(np.cumsum(n_row) - n_row, n_row)
        cells.append(layer * n_cells + iy * nx + ix[k])
        ids.append(base + e[k])
        base += m
    cell = np.concatenate(cells) if cells else np.zeros(0, np.int64)
    item = np.concatenate(ids) if ids else np.zeros(0, np.int64)
    order = np.argsort(cell, kind="stable")  # (each segment's cells come in id order)
    ptr = np.zeros(len(layers) * n_cells + 1, np.int64)
    np.cumsum(np.bincount(cell, minlength=len(layers) * n_cells), out=ptr[1:])
    return ptr, item[order]


@njit(cache=True)
def hash_points(pos, active, cs):
    """Counting sort of the active rows of ``pos`` (n, 2) by the bucket of their cell of side
    ``cs`` (> 0). The buckets are the cells of a torus of ``side x side`` cells (``side`` a power
    of two >= 8, ``side * side >= 2 n``): cell (ix, iy) falls in bucket
    ``(iy mod side) * side + ix mod side``, so the 3 x 3 cells around a point are nine distinct
    buckets, three consecutive ones per row (:func:`near_runs`). Returns ``(ptr, items, mask)``:
    bucket ``b`` (``0 <= b <= mask = side * side - 1``) holds the points ``items[ptr[b]:ptr[b + 1]]``."""
    n = pos.shape[0]
    side = 8
    while side * side < 2 * n:
        side *= 2
    size = side * side
    sm = side - 1
    bucket = np.empty(n, np.int64)
    ptr = np.empty(size + 1, np.int64)
    for b in range(size + 1):
        ptr[b] = 0
    for i in range(n):
        if active[i]:
            b = (math.floor(pos[i, 1] / cs) & sm) * side + (math.floor(pos[i, 0] / cs) & sm)
            bucket[i] = b
            ptr[b + 1] += 1
        else:
            bucket[i] = -1
    for b in range(size):
        ptr[b + 1] += ptr[b]
    fill = ptr[:-1].copy()
    items = np.empty(ptr[size], np.int64)
    for i in range(n):
        b = bucket[i]
        if b >= 0:
            items[fill[b]] = i
            fill[b] += 1
    return ptr, items, size - 1


@njit(cache=True, internal=True)
def near_runs(x, y, cs, mask, out):
    """The buckets of :func:`hash_points` (``mask`` from it) of the 3 x 3 cells around (x, y)
    as runs of consecutive buckets: run ``r`` is ``out[2 r] .. out[2 r + 1]`` (inclusive;
    ``out`` >= 18); returns the count of runs (3, or more where a row wraps round the torus).
    The runs are distinct, and every point closer than ``cs`` to (x, y) is in one."""
    side = 8
    while side * side <= mask:
        side *= 2
    sm = side - 1
    ix, iy = math.floor(x / cs), math.floor(y / cs)
    x0 = (ix - 1) & sm
    m = 0
    for dy in range(-1, 2):
        row = ((iy + dy) & sm) * side
        if x0 <= side - 3:
            out[m], out[m + 1] = row + x0, row + x0 + 2
            m += 2
        else:
            for dx in range(3):
                b = row + ((x0 + dx) & sm)
                out[m], out[m + 1] = b, b
                m += 2
    return m // 2


plain_arguments(globals())
