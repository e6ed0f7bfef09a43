"""One position-to-position query on a waypoint graph in one compiled call: join, search, trace.

:func:`find_one` is the fast road of ``NavQuery.find_path`` for the common case (one floor, no
terrain, no danger zones): it joins both positions with :func:`~navmesh._kernels.anyangle.join_positions`,
tests the straight walk with :func:`~navmesh._kernels.los.segment_free`, runs
:func:`~navmesh._kernels.anyangle.solve_batch` for the one pair, and writes the rows and
cumulative costs of the result into caller-owned buffers, so nothing crosses back into Python
but five numbers. Every array is passed on its own (no tuples): the dispatcher then types each
argument on its fast path. The answers are those of the general road (the same kernels, in the
same order, on the same arrays).
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.anyangle import join_positions, solve_batch
from navmesh._kernels.los import segment_free
from navmesh._kernels.signatures import njit, plain_arguments

#: ``find_one``'s count when a position joins no waypoint: the caller takes the general road
#: (which checks walkability and moves the position).
NOT_JOINED = -1


@njit(cache=True)
def find_one(sx, sy, gx, gy,
             indptr, indices, weights, xy, mult, floor,
             w_g, w_parent, w_closed, w_touched, w_exit_cost, w_exit_ids, w_keys, w_vals, w_state, w_anc, w_fstate,
             edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items,
             b_edges, b_grid, b_ptr, b_items,
             ids, pts, blocked, dirs, has, k, near, width, pgrid, pstart, pitems,
             taken, pend_d, pend_i, sel_d, sel_i,
             hscale, budget, lookback, allow_partial, pull,
             out_order, out_cum):
    """Join (sx, sy) and (gx, gy) to the graph (one floor, uniform ground) and solve the query.

    Returns (count, status, partial, expansions, direct_seen): the result's rows are
    ``out_order[:count]`` (node ids; ``n`` is the start, ``n + 1`` the goal) with cumulative
    costs ``out_cum[:count]``; ``count`` is :data:`NOT_JOINED` when a position joins no waypoint
    and 0 when there is no path to return.
    """
    q = np.empty((2, 2))
    q[0, 0] = sx
    q[0, 1] = sy
    q[1, 0] = gx
    q[1, 1] = gy
    counts, picked, dist = join_positions(q, pts, blocked, dirs, has, k, near, width, np.inf, pgrid, pstart, pitems,
                                          taken, pend_d, pend_i, sel_d, sel_i,
                                          edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items)
    if counts[0] == 0 or counts[1] == 0:
        return NOT_JOINED, 0, False, 0, False
    c0 = counts[0]
    nodes = np.empty(picked.shape[0], np.int32)
    for i in range(picked.shape[0]):
        nodes[i] = ids[picked[i]]
    ends = np.empty((1, 4))
    ends[0, 0] = sx
    ends[0, 1] = sy
    ends[0, 2] = gx
    ends[0, 3] = gy
    ends_mult = np.ones((1, 2))
    ends_floor = np.zeros((1, 2), np.int64)
    entry_ptr = np.zeros(2, np.int64)
    entry_ptr[1] = c0
    exit_ptr = np.zeros(2, np.int64)
    exit_ptr[1] = counts[1]
    length = np.sqrt((gx - sx) * (gx - sx) + (gy - sy) * (gy - sy))
    direct = np.full(1, np.inf)
    seen = segment_free(sx, sy, gx, gy, edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items)
    if seen:
        direct[0] = length
    bound = np.full(1, hscale * length)
    ws = (w_g, w_parent, w_closed, w_touched, w_exit_cost, w_exit_ids, w_keys, w_vals, w_state, w_anc, w_fstate)
    los = (edges, grid, cell_ptr, cell_items, gaps, gap_grid, gap_ptr, gap_items, b_edges, b_grid, b_ptr, b_items)
    orders, cums, offsets, status, partial, expansions = solve_batch(
        indptr, indices, weights, xy, mult, floor, ws, los, ends, ends_mult, ends_floor,
        entry_ptr, nodes[:c0], dist[:c0], exit_ptr, nodes[c0:], dist[c0:], direct, bound,
        hscale, budget, lookback, allow_partial, pull,
    )
    count = orders.shape[0]
    for i in range(count):
        out_order[i] = orders[i]
        out_cum[i] = cums[i]
    return count, status[0], partial[0], expansions[0], seen


plain_arguments(globals())
