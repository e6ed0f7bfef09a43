"""Hypothesis properties of waypoint graphs and point queries.

Levels are drawn on a small integer grid (obstacles are unions of cells, waypoints lattice or
random points), so the awkward cases are common: segments running along walls, waypoints on
corners, walls touching at a corner, walls against the map edge. Every property is checked
against an independent answer: brute-force nearest neighbours, shapely predicates, scipy csgraph.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.sparse
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from navmesh._kernels import los as LK
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for as _wall_grid
from navmesh.errors import NavmeshWarning, NoPathError
from navmesh.level import Level, Link
from navmesh.waypoints.query import find_path

SIZE = 12
SETTINGS = dict(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def levels(draw, with_links=True):
    cells = draw(st.lists(st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), max_size=30, unique=True))
    obstacles = [shapely.box(x, y, x + 1, y + 1) for x, y in cells]
    blocked = shapely.union_all(obstacles) if obstacles else shapely.Polygon()
    lattice = draw(st.booleans())
    n = draw(st.integers(2, 30))
    if lattice:
        pts = draw(st.lists(st.tuples(st.integers(0, SIZE), st.integers(0, SIZE)), min_size=n, max_size=n, unique=True))
    else:
        seed = draw(st.integers(0, 2**31))
        pts = np.random.default_rng(seed).uniform(0, SIZE, (n, 2)).tolist()
    pts = np.asarray(pts, dtype=np.float64)
    inside = shapely.contains_properly(blocked, shapely.points(pts)) if obstacles else np.zeros(len(pts), bool)
    pts = pts[~inside]
    assume(len(pts) >= 2)
    links = []
    if with_links:
        for _ in range(draw(st.integers(0, 3))):
            a, b = draw(st.lists(st.integers(0, len(pts) - 1), min_size=2, max_size=2, unique=True))
            if all({a, b} != {lk.a, lk.b} for lk in links):
                links.append(Link(a, b, draw(st.sampled_from(["forced", "forbidden"]))))
    return Level.rectangle(SIZE, SIZE, obstacles=obstacles, waypoints=pts, links=links)


def _free_by_shapely(level: Level, a, b) -> np.ndarray:
    """Line of sight written directly with shapely predicates: inside the bounds and not meeting
    the interior of the merged obstacles (a necessary condition of the library's rule)."""
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    ok = shapely.covers(level.bounds, lines)
    if level.obstacles:
        union = shapely.union_all(level.obstacles)
        ok &= ~shapely.relate_pattern(lines, union, "T********")
    return ok


@settings(**SETTINGS)
@given(levels(), st.integers(1, 6))
def test_links_are_symmetric_without_one_way_links(level, k):
    nav = build_waypoint_graph(level, k=k)
    m = nav.graph.to_scipy(np.ones(nav.graph.n_edges))
    assert (m != m.T).nnz == 0


@settings(**SETTINGS)
@given(levels(with_links=False), st.integers(1, 6))
def test_arcs_are_exactly_the_visible_nearest_pairs(level, k):
    nav = build_waypoint_graph(level, k=k, max_candidates=k)
    pts = nav.points
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    # "the k nearest" is ambiguous with ties (lattice points): only judge levels without them
    assume(all(len(np.unique(row)) == len(row) for row in np.sort(d, axis=1)[:, : min(k + 1, len(pts) - 1)]))
    nearest = np.argsort(d, axis=1, kind="stable")[:, :k]
    cand = {tuple(sorted((u, int(v)))) for u in range(len(pts)) for v in nearest[u] if np.isfinite(d[u, v])}
    cand = sorted(cand)
    if cand:
        a = np.array([pts[u] for u, _ in cand])
        b = np.array([pts[v] for _, v in cand])
        visible = ~level.line_of_sight().blocked(a, b)
        want = {(u, v) for (u, v), ok in zip(cand, visible) if ok} | {(v, u) for (u, v), ok in zip(cand, visible) if ok}
    else:
        want = set()
    got = set(zip(nav.graph.arc_sources.tolist(), nav.graph.indices.tolist()))
    assert got == want
    if got:
        s, t = np.array(sorted(got)).T
        assert _free_by_shapely(level, pts[s], pts[t]).all()


@settings(**SETTINGS)
@given(levels(), st.integers(2, 6), st.integers(0, 2**31))
def test_point_queries_match_csgraph_on_the_augmented_graph(level, k, seed):
    nav = build_waypoint_graph(level, k=k, max_candidates=k)
    rng = np.random.default_rng(seed)
    los = level.line_of_sight()
    ends = rng.uniform(0, SIZE, (2, 2))
    assume(los.walkable(ends).all())
    s, g = ends
    pts, n = nav.points, nav.n_nodes

    def joins(p):
        dist = np.hypot(*(pts - p).T)
        order = np.argsort(dist, kind="stable")[:k]
        assume(len(order) == len(pts) or dist[np.argsort(dist)[k]] > dist[order[-1]])  # no tie at the k-th
        return order[~los.blocked(np.repeat(p[None], len(order), axis=0), pts[order])]

    mat = scipy.sparse.lil_array((n + 2, n + 2))
    for a, b, w in zip(nav.graph.arc_sources, nav.graph.indices, nav.weights().values):
        mat[a, b] = w if not mat[a, b] else min(mat[a, b], w)
    for v in joins(s):
        mat[n, v] = math.dist(s, pts[v]) or 1e-300  # csgraph drops explicit zeros in lil
    for v in joins(g):
        mat[v, n + 1] = math.dist(pts[v], g) or 1e-300
    if not los.blocked(s[None], g[None])[0]:
        mat[n, n + 1] = math.dist(s, g) or 1e-300
    want = csgraph.dijkstra(mat.tocsr(), indices=n)[n + 1]
    entries_seen = len(joins(s)) > 0 or not los.blocked(s[None], g[None])[0]
    assume(entries_seen)
    if not np.isfinite(want):
        with pytest.raises(NoPathError):
            find_path(nav, s, g, refine="none")
        return
    plain = find_path(nav, s, g, refine="none")
    assert plain.cost == pytest.approx(want, abs=1e-9)
    for refine in ("smooth", "any_angle"):
        better = find_path(nav, s, g, refine=refine)
        assert better.cost <= plain.cost + 1e-9
        assert better.cost >= math.dist(s, g) - 1e-9
        assert better.length == pytest.approx(better.cost)
        if not level.links:  # a forced link may jump through a wall; every other leg has line of sight
            assert (~los.blocked(better.points[:-1], better.points[1:])).all()


@settings(**SETTINGS)
@given(levels(with_links=False), st.sampled_from([0.0, 0.25, 0.5]), st.integers(0, 2**31))
def test_kernel_line_of_sight_equals_shapely(level, radius, seed):
    los = level.line_of_sight(agent_radius=radius)
    rng = np.random.default_rng(seed)
    pts = np.concatenate([rng.integers(0, 2 * SIZE + 1, (200, 2)) / 2.0, rng.uniform(0, SIZE, (100, 2))])
    pts = pts[los.walkable(pts)]
    assume(len(pts) >= 2)
    i, j = rng.integers(len(pts), size=(2, 400))
    got = LK.segments_free(pts[i], pts[j], *_wall_grid(los))
    np.testing.assert_array_equal(got, ~los.blocked(pts[i], pts[j]))


@settings(**SETTINGS)
@given(levels(), st.tuples(st.integers(0, SIZE - 2), st.integers(0, SIZE - 2), st.integers(1, 3), st.integers(1, 3)),
       st.booleans())
def test_local_update_equals_rebuild(level, door, corners):
    x, y, w, h = door
    options = dict(k=4, corners=corners)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        nav = build_waypoint_graph(level, **options)
        closed = nav.with_obstacle(shapely.box(x, y, x + w, y + h))
        rebuilt = build_waypoint_graph(closed.level, **options)
        reopened = closed.without_obstacle(len(closed.level.obstacles) - 1)
    for a, b in ((closed, rebuilt), (reopened, nav)):
        for name in ("points", "indptr", "indices", "lengths", "tags"):
            np.testing.assert_array_equal(getattr(a.graph, name), getattr(b.graph, name))
