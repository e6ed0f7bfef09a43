"""numba kernels for grid maps: A*/Dijkstra, Jump Point Search, maze BFS first steps, flow fields.

The grid is never turned into an explicit graph. Every kernel reads two flat arrays made once per
:class:`navmesh.grid.GridMap`:

- ``moves`` (uint8, one per cell): bit ``d`` is set when the step in direction ``d`` is allowed
  from that cell. Walls, the diagonal rule, region (water) borders and map edges or wrap-around are
  all folded into these bits, so the kernels never check them again.
- ``half_cost`` (float64, one per cell): half the cell's cost multiplier times the cell size. A
  step in direction ``d`` from ``u`` to ``v`` costs ``STEP_LEN[d] * (half_cost[u] + half_cost[v])``
  (its length times the mean of the two multipliers), which is the same in both directions.

Directions, in the order tried (so equally short paths are decided by it): 0 up (row - 1),
1 right (col + 1), 2 down (row + 1), 3 left (col - 1), then the diagonals 4 up-right,
5 down-right, 6 down-left, 7 up-left. Cell ids are ``row * width + col``.

Kernels trust their inputs: the public functions validate them. Search state lives in arrays owned
by one call: either allocated in the kernel, or a workspace the caller lends for the duration of
the call (``stamp``, ``g``, ``parent`` per cell and a heap with a slot per cell), stamped with a
fresh generation number so it needs no clearing and costs nothing per call on big maps. The open
list is the shared min-heap (:mod:`navmesh._kernels.heap`) of (key, cell) with lazy deletion (superseded entries are skipped when
popped, and squeezed out if the heap ever fills). The kernels release the GIL. All of them also
run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from navmesh._kernels.heap import heap_pop, heap_push, heapify, trace_back
from navmesh._kernels.jumps import jump_diagonal, jump_straight
from navmesh._kernels.signatures import plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

SQRT2 = 1.4142135623730951
_SQRT2_MINUS_1 = 0.41421356237309515

DROW = np.array([-1, 0, 1, 0, -1, 1, 1, -1], dtype=np.int64)
DCOL = np.array([0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)
STEP_LEN = np.array([1.0, 1.0, 1.0, 1.0, SQRT2, SQRT2, SQRT2, SQRT2], dtype=np.float64)


# --------------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------------
@njit(cache=True)
def _neighbor(r, c, d, height, width):
    """Flat id of the cell one step from (r, c) in direction d, wrapping at the borders.

    Wrapping only ever happens when the move bits allow a step across a border, that is on maps
    with wrap-around; elsewhere the bits keep every step inside the grid.
    """
    nr = r + DROW[d]
    nc = c + DCOL[d]
    if nr < 0:
        nr += height
    elif nr >= height:
        nr -= height
    if nc < 0:
        nc += width
    elif nc >= width:
        nc -= width
    return nr * width + nc


@njit(cache=True)
def _offsets(width):
    """Flat-id offset of each direction on a grid ``width`` columns wide (no wrap-around)."""
    off = np.empty(8, np.int64)
    for d in range(8):
        off[d] = DROW[d] * width + DCOL[d]
    return off


@njit(cache=True)
def _axis_gap(a, b, size, wrap):
    """|a - b| along one axis, taking the shorter way round when that axis wraps."""
    d = abs(a - b)
    if wrap and size - d < d:
        d = size - d
    return d


@njit(cache=True)
def _sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@njit(cache=True)
def _octile(dr, dc):
    if dr > dc:
        return dr + _SQRT2_MINUS_1 * dc
    return dc + _SQRT2_MINUS_1 * dr


@njit(cache=True)
def _compact(hk, hn, size, stamp, closed, g, height, width, wrap_r, wrap_c, goal, hscale):
    """Drop stale heap entries (expanded nodes, superseded keys) and re-heapify; return the size.

    The heap holds one slot per cell; lazy deletion can fill it with stale entries, but at most
    one entry per open cell is live, so after this there is always room.
    """
    gr = goal // width
    gc = goal - gr * width
    k = 0
    for i in range(size):
        v = hn[i]
        if stamp[v] == closed:
            continue
        vr = v // width
        vc = v - vr * width
        key = g[v] + hscale * _octile(_axis_gap(vr, gr, height, wrap_r), _axis_gap(vc, gc, width, wrap_c))
        if hk[i] != key:
            continue
        hk[k] = hk[i]
        hn[k] = v
        k += 1
    heapify(hk, hn, k)
    return k


@njit(cache=True)
def cell_centers(nodes, height, width, geo):
    """World centres (n, 2) of cells; ``geo`` = (origin_x, origin_y, cell_size), y up, row 0 on top."""
    out = np.empty((len(nodes), 2), np.float64)
    x0 = geo[0]
    y0 = geo[1]
    size = geo[2]
    for i in range(len(nodes)):
        r = nodes[i] // width
        c = nodes[i] - r * width
        out[i, 0] = x0 + (c + 0.5) * size
        out[i, 1] = y0 + (height - r - 0.5) * size
    return out


@njit(cache=True)
def nearest_expanded(stamp, closed, g, height, width, wrap_r, wrap_c, goal):
    """The expanded cell nearest ``goal`` in straight-line distance (ties: lower g)."""
    gr = goal // width
    gc = goal - gr * width
    best = -1
    best_d2 = 0
    for v in range(len(stamp)):
        if stamp[v] != closed:
            continue
        vr = v // width
        vc = v - vr * width
        dr = _axis_gap(vr, gr, height, wrap_r)
        dc = _axis_gap(vc, gc, width, wrap_c)
        d2 = dr * dr + dc * dc
        if best < 0 or d2 < best_d2 or (d2 == best_d2 and g[v] < g[best]):
            best = v
            best_d2 = d2
    return best


# --------------------------------------------------------------------------------------------
# A* / Dijkstra
# --------------------------------------------------------------------------------------------
_FAST = 64  # capacity of the stack of cells expanded without touching the heap


@njit(cache=True, nogil=True)
def astar(moves, half_cost, height, width, wrap_r, wrap_c, uniform, start, goal, hscale,
          max_expansions, stamp, gen, g, parent, hk, hn):
    """Best-first search from ``start`` to ``goal`` with the octile heuristic times ``hscale``.

    ``hscale`` = 0 gives Dijkstra. ``stamp``/``g``/``parent`` (one per cell) and ``hk``/``hn``
    (heap, at least one slot per cell) are a workspace: a cell's ``g`` and ``parent`` are valid
    when ``stamp == 2 * gen`` (reached) or ``2 * gen + 1`` (expanded). ``uniform`` says every
    passable cell has the same cost (skips reading neighbours' costs). ``max_expansions`` < 0
    means no budget.

    A successor whose key does not exceed the key just taken off the heap is a legal next
    expansion (keys never decrease along a path under a consistent heuristic), so it goes on a
    small stack and is expanded without a heap round trip. Stale heap entries are skipped when
    popped (lazy deletion).

    Returns (status, end, expansions): ``end`` is the goal when found, else the expanded cell
    nearest the goal in straight-line distance (for partial paths).
    """
    seen = 2 * gen
    closed = seen + 1
    cap = len(hk)
    gr = goal // width
    gc = goal - gr * width
    sr = start // width
    sc = start - sr * width
    stamp[start] = seen
    g[start] = 0.0
    parent[start] = -1
    stack = np.empty(_FAST, np.int32)
    stack[0] = start
    sp = 1
    size = 0
    fu = hscale * _octile(_axis_gap(sr, gr, height, wrap_r), _axis_gap(sc, gc, width, wrap_c))
    step_cost = np.empty(8, np.float64)
    for d in range(8):
        step_cost[d] = STEP_LEN[d] * 2.0 * half_cost[start]
    off = _offsets(width)
    wrap = wrap_r or wrap_c
    expansions = 0
    status = EXHAUSTED
    while True:
        if sp > 0:
            sp -= 1
            u = stack[sp]
        elif size > 0:
            fu, u, size = heap_pop(hk, hn, size)
        else:
            break
        if stamp[u] == closed:
            continue
        if u == goal:
            status = FOUND
            break
        if expansions == max_expansions:
            status = BUDGET
            break
        stamp[u] = closed
        expansions += 1
        gu = g[u]
        r = u // width
        c = u - r * width
        m = moves[u]
        hu = half_cost[u]
        for d in range(8):
            if (m >> d) & 1 == 0:
                continue
            nr = r + DROW[d]
            nc = c + DCOL[d]
            if wrap:
                if nr < 0:
                    nr += height
                elif nr >= height:
                    nr -= height
                if nc < 0:
                    nc += width
                elif nc >= width:
                    nc -= width
                v = nr * width + nc
            else:
                v = u + off[d]
            sv = stamp[v]
            if sv == closed:
                continue
            if uniform:
                ng = gu + step_cost[d]
            else:
                ng = gu + STEP_LEN[d] * (hu + half_cost[v])
            if sv == seen and ng >= g[v]:
                continue
            stamp[v] = seen
            g[v] = ng
            parent[v] = u
            if wrap:
                h = _octile(_axis_gap(nr, gr, height, wrap_r), _axis_gap(nc, gc, width, wrap_c))
            else:
                h = _octile(abs(nr - gr), abs(nc - gc))
            key = ng + hscale * h
            if key <= fu and sp < _FAST:
                stack[sp] = v
                sp += 1
            else:
                if size == cap:
                    size = _compact(hk, hn, size, stamp, closed, g, height, width, wrap_r, wrap_c, goal, hscale)
                size = heap_push(hk, hn, size, key, v)
    if status == FOUND:
        return status, goal, expansions
    return status, nearest_expanded(stamp, closed, g, height, width, wrap_r, wrap_c, goal), expansions


@njit(cache=True, nogil=True)
def astar_path(moves, half_cost, height, width, wrap_r, wrap_c, uniform, start, goal, hscale,
               max_expansions, stamp, gen, g, parent, hk, hn, geo):
    """:func:`astar` plus the traced cells, their centres (see :func:`cell_centers`) and the cost.

    Returns (status, nodes, points, cost, expansions).
    """
    status, end, expansions = astar(moves, half_cost, height, width, wrap_r, wrap_c, uniform, start,
                                    goal, hscale, max_expansions, stamp, gen, g, parent, hk, hn)
    nodes = trace_back(parent, end)
    return status, nodes, cell_centers(nodes, height, width, geo), g[end], expansions


# --------------------------------------------------------------------------------------------
# Jump Point Search (8-connected, no corner cutting, uniform cost)
# --------------------------------------------------------------------------------------------
# JPS works on a copy of the passable flags padded with a blocked border ("free", shape
# (height + 2) * (width + 2) flattened), so scans never need a bounds check. ``pw`` is the padded
# width; a padded id is (row + 1) * pw + (col + 1).

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


@njit(cache=True, nogil=True)
def jps(free, table, pheight, pw, start, goal, cost_unit, max_expansions, stamp, gen, g, parent, hk, hn):
    """Jump Point Search on padded flags; ids are padded ids. Returns (status, end, expansions).

    ``table`` is the JPS+ jump table of ``free`` (:mod:`navmesh._kernels.jumps`), or an array
    of shape (0, 8) to scan cell by cell; both give the same successors.

    Optimal for 8-connected, uniform-cost grids where a diagonal step needs both side cells free.
    ``cost_unit`` is the cost of one straight step; ``g``/``parent`` hold jump points only. The
    workspace arrays are as for :func:`astar`, sized for the padded grid. As in :func:`astar`, a
    successor whose key does not exceed the key just taken is expanded next without a heap round
    trip (the octile heuristic stays consistent across jumps).
    """
    seen = 2 * gen
    closed = seen + 1
    cap = len(hk)
    gr = goal // pw
    gc = goal - gr * pw
    stamp[start] = seen
    g[start] = 0.0
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
            fu, u, size = heap_pop(hk, hn, size)
        else:
            break
        if stamp[u] == closed:
            continue
        if u == goal:
            status = FOUND
            break
        if expansions == max_expansions:
            status = BUDGET
            break
        stamp[u] = closed
        expansions += 1
        gu = g[u]
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
            sv = stamp[v]
            if sv == closed:
                continue
            vr = v // pw
            vc = v - vr * pw
            ng = gu + cost_unit * _octile(abs(vr - ur), abs(vc - uc))
            if sv == seen and ng >= g[v]:
                continue
            stamp[v] = seen
            g[v] = ng
            parent[v] = u
            key = ng + cost_unit * _octile(abs(vr - gr), abs(vc - gc))
            if key <= fu and sp < _FAST:
                stack[sp] = v
                sp += 1
            else:
                if size == cap:
                    size = _compact(hk, hn, size, stamp, closed, g, pheight, pw, False, False, goal, cost_unit)
                size = heap_push(hk, hn, size, key, v)
    if status == FOUND:
        return status, goal, expansions
    return status, nearest_expanded(stamp, closed, g, pheight, pw, False, False, goal), expansions


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


@njit(cache=True, nogil=True)
def jps_path(free, table, pheight, pw, width, start, goal, cost_unit, max_expansions, stamp, gen, g, parent,
             hk, hn, geo):
    """:func:`jps` plus the full cell chain (unpadded ids) and its centres.

    Returns (status, nodes, points, cost, expansions).
    """
    status, end, expansions = jps(free, table, pheight, pw, start, goal, cost_unit, max_expansions,
                                  stamp, gen, g, parent, hk, hn)
    nodes = unpad_jump_path(parent, end, pw, width)
    return status, nodes, cell_centers(nodes, pheight - 2, width, geo), g[end], expansions


# --------------------------------------------------------------------------------------------
# maze search: breadth-first, returning only the first step
# --------------------------------------------------------------------------------------------
@njit(cache=True)
def _bfs_first(moves, height, width, wrap, off, start, goal, seen, mark, qn, qf):
    """First cell of a fewest-steps path (directions tried up, right, down, left), -1 if none.

    Only straight steps are looked at: the caller uses this on maps without diagonal moves.
    ``seen[v] == mark`` marks discovered cells (no other entry may equal ``mark``); ``qn``/``qf``
    are queue buffers of n cells (cell, its first step). With ``wrap`` neighbours are found through
    row and column, else by ``off``.
    """
    if start == goal:
        return start
    seen[start] = mark
    tail = 0
    m = moves[start]
    r = start // width
    for d in range(4):
        if (m >> d) & 1:
            v = _neighbor(r, start - r * width, d, height, width) if wrap else start + off[d]
            if v == goal:
                return v
            if seen[v] == mark:
                continue
            seen[v] = mark
            qn[tail] = v
            qf[tail] = v
            tail += 1
    head = 0
    while head < tail:
        u = qn[head]
        f = qf[head]
        head += 1
        m = moves[u]
        r = u // width if wrap else 0
        for d in range(4):
            if (m >> d) & 1:
                v = _neighbor(r, u - r * width, d, height, width) if wrap else u + off[d]
                if v == goal:
                    return f
                if seen[v] != mark:
                    seen[v] = mark
                    qn[tail] = v
                    qf[tail] = f
                    tail += 1
    return -1


@njit(cache=True)
def _bfs_first_hop(moves, off, start, goal, seen, mark, qn, qf):
    """:func:`_bfs_first` on a lattice maze, hopping from junction to junction two cells at a time.

    Valid only when ``start`` is a junction (odd row and column) of a lattice maze: the cell after
    an open corridor cell is always a free junction, so only junctions are queued. The goal is
    checked on both cells of every hop, so it may sit on a corridor cell.
    """
    if start == goal:
        return start
    seen[start] = mark
    tail = 0
    m = moves[start]
    for d in range(4):
        if (m >> d) & 1:
            o = off[d]
            v = start + o
            if v == goal or v + o == goal:
                return v
            seen[v + o] = mark
            qn[tail] = v + o
            qf[tail] = v
            tail += 1
    head = 0
    while head < tail:
        u = qn[head]
        f = qf[head]
        head += 1
        m = moves[u]
        for d in range(4):
            if (m >> d) & 1:
                o = off[d]
                v = u + o
                if v == goal:
                    return f
                v += o
                if v == goal:
                    return f
                if seen[v] != mark:
                    seen[v] = mark
                    qn[tail] = v
                    qf[tail] = f
                    tail += 1
    return -1


@njit(cache=True, nogil=True)
def first_step_bfs(moves, width, start, goal):
    """Next cell from ``start`` on a fewest-steps path to ``goal`` (-1 when unreachable).

    For maps without wrap-around or diagonal moves; all search state is allocated per call.
    """
    n = len(moves)
    seen = np.zeros(n, np.uint8)
    queue = np.empty(2 * n, np.int32)
    return _bfs_first(moves, 0, width, False, _offsets(width), start, goal, seen, 1, queue[:n], queue[n:])


@njit(cache=True, nogil=True)
def first_step_bfs_wrap(moves, height, width, start, goal):
    """:func:`first_step_bfs` for maps with wrap-around borders."""
    n = len(moves)
    seen = np.zeros(n, np.uint8)
    queue = np.empty(2 * n, np.int32)
    return _bfs_first(moves, height, width, True, _offsets(width), start, goal, seen, 1, queue[:n], queue[n:])


@njit(cache=True, nogil=True)
def first_step_hop(moves, width, start, goal):
    """:func:`first_step_bfs` hopping between junctions of a lattice maze (see _bfs_first_hop)."""
    n = len(moves)
    seen = np.zeros(n, np.uint8)
    queue = np.empty(2 * n, np.int32)
    return _bfs_first_hop(moves, _offsets(width), start, goal, seen, 1, queue[:n], queue[n:])


@njit(cache=True, nogil=True, parallel=True)
def first_steps_bfs(moves, height, width, wrap, starts, goals, junction):
    """:func:`first_step_bfs` for many (start, goal) pairs, split over the threads in chunks.

    ``junction`` (uint8 per cell, or empty) marks where the lattice hop may start; other starts
    use the plain search. Each chunk owns its buffers; query ``i`` marks cells with its own
    number, so the buffers never need clearing.
    """
    k = len(starts)
    out = np.empty(k, np.int32)
    n = height * width
    off = _offsets(width)
    hop = len(junction) > 0
    n_chunks = min(k, 64)
    for ch in prange(n_chunks):
        lo = ch * k // n_chunks
        hi = (ch + 1) * k // n_chunks
        seen = np.zeros(n, np.int32)
        qn = np.empty(n, np.int32)
        qf = np.empty(n, np.int32)
        for i in range(lo, hi):
            s = starts[i]
            mark = i - lo + 1
            if hop and junction[s]:
                out[i] = _bfs_first_hop(moves, off, s, goals[i], seen, mark, qn, qf)
            else:
                out[i] = _bfs_first(moves, height, width, wrap, off, s, goals[i], seen, mark, qn, qf)
    return out


@njit(cache=True, nogil=True, parallel=True)
def first_steps_astar(moves, half_cost, height, width, wrap_r, wrap_c, uniform, starts, goals, hscale):
    """Next cell on a least-cost path for many (start, goal) pairs (-1 when unreachable)."""
    k = len(starts)
    out = np.empty(k, np.int32)
    n = height * width
    n_chunks = min(k, 64)
    for ch in prange(n_chunks):
        lo = ch * k // n_chunks
        hi = (ch + 1) * k // n_chunks
        stamp = np.zeros(n, np.int32)
        g = np.empty(n, np.float64)
        parent = np.empty(n, np.int32)
        hk = np.empty(n + _FAST, np.float64)
        hn = np.empty(n + _FAST, np.int32)
        for i in range(lo, hi):
            s = starts[i]
            t = goals[i]
            if s == t:
                out[i] = s
                continue
            status, end, _ = astar(moves, half_cost, height, width, wrap_r, wrap_c, uniform, s, t, hscale,
                                   -1, stamp, i - lo + 1, g, parent, hk, hn)
            if status != FOUND:
                out[i] = -1
                continue
            v = end
            while parent[v] != s:
                v = parent[v]
            out[i] = v
    return out


# --------------------------------------------------------------------------------------------
# flow fields
# --------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def flow_dijkstra(moves, half_cost, height, width, wrap_r, wrap_c, goals, max_cost):
    """Least cost from every cell to its nearest goal; steps cost the same both ways.

    Returns (cost, origin, rank, expansions): ``cost`` is inf where unreached (or beyond
    ``max_cost``), ``origin`` the index into ``goals`` of the nearest goal (-1 where unreached),
    ``rank`` the order in which cells were settled (-1 where unreached). Every settled cell other
    than a goal has a neighbour of lower rank through which its cost was set (its parent), even
    where float rounding makes costs tie.
    """
    n = height * width
    cost = np.full(n, np.inf)
    origin = np.full(n, -1, np.int32)
    rank = np.full(n, -1, np.int32)
    done = np.zeros(n, np.uint8)
    cap = n + _FAST
    hk = np.empty(cap, np.float64)
    hn = np.empty(cap, np.int32)
    size = 0
    for i in range(len(goals)):
        t = goals[i]
        if origin[t] < 0:
            cost[t] = 0.0
            origin[t] = i
            size = heap_push(hk, hn, size, 0.0, t)
    expansions = 0
    while size > 0:
        du, u, size = heap_pop(hk, hn, size)
        if done[u] or du > cost[u]:
            continue
        if du > max_cost:
            break
        done[u] = 1
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
            v = _neighbor(r, c, d, height, width)
            if done[v]:
                continue
            nd = du + STEP_LEN[d] * (hu + half_cost[v])
            if nd < cost[v]:
                cost[v] = nd
                origin[v] = ou
                if size == cap:
                    size = _compact(hk, hn, size, done, 1, cost, height, width, wrap_r, wrap_c, 0, 0.0)
                size = heap_push(hk, hn, size, nd, v)
    for v in range(n):
        if not done[v]:
            cost[v] = np.inf
            origin[v] = -1
    return cost, origin, rank, expansions


@njit(cache=True, nogil=True)
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
            v = _neighbor(r, c, d, height, width)
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
        u = _neighbor(r, u - r * width, directions[u], height, width)
        count += 1
    out = np.empty(count, np.int32)
    u = start
    out[0] = u
    for i in range(1, count):
        r = u // width
        u = _neighbor(r, u - r * width, directions[u], height, width)
        out[i] = u
    return out


plain_arguments(globals())
