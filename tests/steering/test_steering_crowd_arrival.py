"""Crowd: every unit of an order arrives (by slot, or settled where its slot cannot be had), no
unit centre ever inside an obstacle inflated by its radius, written positions checked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely
from scipy.spatial import cKDTree

import navmesh
from navmesh.errors import InvalidGeometryError
from navmesh.steering import Crowd
from navmesh.steering.walls import level_geometry

DATA = Path(__file__).resolve().parents[1] / "data" / "movingai"
TOL = 1e-6  # how far (world units) a centre may reach into an inflated obstacle: rounding only


def _grid_level(name):
    grid = navmesh.GridMap.from_movingai(DATA / name)
    obstacles, _ = level_geometry(grid)
    return grid, navmesh.Level.rectangle(grid.width, grid.height, obstacles=obstacles)


def _body_hits(level, radius, points):
    """How many unit bodies (discs of ``radius``) at ``points`` reach into an obstacle or out of
    the bounds by more than TOL: shapely distances, independent of the kernels."""
    pts = shapely.points(points)
    walls = shapely.union_all(list(level.obstacles) + [level.bounds.exterior])
    clear = shapely.distance(walls, pts)
    inside = shapely.contains(level.bounds, pts) & ~shapely.intersects(shapely.union_all(list(level.obstacles)), pts)
    return int((~inside | (clear < radius - TOL)).sum())


def _run(crowd, ids, goal, frames, level, radius, dt=1 / 30):
    """Order ``ids`` to ``goal`` and update until all arrived; (updates, centres found in walls)."""
    crowd.move_to(ids, goal)
    bad = 0
    for f in range(frames):
        crowd.update(dt)
        if f % 3 == 0:
            bad += _body_hits(level, radius, crowd.positions[ids])
        if crowd.arrived[ids].all():
            break
    return f + 1, bad


def test_units_that_see_none_of_their_nearest_route_points_plan_round_a_thin_wall():
    # the units stand against the west face of a thin wall; the ten waypoints nearest to them
    # lie just east of it, so no route point in reach is in sight. Before, the crowd sent them
    # straight at their slots east of the wall, and they pushed against it forever.
    wall = [(20.0, 2.0), (20.2, 2.0), (20.2, 38.0), (20.0, 38.0)]
    east = [(20.8 + 0.3 * (k % 2), 18.5 + 0.6 * (k // 2)) for k in range(10)]
    level = navmesh.Level.rectangle(40, 40, obstacles=[wall], waypoints=east)
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.3, k=8)
    start = np.array([[19.6, 20.0], [19.6, 20.6], [19.6, 19.4], [19.0, 20.0]])
    # independent check of the set-up: the 8 nearest graph nodes of each unit are behind the wall
    nodes = np.asarray(nav.graph.points)[:, :2]
    _, near = cKDTree(nodes).query(start, k=8)
    thick = shapely.buffer(shapely.Polygon(wall), 0.3, join_style="mitre")
    for s, row in zip(start, near):
        lines = shapely.linestrings([[s, nodes[j]] for j in row])
        assert shapely.intersects(thick, lines).all()
    crowd = Crowd(nav)
    ids = crowd.add(start, radius=0.3, speed=4.0)
    updates, bad = _run(crowd, ids, [30.0, 20.0], 1500, level, 0.3)
    assert crowd.arrived.all() and bad == 0
    assert (crowd.positions[:, 0] > 20.2).all()  # they really went round to the east side


@pytest.mark.parametrize("count", [1, 6])
def test_units_pass_a_door_only_a_tenth_wider_than_they_are(count):
    # a wall across the level with a door 2 r + 0.1 wide: the inflated door is 0.1 wide
    r = 1.0
    wall = [[(19, 0), (20, 0), (20, 14), (19, 14)], [(19, 16.1), (20, 16.1), (20, 30), (19, 30)]]
    level = navmesh.Level.rectangle(40, 30, obstacles=wall)
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=r)
    crowd = Crowd(nav)
    start = np.array([[8.0, 4.0], [8.0, 26.0], [5.0, 4.0], [5.0, 26.0], [12.0, 4.0], [12.0, 26.0]])[:count]
    ids = crowd.add(start, radius=r, speed=6.0)
    updates, bad = _run(crowd, ids, [32.0, 15.0], 3000, level, r)
    assert crowd.arrived.all() and bad == 0
    assert (crowd.positions[:, 0] > 21.0).all()


def test_1000_units_on_arena_all_arrive_and_stand_apart():
    grid, level = _grid_level("arena.map")
    r = 0.3
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=r)
    crowd = Crowd(nav)
    ids = crowd.add(np.random.default_rng(11).uniform(1, 14, (1000, 2)), radius=r, speed=8.0)
    updates, bad = _run(crowd, ids, [40.0, 40.0], 1800, level, r)
    assert crowd.arrived.all() and bad == 0
    for _ in range(30):
        crowd.update(1 / 30)
    d, _ = cKDTree(crowd.positions).query(crowd.positions, k=2)
    assert d[:, 1].min() >= 1.6 * r  # spread on slots, not piled


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_300_units_on_a_real_rts_map_all_arrive(seed):
    # den312d (Dragon Age: Origins), taken as polygons; start and goal drawn from its free space
    grid, level = _grid_level("den312d.map")
    r = 0.3
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=r, k=8)
    los = level.line_of_sight(agent_radius=r)
    pts = np.random.default_rng(seed).uniform(0, [grid.width, grid.height], (20_000, 2))
    pts = pts[los.walkable(pts)]
    crowd = Crowd(nav)
    ids = crowd.add(pts[:300], radius=r, speed=8.0)
    updates, bad = _run(crowd, ids, pts[-1], 1800, level, r)
    assert crowd.arrived.all() and bad == 0


def test_a_group_whose_goal_it_cannot_reach_still_finishes():
    # the goal lies inside a closed room: the group stops at the nearest places it can reach
    room = [
        [(25, 10), (35, 10), (35, 11), (25, 11)],
        [(25, 19), (35, 19), (35, 20), (25, 20)],
        [(25, 11), (26, 11), (26, 19), (25, 19)],
        [(34, 11), (35, 11), (35, 19), (34, 19)],
    ]
    level = navmesh.Level.rectangle(40, 30, obstacles=room)
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.4)
    for count in (2, 6):  # own paths / a shared route tree
        crowd = Crowd(nav)
        ids = crowd.add(np.column_stack([np.full(count, 5.0), 5.0 + np.arange(count)]), radius=0.4, speed=6.0)
        updates, bad = _run(crowd, ids, [30.0, 15.0], 2000, level, 0.4)
        assert crowd.arrived.all() and bad == 0
        inside = shapely.contains_xy(shapely.box(25, 10, 35, 20), *crowd.positions.T)
        assert not inside.any()
        d = shapely.distance(shapely.box(25, 10, 35, 20), shapely.points(crowd.positions))
        assert np.median(d) < 3.0  # they came up to the room's walls


def test_groups_sent_one_after_another_to_one_goal_stand_side_by_side():
    # what a game does when a queued order starts for each unit as it arrives: one order per
    # unit, all to the same goal. Before, every one took the goal itself as its slot and they
    # stood in one pile, never arriving.
    level = navmesh.Level.rectangle(40, 40, obstacles=[[(15, 15), (18, 15), (18, 25), (15, 25)]])
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.5)
    crowd = Crowd(nav)
    ids = crowd.add(np.column_stack([np.full(8, 4.0), 10.0 + 1.5 * np.arange(8)]), radius=0.5, speed=6.0)
    goal = [30.0, 20.0]
    for k, u in enumerate(ids.tolist()):
        crowd.move_to([u], goal)
        for _ in range(10):
            crowd.update(1 / 30)
    for _ in range(900):
        crowd.update(1 / 30)
        if crowd.arrived.all():
            break
    assert crowd.arrived.all()
    d, _ = cKDTree(crowd.positions).query(crowd.positions, k=2)
    assert d[:, 1].min() >= 2 * 0.5 * 0.99
    assert np.hypot(*(crowd.positions - goal).T).max() < 4.0  # a tight formation round the goal


def test_a_position_written_into_a_wall_is_moved_out_and_a_nan_is_refused():
    level = navmesh.Level.rectangle(40, 40, obstacles=[[(15, 15), (25, 15), (25, 25), (15, 25)]])
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.5)
    crowd = Crowd(nav)
    ids = crowd.add([[5.0, 5.0], [5.0, 8.0], [8.0, 5.0]], radius=0.5, speed=6.0)
    crowd.move_to(ids, [35.0, 35.0])
    for _ in range(5):
        crowd.update(1 / 30)
    crowd.positions[1] = [15.5, 20.0]  # one unit inside the obstacle (1.0 from its inflated face)
    crowd.update(1 / 30)
    assert _body_hits(level, 0.5, crowd.positions) == 0
    assert abs(crowd.positions[1, 0] - 14.5) < 0.5  # the nearest free point, then one step
    crowd.positions[2] = [np.nan, 3.0]
    with pytest.raises(InvalidGeometryError, match=r"positions\[2\]"):
        crowd.update(1 / 30)
    assert np.isfinite(crowd.positions).all()  # the unit kept its last position
    for _ in range(600):
        crowd.update(1 / 30)
        assert _body_hits(level, 0.5, crowd.positions) == 0
        if crowd.arrived.all():
            break
    assert crowd.arrived.all()


def test_a_unit_whose_replans_return_a_route_its_body_cannot_walk_still_finishes():
    # the graph was built for radius 0.3, the unit has radius 0.5 and the door is 0.8 wide: every
    # search returns the route through the door, which the unit's walls close. Before, each
    # re-plan reset its progress watch, so it pushed against the door frame for ever (not
    # arrived after 60 s); now it gives the slot up and finishes in front of the door.
    wall = [[(20.0, 0.0), (20.4, 0.0), (20.4, 9.6), (20.0, 9.6)], [(20.0, 10.4), (20.4, 10.4), (20.4, 20.0), (20.0, 20.0)]]
    level = navmesh.Level.rectangle(40, 20, obstacles=wall)
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.3, k=8)
    path = navmesh.NavQuery(nav).find_path([5.0, 10.0], [35.0, 10.0])
    assert path is not None and np.ptp(path.points[:, 0]) > 25  # the graph's route: through the door
    crowd = Crowd(nav)
    ids = crowd.add([[5.0, 10.0]], radius=0.5, speed=6.0)
    frames = 20 * 30
    updates, bad = _run(crowd, ids, [35.0, 10.0], frames, level, 0.5)
    assert crowd.arrived[0] and crowd.settled[0] and bad == 0 and updates < frames
    x, y = crowd.positions[0]
    assert 19.0 < x < 20.0 and abs(y - 10.0) < 0.5  # the nearest place its body reaches
    for _ in range(60):  # and it stays finished
        crowd.update(1 / 30)
    assert crowd.arrived[0] and crowd.settled[0]


def test_every_unit_of_eight_groups_in_a_generated_cave_finishes():
    # the benchmark's cave (cellular automaton, largest open region) at 80 x 80 cells instead of
    # 256 x 256, taken as polygons; 8 groups of 40 units from random free points to random goals
    from benchmarks.crowd import cave_blocked

    grid = navmesh.GridMap(cave_blocked(80, seed=3))
    obstacles, _ = level_geometry(grid)
    level = navmesh.Level.rectangle(grid.width, grid.height, obstacles=obstacles)
    r = 0.3
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=r, k=8)
    los = level.line_of_sight(agent_radius=r)
    pts = np.random.default_rng(5).uniform(0, grid.width, (20_000, 2))
    pts = pts[los.walkable(pts)]
    crowd = Crowd(nav)
    ids = crowd.add(pts[:320], radius=r, speed=12.0)
    groups = np.array_split(ids, 8)
    for k, g in enumerate(groups):
        crowd.move_to(g, pts[-1 - k])
    bad = 0
    frames = 60 * 30  # a bound of 60 s simulated
    for f in range(frames):
        crowd.update(1 / 30)
        if f % 5 == 0:
            bad += _body_hits(level, r, crowd.positions)
        if crowd.arrived.all():
            break
    assert crowd.arrived.all() and bad == 0
    # most finish on their slots; the others stand near their group (not stranded on the way)
    assert crowd.settled.mean() <= 0.1
    for k, g in enumerate(groups):
        d = np.hypot(*(crowd.positions[g] - pts[-1 - k]).T)
        assert np.median(d) < 4.0
