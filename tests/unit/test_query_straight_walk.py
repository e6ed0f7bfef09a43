"""The one-call road's straight walk: when the goal is in sight of the start, each end only proves
itself walkable by its nearest visible waypoint (the joins' ``near < 0`` mode) before the straight
walk is returned. Checked against brute force and against the general road."""

from __future__ import annotations

import numpy as np
import shapely

from navmesh._kernels import anyangle as AK
from navmesh.level import Level
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for
from navmesh.waypoints.query import NavQuery


def test_the_nearest_only_join_keeps_the_nearest_visible_point():
    boxes = [shapely.box(20, 20, 35, 28), shapely.box(60, 50, 64, 90), shapely.box(40, 60, 55, 62)]
    level = Level.rectangle(100, 100, obstacles=boxes)
    los = level.line_of_sight()
    rng = np.random.default_rng(8)
    pts = rng.uniform(0, 100, (100, 2))  # sparse: the nearest point is often behind a box
    pts = np.ascontiguousarray(pts[los.walkable(pts)][:40])
    queries = rng.uniform(0, 100, (300, 2))
    queries = np.ascontiguousarray(queries[los.walkable(queries)])
    m = len(pts)
    blocked = np.zeros(m, bool)
    blocked[::7] = True
    scratch = (np.zeros(1, bool), np.empty(m), np.empty(m, np.int64), np.empty(m), np.empty(m, np.int64))
    free = np.full(len(queries), -1, np.int64)
    counts, picked, _ = AK.join_positions(queries.reshape(-1), free, pts, blocked, np.zeros((m, 4)), np.zeros(m, bool), 0, -1, 0,
                                          np.inf, *AK.bucket_grid(pts)[:3], *scratch, *wall_grid_for(los))
    at = 0
    hidden_first = 0
    for q, c in zip(queries, counts):
        d = np.sqrt((pts[:, 0] - q[0]) ** 2 + (pts[:, 1] - q[1]) ** 2)
        d[blocked] = np.inf
        order = np.argsort(d, kind="stable")
        order = order[np.isfinite(d[order])]
        seen = ~los.blocked(np.repeat(q[None], len(order), axis=0), pts[order])
        expected = order[seen][:1]
        hidden_first += not seen[0]
        assert picked[at:at + c].tolist() == expected.tolist()
        at += c
    assert hidden_first > 0  # some queries had to look past a hidden nearest point


def test_ends_inside_one_wall_in_sight_of_each_other_are_moved_as_on_the_general_road():
    level = Level.rectangle(20, 12, obstacles=[[(4, 2), (12, 2), (12, 9), (4, 9)]])
    query = NavQuery(build_waypoint_graph(level, k=8, corners=True, linking="cones"))
    start, goal = [5.0, 3.0], [11.0, 8.0]  # both inside the obstacle: the segment between them meets no wall edge
    fast = query.find_path(start, goal)  # lists take the one-call road
    general = query.find_paths(np.array([start]), np.array([goal]))[0]
    assert fast.start_moved and fast.goal_moved
    np.testing.assert_array_equal(fast.points, general.points)
    assert fast.cost == general.cost
    inside = shapely.Polygon([(4, 2), (12, 2), (12, 9), (4, 9)])
    assert not shapely.contains_xy(inside, fast.points[:, 0], fast.points[:, 1]).any()


def test_a_straight_walk_in_sight_is_returned_without_a_search():
    level = Level.rectangle(20, 12, obstacles=[[(8, 0), (10, 0), (10, 7), (8, 7)]])
    query = NavQuery(build_waypoint_graph(level, k=8, corners=True, linking="cones"))
    path = query.find_path([1.0, 10.0], [19.0, 11.0])
    assert path.points.tolist() == [[1.0, 10.0], [19.0, 11.0]]
    assert path.expansions == 0 and len(path.nodes) == 0
    assert path.cost == np.hypot(18.0, 1.0)
    general = query.find_paths(np.array([[1.0, 10.0]]), np.array([[19.0, 11.0]]))[0]
    assert (general.cost, general.expansions) == (path.cost, path.expansions)
