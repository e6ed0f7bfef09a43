"""NavQuery.find_path's one-call compiled road equals the general road, and the options are
checked once (navmesh.query_options) however often they are cached."""

from __future__ import annotations

import numpy as np
import pytest

from navmesh._kernels import anyangle as AK
from navmesh.errors import InvalidOptionError, NoPathError, SearchBudgetError
from navmesh.level import Level
from navmesh.query_options import QueryOptions, cached_query_options, check_query_options
from navmesh.danger import DangerZone
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

OBSTACLES = [[(3, 2), (5, 2), (5, 9), (3, 9)], [(7, 0), (8, 0), (8, 6), (7, 6)], [(10, 4), (13, 4), (13, 5), (10, 5)]]


@pytest.fixture(scope="module")
def query():
    level = Level.rectangle(15, 12, obstacles=OBSTACLES)
    return NavQuery(build_waypoint_graph(level, k=4, corners=True, linking="cones", agent_radius=0.25))


def _same(a, b):
    np.testing.assert_array_equal(a.points, b.points)
    np.testing.assert_array_equal(a.nodes, b.nodes)
    assert (a.cost, a.expansions, a.partial, a.start_moved, a.goal_moved) == (
        b.cost, b.expansions, b.partial, b.start_moved, b.goal_moved)


@pytest.mark.parametrize("options", [{}, {"refine": "none"}, {"refine": "smooth", "heuristic_weight": 1.5},
                                     {"lookback": 4}, {"max_expansions": 3, "allow_partial": True}])
def test_the_fast_road_equals_the_general_road(query, options, monkeypatch):
    calls = []
    real = AK.solve_batch
    # the one-call road is solve_batch with join_here (a[26]) set
    monkeypatch.setattr(AK, "solve_batch", lambda *a: (a[26] and calls.append(1)) or real(*a))
    rng = np.random.default_rng(3)
    pts = rng.uniform([0.3, 0.3], [14.7, 11.7], size=(60, 2))
    checked = 0
    for s, g in zip(pts[:30], pts[30:]):
        fast = query.find_path(s.tolist(), g.tolist(), **options)  # plain lists take the fast road
        general = query.find_paths(s[None], g[None], **options)[0]  # rows always take the general road
        _same(fast, general)
        # the same query through danger=[] (a list) goes the general road too
        _same(fast, query.find_path(s, g, danger=[], **options))
        checked += 1
    assert checked == 30 and len(calls) == 30  # list positions took the fast road, rows did not


def test_an_endpoint_in_a_wall_falls_back_and_is_moved(query):
    fast = query.find_path([4.0, 5.0], [14.0, 1.0])  # the start stands inside the first obstacle
    assert fast.start_moved and fast.points[0].tolist() != [4.0, 5.0]
    _same(fast, query.find_paths(np.array([[4.0, 5.0]]), np.array([[14.0, 1.0]]))[0])


def test_the_fast_road_raises_like_the_general_road(query):
    with pytest.raises(SearchBudgetError) as fast:
        query.find_path([1.0, 1.0], [14.0, 11.0], max_expansions=1, allow_partial=False, refine="none")
    with pytest.raises(SearchBudgetError) as general:
        query.find_path([1.0, 1.0], [14.0, 11.0], danger=[], max_expansions=1, refine="none")
    assert str(fast.value) == str(general.value)
    walled = Level.rectangle(10, 10, obstacles=[[(4, -1), (6, -1), (6, 11), (4, 11)]])
    cut = NavQuery(build_waypoint_graph(walled, k=4, corners=True))
    with pytest.raises(NoPathError, match=r"no path from \[1.0, 5.0\] to \[9.0, 5.0\]"):
        cut.find_path([1.0, 5.0], [9.0, 5.0])


def test_danger_zones_take_the_general_road_and_raise_costs(query):
    plain = query.find_path([1.0, 10.0], [6.0, 10.0])
    zone = DangerZone((5.5, 10.0), 1.0, 100.0)
    assert query.find_path([1.0, 10.0], [6.0, 10.0], danger=(zone,)).cost > plain.cost


# -- options ------------------------------------------------------------------------------------
def test_options_are_checked_once_into_a_frozen_object():
    opts = check_query_options(refine="none", max_expansions=5, allow_partial=True)
    assert opts == QueryOptions("none", 1.0, 5, True, False, 1) and opts.budget == 5
    with pytest.raises(AttributeError):
        opts.refine = "smooth"  # frozen
    assert check_query_options().budget == 0


@pytest.mark.parametrize("name, value, rule", [
    ("refine", "best", "expected one of 'none', 'smooth', 'any_angle'"),
    ("heuristic_weight", 0.5, "expected a number >= 1"),
    ("max_expansions", 0, "expected an integer from 1"),
    ("allow_partial", 1, "expected True or False"),
    ("strict", "yes", "expected True or False"),
    ("lookback", 2000, "MAX_LOOKBACK=1024"),
])
def test_a_bad_option_names_itself_its_value_and_the_rule(name, value, rule):
    with pytest.raises(InvalidOptionError, match=rf"{name}=.*{rule}"):
        check_query_options(**{name: value})


def test_the_cache_tells_one_from_true(query):
    args = dict(refine="any_angle", heuristic_weight=1.0, max_expansions=None, strict=False, lookback=1)
    assert cached_query_options(allow_partial=True, **args).allow_partial is True
    with pytest.raises(InvalidOptionError, match="allow_partial=1"):
        cached_query_options(allow_partial=1, **args)
    with pytest.raises(InvalidOptionError, match="allow_partial=1"):
        query.find_path([1.0, 1.0], [2.0, 1.0], allow_partial=1)
    with pytest.raises(InvalidOptionError, match="lookback"):
        query.find_path([1.0, 1.0], [2.0, 1.0], lookback=[1])  # unhashable: checked, not cached
