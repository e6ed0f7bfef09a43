"""numba line-of-sight kernels: segments tested against wall edges bucketed in a uniform grid.

They implement the line-of-sight rule written down in :mod:`navmesh.sight` (read it there);
:class:`navmesh.sight.LineOfSight` prepares the arrays (its ``edges`` and ``gaps``) and
:func:`navmesh.waypoints.linking.wall_grid_for` buckets them. Every decision is a sign of an
exact orientation test (:func:`orient`: a floating-point filter with Shewchuk's error bound,
then an exact expansion sum when the filter cannot decide) or a comparison of input
coordinates, so the answer is exact for any finite float coordinates (barring overflow beyond
about 1e150) and equals the shapely backend's, which takes the same decisions with numpy and
rational arithmetic.

Walls are directed edges with the free side on their left: the rings of every inflated obstacle
part (obstacle on the right) and of the walkable area (outside on the right). A segment is free
when it properly crosses no wall edge, does not start or end inside an edge leaving or arriving
from its blocked side, passes or touches each wall corner inside that corner's closed free wedge
(on both sides of the corner when it passes through), and obeys the pinch and seam rows of the
gap table.

Kernels trust their inputs (walkable segment ends) and also run as plain Python with
``NUMBA_DISABLE_JIT=1``. The per-segment kernels neither allocate nor return arrays, so they are
compiled without numba's reference counting (``_nrt=False``, as Polyanya's): every caller links
them, and the counting of each array argument at every call was code (and atomic updates) of its
own. :func:`_orient_exact` allocates, so it names reference counting (``_nrt=True``): numba would
otherwise pass a caller's ``_nrt=False`` on to it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from numpy.typing import NDArray

from navmesh._kernels.signatures import njit, plain_arguments

_EPS_CELL = 1e-9  # grid-units margin so a point on a cell border is looked up in both cells
_ERR_BOUND = 3.3306690738754716e-16  # Shewchuk's ccwerrboundA, (3 + 16 eps) eps with eps = 2^-53
_SPLITTER = 134217729.0  # 2^27 + 1, Dekker's split of a double into two 26-bit halves

# kinds of gap-table rows (column 0)
GAP_SEAM = 0.0  # x0, y0, x1, y1: an edge an obstacle shares with the bounds outline
GAP_PINCH = 1.0  # x, y, n_wedges, principal wedge (-1: none): a pinch point; its wedges follow
GAP_WEDGE = 2.0  # ax, ay, bx, by: a free wedge of the pinch above, from ray (a - p) ccw to ray (b - p)


class WallGrid(NamedTuple):
    """Wall edges and the gap table bucketed in uniform grids (the array layout the kernels read).

    Attributes
    ----------
    edges : float64 array (E, 7)
        ``x0, y0, x1, y1, px, py, pinch``: edge from (x0, y0) to (x1, y1), free side on the left;
        (px, py) is the vertex before (x0, y0) on its ring (the other side of that corner);
        ``pinch`` is 1 when (x0, y0) is a pinch point (its corner is then judged by the gap table).
    grid : float64 array (5,)
        ``origin_x, origin_y, cell_size, nx, ny``.
    cell_ptr : int64 array (nx * ny + 1,), cell_items : int32 array
        Cell ``c = iy * nx + ix`` holds edges ``cell_items[cell_ptr[c]:cell_ptr[c + 1]]``.
    gaps : float64 array (G, 5)
        The gap table: ``kind, x0, y0, x1, y1`` rows (see ``GAP_SEAM``, ``GAP_PINCH``, ``GAP_WEDGE``).
    gap_grid, gap_ptr, gap_items
        The same bucketing for the seam and pinch rows.
    """

    edges: NDArray[np.float64]
    grid: NDArray[np.float64]
    cell_ptr: NDArray[np.int64]
    cell_items: NDArray[np.int32]
    gaps: NDArray[np.float64]
    gap_grid: NDArray[np.float64]
    gap_ptr: NDArray[np.int64]
    gap_items: NDArray[np.int32]


def _bucketed(coords: NDArray[np.float64], extent: tuple[float, float, float, float] | None):
    """Grid and CSR buckets of segments ``coords`` (n, >= 4; columns x0, y0, x1, y1)."""
    coords = np.ascontiguousarray(coords, dtype=np.float64)
    n = len(coords)
    if extent is None:
        if n:
            xs = np.concatenate([coords[:, 0], coords[:, 2]])
            ys = np.concatenate([coords[:, 1], coords[:, 3]])
            extent = (xs.min(), ys.min(), xs.max(), ys.max())
        else:
            extent = (0.0, 0.0, 1.0, 1.0)
    x0, y0, x1, y1 = (float(v) for v in extent)
    w = max(x1 - x0, 1e-9)
    h = max(y1 - y0, 1e-9)
    if n:
        mean_len = float(np.hypot(coords[:, 2] - coords[:, 0], coords[:, 3] - coords[:, 1]).mean())
        cs = max(mean_len, np.sqrt(w * h / n), 1e-9)
    else:
        cs = max(w, h)
    nx = int(min(max(np.ceil(w / cs), 1), 4096))
    ny = int(min(max(np.ceil(h / cs), 1), 4096))
    cs = max(cs, w / nx, h / ny)
    grid = np.array([x0, y0, cs, nx, ny], dtype=np.float64)
    counts = np.zeros(nx * ny, np.int64)
    _bucket(coords, grid, counts, np.empty(0, np.int64), np.empty(0, np.int32), False)
    cell_ptr = np.zeros(nx * ny + 1, np.int64)
    np.cumsum(counts, out=cell_ptr[1:])
    cell_items = np.empty(int(cell_ptr[-1]), np.int32)
    _bucket(coords, grid, np.zeros(nx * ny, np.int64), cell_ptr, cell_items, True)
    return grid, cell_ptr, cell_items


def wall_grid(
    edges: NDArray[np.float64],
    gaps: NDArray[np.float64] | None = None,
    *,
    extent: tuple[float, float, float, float] | None = None,
) -> WallGrid:
    """Bucket wall edges (rows ``x0, y0, x1, y1, px, py[, pinch]``) and a gap table (rows
    ``kind, x0, y0, x1, y1``; default none).

    The cell size is the larger of the mean edge length and sqrt(area / E), so a cell holds a few
    edges on average. ``extent`` (xmin, ymin, xmax, ymax) should cover the queried segments;
    cells outside it are clamped, which stays correct, only slower.
    """
    e = np.asarray(edges, dtype=np.float64)
    e = e.reshape(-1, e.shape[1] if e.ndim == 2 and e.shape[1] in (6, 7) else 6)
    if e.shape[1] == 6:
        e = np.column_stack([e, np.zeros(len(e))])
    e = np.ascontiguousarray(e)
    g, cp, ci = _bucketed(e[:, :4], extent)
    table = np.zeros((0, 5)) if gaps is None else np.ascontiguousarray(gaps, dtype=np.float64).reshape(-1, 5)
    listed = np.flatnonzero(table[:, 0] != GAP_WEDGE)
    coords = table[listed, 1:5].copy()
    point = table[listed, 0] == GAP_PINCH
    coords[point, 2:4] = coords[point, 0:2]
    gg, gp, gi = _bucketed(coords, (float(g[0]), float(g[1]), float(g[0] + g[2] * g[3]), float(g[1] + g[2] * g[4])))
    gi = listed[gi].astype(np.int32) if len(gi) else gi
    return WallGrid(e, g, cp, ci, table, gg, gp, gi)


def segment_edges(segments: NDArray[np.float64]) -> NDArray[np.float64]:
    """Edge rows for loose segments (m, 4) ``x0, y0, x1, y1`` (barriers: no corner information)."""
    s = np.asarray(segments, dtype=np.float64).reshape(-1, 4)
    return np.column_stack([s, s[:, :2], np.zeros(len(s))])


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


# The internal kernels below (and graph.metric) write min, max and int() as conditional expressions
# and np.int64: numba compiles its own min / max / int once per set of options of the calling
# kernel, so an internal kernel calling them compiled five more helpers (about 0.3 s cold). The
# expressions keep Python's semantics: min(a, b) is ``b if b < a else a``, max(a, b) is ``b if b > a else a``.


@njit(cache=True, internal=True, _nrt=False)
def _clamp(i, hi):
    """``min(max(i, 0), hi)``."""
    return 0 if i < 0 else (hi if i > hi else i)


@njit(cache=True, internal=True, _nrt=False)
def _col_range(ax, bx, grid):
    ox, cs, nx = grid[0], grid[2], np.int64(grid[3])
    ua = ((bx if bx < ax else ax) - ox) / cs
    ub = ((bx if bx > ax else ax) - ox) / cs
    # clamped to the grid's columns
    return _clamp(np.int64(np.floor(ua - _EPS_CELL)), nx - 1), _clamp(np.int64(np.floor(ub + _EPS_CELL)), nx - 1)


@njit(cache=True, internal=True, _nrt=False)
def _row_range(ax, ay, bx, by, ix, grid):
    """Rows of column ``ix`` that the segment may touch (conservative)."""
    ox, oy, cs, nx, ny = grid[0], grid[1], grid[2], np.int64(grid[3]), np.int64(grid[4])
    if ax > bx:
        ax, ay, bx, by = bx, by, ax, ay
    if bx - ax <= 0.0:
        ylo, yhi = (by if by < ay else ay), (by if by > ay else ay)
    else:
        cx0 = ox + ix * cs
        cx1 = cx0 + cs
        if ix == 0:
            cx0 = ax if ax < cx0 else cx0
        if ix == nx - 1:
            cx1 = bx if bx > cx1 else cx1
        xa = cx0 if cx0 > ax else ax
        xb = cx1 if cx1 < bx else bx
        if xa > xb:
            xa, xb = ax, bx
        slope = (by - ay) / (bx - ax)
        ya = ay + (xa - ax) * slope
        yb = ay + (xb - ax) * slope
        ylo, yhi = (yb if yb < ya else ya), (yb if yb > ya else ya)
    return (
        _clamp(np.int64(np.floor((ylo - oy) / cs - _EPS_CELL)), ny - 1),
        _clamp(np.int64(np.floor((yhi - oy) / cs + _EPS_CELL)), ny - 1),
    )


# -- exact orientation ------------------------------------------------------------------------
@njit(cache=True, _nrt=True)
def _orient_exact(ax, ay, bx, by, cx, cy):
    """Exact sign of the orientation determinant: the six products of its expansion summed as a
    non-overlapping floating-point expansion (Shewchuk's grow-expansion); the sign is that of
    the largest nonzero component."""
    # the twelve terms are grown into h as they are made (x then y of each product): the order of
    # a grow-expansion over a terms array, without that array (one allocation and its code fewer)
    h = np.empty(12)  # h[j] is read only for j < m, after it is written
    m = 0
    for t in range(12):
        i = t >> 1
        # the i-th product a * b as an exact sum x + y (Dekker, splitting at _SPLITTER)
        a = ax if i == 0 else (-ax if i == 1 else (-cx if i == 2 else (-ay if i == 3 else (ay if i == 4 else cy))))
        b = by if i == 0 else (cy if i == 1 else (by if i == 2 else (bx if i == 3 else (cx if i == 4 else bx))))
        x = a * b
        if t & 1:
            c = _SPLITTER * a
            ahi = c - (c - a)
            alo = a - ahi
            c = _SPLITTER * b
            bhi = c - (c - b)
            blo = b - bhi
            q = alo * blo - (((x - ahi * bhi) - alo * bhi) - ahi * blo)
        else:
            q = x
        for j in range(m):
            x = q + h[j]
            bv = x - q
            av = x - bv
            h[j] = (q - av) + (h[j] - bv)
            q = x
        h[m] = q
        m += 1
    for j in range(m - 1, -1, -1):
        if h[j] > 0.0:
            return 1
        if h[j] < 0.0:
            return -1
    return 0


@njit(cache=True, _nrt=False)
def orient(ax, ay, bx, by, cx, cy):
    """Exact sign of the turn a -> b -> c: 1 counter-clockwise (c left of a->b), -1 clockwise, 0
    collinear."""
    detl = (ax - cx) * (by - cy)
    detr = (ay - cy) * (bx - cx)
    det = detl - detr
    bound = _ERR_BOUND * (abs(detl) + abs(detr))
    if det > bound:
        return 1
    if -det > bound:
        return -1
    if detl == 0.0 and detr == 0.0:
        return 0  # a factor is exactly zero (no underflow at these magnitudes)
    return _orient_exact(ax, ay, bx, by, cx, cy)


@njit(cache=True, internal=True, _nrt=False)
def _place(ax, ay, bx, by, px, py):
    """Where a point p on the line a-b lies: 0 at a, 1 strictly between, 2 at b, -1 outside.
    Collinear points are ordered exactly by one coordinate that differs between a and b."""
    if ax != bx:
        u, ua, ub = px, ax, bx
    else:
        u, ua, ub = py, ay, by
    if u == ua:
        return 0
    if u == ub:
        return 2
    if (ub if ub < ua else ua) < u < (ub if ub > ua else ua):
        return 1
    return -1


@njit(cache=True, internal=True, _nrt=False)
def _in_wedge(ax, ay, bx, by, vx, vy, qx, qy, rx, ry, s):
    """Whether direction ``s * (b - a)`` (s = +1 or -1) from v, a point on the line a-b, lies in
    the closed wedge swept counter-clockwise from ray v->q to ray v->r."""
    c_qr = orient(vx, vy, qx, qy, rx, ry)
    c_qd = -s * orient(ax, ay, bx, by, qx, qy)  # cross(q - v, d): v is on the line a-b
    c_dr = s * orient(ax, ay, bx, by, rx, ry)  # cross(d, r - v)
    if c_qr > 0:
        return c_qd >= 0 and c_dr >= 0
    if c_qr < 0:
        return c_qd >= 0 or c_dr >= 0
    # q, v, r collinear (q, r != v): q and r on opposite sides of v make a straight corner
    if qx != vx or rx != vx:
        opposite = (qx < vx < rx) or (rx < vx < qx)
    else:
        opposite = (qy < vy < ry) or (ry < vy < qy)
    if opposite:  # a straight corner: the half-plane left of v->q
        return c_qd >= 0
    return True  # q and r on one ray: the whole turn


@njit(cache=True, internal=True, _nrt=False)
def segment_free(ax, ay, bx, by, edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items):
    """Line of sight from (ax, ay) to (bx, by) under the rule of :mod:`navmesh.sight`.

    Assumes both end points are walkable (waypoints and snapped positions are).
    """
    if ax == bx and ay == by:
        return True
    nx = np.int64(grid[3])
    i0, i1 = _col_range(ax, bx, grid)
    for ix in range(i0, i1 + 1):
        j0, j1 = _row_range(ax, ay, bx, by, ix, grid)
        for iy in range(j0, j1 + 1):
            c = iy * nx + ix
            for k in range(cell_ptr[c], cell_ptr[c + 1]):
                e = cell_items[k]
                px, py, qx, qy = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
                o1 = orient(ax, ay, bx, by, px, py)
                o2 = orient(ax, ay, bx, by, qx, qy)
                if o1 * o2 < 0:
                    o3 = orient(px, py, qx, qy, ax, ay)
                    o4 = orient(px, py, qx, qy, bx, by)
                    if o3 * o4 < 0:
                        return False  # proper crossing
                    if o3 == 0 and o4 < 0:
                        return False  # starts inside the edge and leaves into the blocked side
                    if o4 == 0 and o3 < 0:
                        return False  # ends inside the edge, arriving from the blocked side
                elif o1 == 0 and edges[e, 6] == 0.0:
                    where = _place(ax, ay, bx, by, px, py)
                    if where < 0:
                        continue
                    rx, ry = edges[e, 4], edges[e, 5]
                    if where != 2 and not _in_wedge(ax, ay, bx, by, px, py, qx, qy, rx, ry, 1):
                        return False
                    if where != 0 and not _in_wedge(ax, ay, bx, by, px, py, qx, qy, rx, ry, -1):
                        return False
    if gaps.shape[0] == 0:
        return True
    nx = np.int64(gap_grid[3])
    i0, i1 = _col_range(ax, bx, gap_grid)
    for ix in range(i0, i1 + 1):
        j0, j1 = _row_range(ax, ay, bx, by, ix, gap_grid)
        for iy in range(j0, j1 + 1):
            c = iy * nx + ix
            for k in range(gap_ptr[c], gap_ptr[c + 1]):
                r = gap_items[k]
                px, py = gaps[r, 1], gaps[r, 2]
                if orient(ax, ay, bx, by, px, py) != 0:
                    continue
                if gaps[r, 0] == GAP_SEAM:
                    qx, qy = gaps[r, 3], gaps[r, 4]
                    if orient(ax, ay, bx, by, qx, qy) != 0:
                        continue
                    if ax != bx:
                        u0, u1, s0, s1 = ax, bx, px, qx
                    else:
                        u0, u1, s0, s1 = ay, by, py, qy
                    lo, hi = (u1 if u1 < u0 else u0), (u1 if u1 > u0 else u0)
                    slo, shi = (s1 if s1 < s0 else s0), (s1 if s1 > s0 else s0)
                    if (shi if shi < hi else hi) > (slo if slo > lo else lo):
                        return False  # runs along a seam for a positive length
                    continue
                where = _place(ax, ay, bx, by, px, py)
                if where < 0:
                    continue
                n_wedges = np.int64(gaps[r, 3])
                principal = np.int64(gaps[r, 4])
                ok = False
                for w in range(r + 1, r + 1 + n_wedges):
                    if where == 1 or principal < 0 or w == r + 1 + principal:
                        s = 1 if where == 0 else -1
                        wax, way, wbx, wby = gaps[w, 1], gaps[w, 2], gaps[w, 3], gaps[w, 4]
                        if _in_wedge(ax, ay, bx, by, px, py, wax, way, wbx, wby, s) and (
                            where != 1 or _in_wedge(ax, ay, bx, by, px, py, wax, way, wbx, wby, 1)
                        ):
                            ok = True
                            break
                if not ok:
                    return False  # through a pinch point, or ending there outside its wide wedge
    return True


@njit(cache=True, internal=True, _nrt=False)
def segment_touches(ax, ay, bx, by, edges, grid, cell_ptr, cell_items):
    """Whether the closed segment meets any edge at all (crossing, touching or overlapping)."""
    nx = np.int64(grid[3])
    # the segment's box
    x_lo, x_hi = (bx if bx < ax else ax), (bx if bx > ax else ax)
    y_lo, y_hi = (by if by < ay else ay), (by if by > ay else ay)
    i0, i1 = _col_range(ax, bx, grid)
    for ix in range(i0, i1 + 1):
        j0, j1 = _row_range(ax, ay, bx, by, ix, grid)
        for iy in range(j0, j1 + 1):
            c = iy * nx + ix
            for k in range(cell_ptr[c], cell_ptr[c + 1]):
                e = cell_items[k]
                px, py, qx, qy = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
                o1 = orient(ax, ay, bx, by, px, py)
                o2 = orient(ax, ay, bx, by, qx, qy)
                o3 = orient(px, py, qx, qy, ax, ay)
                o4 = orient(px, py, qx, qy, bx, by)
                if o1 * o2 < 0 and o3 * o4 < 0:
                    return True  # a proper crossing
                # an end of one segment on the other (collinear and within its box)
                if o1 == 0 and x_lo <= px <= x_hi and y_lo <= py <= y_hi:
                    return True
                if o2 == 0 and x_lo <= qx <= x_hi and y_lo <= qy <= y_hi:
                    return True
                if o3 != 0 and o4 != 0:
                    continue
                ex_lo, ex_hi = (qx if qx < px else px), (qx if qx > px else px)
                ey_lo, ey_hi = (qy if qy < py else py), (qy if qy > py else py)
                if o3 == 0 and ex_lo <= ax <= ex_hi and ey_lo <= ay <= ey_hi:
                    return True
                if o4 == 0 and ex_lo <= bx <= ex_hi and ey_lo <= by <= ey_hi:
                    return True
    return False


@njit(cache=True)
def _segments(a, b, edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items, touch):
    """Bulk :func:`segment_free` (or with ``touch`` :func:`segment_touches`, gap arrays unread):
    ``a``, ``b`` of shape (m, 2); returns bool (m,). One kernel for both: each compiled entry
    point costs its own cold compile."""
    m = a.shape[0]
    out = np.empty(m, np.bool_)
    for i in range(m):
        if touch:
            out[i] = segment_touches(a[i, 0], a[i, 1], b[i, 0], b[i, 1], edges, grid, cell_ptr, cell_items)
        else:
            out[i] = segment_free(a[i, 0], a[i, 1], b[i, 0], b[i, 1], edges, grid, cell_ptr, cell_items, gaps,
                                  gap_grid, gap_ptr, gap_items)
    return out


# what _segments takes as the (unread) gap arrays of a touch test
_NO_GAPS = (np.zeros((0, 5)), np.zeros(5), np.zeros(1, np.int64), np.zeros(0, np.int32))


def segments_free(a, b, edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items):
    """Bulk :func:`segment_free`: ``a``, ``b`` of shape (m, 2); returns bool (m,)."""
    return _segments(a, b, edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items, False)


def segments_touch(a, b, edges, grid, cell_ptr, cell_items):
    """Bulk :func:`segment_touches`: ``a``, ``b`` of shape (m, 2); returns bool (m,)."""
    return _segments(a, b, edges, grid, cell_ptr, cell_items, *_NO_GAPS, True)


plain_arguments(globals())
