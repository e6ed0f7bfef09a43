"""Forbidden terrain is a wall for a unit's body on the mesh, not only for its centre (issue 18).

A river crosses the level from bottom to top with a bridge painted over it (the painter's rule
makes the bridge not water). A unit of radius r that may not enter water must keep its whole
disc out of the water: every point of its path stays at least r from the water (checked with
shapely at dense samples), the path still crosses by the bridge when the bridge is wider than
2r, and there is no path when it is narrower.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from navmesh.errors import NoPathError
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.terrain import CostProfile, TerrainRegion

WATER = CostProfile("tank", forbidden={"water"})
RIVER = shapely.box(40, 0, 60, 100)


def river_level(bridge_width: float) -> Level:
    bridge = shapely.box(35, 50 - bridge_width / 2, 65, 50 + bridge_width / 2)
    return Level.rectangle(100, 100, terrain=[TerrainRegion(RIVER, "water"), TerrainRegion(bridge, "bridge")])


def water_area(level: Level) -> shapely.Geometry:
    """The water by the painter's rule: the river less the bridge painted over it."""
    return shapely.difference(RIVER, level.terrain[1].polygon)


def dense(points: np.ndarray, step: float = 0.05) -> np.ndarray:
    out = [points[:1]]
    for a, b in zip(points[:-1], points[1:]):
        n = max(int(np.ceil(np.hypot(*(b - a)) / step)), 1)
        out.append(a + (b - a) * (np.arange(1, n + 1)[:, None] / n))
    return np.concatenate(out)


@pytest.mark.parametrize("radius", [2.0, 4.5])
def test_body_keeps_out_of_forbidden_water(radius):
    level = river_level(bridge_width=12.0)
    query = MeshQuery(build_navmesh(level, agent_radius=radius), WATER)
    water = water_area(level)
    for start, goal in [((10, 10), (90, 90)), ((10, 90), (90, 10)), ((20, 50), (80, 50)), ((30, 20), (70, 80))]:
        path = query.find_path(start, goal)
        samples = dense(np.asarray(path.points))
        gap = shapely.distance(water, shapely.points(samples))
        assert gap.min() >= radius * (1 - 1e-9), (start, goal, gap.min())
        # the route crosses the river on the bridge, between its rails narrowed by the radius
        on_river = samples[(samples[:, 0] > 40) & (samples[:, 0] < 60)]
        assert len(on_river) and np.all(np.abs(on_river[:, 1] - 50) <= 6 - radius + 1e-9)


def test_centre_rule_would_touch_the_water():
    """The check above can fail: the same route for a point unit hugs the bridge's rail, less
    than the radius from the water."""
    level = river_level(bridge_width=12.0)
    path = MeshQuery(build_navmesh(level), WATER).find_path((10, 10), (90, 90))
    gap = shapely.distance(water_area(level), shapely.points(dense(np.asarray(path.points))))
    assert gap.min() < 2.0


def test_narrow_bridge_closes_for_a_wide_body():
    level = river_level(bridge_width=7.0)
    path = MeshQuery(build_navmesh(level, agent_radius=3.0), WATER).find_path((10, 20), (90, 20))
    assert shapely.distance(water_area(level), shapely.points(dense(np.asarray(path.points)))).min() >= 3.0 * (1 - 1e-9)
    assert path.cost > 2 * np.hypot(40, 30)  # over the bridge, 0.5 wide for the centre
    with pytest.raises(NoPathError):
        MeshQuery(build_navmesh(level, agent_radius=4.0), WATER).find_path((10, 50), (90, 50))


def test_costs_follow_the_centre_and_other_units_cross_anywhere():
    level = river_level(bridge_width=12.0)
    mesh = build_navmesh(level, agent_radius=3.0)
    swimmer = MeshQuery(mesh, CostProfile("boat"))
    path = swimmer.find_path((10, 10), (90, 10))
    assert path.cost == pytest.approx(80.0)  # straight through the water: nothing forbids it
    slow = MeshQuery(mesh, CostProfile("wader", {"water": 2.0})).find_path((10, 10), (90, 10))
    # centre inside the water for 20 units of the straight line (x2), the rest plain ground
    assert slow.cost >= 80.0 + 20.0 - 1e-6
    # every polygon's body mask holds its own tag; polygons by the river also hold water
    own = (mesh.body_tags >> mesh.tags.astype(np.int64)) & 1
    assert np.all(own == 1)
    w = mesh.tag_names.index("water")
    near = (mesh.body_tags >> w) & 1 == 1
    centres = np.array([mesh.polygon_points(p).mean(axis=0) for p in range(mesh.n_polygons)])
    dist = shapely.distance(water_area(level), shapely.points(centres))
    assert np.all(dist[~near] > 0) and np.any(near & (mesh.tags != w))


def test_point_agent_mesh_has_no_body_masks():
    mesh = build_navmesh(river_level(bridge_width=12.0))
    assert mesh.body_tags is None


def test_a_door_update_keeps_the_body_rule():
    from navmesh.polymesh.update import with_obstacle, without_obstacle

    level = river_level(bridge_width=12.0)
    mesh = build_navmesh(level, agent_radius=2.0)
    door = shapely.box(20, 60, 30, 70)
    closed = with_obstacle(mesh, door)
    rebuilt = build_navmesh(closed.level, agent_radius=2.0)
    assert closed.body_tags is not None
    water = water_area(level)
    for start, goal in [((10, 90), (90, 10)), ((25, 80), (80, 40)), ((10, 10), (90, 90))]:
        mine = MeshQuery(closed, WATER).find_path(start, goal)
        assert mine.cost == pytest.approx(MeshQuery(rebuilt, WATER).find_path(start, goal).cost, rel=1e-9)
        assert shapely.distance(water, shapely.points(dense(np.asarray(mine.points)))).min() >= 2.0 * (1 - 1e-9)
    reopened = without_obstacle(closed, -1)
    assert MeshQuery(reopened, WATER).find_path((10, 90), (90, 10)).cost == pytest.approx(
        MeshQuery(mesh, WATER).find_path((10, 90), (90, 10)).cost, rel=1e-9)


def test_forbidden_terrain_turns_paths_like_an_obstacle():
    """A path must be able to turn at the corners of forbidden terrain (before this round the
    mesh marked turning points only at obstacle walls, and found no path around a swamp): for a
    point unit a forbidden region is an obstacle, so both levels give the same path."""
    wall = [(4, 0), (6, 0), (6, 8), (4, 8)]
    rock = [(1, 8.5), (2, 8.5), (2, 9.5), (1, 9.5)]  # a hole: the free space is no tree, Polyanya searches
    swamp = Level.rectangle(10, 10, obstacles=[rock], terrain=[TerrainRegion(shapely.Polygon(wall), "swamp")])
    blocked = Level.rectangle(10, 10, obstacles=[wall, rock])
    want = MeshQuery(build_navmesh(blocked)).find_path((1, 1), (9, 1))
    got = MeshQuery(build_navmesh(swamp), CostProfile("car", forbidden={"swamp"})).find_path((1, 1), (9, 1))
    assert got.cost == pytest.approx(want.cost, rel=1e-12) and got.cost == pytest.approx(2 * np.hypot(3, 7) + 2)
    assert np.allclose(got.points, want.points)
