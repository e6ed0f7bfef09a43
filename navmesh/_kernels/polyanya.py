"""Polyanya: exact Euclidean shortest paths on a mesh of convex polygons (numba kernels).

Cui, Harabor and Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017.
A search node is an *interval* [L, R] on an edge of the polygon it leads into, with a *root*:
the last turning point (the start, or a mesh vertex touching a wall) from which the whole
interval is visible. Left and right are as seen from the root looking through the interval.
Expanding a node projects the root through the interval onto the other edges of the polygon:

- *observable* successors: the parts of those edges inside the cone root-L-R keep the root;
- *non-observable* successors: the parts right of the ray root->R (left of root->L) are seen
  only by turning at R (L), allowed when R (L) is the edge's vertex and that vertex is a corner;
  their root becomes that vertex and g grows by the distance to it;
- a *collinear* node (the root on the line of its interval) turns at the nearer end, if that
  is a corner vertex (or is the root itself), and sees the whole polygon from there.

f = g + h, where h is the length of the shortest way root -> interval -> goal (the goal mirrored
through the interval's line when it lies on the root's side). Root pruning: a node whose root
vertex was reached before with a smaller g (by more than ``eps``) is dropped. Intermediate
pruning: a lone successor is expanded at once, off the heap. The first node
popped whose polygon contains the goal ends the search: its f is the length of a real path and
no open node can do better.

Dead ends: polygons of the dead-end forest (:func:`dead_ends`) are entered only on the way
from a start or to a goal inside them. When every start and goal polygon lies in one dead-end
branch the corridor between them is unique, and the funnel algorithm through it gives the exact
path without a search (mazes: the whole mesh is one such tree). Expanding a node in a live
polygon that no dead-end branch of this search touches visits only its edges to live polygons,
going from one to the next with the mesh's skip section (staircase walls on grid maps leave big
polygons with many edges to walls and to small dead-end triangles: on lak303d 7.3 edges per
expansion, 1.4 of them to live polygons).

Every search operation goes through the one entry kernel :func:`search` (one compiled call tree);
the dead-end forest is made once per query object by :func:`dead_ends`, outside that tree.

No kernel here allocates or returns an array, so they are compiled without numba's reference
counting (``_nrt=False``): the sections they slice out of the packed arrays are views the caller
keeps alive for the call, and counting their references (an atomic add at each slice and call,
about a hundred per search) was a third of the kernel time of a short query. Every kernel of
the module must keep that rule: a kernel with reference counting that called one of these, or
the other way round, and passed an array back would miscount.

Mesh arrays (see :class:`navmesh.polymesh.mesh.PolyMesh`): ``xy`` (V + E, 2): the V vertices,
then each slot's vertex again (row V + e for slot e: a polygon's corners side by side in memory,
read without going through ``indices`` in the expansion's inner loop), ``indptr``, ``indices``
(vertex per slot), ``nbr`` (polygon across each slot's edge, -1 when there is none or it is
closed to the unit), ``twins`` (the slot of that edge in the neighbour), ``owner`` (polygon of
each slot), ``corner`` (V,), ``open_poly`` (P,) polygons a unit may enter. Slot e's edge runs from ``indices[e]`` to the polygon's next
vertex; entering a polygon through slot e, its left end is ``indices[e]`` and its right end
the next vertex.
"""

from __future__ import annotations

import math

import numpy as np

from navmesh._checks import MAX_COORDINATE
from navmesh._kernels.heap import heap_pop, heap_push
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND

NEED_SPACE = 3  # the node pool is full: grow the workspace and run again


@njit(cache=True, internal=True, _nrt=False)
def _orient(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


@njit(cache=True, internal=True, _nrt=False)
def _dist(dx, dy):
    # coordinates are at most MAX_COORDINATE (1e15), so the squares cannot overflow; libm's
    # hypot guards against that at several times the cost
    return math.sqrt(dx * dx + dy * dy)


@njit(cache=True, internal=True, _nrt=False)
def h_value(rx, ry, lx, ly, qx, qy, gx, gy):
    """Length of the shortest way from root r through the segment [L, Q] to the goal g."""
    if (rx == lx and ry == ly) or (rx == qx and ry == qy):
        return _dist(gx - rx, gy - ry)
    sr = _orient(lx, ly, qx, qy, rx, ry)
    sg = _orient(lx, ly, qx, qy, gx, gy)
    if sr == 0.0 and sg == 0.0:  # everything on one line
        return min(_dist(lx - rx, ly - ry) + _dist(gx - lx, gy - ly), _dist(qx - rx, qy - ry) + _dist(gx - qx, gy - qy))
    if sr * sg > 0.0:  # same side: mirror the goal through the line
        dx = qx - lx
        dy = qy - ly
        k = 2.0 * sg / (dx * dx + dy * dy)
        gx = gx + k * dy
        gy = gy - k * dx
    o1 = _orient(rx, ry, gx, gy, lx, ly)
    o2 = _orient(rx, ry, gx, gy, qx, qy)
    if (o1 <= 0.0 <= o2) or (o2 <= 0.0 <= o1):
        if sr != 0.0 or (o1 == 0.0 and o2 == 0.0):
            return _dist(gx - rx, gy - ry)
        # root on the interval's line: straight only when it lies on the interval
        if (lx - rx) * (qx - rx) + (ly - ry) * (qy - ry) <= 0.0:
            return _dist(gx - rx, gy - ry)
    # around an end of the interval (its square roots only here: most nodes see the goal straight)
    return min(_dist(lx - rx, ly - ry) + _dist(gx - lx, gy - ly), _dist(qx - rx, qy - ry) + _dist(gx - qx, gy - qy))


# -- packed arrays ----------------------------------------------------------------------------
# One call per query: numba unboxes every array argument on each call (about a microsecond
# each), so the mesh travels as one int64 array and the workspace as one int64 and one float64
# array, each with its section offsets in a header (``mi[k]:mi[k + 1]`` is section k).
(M_INDPTR, M_INDICES, M_NBR, M_TWINS, M_OWNER, M_CORNER, M_OPEN, M_DEAD, M_UP, M_DEPTH, M_CELL_PTR, M_CELL_POLYS,
 M_COMPONENT, M_SKIP, M_SECTIONS) = range(15)
# workspace sections: ints in wi (after the header), floats in wf
(W_ROOT, W_SLOT, W_PARENT, W_HEAP, W_ROOT_STAMP, W_MARK, W_START_POLYS, W_GOAL_POLYS, W_OUT_POLYS) = range(9)
(F_INTERVAL, F_G, F_KEYS, F_ROOT_G, F_OUT_POINTS, F_PARAMS) = range(6)
# the header of wi: the stamp, the offsets of the 9 int sections in wi and of the 6 float sections
# in wf, the search state kept between calls (a sliced search pauses and goes on), then the
# request of the next call (see :func:`search`)
S_NODES, S_HEAP, S_EXPANSIONS, S_FINAL, S_LCA, S_N_START, S_N_GOAL = range(18, 25)
R_OP, R_N_START, R_N_GOAL, R_BUDGET = range(25, 29)
_W_HEAD = 29
# the float parameters (section F_PARAMS): the point-location grid (x0, y0, inverse cell size,
# nx, ny), then the root pruning slack
P_GRID, P_EPS, N_PARAMS = 0, 5, 6
NO_BUDGET = 2**62  # "no budget"
LIVE = 2**62  # the mark of a polygon off the dead-end forest: later than every search stamp
# (LIVE + stamp: a live polygon next to a dead-end branch this search may enter: see _begin)
# where an interval's end crosses an edge within this fraction of the edge from one of its vertices,
# it is that vertex: a ray through a corner computed a hair to one side would leave the
# interval's end a hair off the corner, and the search could no longer turn there
T_SNAP = 1e-12
MAX_HITS = 64  # polygons one point may touch (a vertex shared by many polygons)
OFF_MESH = 4  # status: an endpoint lies in no open polygon (the caller applies its endpoint policy)
RUNNING = 5  # begin: the search goes on in run
SHARED = -1  # final "node": start and goal share a polygon
CORRIDOR = -2  # final "node": start and goal in one dead-end tree: the funnel through its one corridor
# operations of the one entry kernel :func:`search`
OP_FIND, OP_BEGIN, OP_RUN, OP_TRACE, OP_LOCATE = range(5)
# a search node's entry in the slot section: the slot it enters its polygon through, plus the
# polygon times 2**32 (one read gives both: the polygon was a second read, through ``owner``,
# on the chain of dependent reads that starts each expansion)
POLY_SHIFT = 32
SLOT_MASK = 2**32 - 1
EDGE_SHIFT = 32  # an edge in the point-location lists: vertex + (next vertex << EDGE_SHIFT)
EDGE_MASK = 2**32 - 1


def pack(sections):
    """One int64 array: a header of ``len(sections) + 1`` offsets, then the sections."""
    sizes = [len(s) for s in sections]
    head = len(sections) + 1
    out = np.empty(head + sum(sizes), np.int64)
    out[0] = head
    np.cumsum(sizes, out=out[1:head])
    out[1:head] += head
    for k, s in enumerate(sections):
        out[out[k]:out[k + 1]] = s
    return out


def workspace(n_vertices, n_polygons, capacity, params):
    """Reusable search arrays for ``capacity`` search nodes: (wi, wf). ``wi[0]`` is the search
    stamp (per-vertex and per-polygon marks are valid only when they equal it, so nothing is
    cleared between searches), then the section offsets, the search state and the request;
    ``params``: the float parameters (``N_PARAMS`` floats: grid, eps)."""
    c = int(capacity)
    ints = [c, c, c, c, n_vertices, n_polygons, MAX_HITS, MAX_HITS, c + 2]
    floats = [4 * c, c, c, n_vertices, 2 * (c + 3), N_PARAMS]
    wi = np.zeros(_W_HEAD + sum(ints), np.int64)
    wi[1] = _W_HEAD
    wi[2:11] = _W_HEAD + np.cumsum(ints)
    wi[12:18] = np.cumsum(floats)
    wf = np.zeros(sum(floats), np.float64)
    wf[wi[16]:wi[17]] = params
    request(wi, OP_FIND)
    return wi, wf


def request(wi, op, n_start=-1, n_goal=-1, budget=NO_BUDGET):
    """Write the request of the next :func:`search` call on the workspace ``wi`` (Python side);
    the call puts back the default, a whole OP_FIND that locates both ends, with no budget."""
    wi[R_OP] = op
    wi[R_N_START] = n_start
    wi[R_N_GOAL] = n_goal
    wi[R_BUDGET] = budget


@njit(cache=True, internal=True, _nrt=False)
def _locate(px, py, xy, mi, grid, out):
    """Open polygons whose closed area contains (px, py), written to ``out``; returns their count.

    ``grid`` = (x0, y0, inverse cell size, nx, ny); the mesh's cell lists give, per cell
    (row-major, x fastest), records of the polygons a point of the cell may lie in: the polygon,
    the number of its edges to test, those edges (vertex a and the next vertex b as
    ``a + (b << EDGE_SHIFT)``; :class:`navmesh.polymesh.locate.BucketGrid`).
    """
    cell_ptr = mi[mi[M_CELL_PTR]:mi[M_CELL_PTR + 1]]
    cell_polys = mi[mi[M_CELL_POLYS]:mi[M_CELL_POLYS + 1]]
    open_poly = mi[mi[M_OPEN]:mi[M_OPEN + 1]]
    nx = int(grid[3])
    ny = int(grid[4])
    if nx == 0:
        return 0
    cx = int(math.floor((px - grid[0]) * grid[2]))
    cy = int(math.floor((py - grid[1]) * grid[2]))
    if cx < 0 or cy < 0 or cx >= nx or cy >= ny:
        return 0
    c = cy * nx + cx
    count = 0
    k = cell_ptr[c]
    end = cell_ptr[c + 1]
    while k < end:
        p = cell_polys[k]
        lo = k + 2
        k = lo + cell_polys[k + 1]
        if not open_poly[p]:
            continue
        inside = True
        for j in range(lo, k):
            a = cell_polys[j] & EDGE_MASK
            b = cell_polys[j] >> EDGE_SHIFT
            if _orient(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], px, py) < 0.0:
                inside = False
                break
        if inside and count < len(out):
            out[count] = p
            count += 1
    return count


def dead_ends(mi, deg, queue):
    """Fill the dead-end sections (dead / up / depth) and the skip section of the packed mesh
    ``mi`` in place; run once per query object (not part of :func:`search`'s call tree).
    ``deg`` and ``queue``: int64 scratch arrays of one entry per polygon, zeros. The peeling is the
    kernel :func:`_peel`; the counting before it and the skip section after it are numpy (a
    smaller kernel to compile on the way to a first mesh query)."""
    # The dead-end forest, written to the mesh's dead / up / depth sections: polygons peeled off
    # by repeatedly removing open polygons with at most one open neighbour left (neighbours counted
    # once however many edges they share), for each its neighbour towards the rest (``up[3p]``, -1
    # for the last of a component), the portal to it (``up[3p + 1]`` / ``up[3p + 2]``: its left /
    # right vertex seen from p, stored beside the link so that a corridor walk reads one place
    # per polygon) and its number of steps up to the top of its branch (``depth``). A shortest
    # path enters such a branch only to reach a goal inside it, and leaves it only from a start
    # inside it, always through ``up``; inside one branch the way between two polygons is unique.
    indptr, nbr, open_poly = (mi[mi[k]:mi[k + 1]] for k in (M_INDPTR, M_NBR, M_OPEN))
    dead, up, depth, skip = (mi[mi[k]:mi[k + 1]] for k in (M_DEAD, M_UP, M_DEPTH, M_SKIP))
    n = len(indptr) - 1
    owner = np.repeat(np.arange(n), np.diff(indptr))  # each slot's polygon
    lo = indptr[:-1][owner]
    hi = indptr[1:][owner]
    slots = np.arange(len(owner))
    before = np.where(slots > lo, slots - 1, hi - 1)
    linked = (nbr >= 0) & (open_poly[np.maximum(nbr, 0)] != 0)  # an edge to an open polygon
    # the edges a polygon shares with one neighbour are consecutive: count the first
    first = linked & ((hi - lo < 2) | (nbr[before] != nbr)) & (open_poly[owner] != 0)
    deg[:] = np.bincount(owner[first], minlength=n)
    leaves = np.flatnonzero((open_poly != 0) & (deg <= 1))
    dead[:] = 0
    up[:] = -1
    depth[:] = 0
    queue[:len(leaves)] = leaves
    dead[leaves] = 2  # queued
    _peel(mi, deg, queue, len(leaves))
    # each slot's next slot round its polygon (itself after a whole turn) whose edge leads to a
    # live polygon (-1: none): an expansion in a live polygon steps over walls and dead ends at
    # once, and finds its first edge from the slot it entered through alone (that read does not
    # wait for the polygon's range in indptr)
    live = np.flatnonzero(linked & (dead[np.maximum(nbr, 0)] == 0))
    skip[:] = -1
    if len(live):
        after = live[np.minimum(np.searchsorted(live, slots, side="right"), len(live) - 1)]
        round_start = live[np.minimum(np.searchsorted(live, lo), len(live) - 1)]  # its polygon's first
        skip[:] = np.where((after > slots) & (after < hi), after,
                           np.where((round_start >= lo) & (round_start < hi), round_start, -1))


@njit(cache=True, _nrt=False)
def _peel(mi, deg, queue, tail):
    """The peeling of :func:`dead_ends`: the ``tail`` polygons first in ``queue`` (marked queued
    in the dead section), each polygon's count of open neighbours in ``deg``."""
    indices = mi[mi[M_INDICES]:mi[M_INDICES + 1]]
    indptr = mi[mi[M_INDPTR]:mi[M_INDPTR + 1]]
    nbr = mi[mi[M_NBR]:mi[M_NBR + 1]]
    open_poly = mi[mi[M_OPEN]:mi[M_OPEN + 1]]
    dead = mi[mi[M_DEAD]:mi[M_DEAD + 1]]
    up = mi[mi[M_UP]:mi[M_UP + 1]]
    depth = mi[mi[M_DEPTH]:mi[M_DEPTH + 1]]
    head = 0
    while head < tail:
        p = queue[head]
        head += 1
        dead[p] = 1
        lo = indptr[p]
        hi = indptr[p + 1]
        for e in range(lo, hi):
            q = nbr[e]
            if q >= 0 and open_poly[q] and dead[q] != 1 and nbr[e - 1 if e > lo else hi - 1] != q:
                up[3 * p] = q
                # the portal: the edges p shares with q are one straight run of its slots, e..b
                # (e starts the run: the slot before it leads elsewhere)
                b = e
                while nbr[b + 1 if b + 1 < hi else lo] == q and (b + 1 if b + 1 < hi else lo) != e:
                    b = b + 1 if b + 1 < hi else lo
                up[3 * p + 1] = indices[b + 1 if b + 1 < hi else lo]
                up[3 * p + 2] = indices[e]
                deg[q] -= 1
                if deg[q] <= 1 and dead[q] == 0:
                    queue[tail] = q
                    tail += 1
                    dead[q] = 2
    for k in range(tail - 1, -1, -1):  # a polygon's way up is peeled after it: tops first
        p = queue[k]
        q = up[3 * p]
        depth[p] = depth[q] + 1 if q >= 0 and dead[q] else 0


@njit(cache=True, _nrt=False)
def search(xy, mi, wi, wf, out_pts, out_polys, sx, sy, gx, gy):
    """The one entry of the Polyanya kernels: on the packed mesh ``mi`` with the workspace (wi, wf),
    the operation of the request in the workspace's header (:func:`request`; by default a whole
    OP_FIND that locates both ends, with no budget: the hot call of a game passes only arrays and
    the two points, as numba unboxes each argument on every call). Returns (status, at, points,
    polygons, expansions, length).

    - OP_FIND: the whole search from (sx, sy) to (gx, gy). The request's ``n_start`` /
      ``n_goal``: how many start / goal polygons the caller wrote to the workspace's sections,
      or -1 to locate the point here. With FOUND the path's turning points (start ... goal) are
      the first ``points`` rows of the workspace's point section and the polygons crossed the
      first ``polygons`` entries of its polygon section; they are also copied to the output
      block when it has room: rows ``at ..`` of ``out_pts`` (flat x, y pairs) and entries
      ``1 + at ..`` of ``out_polys``, whose entry 0 counts the rows used (``at`` = -1: no room);
      OFF_MESH when an endpoint lies in no open polygon; EXHAUSTED; BUDGET after the request's
      ``budget`` expansions; NEED_SPACE when the node pool is full (grow the workspace and call
      again).
    - OP_BEGIN: start a search (the polygons given); status FOUND (no expansion needed: go on
      with OP_TRACE), RUNNING (go on with OP_RUN) or NEED_SPACE.
    - OP_RUN: expand nodes until a goal polygon, an empty heap or ``budget`` expansions in
      total; status FOUND (OP_TRACE next), EXHAUSTED, BUDGET (call again with a larger budget:
      the search goes on exactly where it stopped) or NEED_SPACE (begin again with more room).
    - OP_TRACE: write the path of a FOUND search (as OP_FIND).
    - OP_LOCATE: the open polygons containing (sx, sy), written to the start section; status =
      their count.
    """
    op = wi[R_OP]
    n_start = wi[R_N_START]
    n_goal = wi[R_N_GOAL]
    budget = wi[R_BUDGET]
    wi[R_OP] = OP_FIND
    wi[R_N_START] = -1
    wi[R_N_GOAL] = -1
    wi[R_BUDGET] = NO_BUDGET
    # the workspace's sections used here (offsets in its header: ints in wi, floats in wf); the
    # search kernels slice their own (each array argument of a call is 7 words on the stack)
    start_polys, goal_polys = wi[wi[1 + W_START_POLYS]:wi[2 + W_START_POLYS]], wi[wi[1 + W_GOAL_POLYS]:wi[2 + W_GOAL_POLYS]]
    grid = wf[wi[11 + F_PARAMS] + P_GRID:wi[11 + F_PARAMS] + P_EPS]
    if op == OP_LOCATE or op == OP_FIND:
        # a point that is not a valid position (NaN, infinite, beyond MAX_COORDINATE) is off the
        # mesh here; the caller's checks name the error (find_path's hot call leaves them to this)
        if not (abs(sx) <= MAX_COORDINATE and abs(sy) <= MAX_COORDINATE and abs(gx) <= MAX_COORDINATE
                and abs(gy) <= MAX_COORDINATE):
            return OFF_MESH if op == OP_FIND else 0, -1, 0, 0, 0, 0.0
        for k in range(2 if op == OP_FIND else 1):  # one call site of _locate: the start, then the goal
            if op == OP_LOCATE or (n_start if k == 0 else n_goal) < 0:
                c = _locate(sx if k == 0 else gx, sy if k == 0 else gy, xy, mi, grid,
                            start_polys if k == 0 else goal_polys)
                if k == 0:
                    n_start = c
                else:
                    n_goal = c
        if op == OP_LOCATE:
            return n_start, -1, 0, 0, 0, 0.0
        if n_start == 0 or n_goal == 0:
            return OFF_MESH, -1, 0, 0, 0, 0.0
        comp = mi[mi[M_COMPONENT]:mi[M_COMPONENT + 1]]
        apart = True
        for i in range(n_start):
            for j in range(n_goal):
                if comp[start_polys[i]] == comp[goal_polys[j]]:
                    apart = False
        if apart:
            return EXHAUSTED, -1, 0, 0, 0, 0.0
    if op == OP_FIND or op == OP_BEGIN:
        wi[S_N_START] = n_start
        wi[S_N_GOAL] = n_goal
        status = _begin(xy, mi, wi, wf, sx, sy, gx, gy, budget)
        if op == OP_BEGIN or status != RUNNING:
            if op == OP_BEGIN or status != FOUND:
                return status, -1, 0, 0, wi[S_EXPANSIONS], 0.0
            op = OP_TRACE
    if op == OP_FIND or op == OP_RUN:
        status = _run(xy, mi, wi, wf, sx, sy, gx, gy, budget)
        if status != FOUND or op == OP_RUN:
            return status, -1, 0, 0, wi[S_EXPANSIONS], 0.0
    # OP_TRACE
    final = wi[S_FINAL]
    out_polys_ws = wi[wi[1 + W_OUT_POLYS]:wi[2 + W_OUT_POLYS]]
    pts = wf[wi[11 + F_OUT_POINTS]:wi[12 + F_OUT_POINTS]]
    if final == CORRIDOR:
        n_pts, n_polys = _funnel(xy, mi, wi[S_LCA], start_polys[:wi[S_N_START]], goal_polys[:wi[S_N_GOAL]],
                                 out_polys_ws, wf[wi[11 + F_INTERVAL]:wi[12 + F_INTERVAL]], pts, sx, sy, gx, gy)
    else:
        n_pts, n_polys = _trace(xy, mi, wi, wf, final, sx, sy, gx, gy)
    # drop points equal to the one before (a root on the start, a turn on a root)
    keep = 1
    for j in range(1, n_pts):
        if pts[2 * j] != pts[2 * keep - 2] or pts[2 * j + 1] != pts[2 * keep - 1]:
            pts[2 * keep] = pts[2 * j]
            pts[2 * keep + 1] = pts[2 * j + 1]
            keep += 1
    if keep == 1:  # start == goal: a path of two equal points
        pts[2] = pts[0]
        pts[3] = pts[1]
        keep = 2
    length = 0.0
    for k in range(1, keep):
        length += _dist(pts[2 * k] - pts[2 * k - 2], pts[2 * k + 1] - pts[2 * k - 1])
    # the output block: the path's own memory (one copy here, none in Python)
    at = out_polys[0]
    rows = max(keep, n_polys)
    if at + rows > len(out_polys) - 1 or 2 * (at + rows) > len(out_pts):
        return FOUND, -1, keep, n_polys, wi[S_EXPANSIONS], length
    out_polys[0] = at + rows
    for k in range(2 * keep):
        out_pts[2 * at + k] = pts[k]
    for k in range(n_polys):
        out_polys[1 + at + k] = out_polys_ws[k]
    return FOUND, at, keep, n_polys, wi[S_EXPANSIONS], length


@njit(cache=True, internal=True, _nrt=False)
def _begin(xy, mi, wi, wf, sx, sy, gx, gy, budget):
    """Start a search with a new stamp from the start and goal polygons of the workspace (wi, wf):
    mark the dead-end polygons it may enter and store the start's nodes; the state goes to the
    workspace's header. Returns FOUND (a start polygon is a goal polygon, or both ends lie in one
    dead-end branch: the final node is SHARED or CORRIDOR), NEED_SPACE, or RUNNING."""
    nroot, nslot, npar, vals = wi[wi[1]:wi[2]], wi[wi[2]:wi[3]], wi[wi[3]:wi[4]], wi[wi[4]:wi[5]]
    mark = wi[wi[1 + W_MARK]:wi[2 + W_MARK]]
    start_polys = wi[wi[1 + W_START_POLYS]:wi[1 + W_START_POLYS] + wi[S_N_START]]
    goal_polys = wi[wi[1 + W_GOAL_POLYS]:wi[1 + W_GOAL_POLYS] + wi[S_N_GOAL]]
    nint, ng, keys = wf[wi[11]:wi[12]], wf[wi[12]:wi[13]], wf[wi[13]:wi[14]]
    indptr = mi[mi[M_INDPTR]:mi[M_INDPTR + 1]]
    indices = mi[mi[M_INDICES]:mi[M_INDICES + 1]]
    nbr = mi[mi[M_NBR]:mi[M_NBR + 1]]
    twins = mi[mi[M_TWINS]:mi[M_TWINS + 1]]
    open_poly = mi[mi[M_OPEN]:mi[M_OPEN + 1]]
    dead = mi[mi[M_DEAD]:mi[M_DEAD + 1]]
    up = mi[mi[M_UP]:mi[M_UP + 1]]
    depth = mi[mi[M_DEPTH]:mi[M_DEPTH + 1]]
    wi[0] += 1
    stamp = wi[0]
    if stamp == 1:  # a new workspace: the polygons off the dead-end forest carry a mark valid for every search
        for p in range(len(dead)):
            mark[p] = 0 if dead[p] else LIVE
    wi[S_NODES] = 0
    wi[S_HEAP] = 0
    wi[S_EXPANSIONS] = 0
    wi[S_FINAL] = -1
    for i in range(len(start_polys)):
        for j in range(len(goal_polys)):
            if start_polys[i] == goal_polys[j]:
                wi[S_FINAL] = SHARED
                wi[wi[1 + W_OUT_POLYS]] = start_polys[i]  # for the trace
                return FOUND
    # dead-end branches the search may enter: with every end in one branch, the ways up from
    # each end to their lowest common polygon (the one corridor); otherwise the ways up from
    # each end to the live core
    lca = start_polys[0] if dead[start_polys[0]] else -1
    for k in range(len(start_polys) + len(goal_polys)):
        v = start_polys[k] if k < len(start_polys) else goal_polys[k - len(start_polys)]
        if lca < 0 or not dead[v]:
            lca = -1
            break
        # the lowest common polygon of the two ways up (-1 when their branches differ)
        # (depths counted down by hand: one memory read per step, the link)
        dl = depth[lca]
        dv = depth[v]
        while dl > dv:
            lca = up[3 * lca]
            dl -= 1
        while dv > dl:
            v = up[3 * v]
            dv -= 1
        while lca != v:
            if dl == 0:
                lca = -1
                break
            lca = up[3 * lca]
            v = up[3 * v]
            dl -= 1
    wi[S_LCA] = lca
    steps = 0
    walk = True
    if lca >= 0 and len(start_polys) == 1 and len(goal_polys) == 1:
        # one start and one goal polygon: the corridor's length from the depths, without a walk
        steps = depth[start_polys[0]] + depth[goal_polys[0]] - 2 * depth[lca] + 1
        walk = steps > budget
    if walk:  # mark the branches the search may enter (counting the corridor's polygons)
        steps = 0
        for k in range(len(start_polys) + len(goal_polys)):
            v = start_polys[k] if k < len(start_polys) else goal_polys[k - len(start_polys)]
            while v >= 0 and dead[v] and mark[v] != stamp:
                mark[v] = stamp
                steps += 1
                u = up[3 * v]
                if u >= 0 and not dead[u]:  # the live polygon at the branch's top sees it: no skipping there
                    mark[u] = LIVE + stamp
                v = -1 if v == lca else u
    if lca >= 0 and steps <= budget:
        if steps + 2 > len(nroot):
            return NEED_SPACE
        wi[S_FINAL] = CORRIDOR
        wi[S_EXPANSIONS] = steps
        return FOUND
    n_nodes = 0
    size = 0
    for k in range(len(start_polys)):
        p = start_polys[k]
        lo = indptr[p]
        hi = indptr[p + 1]
        for e in range(lo, hi):
            q = nbr[e]
            if q < 0 or not open_poly[q] or (dead[q] and mark[q] != stamp):
                continue
            a = indices[e]
            b = indices[e + 1] if e + 1 < hi else indices[lo]
            ax, ay, bx, by = xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1]
            if (_orient(ax, ay, bx, by, sx, sy) == 0.0 and min(ax, bx) <= sx <= max(ax, bx)
                    and min(ay, by) <= sy <= max(ay, by)):
                continue  # the start lies on this edge
            # a node rooted at the start (no root pruning: that is for vertex roots, see _run)
            if n_nodes >= len(nroot):
                return NEED_SPACE
            nroot[n_nodes] = -1
            nslot[n_nodes] = twins[e] + (q << POLY_SHIFT)
            nint[4 * n_nodes] = bx
            nint[4 * n_nodes + 1] = by
            nint[4 * n_nodes + 2] = ax
            nint[4 * n_nodes + 3] = ay
            ng[n_nodes] = 0.0
            npar[n_nodes] = -1
            size = heap_push(keys, vals, size, h_value(sx, sy, bx, by, ax, ay, gx, gy), n_nodes)  # f = 0 + h
            n_nodes += 1
    wi[S_NODES] = n_nodes
    wi[S_HEAP] = size
    return RUNNING


@njit(cache=True, internal=True, _nrt=False)
def _run(xy, mi, wi, wf, sx, sy, gx, gy, budget):
    """Expand nodes until a goal polygon, an empty heap, or the expansions reaching ``budget`` (a
    total, not a count for this call); the state is read from and written back to the
    workspace's header. The node in hand (``S_FINAL`` >= 0 after BUDGET) is expanded first: a
    call with a larger budget goes on exactly where the last one stopped, in the same order as
    one call (sliced searches). After FOUND ``S_FINAL`` is the final node; NEED_SPACE leaves a
    half-expanded node: begin again with more room.
    """
    nroot, nslot, npar, vals = wi[wi[1]:wi[2]], wi[wi[2]:wi[3]], wi[wi[3]:wi[4]], wi[wi[4]:wi[5]]
    root_stamp, mark = wi[wi[1 + W_ROOT_STAMP]:wi[2 + W_ROOT_STAMP]], wi[wi[1 + W_MARK]:wi[2 + W_MARK]]
    goal_polys = wi[wi[1 + W_GOAL_POLYS]:wi[1 + W_GOAL_POLYS] + wi[S_N_GOAL]]
    nint, ng, keys, root_g = wf[wi[11]:wi[12]], wf[wi[12]:wi[13]], wf[wi[13]:wi[14]], wf[wi[14]:wi[15]]
    eps = wf[wi[11 + F_PARAMS] + P_EPS]
    stamp = wi[0]
    n_nodes = wi[S_NODES]
    size = wi[S_HEAP]
    expansions = wi[S_EXPANSIONS]
    i = wi[S_FINAL]
    indptr = mi[mi[M_INDPTR]:mi[M_INDPTR + 1]]
    indices = mi[mi[M_INDICES]:mi[M_INDICES + 1]]
    nbr = mi[mi[M_NBR]:mi[M_NBR + 1]]
    twins = mi[mi[M_TWINS]:mi[M_TWINS + 1]]
    corner = mi[mi[M_CORNER]:mi[M_CORNER + 1]]
    skip = mi[mi[M_SKIP]:mi[M_SKIP + 1]]
    nv = len(corner)
    status = EXHAUSTED
    while True:
        if i < 0:  # take the best open node
            if size == 0:
                i = -1
                break
            f, i, size = heap_pop(keys, vals, size)
            root = nroot[i]
            if root >= 0 and root_stamp[root] == stamp and root_g[root] + eps < ng[i]:
                i = -1
                continue
            p = nslot[i] >> POLY_SHIFT
            found = False
            for j in range(len(goal_polys)):
                if goal_polys[j] == p:
                    found = True
            if found:
                status = FOUND
                break
        if expansions >= budget:
            status = BUDGET
            break
        expansions += 1
        first = n_nodes
        # -- expand node i: store its successors (written here, not in a function of its own: a
        # call per expansion with a dozen array arguments costs more than the work on a small polygon)
        root = nroot[i]
        g = ng[i]
        e0 = nslot[i] & SLOT_MASK
        p = nslot[i] >> POLY_SHIFT
        rx = xy[root, 0] if root >= 0 else sx
        ry = xy[root, 1] if root >= 0 else sy
        lx = nint[4 * i]
        ly = nint[4 * i + 1]
        qx = nint[4 * i + 2]
        qy = nint[4 * i + 3]
        lo = indptr[p]
        hi = indptr[p + 1]
        e1 = e0 + 1 if e0 + 1 < hi else lo
        e = e1
        va = indices[e0]  # left vertex
        vb = indices[e1]  # right vertex
        collinear = _orient(rx, ry, qx, qy, lx, ly) <= 0.0
        # collinear: turn at the nearer end (if possible) and see the whole polygon from there
        new_root = root
        new_g = g
        if collinear:
            dl = _dist(lx - rx, ly - ry)
            dq = _dist(qx - rx, qy - ry)
            d, ex, ey, v = (dl, lx, ly, va) if dl <= dq else (dq, qx, qy, vb)
            if d > 0.0:
                if not (ex == xy[nv + (e0 if v == va else e1), 0] and ey == xy[nv + (e0 if v == va else e1), 1]
                        and corner[v]):
                    e = e0  # no successor
                new_root = v
                new_g = g + d
        # the ends' coordinates from the slots' own rows (beside the ones the loop reads)
        can_right = qx == xy[nv + e1, 0] and qy == xy[nv + e1, 1] and corner[vb]
        can_left = lx == xy[nv + e0, 0] and ly == xy[nv + e0, 1] and corner[va]
        # orientations of each chain vertex against both rays, carried from edge to edge
        srb = 0.0
        slb = 0.0
        at = -1  # the slot whose vertex srb / slb belong to (none yet)
        # a live polygon no dead end of this search touches: only its edges to live polygons can
        # have successors, and ``skip`` goes from one to the next (e0 is one of them)
        fast = mark[p] >= LIVE and mark[p] != LIVE + stamp
        if fast and e != e0:  # (e0: a collinear node that cannot turn has no successor)
            e = skip[e0]
        while e != e0 and n_nodes >= 0:
            en = e + 1 if e + 1 < hi else lo
            ax = xy[nv + e, 0]  # the slots' own rows: the polygon's corners lie side by side
            ay = xy[nv + e, 1]
            if e == at:
                sra = srb
                sla = slb
            else:
                sra = _orient(rx, ry, qx, qy, ax, ay)
                sla = _orient(rx, ry, lx, ly, ax, ay)
            bx = xy[nv + en, 0]
            by = xy[nv + en, 1]
            srb = _orient(rx, ry, qx, qy, bx, by)
            slb = _orient(rx, ry, lx, ly, bx, by)
            at = en
            q = nbr[e]
            if q >= 0 and mark[q] >= stamp:  # open, and live or a dead end this search may enter
                # [0, tr): right of the ray root->R; (tl, 1]: left of root->L. Going round a
                # convex polygon the chain crosses each ray at most once, right to left; an edge
                # lying on a ray is observable.
                if sra >= 0.0 and srb >= 0.0:
                    tr = 0.0
                elif sra <= 0.0 and srb <= 0.0:
                    tr = 1.0
                else:
                    tr = sra / (sra - srb) if sra < 0.0 else 0.0
                    tr = 0.0 if tr < T_SNAP else 1.0 if tr > 1.0 - T_SNAP else tr
                if sla <= 0.0 and slb <= 0.0:
                    tl = 1.0
                elif sla >= 0.0 and slb >= 0.0:
                    tl = 0.0
                else:
                    tl = sla / (sla - slb) if sla < 0.0 else 1.0
                    tl = 0.0 if tl < T_SNAP else 1.0 if tl > 1.0 - T_SNAP else tl
                if tl < tr:
                    tl = tr
                dx = bx - ax
                dy = by - ay
                if tr > 0.0:
                    px_r = ax + tr * dx if tr < 1.0 else bx
                    py_r = ay + tr * dy if tr < 1.0 else by
                else:
                    px_r = ax
                    py_r = ay
                if tl < 1.0:
                    px_l = ax + tl * dx if tl > 0.0 else ax
                    py_l = ay + tl * dy if tl > 0.0 else ay
                else:
                    px_l = bx
                    py_l = by
                # up to three successors on this edge: the observable part (or, collinear, the
                # whole edge from the turn), the part seen by turning at R, the part seen by
                # turning at L; one store below for all
                for kind in range(1 if collinear else 3):
                    if collinear:
                        n_lx, n_ly, n_rx, n_ry, n_root, n_g = bx, by, ax, ay, new_root, new_g
                    elif kind == 0:
                        if not tl > tr:
                            continue
                        n_lx, n_ly, n_rx, n_ry, n_root, n_g = px_l, py_l, px_r, py_r, root, g
                    elif kind == 1:
                        if not (can_right and tr > 0.0):
                            continue
                        n_lx, n_ly, n_rx, n_ry, n_root, n_g = px_r, py_r, ax, ay, vb, g + _dist(qx - rx, qy - ry)
                    else:
                        if not (can_left and tl < 1.0):
                            continue
                        n_lx, n_ly, n_rx, n_ry, n_root, n_g = bx, by, px_l, py_l, va, g + _dist(lx - rx, ly - ry)
                    # store the node unless its root vertex is known with a smaller g (root-level
                    # pruning; the start's nodes have no vertex root); n_nodes -1: the pool is full
                    if n_root >= 0:
                        if root_stamp[n_root] == stamp:
                            if root_g[n_root] + eps < n_g:
                                continue
                            if n_g < root_g[n_root]:
                                root_g[n_root] = n_g
                        else:
                            root_stamp[n_root] = stamp
                            root_g[n_root] = n_g
                    if n_nodes >= len(nroot):
                        n_nodes = -1
                        break
                    nroot[n_nodes] = n_root
                    nslot[n_nodes] = twins[e] + (q << POLY_SHIFT)
                    nint[4 * n_nodes] = n_lx
                    nint[4 * n_nodes + 1] = n_ly
                    nint[4 * n_nodes + 2] = n_rx
                    nint[4 * n_nodes + 3] = n_ry
                    ng[n_nodes] = n_g
                    npar[n_nodes] = i
                    n_nodes += 1
            e = skip[e] if fast else en
        if n_nodes < 0:
            status = NEED_SPACE
            n_nodes = 0
            i = -1
            break
        # intermediate pruning: a lone successor outside the goal polygons is expanded at once
        # instead of going through the heap (its f is no smaller; with a new root, one that root
        # pruning would drop when popped later is expanded anyway: more work, the same answer)
        i_next = -1
        if n_nodes == first + 1:
            i_next = first
            p = nslot[first] >> POLY_SHIFT
            for j in range(len(goal_polys)):
                if goal_polys[j] == p:
                    i_next = -1
        if i_next >= 0:
            i = i_next
            continue
        for k in range(first, n_nodes):  # f = g + h, computed here: nodes expanded at once never need it
            rk = nroot[k]
            f = ng[k] + h_value(xy[rk, 0] if rk >= 0 else sx, xy[rk, 1] if rk >= 0 else sy, nint[4 * k],
                                nint[4 * k + 1], nint[4 * k + 2], nint[4 * k + 3], gx, gy)
            size = heap_push(keys, vals, size, f, k)
        i = -1
    wi[S_NODES] = n_nodes
    wi[S_HEAP] = size
    wi[S_EXPANSIONS] = expansions
    wi[S_FINAL] = i
    return status


@njit(cache=True, internal=True, _nrt=False)
def _trace(xy, mi, wi, wf, final, sx, sy, gx, gy):
    """Write the turning points (start ... goal) and the polygons crossed, from the final node
    (SHARED: start and goal share a polygon), to the workspace's output sections (polygons,
    points); returns (points, polygons); :func:`search` drops repeated points and sums the length."""
    nroot, nslot, npar = wi[wi[1]:wi[2]], wi[wi[2]:wi[3]], wi[wi[3]:wi[4]]
    polys, nint, pts = wi[wi[1 + W_OUT_POLYS]:wi[2 + W_OUT_POLYS]], wf[wi[11]:wi[12]], wf[wi[11 + F_OUT_POINTS]:wi[12 + F_OUT_POINTS]]
    nbr = mi[mi[M_NBR]:mi[M_NBR + 1]]
    if final < 0:  # the shared polygon is in polys[0] already (begin)
        pts[0] = sx
        pts[1] = sy
        pts[2] = gx
        pts[3] = gy
        return 2, 1
    # the turn before the goal: straight from the root, or around an end of the interval
    root = nroot[final]
    rx = xy[root, 0] if root >= 0 else sx
    ry = xy[root, 1] if root >= 0 else sy
    lx, ly, qx, qy = nint[4 * final], nint[4 * final + 1], nint[4 * final + 2], nint[4 * final + 3]
    turn = 0  # 0 straight, 1 via L, 2 via R
    side = _orient(rx, ry, qx, qy, lx, ly)
    if side <= 0.0:
        on_interval = side == 0.0 and min(lx, qx) <= rx <= max(lx, qx) and min(ly, qy) <= ry <= max(ly, qy)
        if not ((rx == lx and ry == ly) or (rx == qx and ry == qy) or on_interval):
            via_l = _dist(lx - rx, ly - ry) + _dist(gx - lx, gy - ly)
            via_q = _dist(qx - rx, qy - ry) + _dist(gx - qx, gy - qy)
            turn = 1 if via_l <= via_q else 2
    elif _orient(rx, ry, qx, qy, gx, gy) < 0.0:
        turn = 2
    elif _orient(rx, ry, lx, ly, gx, gy) > 0.0:
        turn = 1
    n_chain = 0
    n_roots = 0
    last = -2
    i = final
    while i >= 0:
        n_chain += 1
        if nroot[i] != last:
            last = nroot[i]
            if last >= 0:
                n_roots += 1
        i = npar[i]
    n_pts = n_roots + 2 + (1 if turn else 0)
    k = n_pts - 1
    pts[2 * k] = gx
    pts[2 * k + 1] = gy
    k -= 1
    if turn:
        pts[2 * k] = lx if turn == 1 else qx
        pts[2 * k + 1] = ly if turn == 1 else qy
        k -= 1
    last = -2
    i = final
    m = n_chain
    first = final
    while i >= 0:
        polys[m] = nslot[i] >> POLY_SHIFT
        m -= 1
        if nroot[i] != last:
            last = nroot[i]
            if last >= 0:
                pts[2 * k] = xy[last, 0]
                pts[2 * k + 1] = xy[last, 1]
                k -= 1
        first = i
        i = npar[i]
    polys[0] = nbr[nslot[first] & SLOT_MASK]
    pts[0] = sx
    pts[1] = sy
    return n_pts, n_chain + 1




@njit(cache=True, internal=True, _nrt=False)
def _funnel(xy, mi, lca, start_polys, goal_polys, polys, portals, pts, sx, sy, gx, gy):
    """The shortest path when every start and goal polygon lies in one dead-end branch: its
    polygons form a tree, so the way from the start polygons to the goal polygons (through their
    lowest common polygon ``lca``) is the only corridor, and string pulling through its portals
    (the funnel algorithm) gives the exact path. ``portals`` (at least 4 x (the corridor + 2)
    floats) receives the portals' left and right ends, (lx, ly, rx, ry) each, as seen from the
    corridor's start. Writes the polygons and the turning points like :func:`_trace`; returns
    (points, polygons)."""
    up = mi[mi[M_UP]:mi[M_UP + 1]]
    depth = mi[mi[M_DEPTH]:mi[M_DEPTH + 1]]
    # the corridor in one walk: up from the first start polygon to lca, then (written from the end
    # backwards) up from the first goal polygon; each polygon but lca brings the portal to its
    # ``up`` (seen from below going up, the other way round going down). Portal k lies between
    # polys[k - 1] and polys[k].
    n_up = depth[start_polys[0]] - depth[lca]
    m = n_up + 1 + depth[goal_polys[0]] - depth[lca]
    v = start_polys[0]
    for k in range(n_up):
        polys[k] = v
        a = up[3 * v + 1]
        b = up[3 * v + 2]
        portals[4 * k + 4] = xy[a, 0]
        portals[4 * k + 5] = xy[a, 1]
        portals[4 * k + 6] = xy[b, 0]
        portals[4 * k + 7] = xy[b, 1]
        v = up[3 * v]
    polys[n_up] = lca
    v = goal_polys[0]
    for k in range(m - 1, n_up, -1):
        polys[k] = v
        a = up[3 * v + 2]
        b = up[3 * v + 1]
        portals[4 * k] = xy[a, 0]
        portals[4 * k + 1] = xy[a, 1]
        portals[4 * k + 2] = xy[b, 0]
        portals[4 * k + 3] = xy[b, 1]
        v = up[3 * v]
    # the start (goal) polygons around the start (goal) point form one connected piece of the
    # tree: the corridor begins at the last of them and ends at the first goal polygon after it
    first = 0
    last = m - 1
    for side in range(2):
        more = True
        while more:
            more = False
            if first + 1 < m if side == 0 else last - 1 > first:
                v = polys[first + 1] if side == 0 else polys[last - 1]
                ends = start_polys if side == 0 else goal_polys
                for j in range(len(ends)):
                    if ends[j] == v:
                        more = True
            if more:
                if side == 0:
                    first += 1
                else:
                    last -= 1
    # the funnel's first and last "portals" are the start and the goal points
    for k in range(2):
        j = 4 * first if k == 0 else 4 * (last + 1)
        portals[j] = sx if k == 0 else gx
        portals[j + 1] = sy if k == 0 else gy
        portals[j + 2] = sx if k == 0 else gx
        portals[j + 3] = sy if k == 0 else gy
    # simple stupid funnel (Mononen): apex, and the funnel's left and right ends
    pts[0] = sx
    pts[1] = sy
    n_pts = 1
    ax, ay = sx, sy
    lx, ly, rx, ry = sx, sy, sx, sy
    ia = first
    il = first
    ir = first
    i = first + 1
    while i <= last + 1:
        plx = portals[4 * i]
        ply = portals[4 * i + 1]
        prx = portals[4 * i + 2]
        pry = portals[4 * i + 3]
        if _orient(ax, ay, plx, ply, prx, pry) == 0.0:
            # the portal seen edge-on (the apex on its line): the path passes its nearer end, or
            # the apex itself when that lies on the portal; the funnel narrows to that point
            if (plx - ax) * (prx - ax) + (ply - ay) * (pry - ay) <= 0.0:
                plx, ply = ax, ay
            elif (plx - ax) * (plx - ax) + (ply - ay) * (ply - ay) > (prx - ax) * (prx - ax) + (pry - ay) * (pry - ay):
                plx, ply = prx, pry
            prx, pry = plx, ply
        if _orient(ax, ay, rx, ry, prx, pry) >= 0.0:  # the right side tightens
            if (ax == rx and ay == ry) or _orient(ax, ay, lx, ly, prx, pry) < 0.0:
                rx, ry, ir = prx, pry, i
            else:  # it crosses the left side: the left end is a turning point
                pts[2 * n_pts] = lx
                pts[2 * n_pts + 1] = ly
                n_pts += 1
                ax, ay, ia = lx, ly, il
                rx, ry, ir = lx, ly, il
                i = ia + 1
                continue
        if _orient(ax, ay, lx, ly, plx, ply) <= 0.0:  # the left side tightens
            if (ax == lx and ay == ly) or _orient(ax, ay, rx, ry, plx, ply) > 0.0:
                lx, ly, il = plx, ply, i
            else:
                pts[2 * n_pts] = rx
                pts[2 * n_pts + 1] = ry
                n_pts += 1
                ax, ay, ia = rx, ry, ir
                lx, ly, il = rx, ry, ir
                i = ia + 1
                continue
        i += 1
    pts[2 * n_pts] = gx
    pts[2 * n_pts + 1] = gy
    if first > 0:
        for j in range(last - first + 1):
            polys[j] = polys[first + j]
    return n_pts + 1, last - first + 1


@njit(cache=True, _nrt=False)
def raycast(xy, mi, sx, sy, ex, ey, start_poly, visited):
    """Walk the segment s->e through the packed mesh ``mi`` from ``start_poly`` (which contains s).

    Returns (hit, t, slot, count): ``hit`` when a wall (an edge to nothing or to a closed
    polygon) stops the walk at fraction ``t`` on edge ``slot``; otherwise t = 1. The polygons
    visited are the first ``count`` entries of ``visited`` (int64, one entry per polygon and one
    more, made by the caller: the kernels allocate nothing, see the module notes).
    """
    indptr = mi[mi[M_INDPTR]:mi[M_INDPTR + 1]]
    indices = mi[mi[M_INDICES]:mi[M_INDICES + 1]]
    nbr = mi[mi[M_NBR]:mi[M_NBR + 1]]
    twins = mi[mi[M_TWINS]:mi[M_TWINS + 1]]
    open_poly = mi[mi[M_OPEN]:mi[M_OPEN + 1]]
    n_poly = len(indptr) - 1
    count = 0
    p = start_poly
    entry = -1
    t_in = 0.0
    for _ in range(n_poly + 1):
        visited[count] = p
        count += 1
        lo = indptr[p]
        hi = indptr[p + 1]
        best_t = 2.0
        best_e = -1
        for e in range(lo, hi):
            if e == entry:
                continue
            a = indices[e]
            b = indices[e + 1] if e + 1 < hi else indices[lo]
            oe = _orient(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], ex, ey)
            if oe >= 0.0:
                continue  # the end is on the inner side of this edge: the walk does not leave here
            os_ = _orient(xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1], sx, sy)
            t = os_ / (os_ - oe)
            if t < best_t:
                best_t = t
                best_e = e
        if best_e < 0:
            return False, 1.0, -1, count
        if best_t < t_in:
            best_t = t_in
        q = nbr[best_e]
        if q < 0 or not open_poly[q]:
            return True, max(best_t, 0.0), best_e, count
        entry = twins[best_e]
        p = q
        t_in = best_t
    return False, 1.0, -1, count


plain_arguments(globals())
