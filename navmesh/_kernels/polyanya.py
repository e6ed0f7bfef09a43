"""Polyanya: exact Euclidean shortest paths on a mesh of convex polygons (numba kernels).

Cui, Harabor and Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017.
A search node is an *interval* [L, R] on an edge of the polygon it leads into, with a *root*:
the last turning point (the start, or a mesh vertex touching a wall) from which the whole
interval is visible. Left and right are as seen from the root looking through the interval.
Expanding a node projects the root through the interval onto the other edges of the polygon:

- *observable* successors: the parts of those edges inside the cone root-L-R keep the root;
- *non-observable* successors: the parts right of the ray root->R (left of root->L) are seen
  only by turning at R (L), allowed when R (L) is the edge's vertex and that vertex is a corner;
  their root becomes that vertex and g grows by the distance to it;
- a *collinear* node (the root on the line of its interval) turns at the nearer end, if that
  is a corner vertex (or is the root itself), and sees the whole polygon from there.

f = g + h, where h is the length of the shortest way root -> interval -> goal (the goal mirrored
through the interval's line when it lies on the root's side). Root pruning: a node whose root
vertex was reached before with a smaller g (by more than ``eps``) is dropped. The first node
popped whose polygon contains the goal ends the search: its f is the length of a real path and
no open node can do better.

Mesh arrays (see :class:`navmesh.polymesh.mesh.PolyMesh`): ``xy`` (V, 2), ``indptr``,
``indices`` (vertex per slot), ``nbr`` (polygon across each slot's edge), ``twins`` (the slot
of that edge in the neighbour), ``owner`` (polygon of each slot), ``corner`` (V,), ``open_poly``
(P,) polygons a unit may enter. Slot e's edge runs from ``indices[e]`` to the polygon's next
vertex; entering a polygon through slot e, its left end is ``indices[e]`` and its right end
the next vertex.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from navmesh._kernels.heap import heap_pop, heap_push
from navmesh._kernels.signatures import plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

NEED_SPACE = 3  # the node pool is full: grow the workspace and run again
RUNNING = 4  # search_begin: the search goes on in search_run


@njit(cache=True)
def _orient(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit(cache=True)
def _next_slot(indptr, p, e):
    return e + 1 if e + 1 < indptr[p + 1] else indptr[p]


@njit(cache=True)
def h_value(rx, ry, lx, ly, qx, qy, gx, gy):
    """Length of the shortest way from root r through the segment [L, Q] to the goal g."""
    if (rx == lx and ry == ly) or (rx == qx and ry == qy):
        return math.hypot(gx - rx, gy - ry)
    sr = _orient(lx, ly, qx, qy, rx, ry)
    sg = _orient(lx, ly, qx, qy, gx, gy)
    via_l = math.hypot(lx - rx, ly - ry)
    via_q = math.hypot(qx - rx, qy - ry)
    if sr == 0.0 and sg == 0.0:  # everything on one line
        return min(via_l + math.hypot(gx - lx, gy - ly), via_q + math.hypot(gx - qx, gy - qy))
    if sr * sg > 0.0:  # same side: mirror the goal through the line
        dx = qx - lx
        dy = qy - ly
        k = 2.0 * sg / (dx * dx + dy * dy)
        gx = gx + k * dy
        gy = gy - k * dx
    o1 = _orient(rx, ry, gx, gy, lx, ly)
    o2 = _orient(rx, ry, gx, gy, qx, qy)
    if (o1 <= 0.0 <= o2) or (o2 <= 0.0 <= o1):
        if sr != 0.0 or (o1 == 0.0 and o2 == 0.0):
            return math.hypot(gx - rx, gy - ry)
        # root on the interval's line: straight only when it lies on the interval
        if (lx - rx) * (qx - rx) + (ly - ry) * (qy - ry) <= 0.0:
            return math.hypot(gx - rx, gy - ry)
    return min(via_l + math.hypot(gx - lx, gy - ly), via_q + math.hypot(gx - qx, gy - qy))


@njit(cache=True)
def locate(px, py, xy, indptr, indices, cell_ptr, cell_polys, grid, open_poly, out):
    """Open polygons whose closed area contains (px, py), written to ``out``; returns their count.

    ``grid`` = (x0, y0, inverse cell size, nx, ny); ``cell_ptr``/``cell_polys`` list, per cell
    (row-major, x fastest), the polygons whose bounding box meets it.
    """
    nx = int(grid[3])
    ny = int(grid[4])
    if nx == 0:
        return 0
    cx = int(math.floor((px - grid[0]) * grid[2]))
    cy = int(math.floor((py - grid[1]) * grid[2]))
    if cx < 0 or cy < 0 or cx >= nx or cy >= ny:
        return 0
    c = cy * nx + cx
    count = 0
    for k in range(cell_ptr[c], cell_ptr[c + 1]):
        p = cell_polys[k]
        if not open_poly[p]:
            continue
        inside = True
        lo = indptr[p]
        hi = indptr[p + 1]
        for e in range(lo, hi):
            a = indices[e]
            b = indices[e + 1] if e + 1 < hi else indices[lo]
            if _orient(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], px, py) < 0.0:
                inside = False
                break
        if inside and count < len(out):
            out[count] = p
            count += 1
    return count


@njit(cache=True)
def workspace(n_vertices, capacity):
    """Reusable search arrays: node pool, heap, per-vertex best g and its stamp."""
    return (
        np.empty(capacity, np.int64),  # root vertex (-1 = start)
        np.empty(capacity, np.int64),  # slot of the interval's edge in the polygon it leads into
        np.empty((capacity, 4), np.float64),  # lx, ly, rx, ry
        np.empty(capacity, np.float64),  # g
        np.empty(capacity, np.int64),  # parent node
        np.empty(capacity, np.float64),  # heap keys (f)
        np.empty(capacity, np.int32),  # heap values (node ids; int32 like every other search: one heap kernel)
        np.zeros(n_vertices, np.float64),  # best g per root vertex
        np.zeros(n_vertices, np.int64),  # search stamp of that g
    )


@njit(cache=True)
def _push(ws, n_nodes, size, slot, lx, ly, rx, ry, root, g, parent, rootx, rooty, gx, gy, stamp, eps):
    """Add a node unless its root vertex is known with a smaller g; returns (n_nodes, size),
    n_nodes = -1 when the pool is full."""
    nroot, nslot, nint, ng, npar, keys, vals, root_g, root_stamp = ws
    if root >= 0:
        if root_stamp[root] == stamp:
            if root_g[root] + eps < g:
                return n_nodes, size
            if g < root_g[root]:
                root_g[root] = g
        else:
            root_stamp[root] = stamp
            root_g[root] = g
    if n_nodes >= len(nroot):
        return -1, size
    i = n_nodes
    nroot[i] = root
    nslot[i] = slot
    nint[i, 0] = lx
    nint[i, 1] = ly
    nint[i, 2] = rx
    nint[i, 3] = ry
    ng[i] = g
    npar[i] = parent
    f = g + h_value(rootx, rooty, lx, ly, rx, ry, gx, gy)
    size = heap_push(keys, vals, size, f, i)
    return n_nodes + 1, size


@njit(cache=True)
def _on_segment(ax, ay, bx, by, px, py):
    if _orient(ax, ay, bx, by, px, py) != 0.0:
        return False
    return min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by)


@njit(cache=True)
def _may_enter(p, q, dead, up, mark, stamp):
    """Whether a search in polygon p may step into its neighbour q: always into the live core,
    into a dead-end branch only towards the goal (q is the goal's polygon or an ancestor of it)
    or out of it (q is p's parent)."""
    if not dead[q] or mark[q] == stamp:
        return True
    return dead[p] and up[p] == q


@njit(cache=True)
def dead_ends(indptr, nbr, open_poly):
    """The dead-end forest: polygons peeled off by repeatedly removing open polygons with at most
    one open neighbour left, and for each its neighbour towards the rest (``up``, -1 for the last
    of a component). A shortest path enters such a branch only to reach a goal inside it, and
    leaves it only from a start inside it, always through ``up``.
    """
    n = len(indptr) - 1
    deg = np.zeros(n, np.int64)
    dead = np.zeros(n, np.bool_)
    up = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    queued = np.zeros(n, np.bool_)
    head = 0
    tail = 0
    for p in range(n):
        if not open_poly[p]:
            continue
        for e in range(indptr[p], indptr[p + 1]):
            q = nbr[e]
            if q >= 0 and open_poly[q]:
                deg[p] += 1
        if deg[p] <= 1:
            queue[tail] = p
            tail += 1
            queued[p] = True
    while head < tail:
        p = queue[head]
        head += 1
        dead[p] = True
        for e in range(indptr[p], indptr[p + 1]):
            q = nbr[e]
            if q >= 0 and open_poly[q] and not dead[q]:
                up[p] = q
                deg[q] -= 1
                if deg[q] <= 1 and not queued[q]:
                    queue[tail] = q
                    tail += 1
                    queued[q] = True
    return dead, up


@njit(cache=True)
def search(xy, indptr, indices, nbr, twins, owner, corner, open_poly, dead, up, mark, sx, sy, gx, gy,
           start_polys, goal_polys, ws, stamp, eps, budget):
    """Polyanya from (sx, sy) to (gx, gy): :func:`search_begin` then :func:`search_run`.

    ``start_polys`` / ``goal_polys``: the open polygons containing the start / goal. ``dead``,
    ``up``: the dead-end forest (see :func:`dead_ends`); ``mark`` (per polygon) is stamped here
    on the goal polygons and their ancestors in it. Returns (status, final node, expansions,
    n_nodes); final node -1 with FOUND means start and goal share a polygon (the straight
    segment).
    """
    status, n_nodes, size = search_begin(xy, indptr, indices, nbr, twins, open_poly, dead, up, mark, sx, sy, gx, gy,
                                         start_polys, goal_polys, ws, stamp, eps)
    if status != RUNNING:
        return status, -1, 0, n_nodes
    status, final, expansions, n_nodes, size = search_run(xy, indptr, indices, nbr, twins, owner, corner, open_poly,
                                                          dead, up, mark, sx, sy, gx, gy, goal_polys, ws, stamp, eps,
                                                          n_nodes, size, 0, budget)
    return status, final, expansions, n_nodes


@njit(cache=True)
def search_begin(xy, indptr, indices, nbr, twins, open_poly, dead, up, mark, sx, sy, gx, gy,
                 start_polys, goal_polys, ws, stamp, eps):
    """Stamp the goal's branch and push the start's nodes. Returns (status, n_nodes, heap size):
    FOUND when start and goal share a polygon, NEED_SPACE, or RUNNING (go on with
    :func:`search_run`)."""
    nroot, nslot, nint, ng, npar, keys, vals, root_g, root_stamp = ws
    for j in range(len(goal_polys)):
        v = goal_polys[j]
        while v >= 0 and mark[v] != stamp:
            mark[v] = stamp
            v = up[v] if dead[v] else -1
    for i in range(len(start_polys)):
        for j in range(len(goal_polys)):
            if start_polys[i] == goal_polys[j]:
                return FOUND, 0, 0
    n_nodes = 0
    size = 0
    for i in range(len(start_polys)):
        p = start_polys[i]
        lo = indptr[p]
        hi = indptr[p + 1]
        for e in range(lo, hi):
            q = nbr[e]
            if q < 0 or not open_poly[q] or not _may_enter(p, q, dead, up, mark, stamp):
                continue
            a = indices[e]
            b = indices[e + 1] if e + 1 < hi else indices[lo]
            if _on_segment(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], sx, sy):
                continue
            n_nodes, size = _push(ws, n_nodes, size, twins[e], xy[b, 0], xy[b, 1], xy[a, 0], xy[a, 1], -1, 0.0, -1,
                                  sx, sy, gx, gy, stamp, eps)
            if n_nodes < 0:
                return NEED_SPACE, 0, 0
    return RUNNING, n_nodes, size


@njit(cache=True)
def search_run(xy, indptr, indices, nbr, twins, owner, corner, open_poly, dead, up, mark, sx, sy, gx, gy,
               goal_polys, ws, stamp, eps, n_nodes, size, expansions, budget):
    """Expand nodes until the goal, an empty heap, or ``expansions`` reaching ``budget`` (a
    total, not a count for this call). Returns (status, final node, expansions, n_nodes, heap
    size); after BUDGET the heap is intact (the next node is looked at, not taken), so a call
    with a larger budget and the returned counters goes on exactly where this one stopped
    (sliced searches). NEED_SPACE leaves a half-expanded node: start again, with more room.
    """
    nroot, nslot, nint, ng, npar, keys, vals, root_g, root_stamp = ws
    while size > 0:
        i = vals[0]
        root = nroot[i]
        g = ng[i]
        if root >= 0 and root_stamp[root] == stamp and root_g[root] + eps < g:
            _, i, size = heap_pop(keys, vals, size)
            continue
        e0 = nslot[i]
        p = owner[e0]
        for j in range(len(goal_polys)):
            if goal_polys[j] == p:
                return FOUND, i, expansions, n_nodes, size
        if expansions >= budget:
            return BUDGET, i, expansions, n_nodes, size
        _, i, size = heap_pop(keys, vals, size)
        expansions += 1
        if root >= 0:
            rx = xy[root, 0]
            ry = xy[root, 1]
        else:
            rx = sx
            ry = sy
        lx = nint[i, 0]
        ly = nint[i, 1]
        qx = nint[i, 2]
        qy = nint[i, 3]
        va = indices[e0]  # left vertex
        vb = indices[_next_slot(indptr, p, e0)]  # right vertex
        lo = indptr[p]
        hi = indptr[p + 1]
        if _orient(rx, ry, qx, qy, lx, ly) <= 0.0:
            # collinear: turn at the nearer end (if possible) and see the whole polygon
            dl = math.hypot(lx - rx, ly - ry)
            dq = math.hypot(qx - rx, qy - ry)
            if dl <= dq:
                d, ex, ey, v = dl, lx, ly, va
            else:
                d, ex, ey, v = dq, qx, qy, vb
            new_root = root
            new_g = g
            nrx, nry = rx, ry
            if d > 0.0:
                if not (ex == xy[v, 0] and ey == xy[v, 1] and corner[v]):
                    continue
                new_root = v
                new_g = g + d
                nrx, nry = ex, ey
            e = _next_slot(indptr, p, e0)
            while e != e0:
                q = nbr[e]
                if q >= 0 and open_poly[q] and _may_enter(p, q, dead, up, mark, stamp):
                    a = indices[e]
                    b = indices[_next_slot(indptr, p, e)]
                    n_nodes, size = _push(ws, n_nodes, size, twins[e], xy[b, 0], xy[b, 1], xy[a, 0], xy[a, 1], new_root,
                                          new_g, i, nrx, nry, gx, gy, stamp, eps)
                    if n_nodes < 0:
                        return NEED_SPACE, -1, expansions, 0, size
                e = _next_slot(indptr, p, e)
            continue
        can_right = qx == xy[vb, 0] and qy == xy[vb, 1] and corner[vb]
        can_left = lx == xy[va, 0] and ly == xy[va, 1] and corner[va]
        g_right = g + math.hypot(qx - rx, qy - ry)
        g_left = g + math.hypot(lx - rx, ly - ry)
        e = _next_slot(indptr, p, e0)
        # orientations of each chain vertex against both rays, carried from edge to edge
        srb = _orient(rx, ry, qx, qy, xy[vb, 0], xy[vb, 1])
        slb = _orient(rx, ry, lx, ly, xy[vb, 0], xy[vb, 1])
        while e != e0:
            en = _next_slot(indptr, p, e)
            sra = srb
            sla = slb
            b = indices[en]
            bx = xy[b, 0]
            by = xy[b, 1]
            srb = _orient(rx, ry, qx, qy, bx, by)
            slb = _orient(rx, ry, lx, ly, bx, by)
            q = nbr[e]
            if q >= 0 and open_poly[q] and _may_enter(p, q, dead, up, mark, stamp):
                a = indices[e]
                ax = xy[a, 0]
                ay = xy[a, 1]
                # [0, tr): right of the ray root->R; (tl, 1]: left of root->L
                if sra >= 0.0:
                    tr = 0.0
                elif srb <= 0.0:
                    tr = 1.0
                else:
                    tr = sra / (sra - srb)
                if sla >= 0.0 and slb >= 0.0:
                    tl = 0.0
                elif slb <= 0.0:
                    tl = 1.0
                else:
                    tl = sla / (sla - slb)
                if tl < tr:
                    tl = tr
                dx = bx - ax
                dy = by - ay
                if tr > 0.0:
                    px_r = ax + tr * dx if tr < 1.0 else bx
                    py_r = ay + tr * dy if tr < 1.0 else by
                else:
                    px_r = ax
                    py_r = ay
                if tl < 1.0:
                    px_l = ax + tl * dx if tl > 0.0 else ax
                    py_l = ay + tl * dy if tl > 0.0 else ay
                else:
                    px_l = bx
                    py_l = by
                slot = twins[e]
                if tl > tr:
                    n_nodes, size = _push(ws, n_nodes, size, slot, px_l, py_l, px_r, py_r, root, g, i,
                                          rx, ry, gx, gy, stamp, eps)
                    if n_nodes < 0:
                        return NEED_SPACE, -1, expansions, 0, size
                if can_right and tr > 0.0:
                    n_nodes, size = _push(ws, n_nodes, size, slot, px_r, py_r, ax, ay, vb, g_right, i,
                                          qx, qy, gx, gy, stamp, eps)
                    if n_nodes < 0:
                        return NEED_SPACE, -1, expansions, 0, size
                if can_left and tl < 1.0:
                    n_nodes, size = _push(ws, n_nodes, size, slot, bx, by, px_l, py_l, va, g_left, i,
                                          lx, ly, gx, gy, stamp, eps)
                    if n_nodes < 0:
                        return NEED_SPACE, -1, expansions, 0, size
            e = en
    return EXHAUSTED, -1, expansions, n_nodes, size


@njit(cache=True)
def trace_path(xy, indptr, indices, nbr, twins, owner, ws, final, sx, sy, gx, gy):
    """Turning points (start ... goal) and the polygons crossed, from the final node."""
    nroot, nslot, nint, ng, npar, keys, vals, root_g, root_stamp = ws
    # the turn before the goal: straight from the root, or around an end of the interval
    root = nroot[final]
    rx = xy[root, 0] if root >= 0 else sx
    ry = xy[root, 1] if root >= 0 else sy
    lx, ly, qx, qy = nint[final, 0], nint[final, 1], nint[final, 2], nint[final, 3]
    turn = 0  # 0 straight, 1 via L, 2 via R
    if _orient(rx, ry, qx, qy, lx, ly) <= 0.0:
        if not ((rx == lx and ry == ly) or (rx == qx and ry == qy) or _on_segment(lx, ly, qx, qy, rx, ry)):
            via_l = math.hypot(lx - rx, ly - ry) + math.hypot(gx - lx, gy - ly)
            via_q = math.hypot(qx - rx, qy - ry) + math.hypot(gx - qx, gy - qy)
            turn = 1 if via_l <= via_q else 2
    elif _orient(rx, ry, qx, qy, gx, gy) < 0.0:
        turn = 2
    elif _orient(rx, ry, lx, ly, gx, gy) > 0.0:
        turn = 1
    n_chain = 0
    n_roots = 0
    last = -2
    i = final
    while i >= 0:
        n_chain += 1
        if nroot[i] != last:
            last = nroot[i]
            if last >= 0:
                n_roots += 1
        i = npar[i]
    pts = np.empty((n_roots + 2 + (1 if turn else 0), 2))
    polys = np.empty(n_chain + 1, np.int64)
    k = len(pts) - 1
    pts[k, 0] = gx
    pts[k, 1] = gy
    k -= 1
    if turn == 1:
        pts[k, 0] = lx
        pts[k, 1] = ly
        k -= 1
    elif turn == 2:
        pts[k, 0] = qx
        pts[k, 1] = qy
        k -= 1
    last = -2
    i = final
    m = n_chain
    first = final
    while i >= 0:
        polys[m] = owner[nslot[i]]
        m -= 1
        if nroot[i] != last:
            last = nroot[i]
            if last >= 0:
                pts[k, 0] = xy[last, 0]
                pts[k, 1] = xy[last, 1]
                k -= 1
        first = i
        i = npar[i]
    polys[0] = nbr[nslot[first]]
    pts[0, 0] = sx
    pts[0, 1] = sy
    return _dedupe(pts), polys


@njit(cache=True)
def _dedupe(pts):
    """Drop points equal to the one before (a root on the start, a turn on a root)."""
    keep = 1
    for i in range(1, len(pts)):
        if pts[i, 0] != pts[keep - 1, 0] or pts[i, 1] != pts[keep - 1, 1]:
            pts[keep, 0] = pts[i, 0]
            pts[keep, 1] = pts[i, 1]
            keep += 1
    if keep == 1:  # start == goal: a path of two equal points
        pts[1, 0] = pts[0, 0]
        pts[1, 1] = pts[0, 1]
        keep = 2
    return pts[:keep].copy()


@njit(cache=True)
def polyline_length(pts):
    """Length of the polyline through ``pts``."""
    total = 0.0
    for i in range(1, len(pts)):
        total += math.hypot(pts[i, 0] - pts[i - 1, 0], pts[i, 1] - pts[i - 1, 1])
    return total


@njit(cache=True)
def raycast(xy, indptr, indices, nbr, twins, open_poly, sx, sy, ex, ey, start_poly):
    """Walk the segment s->e through the mesh from ``start_poly`` (which contains s).

    Returns (hit, t, slot, visited polygons, count): ``hit`` when a wall (an edge to nothing or
    to a closed polygon) stops the walk at fraction ``t`` on edge ``slot``; otherwise t = 1.
    """
    n_poly = len(indptr) - 1
    visited = np.empty(n_poly + 1, np.int64)
    count = 0
    p = start_poly
    entry = -1
    t_in = 0.0
    for _ in range(n_poly + 1):
        visited[count] = p
        count += 1
        lo = indptr[p]
        hi = indptr[p + 1]
        best_t = 2.0
        best_e = -1
        for e in range(lo, hi):
            if e == entry:
                continue
            a = indices[e]
            b = indices[e + 1] if e + 1 < hi else indices[lo]
            oe = _orient(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], ex, ey)
            if oe >= 0.0:
                continue  # the end is on the inner side of this edge: the walk does not leave here
            os_ = _orient(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], sx, sy)
            t = os_ / (os_ - oe)
            if t < best_t:
                best_t = t
                best_e = e
        if best_e < 0:
            return False, 1.0, -1, visited, count
        if best_t < t_in:
            best_t = t_in
        q = nbr[best_e]
        if q < 0 or not open_poly[q]:
            return True, max(best_t, 0.0), best_e, visited, count
        entry = twins[best_e]
        p = q
        t_in = best_t
    return False, 1.0, -1, visited, count


plain_arguments(globals())
