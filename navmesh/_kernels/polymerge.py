"""Hertel-Mehlhorn merging of a polygon soup into convex polygons (numba).

Polygons are CSR arrays (``indptr``, ``indices``) with each edge's twin slot; the kernel removes
shared edges, longest first, whenever both polygons of an edge have the same tag and the union
stays convex (no reflex corner at either end of the removed edge; 180-degree corners are
allowed), and returns the merged polygons in the same CSR form. Hertel and Mehlhorn (1983) show
that this leaves at most four times the minimum number of convex pieces.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from navmesh._kernels.signatures import plain_arguments


@njit(cache=True)
def _find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@njit(cache=True)
def merge_convex(xy, indptr, indices, twins, tags):
    """Merge polygons across shared edges while they stay convex; returns (indptr, indices, tags)."""
    n_poly = len(indptr) - 1
    n = len(indices)
    nxt = np.empty(n, np.int64)
    prv = np.empty(n, np.int64)
    face = np.empty(n, np.int64)
    for p in range(n_poly):
        lo = indptr[p]
        hi = indptr[p + 1]
        for e in range(lo, hi):
            nxt[e] = e + 1 if e + 1 < hi else lo
            prv[e] = e - 1 if e > lo else hi - 1
            face[e] = p
    alive = np.ones(n, np.bool_)
    parent = np.arange(n_poly)
    # shared edges, longest first
    cand = np.empty(n, np.int64)
    length = np.empty(n, np.float64)
    m = 0
    for e in range(n):
        t = twins[e]
        if t > e:
            a = indices[e]
            b = indices[nxt[e]]
            dx = xy[b, 0] - xy[a, 0]
            dy = xy[b, 1] - xy[a, 1]
            cand[m] = e
            length[m] = -(dx * dx + dy * dy)
            m += 1
    order = np.argsort(length[:m], kind="mergesort")
    for k in range(m):
        h = cand[order[k]]
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
    out_ptr = np.zeros(n_poly + 1, np.int64)
    out_idx = np.empty(n, np.int64)
    out_tag = np.empty(n_poly, np.int64)
    seen = np.zeros(n, np.bool_)
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
    return out_ptr[: count + 1].copy(), out_idx[:pos].copy(), out_tag[:count].copy()


plain_arguments(globals())
