"""numba kernels for position-to-position queries over a waypoint graph: a resumable Theta*-style
search that borrows a caller-owned workspace, string pulling, and a batch driver, with shortcuts
judged by the line-of-sight kernels of :mod:`navmesh._kernels.los`.

Node ids ``0..n-1`` are the graph's; ``n`` is the start position and ``n + 1`` the goal position.
Arrays with n + 2 rows (``xy``, ``mult``, ``floor``) hold position, terrain multiplier there (inf in
closed terrain or a danger square) and floor id; the caller writes the two end rows per query.

``los`` is one tuple of 12 arrays: the walls (:class:`~navmesh._kernels.los.WallGrid`, 8 arrays)
and the "barriers" (4 arrays: edges, grid, cell_ptr, cell_items), a second edge set used only by
refinement: terrain region boundaries, manual / gated / off-mesh link segments and danger squares.
A shortcut that touches a barrier is not taken, so a shortcut always lies in one terrain class and
never bypasses a link the designer drew.

The workspace ``ws`` is the tuple (g, parent, closed, touched, exit_cost, exit_ids, keys, vals,
state, anc, fstate, refused): search state that a search leaves behind and the next search (:func:`search_run` with ``begin``)
resets for the nodes it touched only, so a query costs time and memory in what it explores, not in
the size of the map.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels.heap import heap_pop, heap_push
from navmesh._kernels.los import segment_free, segment_touches
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

# slots of the int64 ``state`` array of a workspace
ST_SIZE = 0  # heap size
ST_EXPANSIONS = 1
ST_STATUS = 2  # RUNNING until the search ends, then a navmesh._kernels.status code
ST_NEAREST = 3  # expanded graph node nearest the goal (-1: none yet)
ST_TOUCHED = 4  # how many entries of ``touched`` are in use
ST_EXITS = 5  # how many entries of ``exit_ids`` are in use
N_STATE = 6
RUNNING = -1

#: ``solve_batch``'s status on its one-call road when a position joins no waypoint
NOT_JOINED = -2

# offsets in ``solve_batch``'s flat ``info`` (four entries per query): one int64 array instead of four,
# since every array a kernel returns costs a few microseconds to hand to Python
INFO_END = 0  # query i's rows end at orders[info[4 * i + INFO_END]] (and start where row i - 1's end)
INFO_STATUS = 1
INFO_PARTIAL = 2
INFO_EXPANSIONS = 3


def workspace(n_nodes: int, n_edges: int, lookback: int = 1):
    """A fresh workspace tuple for a graph of ``n_nodes`` nodes and ``n_edges`` arcs."""
    m = n_nodes + 2
    cap = n_edges + 3 * m + 8  # pushes: entries (<= n) + arcs + exit and goal look per expansion
    state = np.zeros(N_STATE, np.int64)
    return (
        np.full(m, np.inf), np.full(m, -1, np.int32), np.zeros(m, np.bool_), np.empty(m, np.int32),
        np.full(m, np.inf), np.empty(m, np.int32), np.empty(cap), np.empty(cap, np.int64), state,
        np.empty(max(lookback, 1), np.int64), np.full(1, np.inf), np.full(m, -1, np.int32),
    )


# --- refinement: shortcuts ---------------------------------------------------------------------


# --- the search --------------------------------------------------------------------------------


@njit(cache=True, internal=True, _nrt=False)
def search_run(indptr, indices, weights, xy, mult, floor, ws, los, entry_nodes, entry_costs, exits, exit_costs,
               hscale, max_expansions, lookback, slice_budget, begin):
    """Run a search for up to ``slice_budget`` expansions (0: to the end, < 0: none); return True
    when it has ended (status in ``state[ST_STATUS]``).

    With ``begin`` a new search starts first: what the previous search touched is reset (for
    the nodes it touched only) and the start (node n) is pushed; the goal joins from node
    ``exits[j]`` at ``exit_costs[j]`` (the cheapest when repeated). Without it, the search begun
    by an earlier call goes on (``exits`` and ``exit_costs`` are then not read). One kernel for
    both: a separate entry point cost its own compile (about 0.7 s cold). Only :func:`solve_batch`
    calls it (``internal``: no CPython entry point, whose unboxing of the workspace and line-of-sight
    tuples was a quarter of this kernel's machine code): sliced searches resume through it too. It
    neither allocates nor returns an array: no reference counting (``_nrt=False``) of the 24 arrays
    it unpacks.

    The start joins ``entry_nodes`` at ``entry_costs``; node ``v`` joins the goal at
    ``exit_cost[v]``. With ``lookback`` >= 1 (Theta*) a node reached from ``u`` takes one of
    ``u``'s ``lookback`` nearest ancestors as its parent instead when the straight shortcut is
    allowed and costs no more (the goal joins through the exits only: a position joins every
    waypoint it sees among its nearest, so looking at the goal from every expanded node found
    nothing better on the benchmark maps and cost a long line-of-sight test per expansion);
    ``lookback == 0`` is plain A*. The heuristic is ``hscale * distance(node, goal)``.
    ``max_expansions <= 0`` means no budget. Pausing and resuming never changes the result.
    """
    g, parent, closed, touched, exit_cost, exit_ids, keys, vals, state, anc, fstate, refused = ws
    n = indptr.shape[0] - 1
    start = n
    goal = n + 1
    if begin:
        for i in range(state[ST_TOUCHED]):
            v = touched[i]
            g[v] = np.inf
            parent[v] = -1
            closed[v] = False
            refused[v] = -1
        for i in range(state[ST_EXITS]):
            exit_cost[exit_ids[i]] = np.inf
        n_exits = 0
        for j in range(exits.shape[0]):
            v = exits[j]
            if exit_costs[j] < exit_cost[v]:
                if exit_cost[v] == np.inf:
                    exit_ids[n_exits] = v
                    n_exits += 1
                exit_cost[v] = exit_costs[j]
        g[start] = 0.0
        touched[0] = start
        d = np.sqrt((xy[start, 0] - xy[goal, 0]) ** 2 + (xy[start, 1] - xy[goal, 1]) ** 2)
        state[ST_SIZE] = heap_push(keys, vals, 0, hscale * d, start)
        state[ST_EXPANSIONS] = 0
        state[ST_STATUS] = RUNNING
        state[ST_NEAREST] = -1
        state[ST_TOUCHED] = 1
        state[ST_EXITS] = n_exits
        fstate[0] = np.inf
    if slice_budget < 0:
        return False
    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items, b_edges, b_grid, b_cptr, b_citems = los
    gx = xy[goal, 0]
    gy = xy[goal, 1]
    size = state[ST_SIZE]
    expansions = state[ST_EXPANSIONS]
    nearest = state[ST_NEAREST]
    n_touched = state[ST_TOUCHED]
    nearest_d = fstate[0]
    status = RUNNING
    done_here = 0
    while size > 0:
        if slice_budget > 0 and done_here >= slice_budget:
            break
        _, u, size = heap_pop(keys, vals, size)
        if closed[u]:
            continue
        if u == goal:
            status = FOUND
            break
        closed[u] = True
        expansions += 1
        done_here += 1
        if u < n:
            d = np.sqrt((xy[u, 0] - gx) ** 2 + (xy[u, 1] - gy) ** 2)
            if d < nearest_d:
                nearest_d = d
                nearest = u
        if max_expansions > 0 and expansions >= max_expansions:
            status = BUDGET
            break
        # ancestors of u that may serve as parent of u's successors, nearest first
        n_anc = 0
        a = parent[u]
        while a >= 0 and n_anc < lookback:
            anc[n_anc] = a
            n_anc += 1
            a = parent[a]
        if u == start:
            lo, hi = 0, entry_nodes.shape[0]
        else:
            lo, hi = indptr[u], indptr[u + 1] + 1
        for k in range(lo, hi):
            if u == start:
                v = entry_nodes[k]
                w = entry_costs[k]
            elif k < hi - 1:
                v = indices[k]
                w = weights[k]
            else:
                v = goal
                w = exit_cost[u]
            if closed[v] or not w < np.inf:
                continue
            best = g[u] + w
            bp = u
            # oldest ancestor first: with uniform costs an older visible ancestor is never worse.
            # ``refused[v]`` remembers the last ancestor refused as v's parent: siblings share
            # their parent, so the same test would come again (v is touched by then, so the next
            # search clears the entry)
            for j in range(n_anc - 1, -1, -1):
                a = anc[j]
                c = g[a] + mult[a] * np.sqrt((xy[v, 0] - xy[a, 0]) ** 2 + (xy[v, 1] - xy[a, 1]) ** 2)
                if c <= best and c < g[v] and refused[v] != a:
                    # the shortcut rule (module notes): one floor, no barrier touched, line of sight
                    if floor[a] == floor[v] and not (b_edges.shape[0] > 0 and segment_touches(
                            xy[a, 0], xy[a, 1], xy[v, 0], xy[v, 1], b_edges, b_grid, b_cptr, b_citems)) and segment_free(
                            xy[a, 0], xy[a, 1], xy[v, 0], xy[v, 1], w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid,
                            p_ptr, p_items):
                        best = c
                        bp = a
                        break
                    refused[v] = a
            if best < g[v]:
                if g[v] == np.inf:
                    touched[n_touched] = v
                    n_touched += 1
                g[v] = best
                parent[v] = bp
                h = hscale * np.sqrt((xy[v, 0] - gx) ** 2 + (xy[v, 1] - gy) ** 2)
                size = heap_push(keys, vals, size, best + h, v)
    if status == RUNNING and size == 0:
        status = EXHAUSTED
    state[ST_SIZE] = size
    state[ST_EXPANSIONS] = expansions
    state[ST_NEAREST] = nearest
    state[ST_TOUCHED] = n_touched
    state[ST_STATUS] = status
    fstate[0] = nearest_d
    return status != RUNNING


@njit(cache=True, internal=True, _nrt=False)
def string_pull_in_place(order, cum, xy, mult, floor, los):
    """Greedy string pulling of a path given as rows ``order`` of ``xy`` with cumulative costs
    ``cum`` (``cum[0]`` = 0), in place; returns the number of points kept, whose rows and
    cumulative costs are then ``order[:count]`` and ``cum[:count]``.

    From each kept point, jump to the farthest later point reachable by an allowed straight
    shortcut that costs no more than the path between them; stop scanning at the first point
    that is not. In place (no allocation, no reference counting): :func:`solve_batch` pulls its
    paths where they lie, and the pulling is no compiled entry point of its own.
    """
    w_edges, w_grid, w_cptr, w_citems, p_pts, p_grid, p_ptr, p_items, b_edges, b_grid, b_cptr, b_citems = los
    k = order.shape[0]
    count = 1
    kept_cost = 0.0
    i = 0
    cum_i = cum[0]  # the path's cumulative cost at point i (cum[i] may hold a kept cost by now)
    cum[0] = 0.0
    while i < k - 1:
        j_best = i + 1
        c_best = kept_cost + (cum[i + 1] - cum_i)
        j = i + 2
        while j < k:
            u, v = order[i], order[j]
            # the straight walk's cost if it stays in u's terrain class (inf in closed terrain)
            c = mult[u] * np.sqrt((xy[v, 0] - xy[u, 0]) ** 2 + (xy[v, 1] - xy[u, 1]) ** 2)
            if not c <= cum[j] - cum_i or floor[u] != floor[v]:
                break
            # the shortcut rule (module notes), as in search_run
            if b_edges.shape[0] > 0 and segment_touches(xy[u, 0], xy[u, 1], xy[v, 0], xy[v, 1], b_edges, b_grid,
                                                        b_cptr, b_citems):
                break
            if not segment_free(xy[u, 0], xy[u, 1], xy[v, 0], xy[v, 1], w_edges, w_grid, w_cptr, w_citems, p_pts,
                                p_grid, p_ptr, p_items):
                break
            j_best = j
            c_best = kept_cost + c
            j += 1
        # count <= j_best: what is written lies at or before point j_best, and is read no more
        cum_i = cum[j_best]
        order[count] = order[j_best]
        cum[count] = c_best
        kept_cost = c_best
        count += 1
        i = j_best
    return count


@njit(cache=True)
def string_pull(order, xy, mult, floor, cum_cost, los):
    """:func:`string_pull_in_place` on copies: returns (kept rows of ``order``, their cumulative
    costs). For :meth:`NavQuery.smooth_path <navmesh.waypoints.query.NavQuery.smooth_path>`;
    searches pull inside :func:`solve_batch`."""
    k = order.shape[0]
    kept = np.empty(k, np.int64)
    cost = np.empty(k)
    for j in range(k):  # element by element: see join_positions
        kept[j] = order[j]
        cost[j] = cum_cost[j]
    count = string_pull_in_place(kept, cost, xy, mult, floor, los)
    return kept[:count], cost[:count]


@njit(cache=True)
def solve_batch(indptr, indices, weights, xy, mult, floor, ws, los, ends, ends_mult, ends_floor,
                entry_ptr, entry_nodes, entry_costs, exit_ptr, exit_nodes, exit_costs, direct, bound,
                hscale, max_expansions, lookback, allow_partial, pull, slice_budget, begin, join_here, joins, k, near,
                width):
    """Solve queries ``i = 0..m-1`` one after another in one workspace.

    Query i writes its ends into rows n and n + 1 (``ends[i]`` = sx, sy, gx, gy, with
    ``ends_mult`` and ``ends_floor``), joins the start to ``entry_nodes[entry_ptr[i]:entry_ptr[i+1]]``
    and the goal from ``exit_nodes[exit_ptr[i]:...]``, and skips the search when ``direct[i]`` is
    no more than ``bound[i]``, a lower bound of any path's cost. Returns (orders, cums, info):
    query i's rows and cumulative costs are ``orders[a:b]``, ``cums[a:b]`` with ``b = info[4 * i +
    INFO_END]`` and ``a`` the previous query's end (0 for the first); ``info[4 * i:4 * i + 4]`` also
    holds the status, partial flag (0/1) and expansions (offsets ``INFO_*``; ``info`` is flat:
    ``info.reshape(-1, 4)`` gives a row per query).

    Each search runs to its end with ``slice_budget`` 0. A sliced search (one query,
    :class:`navmesh.waypoints.sliced.SlicedSearch`) passes its budget for this call instead, and
    ``begin`` False to resume the search an earlier call began in ``ws``: while it has not ended,
    ``info[INFO_STATUS]`` is :data:`RUNNING` and nothing is returned; the call in which it ends
    returns its path as above (``slice_budget`` < 0 only begins the search). One entry point for
    both: the search, its trace-back and string pulling are compiled into this kernel once.

    With ``join_here`` (one query, one floor, uniform ground: ``NavQuery.find_path``'s one-call
    road) the joins, the straight walk and its bound are made here instead, from ``ends[0]`` and
    ``joins`` = (ids, points, blocked, dirs, has, grid, start, items, taken, pend_d, pend_i,
    sel_d, sel_i) as :func:`join_positions` takes them with ``k``, ``near`` and ``width``
    (the entry, exit, ``direct`` and ``bound`` arguments are then not read); when a position
    joins no waypoint, ``info[INFO_STATUS]`` is :data:`NOT_JOINED` and nothing else is done (the caller
    then checks walkability and moves the position on the general road). When the goal is in
    sight and the bound cannot beat the straight walk, the joins only prove the ends walkable
    (their nearest visible waypoint) and the straight walk is returned at once.
    """
    n = indptr.shape[0] - 1
    m = ends.shape[0]
    # Only np.empty, one dimension, four dtypes in every waypoint kernel: np.zeros / np.full / np.array
    # and each further dtype or dimension cost a compiled numpy helper of their own (0.1-0.3 s cold)
    info = np.empty(4 * m, np.int64)  # flat: a 2-D array type costs its own compiled code; Python reshapes
    for j in range(4 * m):
        info[j] = 0
    cap = 16 * m + 16
    orders = np.empty(cap, np.int64)
    cums = np.empty(cap)
    if join_here:
        ids, pts, blocked, dirs, has, pgrid, pstart, pitems, taken, pend_d, pend_i, sel_d, sel_i = joins
        sx, sy, gx, gy = ends[0, 0], ends[0, 1], ends[0, 2], ends[0, 3]
        q = ends[0]  # the start and the goal, flat as join_positions takes them
        free = np.empty(2, np.int64)
        free[0] = -1
        free[1] = -1
        length = np.sqrt((gx - sx) * (gx - sx) + (gy - sy) * (gy - sy))
        sees = segment_free(sx, sy, gx, gy, los[0], los[1], los[2], los[3], los[4], los[5], los[6], los[7])
        # In sight and no path can cost less than the straight walk (length <= the bound): the
        # answer is the straight walk, and the joins only need to prove both ends walkable (a
        # visible usable waypoint does), so each end looks for its nearest visible one only
        # (k = 0, near = -1: one test when the nearest is in sight). The answer is the search's.
        quick = sees and length <= hscale * length
        counts, picked, dist = join_positions(q, free, pts, blocked, dirs, has, 0 if quick else k, -1 if quick else near,
                                              width, np.inf, pgrid, pstart, pitems,
                                              taken, pend_d, pend_i, sel_d, sel_i, los[0], los[1], los[2], los[3],
                                              los[4], los[5], los[6], los[7])
        if counts[0] == 0 or counts[1] == 0:
            info[INFO_STATUS] = NOT_JOINED
            return orders[:0], cums[:0], info
        if quick:
            info[INFO_STATUS] = FOUND
            info[INFO_END] = 2
            orders[0] = n
            orders[1] = n + 1
            cums[0] = 0.0
            cums[1] = length
            return orders[:2], cums[:2], info
        c0 = counts[0]
        c1 = counts[1]
        # the general road's arguments as views of three arrays (each allocation site is code of
        # its own); the join costs are join_positions' distances as they are
        ptr = np.empty(4, np.int64)
        ptr[0] = 0
        ptr[1] = c0
        ptr[2] = 0
        ptr[3] = c1
        entry_ptr = ptr[0:2]
        exit_ptr = ptr[2:4]
        nodes = np.empty(c0 + c1, np.int32)
        for j in range(c0 + c1):
            nodes[j] = ids[picked[j]]
        entry_nodes = nodes[:c0]
        exit_nodes = nodes[c0:]
        entry_costs = dist[:c0]
        exit_costs = dist[c0:]
        walk = np.empty(2)
        walk[0] = length if sees else np.inf
        walk[1] = hscale * length
        direct = walk[0:1]
        bound = walk[1:2]
    g, parent, state = ws[0], ws[1], ws[8]
    for i in range(m):
        xy[n, 0] = ends[i, 0]
        xy[n, 1] = ends[i, 1]
        xy[n + 1, 0] = ends[i, 2]
        xy[n + 1, 1] = ends[i, 3]
        mult[n] = ends_mult[i, 0]
        mult[n + 1] = ends_mult[i, 1]
        floor[n] = ends_floor[i, 0]
        floor[n + 1] = ends_floor[i, 1]
        # query i's rows go straight into orders[lo:hi] / cums[lo:hi] (no array of its own: each
        # allocation site is code of its own in this kernel)
        lo = info[4 * (i - 1) + INFO_END] if i > 0 else 0
        st = EXHAUSTED
        part = False
        end = -1
        count = 0
        if direct[i] > bound[i]:  # else no path can beat the straight walk: no search
            e0, e1 = entry_ptr[i], entry_ptr[i + 1]
            x0, x1 = exit_ptr[i], exit_ptr[i + 1]
            ended = search_run(indptr, indices, weights, xy, mult, floor, ws, los, entry_nodes[e0:e1],
                               entry_costs[e0:e1], exit_nodes[x0:x1], exit_costs[x0:x1], hscale, max_expansions,
                               lookback, slice_budget, begin)
            info[4 * i + INFO_EXPANSIONS] = state[ST_EXPANSIONS]
            if not ended:  # a sliced search paused: the caller resumes it
                info[4 * i + INFO_STATUS] = RUNNING
                return orders[:0], cums[:0], info
            # the path before string pulling: to the goal, or (allow_partial) to the expanded node
            # nearest it (the start when none was expanded); none when the search failed
            st = state[ST_STATUS]
            if st == FOUND:
                end = n + 1
            elif allow_partial:
                end = state[ST_NEAREST] if state[ST_NEAREST] >= 0 else n
                part = True
            if end >= 0:
                count = 1
                v = end
                while parent[v] >= 0:
                    v = parent[v]
                    count += 1
        # room for the path or the straight walk (2 rows)
        hi = lo + (count if count > 2 else 2)
        if hi > cap:
            cap = 2 * hi
            grown = np.empty(cap, np.int64)
            grown_c = np.empty(cap)
            for j in range(lo):  # element by element: see join_positions
                grown[j] = orders[j]
                grown_c[j] = cums[j]
            orders = grown
            cums = grown_c
        hi = lo + count
        v = end
        for j in range(hi - 1, lo - 1, -1):  # traced back from its end along the parent links
            orders[j] = v
            cums[j] = g[v]
            v = parent[v]
        if pull and count > 0:
            hi = lo + string_pull_in_place(orders[lo:hi], cums[lo:hi], xy, mult, floor, los)
        if direct[i] < np.inf and (hi == lo or part or direct[i] <= cums[hi - 1]):
            # the straight walk wins whenever it costs no more, and whenever nothing whole was found
            hi = lo + 2
            orders[lo] = n
            orders[lo + 1] = n + 1
            cums[lo] = 0.0
            cums[lo + 1] = direct[i]
            st = FOUND
            part = False
        info[4 * i + INFO_STATUS] = st
        info[4 * i + INFO_PARTIAL] = part
        info[4 * i + INFO_END] = hi
    end = info[4 * (m - 1) + INFO_END] if m > 0 else 0
    return orders[:end], cums[:end], info


# --- linking: nearest visible waypoint per angular cone ------------------------------------------


def bucket_grid(p):
    """Points ``p`` (m, 2) in a uniform grid of about two points per cell: (grid, start, items,
    cell) with grid = (x0, y0, cell_size, nx, ny); cell c holds ``items[start[c]:start[c + 1]]``
    (in index order) and ``cell[i]`` is point i's cell.

    numpy, not a kernel: it runs once per graph or query object, and as a kernel it cost about
    1 s of every cold compile. :func:`join_positions` finds a position's cell by the same formula.
    """
    p = np.asarray(p, dtype=np.float64)
    m = p.shape[0]
    if m == 0:
        x0 = y0 = x1 = y1 = 0.0
    else:
        x0, y0 = float(p[:, 0].min()), float(p[:, 1].min())
        x1, y1 = float(p[:, 0].max()), float(p[:, 1].max())
    w = x1 - x0
    h = y1 - y0
    cs = float(np.sqrt(max(w * h, 1e-300) * 2.0 / max(m, 1)))
    cs = max(max(cs, max(w, h) / max(m, 1)), 1e-12)
    nx = int(w / cs) + 1
    ny = int(h / cs) + 1
    # the cell of a point, clamped to the grid (astype truncates toward zero, as int() does)
    cell = (np.clip(((p[:, 1] - y0) / cs).astype(np.int64), 0, ny - 1) * nx
            + np.clip(((p[:, 0] - x0) / cs).astype(np.int64), 0, nx - 1))
    start = np.zeros(nx * ny + 1, np.int64)
    np.cumsum(np.bincount(cell, minlength=nx * ny), out=start[1:])
    items = np.argsort(cell, kind="stable").astype(np.int64)
    grid = np.array([x0, y0, cs, float(nx), float(ny)])
    return grid, start, items, cell


@njit(cache=True)
def join_positions(q, own, p, blocked, dirs, has, k, near, max_candidates, max_distance, pgrid, start, items,
                   taken, pend_d, pend_i, sel_d, sel_i,
                   edges, w_grid, cell_ptr, cell_items, pinches, pinch_grid, pinch_ptr, pinch_items):
    """The points of ``p`` (bucketed by :func:`bucket_grid`) that each origin i, at ``(q[2 i],
    q[2 i + 1])`` (``q`` flat: a (n, 2) array's ``reshape(-1)``, so that :func:`solve_batch` passes its
    start and goal as they lie in a row of ``ends``, with no reshape compiled), joins or links to: ``own[i]`` is the point the origin is (a waypoint linking to others), or -1 for a
    free position (a start or goal joining the graph).

    Visiting the points around the origin in order of distance, it keeps the visible ones that
    two rules choose:

    - every visible one among the ``near`` nearest, and for a free position, when none of those
      is visible, every visible one however far (so a position whose nearest visible waypoint
      sits on a graph island still joins the farther ones that may lead on);
    - with ``k`` > 0, the nearest visible one in each of ``k`` equal angular cones whose link is
      taut at both ends (see the cone test below), looking at up to ``max_candidates`` points; a point
      is tested only while its cone is empty, and the search stops once every cone is filled
      (with ``near`` = 0 and ``own`` = every point: the cone links, a Yao graph of the
      visibility graph).

    With ``near`` < 0 (and ``k`` = 0) each origin keeps only its nearest visible point, however
    far. Blocked points (and origins) and points farther than ``max_distance`` are never chosen. The
    ring-by-ring walk of the bucket grid only looks as far as the rules need. ``taken`` (>= k),
    ``pend_*`` and ``sel_*`` (>= len(p)) are scratch arrays the caller keeps. Returns (counts per
    origin, point indices origin by origin (nearest first), their distances).
    """
    first = near < 0  # only the nearest visible one
    if first:
        near = 1
    n_q = q.shape[0] // 2
    m = p.shape[0]
    counts = np.empty(n_q, np.int64)
    for i in range(n_q):
        counts[i] = 0
    cap = n_q * (min(near, m) + k) + 8
    out = np.empty(cap, np.int64)
    out_d = np.empty(cap)
    n_out = 0
    for i in range(n_q):
        if cap - n_out < m:  # "search on" may find up to every point (then the output grows)
            # element by element: a slice assignment pulls in numba's shape-mismatch error
            # formatting (string kernels, about 2 s of every cold compile)
            grown = np.empty(n_out + m + cap, np.int64)
            grown_d = np.empty(n_out + m + cap)
            for j in range(n_out):
                grown[j] = out[j]
                grown_d[j] = out_d[j]
            out = grown
            out_d = grown_d
            cap = n_out + m + cap
        was = n_out
        ux = q[2 * i]
        uy = q[2 * i + 1]
        u = own[i]
        if u >= 0 and blocked[u]:
            continue
        search_on = u < 0
        x0, y0, cs = pgrid[0], pgrid[1], pgrid[2]
        nx = int(pgrid[3])
        ny = int(pgrid[4])
        cx = min(max(int((ux - x0) / cs), 0), nx - 1)  # the origin's cell, as in bucket_grid
        cy = min(max(int((uy - y0) / cs), 0), ny - 1)
        for t in range(k):  # element by element: a slice assignment compiles more code
            taken[t] = False
        width = 2.0 * np.pi / max(k, 1)
        filled = 0
        found = 0
        tested = 0
        n_pend = 0
        r = 0
        # rings beyond this reach cover no cell of the grid
        r_max = max(max(cx, nx - 1 - cx), max(cy, ny - 1 - cy))
        wide = False  # ``search_on`` and none of the ``near`` nearest was visible: test every point
        done = False
        while not done and r <= r_max:
            wide = wide or (search_on and found == 0 and tested >= near)
            if not (tested < near or wide) and (k == 0 or filled >= k or tested >= max_candidates):
                break
            for iy in range(cy - r, cy + r + 1):
                if iy < 0 or iy >= ny:
                    continue
                step = 1 if (iy == cy - r or iy == cy + r) else 2 * r
                ix = cx - r
                while ix <= cx + r:
                    if 0 <= ix < nx:
                        c = iy * nx + ix
                        for t in range(start[c], start[c + 1]):
                            v = items[t]
                            if v == u or blocked[v]:
                                continue
                            d = np.sqrt((p[v, 0] - ux) ** 2 + (p[v, 1] - uy) ** 2)
                            if d <= max_distance:
                                pend_d[n_pend] = d
                                pend_i[n_pend] = v
                                n_pend += 1
                    ix += step
            # a point no farther than r cells' width lies in rings 0..r: those candidates are final
            safe = r * cs if r < r_max else np.inf
            rest = 0
            n_sel = 0
            for t in range(n_pend):
                if pend_d[t] <= safe:
                    sel_d[n_sel] = pend_d[t]
                    sel_i[n_sel] = pend_i[t]
                    n_sel += 1
                else:
                    pend_d[rest] = pend_d[t]
                    pend_i[rest] = pend_i[t]
                    rest += 1
            n_pend = rest
            if n_sel > 0:
                # by distance; ties keep the bucket scan order (deterministic for a given point set).
                # A stable sort written out (numba's argsort(kind="mergesort") costs 1.6 s of every
                # cold compile): runs of 16 by insertion, then bottom-up merges through the free tail
                # of ``pend_*`` (n_pend + n_sel <= len(p))
                for lo in range(0, n_sel, 16):
                    for t in range(lo + 1, min(lo + 16, n_sel)):
                        kd = sel_d[t]
                        ki = sel_i[t]
                        j = t - 1
                        while j >= lo and sel_d[j] > kd:
                            sel_d[j + 1] = sel_d[j]
                            sel_i[j + 1] = sel_i[j]
                            j -= 1
                        sel_d[j + 1] = kd
                        sel_i[j + 1] = ki
                run = 16
                while run < n_sel:
                    for lo in range(0, n_sel, 2 * run):
                        mid = min(lo + run, n_sel)
                        hi = min(lo + 2 * run, n_sel)
                        if mid >= hi or sel_d[mid - 1] <= sel_d[mid]:
                            continue  # already in order
                        ia = lo
                        ib = mid
                        for t in range(hi - lo):
                            if ib >= hi or (ia < mid and sel_d[ia] <= sel_d[ib]):
                                pend_d[n_pend + t] = sel_d[ia]
                                pend_i[n_pend + t] = sel_i[ia]
                                ia += 1
                            else:
                                pend_d[n_pend + t] = sel_d[ib]
                                pend_i[n_pend + t] = sel_i[ib]
                                ib += 1
                        for t in range(hi - lo):
                            sel_d[lo + t] = pend_d[n_pend + t]
                            sel_i[lo + t] = pend_i[n_pend + t]
                    run *= 2
                for o in range(n_sel):
                    wide = wide or (search_on and found == 0 and tested >= near)
                    every = tested < near or wide
                    if not every and (k == 0 or filled >= k or tested >= max_candidates):
                        done = True
                        break
                    v = sel_i[o]
                    tested += 1
                    dx = p[v, 0] - ux
                    dy = p[v, 1] - uy
                    a = 0
                    cone = False
                    if k > 0:
                        a = min(max(int((np.arctan2(dy, dx) + np.pi) / width), 0), k - 1)
                        # a link is taut at a corner w when the line keeps both of w's obstacle
                        # edges (dirs[w] = the two edge directions) on one side: only such a line
                        # can bend around w on a shortest path (the test is the same for the
                        # direction reversed); nodes without corner data (has False) pass
                        cone = not taken[a]
                        for w in (u, v):
                            if cone and w >= 0 and has[w]:
                                c1 = dx * dirs[w, 1] - dy * dirs[w, 0]
                                c2 = dx * dirs[w, 3] - dy * dirs[w, 2]
                                cone = (c1 >= 0.0 and c2 >= 0.0) or (c1 <= 0.0 and c2 <= 0.0)
                    if not every and not cone:
                        continue
                    if segment_free(ux, uy, p[v, 0], p[v, 1], edges, w_grid, cell_ptr, cell_items,
                                    pinches, pinch_grid, pinch_ptr, pinch_items):
                        out[n_out] = v
                        out_d[n_out] = sel_d[o]
                        n_out += 1
                        found += 1
                        if first:
                            done = True
                            break
                        if cone:
                            taken[a] = True
                            filled += 1
            if safe >= max_distance:
                break
            r += 1
        counts[i] = n_out - was
    return counts, out[:n_out], out_d[:n_out]


plain_arguments(globals())
