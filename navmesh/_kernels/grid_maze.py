"""numba kernels for the maze chaser's search: breadth-first, returning only the first step.

For maps where every step costs the same and only straight steps exist (classic 4-connected
mazes). Directions are tried in the order up, right, down, left, so among equally short paths
the first found wins (the seed article's rule). :mod:`navmesh._kernels.targets` answers many
chasers of one target with one backward search and the same answers.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.grid import neighbor, offsets
from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True, internal=True)
def bfs_first(moves, height, width, wrap, off, hop, start, goal, seen, mark, qn, qf):
    """First cell of a fewest-steps path (directions tried up, right, down, left), -1 if none.

    Only straight steps are looked at: the caller uses this on maps without diagonal moves.
    ``seen[v] == mark`` marks discovered cells (no other entry may equal ``mark``); ``qn``/``qf``
    are queue buffers of n cells (cell, its first step). With ``wrap`` neighbours are found through
    row and column, else by ``off``.

    ``hop`` is the speed-up for lattice mazes, valid only when ``start`` is a junction (odd row
    and column) of one and the map does not wrap: the cell after an open corridor cell is always
    a free junction, so the search hops from junction to junction two cells at a time and queues
    only junctions, checking the goal on both cells of every hop (it may sit on a corridor cell).
    """
    if start == goal:
        return start
    seen[start] = mark
    qn[0] = start
    qf[0] = -1  # the start's own successors are their own first steps
    tail = 1
    head = 0
    while head < tail:
        u = qn[head]
        f = qf[head]
        head += 1
        m = moves[u]
        r = u // width if wrap else 0
        for d in range(4):
            if (m >> d) & 1 == 0:
                continue
            v = neighbor(r, u - r * width, d, height, width) if wrap else u + off[d]
            first = v if f < 0 else f
            if v == goal:
                return first
            if hop:
                v += off[d]
                if v == goal:
                    return first
            if seen[v] != mark:
                seen[v] = mark
                qn[tail] = v
                qf[tail] = first
                tail += 1
    return -1


@njit(cache=True)
def first_step_bfs(moves, height, width, wrap, hop, start, goal):
    """Next cell from ``start`` on a fewest-steps path to ``goal`` (-1 when unreachable), by
    :func:`bfs_first`; all search state is allocated per call."""
    n = len(moves)
    seen = np.empty(n, np.int32)
    for u in range(n):
        seen[u] = -1
    queue = np.empty(2 * n, np.int32)
    return bfs_first(moves, height, width, wrap, offsets(width), hop, start, goal, seen, 1, queue[:n], queue[n:])


plain_arguments(globals())
