"""Terrain paths on a :class:`~navmesh.polymesh.mesh.PolyMesh`: a corridor of polygons, then the funnel.

With different multipliers per polygon, :class:`~navmesh.polymesh.query.MeshQuery` searches a
corridor with :func:`corridor_search` and straightens it with :func:`funnel`.
"""

from __future__ import annotations

import heapq
import math

import numpy as np
from numpy.typing import NDArray

from navmesh.polymesh.mesh import PolyMesh

__all__ = ["corridor_search", "funnel"]


def corridor_search(m: PolyMesh, open_poly: NDArray[np.bool_], mult: NDArray[np.float64], edges: NDArray[np.float64],
                    s: NDArray[np.float64], s_polys: NDArray[np.int64], g: NDArray[np.float64],
                    g_polys: NDArray[np.int64]) -> tuple[list[int] | None, int]:
    """A* over the adjacency of the open polygons from the start polygons to a goal polygon,
    each step costing the distance between edge midpoints times the multiplier of the polygon
    it crosses; (the sequence of polygons or None, expansions).

    ``mult``: multiplier per polygon; ``edges``: (E, 2, 2) end points of each slot's edge.
    """
    hmult = float(mult[open_poly].min())
    goals = set(g_polys.tolist())
    best: dict[int, float] = {}
    parent: dict[int, int] = {}
    pos: dict[int, NDArray[np.float64]] = {}
    heap: list[tuple[float, float, int]] = []
    for p in s_polys.tolist():
        best[p] = 0.0
        parent[p] = -1
        pos[p] = s
        heapq.heappush(heap, (hmult * float(np.hypot(*(g - s))), 0.0, p))
    expansions = 0
    while heap:
        f, cost, p = heapq.heappop(heap)
        if cost > best.get(p, math.inf):
            continue
        expansions += 1
        if p in goals:
            chain = [p]
            while parent[chain[-1]] >= 0:
                chain.append(parent[chain[-1]])
            return chain[::-1], expansions
        here = pos[p]
        for e in range(int(m.indptr[p]), int(m.indptr[p + 1])):
            q = int(m.neighbours[e])
            if q < 0 or not open_poly[q]:
                continue
            mid = edges[e].mean(axis=0)
            step = float(np.hypot(*(mid - here))) * float(mult[p])
            if q in goals:
                step += float(np.hypot(*(g - mid))) * float(mult[q])
            c = cost + step
            if c < best.get(q, math.inf):
                best[q] = c
                parent[q] = p
                pos[q] = g if q in goals else mid
                heapq.heappush(heap, (c + (0.0 if q in goals else hmult * float(np.hypot(*(g - mid)))), c, q))
    return None, expansions

def funnel(m: PolyMesh, edges: NDArray[np.float64], s: NDArray[np.float64], g: NDArray[np.float64],
           corridor: list[int]) -> NDArray[np.float64]:
    """The shortest polyline from ``s`` to ``g`` inside the corridor of polygons (string pulling
    through the portals between consecutive polygons, Lee and Preparata's funnel)."""
    portals = [(s, s)]
    for p, q in zip(corridor[:-1], corridor[1:]):
        e = int(m.indptr[p]) + int(np.flatnonzero(m.neighbours[m.indptr[p]:m.indptr[p + 1]] == q)[0])
        a, b = edges[e]
        portals.append((b, a))  # (left, right) seen from inside p looking into q
    portals.append((g, g))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    out = [s]
    apex, left, right = s, portals[0][0], portals[0][1]
    ia = il = ir = 0
    i = 1
    while i < len(portals):
        pl, pr = portals[i]
        if cross(apex, right, pr) >= 0:  # right side tightens
            if np.array_equal(apex, right) or cross(apex, left, pr) < 0:
                right, ir = pr, i
            else:
                out.append(left)
                apex, ia = left, il
                left, right, il, ir = apex, apex, ia, ia
                i = ia + 1
                continue
        if cross(apex, left, pl) <= 0:  # left side tightens
            if np.array_equal(apex, left) or cross(apex, right, pl) > 0:
                left, il = pl, i
            else:
                out.append(right)
                apex, ia = right, ir
                left, right, il, ir = apex, apex, ia, ia
                i = ia + 1
                continue
        i += 1
    if not np.array_equal(out[-1], g):
        out.append(g)
    return np.array(out, dtype=np.float64)
