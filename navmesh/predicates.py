"""Exact geometric predicates: orientation, wedges, segment against wall edge.

Every decision here is the sign of an exact orientation test on the float input coordinates
(Shewchuk's floating-point filter, then ``fractions.Fraction`` arithmetic when the filter cannot
decide) or a comparison of coordinates: no tolerance. :mod:`navmesh.sight` builds the
line-of-sight rule from them; the numba kernels of :mod:`navmesh._kernels.los` repeat them.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cmp_to_key
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "orient",
    "free_wedges",
    "two_corner_wedges",
    "place_on_line",
    "in_wedge",
    "edge_blocks",
    "pairs_blocked",
]


def orient(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> NDArray[np.int8]:
    """Exact sign of the turn ``a -> b -> c`` for arrays of points, vectorised.

    Parameters
    ----------
    a, b, c : float arrays of shape (n, 2)
        Points in world units (finite, well inside +-1e150).

    Returns
    -------
    int8 array of shape (n,)
        1 where ``c`` lies left of the directed line ``a -> b`` (counter-clockwise turn), -1 right,
        0 exactly on it. Decided in floating point when Shewchuk's error bound allows, otherwise
        with exact rational arithmetic (``fractions.Fraction``) on the float inputs.

    Examples
    --------
    >>> orient([[0.2, 1.8]], [[1.8, 0.2]], [[1.0, 1.0]]).tolist()   # the floats miss (1, 1)
    [-1]
    >>> orient([[0, 0]], [[2, 2]], [[1, 1]]).tolist()
    [0]
    """
    pa, pb, pc = (np.asarray(v, dtype=np.float64).reshape(-1, 2) for v in (a, b, c))
    detl = (pa[:, 0] - pc[:, 0]) * (pb[:, 1] - pc[:, 1])
    detr = (pa[:, 1] - pc[:, 1]) * (pb[:, 0] - pc[:, 0])
    det = detl - detr
    out = np.sign(det).astype(np.int8)
    unsure = np.abs(det) <= _ERR_BOUND * (np.abs(detl) + np.abs(detr))
    unsure &= (detl != 0) | (detr != 0)  # a zero factor makes both products exactly zero
    if unsure.any():
        # multiples of 2^-10 below 2^15 (tile levels): differences, products and det are exact floats
        at = np.flatnonzero(unsure)
        scaled = np.c_[pa[at], pb[at], pc[at]] * 1024.0
        unsure[at[((scaled == np.floor(scaled)) & (np.abs(scaled) < 2.0**25)).all(axis=1)]] = False
    for i in np.flatnonzero(unsure):
        ax, ay, bx, by, cx, cy = (Fraction(float(v)) for v in (*pa[i], *pb[i], *pc[i]))
        exact = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
        out[i] = (exact > 0) - (exact < 0)
    return out


_ERR_BOUND = 3.3306690738754716e-16  # Shewchuk's ccwerrboundA, (3 + 16 eps) eps with eps = 2^-53


def _sort_key(d: tuple[Fraction, Fraction]) -> tuple[int, Any]:
    return (0 if d[1] > 0 or (d[1] == 0 and d[0] > 0) else 1, d)


def _angle_order(u: tuple[Fraction, Fraction], v: tuple[Fraction, Fraction]) -> int:
    """Exact comparison of two nonzero directions by angle from +x in [0, 360)."""
    hu, hv = _sort_key(u)[0], _sort_key(v)[0]
    if hu != hv:
        return hu - hv
    c = u[0] * v[1] - u[1] * v[0]
    return -1 if c > 0 else (1 if c < 0 else 0)


def _in_closed_wedge(d: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction], r: tuple[Fraction, Fraction]) -> bool:
    """Whether direction d lies in the closed wedge swept counter-clockwise from q to r."""
    c_qr = q[0] * r[1] - q[1] * r[0]
    c_qd = q[0] * d[1] - q[1] * d[0]
    c_dr = d[0] * r[1] - d[1] * r[0]
    if c_qr > 0:
        return c_qd >= 0 and c_dr >= 0
    if c_qr < 0:
        return c_qd >= 0 or c_dr >= 0
    if q[0] * r[0] + q[1] * r[1] < 0:
        return c_qd >= 0
    return True


def free_wedges(corners: list[tuple[int, NDArray[np.float64], NDArray[np.float64], bool]], point: NDArray[np.float64]
                 ) -> list[tuple[NDArray[np.float64], NDArray[np.float64], bool]]:
    """The free wedges around ``point`` from the wall corners there, exactly.

    ``corners`` holds (group, q, r, vertex): a corner whose free side is swept counter-clockwise
    from ray point->q to ray point->r (``vertex``: a ring vertex, not an edge passing through); group -1 is the walkable area (free where all its corners are free),
    any other group an obstacle (free where any of its corners is free). Returns (q, r, wide)
    per wedge, counter-clockwise from +x; ``wide``: wider than 180 degrees.
    """
    px, py = Fraction(float(point[0])), Fraction(float(point[1]))

    def direction(x: NDArray[np.float64]) -> tuple[Fraction, Fraction]:
        return (Fraction(float(x[0])) - px, Fraction(float(x[1])) - py)

    rays: list[tuple[tuple[Fraction, Fraction], NDArray[np.float64]]] = []
    wedge_of = [(g, direction(q), direction(r)) for g, q, r, _ in corners]
    for _, q, r, _ in corners:
        rays += [(direction(q), q), (direction(r), r)]
    rays.sort(key=cmp_to_key(lambda s, t: _angle_order(s[0], t[0])))
    distinct = [rays[0]]
    for ray in rays[1:]:
        if _angle_order(ray[0], distinct[-1][0]) != 0:
            distinct.append(ray)
    n = len(distinct)
    if n < 2:
        return []

    def free(d: tuple[Fraction, Fraction]) -> bool:
        groups: dict[int, list[bool]] = {}
        for g, q, r in wedge_of:
            groups.setdefault(g, []).append(_in_closed_wedge(d, q, r))
        return all(all(v) if g < 0 else any(v) for g, v in groups.items())

    sector_free = []
    for i in range(n):
        u, w = distinct[i][0], distinct[(i + 1) % n][0]
        c = u[0] * w[1] - u[1] * w[0]
        if c > 0:
            mid = (u[0] + w[0], u[1] + w[1])
        elif c < 0 or u[0] * w[0] + u[1] * w[1] > 0:
            mid = (-(u[0] + w[0]), -(u[1] + w[1]))
        else:
            mid = (-u[1], u[0])  # a half-turn sector: the left normal of u
        sector_free.append(free(mid))
    if all(sector_free) or not any(sector_free):
        return []
    begin = next(i for i in range(n) if sector_free[i] and not sector_free[i - 1])
    wedges = []
    i = begin
    for _ in range(n):
        if sector_free[i] and not sector_free[i - 1]:
            j = i
            while sector_free[(j + 1) % n]:
                j = (j + 1) % n
            q, r = distinct[i], distinct[(j + 1) % n]
            c = q[0][0] * r[0][1] - q[0][1] * r[0][0]
            wedges.append((q[1], r[1], bool(c < 0)))
        i = (i + 1) % n
    wedges.sort(key=cmp_to_key(lambda s, t: _angle_order(direction(s[0]), direction(t[0]))))
    return wedges


def two_corner_wedges(corners: list[tuple[int, NDArray[np.float64], NDArray[np.float64], bool]],
                       point: NDArray[np.float64]) -> list[tuple[NDArray[np.float64], NDArray[np.float64], bool]]:
    """The common pinch quickly: two corners of two different obstacles (tile maps' diagonal
    cells). Their blocked wedges are disjoint, so the free wedges run from each corner's first
    free ray to the other's last: [q1, r2] and [q2, r1]. Anything else: [] (use :func:`free_wedges`)."""
    if len(corners) != 2 or not all(c[3] for c in corners):
        return []
    (g1, q1, r1, _), (g2, q2, r2, _) = corners
    if g1 < 0 or g2 < 0 or g1 == g2:
        return []
    p = np.asarray(point, dtype=np.float64)[None]
    wide = orient(np.repeat(p, 2, axis=0), np.array([q1, q2]), np.array([r2, r1])) < 0
    out = [(q1, r2, bool(wide[0])), (q2, r1, bool(wide[1]))]
    return sorted(out, key=lambda w: math.atan2(w[0][1] - point[1], w[0][0] - point[0]) % (2 * math.pi))



def place_on_line(a: NDArray[np.float64], b: NDArray[np.float64], p: NDArray[np.float64]) -> NDArray[np.int8]:
    """Where points p on the lines a-b lie: 0 at a, 1 strictly between, 2 at b, -1 outside (exact:
    collinear points are ordered by a coordinate that differs between a and b)."""
    axis = np.where(a[:, 0] != b[:, 0], 0, 1)
    rows = np.arange(len(a))
    u, ua, ub = p[rows, axis], a[rows, axis], b[rows, axis]
    out = np.full(len(a), -1, dtype=np.int8)
    out[(np.minimum(ua, ub) < u) & (u < np.maximum(ua, ub))] = 1
    out[u == ub] = 2
    out[u == ua] = 0
    return out


def in_wedge(a: NDArray[np.float64], b: NDArray[np.float64], v: NDArray[np.float64], q: NDArray[np.float64],
              r: NDArray[np.float64], s: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether direction ``s * (b - a)`` from v (a point on the line a-b) lies in the closed wedge
    swept counter-clockwise from ray v->q to ray v->r."""
    c_qr = orient(v, q, r).astype(np.int64)
    c_qd = -s * orient(a, b, q)  # cross(q - v, d): v is on the line a-b
    c_dr = s * orient(a, b, r)
    x = np.where((q[:, 0] != v[:, 0]) | (r[:, 0] != v[:, 0]), 0, 1)
    rows = np.arange(len(v))
    qc, vc, rc = q[rows, x], v[rows, x], r[rows, x]
    opposite = ((qc < vc) & (vc < rc)) | ((rc < vc) & (vc < qc))
    return np.where(
        c_qr > 0, (c_qd >= 0) & (c_dr >= 0),
        np.where(c_qr < 0, (c_qd >= 0) | (c_dr >= 0), np.where(opposite, c_qd >= 0, True)),
    )


def edge_blocks(a: NDArray[np.float64], b: NDArray[np.float64], e: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Per (segment, wall edge) pair: whether that edge or its start corner blocks the segment."""
    p, q, r = e[:, 0:2], e[:, 2:4], e[:, 4:6]
    o1 = orient(a, b, p).astype(np.int64)
    o2 = orient(a, b, q).astype(np.int64)
    out = np.zeros(len(a), dtype=bool)
    cross = np.flatnonzero(o1 * o2 < 0)
    if cross.size:
        o3 = orient(p[cross], q[cross], a[cross]).astype(np.int64)
        o4 = orient(p[cross], q[cross], b[cross]).astype(np.int64)
        out[cross] = (o3 * o4 < 0) | ((o3 == 0) & (o4 < 0)) | ((o4 == 0) & (o3 < 0))
    corner = np.flatnonzero((o1 == 0) & (e[:, 6] == 0))
    if corner.size:
        where = place_on_line(a[corner], b[corner], p[corner])
        args = (a[corner], b[corner], p[corner], q[corner], r[corner])
        ones = np.ones(corner.size, dtype=np.int64)
        bad = (where != 2) & (where >= 0) & ~in_wedge(*args, ones)
        bad |= (where != 0) & (where >= 0) & ~in_wedge(*args, -ones)
        out[corner] = bad
    return out


def _turn(ax: NDArray[np.float64], ay: NDArray[np.float64], bx: NDArray[np.float64], by: NDArray[np.float64],
          cx: NDArray[np.float64], cy: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """:func:`orient`'s floating-point stage: the determinant and where its sign is surely the
    exact one (Shewchuk's filter; never where the determinant is zero)."""
    detl = (ax - cx) * (by - cy)
    detr = (ay - cy) * (bx - cx)
    det = detl - detr
    return det, np.abs(det) > _ERR_BOUND * (np.abs(detl) + np.abs(detr))


def pairs_blocked(a: NDArray[np.float64], b: NDArray[np.float64], edges: NDArray[np.float64],
                  ei: NDArray[np.int64], *, ends_judged: bool = False) -> NDArray[np.bool_]:
    """:func:`edge_blocks` of the pairs (segment ``a[i] -> b[i]``, wall edge ``edges[ei[i]]``).

    The common pairs are decided by the floating-point stage of the orientation tests: when the
    wall edge's ends lie surely on one side of the segment's line, the pair does not block;
    when they lie surely on both sides and the segment's ends surely on both sides of the
    edge's line, it crosses properly and blocks. The other pairs get exact signs: an edge whose
    ends do not lie strictly on both sides of the segment's line, and whose start corner is not
    on the segment, does not block. Only the pairs left (a corner on the segment, or a possible
    crossing) go to :func:`edge_blocks`. Same answers, a fraction of its work.

    ``ends_judged``: the caller has judged the corners at the segments' ends (a segment leaving
    or reaching a corner through its blocked wedge is not passed), so a pair whose edge starts
    at a segment end does not block (it cannot cross the segment; its start corner is judged).
    """
    e = edges[ei, 0:4]
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    px, py, qx, qy = e[:, 0], e[:, 1], e[:, 2], e[:, 3]
    s1, sure1 = _turn(ax, ay, bx, by, px, py)
    s2, ok = _turn(ax, ay, bx, by, qx, qy)
    sure = sure1 & ok
    out = np.zeros(len(a), dtype=bool)
    c = np.flatnonzero(sure & ((s1 > 0) != (s2 > 0)))
    if c.size:
        s3, ok3 = _turn(px[c], py[c], qx[c], qy[c], ax[c], ay[c])
        s4, ok4 = _turn(px[c], py[c], qx[c], qy[c], bx[c], by[c])
        ok3 &= ok4
        out[c[ok3]] = (s3[ok3] > 0) != (s4[ok3] > 0)
        sure[c[~ok3]] = False
    rest = np.flatnonzero(~sure)
    if rest.size:
        # exact signs for the rest: only a corner on the segment or a sign change is left to judge
        ra, rb, rp = a[rest], b[rest], e[rest, 0:2]
        o1 = orient(ra, rb, rp).astype(np.int64)
        o2 = orient(ra, rb, e[rest, 2:4]).astype(np.int64)
        where = place_on_line(ra, rb, rp)
        if ends_judged:
            where[(where == 0) | (where == 2)] = -1
        rest = rest[np.where(o1 == 0, where >= 0, o1 * o2 < 0)]
    if rest.size:
        out[rest] = edge_blocks(a[rest], b[rest], edges[ei[rest]])
    return out
