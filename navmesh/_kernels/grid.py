"""numba kernels for grid maps: the shared step rules, search state, and octile A*/Dijkstra.

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

Search state
------------
Kernels trust their inputs: the public functions validate them. A search keeps its state in a
workspace lent by the caller for the duration of the call (see :mod:`navmesh.grid.workspace`):

- ``g`` (float64, one per cell): the cost of the best path found to the cell;
- ``stamp`` (int32, one per cell): ``2 * gen`` once the cell is reached and ``2 * gen + 1``
  once expanded, for the call's generation ``gen``. Any other stamp means "not seen in this
  search", so the workspace needs no clearing between searches. A neighbour test reads the small
  stamp array first and the cost only for cells already reached (separate arrays measured about
  5-10% faster on the big random map than cost and stamp side by side);
- ``parent`` (int32, one per cell): the cell a reached cell was reached from;
- ``heap`` (float64, two per slot, a slot per cell plus :data:`HEAP_RESERVE`): the open list of
  :mod:`navmesh._kernels.grid_heap`, with lazy deletion (superseded entries are skipped when
  popped, and squeezed out if the heap ever fills).

An expansion budget ``max_expansions`` of 0 means no budget (the library's one value). The
kernels release the GIL. All of them also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from navmesh._kernels import grid_heap as H
from navmesh._kernels.heap import trace_back
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND


SQRT2 = 1.4142135623730951
_SQRT2_MINUS_1 = 0.41421356237309515

DROW = np.array([-1, 0, 1, 0, -1, 1, 1, -1], dtype=np.int64)
DCOL = np.array([0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)
STEP_LEN = np.array([1.0, 1.0, 1.0, 1.0, SQRT2, SQRT2, SQRT2, SQRT2], dtype=np.float64)

#: Heap slots beyond one per cell (the room the stack of :func:`astar` may need).
HEAP_RESERVE = 64
_FAST = 64  # capacity of the stack of cells expanded without touching the heap

#: On maps of one multiplier A* orders the open list by ``(1 - TIE_BREAK) * g + h`` rather than
#: ``g + h``: among cells of equal estimate the one deepest along its path comes first (14% fewer
#: expansions, about 5% less time on the longest queries of a 512x512 map with 10% random walls).
#: It is weighted A* with weight 1 / (1 - 2**-32), so a path costs at most 2**-32 (relative) more
#: than the optimum; on such maps every path cost is ``unit * (a + b * sqrt(2))`` for whole numbers
#: a, b, and two different costs of paths under about 25,000 steps differ by more than that, so the
#: answer is the optimum itself.
TIE_BREAK = 2.0**-32
_NO_BUDGET = 1 << 62


# --------------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------------
@njit(cache=True, internal=True)
def neighbor(r, c, d, height, width):
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
def offsets(width):
    """Flat-id offset of each direction on a grid ``width`` columns wide (no wrap-around)."""
    off = np.empty(8, np.int64)
    for d in range(8):
        off[d] = DROW[d] * width + DCOL[d]
    return off


@njit(cache=True, internal=True)
def axis_gap(a, b, size, wrap):
    """|a - b| along one axis, taking the shorter way round when that axis wraps."""
    d = abs(a - b)
    if wrap and size - d < d:
        d = size - d
    return d


@njit(cache=True, internal=True)
def octile(dr, dc):
    """Octile distance of a (rows, columns) offset of non-negative sizes."""
    # max / min written out (Python's): numba compiles its builtins once more for an internal
    # kernel's options
    return (dc if dc > dr else dr) + _SQRT2_MINUS_1 * (dc if dc < dr else dr)


@njit(cache=True, internal=True)
def compact(heap, size, g, stamp, closed, height, width, wrap_r, wrap_c, goal, hscale, tie):
    """Drop stale heap entries (expanded cells, superseded keys) and re-heapify; return the size.

    The heap holds one slot per cell; lazy deletion can fill it with stale entries, but at most
    one entry per open cell is live (its key is ``g + hscale * octile - tie * g``, ``octile`` to
    ``goal``), so after this there is always room.
    """
    gr = goal // width
    gc = goal - gr * width
    k = 0
    for i in range(size):
        v = np.int64(heap[2 * i + 1])  # (np.int64, not int(): see octile)
        if stamp[v] == closed:
            continue
        vr = v // width
        vc = v - vr * width
        gv = g[v]
        key = gv + hscale * octile(axis_gap(vr, gr, height, wrap_r), axis_gap(vc, gc, width, wrap_c)) - tie * gv
        if heap[2 * i] != key:
            continue
        heap[2 * k] = key
        heap[2 * k + 1] = v
        k += 1
    H.heapify(heap, k)
    return k


@njit(cache=True)
def cell_centers(nodes, height, width, geo):
    """World centres (n, 2) of cells; ``geo`` = (origin_x, origin_y, cell_size), y up, row 0 on top."""
    out = np.empty((len(nodes), 2))
    x0 = geo[0]
    y0 = geo[1]
    size = geo[2]
    for i in range(len(nodes)):
        r = nodes[i] // width
        c = nodes[i] - r * width
        out[i, 0] = x0 + (c + 0.5) * size
        out[i, 1] = y0 + (height - r - 0.5) * size
    return out


@njit(cache=True, internal=True)
def nearest_expanded(g, stamp, closed, height, width, wrap_r, wrap_c, goal):
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
        dr = axis_gap(vr, gr, height, wrap_r)
        dc = axis_gap(vc, gc, width, wrap_c)
        d2 = dr * dr + dc * dc
        if best < 0 or d2 < best_d2 or (d2 == best_d2 and g[v] < g[best]):
            best = v
            best_d2 = d2
    return best


# --------------------------------------------------------------------------------------------
# A* / Dijkstra
# --------------------------------------------------------------------------------------------
@njit(cache=True)
def astar(moves, half_cost, height, width, wrap, uniform, start, goal, hscale,
          max_expansions, g, stamp, gen, parent, heap, geo):
    """Best-first search from ``start`` to ``goal`` with the octile heuristic times ``hscale``.

    ``hscale`` = 0 gives Dijkstra. ``g``, ``stamp``, ``gen``, ``parent`` and ``heap`` are a
    workspace (see the module notes). ``wrap`` is None on maps without wrap-around, else the
    pair (rows wrap, columns wrap); being a different type, it gets its own compiled copy, so
    maps without wrap-around step by a fixed offset with no border test (about 15% faster).
    ``uniform`` says every passable cell has the same cost: the step costs are then set once,
    else once per expanded cell, before its neighbours are looked at (a cost branch per
    neighbour measured about 8% slower on the big random map).
    ``max_expansions`` = 0 means no budget. On uniform maps with a heuristic the keys break ties
    towards the deeper cell (see :data:`TIE_BREAK`).

    A successor whose key does not exceed the key just taken off the heap is a legal next
    expansion (keys never decrease along a path under a consistent heuristic), so it goes on a
    small stack and is expanded without a heap round trip; the stack is last in, first out, so
    among equal keys the cell deepest along its path goes first. Stale heap entries are skipped
    when popped (lazy deletion). Jump Point Search (:mod:`navmesh._kernels.grid_jps`) runs the
    same loop; it is written out in both kernels because taking the next cell through a shared
    function measured 25-40% slower here (numba does not inline it well).

    Returns (status, nodes, points, cost, expansions): the cells from ``start`` to the goal when
    found, else to the expanded cell nearest the goal in straight-line distance (a partial path),
    their centres (see :func:`cell_centers`) and the cost of that path.
    """
    wrap_r = False if wrap is None else wrap[0]
    wrap_c = False if wrap is None else wrap[1]
    seen = np.int32(2 * gen)
    closed = np.int32(2 * gen + 1)
    cap = len(heap) // 2
    limit = max_expansions if max_expansions > 0 else _NO_BUDGET
    gr = goal // width
    gc = goal - gr * width
    sr = start // width
    sc = start - sr * width
    g[start] = 0.0
    stamp[start] = seen
    parent[start] = -1
    stack = np.empty(_FAST, np.int64)
    stack[0] = start
    sp = 1
    size = 0
    fu = hscale * octile(axis_gap(sr, gr, height, wrap_r), axis_gap(sc, gc, width, wrap_c))
    tie = TIE_BREAK if uniform and hscale > 0.0 else 0.0
    step_cost = np.empty(8)  # (float64: the form of most kernels, one numpy implementation)
    for d in range(8):
        step_cost[d] = STEP_LEN[d] * 2.0 * half_cost[start]
    off = offsets(width)
    expansions = 0
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
        r = u // width
        c = u - r * width
        m = moves[u]
        if not uniform:  # this cell's step costs, so the loop below is the same for every map
            hu = half_cost[u]
            for d in range(8):
                if (m >> d) & 1:
                    v = u + off[d] if wrap is None else neighbor(r, c, d, height, width)
                    step_cost[d] = STEP_LEN[d] * (hu + half_cost[v])
        for d in range(8):
            if (m >> d) & 1 == 0:
                continue
            if wrap is None:
                v = u + off[d]
            else:
                v = neighbor(r, c, d, height, width)
            sv = stamp[v]
            if sv == closed:
                continue
            ng = gu + step_cost[d]
            if sv == seen and ng >= g[v]:
                continue
            g[v] = ng
            stamp[v] = seen
            parent[v] = u
            if wrap is None:
                h = octile(abs(r + DROW[d] - gr), abs(c + DCOL[d] - gc))
            else:
                h = octile(axis_gap(r + DROW[d], gr, height, wrap_r), axis_gap(c + DCOL[d], gc, width, wrap_c))
            key = ng + hscale * h - tie * ng
            if key <= fu and sp < _FAST:
                stack[sp] = v
                sp += 1
            else:
                if size == cap:
                    size = compact(heap, size, g, stamp, closed, height, width, wrap_r, wrap_c, goal, hscale, tie)
                size = H.push(heap, size, key, v)
    end = goal if status == FOUND else nearest_expanded(g, stamp, closed, height, width, wrap_r, wrap_c, goal)
    nodes = trace_back(parent, end)
    return status, nodes, cell_centers(nodes, height, width, geo), g[end], expansions


@njit(cache=True, parallel=True)
def first_steps_astar(moves, half_cost, height, width, wrap, uniform, starts, goals, hscale):
    """Next cell on a least-cost path for many (start, goal) pairs (-1 when unreachable); ``wrap``
    as for :func:`astar`."""
    k = len(starts)
    out = np.empty(k, np.int32)
    n = height * width
    n_chunks = min(k, 64)
    geo = np.zeros(3, np.float64)
    for ch in prange(n_chunks):
        lo = ch * k // n_chunks
        hi = (ch + 1) * k // n_chunks
        g = np.empty(n)
        stamp = np.zeros(n, np.int32)
        parent = np.empty(n, np.int32)
        heap = np.empty(2 * (n + HEAP_RESERVE))
        for i in range(lo, hi):
            s = starts[i]
            t = goals[i]
            if s == t:
                out[i] = s
                continue
            status, nodes, _, _, _ = astar(moves, half_cost, height, width, wrap, uniform, s, t, hscale,
                                           0, g, stamp, i - lo + 1, parent, heap, geo)
            out[i] = nodes[1] if status == FOUND else -1
    return out


plain_arguments(globals())
