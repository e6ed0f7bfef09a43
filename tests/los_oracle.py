"""An independent, slow, exact line-of-sight oracle and exact any-angle shortest paths for tests.

It shares no code with ``navmesh.sight``, ``navmesh.predicates`` or ``navmesh._kernels.los``: every coordinate becomes
a ``fractions.Fraction``, and the rule of :mod:`navmesh.sight` is checked by its definition,
not by corner-wedge formulas. Along the segment, the points where it meets a wall edge cut it
into open pieces; inside one piece nothing changes, so one probe point decides the piece. At a
cut point and at a probe point the segment's two sides are sampled exactly: points at a rational
distance smaller than the distance to every wall not passing through the point, in one direction
per angular sector between the walls through it, each tested with an exact crossing-number
point-in-polygon test. A side is free of a blocked set when none of its samples lies in it.

Blocked sets are given explicitly: each is a list of polygons (points inside any of them are
blocked) plus, optionally, a walkable area (points outside it are blocked).
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import cmp_to_key

import numpy as np
import shapely
from scipy.sparse import csgraph, csr_array


def _rings(poly):
    return [list(poly.exterior.coords)[:-1]] + [list(r.coords)[:-1] for r in poly.interiors]


class BlockedSet:
    """Polygons whose interiors are blocked, or (``outside=True``) the outside of one polygon."""

    def __init__(self, polygons, outside=False):
        self.outside = outside
        self.rings = []  # per polygon: its rings as Fraction vertex lists
        for p in polygons:
            for part in shapely.get_parts(p):
                self.rings.append([[(F(x), F(y)) for x, y in r] for r in _rings(part)])

    def edges(self):
        for rings in self.rings:
            for r in rings:
                for i in range(len(r)):
                    yield r[i], r[(i + 1) % len(r)]

    def contains(self, pt):
        """Whether a point not on any edge is blocked (exact crossing number)."""
        x, y = pt
        inside_any = False
        for rings in self.rings:
            crossings = 0
            for r in rings:
                for i in range(len(r)):
                    (x0, y0), (x1, y1) = r[i], r[(i + 1) % len(r)]
                    if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                        crossings += 1
            inside_any |= crossings % 2 == 1
        return not inside_any if self.outside else inside_any


def _cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def _half(d):
    return 0 if d[1] > 0 or (d[1] == 0 and d[0] > 0) else 1


def _angle_cmp(u, v):
    if _half(u) != _half(v):
        return _half(u) - _half(v)
    c = _cross(u, v)
    return -1 if c > 0 else (1 if c < 0 else 0)


def in_wedge(d, q, r):
    """Whether direction d lies in the closed wedge swept counter-clockwise from q to r."""
    c_qr, c_qd, c_dr = _cross(q, r), _cross(q, d), _cross(d, r)
    if c_qr > 0:
        return c_qd >= 0 and c_dr >= 0
    if c_qr < 0:
        return c_qd >= 0 or c_dr >= 0
    return c_qd >= 0


def _dist2_point_segment(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    t = min(max(t, F(0)), F(1))
    qx, qy = a[0] + t * dx - p[0], a[1] + t * dy - p[1]
    return qx * qx + qy * qy


def _on_segment(p, a, b):
    if _cross((b[0] - a[0], b[1] - a[1]), (p[0] - a[0], p[1] - a[1])) != 0:
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


class Oracle:
    """Exact visibility under the rule, for one list of blocked sets."""

    def __init__(self, sets):
        self.sets = sets
        self.edges = [e for s in sets for e in s.edges()]
        self._float = np.array([[float(v) for v in (*a, *b)] for a, b in self.edges]).reshape(-1, 4)

    # -- local structure around a point ------------------------------------------------------
    def _near(self, p):
        """Walls through p (exactly), and a squared distance below that of every other wall."""
        x, y = float(p[0]), float(p[1])
        a, b = self._float[:, :2], self._float[:, 2:]
        ab = b - a
        t = np.clip(((x - a[:, 0]) * ab[:, 0] + (y - a[:, 1]) * ab[:, 1]) / (ab ** 2).sum(axis=1), 0, 1)
        dist = np.hypot(a[:, 0] + t * ab[:, 0] - x, a[:, 1] + t * ab[:, 1] - y)
        scale = 1e-9 * max(1.0, abs(x), abs(y))
        through, far = [], []
        for i in np.flatnonzero(dist <= scale):
            e = self.edges[i]
            if _on_segment(p, *e):
                through.append(e)
            else:
                far.append(_dist2_point_segment(p, *e))
        rest = dist[dist > scale]
        if len(rest):
            far.append(F(float(rest.min()) / 2) ** 2)
        return through, (min(far) if far else F(1))

    def _samples(self, p, extra_dirs=()):
        """(directions, [(direction, sample point)]): one sample per angular sector around p
        between the walls through p (and ``extra_dirs``), nearer than every other wall."""
        through, limit = self._near(p)
        dirs = list(extra_dirs)
        for a, b in through:
            for q in (a, b):
                if q != p:
                    dirs.append((q[0] - p[0], q[1] - p[1]))
        dirs.sort(key=cmp_to_key(_angle_cmp))
        uniq = []
        for d in dirs:
            if not uniq or _angle_cmp(d, uniq[-1]) != 0:
                uniq.append(d)
        n = len(uniq)
        if n == 0:
            mids = [(F(1), F(0)), (F(-1), F(1)), (F(-1), F(-1))]
        elif n == 1:
            u = uniq[0]
            mids = [(-u[1], u[0]), (u[1], -u[0]), (-u[0], -u[1])]
        else:
            mids = []
            for i in range(n):
                u, w = uniq[i], uniq[(i + 1) % n]
                c = _cross(u, w)
                if c > 0:
                    mids.append((u[0] + w[0], u[1] + w[1]))
                elif c < 0:
                    mids.append((-(u[0] + w[0]), -(u[1] + w[1])))
                else:
                    mids.append((-u[1], u[0]))
        out = []
        for m in mids:
            n2 = m[0] * m[0] + m[1] * m[1]
            eps = F(1)
            while eps * eps * n2 * 16 >= limit:
                eps /= 2
            out.append((m, (p[0] + eps * m[0], p[1] + eps * m[1])))
        return uniq, out

    def _side_free(self, p, d):
        """Per blocked set: (left side free, right side free) of direction d at p."""
        _, samples = self._samples(p, extra_dirs=[d, (-d[0], -d[1])])
        res = []
        for s in self.sets:
            left = right = True
            for m, q in samples:
                c = _cross(d, m)
                if c != 0 and s.contains(q):
                    if c > 0:
                        left = False
                    else:
                        right = False
            res.append((left, right))
        return res

    def wedges(self, p):
        """The free wedges around p when it is a pinch point (two or more of them), else [] (only
        with one blocked set): pairs (q, r) of directions, the wedge swept counter-clockwise."""
        if len(self.sets) != 1:
            return []
        p = (F(p[0]), F(p[1]))
        uniq, samples = self._samples(p)
        n = len(uniq)
        if n < 2:
            return []
        free = [not self.sets[0].contains(q) for _, q in samples]
        if all(free) or not any(free):
            return []
        wedges = []
        for i in range(n):
            if free[i] and not free[i - 1]:
                j = i
                while free[(j + 1) % n]:
                    j = (j + 1) % n
                wedges.append((uniq[i], uniq[(j + 1) % n]))
        return wedges if len(wedges) >= 2 else []

    def _end_ok(self, p, d):
        """The end rule at p for direction d leaving p: if p is a pinch point with a wide wedge,
        d must lie in it (closed)."""
        wide = [w for w in self.wedges(p) if _cross(*w) < 0]
        return not wide or in_wedge(d, *wide[0])

    # -- the rule ----------------------------------------------------------------------------
    def walkable(self, p):
        p = (F(p[0]), F(p[1]))
        _, samples = self._samples(p)
        return not any(all(s.contains(q) for _, q in samples) for s in self.sets)

    def visible(self, a, b):
        """Whether the segment a-b is visible under the rule of :mod:`navmesh.sight`."""
        a = (F(a[0]), F(a[1]))
        b = (F(b[0]), F(b[1]))
        if not (self.walkable(a) and self.walkable(b)):
            return False
        if a == b:
            return True
        d = (b[0] - a[0], b[1] - a[1])
        dd = d[0] * d[0] + d[1] * d[1]
        ts = {F(0), F(1)}
        lo = np.minimum([float(a[0]), float(a[1])], [float(b[0]), float(b[1])]) - 1e-9
        hi = np.maximum([float(a[0]), float(a[1])], [float(b[0]), float(b[1])]) + 1e-9
        e_lo = np.minimum(self._float[:, :2], self._float[:, 2:])
        e_hi = np.maximum(self._float[:, :2], self._float[:, 2:])
        near = np.flatnonzero(((e_lo <= hi) & (e_hi >= lo)).all(axis=1))
        for i in near:
            p, q = self.edges[i]
            e = (q[0] - p[0], q[1] - p[1])
            den = _cross(d, e)
            ap = (p[0] - a[0], p[1] - a[1])
            if den != 0:
                t = _cross(ap, e) / den
                u = _cross(ap, d) / den
                if 0 <= t <= 1 and 0 <= u <= 1:
                    ts.add(t)
            elif _cross(d, ap) == 0:
                for r in (p, q):
                    t = ((r[0] - a[0]) * d[0] + (r[1] - a[1]) * d[1]) / dd
                    if 0 <= t <= 1:
                        ts.add(t)
        ts = sorted(ts)
        for t in ts[1:-1] + [(s + u) / 2 for s, u in zip(ts, ts[1:])]:
            p = (a[0] + t * d[0], a[1] + t * d[1])
            if not all(left or right for left, right in self._side_free(p, d)):
                return False
        return self._end_ok(a, d) and self._end_ok(b, (-d[0], -d[1]))


def oracle_for(los):
    """The oracle's blocked sets for a :class:`navmesh.sight.LineOfSight`'s shapes: with radius 0
    one set (its merged obstacles ``parts`` and the outside of the bounds); with a radius, one set
    per inflated obstacle plus the outside of the eroded area. (The rule is exact for the shapes
    GEOS returns when it merges overlapping obstacles and inflates them; the oracle takes those
    shapes, nothing else, from the library.)"""
    if los.agent_radius == 0:
        inside = BlockedSet(list(los.parts))
        if los.eroded_bounds is not None:
            return Oracle([_Union(inside, BlockedSet([los.eroded_bounds], outside=True))])
        return Oracle([inside])
    sets = [BlockedSet([p]) for p in los.inflated]
    if los.eroded_bounds is not None:
        sets.append(BlockedSet([los.eroded_bounds], outside=True))
    return Oracle(sets)


class _Union:
    """Two blocked sets as one."""

    def __init__(self, *sets):
        self.parts = sets

    def edges(self):
        for s in self.parts:
            yield from s.edges()

    def contains(self, pt):
        return any(s.contains(pt) for s in self.parts)


def exact_shortest(oracle, vertices, start, goal):
    """Length of the shortest path from start to goal whose legs are oracle-visible segments
    between ``vertices`` (every wall corner), by scipy.sparse.csgraph.dijkstra; inf if none.

    A pinch point becomes one node per free wedge, linked only along directions inside that
    wedge, so a path may turn there but never from one wedge into another."""
    nodes = [(tuple(map(float, start)), None), (tuple(map(float, goal)), None)]
    for v in dict.fromkeys(tuple(map(float, v)) for v in vertices):
        if v in (nodes[0][0], nodes[1][0]):
            continue
        nodes += [(v, w) for w in oracle.wedges(v)] or [(v, None)]
    n = len(nodes)
    rows, cols, w = [], [], []
    seen = {}
    for i in range(n):
        for j in range(i + 1, n):
            (p, wp), (q, wq) = nodes[i], nodes[j]
            if p == q:
                continue
            if (p, q) not in seen:
                seen[p, q] = oracle.visible(p, q)
            if not seen[p, q]:
                continue
            d = (F(q[0]) - F(p[0]), F(q[1]) - F(p[1]))
            if wp is not None and not in_wedge(d, *wp):
                continue
            if wq is not None and not in_wedge((-d[0], -d[1]), *wq):
                continue
            length = float(np.hypot(p[0] - q[0], p[1] - q[1]))
            rows += [i, j]
            cols += [j, i]
            w += [length, length]
    graph = csr_array((w, (rows, cols)), shape=(n, n))
    return float(csgraph.dijkstra(graph, indices=0)[1])
