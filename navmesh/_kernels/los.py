"""numba line-of-sight kernels: segments tested against wall edges bucketed in a uniform grid.

Line-of-sight rule (that of :class:`navmesh.geometry.LineOfSight`): a segment is blocked when
it enters the interior of an (inflated) obstacle, leaves the walkable area, passes through a
pinch point (a point where the free space narrows to zero width) or runs along a seam (an edge an
obstacle shares with the bounds outline). Touching or running along any other boundary, touching
a corner, and ending at a pinch point are allowed. Walls are stored as
directed edges with the free side on their left: the rings of every inflated obstacle part
(obstacle on the right) and of the walkable area (outside on the right). A segment is free when
it properly crosses no wall edge, leaves no wall vertex it passes through into a blocked wedge of
that vertex, passes through no pinch point strictly between its ends and overlaps no seam. The orientation tests
are exact for coordinates on a grid (integers, halves) and agree with shapely's robust predicates
except within rounding of an exact tie.

Kernels trust their inputs and also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

_EPS_CELL = 1e-9  # grid-units margin so a point on a cell border is looked up in both cells


class WallGrid(NamedTuple):
    """Edges and pinch points bucketed in uniform grids (the array layout the kernels read).

    Attributes
    ----------
    edges : float64 array (E, 6)
        ``x0, y0, x1, y1, px, py``: edge from (x0, y0) to (x1, y1), free side on the left;
        (px, py) is the vertex before (x0, y0) on its ring (the other side of that corner).
    grid : float64 array (5,)
        ``origin_x, origin_y, cell_size, nx, ny``.
    cell_ptr : int64 array (nx * ny + 1,), cell_items : int32 array
        Cell ``c = iy * nx + ix`` holds edges ``cell_items[cell_ptr[c]:cell_ptr[c + 1]]``.
    pinches : float64 array (P, 6)
        Zero-width gaps: pinch points as zero-length rows (x, y, x, y, x, y) and seams (edges an
        obstacle shares with the bounds outline) as rows (x0, y0, x1, y1, x0, y0).
    pinch_grid, pinch_ptr, pinch_items
        The same bucketing for the gaps.
    """

    edges: NDArray[np.float64]
    grid: NDArray[np.float64]
    cell_ptr: NDArray[np.int64]
    cell_items: NDArray[np.int32]
    pinches: NDArray[np.float64]
    pinch_grid: NDArray[np.float64]
    pinch_ptr: NDArray[np.int64]
    pinch_items: NDArray[np.int32]


def _bucketed(edges: NDArray[np.float64], extent: tuple[float, float, float, float] | None):
    edges = np.ascontiguousarray(edges, dtype=np.float64).reshape(-1, 6)
    n = len(edges)
    if extent is None:
        if n:
            xs = np.concatenate([edges[:, 0], edges[:, 2]])
            ys = np.concatenate([edges[:, 1], edges[:, 3]])
            extent = (xs.min(), ys.min(), xs.max(), ys.max())
        else:
            extent = (0.0, 0.0, 1.0, 1.0)
    x0, y0, x1, y1 = (float(v) for v in extent)
    w = max(x1 - x0, 1e-9)
    h = max(y1 - y0, 1e-9)
    if n:
        mean_len = float(np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1]).mean())
        cs = max(mean_len, np.sqrt(w * h / n), 1e-9)
    else:
        cs = max(w, h)
    nx = int(min(max(np.ceil(w / cs), 1), 4096))
    ny = int(min(max(np.ceil(h / cs), 1), 4096))
    cs = max(cs, w / nx, h / ny)
    grid = np.array([x0, y0, cs, nx, ny], dtype=np.float64)
    counts = np.zeros(nx * ny, np.int64)
    _bucket(edges, grid, counts, np.empty(0, np.int64), np.empty(0, np.int32), False)
    cell_ptr = np.zeros(nx * ny + 1, np.int64)
    np.cumsum(counts, out=cell_ptr[1:])
    cell_items = np.empty(int(cell_ptr[-1]), np.int32)
    _bucket(edges, grid, np.zeros(nx * ny, np.int64), cell_ptr, cell_items, True)
    return edges, grid, cell_ptr, cell_items


def wall_grid(
    edges: NDArray[np.float64],
    pinches: NDArray[np.float64] | None = None,
    seams: NDArray[np.float64] | None = None,
    *,
    extent: tuple[float, float, float, float] | None = None,
) -> WallGrid:
    """Bucket wall edges (rows ``x0, y0, x1, y1, px, py``), pinch points (rows ``x, y``) and
    seams (rows ``x0, y0, x1, y1``).

    The cell size is the larger of the mean edge length and sqrt(area / E), so a cell holds a few
    edges on average. ``extent`` (xmin, ymin, xmax, ymax) should cover the queried segments;
    cells outside it are clamped, which stays correct, only slower.
    """
    e, g, cp, ci = _bucketed(edges, extent)
    pts = np.zeros((0, 2)) if pinches is None else np.asarray(pinches, dtype=np.float64).reshape(-1, 2)
    sm = np.zeros((0, 4)) if seams is None else np.asarray(seams, dtype=np.float64).reshape(-1, 4)
    prow = np.concatenate([np.column_stack([pts, pts, pts]), np.column_stack([sm, sm[:, :2]])])
    pe, pg, pp, pi = _bucketed(prow, (float(g[0]), float(g[1]), float(g[0] + g[2] * g[3]), float(g[1] + g[2] * g[4])))
    return WallGrid(e, g, cp, ci, pe, pg, pp, pi)


def ring_edges(rings: list[NDArray[np.float64]]) -> NDArray[np.float64]:
    """Edge rows (x0, y0, x1, y1, px, py) of closed rings given as (k, 2) vertex arrays.

    Each ring is walked in the given order (free side on the left); a closing duplicate vertex
    and repeated consecutive vertices are dropped.
    """
    rings = [np.asarray(r, dtype=np.float64)[:, :2] for r in rings]
    rings = [r for r in rings if len(r)]
    if not rings:
        return np.zeros((0, 6))
    ring_id = np.repeat(np.arange(len(rings)), [len(r) for r in rings])
    return ring_edges_flat(np.concatenate(rings), ring_id)


def ring_edges_flat(coords: NDArray[np.float64], ring_id: NDArray[np.int64]) -> NDArray[np.float64]:
    """:func:`ring_edges` for rings stored one after another: ``coords`` (k, 2) and the ring
    number of each row (non-decreasing), as ``shapely.get_coordinates(rings, return_index=True)``
    gives them."""
    c = np.asarray(coords, dtype=np.float64)[:, :2]
    rid = np.asarray(ring_id, dtype=np.int64)
    if len(c) == 0:
        return np.zeros((0, 6))
    last = np.ones(len(c), dtype=bool)
    last[:-1] = rid[1:] != rid[:-1]
    first = np.ones(len(c), dtype=bool)
    first[1:] = rid[1:] != rid[:-1]
    starts = np.flatnonzero(first)
    closing = last & np.all(c == c[starts[np.searchsorted(starts, np.arange(len(c)), side="right") - 1]], axis=1) & ~first
    keep = ~closing
    keep[1:] &= np.any(c[1:] != c[:-1], axis=1) | (rid[1:] != rid[:-1])
    c, rid = c[keep], rid[keep]
    if len(c) == 0:
        return np.zeros((0, 6))
    _, rid = np.unique(rid, return_inverse=True)
    rid = rid.reshape(-1)
    sizes = np.bincount(rid)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    pos = np.arange(len(c)) - starts[rid]
    size = sizes[rid]
    nxt = starts[rid] + (pos + 1) % size
    prv = starts[rid] + (pos - 1) % size
    good = (size >= 2) & np.any(c[nxt] != c, axis=1)
    return np.column_stack([c, c[nxt], c[prv]])[good]


def segment_edges(segments: NDArray[np.float64]) -> NDArray[np.float64]:
    """Edge rows for loose segments (m, 4) ``x0, y0, x1, y1`` (barriers: no corner information)."""
    s = np.asarray(segments, dtype=np.float64).reshape(-1, 4)
    return np.column_stack([s, s[:, :2]])


@njit(cache=True)
def _bucket(edges, grid, fill, cell_ptr, cell_items, write):
    """Count (write=False, into ``fill``) or store (write=True) the cells each edge passes."""
    nx = int(grid[3])
    for e in range(edges.shape[0]):
        ax, ay, bx, by = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
        i0, i1 = _col_range(ax, bx, grid)
        for ix in range(i0, i1 + 1):
            j0, j1 = _row_range(ax, ay, bx, by, ix, grid)
            for iy in range(j0, j1 + 1):
                c = iy * nx + ix
                if write:
                    cell_items[cell_ptr[c] + fill[c]] = e
                fill[c] += 1


@njit(cache=True, inline="always")
def _clamp(i, n):
    if i < 0:
        return 0
    if i > n - 1:
        return n - 1
    return i


@njit(cache=True, inline="always")
def _col_range(ax, bx, grid):
    ox, cs, nx = grid[0], grid[2], int(grid[3])
    ua = (min(ax, bx) - ox) / cs
    ub = (max(ax, bx) - ox) / cs
    return _clamp(int(np.floor(ua - _EPS_CELL)), nx), _clamp(int(np.floor(ub + _EPS_CELL)), nx)


@njit(cache=True, inline="always")
def _row_range(ax, ay, bx, by, ix, grid):
    """Rows of column ``ix`` that the segment may touch (conservative)."""
    ox, oy, cs, nx, ny = grid[0], grid[1], grid[2], int(grid[3]), int(grid[4])
    if ax > bx:
        ax, ay, bx, by = bx, by, ax, ay
    if bx - ax <= 0.0:
        ylo, yhi = min(ay, by), max(ay, by)
    else:
        cx0 = ox + ix * cs
        cx1 = cx0 + cs
        if ix == 0:
            cx0 = min(cx0, ax)
        if ix == nx - 1:
            cx1 = max(cx1, bx)
        xa = max(ax, cx0)
        xb = min(bx, cx1)
        if xa > xb:
            xa, xb = ax, bx
        slope = (by - ay) / (bx - ax)
        ya = ay + (xa - ax) * slope
        yb = ay + (xb - ax) * slope
        ylo, yhi = min(ya, yb), max(ya, yb)
    return (
        _clamp(int(np.floor((ylo - oy) / cs - _EPS_CELL)), ny),
        _clamp(int(np.floor((yhi - oy) / cs + _EPS_CELL)), ny),
    )


@njit(cache=True, inline="always")
def _in_free_wedge(edges, e, dx, dy):
    """Whether direction (dx, dy) from the start vertex of edge ``e`` lies in the closed free
    wedge of that corner (from the outgoing edge counter-clockwise to the incoming one)."""
    vx, vy = edges[e, 0], edges[e, 1]
    ax, ay = edges[e, 2] - vx, edges[e, 3] - vy
    bx, by = edges[e, 4] - vx, edges[e, 5] - vy
    c_ab = ax * by - ay * bx
    c_ad = ax * dy - ay * dx
    c_db = dx * by - dy * bx
    if c_ab > 0.0:
        return c_ad >= 0.0 and c_db >= 0.0
    if c_ab < 0.0:
        return c_ad >= 0.0 or c_db >= 0.0
    if ax * bx + ay * by < 0.0:  # straight corner: the left half-plane
        return c_ad >= 0.0
    return True  # zero-width spike: only its line is blocked


@njit(cache=True)
def segment_free(ax, ay, bx, by, edges, grid, cell_ptr, cell_items, pinches, pinch_grid, pinch_ptr, pinch_items):
    """Line of sight from (ax, ay) to (bx, by) under the module's rule.

    Assumes both end points are walkable (waypoints and snapped positions are).
    """
    dx = bx - ax
    dy = by - ay
    dd = dx * dx + dy * dy
    if dd == 0.0:
        return True
    nx = int(grid[3])
    i0, i1 = _col_range(ax, bx, grid)
    for ix in range(i0, i1 + 1):
        j0, j1 = _row_range(ax, ay, bx, by, ix, grid)
        for iy in range(j0, j1 + 1):
            c = iy * nx + ix
            for k in range(cell_ptr[c], cell_ptr[c + 1]):
                e = cell_items[k]
                px, py, qx, qy = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
                o1 = dx * (py - ay) - dy * (px - ax)
                o2 = dx * (qy - ay) - dy * (qx - ax)
                if (o1 > 0.0 and o2 < 0.0) or (o1 < 0.0 and o2 > 0.0):
                    ex = qx - px
                    ey = qy - py
                    o3 = ex * (ay - py) - ey * (ax - px)
                    o4 = ex * (by - py) - ey * (bx - px)
                    if (o3 > 0.0 and o4 < 0.0) or (o3 < 0.0 and o4 > 0.0):
                        return False  # proper crossing
                    side = ex * dy - ey * dx
                    if o3 == 0.0 and side < 0.0:
                        return False  # starts on the wall and leaves into the blocked side
                    if o4 == 0.0 and side > 0.0:
                        return False  # ends on the wall, arriving from the blocked side
                elif o1 == 0.0:
                    t = (px - ax) * dx + (py - ay) * dy
                    if 0.0 <= t <= dd:
                        if t > 0.0 and not _in_free_wedge(edges, e, -dx, -dy):
                            return False
                        if t < dd and not _in_free_wedge(edges, e, dx, dy):
                            return False
    if pinches.shape[0] == 0:
        return True
    nx = int(pinch_grid[3])
    i0, i1 = _col_range(ax, bx, pinch_grid)
    for ix in range(i0, i1 + 1):
        j0, j1 = _row_range(ax, ay, bx, by, ix, pinch_grid)
        for iy in range(j0, j1 + 1):
            c = iy * nx + ix
            for k in range(pinch_ptr[c], pinch_ptr[c + 1]):
                r = pinch_items[k]
                px, py, qx, qy = pinches[r, 0], pinches[r, 1], pinches[r, 2], pinches[r, 3]
                if dx * (py - ay) - dy * (px - ax) != 0.0 or dx * (qy - ay) - dy * (qx - ax) != 0.0:
                    continue
                tp = (px - ax) * dx + (py - ay) * dy
                tq = (qx - ax) * dx + (qy - ay) * dy
                if px == qx and py == qy:
                    if 0.0 < tp < dd:
                        return False  # passes through a pinch point
                elif min(dd, max(tp, tq)) > max(0.0, min(tp, tq)):
                    return False  # runs along a seam for a positive length
    return True


@njit(cache=True)
def segment_touches(ax, ay, bx, by, edges, grid, cell_ptr, cell_items):
    """Whether the closed segment meets any edge at all (crossing, touching or overlapping)."""
    dx = bx - ax
    dy = by - ay
    nx = int(grid[3])
    i0, i1 = _col_range(ax, bx, grid)
    for ix in range(i0, i1 + 1):
        j0, j1 = _row_range(ax, ay, bx, by, ix, grid)
        for iy in range(j0, j1 + 1):
            c = iy * nx + ix
            for k in range(cell_ptr[c], cell_ptr[c + 1]):
                e = cell_items[k]
                px, py, qx, qy = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
                if _closed_segments_meet(ax, ay, bx, by, px, py, qx, qy, dx, dy):
                    return True
    return False


@njit(cache=True, inline="always")
def _on_segment(ax, ay, bx, by, px, py):
    """For p collinear with a-b: whether p lies within the closed segment."""
    return min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by)


@njit(cache=True, inline="always")
def _closed_segments_meet(ax, ay, bx, by, px, py, qx, qy, dx, dy):
    o1 = dx * (py - ay) - dy * (px - ax)
    o2 = dx * (qy - ay) - dy * (qx - ax)
    ex = qx - px
    ey = qy - py
    o3 = ex * (ay - py) - ey * (ax - px)
    o4 = ex * (by - py) - ey * (bx - px)
    if ((o1 > 0.0 and o2 < 0.0) or (o1 < 0.0 and o2 > 0.0)) and ((o3 > 0.0 and o4 < 0.0) or (o3 < 0.0 and o4 > 0.0)):
        return True
    if o1 == 0.0 and _on_segment(ax, ay, bx, by, px, py):
        return True
    if o2 == 0.0 and _on_segment(ax, ay, bx, by, qx, qy):
        return True
    if o3 == 0.0 and _on_segment(px, py, qx, qy, ax, ay):
        return True
    if o4 == 0.0 and _on_segment(px, py, qx, qy, bx, by):
        return True
    return False


@njit(cache=True)
def segments_free(a, b, edges, grid, cell_ptr, cell_items, pinches, pinch_grid, pinch_ptr, pinch_items):
    """Bulk :func:`segment_free`: ``a``, ``b`` of shape (m, 2); returns bool (m,)."""
    m = a.shape[0]
    out = np.empty(m, np.bool_)
    for i in range(m):
        out[i] = segment_free(
            a[i, 0], a[i, 1], b[i, 0], b[i, 1],
            edges, grid, cell_ptr, cell_items, pinches, pinch_grid, pinch_ptr, pinch_items,
        )
    return out


@njit(cache=True)
def segments_touch(a, b, edges, grid, cell_ptr, cell_items):
    """Bulk :func:`segment_touches`: ``a``, ``b`` of shape (m, 2); returns bool (m,)."""
    m = a.shape[0]
    out = np.empty(m, np.bool_)
    for i in range(m):
        out[i] = segment_touches(a[i, 0], a[i, 1], b[i, 0], b[i, 1], edges, grid, cell_ptr, cell_items)
    return out
