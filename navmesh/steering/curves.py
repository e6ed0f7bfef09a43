"""Smooth motion along a path: cubic Hermite curves through the waypoints, flattened where they
would leave the walkable area, and polylines sampled by arc length.

A :class:`Curve` holds the waypoints and, per piece (waypoint ``i`` to ``i + 1``), the tangents at
both ends in the piece's own parameter ``u`` in [0, 1]:

``c(u) = h00(u) p_i + h10(u) m0_i + h01(u) p_{i+1} + h11(u) m1_i``

Tangents: ``"catmull_rom"`` (uniform: ``m_i = (p_{i+1} - p_{i-1}) / 2``, one-sided at the ends)
or ``"centripetal"`` (knots spaced by the square root of the chord lengths, Barry-Goldman form;
no cusps or self-intersections within a piece). A tangent longer than its piece's chord is
shortened to it, so a short piece between long ones does not loop. Both pass through every
waypoint with the same tangent direction on both sides of it. A piece that would leave the walkable area has its two
tangents scaled down (by halves, then to zero: the straight segment), so a flattened piece still
starts and ends on its waypoints.

Motion runs along :meth:`Curve.sample`, a dense polyline through the curve that contains every
waypoint; its chord length is the arc length a unit travels, so speed along it is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import check_option
from navmesh.errors import InvalidGeometryError, InvalidOptionError, describe

__all__ = ["TANGENTS", "Curve", "Tangents", "arc_lengths", "hermite_curve", "hermite_tangents", "point_at"]

Tangents = Literal["catmull_rom", "centripetal"]
TANGENTS: tuple[str, ...] = ("catmull_rom", "centripetal")

# flattening factors tried for a piece, the last one is the straight segment
_FLATTEN = (1.0, 0.5, 0.25, 0.125, 0.0)


def as_polyline(points: ArrayLike, name: str = "points") -> NDArray[np.float64]:
    """Finite (n, 2) float64 points (a third column is dropped); consecutive duplicates removed."""
    try:
        p = np.array(points, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise InvalidGeometryError(f"{name}={describe(points)} cannot be read as numbers") from None
    if p.ndim != 2 or p.shape[1] not in (2, 3) or len(p) == 0 or not np.isfinite(p).all():
        raise InvalidGeometryError(f"{name} has shape {p.shape}; expected finite (n, 2) points, n >= 1")
    p = np.ascontiguousarray(p[:, :2])
    keep = np.r_[True, (np.diff(p, axis=0) != 0).any(axis=1)]
    return p[keep]


def hermite_tangents(points: ArrayLike, kind: Tangents = "catmull_rom") -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Tangents at the start and end of each piece, in the piece's own parameter.

    Parameters
    ----------
    points : float array of shape (n, 2), n >= 2
        Waypoints, no two consecutive ones equal.
    kind : {"catmull_rom", "centripetal"}

    Returns
    -------
    (start, end) : float arrays of shape (n - 1, 2)
        ``start[i]`` is ``c_i'(0)``, ``end[i]`` is ``c_i'(1)``. ``end[i]`` and ``start[i + 1]``
        point the same way (equal for ``"catmull_rom"``).

    Examples
    --------
    >>> s, e = hermite_tangents([[0, 0], [1, 0], [1, 1]])
    >>> s.tolist(), e.tolist()
    ([[1.0, 0.0], [0.5, 0.5]], [[0.5, 0.5], [0.0, 1.0]])
    """
    check_option("kind", kind, TANGENTS)
    p = np.asarray(points, dtype=np.float64)
    n = len(p)
    chord = np.diff(p, axis=0)
    if kind == "catmull_rom":
        m = np.empty_like(p)
        m[1:-1] = 0.5 * (p[2:] - p[:-2])
        m[0], m[-1] = chord[0], chord[-1]
        return m[:-1].copy(), m[1:].copy()
    # centripetal: knot spacing sqrt(chord length); tangent per unit knot, scaled per piece
    dt = np.sqrt(np.hypot(chord[:, 0], chord[:, 1]))
    v = chord / dt[:, None]  # mean velocity over each piece in knot units
    m = np.empty_like(p)
    if n > 2:
        w0, w1 = dt[:-1, None], dt[1:, None]
        # derivative at p_i of the quadratic through p_{i-1}, p_i, p_{i+1} (Barry-Goldman)
        m[1:-1] = (w1 * v[:-1] + w0 * v[1:]) / (w0 + w1)
    m[0], m[-1] = v[0], v[-1]
    return m[:-1] * dt[:, None], m[1:] * dt[:, None]


def _basis(u: NDArray[np.float64]) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    u2, u3 = u * u, u * u * u
    return 2 * u3 - 3 * u2 + 1, u3 - 2 * u2 + u, -2 * u3 + 3 * u2, u3 - u2


def _dbasis(u: NDArray[np.float64]) -> tuple[None, NDArray, NDArray, NDArray]:
    u2 = u * u
    return None, 3 * u2 - 4 * u + 1, -6 * u2 + 6 * u, 3 * u2 - 2 * u


@dataclass(frozen=True, eq=False)
class Curve:
    """A piecewise cubic Hermite curve through waypoints.

    Attributes
    ----------
    points : float array of shape (n, 2)
        The waypoints; piece ``i`` runs from ``points[i]`` to ``points[i + 1]``.
    start_tangents, end_tangents : float arrays of shape (n - 1, 2)
        Tangents of each piece at its ends (after flattening), in the piece's parameter.
    flatness : float array of shape (n - 1,)
        Factor applied to each piece's tangents: 1 untouched, 0 the straight segment.
    samples_per_piece : int
        Samples per piece used by :meth:`sample`.
    """

    points: NDArray[np.float64]
    start_tangents: NDArray[np.float64]
    end_tangents: NDArray[np.float64]
    flatness: NDArray[np.float64]
    samples_per_piece: int = 16

    @property
    def n_pieces(self) -> int:
        """Number of pieces (waypoints - 1)."""
        return max(len(self.points) - 1, 0)

    def _piece_u(self, piece: ArrayLike, u: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        i = np.asarray(piece, dtype=np.int64)
        t = np.asarray(u, dtype=np.float64)
        if self.n_pieces == 0:
            raise InvalidGeometryError("a curve through a single point has no pieces")
        if np.any((i < 0) | (i >= self.n_pieces)) or np.any((t < 0) | (t > 1)):
            raise InvalidOptionError(f"piece must be in 0..{self.n_pieces - 1} and u in [0, 1]")
        return np.broadcast_arrays(i, t)

    def evaluate(self, piece: ArrayLike, u: ArrayLike) -> NDArray[np.float64]:
        """Points ``c_piece(u)``: shape (..., 2) for broadcast ``piece`` and ``u``."""
        i, t = self._piece_u(piece, u)
        h = _basis(t)
        return self._combine(i, h)

    def derivative(self, piece: ArrayLike, u: ArrayLike) -> NDArray[np.float64]:
        """Tangent vectors ``c_piece'(u)``, shape (..., 2)."""
        i, t = self._piece_u(piece, u)
        return self._combine(i, _dbasis(t))

    def _combine(self, i: NDArray[np.int64], h: tuple) -> NDArray[np.float64]:
        p0, p1 = self.points[i], self.points[i + 1]
        m0, m1 = self.start_tangents[i], self.end_tangents[i]
        # h00 = 1 - h01 (and h00' = -h01'): written as a step from p0, a flattened piece lies on
        # its segment to the last bit (an axis-aligned one exactly), like a linear interpolation
        out = h[2][..., None] * (p1 - p0) + h[1][..., None] * m0 + h[3][..., None] * m1
        if h[0] is not None:
            out = out + p0
        return out

    def sample(self) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """A dense polyline through the curve.

        Returns
        -------
        points : float array of shape (s * (n - 1) + 1, 2)
            Samples at ``u = k / s`` of every piece (``s = samples_per_piece``); waypoint ``i``
            is exactly ``points[i * s]``.
        waypoint_rows : int array of shape (n,)
            Row of each waypoint in ``points``.
        """
        s = self.samples_per_piece
        if self.n_pieces == 0:
            return self.points.copy(), np.zeros(len(self.points), np.int64)
        u = np.arange(s) / s
        i = np.repeat(np.arange(self.n_pieces), s)
        body = self.evaluate(i, np.tile(u, self.n_pieces))
        out = np.concatenate([body, self.points[-1:]])
        rows = np.arange(len(self.points)) * s
        out[rows] = self.points  # exact waypoints, no rounding
        return out, rows


def hermite_curve(
    points: ArrayLike,
    *,
    tangents: Tangents = "catmull_rom",
    line_of_sight: Any = None,
    samples_per_piece: int = 16,
    start_tangent: ArrayLike | None = None,
) -> Curve:
    """The Hermite curve through ``points``, flattened where it would leave the walkable area.

    Parameters
    ----------
    points : float array of shape (n, 2)
        Waypoints in world units (consecutive duplicates are dropped).
    tangents : {"catmull_rom", "centripetal"}
    line_of_sight : LineOfSight, optional
        Anything with ``blocked(a, b) -> bool array`` for segments (m, 2) -> (m, 2), e.g.
        ``navmap.line_of_sight`` or ``level.line_of_sight(agent_radius=r)``: obstacles inflated by
        the unit radius. Each piece's sampled polyline must be unblocked; otherwise its tangents
        are scaled by 1/2, 1/4, 1/8 and finally 0 (the straight segment, kept even if blocked).
    samples_per_piece : int
        Samples per piece for the check and for motion (>= 2).
    start_tangent : float array of shape (2,), optional
        Direction to leave the first waypoint in (a unit already moving: no kink when it
        re-plans); scaled to the first piece's chord length.

    Returns
    -------
    Curve

    Examples
    --------
    >>> c = hermite_curve([[0, 0], [4, 0], [4, 4]])
    >>> c.evaluate(1, 0.0).tolist(), c.evaluate(0, 1.0).tolist()
    ([4.0, 0.0], [4.0, 0.0])
    """
    p = as_polyline(points)
    if not isinstance(samples_per_piece, (int, np.integer)) or samples_per_piece < 2:
        raise InvalidOptionError(f"samples_per_piece={describe(samples_per_piece)} is not valid; expected an int >= 2")
    s = int(samples_per_piece)
    if len(p) < 2:
        z = np.zeros((0, 2))
        return Curve(p, z, z, np.zeros(0), s)
    m0, m1 = hermite_tangents(p, tangents)
    # a short piece between long ones would get tangents much longer than itself and loop:
    # shorten them to the piece's chord (their directions, so tangent continuity, are kept)
    chord = np.hypot(*np.diff(p, axis=0).T)[:, None]
    for m in (m0, m1):
        norm = np.hypot(*m.T)[:, None]
        np.multiply(m, np.minimum(1.0, chord / np.where(norm > 0, norm, 1.0)), out=m)
    if start_tangent is not None:
        d = np.asarray(start_tangent, dtype=np.float64).ravel()
        if d.shape != (2,) or not np.isfinite(d).all():
            raise InvalidGeometryError(f"start_tangent={describe(start_tangent)} is not two finite numbers")
        norm = float(np.hypot(*d))
        if norm > 0:
            m0[0] = d / norm * float(np.hypot(*(p[1] - p[0])))
    flat = np.ones(len(p) - 1)
    if line_of_sight is not None:
        todo = np.arange(len(p) - 1)
        u = np.arange(s + 1) / s
        for f in _FLATTEN:
            flat[todo] = f
            if f == 0.0 or len(todo) == 0:
                break
            c = Curve(p, m0 * flat[:, None], m1 * flat[:, None], flat, s)
            pts = c.evaluate(todo[:, None], u[None, :])  # (k, s + 1, 2)
            a, b = pts[:, :-1].reshape(-1, 2), pts[:, 1:].reshape(-1, 2)
            bad = np.asarray(line_of_sight.blocked(a, b)).reshape(len(todo), s).any(axis=1)
            todo = todo[bad]
    return Curve(p, m0 * flat[:, None], m1 * flat[:, None], flat, s)


def arc_lengths(polyline: ArrayLike) -> NDArray[np.float64]:
    """Cumulative length along a polyline (n, 2): shape (n,), starting at 0."""
    p = np.asarray(polyline, dtype=np.float64)
    if len(p) == 0:
        return np.zeros(0)
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(p[:, :2], axis=0).T))])


def point_at(polyline: NDArray[np.float64], cum: NDArray[np.float64], s: float) -> tuple[NDArray[np.float64], int]:
    """The point at arc length ``s`` (clamped to [0, length]) and the index of its segment.

    Examples
    --------
    >>> line = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 4.0]])
    >>> p, seg = point_at(line, arc_lengths(line), 5.0)
    >>> p.tolist(), seg
    ([3.0, 2.0], 1)
    """
    n = len(polyline)
    if n == 1 or cum[-1] == 0.0:
        return polyline[-1].copy(), 0
    s = min(max(s, 0.0), float(cum[-1]))
    k = int(np.searchsorted(cum, s, side="right")) - 1
    k = min(max(k, 0), n - 2)
    seg = cum[k + 1] - cum[k]
    t = 0.0 if seg == 0 else (s - cum[k]) / seg
    if s >= cum[-1]:
        return polyline[-1].copy(), n - 2
    return polyline[k] + t * (polyline[k + 1] - polyline[k]), k
