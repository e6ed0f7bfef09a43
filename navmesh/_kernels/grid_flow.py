"""numba kernels for flow fields on grid maps: one Dijkstra from the goals, then a step per cell.

Same ``moves`` / ``half_cost`` arrays and direction codes as :mod:`navmesh._kernels.grid`.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels import grid_heap as H
from navmesh._kernels.grid import DCOL, DROW, HEAP_RESERVE, STEP_LEN, compact, neighbor
from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True)
def flow_dijkstra(moves, half_cost, height, width, wrap_r, wrap_c, goals, max_cost):
    """Least cost from every cell to its nearest goal; steps cost the same both ways.

    Returns (cost, origin, rank, expansions): ``cost`` is inf where unreached (or beyond
    ``max_cost``), ``origin`` the index into ``goals`` of the nearest goal (-1 where unreached),
    ``rank`` the order in which cells were settled (-1 where unreached). Every settled cell other
    than a goal has a neighbour of lower rank through which its cost was set (its parent), even
    where float rounding makes costs tie.
    """
    n = height * width
    # cost and settled flag side by side (the workspace layout of navmesh._kernels.grid)
    state = np.zeros(2 * n, np.float64)
    for v in range(n):
        state[2 * v] = np.inf
    origin = np.full(n, -1, np.int32)
    rank = np.full(n, -1, np.int32)
    cap = n + HEAP_RESERVE
    heap = np.empty(2 * cap, np.float64)
    size = 0
    for i in range(len(goals)):
        t = goals[i]
        if origin[t] < 0:
            state[2 * t] = 0.0
            origin[t] = i
            size = H.push(heap, size, 0.0, t)
    expansions = 0
    while size > 0:
        du, u, size = H.pop(heap, size)
        if state[2 * u + 1] == 1.0 or du > state[2 * u]:
            continue
        if du > max_cost:
            break
        state[2 * u + 1] = 1.0
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
            if state[2 * v + 1] == 1.0:
                continue
            nd = du + STEP_LEN[d] * (hu + half_cost[v])
            if nd < state[2 * v]:
                state[2 * v] = nd
                origin[v] = ou
                if size == cap:
                    size = compact(heap, size, state, 1.0, height, width, wrap_r, wrap_c, 0, 0.0)
                size = H.push(heap, size, nd, v)
    cost = np.empty(n, np.float64)
    for v in range(n):
        if state[2 * v + 1] == 1.0:
            cost[v] = state[2 * v]
        else:
            cost[v] = np.inf
            origin[v] = -1
    return cost, origin, rank, expansions


@njit(cache=True)
def flow_directions(moves, half_cost, height, width, wrap_r, wrap_c, cost, origin, rank, is_goal, goals,
                    rel_tol):
    """Direction code (0..7) of the best next step from every reached cell; -1 at goals/unreached.

    A step is "best" when it keeps the path least-cost: ``cost[v] + step <= cost[u]`` within
    ``rel_tol``, and leads to a cell settled earlier (``rank[v] < rank[u]``, so following the
    codes always ends at a goal, even where rounding makes neighbouring costs equal: the cell the
    search reached ``u`` from always qualifies). Among such steps the one pointing most nearly at
    the cell's goal (largest cosine) wins, so units follow the straight line instead of
    zig-zagging; exact ties go to the lower code.
    """
    n = height * width
    out = np.full(n, -1, np.int8)
    for u in range(n):
        ru = rank[u]
        if ru < 0 or is_goal[u]:
            continue
        cu = cost[u]
        r = u // width
        c = u - r * width
        t = goals[origin[u]]
        tr = t // width
        tc = t - tr * width
        vr_goal = tr - r
        vc_goal = tc - c
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
        out[u] = best
    return out


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
