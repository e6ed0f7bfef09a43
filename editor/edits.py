"""Pure level edits: each takes a ``navmesh.Level`` and returns a new one (levels are immutable).

Every edit goes through the ``Level`` constructor, so an edit that breaks a level rule (a
self-intersecting obstacle, a waypoint inside a wall, a link to a missing waypoint) raises the
library's error and the caller keeps the old level. Waypoint indices are the rows of
``level.waypoints``; deleting a waypoint renumbers the links after it and drops the links that
used it.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from numpy.typing import ArrayLike

import navmesh

Ring = list[tuple[float, float]]


def _ring(coords: Any) -> Ring:
    pts = [(float(x), float(y)) for x, y in np.asarray(coords, dtype=np.float64)[:, :2]]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    return pts


def polygon_rings(poly: shapely.Polygon) -> list[Ring]:
    """Exterior ring then the holes, each as a list of (x, y) without the closing repeat."""
    return [_ring(poly.exterior.coords), *(_ring(r.coords) for r in poly.interiors)]


def make_polygon(rings: Sequence[Sequence[tuple[float, float]]], name: str = "obstacle") -> shapely.Polygon:
    """A polygon from rings (exterior first), not yet validated: the ``Level`` it goes into checks
    it (self-intersection, zero area) and raises ``InvalidGeometryError``."""
    for ring in rings:
        if len(set(map(tuple, ring))) < 3:
            raise navmesh.InvalidGeometryError(f"{name} ring has {len(set(map(tuple, ring)))} distinct corners; "
                                               "a ring needs at least 3")
    return shapely.Polygon(rings[0], rings[1:])


# -- waypoints -------------------------------------------------------------------------------
def add_waypoints(level: navmesh.Level, points: ArrayLike) -> navmesh.Level:
    """The level with waypoints appended (shape (m, 2))."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if level.n_waypoints == 0:
        return level.replace(waypoints=pts)
    return level.replace(waypoints=np.concatenate([level.waypoints[:, :2], pts]))


def move_waypoint(level: navmesh.Level, index: int, point: ArrayLike) -> navmesh.Level:
    """The level with waypoint ``index`` at ``point``."""
    pts = np.array(level.waypoints, dtype=np.float64)
    pts[index, :2] = np.asarray(point, dtype=np.float64)[:2]
    return level.replace(waypoints=pts)


def delete_waypoint(level: navmesh.Level, index: int) -> navmesh.Level:
    """The level without waypoint ``index``; links using it go, later links are renumbered."""
    keep = np.ones(level.n_waypoints, dtype=bool)
    keep[index] = False
    shift = lambda i: i - (i > index)

    def renumber(items: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(
            dataclasses.replace(lk, a=shift(lk.a), b=shift(lk.b)) for lk in items if index not in (lk.a, lk.b)
        )

    pts = level.waypoints[keep]
    return level.replace(
        waypoints=pts if len(pts) else np.zeros((0, 2)),
        links=renumber(level.links),
        offmesh_links=renumber(level.offmesh_links),
    )


# -- polygons (obstacles and terrain) -------------------------------------------------------------
def _set_polygon(level: navmesh.Level, kind: str, index: int, poly: shapely.Polygon) -> navmesh.Level:
    if kind == "obstacle":
        obstacles = list(level.obstacles)
        obstacles[index] = poly
        return level.replace(obstacles=tuple(obstacles))
    terrain: list[Any] = list(level.terrain)
    terrain[index] = (poly, terrain[index].tag)  # a pair, so the Level validates the polygon
    return level.replace(terrain=tuple(terrain))


def get_polygon(level: navmesh.Level, kind: str, index: int) -> shapely.Polygon:
    """Obstacle ``index`` (kind ``"obstacle"``) or terrain region ``index``'s polygon (``"terrain"``)."""
    return level.obstacles[index] if kind == "obstacle" else level.terrain[index].polygon


def add_obstacle(level: navmesh.Level, ring: Sequence[tuple[float, float]]) -> navmesh.Level:
    """The level with a new obstacle outlined by ``ring`` (at least 3 corners, simple)."""
    return level.replace(obstacles=(*level.obstacles, make_polygon([ring])))


def add_terrain(level: navmesh.Level, ring: Sequence[tuple[float, float]], tag: str) -> navmesh.Level:
    """The level with a terrain region on top of the others (painter's order)."""
    return level.replace(terrain=(*level.terrain, (make_polygon([ring], name="terrain"), tag)))


def add_hole(level: navmesh.Level, kind: str, index: int, ring: Sequence[tuple[float, float]]) -> navmesh.Level:
    """The level with a hole cut into a polygon; the hole must lie inside it."""
    rings = polygon_rings(get_polygon(level, kind, index))
    return _set_polygon(level, kind, index, make_polygon([*rings, list(ring)], name=kind))


def delete_polygon(level: navmesh.Level, kind: str, index: int) -> navmesh.Level:
    """The level without obstacle / terrain region ``index``."""
    if kind == "obstacle":
        return level.replace(obstacles=level.obstacles[:index] + level.obstacles[index + 1:])
    return level.replace(terrain=level.terrain[:index] + level.terrain[index + 1:])


def translate_polygon(level: navmesh.Level, kind: str, index: int, dx: float, dy: float) -> navmesh.Level:
    """The level with a polygon moved by (dx, dy)."""
    moved = shapely.affinity.translate(get_polygon(level, kind, index), dx, dy)
    return _set_polygon(level, kind, index, moved)


def move_vertex(level: navmesh.Level, kind: str, index: int, ring: int, vertex: int,
                point: ArrayLike) -> navmesh.Level:
    """The level with one corner of a polygon's ring (0: exterior, 1..: holes) at ``point``."""
    rings = polygon_rings(get_polygon(level, kind, index))
    x, y = np.asarray(point, dtype=np.float64)[:2]
    rings[ring][vertex] = (float(x), float(y))
    return _set_polygon(level, kind, index, make_polygon(rings, name=kind))


def insert_vertex(level: navmesh.Level, kind: str, index: int, ring: int, after: int,
                  point: ArrayLike) -> navmesh.Level:
    """The level with a new corner inserted after corner ``after`` of a ring."""
    rings = polygon_rings(get_polygon(level, kind, index))
    x, y = np.asarray(point, dtype=np.float64)[:2]
    rings[ring].insert(after + 1, (float(x), float(y)))
    return _set_polygon(level, kind, index, make_polygon(rings, name=kind))


def delete_vertex(level: navmesh.Level, kind: str, index: int, ring: int, vertex: int) -> navmesh.Level:
    """The level without one corner of a ring; a hole left with < 3 corners is removed."""
    rings = polygon_rings(get_polygon(level, kind, index))
    del rings[ring][vertex]
    if len(rings[ring]) < 3:
        if ring == 0:
            raise navmesh.InvalidGeometryError(
                f"{kind} {index} would have {len(rings[0])} corners; an outline needs at least 3 (delete the {kind} instead)"
            )
        del rings[ring]
    return _set_polygon(level, kind, index, make_polygon(rings, name=kind))


def retag_terrain(level: navmesh.Level, index: int, tag: str) -> navmesh.Level:
    """The level with terrain region ``index`` given another tag."""
    terrain: list[Any] = list(level.terrain)
    terrain[index] = (terrain[index].polygon, tag)
    return level.replace(terrain=tuple(terrain))


# -- links -------------------------------------------------------------------------------------
def set_link(level: navmesh.Level, a: int, b: int, kind: str, requires: str | None = None) -> navmesh.Level:
    """The level with the manual link between a and b replaced by ``Link(a, b, kind, requires=)``."""
    others = tuple(lk for lk in level.links if {lk.a, lk.b} != {a, b})
    return level.replace(links=(*others, navmesh.Link(a, b, kind, requires=requires)))


def remove_link(level: navmesh.Level, index: int) -> navmesh.Level:
    """The level without manual link ``index``."""
    return level.replace(links=level.links[:index] + level.links[index + 1:])


def add_offmesh(level: navmesh.Level, a: int, b: int, cost: float, tag: str = "teleport",
                bidirectional: bool = False) -> navmesh.Level:
    """The level with an off-mesh link (teleport, ladder, jump) from a to b."""
    link = navmesh.OffMeshLink(a, b, cost, tag, bidirectional=bidirectional)
    return level.replace(offmesh_links=(*level.offmesh_links, link))


def replace_offmesh(level: navmesh.Level, index: int, **changes: Any) -> navmesh.Level:
    """The level with fields of off-mesh link ``index`` changed (``cost``, ``bidirectional``, ...)."""
    links = list(level.offmesh_links)
    links[index] = dataclasses.replace(links[index], **changes)
    return level.replace(offmesh_links=tuple(links))


def remove_offmesh(level: navmesh.Level, index: int) -> navmesh.Level:
    """The level without off-mesh link ``index``."""
    return level.replace(offmesh_links=level.offmesh_links[:index] + level.offmesh_links[index + 1:])


# -- generated waypoints --------------------------------------------------------------------------
def _new_points(level: navmesh.Level, pts: np.ndarray) -> np.ndarray:
    if len(pts) == 0 or level.n_waypoints == 0:
        return pts
    have = {tuple(p) for p in level.waypoints[:, :2].tolist()}
    return np.array([p for p in pts.tolist() if tuple(p) not in have]).reshape(-1, 2)


def _generated(level: navmesh.Level, **placement: Any) -> np.ndarray:
    """The waypoints ``build_waypoint_graph`` generates for ``level`` (they follow the level's own)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", navmesh.NavmeshWarning)
        nav = navmesh.build_waypoint_graph(level, k=1, **placement)
    return np.asarray(nav.points[level.n_waypoints:, :2])


def generate_corners(level: navmesh.Level, agent_radius: float) -> navmesh.Level:
    """The level with a waypoint at every convex corner of the inflated obstacles (not yet there)."""
    return add_waypoints(level, _new_points(level, _generated(level, corners=True, agent_radius=agent_radius)))


def generate_fill(level: navmesh.Level, spacing: float, agent_radius: float) -> navmesh.Level:
    """The level with lattice waypoints ``spacing`` apart over the walkable region."""
    pts = _generated(level, fill_spacing=spacing, agent_radius=agent_radius)
    return add_waypoints(level, _new_points(level, pts))
