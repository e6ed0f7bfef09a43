"""numba kernels for any-angle queries: line of sight against walls bucketed in a uniform grid,
Theta*-style search over a waypoint graph, and string pulling.

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

"Barriers" are a second edge set used only by the refinement: terrain region boundaries and the
segments of manual, gated and off-mesh links. A shortcut that touches a barrier is not taken, so a
shortcut always lies in one terrain class and never bypasses a link the designer drew.

Kernels trust their inputs and also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from navmesh._kernels import heap_pop, heap_push

# Status codes, as in navmesh._kernels.
FOUND = 0
EXHAUSTED = 1
BUDGET = 2

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


# --- refinement: shortcuts ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def _shortcut_ok(
    xy, floor, u, v,
    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items,
    b_edges, b_grid, b_cptr, b_citems,
):
    """Whether the straight walk from node ``u`` to node ``v`` (rows of ``xy``) is allowed: same
    floor, line of sight, and no barrier touched."""
    if floor[u] != floor[v]:
        return False
    ax, ay, bx, by = xy[u, 0], xy[u, 1], xy[v, 0], xy[v, 1]
    if b_edges.shape[0] > 0 and segment_touches(ax, ay, bx, by, b_edges, b_grid, b_cptr, b_citems):
        return False
    return segment_free(ax, ay, bx, by, w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items)


@njit(cache=True, inline="always")
def _straight_cost(xy, mult, u, v):
    """Cost of the straight walk u -> v if it stays in u's terrain class (inf in closed terrain)."""
    return mult[u] * np.sqrt((xy[v, 0] - xy[u, 0]) ** 2 + (xy[v, 1] - xy[u, 1]) ** 2)


@njit(cache=True)
def theta_star(
    indptr, indices, weights, xy, mult, floor,
    entry_nodes, entry_costs, exit_costs,
    hscale, max_expansions, lookback,
    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items,
    b_edges, b_grid, b_cptr, b_citems,
):
    """Theta*-style search from a start position to a goal position through a waypoint graph.

    Node ids ``0..n-1`` are the graph's; ``n`` is the start position and ``n + 1`` the goal
    position. ``xy``, ``mult`` and ``floor`` have n + 2 rows: position, terrain multiplier there
    (inf in closed terrain) and floor id (shortcuts only join positions on one floor). The start
    joins ``entry_nodes`` at ``entry_costs``; node ``v`` joins the goal at ``exit_costs[v]`` (inf: not joined). With
    ``refine`` a node reached from ``u`` takes ``parent[u]`` as its parent instead when the
    straight shortcut is allowed and costs no more, and every expanded node (and its parent)
    tries the straight walk to the goal. The heuristic is
    ``hscale * distance(node, goal)``. ``max_expansions <= 0`` means no budget.

    Returns (g, parent, status, expansions, nearest): ``nearest`` is the expanded graph node
    closest to the goal position (-1 when none).
    """
    n = indptr.shape[0] - 1
    start = n
    goal = n + 1
    gx = xy[goal, 0]
    gy = xy[goal, 1]
    g = np.full(n + 2, np.inf)
    parent = np.full(n + 2, -1, np.int32)
    closed = np.zeros(n + 2, np.bool_)
    anc = np.empty(max(lookback, 1), np.int64)
    cap = indices.shape[0] + entry_nodes.shape[0] + 3 * n + 4
    keys = np.empty(cap)
    vals = np.empty(cap, np.int32)
    g[start] = 0.0
    size = heap_push(keys, vals, 0, hscale * np.sqrt((xy[start, 0] - gx) ** 2 + (xy[start, 1] - gy) ** 2), start)
    expansions = 0
    status = EXHAUSTED
    nearest = -1
    nearest_d = np.inf
    while size > 0:
        _, u, size = heap_pop(keys, vals, size)
        if closed[u]:
            continue
        if u == goal:
            status = FOUND
            break
        closed[u] = True
        expansions += 1
        if u < n:
            d = np.sqrt((xy[u, 0] - gx) ** 2 + (xy[u, 1] - gy) ** 2)
            if d < nearest_d:
                nearest_d = d
                nearest = u
        if max_expansions > 0 and expansions >= max_expansions:
            status = BUDGET
            break
        # ancestors of u that may serve as parent of u's successors, nearest first
        n_anc = 0
        a = parent[u]
        while a >= 0 and n_anc < lookback:
            anc[n_anc] = a
            n_anc += 1
            a = parent[a]
        if lookback > 0 and u != start and g[goal] > g[u]:
            # look straight at the goal from u and its ancestors: a sparse graph's exits are only
            # the goal's nearest waypoints, but any node that sees the goal may finish the path
            for j in range(n_anc, -1, -1):
                a = u if j == 0 else anc[j - 1]
                c = g[a] + _straight_cost(xy, mult, a, goal)
                if c < g[goal] and _shortcut_ok(
                    xy, floor, a, goal,
                    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items,
                    b_edges, b_grid, b_cptr, b_citems,
                ):
                    g[goal] = c
                    parent[goal] = a
                    size = heap_push(keys, vals, size, c, goal)
                    break
        if u == start:
            lo, hi = 0, entry_nodes.shape[0]
        else:
            lo, hi = indptr[u], indptr[u + 1] + 1
        for k in range(lo, hi):
            if u == start:
                v = entry_nodes[k]
                w = entry_costs[k]
            elif k < hi - 1:
                v = indices[k]
                w = weights[k]
            else:
                v = goal
                w = exit_costs[u]
            if closed[v] or not w < np.inf:
                continue
            best = g[u] + w
            bp = u
            # oldest ancestor first: with uniform costs an older visible ancestor is never worse
            for j in range(n_anc - 1, -1, -1):
                a = anc[j]
                c = g[a] + _straight_cost(xy, mult, a, v)
                if c <= best and c < g[v] and _shortcut_ok(
                    xy, floor, a, v,
                    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items,
                    b_edges, b_grid, b_cptr, b_citems,
                ):
                    best = c
                    bp = a
                    break
            if best < g[v]:
                g[v] = best
                parent[v] = bp
                h = hscale * np.sqrt((xy[v, 0] - gx) ** 2 + (xy[v, 1] - gy) ** 2)
                size = heap_push(keys, vals, size, best + h, v)
    return g, parent, status, expansions, nearest


@njit(cache=True)
def string_pull(
    order, xy, mult, floor, cum_cost,
    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items,
    b_edges, b_grid, b_cptr, b_citems,
):
    """Greedy string pulling of a path given as rows ``order`` of ``xy`` with cumulative costs.

    From each kept point, jump to the farthest later point reachable by an allowed straight
    shortcut that costs no more than the path between them; stop scanning at the first point
    that is not. Returns (kept positions into ``order``, their cumulative costs).
    """
    k = order.shape[0]
    keep = np.empty(k, np.int64)
    cost = np.empty(k)
    keep[0] = 0
    cost[0] = 0.0
    n_keep = 1
    i = 0
    while i < k - 1:
        j_best = i + 1
        c_best = cost[n_keep - 1] + (cum_cost[i + 1] - cum_cost[i])
        j = i + 2
        while j < k:
            c = _straight_cost(xy, mult, order[i], order[j])
            if not c <= cum_cost[j] - cum_cost[i] or not _shortcut_ok(
                xy, floor, order[i], order[j],
                w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items,
                b_edges, b_grid, b_cptr, b_citems,
            ):
                break
            j_best = j
            c_best = cost[n_keep - 1] + c
            j += 1
        keep[n_keep] = j_best
        cost[n_keep] = c_best
        n_keep += 1
        i = j_best
    return keep[:n_keep], cost[:n_keep]
