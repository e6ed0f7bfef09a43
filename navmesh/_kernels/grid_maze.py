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


@njit(cache=True)
def bfs_first(moves, height, width, wrap, off, start, goal, seen, mark, qn, qf):
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
            v = neighbor(r, start - r * width, d, height, width) if wrap else start + off[d]
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
                v = neighbor(r, u - r * width, d, height, width) if wrap else u + off[d]
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
    """:func:`bfs_first` on a lattice maze, hopping from junction to junction two cells at a time.

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


@njit(cache=True)
def first_step_bfs(moves, width, start, goal):
    """Next cell from ``start`` on a fewest-steps path to ``goal`` (-1 when unreachable).

    For maps without wrap-around or diagonal moves; all search state is allocated per call.
    """
    n = len(moves)
    seen = np.zeros(n, np.uint8)
    queue = np.empty(2 * n, np.int32)
    return bfs_first(moves, 0, width, False, offsets(width), start, goal, seen, 1, queue[:n], queue[n:])


@njit(cache=True)
def first_step_bfs_wrap(moves, height, width, start, goal):
    """:func:`first_step_bfs` for maps with wrap-around borders."""
    n = len(moves)
    seen = np.zeros(n, np.uint8)
    queue = np.empty(2 * n, np.int32)
    return bfs_first(moves, height, width, True, offsets(width), start, goal, seen, 1, queue[:n], queue[n:])


@njit(cache=True)
def first_step_hop(moves, width, start, goal):
    """:func:`first_step_bfs` hopping between junctions of a lattice maze (see _bfs_first_hop)."""
    n = len(moves)
    seen = np.zeros(n, np.uint8)
    queue = np.empty(2 * n, np.int32)
    return _bfs_first_hop(moves, offsets(width), start, goal, seen, 1, queue[:n], queue[n:])


plain_arguments(globals())
