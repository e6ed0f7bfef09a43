"""numba kernels over CSR arrays: best-first search (A*/Dijkstra), BFS, DFS, Bellman-Ford, all pairs.

Kernels trust their inputs (the public functions in ``navmesh.search`` validate them) and keep all
search state in arrays allocated per call, so one graph serves any number of concurrent searches.
Every kernel also runs as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.heap import heap_pop, heap_push, trace_back
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

# Heuristic codes, in the order of navmesh.graph.HEURISTICS.
H_ZERO = 0
H_EUCLIDEAN = 1
H_MANHATTAN = 2
H_OCTILE = 3
H_CHEBYSHEV = 4

_SQRT2_MINUS_1 = 0.41421356237309515


@njit(cache=True, internal=True, _nrt=False)
def metric(points, u, target, code):
    """Distance from node ``u`` to the point ``target`` under heuristic ``code`` (unscaled)."""
    if code == H_ZERO:
        return 0.0
    dx = abs(points[u, 0] - target[0])
    dy = abs(points[u, 1] - target[1])
    dz = abs(points[u, 2] - target[2]) if points.shape[1] == 3 else 0.0
    if code == H_EUCLIDEAN:
        return np.sqrt(dx * dx + dy * dy + dz * dz)
    if code == H_MANHATTAN:
        return dx + dy + dz
    # min / max written out, as in navmesh._kernels.los (an internal kernel's min / max are
    # compiled once more for its options)
    if code == H_OCTILE:
        lo = dy if dy < dx else dx
        return (dy if dy > dx else dx) + _SQRT2_MINUS_1 * lo + dz
    hi = dz if dz > dy else dy
    return hi if hi > dx else dx


@njit(cache=True)
def best_first(
    indptr, indices, weights, points,
    starts, start_costs, goals, goal_costs, goal_point,
    hcode, hscale, limit, max_expansions,
    record, log_expanded, log_opened, log_parent, log_step,
):
    """A* (or Dijkstra with ``hcode == H_ZERO``) from several starts to several goals.

    Each start begins at its entry cost; reaching goal ``goals[j]`` costs ``goal_costs[j]`` more.
    The heuristic is ``hscale * metric(node, goal_point)``. With no goals the search settles every
    node with cost <= ``limit`` (a shortest-path tree). ``max_expansions <= 0`` means no budget.

    Returns (g, parent, origin, closed, best_goal, best_total, status, expansions,
    n_logged_expanded, n_logged_opened); ``closed`` marks the expanded nodes and ``best_total`` is
    the cost of the best path including the goal's exit cost.
    """
    n = indptr.shape[0] - 1
    # np.empty filled by hand in every kernel here: np.full / np.zeros each cost compiled numpy
    # helpers of their own (about 0.1-0.3 s of a cold compile per dtype)
    g = np.empty(n)
    parent = np.empty(n, np.int32)
    origin = np.empty(n, np.int32)
    closed = np.empty(n, np.bool_)
    for v in range(n):
        g[v] = np.inf
        parent[v] = -1
        origin[v] = -1
        closed[v] = False
    cap = indices.shape[0] + starts.shape[0] + 1
    keys = np.empty(cap)
    vals = np.empty(cap, np.int64)  # the heap's int64 values, as Polyanya's: one compiled heap for both
    size = 0
    n_exp = 0
    n_open = 0
    for i in range(starts.shape[0]):
        s = starts[i]
        if start_costs[i] < g[s]:
            g[s] = start_costs[i]
            origin[s] = s
            size = heap_push(keys, vals, size, g[s] + hscale * metric(points, s, goal_point, hcode), s)
            if record:
                log_opened[n_open] = s
                log_parent[n_open] = -1
                log_step[n_open] = -1
                n_open += 1
    n_goals = goals.shape[0]
    best_total = np.inf
    best_goal = -1
    expansions = 0
    status = EXHAUSTED
    while size > 0:
        f, u, size = heap_pop(keys, vals, size)
        if closed[u]:
            continue
        if f >= best_total or g[u] > limit:
            break
        closed[u] = True
        if record:
            log_expanded[n_exp] = u
            n_exp += 1
        expansions += 1
        if n_goals > 0:
            for j in range(n_goals):
                if goals[j] == u and g[u] + goal_costs[j] < best_total:
                    best_total = g[u] + goal_costs[j]
                    best_goal = u
            if best_total <= f:
                break
        if max_expansions > 0 and expansions >= max_expansions:
            status = BUDGET
            break
        gu = g[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if closed[v]:
                continue
            ng = gu + weights[e]
            if ng < g[v]:
                g[v] = ng
                parent[v] = u
                origin[v] = origin[u]
                size = heap_push(keys, vals, size, ng + hscale * metric(points, v, goal_point, hcode), v)
                if record:
                    log_opened[n_open] = v
                    log_parent[n_open] = u
                    log_step[n_open] = n_exp - 1
                    n_open += 1
    if best_goal >= 0:
        status = FOUND
    return g, parent, origin, closed, best_goal, best_total, status, expansions, n_exp, n_open


@njit(cache=True)
def hop_search(
    indptr, indices, start, goal, max_expansions, depth,
    record, log_expanded, log_opened, log_parent, log_step,
):
    """Breadth-first search (fewest arcs; ``depth`` False) or iterative depth-first search (a
    recursive DFS's order; ``depth`` True) from ``start``; stops when ``goal`` (>= 0) is expanded.
    One kernel for both (they take the same arguments): a second entry point cost a cold compile
    of its own.

    Breadth-first: a node is expanded when it is dequeued. Depth-first: a node counts as expanded
    when the search first steps onto it; with ``record``, each expansion also opens every
    neighbour not reached yet (the stack of a DFS that pushes all neighbours): the latest opening
    of a node is always from the node the search then steps from.

    Returns (hops, parent, queue, n_dequeued, status, expansions, n_logged_expanded,
    n_logged_opened). Breadth-first: ``hops`` is -1 for unreached nodes and ``queue[:n_dequeued]``
    are the expanded nodes. Depth-first: ``hops`` and ``queue`` are empty and ``n_dequeued`` is 0.
    """
    n = indptr.shape[0] - 1
    parent = np.empty(n, np.int32)
    for v in range(n):  # filled by hand: see best_first
        parent[v] = -1
    n_exp = 0
    n_open = 0
    if record:
        log_opened[0] = start
        log_parent[0] = -1
        log_step[0] = -1
        n_open = 1
    expansions = 0
    status = EXHAUSTED
    if depth:
        seen = np.empty(n, np.bool_)
        stack = np.empty(n, np.int32)
        for u in range(n):
            seen[u] = False
        cursor = np.empty(n, np.int64)
        v = start
        d = 0
        while True:
            seen[v] = True
            expansions += 1
            if record:
                log_expanded[n_exp] = v
                n_exp += 1
            if v == goal:
                status = FOUND
                break
            if max_expansions > 0 and expansions >= max_expansions:
                status = BUDGET
                break
            if record:
                for e in range(indptr[v], indptr[v + 1]):
                    if not seen[indices[e]]:
                        log_opened[n_open] = indices[e]
                        log_parent[n_open] = v
                        log_step[n_open] = n_exp - 1
                        n_open += 1
            stack[d] = v
            cursor[d] = indptr[v]
            d += 1
            v = -1
            while d > 0 and v < 0:
                u = stack[d - 1]
                e = cursor[d - 1]
                if e == indptr[u + 1]:
                    d -= 1
                    continue
                cursor[d - 1] = e + 1
                if not seen[indices[e]]:
                    v = indices[e]
                    parent[v] = u
            if v < 0:
                break
        return np.empty(0, np.int64), parent, stack[:0], 0, status, expansions, n_exp, n_open
    hops = np.empty(n, np.int64)
    queue = np.empty(n, np.int32)
    for v in range(n):
        hops[v] = -1
    head = 0
    tail = 1
    queue[0] = start
    hops[start] = 0
    while head < tail:
        u = queue[head]
        head += 1
        expansions += 1
        if record:
            log_expanded[n_exp] = u
            n_exp += 1
        if u == goal:
            status = FOUND
            break
        if max_expansions > 0 and expansions >= max_expansions:
            status = BUDGET
            break
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            if hops[v] < 0:
                hops[v] = hops[u] + 1
                parent[v] = u
                queue[tail] = v
                tail += 1
                if record:
                    log_opened[n_open] = v
                    log_parent[n_open] = u
                    log_step[n_open] = n_exp - 1
                    n_open += 1
    return hops, parent, queue, head, status, expansions, n_exp, n_open


@njit(cache=True)
def bellman_ford_kernel(indptr, indices, weights, start, record):
    """Bellman-Ford from ``start``.

    Returns (dist, parent, cycle, log, n_logged): ``cycle`` is empty unless a negative cycle is
    reachable, in which case it lists the cycle's nodes in order. With ``record``, ``log[0:2 *
    n_logged:2]`` lists every lowering of a node's distance in order and ``log[1:2 * n_logged:2]``
    the node it was lowered from (the log grows as needed; empty without ``record``). The caller
    takes the two strided views: in the kernel they cost a compiled strided-array type of their own.
    """
    n = indptr.shape[0] - 1
    dist = np.empty(n)
    parent = np.empty(n, np.int32)
    for u in range(n):  # filled by hand: see best_first
        dist[u] = np.inf
        parent[u] = -1
    # the logs interleaved in one array (node, parent, node, ...), grown element by element: a
    # slice assignment pulls in numba's shape-mismatch error formatting (string kernels) into
    # every cold compile
    log = np.empty(2 * n if record else 0, np.int32)
    n_log = 0
    dist[start] = 0.0
    last = -1
    for _ in range(n):
        last = -1
        for u in range(n):
            du = dist[u]
            if du == np.inf:
                continue
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if du + weights[e] < dist[v]:
                    dist[v] = du + weights[e]
                    parent[v] = u
                    last = v
                    if record:
                        if 2 * n_log == log.shape[0]:
                            grown = np.empty(max(32, 2 * log.shape[0]), np.int32)
                            for i in range(2 * n_log):
                                grown[i] = log[i]
                            log = grown
                        log[2 * n_log] = v
                        log[2 * n_log + 1] = u
                        n_log += 1
        if last < 0:
            break
    if last < 0:
        return dist, parent, np.empty(0, np.int32), log, n_log
    # A relaxation in the n-th pass: walking n parents back lands on the negative cycle, listed
    # in travel order (counted first: a typed list costs its own compile)
    x = last
    for _ in range(n):
        x = parent[x]
    count = 1
    y = parent[x]
    while y != x:
        count += 1
        y = parent[y]
    out = np.empty(count, np.int32)
    y = x
    for i in range(count - 1, -1, -1):
        out[i] = y
        y = parent[y]
    return dist, parent, out, log, n_log



@njit(cache=True)
def all_pairs_kernel(indptr, indices, weights, points):
    """Dijkstra from every node; returns (costs (n, n), next_hops (n, n))."""
    n = indptr.shape[0] - 1
    costs = np.empty((n, n))
    hops = np.empty((n, n), np.int32)
    for s in range(n):  # filled by hand: see best_first
        for v in range(n):
            hops[s, v] = -1
    src = np.empty(1, np.int32)
    zero = np.empty(1)
    zero[0] = 0.0
    no_goals = np.empty(0, np.int32)
    no_costs = np.empty(0)
    target = np.empty(points.shape[1])
    for d in range(points.shape[1]):
        target[d] = 0.0
    log_expanded = np.empty(n, np.int32)
    log_opened = np.empty(indices.shape[0] + 2, np.int32)
    log_parent = np.empty(indices.shape[0] + 2, np.int32)
    log_step = np.empty(indices.shape[0] + 2, np.int32)
    for s in range(n):
        src[0] = s
        g, parent, _, _, _, _, _, _, n_exp, _ = best_first(
            indptr, indices, weights, points, src, zero, no_goals, no_costs, target,
            H_ZERO, 0.0, np.inf, 0, True, log_expanded, log_opened, log_parent, log_step,
        )
        for v in range(n):  # element by element: see bellman_ford_kernel's logs
            costs[s, v] = g[v]
        hops[s, s] = s
        # Settled order guarantees a node's parent already has its first hop.
        for i in range(1, n_exp):
            v = log_expanded[i]
            p = parent[v]
            hops[s, v] = v if p == s else hops[s, p]
    return costs, hops


plain_arguments(globals())
