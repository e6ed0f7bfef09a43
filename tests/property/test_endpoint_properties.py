"""Hypothesis: positions the library produced are always valid starts and goals.

On random levels with an agent radius, every point of a returned path, every position
interpolated along its legs and every position a PathFollower walks through (straight or on
its Hermite curve) is re-planned from (and to) with ``strict=True``: never an exception, never
reported as moved, and the new path is sane (finite cost, at least the straight-line
distance). Where the units of a Crowd stand are valid starts too.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from navmesh.errors import NoPathError
from navmesh.level import Level
from navmesh.steering import Crowd, PathFollower
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

SIZE = 400.0


@st.composite
def levels(draw):
    """A SIZE x SIZE room with 1-4 rotated rectangles and an agent radius of 1-20."""
    obstacles = []
    for _ in range(draw(st.integers(1, 4))):
        cx, cy = draw(st.floats(60, SIZE - 60)), draw(st.floats(60, SIZE - 60))
        w, h = draw(st.floats(8, 120)), draw(st.floats(8, 120))
        angle = draw(st.floats(0, np.pi))
        c, s = np.cos(angle), np.sin(angle)
        corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2 @ np.array([[c, s], [-s, c]]) + [cx, cy]
        obstacles.append(corners.tolist())
    radius = draw(st.floats(1, 20))
    ends = [draw(st.floats(0, SIZE)) for _ in range(4)]
    return Level.rectangle(SIZE, SIZE, obstacles=obstacles), radius, ends


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels(), st.sampled_from(["any_angle", "smooth", "none"]), st.sampled_from(["straight", "hermite"]))
def test_positions_along_routes_are_valid_endpoints(case, refine, mode):
    level, radius, (sx, sy, gx, gy) = case
    nav = build_waypoint_graph(level, corners=True, agent_radius=radius)
    q = NavQuery(nav)
    try:
        route = q.find_path((sx, sy), (gx, gy), refine=refine)
    except NoPathError:
        assume(False)
    start, goal = route.points[0], route.points[-1]
    t = np.linspace(0, 1, 7)[:, None]
    legs = [route.points[i] + t * (route.points[i + 1] - route.points[i]) for i in range(len(route.points) - 1)]
    follower = PathFollower(route, speed=97.0, mode=mode, navmap=nav, radius=radius)
    walked = []
    while not follower.done:
        follower.update(1 / 30)
        walked.append(follower.position.copy())
    samples = np.concatenate([route.points, *legs, np.array(walked).reshape(-1, 2)])
    for p in samples:
        for s, g in ((p, goal), (start, p)):
            again = q.find_path(s, g, refine=refine, strict=True)
            assert not again.start_moved and not again.goal_moved
            assert np.isfinite(again.cost)
            assert again.cost >= np.hypot(*(g - s)) - 1e-6
            assert np.hypot(*(again.points[0] - s)) <= 1e-9 * SIZE
            assert np.hypot(*(again.points[-1] - g)) <= 1e-9 * SIZE


@pytest.mark.parametrize("radius", [8.0, 20.0])
def test_nearest_walkable_never_fails_inside_or_near_the_bounds(radius):
    level = Level.rectangle(SIZE, SIZE, obstacles=[[(100, 100), (140, 100), (140, 300), (100, 300)]])
    nav = build_waypoint_graph(level, corners=True, agent_radius=radius)
    q = NavQuery(nav)
    rng = np.random.default_rng(0)
    pts = rng.uniform(-1e-7, SIZE + 1e-7, size=(2000, 2))
    corners = nav.walkable_region.exterior.coords[:-1] if nav.walkable_region.geom_type == "Polygon" else []
    pts = np.concatenate([pts, np.asarray(corners).reshape(-1, 2), np.array([[120, 200], [0, 0], [SIZE, SIZE]])])
    moved = q.nearest_walkable(pts)
    assert nav.line_of_sight.walkable(moved).all()
    # nothing walkable lies nearer than the moved point (up to the push inside)
    gap = np.hypot(*(moved - pts).T)
    exact = shapely.distance(nav.walkable_region, shapely.points(pts))
    assert (gap <= exact + 1e-6 * SIZE).all()


def test_positions_a_crowd_produces_are_valid_starts():
    level = Level.rectangle(SIZE, SIZE, obstacles=[[(100, 60), (140, 60), (140, 340), (100, 340)],
                                                   [(220, 0), (260, 0), (260, 250), (220, 250)]])
    radius = 9.0
    nav = build_waypoint_graph(level, corners=True, agent_radius=radius)
    q = NavQuery(nav)
    crowd = Crowd(nav)
    rng = np.random.default_rng(3)
    ids = crowd.add(rng.uniform([10, 10], [90, 390], (40, 2)), radius=radius, speed=120.0)
    crowd.move_to(ids, [350.0, 60.0])
    checked = 0
    for frame in range(240):
        crowd.update(1 / 30)
        if frame % 12:
            continue
        for p in crowd.positions:
            path = q.find_path(p, (350.0, 60.0))  # never an exception
            assert np.isfinite(path.cost) and path.cost >= np.hypot(*(np.subtract((350.0, 60.0), p))) - 1e-6
            assert np.hypot(*(path.points[0] - p)) <= 1e-6 * SIZE  # nobody stands in a wall
            checked += 1
    assert checked == 40 * 20
