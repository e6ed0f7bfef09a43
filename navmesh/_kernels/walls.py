"""numba kernels of the steering layer's walls: exact point and segment tests against wall edges
bucketed in a uniform grid (:mod:`navmesh._kernels.buckets`), and obstacle-safe moves.

Walls
-----
The walls of one unit radius class are the boundary rings of its free space (the bounds eroded by
the radius minus the obstacles inflated by it), stored as edges ``x0, y0, x1, y1`` and bucketed in
a uniform grid. Every radius class uses the same grid (origin, cell size, ``nx * ny`` cells);
class ``k`` owns the cell slots ``k * n_cells .. (k + 1) * n_cells - 1``. For each cell slot a
reference point with its known status (free or not, computed once by shapely) is stored, so a
point's status is the reference status flipped once per wall edge that the segment from the
reference point to the point crosses (both lie in one convex cell, so only that cell's edges can
be crossed). A vertex lying exactly on that segment is counted on one side consistently, so the
parity is exact for a point away from the walls. A point closer than ``eps`` to a wall edge of
its cell counts as not free: what the kernels call free is free by any rounding.

Kernels trust their inputs and also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import math

import numpy as np

from navmesh._kernels.buckets import CELL_EPS, column_rows
from navmesh._kernels.los import _clamp as clamp_index
from navmesh._kernels.signatures import njit, plain_arguments


# The kernels only other kernels call (internal=True) write min / max / int() out (``b if b < a
# else a`` is Python's min(a, b), np.int64 truncates as int does): numba compiles its own
# implementation of each such builtin once more for every set of kernel options, and the internal
# kernels' options differ from the entry kernels' (about 0.05 s of a cold compile per builtin).


@njit(cache=True, internal=True)
def _orient(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit(cache=True, internal=True)
def _seg_dist2(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0
    if ll > 0.0:
        t = ((px - ax) * dx + (py - ay) * dy) / ll
        # min(1.0, max(0.0, t)) written out: see the note above _orient
        t = t if t > 0.0 else 0.0
        t = t if t < 1.0 else 1.0
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return qx * qx + qy * qy


@njit(cache=True, internal=True)
def point_status(x, y, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """1 where a unit of radius class ``cls`` may stand at (x, y) at least ``eps`` away from every
    wall edge; 0 within ``eps`` of a wall edge (on the boundary, up to rounding); -1 inside a
    wall or outside the grid."""
    nx, ny = np.int64(grid[3]), np.int64(grid[4])
    ix = math.floor((x - grid[0]) / grid[2])
    iy = math.floor((y - grid[1]) / grid[2])
    if ix < 0 or iy < 0 or ix >= nx or iy >= ny:
        return -1
    slot = cls * (nx * ny) + iy * nx + ix
    rx, ry = ref[slot, 0], ref[slot, 1]
    free = ref[slot, 2] > 0.5
    e2 = eps * eps
    near = False
    for k in range(cell_ptr[slot], cell_ptr[slot + 1]):
        e = cell_items[k]
        ax, ay, bx, by = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
        if _seg_dist2(x, y, ax, ay, bx, by) < e2:
            near = True
            break
        # does the segment ref -> p cross edge a -> b? (vertices on its line count as "above")
        sa = _orient(rx, ry, x, y, ax, ay) > 0.0
        sb = _orient(rx, ry, x, y, bx, by) > 0.0
        if sa != sb:
            o1 = _orient(ax, ay, bx, by, rx, ry)
            o2 = _orient(ax, ay, bx, by, x, y)
            if (o1 > 0.0 and o2 < 0.0) or (o1 < 0.0 and o2 > 0.0):
                free = not free
    if near:
        return 0
    return 1 if free else -1


@njit(cache=True, internal=True)
def _cross_t(ax, ay, bx, by, px, py, qx, qy, seg):
    """Where the segment a -> b (of length ``seg``) properly crosses the wall edge p -> q, as a
    fraction of a -> b in (0, 1); -1.0 when it does not (touching within a relative 1e-12 is no
    crossing)."""
    if (_orient(ax, ay, bx, by, px, py) >= 0.0) == (_orient(ax, ay, bx, by, qx, qy) >= 0.0):
        return -1.0
    o1 = _orient(px, py, qx, qy, ax, ay)
    o2 = _orient(px, py, qx, qy, bx, by)
    tol = 1e-12 * seg * math.sqrt((qx - px) ** 2 + (qy - py) ** 2)
    if (o1 > tol and o2 < -tol) or (o1 < -tol and o2 > tol):
        return o1 / (o1 - o2)
    return -1.0


@njit(cache=True, internal=True)
def crossing(ax, ay, bx, by, cls, first, edges, grid, cell_ptr, cell_items):
    """A wall edge of class ``cls`` that the segment a -> b crosses, as (t, e): ``t`` where it
    crosses, as a fraction of a -> b, and the edge id ``e``; (2.0, -1) when it crosses none.
    With ``first`` the first crossing found walking the cells the segment passes from a (a
    blocked sight line costs only the cells up to its first wall), else the crossing with the
    least ``t`` (the wall a step runs into).

    A crossing means a and b lie strictly on opposite sides of the edge's line and the edge's
    ends on opposite sides of the segment's line, an edge end lying exactly on that line
    counting as on its left (so a segment entering through a vertex crosses one of its two
    edges). Running along an edge or ending on it is no crossing: :func:`point_status` of the end
    point settles those.
    """
    ox, oy, cs, nx, ny = grid[0], grid[1], grid[2], np.int64(grid[3]), np.int64(grid[4])
    base = cls * (nx * ny)
    seg = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    best_t, best_e = 2.0, -1
    gx0, gy0 = (ax - ox) / cs, (ay - oy) / cs
    gx1, gy1 = (bx - ox) / cs, (by - oy) / cs
    i0 = clamp_index(math.floor((gx1 if gx1 < gx0 else gx0) - CELL_EPS), nx - 1)
    i1 = clamp_index(math.floor((gx1 if gx1 > gx0 else gx0) + CELL_EPS), nx - 1)
    step = 1 if gx1 >= gx0 else -1
    last = i1 if step > 0 else i0
    ix = i0 if step > 0 else i1
    while True:
        # the rows the segment passes in column ix, walked away from a
        lo, hi = column_rows(gx0, gy0, gx1, gy1, ix, ny)
        if gy1 >= gy0:
            iy0, iy1, sy = lo, hi + 1, 1
        else:
            iy0, iy1, sy = hi, lo - 1, -1
        for iy in range(iy0, iy1, sy):
            slot = base + iy * nx + ix
            for k in range(cell_ptr[slot], cell_ptr[slot + 1]):
                e = cell_items[k]
                t = _cross_t(ax, ay, bx, by, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], seg)
                if 0.0 <= t < best_t:
                    best_t, best_e = t, e
                    if first:
                        return best_t, best_e
        if ix == last:
            return best_t, best_e
        ix += step


@njit(cache=True, internal=True)
def target_visible(ax, ay, bx, by, cls, barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf, hint):
    """Whether a unit of class ``cls`` can walk straight from a (not inside a wall) to a target
    b that may lie on a wall (a corner waypoint): the segment is cut short by ``1000 * eps``
    before b; its end must not be inside a wall and it must cross no wall edge
    (:func:`crossing`). Running along the inside of a wall edge is allowed, as in
    :class:`navmesh.sight.LineOfSight`; passing exactly through a wall vertex may count as
    blocked (the conservative side). With ``barrier >= 0`` the segment must also cross no edge
    of that class (terrain boundaries). ``hint`` (-1: none) is a wall edge of class ``cls`` or
    ``barrier`` that blocked a similar sight line before: tested first, it often settles a
    blocked line at once (same answer: any crossing blocks). ``buf[0]`` gets the edge found
    crossed, or -1."""
    buf[0] = -1
    dx, dy = bx - ax, by - ay
    d = math.sqrt(dx * dx + dy * dy)
    cut = 1000.0 * eps
    if d <= cut:
        return True
    k = (d - cut) / d
    ex, ey = ax + dx * k, ay + dy * k
    if hint >= 0:
        seg = math.sqrt((ex - ax) ** 2 + (ey - ay) ** 2)
        if _cross_t(ax, ay, ex, ey, edges[hint, 0], edges[hint, 1], edges[hint, 2], edges[hint, 3], seg) >= 0.0:
            buf[0] = hint
            return False
    if point_status(ex, ey, cls, edges, grid, cell_ptr, cell_items, ref, eps) < 0:
        return False
    n_cells = np.int64(grid[3]) * np.int64(grid[4])
    e = -1
    for c in (cls, barrier):  # (one call site: the walk is compiled into this kernel once)
        if e < 0 and c >= 0 and cell_ptr[(c + 1) * n_cells] > cell_ptr[c * n_cells]:
            e = crossing(ax, ay, ex, ey, c, True, edges, grid, cell_ptr, cell_items)[1]
    buf[0] = e
    return e < 0


# what :func:`bulk` answers per row
STATUS, SEGMENT, SIGHT, MOVE, FIRST = 0, 1, 2, 3, 4


@njit(cache=True)
def bulk(a, b, cls, barrier, what, cand, cost, edges, grid, cell_ptr, cell_items, ref, eps):
    """One question per row i of ``a`` (m, 2) for class ``cls[i]``, written to ``out[i]`` of a
    float (m, 2) array: ``what = STATUS``: :func:`point_status` of ``a[i]`` (``b`` unused);
    ``SEGMENT``: 1.0 where neither ``a[i]`` nor ``b[i]`` is inside a wall and the segment
    between them crosses no wall edge (:func:`crossing`), else 0.0; ``SIGHT``: 1.0 where
    :func:`target_visible` (barrier class ``barrier``), else 0.0; ``MOVE``: the end of
    :func:`safe_move` from ``a[i]`` toward ``b[i]`` (both columns); ``FIRST``: the first column
    j of ``cand[i]`` ((m, k) rows of the targets ``b``, sorted by ``cost[i]`` ascending) with a
    finite cost whose target is in sight (:func:`target_visible`, barrier class ``barrier``),
    or -1 (testing in cost order stops at the cheapest visible candidate, usually the first).
    ``cand`` and ``cost`` are read only for ``FIRST`` (other questions pass empty (0, 0)
    arrays). One kernel for the bulk questions: one compilation instead of one per question."""
    m = a.shape[0]
    out = np.empty((m, 2))
    buf = np.empty(1, np.int64)
    for i in range(m):
        out[i, 0], out[i, 1] = 0.0, 0.0
        ax, ay, c = a[i, 0], a[i, 1], cls[i]
        if what == SIGHT or what == FIRST:
            # SIGHT: the one target b[i]; FIRST: the candidates in cost order (one call site)
            hit = -1
            for j in range(1 if what == SIGHT else cand.shape[1]):
                t = i
                if what == FIRST:
                    if not cost[i, j] < math.inf:
                        break
                    t = cand[i, j]
                if target_visible(ax, ay, b[t, 0], b[t, 1], c, barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf, -1):
                    hit = j
                    break
            out[i, 0] = hit if what == FIRST else (1.0 if hit >= 0 else 0.0)
            continue
        bx, by = b[i, 0], b[i, 1]
        if what == MOVE:
            out[i, 0], out[i, 1] = safe_move(ax, ay, bx, by, c, edges, grid, cell_ptr, cell_items, ref, eps)
        else:
            st = 1
            for x, y in ((ax, ay), (bx, by)):  # a, then for SEGMENT b (one call site of the point test)
                st = point_status(x, y, c, edges, grid, cell_ptr, cell_items, ref, eps)
                if what == STATUS or st < 0:
                    break
            if what == STATUS:
                out[i, 0] = st
            elif st >= 0 and crossing(ax, ay, bx, by, c, True, edges, grid, cell_ptr, cell_items)[1] < 0:
                out[i, 0] = 1.0
    return out


@njit(cache=True, internal=True)
def safe_move(px, py, qx, qy, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """Where a unit standing on a free point p ends when it tries to step to q.

    The whole step when it crosses no wall and ends free. Otherwise the unit slides: q is
    projected onto the line of the wall in the way (the first one the step crosses or, for a
    step that ends on a wall or within ``eps`` of it without crossing one, the wall edge
    nearest q), kept ``4 * eps`` off it on p's side, if that ends free without crossing a wall;
    otherwise half the step (up to the wall) is tried; otherwise p itself. So a unit running
    along a wall, or toward a point on one, keeps moving. The result is always free (or p).
    """
    nx, ny = np.int64(grid[3]), np.int64(grid[4])
    n_cells = nx * ny
    c = -1  # q's cell, when p stands in it too (-1: outside the grid)
    ix = math.floor((qx - grid[0]) / grid[2])
    iy = math.floor((qy - grid[1]) / grid[2])
    if 0 <= ix < nx and 0 <= iy < ny:
        c = iy * nx + ix
    if c >= 0 and ix == math.floor((px - grid[0]) / grid[2]) and iy == math.floor((py - grid[1]) / grid[2]):
        slot = cls * n_cells + c
        if cell_ptr[slot] == cell_ptr[slot + 1] and ref[slot, 2] > 0.5:
            return qx, qy  # one wall-free cell holds the whole step
    t, e = 1.0, -1
    for attempt in range(3):  # the step, the slide along the wall in the way, half the step
        if attempt == 0:
            sx, sy = qx, qy
        elif attempt == 1:
            if e < 0:
                return px, py
            ax, ay = edges[e, 0], edges[e, 1]
            ex, ey = edges[e, 2] - ax, edges[e, 3] - ay
            ll = ex * ex + ey * ey
            if ll <= 0.0:
                continue
            # q's foot on the wall's line, kept a little more than eps off it on p's side
            nl = math.sqrt(ll)
            off = 4.0 * eps / nl if _orient(ax, ay, ax + ex, ay + ey, px, py) >= 0.0 else -4.0 * eps / nl
            k = ((qx - ax) * ex + (qy - ay) * ey) / ll
            sx, sy = ax + k * ex - off * ey, ay + k * ey + off * ex
        else:
            sx, sy = px + (qx - px) * t * 0.5, py + (qy - py) * t * 0.5
        # (one call site each: the walk and the point test are compiled into this kernel once)
        th, eh = crossing(px, py, sx, sy, cls, False, edges, grid, cell_ptr, cell_items)
        if eh < 0 and point_status(sx, sy, cls, edges, grid, cell_ptr, cell_items, ref, eps) == 1:
            return sx, sy
        if attempt == 0:
            t, e = th, eh
            if e < 0 and c >= 0:
                # ends on a wall or within eps of one: the wall edge nearest q among those of its cell
                t = 1.0
                sq = cls * n_cells + c
                near = math.inf
                for j in range(cell_ptr[sq], cell_ptr[sq + 1]):
                    ek = cell_items[j]
                    d2 = _seg_dist2(qx, qy, edges[ek, 0], edges[ek, 1], edges[ek, 2], edges[ek, 3])
                    if d2 < near:
                        near, e = d2, ek
    return px, py


def cell_refs(cell_ptr, cell_items, edges, grid, base, n_cells):
    """A reference point per cell of one class, as far from the cell's edges as a 5 x 5 grid of
    candidates allows: (n_cells, 3) rows x, y, clearance.

    numpy, not a kernel: it runs once per wall build, and its kernel was half a second of a cold
    compile (the same arithmetic, element by element, so the same points)."""
    ox, oy, cs, nx = grid[0], grid[1], grid[2], int(grid[3])
    c = np.repeat(np.arange(n_cells), 25)  # each cell's candidates (a, b), b fastest
    a = np.tile(np.repeat(np.arange(5), 5), n_cells)
    b = np.tile(np.arange(5), 5 * n_cells)
    x = ox + (c % nx + (a + 0.5 + 0.137 * (b - 2) / 5.0) / 5.0) * cs
    y = oy + (c // nx + (b + 0.5 + 0.113 * (a - 2) / 5.0) / 5.0) * cs
    # every (candidate, edge of its cell) pair, grouped by candidate
    lo = cell_ptr[base + c]
    count = cell_ptr[base + c + 1] - lo
    cand = np.repeat(np.arange(len(c)), count)
    e = cell_items[lo[cand] + np.arange(len(cand)) - np.repeat(np.cumsum(count) - count, count)]
    px, py = x[cand], y[cand]
    ax, ay = edges[e, 0], edges[e, 1]
    dx, dy = edges[e, 2] - ax, edges[e, 3] - ay
    ll = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(ll > 0.0, ((px - ax) * dx + (py - ay) * dy) / ll, 0.0)
    t = np.where(t > 0.0, t, 0.0)
    t = np.where(t < 1.0, t, 1.0)
    qx, qy = ax + t * dx - px, ay + t * dy - py
    d = np.full(len(c), 1e300)
    np.minimum.at(d, cand, qx * qx + qy * qy)
    best = np.argmax(d.reshape(n_cells, 25), axis=1) + 25 * np.arange(n_cells)  # the first farthest
    return np.column_stack([x[best], y[best], np.sqrt(d[best])])


plain_arguments(globals())
