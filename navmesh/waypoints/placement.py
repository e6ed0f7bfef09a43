"""Generated waypoints: the walkable region, obstacle corners and open-area fill for an agent radius."""

from __future__ import annotations

import math

import numpy as np
import shapely
from numpy.typing import NDArray

from navmesh._checks import check_nonneg_float, check_option
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    describe,
)
from navmesh.geometry import Join, ring_edges
from navmesh.predicates import orient
from navmesh.sight import LineOfSight
from navmesh.level import Level
from navmesh.waypoints.options import JOINS

__all__ = ["corner_waypoints", "fill_waypoints", "walkable_region"]

#: Most lattice points :func:`fill_waypoints` makes before keeping those in the walkable region.
MAX_FILL_POINTS = 50_000_000




# -- walkable region and generated waypoints ---------------------------------------------------
def walkable_region(level: Level, *, agent_radius: float = 0.0, join: Join = "mitre") -> shapely.Geometry:
    """The walkable region W for an agent: eroded bounds minus the union of inflated obstacles.

    Parameters
    ----------
    level : Level
    agent_radius : float
        Agent radius in world units, >= 0.
    join : {"mitre", "round"}
        Corner shape of the inflation (see :func:`navmesh.geometry.inflate`).

    Returns
    -------
    shapely Polygon or MultiPolygon
        Rings oriented with W on their left (exterior counter-clockwise); may be empty.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 4), (6, 4), (6, 6), (4, 6)]])
    >>> walkable_region(level).area, round(walkable_region(level, agent_radius=1).area, 3)
    (96.0, 48.686)
    """
    los = line_of_sight_for(level, agent_radius, join)
    return free_space(los)


def line_of_sight_for(level: Level, agent_radius: float, join: str) -> LineOfSight:
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
    r = check_nonneg_float("agent_radius", agent_radius, allow_none=False)
    check_option("join", join, JOINS)
    return level.line_of_sight(agent_radius=r, join=join)


def free_space(los: LineOfSight) -> shapely.Geometry:
    area = los.eroded_bounds
    if area is None:
        raise InvalidGeometryError("the line of sight has no bounds; a level always has bounds")
    if los.inflated:
        area = shapely.difference(area, shapely.union_all(np.asarray(los.inflated, dtype=object)))
    return shapely.orient_polygons(area)


def corner_points(los: LineOfSight) -> NDArray[np.float64]:
    """Wall corners where the free space is wider than a half-turn, and an agent can stand.

    These are the convex corners of the inflated obstacles and the concave corners of the walkable
    area (a wall corner turning right, the free side being on the left: an exact orientation
    test), leaving out obstacle corners on the walkable area's edge, plus the pinch points that
    have a wide free wedge (the only points there where a shortest path can turn; see the
    line-of-sight rule in :mod:`navmesh.sight`).
    """
    obst, _ = ring_edges(los.inflated, free_inside=False)
    area, _ = ring_edges([] if los.eroded_bounds is None else [los.eroded_bounds], free_inside=True)
    found = []
    for rows, own_edge in ((obst, True), (area, False)):
        rows = rows[orient(rows[:, 4:6], rows[:, 0:2], rows[:, 2:4]) < 0]
        pts = rows[:, :2]
        if own_edge and len(pts) and los.eroded_bounds is not None:
            pts = pts[~shapely.intersects_xy(los.eroded_bounds.boundary, pts[:, 0], pts[:, 1])]
        found.append(pts)
    if len(los.pinch_points):
        # a pinch point is judged by its wedges, not by the corners of the rings meeting there
        pinch = {tuple(p) for p in los.pinch_points.tolist()}
        found = [f[np.array([tuple(p) not in pinch for p in f.tolist()], dtype=bool).reshape(-1)] for f in found]
        found.append(los.pinch_points[los.pinch_wide >= 0])
    out = np.concatenate(found)
    if len(out) == 0:
        return np.zeros((0, 2))
    out = np.unique(out, axis=0)
    return out[los.walkable(out)]


def corner_waypoints(level: Level, *, agent_radius: float = 0.0, join: Join = "mitre") -> NDArray[np.float64]:
    """Waypoints at the convex corners of the inflated obstacles (and the concave corners of the bounds).

    These are the convex corners of the obstacles grown by ``agent_radius`` (one or two per
    corner with ``join="mitre"``; the corners themselves with radius 0) and the concave corners
    of the walkable area, where an agent can stand: corners inside another obstacle or on the
    edge of the walkable area are left out. Shortest paths around polygons bend only at such
    corners, so linking all mutually visible corners (``k=None``) gives true shortest paths.

    Parameters
    ----------
    level : Level
    agent_radius : float
        Agent radius in world units, >= 0.
    join : {"mitre", "round"}
        Corner shape of the inflation; ``"round"`` gives several corners per obstacle corner.

    Returns
    -------
    float array of shape (c, 2)
        Corner positions, sorted by x then y, no duplicates. They lie on obstacle boundaries.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 4), (6, 4), (6, 6), (4, 6)]])
    >>> corner_waypoints(level).tolist()
    [[4.0, 4.0], [4.0, 6.0], [6.0, 4.0], [6.0, 6.0]]
    >>> len(corner_waypoints(level, agent_radius=1.0))   # mitre with limit 1: two per corner
    8
    """
    return corner_points(line_of_sight_for(level, agent_radius, join))


def fill_waypoints(
    level: Level,
    spacing: float,
    *,
    agent_radius: float = 0.0,
    join: Join = "mitre",
    clearance: float | None = None,
) -> NDArray[np.float64]:
    """Waypoints on a square lattice over the open parts of the walkable region.

    Parameters
    ----------
    level : Level
    spacing : float
        Lattice spacing in world units, > 0. The lattice is aligned to the bounds' lower-left
        corner plus half a spacing.
    agent_radius, join
        As for :func:`corner_waypoints`.
    clearance : float, optional
        Keep only lattice points at least this far from W's boundary (walls and bounds), >= 0.
        Default ``spacing / 2``: open areas get points, narrow places are left to corner waypoints.

    Returns
    -------
    float array of shape (f, 2)
        Sorted by x then y.

    Examples
    --------
    >>> fill_waypoints(Level.rectangle(40, 20), 10.0).tolist()
    [[5.0, 5.0], [5.0, 15.0], [15.0, 5.0], [15.0, 15.0], [25.0, 5.0], [25.0, 15.0], [35.0, 5.0], [35.0, 15.0]]
    >>> len(fill_waypoints(Level.rectangle(40, 20), 10.0, clearance=6.0))
    0
    """
    s = check_nonneg_float("spacing", spacing, allow_none=False)
    if s <= 0:
        raise InvalidOptionError(f"spacing={describe(spacing)} is not valid; expected a number > 0")
    c = s / 2 if clearance is None else check_nonneg_float("clearance", clearance, allow_none=False)
    free = free_space(line_of_sight_for(level, agent_radius, join))
    if free.is_empty:
        return np.zeros((0, 2))
    x0, y0, x1, y1 = free.bounds
    # count the lattice before making it: np.arange holds ceil((stop - start) / step) values
    per_row = max((x1 - x0 - s / 2) / s, 0.0)
    per_column = max((y1 - y0 - s / 2) / s, 0.0)
    fits = max(per_row, per_column) <= MAX_FILL_POINTS  # also keeps math.ceil away from inf
    count = math.ceil(per_row) * math.ceil(per_column) if fits else math.inf
    if count > MAX_FILL_POINTS:
        raise InvalidOptionError(
            f"spacing={s:g} makes more than {MAX_FILL_POINTS} lattice points over the level; use a larger spacing"
        )
    xs = np.arange(x0 + s / 2, x1, s)
    ys = np.arange(y0 + s / 2, y1, s)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    if not len(pts):
        return np.zeros((0, 2))
    shapely.prepare(free)
    inside = shapely.contains_xy(free, pts[:, 0], pts[:, 1])
    pts = pts[inside]
    if c > 0 and len(pts):
        far = shapely.distance(free.boundary, shapely.points(pts)) >= c
        pts = pts[far]
    return pts[np.lexsort((pts[:, 1], pts[:, 0]))]
