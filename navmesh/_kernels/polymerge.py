"""Hertel-Mehlhorn merging of a polygon soup into convex polygons (numba).

Polygons are CSR arrays (``indptr``, ``indices``) with each edge's twin slot; the kernel removes
shared edges whenever both polygons of an edge have the same tag and the union stays convex (no
reflex corner at either end of the removed edge; 180-degree corners are allowed), and returns the
merged polygons in the same CSR form. Hertel and Mehlhorn (1983) show that this leaves at most
four times the minimum number of convex pieces, in any order.

The order: first the edges between two polygons of the *live core* (the polygons left after
peeling off, again and again, those with at most one neighbour: what remains lies on cycles
around holes), longest first; then every other edge, longest first. Polyanya enters the
dead-end branches peeled off only when a start or goal lies in them, so its cost grows with
the live core: merging the core first spends the room a vertex's angle leaves for merges on
the core, not on dead-end notches (lak303d: 321 -> 302 live polygons, 415 -> 398 expansions
per query, with 2% more polygons in all).
"""

from __future__ import annotations

import math

import numpy as np

from navmesh._kernels.signatures import njit, plain_arguments


@njit(cache=True, internal=True)
def _find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def merge_convex(xy, indptr, indices, twins, tags):
    """Merge polygons across shared edges while they stay convex; returns (indptr, indices, tags).

    The shared edges are ordered here (module notes: live core first, then longest first) with
    numpy's stable sort (a sort compiled into the kernel costs more than a second of compile time)."""
    indptr = np.asarray(indptr, np.int64)
    indices = np.asarray(indices, np.int64)
    twins = np.asarray(twins, np.int64)
    nxt = _next_slots(indptr, len(indices))
    cand = np.flatnonzero(twins > np.arange(len(twins)))
    d = xy[indices[nxt[cand]]] - xy[indices[cand]]
    owner = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    live = live_core(indptr, twins, owner)
    dead_end = ~(live[owner[cand]] & live[owner[twins[cand]]])
    order = cand[np.lexsort((-(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]), dead_end))]
    prv = np.empty_like(nxt)
    prv[nxt] = np.arange(len(nxt))
    out_ptr, out_idx, out_tag, count, pos = _merge(xy, indices, twins, np.asarray(tags, np.int64), order, nxt, prv,
                                                   owner)
    return out_ptr[:count + 1].copy(), out_idx[:pos].copy(), out_tag[:count].copy()


def live_core(indptr, twins, owner):
    """Whether each polygon is in the live core (module notes): polygons with at most one
    neighbour across an edge (``twins[e] >= 0``; a run of edges to one neighbour counts once)
    are peeled off until none is left."""
    n = len(twins)
    slots = np.arange(n)
    lo = indptr[:-1][owner]
    before = np.where(slots > lo, slots - 1, indptr[1:][owner] - 1)
    across = np.where(twins >= 0, owner[np.maximum(twins, 0)], -1)  # the polygon across each slot
    # a run of edges to one neighbour counts at its first slot
    run_start = np.where((across >= 0) & (across[before] != across), across, -1)
    return _peel(indptr, run_start)


@njit(cache=True)
def _peel(indptr, across):
    """The peeling of :func:`live_core`; ``across``: the neighbour at the start of each run of
    slots leading to it, else -1."""
    n_poly = len(indptr) - 1
    deg = np.zeros(n_poly, np.int64)
    for p in range(n_poly):
        for e in range(indptr[p], indptr[p + 1]):
            if across[e] >= 0:
                deg[p] += 1
    live = np.ones(n_poly, np.bool_)
    stack = np.empty(n_poly, np.int64)
    top = 0
    for p in range(n_poly):
        if deg[p] <= 1:
            live[p] = False
            stack[top] = p
            top += 1
    while top > 0:
        top -= 1
        p = stack[top]
        for e in range(indptr[p], indptr[p + 1]):
            q = across[e]
            if q >= 0 and live[q]:
                deg[q] -= 1
                if deg[q] <= 1:
                    live[q] = False
                    stack[top] = q
                    top += 1
    return live


@njit(cache=True)
def _merge(xy, indices, twins, tags, order, nxt, prv, face):
    """The kernel of :func:`merge_convex`: remove the shared edges (a slot of each) in ``order``.
    ``nxt`` / ``prv``: each slot's next / previous slot round its polygon (updated in place as
    polygons merge), ``face``: each slot's polygon. Returns the merged (indptr, indices, tags)
    with room to spare, and the number of polygons and of slots used."""
    n_poly = len(tags)
    n = len(indices)
    alive = np.empty(n, np.bool_)
    seen = np.empty(n, np.bool_)
    for e in range(n):
        alive[e] = True
        seen[e] = False
    parent = np.empty(n_poly, np.int64)
    for p in range(n_poly):
        parent[p] = p
    for k in range(len(order)):
        h = order[k]
        g = twins[h]
        f1 = _find(parent, face[h])
        f2 = _find(parent, face[g])
        if f1 == f2 or tags[f1] != tags[f2]:
            continue
        a = indices[h]
        b = indices[g]
        # corner at a: previous edge of h ends at a, the edge after g leaves a
        u = indices[prv[h]]
        w = indices[nxt[nxt[g]]]
        c1 = (xy[a, 0] - xy[u, 0]) * (xy[w, 1] - xy[u, 1]) - (xy[a, 1] - xy[u, 1]) * (xy[w, 0] - xy[u, 0])
        if c1 < 0.0:
            continue
        u2 = indices[prv[g]]
        w2 = indices[nxt[nxt[h]]]
        c2 = (xy[b, 0] - xy[u2, 0]) * (xy[w2, 1] - xy[u2, 1]) - (xy[b, 1] - xy[u2, 1]) * (xy[w2, 0] - xy[u2, 0])
        if c2 < 0.0:
            continue
        # a collinear (180 degree) corner is fine, a reversal (zero-area spike) is not
        if c1 == 0.0 and ((xy[a, 0] - xy[u, 0]) * (xy[w, 0] - xy[a, 0]) + (xy[a, 1] - xy[u, 1]) * (xy[w, 1] - xy[a, 1])) <= 0.0:
            continue
        if c2 == 0.0 and ((xy[b, 0] - xy[u2, 0]) * (xy[w2, 0] - xy[b, 0]) + (xy[b, 1] - xy[u2, 1]) * (xy[w2, 1] - xy[b, 1])) <= 0.0:
            continue
        ph = prv[h]
        nh = nxt[h]
        pg = prv[g]
        ng = nxt[g]
        nxt[ph] = ng
        prv[ng] = ph
        nxt[pg] = nh
        prv[nh] = pg
        alive[h] = False
        alive[g] = False
        parent[f2] = f1
    # walk the surviving cycles
    out_ptr = np.empty(n_poly + 1, np.int64)
    out_ptr[0] = 0
    out_idx = np.empty(n, np.int64)
    out_tag = np.empty(n_poly, np.int64)
    count = 0
    pos = 0
    for e in range(n):
        if not alive[e] or seen[e]:
            continue
        out_tag[count] = tags[_find(parent, face[e])]
        x = e
        while not seen[x]:
            seen[x] = True
            out_idx[pos] = indices[x]
            pos += 1
            x = nxt[x]
        count += 1
        out_ptr[count] = pos
    return out_ptr, out_idx, out_tag, count, pos



def edge_points(xy, a, b, verts, tol):
    """Pairs (vertex, edge) where vertex ``verts[i]`` lies within ``tol`` of the segment
    ``xy[a[j]] -> xy[b[j]]`` strictly between its ends, with the position ``t`` in (0, 1) along
    it, in the order of ``verts``, then of the edges. Segments are bucketed in a uniform grid of
    about one cell per segment, so the cost is linear for evenly sized segments. Returns (vertex,
    edge, t) arrays.

    numpy, not a kernel: it runs once per build, and its kernel was two seconds of a cold compile.
    """
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    verts = np.asarray(verts, np.int64)
    m = len(a)
    if m == 0 or len(verts) == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float64)
    ax, ay, bx, by = xy[a, 0], xy[a, 1], xy[b, 0], xy[b, 1]
    x0 = min(ax.min(), bx.min()) - tol
    y0 = min(ay.min(), by.min()) - tol
    x1 = max(ax.max(), bx.max())
    y1 = max(ay.max(), by.max())
    size = max(x1 - x0 + tol, y1 - y0 + tol) / max(math.sqrt(m), 1.0)
    if not size > 0.0:
        size = 1.0
    nx = int((x1 + tol - x0) / size) + 1
    ny = int((y1 + tol - y0) / size) + 1
    # each segment's box of cells (widened by tol, clipped to the grid), row by row
    cx0 = np.maximum(((np.minimum(ax, bx) - tol - x0) / size).astype(np.int64), 0)
    cx1 = np.minimum(((np.maximum(ax, bx) + tol - x0) / size).astype(np.int64), nx - 1)
    cy0 = np.maximum(((np.minimum(ay, by) - tol - y0) / size).astype(np.int64), 0)
    cy1 = np.minimum(((np.maximum(ay, by) + tol - y0) / size).astype(np.int64), ny - 1)
    width = np.maximum(cx1 - cx0 + 1, 0)
    seg, k = _expand(width * np.maximum(cy1 - cy0 + 1, 0))
    cell = (cy0[seg] + k // width[seg]) * nx + cx0[seg] + k % width[seg]
    # the cells' segment lists (CSR), each in segment order
    ptr = np.zeros(nx * ny + 1, np.int64)
    np.cumsum(np.bincount(cell, minlength=nx * ny), out=ptr[1:])
    items = seg[np.argsort(cell, kind="stable")]
    # each vertex against the segments of its cell
    px, py = xy[verts, 0], xy[verts, 1]
    cx = ((px - x0) / size).astype(np.int64)
    cy = ((py - y0) / size).astype(np.int64)
    inside = (cx >= 0) & (cy >= 0) & (cx < nx) & (cy < ny)
    c = np.where(inside, cy * nx + cx, 0)
    vi, k = _expand(np.where(inside, ptr[c + 1] - ptr[c], 0))
    j = items[ptr[c[vi]] + k]
    v = verts[vi]
    px, py = px[vi], py[vi]
    ax, ay = ax[j], ay[j]
    dx = bx[j] - ax
    dy = by[j] - ay
    dd = dx * dx + dy * dy
    keep = (a[j] != v) & (b[j] != v) & (dd != 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = ((px - ax) * dx + (py - ay) * dy) / dd
        ex = ax + t * dx - px
        ey = ay + t * dy - py
        keep &= (0.0 < t) & (t < 1.0) & ~(ex * ex + ey * ey > tol * tol)
    return v[keep], j[keep], t[keep]


def _expand(counts):
    """(owner, rank) of each entry when entry i of ``counts`` stands for ``counts[i]`` entries in a
    row: the owner's index and the entry's rank among its owner's."""
    owner = np.repeat(np.arange(len(counts)), counts)
    first = np.cumsum(counts) - counts
    return owner, np.arange(len(owner)) - first[owner]


@njit(cache=True)
def match_slots(indptr, indices, n_vertices):
    """For each slot (the edge from its vertex to the next of its polygon), the first slot running
    the other way along the same edge, and that slot's polygon; -1 for none. Returns (twins,
    neighbours)."""
    n = len(indices)
    n_poly = len(indptr) - 1
    nxt = np.empty(n, np.int64)
    owner = np.empty(n, np.int64)
    for p in range(n_poly):
        for e in range(indptr[p], indptr[p + 1]):
            nxt[e] = e + 1 if e + 1 < indptr[p + 1] else indptr[p]
            owner[e] = p
    # slots grouped by their first vertex (a counting sort keeps slot order inside a group)
    start = np.empty(n_vertices + 1, np.int64)
    for v in range(n_vertices + 1):
        start[v] = 0
    for e in range(n):
        start[indices[e] + 1] += 1
    for v in range(n_vertices):
        start[v + 1] += start[v]
    fill = start[:n_vertices].copy()
    by_vertex = np.empty(n, np.int64)
    for e in range(n):
        by_vertex[fill[indices[e]]] = e
        fill[indices[e]] += 1
    twins = np.empty(n, np.int64)
    nbr = np.empty(n, np.int64)
    for e in range(n):
        twins[e] = -1
        nbr[e] = -1
        a = indices[e]
        b = indices[nxt[e]]
        for k in range(start[b], start[b + 1]):
            f = by_vertex[k]
            if indices[nxt[f]] == a:
                twins[e] = f
                nbr[e] = owner[f]
                break
    return twins, nbr


def _next_slots(indptr, n):
    """The slot after each slot of its polygon (the last wraps to the first), int64 (n,)."""
    nxt = np.arange(1, n + 1, dtype=np.int64)
    if len(indptr) > 1:
        full = np.diff(indptr) > 0
        nxt[indptr[1:][full] - 1] = indptr[:-1][full]
    return nxt


plain_arguments(globals())
