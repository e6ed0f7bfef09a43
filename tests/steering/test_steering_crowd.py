"""Crowd: exact wall test, formation slots, settled spacing, never inside an obstacle, unit types."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely
from scipy.spatial import cKDTree

import navmesh
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError
from navmesh.sight import LineOfSight
from navmesh.steering import Crowd, Walls, formation_slots
from navmesh.steering.walls import level_geometry

ARENA = Path(__file__).resolve().parents[1] / "data" / "movingai" / "arena.map"


@pytest.fixture(scope="module")
def arena():
    grid = navmesh.GridMap.from_movingai(ARENA)
    obstacles, _ = level_geometry(grid)
    level = navmesh.Level.rectangle(grid.width, grid.height, obstacles=obstacles)
    return grid, level


def test_level_geometry_of_a_grid_is_its_blocked_cells(arena):
    grid, _ = arena
    obstacles, bounds = level_geometry(grid)
    blocked_area = float(np.asarray(grid.blocked).sum()) * grid.cell_size**2
    assert shapely.union_all(obstacles).area == pytest.approx(blocked_area)
    # a blocked cell's centre lies in an obstacle, a free cell's does not
    centres = grid.cell_center(np.arange(grid.n_cells))
    inside = LineOfSight(obstacles, bounds).inside_obstacle(centres)
    np.testing.assert_array_equal(inside, np.asarray(grid.blocked).ravel())


@pytest.mark.parametrize("radius", [0.0, 0.3, 0.7])
def test_walls_agree_with_shapely_on_random_points(arena, radius):
    grid, level = arena
    walls = Walls(grid, [radius])
    los = level.line_of_sight(agent_radius=radius)
    pts = np.random.default_rng(7).uniform(-1, 50, (50_000, 2))
    ours = walls.walkable(pts, 0)
    theirs = los.walkable(pts)
    assert not (ours & ~theirs).any()  # never claims free where shapely says blocked
    # the kernel keeps a hair (eps) off the walls; elsewhere it agrees exactly
    differ = ours != theirs
    assert differ.sum() <= 2


def test_walls_visibility_matches_line_of_sight(arena):
    grid, level = arena
    walls = Walls(grid, [0.4])
    los = level.line_of_sight(agent_radius=0.4)
    rng = np.random.default_rng(3)
    pts = rng.uniform(0, 49, (4000, 2))
    pts = pts[los.walkable(pts) & walls.walkable(pts, 0)]
    a, b = pts[: len(pts) // 2], pts[len(pts) // 2 : 2 * (len(pts) // 2)]
    np.testing.assert_array_equal(walls.visible(a, b, 0), ~los.blocked(a, b))


def test_formation_slots_are_spaced_free_and_connected(arena):
    grid, _ = arena
    walls = Walls(grid, [0.3])
    slots = formation_slots(walls, 0, [40.0, 40.0], 300, 0.66)
    assert slots.shape == (300, 2)
    d, _ = cKDTree(slots).query(slots, k=2)
    assert d[:, 1].min() >= 0.66 - 1e-9
    assert walls.walkable(slots, 0).all()
    assert slots[0].tolist() == [40.0, 40.0]
    with pytest.raises(NodeNotFoundError):
        formation_slots(walls, 0, [40.0, 40.0], 100_000, 0.66)


def _settle(crowd, frames, dt=1 / 30, check=None):
    for _ in range(frames):
        crowd.update(dt)
        if check is not None:
            check(crowd)
        if crowd.arrived[crowd.alive].all():
            break


@pytest.mark.parametrize("kind", ["navmap", "grid"])
def test_a_settled_crowd_keeps_its_spacing(arena, kind):
    grid, level = arena
    radius = 0.3
    source = grid if kind == "grid" else navmesh.build_waypoint_graph(level, corners=True, agent_radius=radius)
    crowd = Crowd(source)
    start = np.random.default_rng(5).uniform(3, 9, (80, 2))
    ids = crowd.add(start, radius=radius, speed=6.0)
    crowd.move_to(ids, [40.0, 40.0])
    _settle(crowd, 3000)
    assert crowd.arrived.all()
    for _ in range(60):  # and stays settled
        crowd.update(1 / 30)
    d, _ = cKDTree(crowd.positions).query(crowd.positions, k=2)
    assert d[:, 1].min() >= 1.8 * radius
    assert np.hypot(*crowd.velocities.T).max() < 1e-6 * 6.0 + 1e-9


def test_no_unit_is_ever_inside_an_obstacle_during_a_1000_unit_order(arena):
    _, level = arena
    radius = 0.3
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=radius)
    los = level.line_of_sight(agent_radius=radius)  # shapely, independent of the kernels
    crowd = Crowd(nav)
    rng = np.random.default_rng(11)
    ids = crowd.add(rng.uniform(1, 14, (1000, 2)), radius=radius, speed=8.0)
    assert not los.inside_obstacle(crowd.positions).any()
    crowd.move_to(ids, [40.0, 40.0])
    inside = []
    start = crowd.positions.copy()

    def check(c):
        inside.append(int(los.inside_obstacle(c.positions).sum() + (~los.walkable(c.positions)).sum()))

    _settle(crowd, 900, check=check)
    assert len(inside) > 100 and sum(inside) == 0
    moved = np.hypot(*(crowd.positions - start).T)
    assert np.median(moved) > 30  # they really went across the map
    assert crowd.arrived.mean() > 0.95


def test_grid_crowd_order_stays_out_of_walls(arena):
    grid, level = arena
    los = level.line_of_sight(agent_radius=0.4)
    crowd = Crowd(grid)
    ids = crowd.add(np.random.default_rng(2).uniform(35, 47, (300, 2)), radius=0.4, speed=5.0)
    crowd.move_to(ids, [5.0, 5.0])
    bad = []
    _settle(crowd, 900, check=lambda c: bad.append(int((~los.walkable(c.positions)).sum())))
    assert sum(bad) == 0
    assert crowd.arrived.mean() > 0.95


def test_unit_types_follow_their_cost_profiles():
    # a swamp strip in the middle of an open level: tanks pay x10 there, infantry x1
    swamp = navmesh.TerrainRegion([(8, 0), (12, 0), (12, 17), (8, 17)], "swamp")
    level = navmesh.Level.rectangle(20, 20, terrain=[swamp])
    nav = navmesh.build_waypoint_graph(level, fill_spacing=1.0)
    tank = navmesh.CostProfile("tank", {"swamp": 10.0})
    crowd = Crowd(nav)
    inf_ids = crowd.add([[2.0, 2.0]], radius=0.3, speed=4.0)
    tank_ids = crowd.add([[2.0, 3.0]], radius=0.3, speed=4.0, profile=tank)
    crowd.move_to(np.concatenate([inf_ids, tank_ids]), [18.0, 2.5])
    crowd.update(1 / 30)
    tank_path = crowd.path_of(int(tank_ids[0])).points
    inf_path = crowd.path_of(int(inf_ids[0])).points
    assert tank_path[:, 1].max() > 17  # around the swamp's open end
    assert inf_path[:, 1].max() < 5  # straight through
    track = []
    _settle(crowd, 2000, check=lambda c: track.append(c.positions[tank_ids[0]].copy()))
    assert crowd.arrived.all()
    track = np.asarray(track)
    in_swamp = (track[:, 0] > 8.5) & (track[:, 0] < 11.5) & (track[:, 1] < 16.5)
    assert not in_swamp.any()


def test_remove_and_arrays(arena):
    grid, _ = arena
    crowd = Crowd(grid)
    ids = crowd.add([[5.0, 5.0], [6.0, 5.0], [7.0, 5.0]], radius=0.3, speed=5.0)
    assert ids.tolist() == [0, 1, 2] and len(crowd) == 3
    crowd.remove([1])
    still = crowd.positions[1].copy()
    crowd.move_to(ids, [20.0, 20.0])
    _settle(crowd, 600)
    assert crowd.positions[1].tolist() == still.tolist()
    assert crowd.arrived[[0, 2]].all() and not crowd.alive[1]
    path = crowd.path_of(0)
    assert path.points[0].tolist() == crowd.positions[0].tolist()
    more = crowd.add([[8.0, 5.0]], radius=0.5, speed=3.0)  # a second radius class
    assert more.tolist() == [3]
    assert crowd.positions.shape == (4, 2) and crowd.headings.shape == (4,)


def test_bad_input_gets_clear_errors(arena):
    grid, _ = arena
    with pytest.raises(InvalidOptionError):
        Crowd("not a map")
    crowd = Crowd(grid)
    with pytest.raises(InvalidGeometryError):
        crowd.add([[np.nan, 1.0]])
    with pytest.raises(InvalidOptionError, match="speed"):
        crowd.add([[5.0, 5.0]], speed=0)
    ids = crowd.add([[5.0, 5.0]], radius=0.3, speed=1.0)
    with pytest.raises(NodeNotFoundError):
        crowd.move_to([7], [10.0, 10.0])
    with pytest.raises(InvalidGeometryError):
        crowd.move_to(ids, [10.0])
    with pytest.raises(InvalidOptionError, match="dt"):
        crowd.update(-0.1)
    before = crowd.positions.copy()
    crowd.move_to(ids, [8.0, 5.0])
    crowd.update(0)                        # a paused game: nothing moves
    np.testing.assert_array_equal(crowd.positions, before)


def test_small_groups_get_their_own_any_angle_paths_and_large_ones_share_a_tree(arena):
    _, level = arena
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.3)
    crowd = Crowd(nav, shared_search_min=4)
    few = crowd.add([[3.0, 3.0], [4.0, 3.0]], radius=0.3, speed=5.0)
    many = crowd.add(np.random.default_rng(1).uniform(3, 8, (20, 2)), radius=0.3, speed=5.0)
    crowd.move_to(few, [40.0, 40.0])
    crowd.move_to(many, [10.0, 40.0])
    crowd.update(1 / 1000)
    query = navmesh.NavQuery(nav)
    for u in few.tolist():
        own = crowd.path_of(u).points
        best = query.find_path(own[0], own[-1]).points
        # the unit's route is its own any-angle path to its slot (it has barely moved)
        np.testing.assert_allclose(own[1:], best[1:], atol=1e-9)
    shared = [crowd.path_of(u).points for u in many.tolist()]
    # units of the big group walk through the tree: their routes all end at the goal, then a slot
    assert all(np.allclose(p[-2], [10.0, 40.0]) for p in shared if len(p) > 2)
    _settle(crowd, 2000)
    assert crowd.arrived.all()


def test_a_door_closing_sends_the_crowd_around():
    level = navmesh.Level.rectangle(40, 30, obstacles=[shapely.box(18, 0, 22, 12), shapely.box(18, 18, 22, 27)])
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.4)
    crowd = Crowd(nav)
    ids = crowd.add(np.random.default_rng(4).uniform(2, 8, (30, 2)) + [0, 11], radius=0.4, speed=6.0)
    crowd.move_to(ids, [34.0, 15.0])
    for _ in range(20):
        crowd.update(1 / 30)
    door = shapely.box(18, 12, 22, 18)
    crowd.set_map(nav.with_obstacle(door))
    closed = nav.level.line_of_sight(agent_radius=0.4)  # without the door, to see who used the gap
    inflated_door = shapely.buffer(door, 0.4, join_style="mitre")
    went_high = np.zeros(len(ids), bool)
    for _ in range(3000):
        crowd.update(1 / 30)
        assert not shapely.contains_xy(inflated_door, *crowd.positions.T).any()
        went_high |= crowd.positions[:, 1] > 27
        if crowd.arrived.all():
            break
    assert crowd.arrived.all() and went_high.all()  # all of them around the top end of the wall
    assert closed.walkable(crowd.positions).all()


@pytest.mark.parametrize("budget", [3, 8])
def test_a_1000_unit_order_stays_within_its_expansion_budget_per_update(budget):
    # the graph has more nodes than the budget, so no route tree fits in one update and the
    # order is served by per-unit sliced searches, resumed over as many updates as they need
    level = navmesh.Level.rectangle(
        60, 60, obstacles=[[(15, 5), (25, 5), (25, 40), (15, 40)], [(32, 25), (45, 25), (45, 35), (32, 35)]]
    )
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.3)
    assert nav.graph.n_nodes > budget
    crowd = Crowd(nav, expansions_per_update=budget)
    ids = crowd.add(np.random.default_rng(11).uniform(1, 14, (1000, 2)), radius=0.3, speed=8.0)
    crowd.move_to(ids, [48.0, 48.0])
    spent, paths = [], {}
    for _ in range(8000):
        crowd.update(1 / 30)
        spent.append(crowd.last_expansions)
        for u in set(range(1000)) - set(paths):
            p = crowd.planned_path(int(ids[u]))
            if p is not None:
                paths[u] = p
        if crowd.arrived.all():
            break
    spent = np.asarray(spent)
    assert spent.max() <= budget
    assert spent.sum() > 1000  # far more work than one update's budget: it was spread out
    assert crowd.arrived.all()
    assert len(paths) == 1000
    query = navmesh.NavQuery(nav)
    for u in range(0, 1000, 7):
        p = paths[u]
        one_shot = query.find_path(p.points[0], p.points[-1], allow_partial=True)
        np.testing.assert_allclose(p.points, one_shot.points)
        assert p.cost == pytest.approx(one_shot.cost)
        assert p.expansions == one_shot.expansions


def test_units_on_an_inflated_wall_edge_walk_along_it_and_arrive():
    # the box inflated by the units' radius has its edge at x = 14.7: one unit starts exactly on
    # it, one a hair (2 eps of the wall tests) off it; both routes run along that edge, toward
    # the corner point (14.7, 4.88) on the edge's own line, so every step ends on the wall
    level = navmesh.Level.rectangle(60, 60, obstacles=[[(15, 5), (25, 5), (25, 40), (15, 40)]])
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.3)
    eps = Walls(nav, [0.3]).arrays[5]
    crowd = Crowd(nav)
    ids = crowd.add([[14.7, 20.0], [14.7 - 2.0 * eps, 30.0]], radius=0.3, speed=8.0)
    assert crowd.positions[1, 0] == 14.7 - 2.0 * eps  # free as it stands: not moved by add
    crowd.move_to(ids, [20.0, 2.0])
    for _ in range(600):
        crowd.update(1 / 30)
        assert nav.line_of_sight.walkable(crowd.positions).all()
        if crowd.arrived.all():
            break
    assert crowd.arrived.all()
    np.testing.assert_allclose(crowd.positions, [[20.0, 2.0]] * 2, atol=0.6)


def _road_level():
    # a swamp, a road beyond it, and a strip of plain ground between them
    swamp = navmesh.TerrainRegion([(4, 2), (16, 2), (16, 8), (4, 8)], "swamp")
    road = navmesh.TerrainRegion([(0, 10), (20, 10), (20, 12), (0, 12)], "road")
    level = navmesh.Level.rectangle(20, 14, terrain=[swamp, road], waypoints=[(x, 11.0) for x in range(1, 20, 2)])
    return navmesh.build_waypoint_graph(level, fill_spacing=1.0), swamp, road


@pytest.mark.parametrize("count", [1, 6])  # a unit's own path / a shared route tree
@pytest.mark.parametrize("start, goal", [((1.0, 9.0), (19.0, 9.0)), ((2.0, 5.0), (18.0, 5.0))])
def test_a_tank_takes_the_road_round_the_swamp(count, start, goal):
    nav, swamp, road = _road_level()
    tank = navmesh.CostProfile("tank", {"swamp": 4.0, "road": 0.5})
    one_shot = navmesh.NavQuery(nav, tank).find_path(start, goal)
    # hand check: the straight way (plain ground along the swamp, or through it) costs more
    # than the road: up 1-5 units, 16 along the road at x0.5, down again
    straight = np.hypot(*np.subtract(goal, start)) * (1.0 if start[1] > 8 else 4.0)
    assert one_shot.cost < straight
    assert shapely.LineString(one_shot.points).intersection(road.polygon).length > 10
    crowd = Crowd(nav)
    offsets = np.array([[0, 0], [0.7, 0], [0, -0.7], [0.7, -0.7], [-0.7, 0], [-0.7, -0.7]])[:count]
    ids = crowd.add(np.add(start, offsets), radius=0.3, speed=4.0, profile=tank)
    crowd.move_to(ids, goal)
    tracks = [[p.copy()] for p in crowd.positions]
    for _ in range(3000):
        crowd.update(1 / 30)
        for t, p in zip(tracks, crowd.positions):
            t.append(p.copy())
        if crowd.arrived.all():
            break
    assert crowd.arrived.all()
    for t in tracks:
        t = np.asarray(t)
        line = shapely.LineString(t)
        assert line.intersection(swamp.polygon).length < 0.03 * line.length
        assert line.intersection(road.polygon).length > 6  # a group walks side by side, partly on the verge
        walked = nav.straight_costs(t[:-1], t[1:], tank).sum()  # exact terrain cost of the track
        assert walked < 1.15 * one_shot.cost < straight
