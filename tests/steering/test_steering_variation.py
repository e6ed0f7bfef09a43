"""Path variation: seeded offsets stay in free space and are reproducible; alternative routes."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

import navmesh
from navmesh.errors import InvalidOptionError
from navmesh.steering.variation import alternative_paths, vary_path


@pytest.fixture(scope="module")
def nav():
    level = navmesh.Level.rectangle(
        40, 30, obstacles=[shapely.box(10, 5, 14, 25), shapely.box(24, 0, 28, 12), shapely.box(24, 18, 28, 30),
                           shapely.box(17, 12, 20, 16)]
    )
    return navmesh.build_waypoint_graph(level, corners=True, fill_spacing=2.5, agent_radius=0.5)


def _long_path(nav):
    # an unsmoothed graph route: many inner waypoints to vary
    query = navmesh.NavQuery(nav)
    return query.find_path([2, 2], [38, 28], refine="none")


def test_variation_is_reproducible_and_stays_in_free_space(nav):
    path = _long_path(nav)
    assert len(path.points) > 5
    a = vary_path(path, nav, seed=42, max_offset=2.0, clearance=0.25)
    b = vary_path(path, nav, seed=42, max_offset=2.0, clearance=0.25)
    c = vary_path(path, nav, seed=43, max_offset=2.0, clearance=0.25)
    np.testing.assert_array_equal(a.points, b.points)
    assert not np.array_equal(a.points, c.points)
    assert a.points[0].tolist() == path.points[0].tolist() and a.points[-1].tolist() == path.points[-1].tolist()
    moved = np.hypot(*(a.points - path.points).T)
    assert (moved[1:-1] > 0).sum() >= len(moved) // 3  # most waypoints really moved
    assert moved.max() <= 2.0 + 1e-12
    los = nav.level.line_of_sight(agent_radius=0.5)
    for varied in (a, c):
        assert los.walkable(varied.points).all()
        assert not los.blocked(varied.points[:-1], varied.points[1:]).any()
    # the moved waypoints keep the clearance from the walls
    clear = nav.level.line_of_sight(agent_radius=0.75)
    assert clear.walkable(a.points[1:-1][moved[1:-1] > 0]).all()


def test_units_sent_the_same_way_spread_out(nav):
    path = _long_path(nav)
    lines = [vary_path(path, nav, seed=s, max_offset=1.5).points for s in range(8)]
    mid = np.array([line[len(line) // 2] for line in lines])
    assert len(np.unique(mid.round(6), axis=0)) >= 6


def test_alternative_routes_differ_and_are_walkable(nav):
    routes = alternative_paths(nav, [2, 15], [38, 15], 3, penalty=2.0)
    assert len(routes) >= 2
    assert len({r.points.round(6).tobytes() for r in routes}) == len(routes)
    best = navmesh.NavQuery(nav).find_path([2, 15], [38, 15])
    # cheapest first: close to the best path (routes enter the graph at the snapped waypoints
    # rather than the cheapest ones), never cheaper
    assert best.cost * (1 - 1e-9) <= routes[0].cost <= 1.05 * best.cost
    assert all(r.cost >= routes[0].cost * (1 - 1e-9) for r in routes[1:])
    los = nav.level.line_of_sight(agent_radius=0.5)
    for r in routes:
        assert not los.blocked(r.points[:-1], r.points[1:]).any()
        assert r.points[0].tolist() == [2.0, 15.0] and r.points[-1].tolist() == [38.0, 15.0]
    # the later routes go through different corridors: around the small block on the other side
    sides = {bool((r.points[:, 1] > 16).any()) for r in routes}
    assert sides == {True, False}


def test_bad_options(nav):
    path = _long_path(nav)
    with pytest.raises(InvalidOptionError):
        vary_path(path, nav, seed=1, max_offset=-1)
    with pytest.raises(InvalidOptionError):
        alternative_paths(nav, [2, 2], [38, 28], 0)
