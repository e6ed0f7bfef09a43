"""Where a start or goal may lie, and where it moves to: the endpoint policy of every query.

A point within :data:`ENDPOINT_TOLERANCE` times the level's size (:func:`level_size`) of the
walkable region counts as on it; a point farther out, up to :data:`BOUNDS_MARGIN` of the level's
size outside its bounds, moves to the nearest walkable point (:func:`nearest_walkable`); farther
out it is an error.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh.errors import InvalidGeometryError

__all__ = ["ENDPOINT_TOLERANCE", "BOUNDS_MARGIN", "level_size", "endpoint_tolerance", "nearest_walkable"]

#: Relative tolerance of endpoints: a point this close (times the level's size, see
#: :func:`endpoint_tolerance`) to the walkable region counts as on it. Points the library itself
#: computes (path corners, positions interpolated along path legs) may land a few ulps outside
#: the region; they must stay valid starts and goals.
ENDPOINT_TOLERANCE = 1e-9
#: How far outside the level's bounds (times its size) a start or goal may lie and still move to
#: the nearest walkable point; farther out it is an error, never a silent move across the map.
BOUNDS_MARGIN = 0.05

# how far (times the level size) a point is pushed past the region's boundary, tried in turn
_NUDGES = (0.0, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4)
_DIRECTIONS = np.column_stack([np.cos(np.arange(16) * np.pi / 8), np.sin(np.arange(16) * np.pi / 8)])


class Walkability(Protocol):
    """The walkability rule of :func:`nearest_walkable`: a :class:`~navmesh.sight.LineOfSight`,
    or a rule that also keeps a unit type out of terrain it may not enter."""

    def walkable(self, points: NDArray[np.float64]) -> NDArray[np.bool_]: ...


def level_size(box: tuple[float, float, float, float]) -> float:
    """A level's size for relative tolerances: the larger side of its bounding box
    ``(xmin, ymin, xmax, ymax)`` or its largest coordinate, at least 1 (world units)."""
    x0, y0, x1, y1 = box
    return max(1.0, x1 - x0, y1 - y0, abs(x0), abs(y0), abs(x1), abs(y1))


def endpoint_tolerance(bounds: shapely.Geometry) -> float:
    """Distance (world units) within which a point counts as on the walkable region:
    ``ENDPOINT_TOLERANCE`` times :func:`level_size` of ``bounds``."""
    return ENDPOINT_TOLERANCE * level_size(bounds.bounds)


def nearest_walkable(
    los: Walkability, region: shapely.Geometry, points: ArrayLike, *, size: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The nearest walkable point to each point, and how far each one moved.

    Walkable points (``los.walkable``) stay where they are. Each other point moves to the
    nearest point of ``region``'s boundary, pushed just inside where the line of sight agrees
    that it is walkable: first along the way it came, then, if rounding leaves that direction
    undefined or outside (a point a few ulps off an inflated corner), in 16 directions around
    the boundary point, by growing steps from 0 to 1e-4 times ``size``; the walkable candidate
    nearest to the point is taken. A region part too thin for all of that falls back to a point
    inside that part.

    Parameters
    ----------
    los : LineOfSight or Walkability
        The walkability rule (its ``walkable(points)``).
    region : shapely geometry
        The walkable region W of ``los`` (eroded bounds minus inflated obstacles), non-empty.
    points : float array of shape (n, 2)
        Finite world positions.
    size : float
        The level's size (world units), scaling the push steps.

    Returns
    -------
    moved : float array of shape (n, 2)
        Walkable points.
    distance : float array of shape (n,)
        ``|moved - points|`` per row (0 for points that were walkable).

    Raises
    ------
    InvalidGeometryError
        ``region`` is empty (nothing is walkable) or no walkable point was found near a point.
    """
    pts = np.array(points, dtype=np.float64).reshape(-1, 2)
    out = pts.copy()
    bad = np.flatnonzero(~los.walkable(pts)) if len(pts) else np.zeros(0, np.int64)
    if bad.size == 0:
        return out, np.zeros(len(pts))
    if region.is_empty:
        raise InvalidGeometryError("no walkable point exists: the inflated obstacles cover the whole level")
    p = pts[bad]
    boundary = shapely.boundary(region) if region.geom_type != "GeometryCollection" else region
    near = shapely.get_coordinates(shapely.shortest_line(shapely.points(p), boundary))[1::2]
    away = near - p
    norm = np.hypot(away[:, 0], away[:, 1])
    away = np.where(norm[:, None] > 0, away / np.where(norm > 0, norm, 1.0)[:, None], 0.0)
    dirs = np.concatenate([away[:, None, :], np.broadcast_to(_DIRECTIONS, (len(p), 16, 2))], axis=1)  # (m, 17, 2)
    found = np.zeros(len(p), bool)
    best = near.copy()
    for step in _NUDGES:
        todo = np.flatnonzero(~found)
        if todo.size == 0:
            break
        cand = near[todo, None, :] + dirs[todo] * (step * size)
        ok = los.walkable(cand.reshape(-1, 2)).reshape(len(todo), -1)
        dist = np.hypot(*(cand - p[todo, None, :]).transpose(2, 0, 1))
        dist = np.where(ok, dist, np.inf)
        pick = dist.argmin(axis=1)
        hit = np.isfinite(dist[np.arange(len(todo)), pick])
        best[todo[hit]] = cand[hit, pick[hit]]
        found[todo[hit]] = True
    if not found.all():
        for i in np.flatnonzero(~found).tolist():
            parts = shapely.get_parts(region)
            part = parts[int(np.argmin(shapely.distance(parts, shapely.points(p[i]))))]
            inner = np.asarray(shapely.get_coordinates(shapely.point_on_surface(part))[0])
            if los.walkable(inner[None])[0]:
                best[i], found[i] = inner, True
        if not found.all():
            q = p[~found][0].tolist()
            raise InvalidGeometryError(f"point={q}: no walkable point found near it (the walkable region is degenerate there)")
    out[bad] = best
    return out, np.hypot(*(out - pts).T)

