"""numba kernels of the steering layer: walls bucketed in a uniform grid, exact point and segment
tests against them, obstacle-safe moves, a spatial hash of units and the crowd update.

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
from numba import njit

from navmesh._kernels.signatures import plain_arguments

# Unit modes in the crowd arrays.
IDLE = 0
MOVING = 1

_CELL_EPS = 1e-9


@njit(cache=True)
def _orient(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit(cache=True)
def _seg_dist2(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0
    if ll > 0.0:
        t = ((px - ax) * dx + (py - ay) * dy) / ll
        t = min(1.0, max(0.0, t))
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return qx * qx + qy * qy


@njit(cache=True)
def _cell_of(x, y, grid):
    ox, oy, cs, nx, ny = grid[0], grid[1], grid[2], int(grid[3]), int(grid[4])
    ix = math.floor((x - ox) / cs)
    iy = math.floor((y - oy) / cs)
    if ix < 0 or iy < 0 or ix >= nx or iy >= ny:
        return -1
    return iy * nx + ix


@njit(cache=True)
def point_status(x, y, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """1 where a unit of radius class ``cls`` may stand at (x, y) at least ``eps`` away from every
    wall edge; 0 within ``eps`` of a wall edge (on the boundary, up to rounding); -1 inside a
    wall or outside the grid."""
    c = _cell_of(x, y, grid)
    if c < 0:
        return -1
    slot = cls * (int(grid[3]) * int(grid[4])) + c
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


@njit(cache=True)
def point_free(x, y, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """Whether a unit of radius class ``cls`` may stand at (x, y): inside its free space and at
    least ``eps`` away from every wall edge. Outside the grid is not free."""
    return point_status(x, y, cls, edges, grid, cell_ptr, cell_items, ref, eps) == 1


@njit(cache=True)
def _cells_of_segment(ax, ay, bx, by, grid, out):
    """Cells a segment passes (column by column); writes ids into ``out``, returns the count
    (at most len(out); longer segments are cut short, which callers treat as blocked)."""
    ox, oy, cs, nx, ny = grid[0], grid[1], grid[2], int(grid[3]), int(grid[4])
    gx0, gy0 = (ax - ox) / cs, (ay - oy) / cs
    gx1, gy1 = (bx - ox) / cs, (by - oy) / cs
    if gx1 < gx0:
        gx0, gx1, gy0, gy1 = gx1, gx0, gy1, gy0
    i0 = max(0, math.floor(gx0 - _CELL_EPS))
    i1 = min(nx - 1, math.floor(gx1 + _CELL_EPS))
    n = 0
    for ix in range(i0, i1 + 1):
        xa = max(gx0, float(ix))
        xb = min(gx1, float(ix + 1))
        if gx1 > gx0:
            ya = gy0 + (gy1 - gy0) * (xa - gx0) / (gx1 - gx0)
            yb = gy0 + (gy1 - gy0) * (xb - gx0) / (gx1 - gx0)
        else:
            ya, yb = gy0, gy1
        lo = max(0, math.floor(min(ya, yb) - _CELL_EPS))
        hi = min(ny - 1, math.floor(max(ya, yb) + _CELL_EPS))
        for iy in range(lo, hi + 1):
            if n >= out.shape[0]:
                return -1
            out[n] = iy * nx + ix
            n += 1
    return n


@njit(cache=True)
def segment_hit(ax, ay, bx, by, cls, edges, grid, cell_ptr, cell_items, buf):
    """First wall edge the segment a -> b crosses: (t along the segment in [0, 1], edge id), or
    (2.0, -1) when it crosses none. A too long segment reports (0.0, -1).

    A crossing means a and b lie strictly on opposite sides of the edge's line and the edge's
    ends on opposite sides of the segment's line, an edge end lying exactly on that line
    counting as on its left (so a segment entering through a vertex crosses one of its two
    edges). Running along an edge or ending on it is no crossing: :func:`point_free` on the end
    point settles those.
    """
    n = _cells_of_segment(ax, ay, bx, by, grid, buf)
    if n < 0:
        return 0.0, -1
    base = cls * (int(grid[3]) * int(grid[4]))
    best_t, best_e = 2.0, -1
    seg = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    for j in range(n):
        slot = base + buf[j]
        for k in range(cell_ptr[slot], cell_ptr[slot + 1]):
            e = cell_items[k]
            t = _cross_t(ax, ay, bx, by, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], seg)
            if 0.0 <= t < best_t:
                best_t, best_e = t, e
    return best_t, best_e


@njit(cache=True)
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


@njit(cache=True)
def _crosses_in_cell(ax, ay, bx, by, slot, edges, cell_ptr, cell_items, seg):
    """Whether the segment a -> b crosses a wall edge of cell slot ``slot`` (as in
    :func:`segment_hit`)."""
    for k in range(cell_ptr[slot], cell_ptr[slot + 1]):
        e = cell_items[k]
        if _cross_t(ax, ay, bx, by, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], seg) >= 0.0:
            return True
    return False


@njit(cache=True)
def segment_crosses(ax, ay, bx, by, cls, edges, grid, cell_ptr, cell_items):
    """Whether the segment a -> b crosses any wall edge of class ``cls`` (the crossings of
    :func:`segment_hit`), walking the cells it passes from a and stopping at the first
    crossing: a blocked sight line costs only the cells up to its first wall."""
    ox, oy, cs, nx, ny = grid[0], grid[1], grid[2], int(grid[3]), int(grid[4])
    base = cls * (nx * ny)
    seg = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    gx0, gy0 = (ax - ox) / cs, (ay - oy) / cs
    gx1, gy1 = (bx - ox) / cs, (by - oy) / cs
    i0 = min(nx - 1, max(0, math.floor(min(gx0, gx1) - _CELL_EPS)))
    i1 = min(nx - 1, max(0, math.floor(max(gx0, gx1) + _CELL_EPS)))
    step = 1 if gx1 >= gx0 else -1
    first, last = (i0, i1) if step > 0 else (i1, i0)
    ix = first
    while True:
        xa = max(min(gx0, gx1), float(ix))
        xb = min(max(gx0, gx1), float(ix + 1))
        if gx1 != gx0:
            ya = gy0 + (gy1 - gy0) * (xa - gx0) / (gx1 - gx0)
            yb = gy0 + (gy1 - gy0) * (xb - gx0) / (gx1 - gx0)
        else:
            ya, yb = gy0, gy1
        lo = max(0, math.floor(min(ya, yb) - _CELL_EPS))
        hi = min(ny - 1, math.floor(max(ya, yb) + _CELL_EPS))
        if gy1 >= gy0:
            for iy in range(lo, hi + 1):
                if _crosses_in_cell(ax, ay, bx, by, base + iy * nx + ix, edges, cell_ptr, cell_items, seg):
                    return True
        else:
            for iy in range(hi, lo - 1, -1):
                if _crosses_in_cell(ax, ay, bx, by, base + iy * nx + ix, edges, cell_ptr, cell_items, seg):
                    return True
        if ix == last:
            return False
        ix += step


@njit(cache=True)
def segment_free(ax, ay, bx, by, cls, edges, grid, cell_ptr, cell_items, ref, eps, buf):
    """Whether a unit can walk straight from a to b (a not inside a wall): b not inside a wall
    and no wall edge crossed. Ending on a wall and running along the inside of a wall edge are
    allowed, as in :class:`navmesh.sight.LineOfSight`; passing exactly through a wall vertex
    may count as blocked (the conservative side)."""
    if point_status(bx, by, cls, edges, grid, cell_ptr, cell_items, ref, eps) < 0:
        return False
    return not segment_crosses(ax, ay, bx, by, cls, edges, grid, cell_ptr, cell_items)


@njit(cache=True)
def target_visible(ax, ay, bx, by, cls, barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf):
    """:func:`segment_free` to a target that may lie on a wall (a corner waypoint): the segment
    is cut short by ``1000 * eps`` before the target. With ``barrier >= 0`` the segment must
    also touch no edge of that class (terrain boundaries)."""
    dx, dy = bx - ax, by - ay
    d = math.sqrt(dx * dx + dy * dy)
    cut = 1000.0 * eps
    if d <= cut:
        return True
    k = (d - cut) / d
    ex, ey = ax + dx * k, ay + dy * k
    if barrier >= 0 and segment_crosses(ax, ay, ex, ey, barrier, edges, grid, cell_ptr, cell_items):
        return False
    return segment_free(ax, ay, ex, ey, cls, edges, grid, cell_ptr, cell_items, ref, eps, buf)


@njit(cache=True)
def targets_visible(a, b, cls, barrier, edges, grid, cell_ptr, cell_items, ref, eps):
    """Bulk :func:`target_visible` for rows of ``a``, ``b`` (m, 2) and classes ``cls`` (m,)."""
    out = np.empty(a.shape[0], np.bool_)
    buf = np.empty(4096, np.int64)
    for i in range(a.shape[0]):
        out[i] = target_visible(
            a[i, 0], a[i, 1], b[i, 0], b[i, 1], cls[i], barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf
        )
    return out


@njit(cache=True)
def segments_free(a, b, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """Bulk :func:`segment_free` for rows of ``a``, ``b`` (m, 2) and classes ``cls`` (m,)."""
    m = a.shape[0]
    out = np.empty(m, np.bool_)
    buf = np.empty(4096, np.int64)
    for i in range(m):
        out[i] = point_status(a[i, 0], a[i, 1], cls[i], edges, grid, cell_ptr, cell_items, ref, eps) >= 0 and segment_free(
            a[i, 0], a[i, 1], b[i, 0], b[i, 1], cls[i], edges, grid, cell_ptr, cell_items, ref, eps, buf
        )
    return out


@njit(cache=True)
def points_free(p, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """Bulk :func:`point_free` for rows of ``p`` (m, 2) and classes ``cls`` (m,)."""
    out = np.empty(p.shape[0], np.bool_)
    for i in range(p.shape[0]):
        out[i] = point_free(p[i, 0], p[i, 1], cls[i], edges, grid, cell_ptr, cell_items, ref, eps)
    return out


@njit(cache=True)
def points_status(p, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """Bulk :func:`point_status` (1 free, 0 on a wall, -1 inside) for rows of ``p`` (m, 2) and
    classes ``cls`` (m,)."""
    out = np.empty(p.shape[0], np.int64)
    for i in range(p.shape[0]):
        out[i] = point_status(p[i, 0], p[i, 1], cls[i], edges, grid, cell_ptr, cell_items, ref, eps)
    return out


@njit(cache=True)
def safe_moves(a, b, cls, edges, grid, cell_ptr, cell_items, ref, eps):
    """Bulk :func:`safe_move` from rows of ``a`` toward rows of ``b`` (m, 2), classes ``cls``."""
    out = np.empty_like(a)
    buf = np.empty(4096, np.int64)
    for i in range(a.shape[0]):
        out[i, 0], out[i, 1] = safe_move(
            a[i, 0], a[i, 1], b[i, 0], b[i, 1], cls[i], edges, grid, cell_ptr, cell_items, ref, eps, buf
        )
    return out


@njit(cache=True)
def _nearest_edge(x, y, cls, edges, grid, cell_ptr, cell_items):
    """The wall edge of class ``cls`` nearest to (x, y) among those of its cell, or -1."""
    c = _cell_of(x, y, grid)
    if c < 0:
        return -1
    slot = cls * (int(grid[3]) * int(grid[4])) + c
    best, best_e = math.inf, -1
    for k in range(cell_ptr[slot], cell_ptr[slot + 1]):
        e = cell_items[k]
        d2 = _seg_dist2(x, y, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3])
        if d2 < best:
            best, best_e = d2, e
    return best_e


@njit(cache=True)
def safe_move(px, py, qx, qy, cls, edges, grid, cell_ptr, cell_items, ref, eps, buf):
    """Where a unit standing on a free point p ends when it tries to step to q.

    The whole step when it crosses no wall and ends free. Otherwise the unit slides: q is
    projected onto the line of the wall in the way (the first one the step crosses or, for a
    step that ends on a wall or within ``eps`` of it without crossing one, the wall edge
    nearest q), kept ``4 * eps`` off it on p's side, if that ends free without crossing a wall;
    otherwise half the step (up to the wall) is tried; otherwise p itself. So a unit running
    along a wall, or toward a point on one, keeps moving. The result is always free (or p).
    """
    c = _cell_of(qx, qy, grid)
    if c >= 0 and c == _cell_of(px, py, grid):
        slot = cls * (int(grid[3]) * int(grid[4])) + c
        if cell_ptr[slot] == cell_ptr[slot + 1] and ref[slot, 2] > 0.5:
            return qx, qy  # one wall-free cell holds the whole step
    t, e = segment_hit(px, py, qx, qy, cls, edges, grid, cell_ptr, cell_items, buf)
    if e < 0 and t > 1.0:
        if point_free(qx, qy, cls, edges, grid, cell_ptr, cell_items, ref, eps):
            return qx, qy
        t, e = 1.0, _nearest_edge(qx, qy, cls, edges, grid, cell_ptr, cell_items)
    if e >= 0:
        ax, ay = edges[e, 0], edges[e, 1]
        ex, ey = edges[e, 2] - ax, edges[e, 3] - ay
        ll = ex * ex + ey * ey
        if ll > 0.0:
            # q's foot on the wall's line, kept a little more than eps off it on p's side
            nl = math.sqrt(ll)
            off = 4.0 * eps / nl if _orient(ax, ay, ax + ex, ay + ey, px, py) >= 0.0 else -4.0 * eps / nl
            k = ((qx - ax) * ex + (qy - ay) * ey) / ll
            sx, sy = ax + k * ex - off * ey, ay + k * ey + off * ex
            t2, e2 = segment_hit(px, py, sx, sy, cls, edges, grid, cell_ptr, cell_items, buf)
            if e2 < 0 and t2 > 1.0 and point_free(sx, sy, cls, edges, grid, cell_ptr, cell_items, ref, eps):
                return sx, sy
        back = t * 0.5
        hx, hy = px + (qx - px) * back, py + (qy - py) * back
        t3, e3 = segment_hit(px, py, hx, hy, cls, edges, grid, cell_ptr, cell_items, buf)
        if e3 < 0 and t3 > 1.0 and point_free(hx, hy, cls, edges, grid, cell_ptr, cell_items, ref, eps):
            return hx, hy
    return px, py


@njit(cache=True)
def cell_refs(cell_ptr, cell_items, edges, grid, base, n_cells):
    """A reference point per cell of one class, as far from the cell's edges as a 5 x 5 grid of
    candidates allows: (n_cells, 3) rows x, y, clearance."""
    ox, oy, cs, nx = grid[0], grid[1], grid[2], int(grid[3])
    out = np.empty((n_cells, 3))
    for c in range(n_cells):
        ix, iy = c % nx, c // nx
        best = -1.0
        bx_, by_ = 0.0, 0.0
        for a in range(5):
            for b in range(5):
                x = ox + (ix + (a + 0.5 + 0.137 * (b - 2) / 5.0) / 5.0) * cs
                y = oy + (iy + (b + 0.5 + 0.113 * (a - 2) / 5.0) / 5.0) * cs
                d = 1e300
                for k in range(cell_ptr[base + c], cell_ptr[base + c + 1]):
                    e = cell_items[k]
                    d = min(d, _seg_dist2(x, y, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]))
                if d > best:
                    best, bx_, by_ = d, x, y
        out[c, 0], out[c, 1], out[c, 2] = bx_, by_, math.sqrt(best)
    return out


@njit(cache=True)
def bucket_counts(edges, grid, counts):
    """Add to ``counts`` (n_cells,) how many of ``edges`` touch each cell."""
    buf = np.empty(1 << 16, np.int64)
    for e in range(edges.shape[0]):
        n = _cells_of_segment(edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], grid, buf)
        for j in range(n):
            counts[buf[j]] += 1


@njit(cache=True)
def bucket_fill(edges, edge_base, grid, slot_base, fill, cell_items):
    """Write edge ids (offset by ``edge_base``) into ``cell_items`` at ``fill[slot_base + cell]``."""
    buf = np.empty(1 << 16, np.int64)
    for e in range(edges.shape[0]):
        n = _cells_of_segment(edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3], grid, buf)
        for j in range(n):
            s = slot_base + buf[j]
            cell_items[fill[s]] = edge_base + e
            fill[s] += 1


@njit(cache=True)
def spatial_hash(pos, active, cs):
    """Counting sort of the active units into square cells of side ``cs``.

    Returns (grid (4,) origin_x, origin_y, nx, ny; cell_start (nx * ny + 1,); order), where the
    units of cell c are ``order[cell_start[c]:cell_start[c + 1]]``.
    """
    n = pos.shape[0]
    x0, y0, x1, y1 = 1e300, 1e300, -1e300, -1e300
    for i in range(n):
        if active[i]:
            x0, y0 = min(x0, pos[i, 0]), min(y0, pos[i, 1])
            x1, y1 = max(x1, pos[i, 0]), max(y1, pos[i, 1])
    if x1 < x0:
        x0, y0, x1, y1 = 0.0, 0.0, 0.0, 0.0
    nx = int((x1 - x0) / cs) + 1
    ny = int((y1 - y0) / cs) + 1
    while nx * ny > 4 * n + 64:
        cs *= 1.5
        nx = int((x1 - x0) / cs) + 1
        ny = int((y1 - y0) / cs) + 1
    cell = np.empty(n, np.int64)
    start = np.zeros(nx * ny + 1, np.int64)
    for i in range(n):
        if active[i]:
            c = int((pos[i, 1] - y0) / cs) * nx + int((pos[i, 0] - x0) / cs)
            cell[i] = c
            start[c + 1] += 1
        else:
            cell[i] = -1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    order = np.empty(start[nx * ny], np.int64)
    for i in range(n):
        if cell[i] >= 0:
            order[fill[cell[i]]] = i
            fill[cell[i]] += 1
    grid = np.array([x0, y0, float(nx), float(ny), cs])
    return grid, start, order


@njit(cache=True)
def crowd_step(
    dt, frame, pos, vel, heading, radius, speed, cls, active, moving, arrived, cur, lost, stuck, stall, best,
    settled, tries, slot, slot_mult, min_mult, route_xy, route_next, route_rest, route_mult, sep_weight, settle, barrier,
    edges, grid, cell_ptr, cell_items, ref, eps,
):
    """Advance every active unit by ``dt`` seconds.

    Per unit with an order (``moving``): steer toward its current route point (``route_xy[cur]``;
    ``cur = -1`` means its own slot; units keep holding their slot after arriving). A route
    point counts as reached within a tenth of a radius (or one step), or within one radius when
    the point after it (or the slot) is in sight from where the unit stands, so a unit never
    turns toward a point it cannot walk to (a door corner). It skips to the following point, or
    straight to the slot, when the straight walk there is free, crosses no terrain boundary
    (class ``barrier``) and does not raise the unit's cost (checked on one frame in four,
    staggered; a unit that cannot see its current target and has made no progress toward it
    for a fifth of ``settle`` is flagged ``lost`` so the caller can route it again: a unit that
    slides round a wall toward a point it cannot see yet keeps going). It slows down within two radii of the slot and stops on it (``arrived``
    once within a tenth of a radius). ``best`` holds the closest the unit came to its current
    target and ``stall`` the seconds since it last came closer by a fiftieth of a radius: after
    ``settle`` seconds without progress, on an even count of ``tries``, a unit is flagged
    ``stuck`` (the caller trades its slot with a groupmate's or plans it a path of its own from
    where it stands, and counts the attempt in ``tries``); on an odd count, a unit on its route
    skips to the point after its current one (and counts that), and a unit heading for its
    slot in sight counts as arrived where it stands (others hold it off its slot: the group
    still finishes; ``settled``, it then stands wherever separation leaves it). A unit on its way
    that has made no progress for a fifth of ``settle``, touches another on its way with a
    lower id and heads toward it stops driving for that frame (gives way): the lowest id of a jam always moves on, so two units never push each
    other to a standstill in a gap that only one fits through. A shortcut lies in one terrain class, so its cost is its length times the
    multiplier at its end (``route_mult`` of the row, ``slot_mult`` for the slot); the route it
    replaces costs at least the distance to the current point times the unit type's smallest
    multiplier (``min_mult``) plus the route cost between the rows (``route_rest``: cost from a row
    to the route's end). A zero multiplier (grids) skips the cost test; add
    separation from neighbours closer than the sum of radii (found by a spatial hash); move with
    :func:`safe_move`, so a unit centre never ends inside a wall. Then one relaxation pass pushes
    overlapping pairs apart, again only by safe moves.
    """
    n = pos.shape[0]
    buf = np.empty(4096, np.int64)
    rmax = 0.0
    for i in range(n):
        if active[i]:
            rmax = max(rmax, radius[i])
    hgrid, start, order = spatial_hash(pos, active, max(2.0 * rmax, 1e-9))
    hx0, hy0, hnx, hny, hcs = hgrid[0], hgrid[1], int(hgrid[2]), int(hgrid[3]), hgrid[4]
    newpos = pos.copy()
    crowded = np.zeros(n, np.bool_)
    for i in range(n):
        if not active[i]:
            continue
        px, py = pos[i, 0], pos[i, 1]
        dvx, dvy = 0.0, 0.0
        if moving[i]:
            if settled[i]:  # it stands where the others let it
                slot[i, 0], slot[i, 1] = px, py
            c = cur[i]
            c0 = c
            # reached route points and free shortcuts
            for _ in range(4):
                if c < 0:
                    break
                tx, ty = route_xy[c, 0], route_xy[c, 1]
                reach = max(0.1 * radius[i], speed[i] * dt)
                nxt = route_next[c]
                d2 = (tx - px) ** 2 + (ty - py) ** 2
                if d2 <= reach * reach:
                    c = nxt
                    continue
                if d2 <= radius[i] * radius[i]:
                    if nxt >= 0:
                        ax_, ay_ = route_xy[nxt, 0], route_xy[nxt, 1]
                    else:
                        ax_, ay_ = slot[i, 0], slot[i, 1]
                    if target_visible(px, py, ax_, ay_, cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf):
                        c = nxt
                        continue
                    if nxt < 0:  # at the route's end and the slot out of sight: route it anew
                        lost[i] = True
                if (i + frame) % 4 == 0:
                    # a lower bound of the route's cost from here to its end / to the next row
                    here = math.sqrt((tx - px) ** 2 + (ty - py) ** 2) * min_mult[i]
                    sx_, sy_ = slot[i, 0], slot[i, 1]
                    to_slot = math.sqrt((sx_ - px) ** 2 + (sy_ - py) ** 2) * slot_mult[i]
                    if to_slot <= (here + route_rest[c]) * (1.0 + 1e-9) and target_visible(
                        px, py, sx_, sy_, cls[i], barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf
                    ):
                        c = -1
                        break
                    if nxt >= 0:
                        ax_, ay_ = route_xy[nxt, 0], route_xy[nxt, 1]
                        short = math.sqrt((ax_ - px) ** 2 + (ay_ - py) ** 2) * route_mult[nxt]
                        along = here + route_rest[c] - route_rest[nxt]
                    else:
                        ax_, ay_ = sx_, sy_
                        short = to_slot
                        along = here + route_rest[c]
                    if short <= along * (1.0 + 1e-9) and target_visible(
                        px, py, ax_, ay_, cls[i], barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf
                    ):
                        c = nxt
                        continue
                    if stall[i] > 0.2 * settle and not target_visible(
                        px, py, tx, ty, cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf
                    ):
                        lost[i] = True
                break
            if (
                c < 0
                and (i + frame) % 4 == 0
                and not arrived[i]
                and stall[i] > 0.2 * settle
                and not target_visible(px, py, slot[i, 0], slot[i, 1], cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf)
            ):
                lost[i] = True
            cur[i] = c
            if c >= 0:
                tx, ty = route_xy[c, 0], route_xy[c, 1]
                slow = 1.0
            else:
                tx, ty = slot[i, 0], slot[i, 1]
                slow = 0.0
            dx, dy = tx - px, ty - py
            d = math.sqrt(dx * dx + dy * dy)
            if c < 0 and d <= 0.1 * radius[i] + eps * 8.0:
                arrived[i] = True
            if c != c0:
                best[i] = math.inf
                stall[i] = 0.0
            if arrived[i]:
                stall[i] = 0.0
            elif d < best[i] - 0.02 * radius[i]:
                best[i] = d
                stall[i] = 0.0
            else:
                stall[i] += dt
                if stall[i] > settle:
                    stall[i] = 0.0
                    best[i] = d
                    if tries[i] % 2 == 0 or (
                        c < 0
                        and not target_visible(px, py, tx, ty, cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf)
                    ):
                        stuck[i] = True
                    elif c < 0:
                        # hold the place reached: the slot is taken or walled off
                        arrived[i] = True
                        settled[i] = True
                        slot[i, 0], slot[i, 1] = px, py
                        d = 0.0
                    else:
                        # slide on toward the point after (round a terrain corner the route
                        # cuts, which the body cannot)
                        tries[i] += 1
                        cur[i] = route_next[c]
                        best[i] = math.inf
            if d > eps * 8.0:
                v = speed[i]
                if slow == 0.0:
                    brake = 2.0 * radius[i]
                    if d < brake:
                        v = speed[i] * max(d / brake, 0.2)
                    v = min(v, d / dt)
                dvx, dvy = dx / d * v, dy / d * v
        # separation; a unit on its way that has made no progress for a fifth of ``settle`` and
        # touches one with a lower id, also on its way, and heads toward it gives way (stops
        # driving), so two never push each other to a standstill in a gap only one fits through
        going = moving[i] and not arrived[i] and stall[i] > 0.2 * settle
        give_way = False
        sx, sy = 0.0, 0.0
        ix = int((px - hx0) / hcs)
        iy = int((py - hy0) / hcs)
        for gy in range(max(0, iy - 1), min(hny, iy + 2)):
            for gx in range(max(0, ix - 1), min(hnx, ix + 2)):
                cc = gy * hnx + gx
                for k in range(start[cc], start[cc + 1]):
                    j = order[k]
                    if j == i:
                        continue
                    ddx, ddy = px - pos[j, 0], py - pos[j, 1]
                    rr = radius[i] + radius[j]
                    d2 = ddx * ddx + ddy * ddy
                    if d2 >= rr * rr:
                        continue
                    crowded[i] = True
                    if j < i and going and moving[j] and not arrived[j] and dvx * -ddx + dvy * -ddy > 0.0:
                        give_way = True
                    if d2 > 0.0:
                        dd = math.sqrt(d2)
                        w = (rr - dd) / rr
                        sx += ddx / dd * w
                        sy += ddy / dd * w
                    else:
                        # same point: split by index so the pair separates deterministically
                        ang = 2.399963 * (i - j)
                        sx += math.cos(ang)
                        sy += math.sin(ang)
        if give_way:
            dvx, dvy = 0.0, 0.0
        vx = dvx + sx * sep_weight * speed[i]
        vy = dvy + sy * sep_weight * speed[i]
        vmax = speed[i] * 1.5
        vv = math.sqrt(vx * vx + vy * vy)
        if vv > vmax:
            vx, vy = vx / vv * vmax, vy / vv * vmax
            vv = vmax
        qx, qy = safe_move(px, py, px + vx * dt, py + vy * dt, cls[i], edges, grid, cell_ptr, cell_items, ref, eps, buf)
        newpos[i, 0], newpos[i, 1] = qx, qy
        vel[i, 0], vel[i, 1] = (qx - px) / dt, (qy - py) / dt
        if moving[i] and not arrived[i] and (dvx != 0.0 or dvy != 0.0):
            heading[i] = math.atan2(dvy, dvx)
    # one relaxation pass over the units that overlapped someone: overlapping pairs move apart by
    # half their overlap each (safe moves)
    for i in range(n):
        if not active[i]:
            continue
        px, py = newpos[i, 0], newpos[i, 1]
        if not crowded[i]:
            pos[i, 0], pos[i, 1] = px, py
            continue
        cx_, cy_ = 0.0, 0.0
        ix = int((pos[i, 0] - hx0) / hcs)
        iy = int((pos[i, 1] - hy0) / hcs)
        for gy in range(max(0, iy - 1), min(hny, iy + 2)):
            for gx in range(max(0, ix - 1), min(hnx, ix + 2)):
                cc = gy * hnx + gx
                for k in range(start[cc], start[cc + 1]):
                    j = order[k]
                    if j == i:
                        continue
                    ddx, ddy = px - newpos[j, 0], py - newpos[j, 1]
                    rr = radius[i] + radius[j]
                    d2 = ddx * ddx + ddy * ddy
                    if d2 >= rr * rr or d2 == 0.0:
                        continue
                    dd = math.sqrt(d2)
                    push = 0.25 * (rr - dd)
                    cx_ += ddx / dd * push
                    cy_ += ddy / dd * push
        if cx_ != 0.0 or cy_ != 0.0:
            lim = radius[i] * 0.5
            cl = math.sqrt(cx_ * cx_ + cy_ * cy_)
            if cl > lim:
                cx_, cy_ = cx_ / cl * lim, cy_ / cl * lim
            qx, qy = safe_move(px, py, px + cx_, py + cy_, cls[i], edges, grid, cell_ptr, cell_items, ref, eps, buf)
            pos[i, 0], pos[i, 1] = qx, qy
        else:
            pos[i, 0], pos[i, 1] = px, py


plain_arguments(globals())
