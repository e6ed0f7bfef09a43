"""numba kernels for Jump Point Search on grid maps (8-connected, no corner cutting, uniform cost).

JPS (Harabor and Grastien) works on a copy of the passable flags padded with a blocked border
("free", shape (height + 2) * (width + 2) flattened), so scans never need a bounds check. ``pw``
is the padded width; a padded id is (row + 1) * pw + (col + 1). The search state is the
workspace layout of :mod:`navmesh._kernels.grid`, sized for the padded grid, and the open list
is A*'s. Every scan is one lookup in the map's JPS+ jump table (:mod:`navmesh._kernels.jumps`),
which gives exactly the successors of scanning cell by cell: plain JPS and JPS+ are this one kernel
over the table (a separate scanning mode was a second compiled kernel for the same paths).
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels import grid_heap as H
from navmesh._kernels.grid import DCOL, DROW, HEAP_RESERVE, cell_centers, compact, nearest_expanded, octile
from navmesh._kernels.jumps import DIRECTION
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

_FAST = HEAP_RESERVE  # capacity of the stack of jump points expanded without touching the heap
_NO_BUDGET = 1 << 62


@njit(cache=True)
def jps(free, table, pheight, pw, width, start, goal, cost_unit, max_expansions, g, stamp, gen, parent, heap, geo):
    """Jump Point Search on padded flags (``start``/``goal`` are padded ids).

    ``table`` is the JPS+ jump table of ``free`` (:mod:`navmesh._kernels.jumps`).

    Optimal for 8-connected, uniform-cost grids where a diagonal step needs both side cells free.
    ``cost_unit`` is the cost of one straight step; the workspace (``g``, ``stamp``, ``gen``,
    ``parent``, ``heap``, see :mod:`navmesh._kernels.grid`) holds jump points only.
    ``max_expansions`` = 0 means no budget. The loop is A*'s
    (:func:`navmesh._kernels.grid.astar`, equal-key successors expanded without a heap round
    trip): the octile heuristic stays consistent across jumps.

    Returns (status, nodes, points, cost, expansions): ``nodes`` every cell (unpadded ids) along
    the straight runs between the jump points up to the goal (or, when not found, the expanded
    jump point nearest the goal), ``points`` their centres.
    """
    seen = np.int32(2 * gen)
    closed = np.int32(2 * gen + 1)
    cap = len(heap) // 2
    limit = max_expansions if max_expansions > 0 else _NO_BUDGET
    gr = goal // pw
    gc = goal - gr * pw
    g[start] = 0.0
    stamp[start] = seen
    parent[start] = -1
    size = 0
    stack = np.empty(_FAST, np.int64)
    stack[0] = start
    sp = 1
    fu = 0.0
    expansions = 0
    dx = np.empty(8, np.int64)
    dy = np.empty(8, np.int64)
    status = EXHAUSTED
    while True:
        if sp > 0:
            sp -= 1
            u = stack[sp]
        elif size > 0:
            fu, u, size = H.pop(heap, size)
        else:
            break
        if stamp[u] == closed:
            continue
        if u == goal:
            status = FOUND
            break
        if expansions == limit:
            status = BUDGET
            break
        stamp[u] = closed
        expansions += 1
        gu = g[u]
        ur = u // pw
        uc = u - ur * pw
        # the pruned directions to scan (all eight from the start), natural before forced: their
        # order decides among equally short paths
        p = parent[u]
        if p < 0:
            for d in range(8):
                dx[d] = DCOL[d]
                dy[d] = DROW[d]
            n_dir = 8
        else:
            pr = p // pw
            sx = min(max(uc - (p - pr * pw), -1), 1)  # signs of the step from the parent
            sy = min(max(ur - pr, -1), 1)
            dx[0] = sx
            dy[0] = sy
            n_dir = 1
            if sx != 0 and sy != 0:  # diagonal: its two components, then itself
                dx[0] = sx
                dy[0] = 0
                dx[1] = 0
                dy[1] = sy
                dx[2] = sx
                dy[2] = sy
                n_dir = 3
            else:  # straight: ahead, then per side with a forced neighbour the side and its diagonal
                side = pw if sy == 0 else 1
                step = sx + sy * pw
                for s in (-1, 1):
                    so = s * side
                    if free[u + so] and not free[u + so - step]:
                        dx[n_dir] = s if sy != 0 else 0
                        dy[n_dir] = s if sy == 0 else 0
                        dx[n_dir + 1] = sx if sx != 0 else s
                        dy[n_dir + 1] = sy if sy != 0 else s
                        n_dir += 2
        for k in range(n_dir):
            sx = dx[k]
            sy = dy[k]
            if sx != 0 and sy != 0 and not (free[u + sx] and free[u + sy * pw] and free[u + sx + sy * pw]):
                continue  # a diagonal step is legal only with both side cells free
            # the jump from the cell one step away (written out here, its one use, rather than
            # as helpers compiled on their own): the table's stop, or the goal where it cuts the run
            vr = ur + sy
            vc = uc + sx
            v = vr * pw + vc
            step = sx + sy * pw
            x = table[v, DIRECTION[3 * sy + sx + 4]]
            if sx != 0 and sy != 0:
                last = x if x >= 0 else -x - 1  # steps the diagonal run may take
                best = x if x >= 0 else -1
                # where the run crosses the goal's row: the goal on the diagonal, or ahead of it
                # along sx within the horizontal run from the cell beside
                i = (gr - vr) * sy
                if 0 <= i <= last and (best < 0 or i < best):
                    gap = (gc - (vc + i * sx)) * sx
                    if gap == 0:
                        best = i
                    elif gap > 0:
                        a = v + i * step + sx
                        if free[a]:
                            y = table[a, DIRECTION[4 + sx]]
                            if y >= 0 or gap - 1 < -y:
                                best = i
                # where it crosses the goal's column: the goal ahead along sy
                i = (gc - vc) * sx
                if 0 <= i <= last and (best < 0 or i < best):
                    gap = (gr - (vr + i * sy)) * sy
                    if gap > 0:
                        a = v + i * step + sy * pw
                        if free[a]:
                            y = table[a, DIRECTION[3 * sy + 4]]
                            if y >= 0 or gap - 1 < -y:
                                best = i
                v = v + best * step if best >= 0 else -1
            elif free[v] == 0:
                v = -1
            else:
                if sy == 0:
                    on = gr == vr
                    gap = (gc - vc) * sx
                else:
                    on = gc == vc
                    gap = (gr - vr) * sy
                if on and gap >= 0 and (gap <= x or gap < -x):
                    v = goal
                elif x >= 0:
                    v = v + x * step
                else:
                    v = -1
            if v < 0:
                continue
            sv = stamp[v]
            if sv == closed:
                continue
            vr = v // pw
            vc = v - vr * pw
            ng = gu + cost_unit * octile(abs(vr - ur), abs(vc - uc))
            if sv == seen and ng >= g[v]:
                continue
            g[v] = ng
            stamp[v] = seen
            parent[v] = u
            key = ng + cost_unit * octile(abs(vr - gr), abs(vc - gc))
            if key <= fu and sp < _FAST:
                stack[sp] = v
                sp += 1
            else:
                if size == cap:
                    size = compact(heap, size, g, stamp, closed, pheight, pw, False, False, goal, cost_unit, 0.0)
                size = H.push(heap, size, key, v)
    end = goal if status == FOUND else nearest_expanded(g, stamp, closed, pheight, pw, False, False, goal)
    nodes = unpad_jump_path(parent, end, pw, width)
    return status, nodes, cell_centers(nodes, pheight - 2, width, geo), g[end], expansions


@njit(cache=True)
def unpad_jump_path(parent, end, pw, width):
    """Cells (unpadded ids) along the straight runs between the jump points, from the root of the
    ``parent`` links to ``end``."""
    total = 1
    b = end
    while parent[b] >= 0:
        a = parent[b]
        total += max(abs(b // pw - a // pw), abs(b % pw - a % pw))
        b = a
    out = np.empty(total, np.int32)
    k = total - 1
    b = end
    r = b // pw
    c = b - r * pw
    out[k] = (r - 1) * width + (c - 1)
    while parent[b] >= 0:  # back along each run, from its far end to its jump point
        a = parent[b]
        ar = a // pw
        ac = a - ar * pw
        sr = min(max(ar - r, -1), 1)
        sc = min(max(ac - c, -1), 1)
        while r != ar or c != ac:
            r += sr
            c += sc
            k -= 1
            out[k] = (r - 1) * width + (c - 1)
        b = a
    return out


plain_arguments(globals())
