"""Hypothesis properties of NavQuery on randomised levels (cell obstacles, terrain, random
waypoints or generated corners, both linkings), for every profile and refinement:

- a NavQuery gives what the module-level ``find_path`` gives (a fresh query vs the cached one);
- ``find_paths`` gives what single calls give, and a sliced search what the one-shot search gives;
- without terrain, ``refine="none"`` costs what scipy's Dijkstra says on the graph plus start and
  goal arcs to every waypoint shapely sees (independent answer; these levels have < 100 waypoints);
- refinement never raises the cost and never beats the straight line; queries leave the map as it was.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from navmesh.errors import NoPathError, SearchBudgetError
from navmesh.level import Level
from navmesh.path import Path
from navmesh.terrain import CostProfile, TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery, find_path

SIZE = 12
SETTINGS = dict(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILES = [None, CostProfile("tank", {"mud": 3.0}), CostProfile("skater", {"mud": 0.5, "ice": 0.25}),
            CostProfile("dry", forbidden=frozenset({"mud"}))]


@st.composite
def levels(draw, terrain=True):
    cells = draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=25, unique=True))
    obstacles = [shapely.box(x, y, x + 1, y + 1) for x, y in cells]
    regions = []
    if terrain:
        for tag in draw(st.lists(st.sampled_from(["mud", "ice"]), max_size=2)):
            x, y = draw(st.integers(0, SIZE - 3)), draw(st.integers(0, SIZE - 3))
            w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
            regions.append(TerrainRegion(shapely.box(x + 0.5, y + 0.5, x + w + 0.5, y + h + 0.5), tag))
    seed = draw(st.integers(0, 2**31))
    pts = np.random.default_rng(seed).uniform(0, SIZE, (draw(st.integers(0, 25)), 2))
    blocked = shapely.union_all(obstacles) if obstacles else shapely.Polygon()
    pts = pts[~shapely.intersects_xy(blocked, pts[:, 0], pts[:, 1])] if len(pts) else pts.reshape(0, 2)
    level = Level.rectangle(SIZE, SIZE, obstacles=obstacles, waypoints=pts, terrain=regions)
    build = dict(k=draw(st.integers(2, 8)), corners=draw(st.booleans()) or len(pts) < 2,
                 linking=draw(st.sampled_from(["nearest", "cones"])))
    return level, build


def _ends(level, seed, count):
    # up to 0.4 outside the bounds on each axis: at most 0.57 away, inside the endpoint margin
    # (BOUNDS_MARGIN x the level's size = 0.6); a box corner of +-0.5 lay 0.71 away and was refused
    rng = np.random.default_rng(seed)
    return rng.uniform(-0.4, SIZE + 0.4, (count, 2)), rng.uniform(-0.4, SIZE + 0.4, (count, 2))


def _outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (NoPathError, SearchBudgetError) as err:
        return type(err)


def _same(a, b) -> bool:
    if isinstance(a, Path) and isinstance(b, Path):
        return (np.array_equal(a.nodes, b.nodes) and np.array_equal(a.points, b.points) and a.cost == b.cost
                and a.partial == b.partial and a.start_moved == b.start_moved and a.goal_moved == b.goal_moved)
    return a is b


@settings(**SETTINGS)
@given(levels(), st.integers(0, 2**31), st.sampled_from(PROFILES), st.sampled_from(["none", "smooth", "any_angle"]))
def test_navquery_group_and_sliced_searches_equal_the_module_function(data, seed, profile, refine):
    level, build = data
    nav = build_waypoint_graph(level, **build)
    assume(nav.n_nodes >= 2)
    starts, goals = _ends(level, seed, 6)
    q = NavQuery(nav, profile)
    group = q.find_paths(starts, goals, refine=refine, allow_partial=True)
    for i, (s, g) in enumerate(zip(starts, goals)):
        one = _outcome(q.find_path, s, g, refine=refine)
        assert _same(one, _outcome(find_path, nav, s, g, profile=profile, refine=refine))
        assert _same(group[i], q.find_path(s, g, refine=refine, allow_partial=True))
        search = q.start_search(s, g, refine=refine, allow_partial=True)
        while not search.advance(2):
            pass
        assert _same(search.result(), group[i])


@settings(**SETTINGS)
@given(levels(terrain=False), st.integers(0, 2**31))
def test_graph_cost_equals_csgraph_with_every_visible_join(data, seed):
    level, build = data
    nav = build_waypoint_graph(level, **build)
    assume(2 <= nav.n_nodes < 100)
    los = level.line_of_sight()
    starts, goals = _ends(level, seed, 4)
    pts, n = nav.points, nav.n_nodes
    q = NavQuery(nav)
    base = scipy.sparse.lil_array((n + 2, n + 2))
    for a, b, w in zip(nav.graph.arc_sources, nav.graph.indices, nav.graph.lengths):
        base[a, b] = w or 1e-300  # csgraph drops explicit zeros
    for s, g in zip(starts, goals):
        if not los.walkable(np.stack([s, g])).all():
            continue
        mat = base.copy()
        seen_s = np.flatnonzero(~los.blocked(np.repeat(s[None], n, axis=0), pts))
        seen_g = np.flatnonzero(~los.blocked(np.repeat(g[None], n, axis=0), pts))
        for v in seen_s:
            mat[n, v] = math.dist(s, pts[v]) or 1e-300
        for v in seen_g:
            mat[v, n + 1] = math.dist(pts[v], g) or 1e-300
        if not los.blocked(s[None], g[None])[0]:
            mat[n, n + 1] = math.dist(s, g) or 1e-300
        want = csgraph.dijkstra(mat.tocsr(), indices=n)[n + 1]
        if not np.isfinite(want):
            with pytest.raises(NoPathError):
                q.find_path(s, g, refine="none")
            continue
        plain = q.find_path(s, g, refine="none")
        assert plain.cost == pytest.approx(want, abs=1e-9)
        for refine in ("smooth", "any_angle"):
            better = q.find_path(s, g, refine=refine)
            assert math.dist(s, g) - 1e-9 <= better.cost <= plain.cost + 1e-9
            assert better.length == pytest.approx(better.cost)
            assert (~los.blocked(better.points[:-1], better.points[1:])).all()


@settings(**SETTINGS)
@given(levels(), st.integers(0, 2**31))
def test_queries_leave_the_map_unchanged(data, seed):
    level, build = data
    nav = build_waypoint_graph(level, **build)
    assume(nav.n_nodes >= 2)
    g = nav.graph
    before = [np.array(a, copy=True) for a in (g.points, g.indptr, g.indices, g.lengths, g.tags)]
    starts, goals = _ends(level, seed, 5)
    for profile in PROFILES:
        NavQuery(nav, profile).find_paths(starts, goals, allow_partial=True)
    for a, b in zip(before, (g.points, g.indptr, g.indices, g.lengths, g.tags)):
        np.testing.assert_array_equal(a, b)
