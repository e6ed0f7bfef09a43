"""PathFollower: exact arrival at any frame rate, constant speed, events, chasing, re-plans."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

import navmesh
from navmesh.errors import InvalidGeometryError, InvalidOptionError
from navmesh.steering import PathFollower

POLY = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 4.0], [10.0, 4.5], [12.0, 1.0]])
LENGTH = 3 + 4 + math.hypot(7, 0.5) + math.hypot(2, 3.5)


def _run(f: PathFollower, dt: float, limit: int = 100_000) -> tuple[int, list]:
    steps, events = 0, []
    while not f.done and steps < limit:
        events += list(f.update(dt))
        steps += 1
    return steps, events


@pytest.mark.parametrize("rate", [30, 60, 144])
@pytest.mark.parametrize("mode", ["straight", "hermite"])
def test_arrives_exactly_at_the_goal_in_length_over_speed_seconds(rate, mode):
    speed, dt = 2.5, 1.0 / rate
    f = PathFollower(POLY, speed, mode=mode)
    if mode == "straight":
        assert f.length == pytest.approx(LENGTH, rel=1e-12)
    expected = f.length / speed
    steps, _ = _run(f, dt)
    assert f.done
    assert f.position.tolist() == POLY[-1].tolist()  # exactly the goal, no rounding
    assert expected <= steps * dt + 1e-12 < expected + dt + 1e-12


@pytest.mark.parametrize("mode", ["straight", "hermite"])
def test_speed_is_constant_along_the_arc_length(mode):
    f = PathFollower(POLY, 3.0, mode=mode)
    dt = 1 / 60
    travelled = []
    while not f.done:
        f.update(dt)
        travelled.append(f.travelled)
    steps = np.diff([0.0, *travelled])
    np.testing.assert_allclose(steps[:-1], 3.0 * dt, rtol=1e-9)  # every full frame
    assert 0 < steps[-1] <= 3.0 * dt + 1e-12


def test_straight_mode_moves_along_the_polyline_with_its_heading():
    f = PathFollower(POLY, 1.0)
    f.update(1.0)
    assert f.position.tolist() == [1.0, 0.0]
    assert f.heading == 0.0
    np.testing.assert_allclose(f.velocity, [1.0, 0.0])
    f.update(3.0)  # past the corner at (3, 0): one unit up the second leg
    np.testing.assert_allclose(f.position, [3.0, 1.0])
    assert f.heading == pytest.approx(math.pi / 2)


def test_events_report_each_waypoint_once_then_the_goal():
    f = PathFollower(POLY, 2.0)
    _, events = _run(f, 1 / 30)
    kinds = [(e.kind, e.index) for e in events]
    assert kinds == [("waypoint", 1), ("waypoint", 2), ("waypoint", 3), ("goal", 4)]
    assert events[0].position == (3.0, 0.0)
    assert f.update(1 / 30) == ()  # nothing more happens once done
    assert f.velocity.tolist() == [0.0, 0.0]


def test_braking_slows_down_and_adds_brake_distance_over_speed():
    speed, d, dt = 2.0, 1.5, 1 / 144
    f = PathFollower(POLY, speed, brake_distance=d)
    speeds = []
    steps = 0
    while not f.done:
        f.update(dt)
        speeds.append(np.hypot(*f.velocity))
        steps += 1
    expected = (LENGTH + d) / speed
    assert expected <= steps * dt + 1e-9 < expected + dt
    tail = np.array(speeds[-int(d / speed / dt) :])
    assert np.all(np.diff(tail[:-1]) <= 1e-9)  # slowing down
    assert tail[-2] < 0.1 * speed
    assert f.position.tolist() == POLY[-1].tolist()


def test_single_point_path_is_done_at_once():
    f = PathFollower([[2.0, 3.0]], 1.0)
    assert f.done and f.position.tolist() == [2.0, 3.0]


def test_bad_input_gets_clear_errors():
    with pytest.raises(InvalidOptionError, match="speed"):
        PathFollower(POLY, 0.0)
    with pytest.raises(InvalidOptionError, match="mode"):
        PathFollower(POLY, 1.0, mode="bezier")
    with pytest.raises(InvalidGeometryError):
        PathFollower([[0, 0], [np.inf, 1]], 1.0)
    with pytest.raises(InvalidOptionError, match="dt"):
        PathFollower(POLY, 1.0).update(-1)


@pytest.mark.parametrize("navmap", ["abc", 5, navmesh.Level.rectangle(10, 10), navmesh.GridMap(np.zeros((2, 2), bool))])
def test_navmap_that_is_not_a_navmap_is_refused_at_once(navmap):
    """Not later, deep inside a re-plan or curve check, as an AttributeError."""
    with pytest.raises(InvalidOptionError, match=r"navmap=.* is not a NavMap"):
        PathFollower(POLY, 1.0, navmap=navmap, mode="hermite")


# -- re-planning on a level ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def level_nav():
    level = navmesh.Level.rectangle(
        40, 30, obstacles=[shapely.box(10, 5, 14, 25), shapely.box(24, 0, 28, 12), shapely.box(24, 18, 28, 27)]
    )
    return level, navmesh.build_waypoint_graph(level, corners=True, fill_spacing=3.0, agent_radius=0.5)


def test_chaser_catches_a_slower_target(level_nav):
    level, nav = level_nav
    query = navmesh.NavQuery(nav)
    legs = [query.find_path(a, b).points for a, b in [([16, 15], [38, 2]), ([38, 2], [38, 28]), ([38, 28], [2, 28])]]
    target = PathFollower(np.concatenate([legs[0], legs[1][1:], legs[2][1:]]), 2.0)
    chaser = PathFollower(query.find_path([2, 2], [16, 15]), 3.0, navmap=nav, radius=0.5, mode="hermite",
                          replan_interval=0.5)
    los = level.line_of_sight(agent_radius=0.5)
    dt = 1 / 60
    caught_at, replans = None, 0
    for frame in range(60 * 60):
        target.update(dt)
        before, velocity = chaser.position.copy(), chaser.velocity.copy()
        chaser.chase(target.position)
        events = chaser.update(dt)
        # continuous motion: never faster than its speed, never into a wall
        assert np.hypot(*(chaser.position - before)) <= 3.0 * dt + 1e-9
        if any(e.kind == "replan" for e in events):
            replans += 1
            assert los.walkable(chaser.route).all()
            assert velocity @ chaser.velocity >= 0  # no reversal at the re-plan
        if np.hypot(*(chaser.position - target.position)) < 0.5:
            caught_at = frame
            break
    assert caught_at is not None
    assert replans >= 2
    assert not target.done  # caught on the run, not after the target stopped


def test_pushed_off_route_replans_and_resumes(level_nav):
    _, nav = level_nav
    path = navmesh.NavQuery(nav).find_path([2, 2], [38, 28])
    f = PathFollower(path, 4.0, navmap=nav, radius=0.5, offpath_distance=1.0)
    f.update(0.5)
    f.push([0.2, 0.2])  # small nudge: keeps the route
    assert not any(e.kind == "replan" for e in f.update(0.1))
    f.push([0.0, 3.0])
    events = f.update(0.1)
    assert [e.kind for e in events][:1] == ["replan"]
    assert f.waypoints[0].tolist() != path.points[0].tolist()
    _run(f, 1 / 30)
    assert f.done and f.position.tolist() == [38.0, 28.0]


def test_a_route_through_the_door_is_blocked_when_it_closes(level_nav):
    _, nav = level_nav
    f = PathFollower(navmesh.NavQuery(nav).find_path([20, 15], [32, 15]), 4.0, navmap=nav, radius=0.5)
    closed = nav.with_obstacle(shapely.box(24, 12, 28, 18))
    assert f.set_navmap(closed)
    kinds = [e.kind for e in f.update(1 / 30)]
    assert kinds[:2] == ["blocked", "replan"]
    assert not closed.line_of_sight.blocked(f.route[:-1], f.route[1:]).any()
    assert f.route[:, 1].max() > 27  # around through the top gap


def test_a_route_cut_off_for_good_stops_with_a_blocked_event(level_nav):
    _, nav = level_nav
    f = PathFollower(navmesh.NavQuery(nav).find_path([20, 15], [32, 15]), 4.0, navmap=nav, radius=0.5)
    f.update(0.5)
    where = f.position.copy()
    walled = nav.with_obstacle(shapely.box(24, 12, 28, 18)).with_obstacle(shapely.box(24, 26, 28, 30))
    assert f.set_navmap(walled)
    kinds = [e.kind for e in f.update(1 / 30)]
    assert kinds == ["blocked"]
    assert f.done and f.position.tolist() == where.tolist()


def test_without_a_map_a_pushed_unit_walks_back_to_its_next_waypoint():
    f = PathFollower(POLY, 1.0, offpath_distance=0.5)
    f.update(1.0)  # at (1, 0), heading for waypoint 1 at (3, 0)
    f.push([0.0, -2.0])
    assert [e.kind for e in f.update(0.5)] == ["replan"]
    np.testing.assert_allclose(f.waypoints, np.concatenate([[[1.0, -2.0]], POLY[1:]]))
    _run(f, 1 / 60)
    assert f.position.tolist() == POLY[-1].tolist()


def test_update_with_zero_dt_is_a_no_op():
    f = PathFollower(POLY, 2.0)
    f.update(0.5)
    position, travelled, heading, velocity = f.position.copy(), f.travelled, f.heading, f.velocity.copy()
    assert f.update(0) == () and f.update(0.0) == () and f.events == ()
    assert f.position.tolist() == position.tolist() and f.travelled == travelled
    assert f.heading == heading and f.velocity.tolist() == velocity.tolist() and not f.done


# -- on a PolyMesh -------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["straight", "hermite"])
def test_a_follower_walks_a_mesh_path_and_replans_on_the_mesh_when_the_goal_moves(level_nav, mode):
    level, _ = level_nav
    mesh = navmesh.build_navmesh(level, agent_radius=0.5)
    free = shapely.buffer(shapely.union_all(mesh.to_shapely()), 1e-6)
    query = navmesh.MeshQuery(mesh)
    f = PathFollower(query.find_path([2, 2], [38, 28]), 4.0, navmap=mesh, radius=0.5, mode=mode)
    assert f._sight().blocked([[2, 15]], [[20, 15]]).tolist() == [True]  # through the first wall
    dt, moved_at, last_replan = 1 / 60, None, None
    for frame in range(60 * 60):
        if frame == 120:  # the goal moves: re-plan from where the unit stands, on the mesh
            moved_at = f.position.copy()
            f.chase([38, 2])
        events = f.update(dt)
        assert shapely.covers(free, shapely.Point(f.position))  # never leaves free space
        if any(e.kind == "replan" for e in events):
            last_replan = f.waypoints.copy()
            assert np.hypot(*(f.waypoints[0] - moved_at)) <= 4.0 * dt + 1e-9  # from where it stood
            assert shapely.covers(free, shapely.LineString(f.route))
        if f.done:
            break
    assert f.done and f.position.tolist() == [38.0, 2.0]
    assert last_replan is not None
    # the re-planned route is the exact mesh path from that point (straight mode walks it as is)
    exact = query.find_path(last_replan[0], [38, 2])
    assert float(np.hypot(*np.diff(last_replan, axis=0).T).sum()) == pytest.approx(exact.cost, rel=1e-9)


def test_a_mesh_query_given_as_navmap_is_reused_with_its_profile(level_nav):
    level, _ = level_nav
    query = navmesh.MeshQuery(navmesh.build_navmesh(level, agent_radius=0.5), navmesh.CostProfile("tank"))
    f = PathFollower(query.find_path([2, 2], [38, 28]), 4.0, navmap=query)
    assert f.navmap is query.mesh and f.profile.name == "tank"
    f.chase([2, 28])
    f.update(0.1)
    assert f._query is query and f.route[-1].tolist() == [2.0, 28.0]


@pytest.mark.parametrize("mode", ["straight", "hermite"])
def test_a_door_closing_on_the_mesh_re_plans_from_where_the_unit_stands(level_nav, mode):
    """A real local mesh update (navmesh.polymesh.with_obstacle) across the route: the unit is told at
    once, re-plans on the new mesh from its own position, walks round and never enters the door."""
    level, _ = level_nav
    mesh = navmesh.build_navmesh(level, agent_radius=0.5)
    f = PathFollower(navmesh.NavQuery(mesh).find_path([20, 15], [32, 15]), 4.0, navmap=mesh, radius=0.5, mode=mode)
    f.update(0.5)
    assert f.route[:, 1].tolist() == [15.0, 15.0]  # straight through the gap at x 24..28, y 12..18
    door = shapely.box(24, 12, 28, 18)
    closed = navmesh.polymesh.with_obstacle(mesh, door)
    stood = f.position.copy()
    assert f.set_navmap(closed)
    kinds = [e.kind for e in f.update(1 / 60)]
    assert kinds[:2] == ["blocked", "replan"]
    assert f.waypoints[0].tolist() == stood.tolist()  # from where it stood, no jump
    # the new route is the exact path on a fresh build of the closed level (straight mode walks it as is)
    rebuilt = navmesh.NavQuery(navmesh.build_navmesh(closed.level, agent_radius=0.5))
    if mode == "straight":
        length = float(np.hypot(*np.diff(f.waypoints, axis=0).T).sum())
        assert length == pytest.approx(rebuilt.find_path(stood, [32, 15]).cost, rel=1e-9)
    grown = shapely.buffer(door, 0.5 - 1e-6, join_style="mitre")
    while not f.done:
        f.update(1 / 60)
        assert not shapely.intersects(grown, shapely.Point(f.position))
    assert f.position.tolist() == [32.0, 15.0]
    assert f.set_navmap(navmesh.polymesh.without_obstacle(closed, -1)) is False  # done: nothing to re-plan


def test_set_navmap_refuses_a_non_map_and_keeps_the_old_one(level_nav):
    level, nav = level_nav
    mesh = navmesh.build_navmesh(level, agent_radius=0.5)
    f = PathFollower(navmesh.NavQuery(mesh).find_path([2, 2], [38, 28]), 4.0, navmap=mesh)
    for bad in ("abc", None, level, navmesh.GridMap(np.zeros((2, 2), bool))):
        with pytest.raises(InvalidOptionError, match=r"navmap=.* is not a NavMap, PolyMesh or MeshQuery"):
            f.set_navmap(bad)
    assert f.navmap is mesh
    f.chase([2, 28])
    assert [e.kind for e in f.update(0.1)] == ["replan"]  # still plans on the mesh
    assert f.set_navmap(navmesh.MeshQuery(mesh)) is False and f.navmap is mesh
    assert f.set_navmap(nav) is False and f.navmap is nav  # and back to the waypoint graph
