"""numba kernels for shared first-step work: one backward search per target answers many chasers.

On maps where every step costs the same and steps are symmetric (4-connected mazes: the move
bits allow u -> v exactly when they allow v -> u), a breadth-first search outward from a target
gives every cell its step count to the target. The forward first-step search of
:mod:`navmesh._kernels.grid` tries directions in the order up, right, down, left, and the cell it
returns is the first step of the fewest-steps path whose direction codes come first in
dictionary order; that step is the lowest direction code whose neighbour is one step closer to
the target. So a chaser's answer is read off the target's step counts, identical to the forward
search, and every query sharing the target costs one table lookup.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from navmesh._kernels.grid import neighbor as _neighbor, offsets as _offsets
from navmesh._kernels.grid_maze import bfs_first as _bfs_first
from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True, internal=True)
def _bfs_steps(moves, height, width, wrap, off, target, dist, queue):
    """Fill ``dist`` (int32, -1 = unreached, must be all -1) with step counts to ``target``."""
    dist[target] = 0
    queue[0] = target
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u] + 1
        m = moves[u]
        r = u // width if wrap else 0
        for d in range(4):
            if (m >> d) & 1:
                v = _neighbor(r, u - r * width, d, height, width) if wrap else u + off[d]
                if dist[v] < 0:
                    dist[v] = du
                    queue[tail] = v
                    tail += 1


@njit(cache=True, internal=True)
def _step_from(moves, height, width, wrap, off, dist, u):
    """First step from ``u`` (lowest direction code one step closer); ``u`` at the target, -1 if cut off."""
    du = dist[u]
    if du <= 0:
        return u if du == 0 else -1
    m = moves[u]
    r = u // width if wrap else 0
    for d in range(4):
        if (m >> d) & 1:
            v = _neighbor(r, u - r * width, d, height, width) if wrap else u + off[d]
            if dist[v] == du - 1:
                return v
    return -1


@njit(cache=True)
def first_step_field(moves, height, width, wrap, target):
    """First step toward ``target`` from every cell (int32; the target itself; -1 where cut off)."""
    n = height * width
    off = _offsets(width)
    dist = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int32)
    _bfs_steps(moves, height, width, wrap, off, target, dist, queue)
    out = np.empty(n, np.int32)
    for u in range(n):
        out[u] = _step_from(moves, height, width, wrap, off, dist, u)
    return out


@njit(cache=True)
def group_by_goal(goals, n_cells):
    """Queries grouped by goal (a counting sort): (order, bounds, group_goals).

    ``order`` lists query indices goal by goal, group ``k`` is ``order[bounds[k]:bounds[k + 1]]``
    and asks for ``group_goals[k]``; groups come in increasing goal id.
    """
    count = np.zeros(n_cells + 1, np.int64)
    for i in range(len(goals)):
        count[goals[i] + 1] += 1
    n_groups = 0
    for c in range(n_cells):
        if count[c + 1] > 0:
            n_groups += 1
        count[c + 1] += count[c]
    bounds = np.empty(n_groups + 1, np.int64)
    group_goals = np.empty(n_groups, np.int64)
    k = 0
    for c in range(n_cells):
        if count[c + 1] > count[c]:
            bounds[k] = count[c]
            group_goals[k] = c
            k += 1
    bounds[n_groups] = len(goals)
    order = np.empty(len(goals), np.int64)
    for i in range(len(goals)):
        g = goals[i]
        order[count[g]] = i
        count[g] += 1
    return order, bounds, group_goals


@njit(cache=True)
def _answer_groups(moves, height, width, wrap, starts, order, bounds, group_goals, group_field, fields, out,
                   lo, hi):
    n = height * width
    off = _offsets(width)
    dist = np.empty(n, np.int32)
    queue = np.empty(n, np.int32)
    qf = np.empty(n, np.int32)
    seen = np.full(n, -1, np.int32)
    for grp in range(lo, hi):
        a = bounds[grp]
        b = bounds[grp + 1]
        t = group_goals[grp]
        f = group_field[grp]
        if f >= 0:
            for k in range(a, b):
                i = order[k]
                out[i] = fields[f, starts[i]]
        elif b - a == 1:
            i = order[a]
            out[i] = _bfs_first(moves, height, width, wrap, off, False, starts[i], t, seen, grp + 1, queue, qf)
        else:
            dist[:] = -1
            _bfs_steps(moves, height, width, wrap, off, t, dist, queue)
            for k in range(a, b):
                i = order[k]
                out[i] = _step_from(moves, height, width, wrap, off, dist, starts[i])


@njit(cache=True)
def first_steps_grouped(moves, height, width, wrap, starts, order, bounds, group_goals, group_field, fields, out):
    """First steps of many queries grouped by goal (see :func:`group_by_goal`) into ``out``.

    Group ``k`` is answered by lookups in ``fields[group_field[k]]`` when that is >= 0 (a cached
    first-step field); else a goal asked once gets the forward search (it stops early) and a goal
    asked more often one backward search, after which every query of the group is a lookup.
    """
    _answer_groups(moves, height, width, wrap, starts, order, bounds, group_goals, group_field, fields, out,
                   0, len(bounds) - 1)


@njit(cache=True, parallel=True)
def first_steps_grouped_parallel(moves, height, width, wrap, starts, order, bounds, group_goals, group_field,
                                 fields, out):
    """:func:`first_steps_grouped` with the groups split over the threads (for large batches)."""
    n_groups = len(bounds) - 1
    n_chunks = min(n_groups, 64)
    for ch in prange(n_chunks):
        _answer_groups(moves, height, width, wrap, starts, order, bounds, group_goals, group_field, fields, out,
                       ch * n_groups // n_chunks, (ch + 1) * n_groups // n_chunks)


plain_arguments(globals())
