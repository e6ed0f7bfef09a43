"""Crowd: terrain a unit type's profile forbids is a wall for its motion, and only for it."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

import navmesh
from navmesh.errors import InvalidOptionError
from navmesh.steering import Crowd, Walls
from navmesh.forbidden import forbidden_area

RIVER = shapely.box(14, 0, 18, 20)  # x 14..18, the whole height of a 32 x 20 level
FORD = shapely.box(13, 8, 19, 12)  # painted over the river: not water
NO_WATER = navmesh.CostProfile("infantry", {"ford": 2.0}, forbidden={"water"})
SWIMMER = navmesh.CostProfile("swimmer", {"water": 1.5})


def _nav(terrain, **level_kw):
    level = navmesh.Level.rectangle(32, 20, terrain=terrain, **level_kw)
    return navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.4, fill_spacing=2.0)


def _run(crowd, ids, goal, updates, water):
    """Order ``ids`` to ``goal``; the number of updates on which some unit centre was in ``water``."""
    crowd.move_to(ids, goal)
    wet = 0
    for _ in range(updates):
        crowd.update(1 / 30)
        p = crowd.positions[ids]
        wet += bool(shapely.intersects_xy(water, p[:, 0], p[:, 1]).any())
    return wet


def test_forbidden_area_follows_the_painters_rule():
    nav = _nav([navmesh.TerrainRegion(RIVER, "water"), navmesh.TerrainRegion(FORD, "ford")])
    area = forbidden_area(nav, NO_WATER)
    # the ford's outline (ford, by the painter's rule) is kept free with a margin of 1e-7 x 32
    assert area.symmetric_difference(RIVER.difference(FORD)).area == pytest.approx(0.0, abs=1e-4)
    assert area.within(RIVER.difference(FORD)) and not area.intersects(FORD)
    assert forbidden_area(nav, SWIMMER) is None and forbidden_area(nav, None) is None
    walls = Walls(nav, [0.4, 0.4], [NO_WATER, None])
    pts = [[16, 4], [16, 10], [10, 4]]  # open water, the ford, the west bank
    assert walls.walkable(pts, 0).tolist() == [False, True, True]
    assert walls.walkable(pts, 1).tolist() == [True, True, True]
    with pytest.raises(InvalidOptionError):
        Walls(nav, [0.4], [NO_WATER, None])


def test_separation_never_pushes_a_water_forbidding_unit_into_the_river():
    nav = _nav([navmesh.TerrainRegion(RIVER, "water")])
    crowd = Crowd(nav, separation=3.0)
    # a tight column on the west bank, ordered to a point on the bank: separation pushes east
    rng = np.random.default_rng(3)
    start = np.column_stack([rng.uniform(12.0, 13.9, 40), rng.uniform(2.0, 18.0, 40)])
    ids = crowd.add(start, radius=0.4, speed=4.0, profile=NO_WATER)
    assert not shapely.intersects_xy(RIVER, *crowd.positions[ids].T).any()
    assert _run(crowd, ids, [13.5, 10.0], 300, RIVER) == 0
    # and the order was carried out: the group settled around the goal on the bank
    assert crowd.arrived[ids].mean() > 0.9
    assert (crowd.positions[ids, 0] < 14.0).all()


def test_a_unit_added_in_forbidden_water_is_moved_to_the_bank():
    nav = _nav([navmesh.TerrainRegion(RIVER, "water")])
    crowd = Crowd(nav)
    ids = crowd.add([[15.0, 5.0], [17.5, 15.0]], radius=0.4, speed=4.0, profile=NO_WATER)
    p = crowd.positions[ids]
    # the nearest bank, the body (radius 0.4) out of the water, not more than a hair further
    gap = shapely.distance(RIVER, shapely.points(p))
    assert (gap >= 0.4).all() and (gap < 0.41).all()
    np.testing.assert_allclose(p[:, 0], [14.0 - gap[0], 18.0 + gap[1]])


def test_types_allowed_in_the_water_still_cross_it_and_the_forbidding_type_takes_the_ford():
    nav = _nav([navmesh.TerrainRegion(RIVER, "water"), navmesh.TerrainRegion(FORD, "ford")])
    water = RIVER.difference(FORD)
    crowd = Crowd(nav)
    starts = [[8.0, 2.0], [8.0, 3.0], [9.0, 2.0], [9.0, 3.0]]
    swimmers = crowd.add(starts, radius=0.4, speed=4.0, profile=SWIMMER)
    plain = crowd.add([[8.0, 17.0], [9.0, 17.0], [8.0, 18.0], [9.0, 18.0]], radius=0.4, speed=4.0)
    walkers = crowd.add([[4.0, 2.0], [4.0, 3.0], [5.0, 2.0], [5.0, 3.0]], radius=0.4, speed=4.0, profile=NO_WATER)
    # swimmers and untyped units go straight across the open water
    assert _run(crowd, swimmers, [24.0, 2.5], 240, water) > 0
    assert _run(crowd, plain, [24.0, 17.5], 240, water) > 0
    assert crowd.arrived[swimmers].all() and crowd.arrived[plain].all()
    # the water-forbidding type crosses by the ford, never with a centre in the water (beyond
    # the margin along the ford's outline, on which its routes may run)
    assert _run(crowd, walkers, [26.0, 8.0], 600, water.buffer(-1e-5)) == 0
    assert crowd.arrived[walkers].all()


@pytest.mark.parametrize("capable", [True, False])
def test_a_gated_link_over_the_water_opens_a_lane_for_units_that_may_use_it(capable):
    level = navmesh.Level.rectangle(
        32, 20, terrain=[navmesh.TerrainRegion(RIVER, "water")], waypoints=[(12.0, 10.0), (20.0, 10.0)],
        links=[navmesh.Link(0, 1, "forced", tag="plank", requires="balance")],
    )
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.4, fill_spacing=2.0)
    caps = {"balance"} if capable else set()
    profile = navmesh.CostProfile("acrobat", forbidden={"water"}, capabilities=caps)
    lane = shapely.LineString([(12, 10), (20, 10)]).buffer(0.8, cap_style="flat")
    crowd = Crowd(nav)
    ids = crowd.add([[10.0, 9.5], [10.0, 10.5], [9.0, 9.5], [9.0, 10.5]], radius=0.4, speed=4.0, profile=profile)
    wet = _run(crowd, ids, [24.0, 10.0], 400, RIVER.difference(lane))
    assert wet == 0
    east = crowd.positions[ids, 0] > 18.0
    assert east.all() if capable else not east.any()


def test_demo_infantry_crossing_the_ford_stay_out_of_the_open_water():
    """The demo's valley: a crowd of infantry (water forbidden, ford allowed) crosses the ford;
    before terrain walls their centres drifted up to 9 world units into the water."""
    generate = pytest.importorskip("demo_game.levels.generate")
    level = generate.build_level()
    nav = navmesh.build_waypoint_graph(level, k=8, agent_radius=10.0, corners=True, fill_spacing=110.0)
    infantry = navmesh.CostProfile("infantry", {"swamp": 2.5, "ford": 2.0, "road": 0.9}, forbidden={"water"})
    water = shapely.union_all([r.polygon for r in level.terrain if r.tag == "water"])
    water = water.difference(shapely.union_all([r.polygon for r in level.terrain[3:]]))  # ford, road, bridge
    crowd = Crowd(nav)
    rng = np.random.default_rng(1)
    start = np.column_stack([rng.uniform(1450, 1600, 30), rng.uniform(380, 520, 30)])
    ids = crowd.add(start, radius=9.0, speed=70.0, profile=infantry)
    assert _run(crowd, ids, [2100.0, 420.0], 900, water.buffer(-1e-3)) == 0
    assert crowd.arrived[ids].all()
