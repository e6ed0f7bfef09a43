"""numba kernels for flow fields on grid maps: one Dijkstra from the goals, then a step per cell.

Same ``moves`` / ``half_cost`` arrays and direction codes as :mod:`navmesh._kernels.grid`.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels import grid_heap as H
from navmesh._kernels.grid import DCOL, DROW, HEAP_RESERVE, STEP_LEN, compact, neighbor
from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True)
def flow_field(moves, half_cost, height, width, wrap_r, wrap_c, goals, max_cost, rel_tol):
    """A flow field in one call: the least cost from every cell to its nearest goal, then the
    best step of every cell. Steps cost the same both ways.

    First a Dijkstra search from all ``goals`` at once settles every cell within ``max_cost``;
    every settled cell other than a goal has a neighbour settled earlier through which its cost
    was set (its parent), even where float rounding makes costs tie. Then each settled cell
    other than a goal gets the direction code (0..7) of its best step: one that keeps the path
    least-cost (``cost[v] + step <= cost[u]`` within ``rel_tol``) and leads to a cell settled
    earlier (so following the codes always ends at a goal: the parent always qualifies); among
    those the one pointing most nearly at the cell's goal (largest cosine) wins, so units follow
    the straight line instead of zig-zagging; exact ties go to the lower code.

    Returns (cost, origin, codes, expansions): ``cost`` is inf where unreached (or beyond
    ``max_cost``), ``origin`` the index into ``goals`` of the nearest goal and ``codes`` the
    direction codes (-1 at goals and unreached cells; ``origin`` is -1 where unreached).
    """
    n = height * width
    cost = np.empty(n)
    settled = np.empty(n, np.int32)  # 1 once settled (the stamp of navmesh._kernels.grid's workspace)
    origin = np.empty(n, np.int32)
    rank = np.empty(n, np.int32)  # the order in which cells were settled
    for u in range(n):  # (np.empty and a loop: the one numpy allocation every kernel compiles)
        cost[u] = np.inf
        settled[u] = -1
        origin[u] = -1
        rank[u] = -1
    cap = n + HEAP_RESERVE
    heap = np.empty(2 * cap)
    size = 0
    for i in range(len(goals)):
        t = goals[i]
        if origin[t] < 0:
            cost[t] = 0.0
            origin[t] = i
            size = H.push(heap, size, 0.0, t)
    expansions = 0
    while size > 0:
        du, u, size = H.pop(heap, size)
        if settled[u] == 1 or du > cost[u]:
            continue
        if du > max_cost:
            break
        settled[u] = 1
        rank[u] = expansions
        expansions += 1
        r = u // width
        c = u - r * width
        m = moves[u]
        hu = half_cost[u]
        ou = origin[u]
        for d in range(8):
            if (m >> d) & 1 == 0:
                continue
            v = neighbor(r, c, d, height, width)
            if settled[v] == 1:
                continue
            nd = du + STEP_LEN[d] * (hu + half_cost[v])
            if nd < cost[v]:
                cost[v] = nd
                origin[v] = ou
                if size == cap:
                    size = compact(heap, size, cost, settled, 1, height, width, wrap_r, wrap_c, 0, 0.0, 0.0)
                size = H.push(heap, size, nd, v)
    codes = np.empty(n, np.int8)
    for u in range(n):
        codes[u] = -1
        ru = rank[u]
        if ru < 0:
            cost[u] = np.inf
            origin[u] = -1
            continue
        t = goals[origin[u]]
        if t == u:
            continue
        cu = cost[u]
        r = u // width
        c = u - r * width
        tr = t // width
        vr_goal = tr - r
        vc_goal = t - tr * width - c
        if wrap_r and abs(vr_goal) * 2 > height:
            vr_goal -= height if vr_goal > 0 else -height
        if wrap_c and abs(vc_goal) * 2 > width:
            vc_goal -= width if vc_goal > 0 else -width
        m = moves[u]
        hu = half_cost[u]
        tol = rel_tol * cu
        best = -1
        best_score = -np.inf
        for d in range(8):
            if (m >> d) & 1 == 0:
                continue
            v = neighbor(r, c, d, height, width)
            rv = rank[v]
            if rv < 0 or rv >= ru:
                continue
            if cost[v] + STEP_LEN[d] * (hu + half_cost[v]) > cu + tol:
                continue
            score = (DROW[d] * vr_goal + DCOL[d] * vc_goal) / STEP_LEN[d]
            if score > best_score:
                best_score = score
                best = d
        codes[u] = best
    return cost, origin, codes, expansions


@njit(cache=True)
def follow_directions(directions, height, width, start):
    """Cells visited from ``start`` by following direction codes until a cell has none."""
    count = 1
    u = start
    while directions[u] >= 0:
        r = u // width
        u = neighbor(r, u - r * width, directions[u], height, width)
        count += 1
    out = np.empty(count, np.int32)
    u = start
    out[0] = u
    for i in range(1, count):
        r = u // width
        u = neighbor(r, u - r * width, directions[u], height, width)
        out[i] = u
    return out


plain_arguments(globals())
