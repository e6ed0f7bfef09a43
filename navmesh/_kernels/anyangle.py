"""numba kernels for any-angle refinement: Theta*-style search over a waypoint graph and string
pulling, with shortcuts judged by the line-of-sight kernels of :mod:`navmesh._kernels.los`.

"Barriers" are a second edge set used only by the refinement: terrain region boundaries and the
segments of manual, gated and off-mesh links. A shortcut that touches a barrier is not taken, so a
shortcut always lies in one terrain class and never bypasses a link the designer drew.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from navmesh._kernels.heap import heap_pop, heap_push
from navmesh._kernels.los import segment_free, segment_touches
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

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
