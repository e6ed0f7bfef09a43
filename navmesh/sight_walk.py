"""The grid walk of bulk line of sight: segments visit the wall grid's cells in order.

:meth:`navmesh.sight.LineOfSight.blocked` hands the segments not settled at their ends to
:func:`walk`, which cuts each into pieces, one per cell of a :class:`~navmesh.sight_grid.BoxGrid`
of the walls and gaps, and asks for the (piece, item) pairs a cell lists. Every pair is judged
on the whole segment by the caller's ``judge``; a blocked segment leaves the rounds. Pure numpy,
batches and slices of fixed sizes: the memory of a call is known in advance whatever the level.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from navmesh.sight_grid import BoxGrid

__all__ = ["walk"]


def walk(grid: BoxGrid, sa: NDArray[np.float64], sb: NDArray[np.float64], hit: NDArray[np.bool_],
         judge: Callable[[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]], NDArray[np.bool_]], *,
         whole_pairs: int, budget: int, batch: int) -> None:
    """Set ``hit[i]`` where a grid item blocks segment ``sa[i] -> sb[i]`` (segments already hit are skipped).

    Each segment walks the grid's cells from its start, one per round, inside the grid's
    rectangle; its piece in the cell (box padded well beyond rounding) is paired with the items
    the cell lists. The walk rounds crossings, but only within rounding of the right cells, and
    the grid lists every item in all cells within ``BoxGrid.pad`` of its box; segments whose
    rounding could exceed that (coordinates a million times the walls') read every cell their
    padded piece box overlaps instead.

    Parameters
    ----------
    grid : BoxGrid
        The walls' and gaps' boxes (at least one).
    sa, sb : float arrays of shape (m, 2)
        Segment ends in world units (``sa[i] != sb[i]``).
    hit : bool array of shape (m,)
        Updated in place.
    judge : callable
        ``judge(a, b, items)``: whether each pair (segment ``a[j] -> b[j]``, grid item ``items[j]``) blocks.
    whole_pairs : int
        A call whose segments' boxes list at most this many items is not walked: each segment is
        paired with all items of its box's cells in one round.
    budget, batch : int
        Pairs gathered per slice, pieces made per batch (>= 1): they bound the temporaries.
    """
    d = sb - sa
    length = np.hypot(d[:, 0], d[:, 1])
    scale = np.maximum(np.abs(sa).max(axis=1), np.abs(sb).max(axis=1)) + length
    pad = 1e-9 * scale  # float rounding of the piece ends is ~1e-16 of the coordinates
    stepwise = 1e-13 * scale < grid.pad
    whole = 1e-13 * scale >= grid.cell  # absurd coordinates: one piece, its box's cells
    # a small call (boxes listing at most whole_pairs walls: small builds) pairs each segment with
    # its box's walls in one round; the walk's fixed cost per round pays only on big calls
    box_lo, box_hi = np.minimum(sa, sb) - pad[:, None], np.maximum(sa, sb) + pad[:, None]
    if grid.listed(grid.cells(box_lo), grid.cells(box_hi)).sum() <= whole_pairs:
        whole[:] = True
        stepwise[:] = False
    # only the part inside the grid's rectangle, grown by a cell, can meet a wall
    r0 = grid.origin - grid.cell
    r1 = grid.origin + (grid.shape + 1) * grid.cell
    with np.errstate(divide="ignore", invalid="ignore"):
        ta, tb = (r0 - sa) / d, (r1 - sa) / d
        inside = (d != 0) | ((r0 <= sa) & (sa <= r1))
        t_in = np.maximum(np.where(d != 0, np.minimum(ta, tb), -np.inf).max(axis=1), 0.0)
        t_out = np.minimum(np.where(d != 0, np.maximum(ta, tb), np.inf).min(axis=1), 1.0)
    keep = inside.all(axis=1) & (t_in <= t_out)
    t_in[whole], t_out[whole] = 0.0, 1.0
    # the walk: the cell, and the parameter t of the next crossing of a vertical / horizontal
    # grid line (a start on a line, moving down or left, is in the lower cell)
    start = np.where((t_in == 0)[:, None], sa, sa + d * t_in[:, None])
    with np.errstate(divide="ignore", invalid="ignore"):
        u = (start - grid.origin) / grid.cell
        cell = np.floor(u)
        cell -= (u == cell) & (d < 0)
        t_next = np.where(d != 0, (grid.origin + (cell + (d > 0)) * grid.cell - sa) / d, np.inf)
        t_step = np.where(d != 0, grid.cell / np.abs(d), np.inf)
    t_next[whole] = np.inf
    cell = np.minimum(np.maximum(cell, -1), grid.shape).astype(np.int64)
    step = np.sign(d).astype(np.int64)
    # the walking segments' state, one column each, compacted after every round (a batch is a slice)
    at = np.flatnonzero((keep | whole) & ~hit)
    cols = [sa[at, 0], sa[at, 1], sb[at, 0], sb[at, 1], d[at, 0], d[at, 1], pad[at], ~stepwise[at], t_out[at],
            t_next[at, 0], t_next[at, 1], t_step[at, 0], t_step[at, 1], cell[at, 0], cell[at, 1], step[at, 0],
            step[at, 1], start[at, 0], start[at, 1], at]
    del start, t_next, t_step, cell, step, t_in
    while cols[-1].size:
        ax, ay, bx, by, dx, dy, pd, far, tout, tnx, tny, tsx, tsy, cx, cy, stx, sty, px, py, at = cols
        n = len(at)
        blk, fin = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        for lo in range(0, n, batch):
            k = slice(lo, lo + batch)
            x_first = tnx[k] <= tny[k]
            t1 = np.minimum(np.where(x_first, tnx[k], tny[k]), tout[k])
            end = t1 >= 1
            qx = np.where(end, bx[k], ax[k] + dx[k] * t1)
            qy = np.where(end, by[k], ay[k] + dy[k] * t1)
            lo_xy = np.column_stack([np.minimum(px[k], qx), np.minimum(py[k], qy)]) - pd[k, None]
            hi_xy = np.column_stack([np.maximum(px[k], qx), np.maximum(py[k], qy)]) + pd[k, None]
            px[k], py[k] = qx, qy
            j0 = np.minimum(np.maximum(np.column_stack([cx[k], cy[k]]), 0), grid.shape - 1)
            j1 = j0
            if far[k].any():
                f = far[k]
                j0, j1 = j0.copy(), j0.copy()
                j0[f], j1[f] = grid.cells(lo_xy[f]), grid.cells(hi_xy[f])
            for pi, w in grid.pairs(j0, j1, lo_xy, hi_xy, budget):
                i = pi + lo
                todo = ~blk[i]
                i, w = i[todo], w[todo]
                blk[i[judge(np.column_stack([ax[i], ay[i]]), np.column_stack([bx[i], by[i]]), w)]] = True
            tnx[k] += np.where(x_first, tsx[k], 0.0)
            tny[k] += np.where(x_first, 0.0, tsy[k])
            cx[k] += np.where(x_first, stx[k], 0)
            cy[k] += np.where(x_first, 0, sty[k])
            fin[k] = t1 >= tout[k]
        hit[at[blk]] = True
        go = ~(blk | fin)
        cols = [c[go] for c in cols]

