"""Where a unit type may not go: the terrain its cost profile forbids, as one area.

The one rule that turns a profile's ``forbidden`` tags into geometry, shared by the waypoint
planner (:meth:`NavMap.weights` and its joins close what enters the area) and the steering walls
(units slide along its outline). With ``body=True`` the area is grown by the unit radius, so that
a unit's whole body, not only its centre, stays out of the terrain.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from navmesh.geometry import inflate
from navmesh.terrain import CostProfile

__all__ = ["forbidden_area"]


def forbidden_area(
    source: Any, profile: CostProfile | None, radius: float = 0.0, *, body: bool = False
) -> shapely.Geometry | None:
    """The terrain a unit of this type may not enter, or None where there is none.

    With ``body`` False, where its centre may not be (the terrain itself, as the planner counts
    terrain); with ``body`` True, where its centre may not be for its body to stay out of that
    terrain (the terrain grown by ``radius``: :func:`navmesh.geometry.inflate`, round joins, never less than the
    radius).

    The terrain at a point follows the painter's rule of :mod:`navmesh.terrain` (the last region
    containing it wins), so a ford or bridge region painted over water is not water, up to its
    outline included: routes may run along that outline, so without ``body`` the area stops
    ``1e-7`` times the level's size short of it (a unit centre may stand that far into the water
    beside a ford, nowhere else; the kernels' wall tolerance is a thousand times finer). A manual
    link with a surface tag (a ``"bridge"`` or ``"ford|requires:wade"`` link) ignores the terrain
    under it; where the profile may use it (its tag not forbidden, its required capability held)
    a lane along it stays open: the segment buffered by ``max(2 * radius, length / 20)``, wide
    enough for a unit that reaches a route point within one radius. Off-mesh links (teleports,
    ladders) are not walked and open nothing.

    Parameters
    ----------
    source : NavMap, PolyMesh or GridMap
        Anything with a ``level``; a GridMap has no terrain regions (its cell costs apply): always None.
    profile : CostProfile or None
    radius : float
        Unit radius in world units, >= 0 (the lane width, and the growth with ``body``).
    body : bool
        Grow the terrain by the radius (keyword-only; default False).

    Returns
    -------
    shapely geometry or None
    """
    level = getattr(source, "level", None)
    if profile is None or not profile.forbidden or not hasattr(level, "terrain"):
        return None
    x0, y0, x1, y1 = level.bounds.bounds
    # (the margin keeps a centre's route along an allowed region's outline open; a body kept
    # a radius off the terrain has no use for it)
    margin = 0.0 if body and radius > 0 else 1e-7 * max(x1 - x0, y1 - y0)
    area = shapely.Polygon()
    for region in level.terrain:
        if not profile.allows(region.tag):
            area = shapely.union(area, region.polygon)
        elif not area.is_empty:
            grown = shapely.buffer(region.polygon, margin, join_style="mitre") if margin else region.polygon
            area = shapely.difference(area, grown)
    if body and radius > 0 and not area.is_empty:
        # round corners whose chords stay outside the circle: the body never reaches the terrain
        area = shapely.union_all(inflate(shapely.get_parts(area), radius, join="round", quad_segs=8))
    lanes = []
    for lk in level.links:
        if lk.tag and lk.kind != "forbidden" and profile.allows(lk.tag, lk.requires):
            seg = shapely.LineString(np.asarray(level.waypoints)[[lk.a, lk.b], :2])
            lanes.append(seg.buffer(max(2.0 * radius, seg.length / 20.0), cap_style="flat"))
    if lanes:
        area = shapely.difference(area, shapely.union_all(lanes))
    return None if area.is_empty else area
