"""numba kernels for Jump Point Search on grid maps (8-connected, no corner cutting, uniform cost).

JPS (Harabor and Grastien) works on a copy of the passable flags padded with a blocked border
("free", shape (height + 2) * (width + 2) flattened), so scans never need a bounds check. ``pw``
is the padded width; a padded id is (row + 1) * pw + (col + 1). The search state is the
workspace layout of :mod:`navmesh._kernels.grid`, sized for the padded grid. With a JPS+ jump
table (:mod:`navmesh._kernels.jumps`) each scan is one table lookup; without one the scans walk
the cells. Both give the same successors, so the same paths.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels import grid_heap as H
from navmesh._kernels.grid import DCOL, DROW, HEAP_RESERVE, cell_centers, compact, nearest_expanded, octile
from navmesh._kernels.heap import trace_back
from navmesh._kernels.jumps import jump_diagonal, jump_straight
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

_FAST = HEAP_RESERVE  # capacity of the stack of jump points expanded without touching the heap
_NO_BUDGET = 1 << 62


@njit(cache=True)
def _sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@njit(cache=True)
def _jump_straight(free, pw, v, step, side, goal):
    """Scan from cell ``v`` along ``step`` (+-1 or +-pw); return the first jump point or -1.

    ``side`` is the offset to the perpendicular neighbours (pw for horizontal scans, 1 for
    vertical ones). A cell is a jump point when it is the goal or has a forced neighbour: a free
    side cell whose counterpart behind it (side - step) is blocked.
    """
    while True:
        if free[v] == 0:
            return -1
        if v == goal:
            return v
        if (free[v + side] and not free[v + side - step]) or (free[v - side] and not free[v - side - step]):
            return v
        v += step


@njit(cache=True)
def _jump_diagonal(free, pw, v, sx, sy, goal):
    """Scan diagonally from cell ``v`` (entered legally) by (sx, sy); return a jump point or -1."""
    sy_off = sy * pw
    while True:
        if v == goal:
            return v
        if _jump_straight(free, pw, v + sx, sx, pw, goal) >= 0:
            return v
        if _jump_straight(free, pw, v + sy_off, sy_off, 1, goal) >= 0:
            return v
        if free[v + sx] and free[v + sy_off] and free[v + sx + sy_off]:
            v += sx + sy_off
        else:
            return -1


@njit(cache=True)
def _straight(free, table, pw, ur, uc, sx, sy, goal, gr, gc):
    """Straight jump by unit step (sx, sy) from the cell one such step from (ur, uc): through
    ``table`` when it has entries."""
    v = (ur + sy) * pw + uc + sx
    if table.shape[0] > 0:
        return jump_straight(free, table, pw, v, ur + sy, uc + sx, sx, sy, goal, gr, gc)
    return _jump_straight(free, pw, v, sx + sy * pw, pw if sy == 0 else 1, goal)


@njit(cache=True)
def _diagonal(free, table, pw, ur, uc, sx, sy, goal, gr, gc):
    """Diagonal jump by (sx, sy) from the cell one such step from (ur, uc) (entered legally):
    through ``table`` when it has entries."""
    v = (ur + sy) * pw + uc + sx
    if table.shape[0] > 0:
        return jump_diagonal(free, table, pw, v, ur + sy, uc + sx, sx, sy, goal, gr, gc)
    return _jump_diagonal(free, pw, v, sx, sy, goal)


@njit(cache=True)
def jps(free, table, pheight, pw, start, goal, cost_unit, max_expansions, state, gen, parent, heap):
    """Jump Point Search on padded flags; ids are padded ids. Returns (status, end, expansions).

    ``table`` is the JPS+ jump table of ``free`` (:mod:`navmesh._kernels.jumps`), or an array
    of shape (0, 8) to scan cell by cell; both give the same successors.

    Optimal for 8-connected, uniform-cost grids where a diagonal step needs both side cells free.
    ``cost_unit`` is the cost of one straight step; ``state``/``parent`` hold jump points only.
    ``max_expansions`` = 0 means no budget. As in :func:`navmesh._kernels.grid.astar`, a
    successor whose key does not exceed the key just taken is expanded next without a heap round
    trip (the octile heuristic stays consistent across jumps).
    """
    seen = 2.0 * gen
    closed = seen + 1.0
    cap = len(heap) // 2
    limit = max_expansions if max_expansions > 0 else _NO_BUDGET
    gr = goal // pw
    gc = goal - gr * pw
    state[2 * start] = 0.0
    state[2 * start + 1] = seen
    parent[start] = -1
    size = 0
    stack = np.empty(_FAST, np.int64)
    stack[0] = start
    sp = 1
    fu = 0.0
    expansions = 0
    status = EXHAUSTED
    succ = np.empty(8, np.int64)
    while True:
        if sp > 0:
            sp -= 1
            u = stack[sp]
        elif size > 0:
            fu, u, size = H.pop(heap, size)
        else:
            break
        if state[2 * u + 1] == closed:
            continue
        if u == goal:
            status = FOUND
            break
        if expansions == limit:
            status = BUDGET
            break
        state[2 * u + 1] = closed
        expansions += 1
        gu = state[2 * u]
        ur = u // pw
        uc = u - ur * pw
        n_succ = 0
        p = parent[u]
        if p < 0:
            for d in range(8):
                sx = DCOL[d]
                sy = DROW[d]
                if d < 4:
                    j = _straight(free, table, pw, ur, uc, sx, sy, goal, gr, gc)
                elif free[u + sx] and free[u + sy * pw] and free[u + sx + sy * pw]:
                    j = _diagonal(free, table, pw, ur, uc, sx, sy, goal, gr, gc)
                else:
                    j = -1
                if j >= 0:
                    succ[n_succ] = j
                    n_succ += 1
        else:
            pr = p // pw
            pc = p - pr * pw
            sx = _sign(uc - pc)
            sy = _sign(ur - pr)
            if sx != 0 and sy != 0:
                fx = free[u + sx]
                fy = free[u + sy * pw]
                if fx:
                    j = _straight(free, table, pw, ur, uc, sx, 0, goal, gr, gc)
                    if j >= 0:
                        succ[n_succ] = j
                        n_succ += 1
                if fy:
                    j = _straight(free, table, pw, ur, uc, 0, sy, goal, gr, gc)
                    if j >= 0:
                        succ[n_succ] = j
                        n_succ += 1
                if fx and fy and free[u + sx + sy * pw]:
                    j = _diagonal(free, table, pw, ur, uc, sx, sy, goal, gr, gc)
                    if j >= 0:
                        succ[n_succ] = j
                        n_succ += 1
            else:
                step = sx + sy * pw
                side = pw if sy == 0 else 1
                ahead = free[u + step]
                if ahead:
                    j = _straight(free, table, pw, ur, uc, sx, sy, goal, gr, gc)
                    if j >= 0:
                        succ[n_succ] = j
                        n_succ += 1
                for s in (-1, 1):
                    so = s * side
                    if free[u + so] and not free[u + so - step]:
                        j = _straight(free, table, pw, ur, uc, s if sy != 0 else 0, s if sy == 0 else 0, goal, gr, gc)
                        if j >= 0:
                            succ[n_succ] = j
                            n_succ += 1
                        if ahead and free[u + step + so]:
                            if sy == 0:
                                j = _diagonal(free, table, pw, ur, uc, sx, s, goal, gr, gc)
                            else:
                                j = _diagonal(free, table, pw, ur, uc, s, sy, goal, gr, gc)
                            if j >= 0:
                                succ[n_succ] = j
                                n_succ += 1
        for k in range(n_succ):
            v = succ[k]
            sv = state[2 * v + 1]
            if sv == closed:
                continue
            vr = v // pw
            vc = v - vr * pw
            ng = gu + cost_unit * octile(abs(vr - ur), abs(vc - uc))
            if sv == seen and ng >= state[2 * v]:
                continue
            state[2 * v] = ng
            state[2 * v + 1] = seen
            parent[v] = u
            key = ng + cost_unit * octile(abs(vr - gr), abs(vc - gc))
            if key <= fu and sp < _FAST:
                stack[sp] = v
                sp += 1
            else:
                if size == cap:
                    size = compact(heap, size, state, closed, pheight, pw, False, False, goal, cost_unit)
                size = H.push(heap, size, key, v)
    if status == FOUND:
        return status, goal, expansions
    return status, nearest_expanded(state, closed, pheight, pw, False, False, goal), expansions


@njit(cache=True)
def unpad_jump_path(parent, end, pw, width):
    """Cells (unpadded ids) along the straight segments between the jump points ending at ``end``."""
    jumps = trace_back(parent, end)
    total = 1
    for i in range(1, len(jumps)):
        a = jumps[i - 1]
        b = jumps[i]
        total += max(abs(b // pw - a // pw), abs(b % pw - a % pw))
    out = np.empty(total, np.int32)
    r = jumps[0] // pw
    c = jumps[0] - r * pw
    out[0] = (r - 1) * width + (c - 1)
    k = 1
    for i in range(1, len(jumps)):
        br = jumps[i] // pw
        bc = jumps[i] - br * pw
        sr = _sign(br - r)
        sc = _sign(bc - c)
        while r != br or c != bc:
            r += sr
            c += sc
            out[k] = (r - 1) * width + (c - 1)
            k += 1
    return out


@njit(cache=True)
def jps_path(free, table, pheight, pw, width, start, goal, cost_unit, max_expansions, state, gen, parent, heap,
             geo):
    """:func:`jps` plus the full cell chain (unpadded ids) and its centres.

    Returns (status, nodes, points, cost, expansions).
    """
    status, end, expansions = jps(free, table, pheight, pw, start, goal, cost_unit, max_expansions,
                                  state, gen, parent, heap)
    nodes = unpad_jump_path(parent, end, pw, width)
    return status, nodes, cell_centers(nodes, pheight - 2, width, geo), state[2 * end], expansions


plain_arguments(globals())
