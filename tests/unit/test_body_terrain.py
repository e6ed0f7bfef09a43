"""Forbidden terrain keeps a unit's whole body out, not only its centre (NavMap.body_zone).

Independent answers: distances to the terrain measured with shapely on the regions as drawn
(the painter's rule applied here by hand), and path costs computed by hand.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely

import navmesh
from navmesh.errors import NodeNotFoundError, NoPathError
from navmesh.level import Level
from navmesh.terrain import CostProfile, TerrainRegion

R = 5.0
NO_WATER = CostProfile("walker", forbidden={"water"})
SWIMMER = CostProfile("swimmer")
POND = TerrainRegion([(40, 0), (60, 0), (60, 70), (40, 70)], "water")


def pond_map(radius: float = R) -> navmesh.NavMap:
    """The pond, with the designer's waypoints a radius above its two top corners."""
    level = Level.rectangle(100, 100, waypoints=[[35, 75], [65, 75]], terrain=[POND])
    return navmesh.build_waypoint_graph(level, corners=True, agent_radius=radius)


def river_map(ford_height: float) -> navmesh.NavMap:
    """A river across the level, with a ford painted over it (the painter's rule: the ford wins)."""
    river = TerrainRegion([(40, 0), (60, 0), (60, 100), (40, 100)], "water")
    ford = TerrainRegion([(40, 50 - ford_height / 2), (60, 50 - ford_height / 2), (60, 50 + ford_height / 2),
                          (40, 50 + ford_height / 2)], "ford")
    level = Level.rectangle(100, 100, terrain=[river, ford])
    return navmesh.build_waypoint_graph(level, corners=True, agent_radius=R, fill_spacing=10)


def test_a_path_keeps_the_body_off_forbidden_water_at_the_hand_computed_cost():
    path = navmesh.NavQuery(pond_map(), NO_WATER).find_path((10, 10), (90, 10))
    assert shapely.LineString(path.points).distance(POND.polygon) >= R - 1e-9
    # over the pond's top corners a radius off, along the edge of the margin: (10,10) -> (35,75) -> (65,75) -> (90,10)
    assert path.cost == pytest.approx(2 * math.hypot(25, 65) + 30, rel=1e-5)


def test_a_unit_that_may_enter_the_terrain_is_not_kept_off_it():
    path = navmesh.NavQuery(pond_map(), SWIMMER).find_path((10, 10), (90, 10))
    assert path.cost == pytest.approx(80.0)
    assert pond_map().body_zone(SWIMMER) is None and pond_map(0.0).body_zone(NO_WATER) is None


def test_every_arc_a_walker_may_use_keeps_its_body_out():
    nav = pond_map()
    w = nav.weights(NO_WATER).values
    a, b = nav.points[nav.graph.arc_sources], nav.points[nav.graph.indices]
    open_ = np.flatnonzero(np.isfinite(w))
    assert open_.size > 0
    d = shapely.distance(POND.polygon, shapely.linestrings(np.stack([a[open_], b[open_]], axis=1)))
    assert d.min() >= R - 1e-6
    closed = np.flatnonzero(~np.isfinite(w))
    d_closed = shapely.distance(POND.polygon, shapely.linestrings(np.stack([a[closed], b[closed]], axis=1)))
    assert (d_closed < R).all()  # nothing closed that keeps clear


def test_a_start_inside_the_margin_moves_out_and_strict_refuses_it():
    query = navmesh.NavQuery(pond_map(), NO_WATER)
    path = query.find_path((38, 10), (90, 10))
    assert path.start_moved
    assert path.points[0].tolist() == pytest.approx([35.0, 10.0], abs=1e-4)
    with pytest.raises(NodeNotFoundError, match="terrain this unit type may not"):
        query.find_path((38, 10), (90, 10), strict=True)
    assert query.nearest_walkable([[39, 10]])[0].tolist() == pytest.approx([35.0, 10.0], abs=1e-4)


def test_a_ford_wider_than_the_body_is_crossed_inside_its_banks():
    nav = river_map(ford_height=30)
    path = navmesh.NavQuery(nav, NO_WATER).find_path((10, 20), (90, 80))
    water = shapely.difference(shapely.box(40, 0, 60, 100), shapely.box(40, 35, 60, 65))
    assert shapely.LineString(path.points).distance(water) >= R - 1e-6


def test_a_ford_narrower_than_the_body_is_closed_to_it():
    nav = river_map(ford_height=8)  # 8 < 2 x 5
    with pytest.raises(NoPathError):
        navmesh.NavQuery(nav, NO_WATER).find_path((10, 20), (90, 80))
    assert np.isfinite(navmesh.NavQuery(nav, SWIMMER).find_path((10, 20), (90, 80)).cost)


VALLEY = Path(__file__).resolve().parents[2] / "demo_game" / "levels" / "valley.json"


def test_on_the_demo_valley_no_infantry_route_puts_a_body_in_the_river():
    level = navmesh.load_level(VALLEY)
    nav = navmesh.build_waypoint_graph(level, k=8, agent_radius=10.0, corners=True, fill_spacing=110.0)
    # the water one can see, by the painter's rule: water minus what is painted over it later
    visible = shapely.Polygon()
    for region in level.terrain:
        if region.tag == "water":
            visible = shapely.union(visible, region.polygon)
        elif not visible.is_empty:
            visible = shapely.difference(visible, region.polygon)
    query = navmesh.NavQuery(nav, CostProfile("infantry", {"ford": 2.0}, forbidden={"water"}))
    rng = np.random.default_rng(7)
    x0, y0, x1, y1 = level.bounds.bounds
    crossed = 0
    for _ in range(40):
        s, g = rng.uniform((x0, y0), (x1, y1), size=(2, 2))
        s, g = query.nearest_walkable([s, g])
        path = query.find_path(s, g)
        assert shapely.LineString(path.points).distance(visible) >= 10.0 - 1e-6
        crossed += (path.points[:, 0].min() < 1600) and (path.points[:, 0].max() > 1960)
    assert crossed > 5  # routes do cross the river, by the ford or the bridge
