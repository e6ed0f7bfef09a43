"""Tests of navmesh.waypoints.query (snap, find_path, smooth_path) and the any-angle kernels."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse
import shapely
from scipy.sparse import csgraph

from navmesh._kernels import los as LK
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for as _wall_grid
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
)
from navmesh.sight import LineOfSight
from navmesh.level import Level, Link, OffMeshLink
from navmesh.path import Path
from navmesh.waypoints.query import JOIN_NEAREST, find_path, smooth_path, snap
from navmesh.search import dijkstra
from navmesh.danger import DangerZone
from navmesh.terrain import CostProfile, TerrainRegion, terrain_lengths

WALL = [(4, 0), (6, 0), (6, 8), (4, 8)]


@pytest.fixture(scope="module")
def walled():
    level = Level.rectangle(10, 10, obstacles=[WALL], waypoints=[[3, 1], [7, 1], [1, 9], [9, 9]])
    return build_waypoint_graph(level, corners=True)


# -- snap --------------------------------------------------------------------------------------
def test_snap_picks_the_nearest_visible_waypoint(walled):
    assert snap(walled, [7.5, 1.5]) == 1  # (3, 1) is nearer in a straight line but behind the wall
    assert snap(walled, [1, 8.5]) == 2


def test_snap_errors_name_the_point(walled):
    with pytest.raises(NodeNotFoundError, match=r"point=\[5.0, 4.0\] is not walkable"):
        snap(walled, [5, 4])
    with pytest.raises(NodeNotFoundError, match="not walkable"):
        snap(walled, [11, 4])
    with pytest.raises(InvalidGeometryError, match="point"):
        snap(walled, [1, float("nan")])
    with pytest.raises(InvalidGeometryError, match="point"):
        snap(walled, "here")


def test_snap_with_nothing_visible():
    room = [[(2, 2), (8, 2), (8, 8), (2, 8)], [(3, 3), (7, 3), (7, 7), (3, 7)]]
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[room], waypoints=[[1, 1], [9, 9]]))
    with pytest.raises(NodeNotFoundError, match="no waypoint is visible"):
        snap(nav, [5, 5])


# -- find_path ---------------------------------------------------------------------------------
def test_straight_path_when_the_goal_is_in_sight(walled):
    path = find_path(walled, [1, 9.5], [9, 9.5])
    assert path.nodes.tolist() == []
    assert path.points.tolist() == [[1, 9.5], [9, 9.5]]
    assert path.cost == 8.0


@pytest.mark.parametrize("refine", ["none", "smooth", "any_angle"])
def test_path_around_a_wall_starts_and_ends_exactly(walled, refine):
    path = find_path(walled, [2.5, 0.5], [7.25, 0.75], refine=refine)
    np.testing.assert_array_equal(path.points[0], [2.5, 0.5])
    np.testing.assert_array_equal(path.points[-1], [7.25, 0.75])
    # the shortest route bends at the wall's top corners (4, 8) and (6, 8)
    want = math.hypot(1.5, 7.5) + 2 + math.hypot(1.25, 7.25)
    if refine == "none":
        assert path.cost >= want - 1e-9
    else:
        assert path.cost == pytest.approx(want)
        assert path.points[1:-1].tolist() == [[4, 8], [6, 8]]
    assert path.length == pytest.approx(path.cost)


def _augmented_csgraph_cost(nav, s, g, k):
    """Cheapest cost by scipy csgraph on the graph plus start and goal nodes, whose links are found
    here independently: the k nearest waypoints by brute force, kept when shapely says visible."""
    pts = nav.points
    n = len(pts)
    los = nav.level.line_of_sight()

    def joins(p):
        # every visible waypoint among the k nearest; all visible ones when none of those is
        order = np.argsort(np.hypot(*(pts - p).T), kind="stable")
        lines = shapely.linestrings(np.stack([np.repeat([p], len(order), axis=0), pts[order]], axis=1))
        free = shapely.covers(los.eroded_bounds, lines) & ~np.any(
            [shapely.crosses(o, lines) | shapely.contains(o, lines) for o in los.inflated], axis=0
        )
        return order[:k][free[:k]] if free[:k].any() else order[free]

    w = nav.weights().values
    mat = scipy.sparse.lil_array((n + 2, n + 2))
    for a, b, c in zip(nav.graph.arc_sources, nav.graph.indices, w):
        mat[a, b] = min(mat[a, b], c) if mat[a, b] else c
    for v in joins(np.asarray(s, float)):
        mat[n, v] = math.dist(s, pts[v])
    for v in joins(np.asarray(g, float)):
        mat[v, n + 1] = math.dist(pts[v], g)
    dist = csgraph.dijkstra(mat.tocsr(), indices=n)
    return dist[n + 1]


def test_graph_path_cost_equals_csgraph_on_the_augmented_graph():
    rng = np.random.default_rng(11)
    obstacles = [shapely.box(x, y, x + w, y + h) for x, y, w, h in rng.uniform([0, 0, 1, 1], [45, 45, 6, 6], (12, 4))]
    free = shapely.difference(shapely.box(0, 0, 50, 50), shapely.union_all(obstacles))
    pts = rng.uniform(0, 50, (400, 2))
    pts = pts[shapely.contains_xy(free, pts[:, 0], pts[:, 1])][:120]
    nav = build_waypoint_graph(Level.rectangle(50, 50, obstacles=obstacles, waypoints=pts), k=5, max_candidates=5)
    for _ in range(15):
        s, g = pts[rng.integers(len(pts), size=2)] + rng.uniform(-0.01, 0.01, (2, 2))
        if not (shapely.contains_xy(free, *s) and shapely.contains_xy(free, *g)):
            continue
        want = _augmented_csgraph_cost(nav, s, g, JOIN_NEAREST)
        if nav.visible(s[None], g[None])[0]:
            want = min(want, math.dist(s, g))
        if np.isfinite(want):
            assert find_path(nav, s, g, refine="none").cost == pytest.approx(want)
            assert find_path(nav, s, g, refine="any_angle").cost <= want + 1e-9
        else:
            with pytest.raises(NoPathError):
                find_path(nav, s, g, refine="none")


def test_unreachable_goal_partial_and_budget():
    level = Level.rectangle(20, 10, obstacles=[[(9, 0), (11, 0), (11, 10), (9, 10)]],
                            waypoints=[[1, 1], [4, 5], [8, 8], [15, 5]])
    nav = build_waypoint_graph(level)
    with pytest.raises(NoPathError, match="no path"):
        find_path(nav, [1, 2], [18, 5])
    for refine in ("none", "any_angle"):
        part = find_path(nav, [1, 2], [18, 5], allow_partial=True, refine=refine)
        assert part.partial
        np.testing.assert_array_equal(part.points[0], [1, 2])
        assert part.points[-1].tolist() == [8, 8]  # the reached waypoint nearest the goal
        assert part.nodes[-1] == 2
    with pytest.raises(SearchBudgetError, match="budget of 1"):
        find_path(nav, [1, 2], [18, 5], max_expansions=1)
    for refine in ("none", "any_angle"):
        part = find_path(nav, [1, 2], [18, 5], max_expansions=1, allow_partial=True, refine=refine)
        assert part.partial and part.points[0].tolist() == [1, 2]


def test_find_path_errors(walled):
    with pytest.raises(NodeNotFoundError, match="start="):
        find_path(walled, [5, 4], [9, 9], strict=True)
    with pytest.raises(NodeNotFoundError, match="goal="):
        find_path(walled, [9, 9], [5, 4], strict=True)
    with pytest.raises(InvalidOptionError, match="refine"):
        find_path(walled, [1, 1], [9, 9], refine="funnel")
    with pytest.raises(InvalidOptionError, match="heuristic_weight"):
        find_path(walled, [1, 1], [9, 9], heuristic_weight=0.5)
    with pytest.raises(InvalidOptionError, match="profile"):
        find_path(walled, [1, 1], [9, 9], profile={"swamp": 2})
    with pytest.raises(InvalidOptionError, match="NavMap"):
        find_path(walled.graph, [1, 1], [9, 9])
    with pytest.raises(InvalidOptionError, match="lookback"):
        find_path(walled, [1, 1], [9, 9], lookback=0)


def test_start_that_sees_nothing():
    room = [[(2, 2), (8, 2), (8, 8), (2, 8)], [(3, 3), (7, 3), (7, 7), (3, 7)]]
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[room], waypoints=[[1, 1], [9, 9]]))
    with pytest.raises(NoPathError, match="no path from"):  # walled in: no path, not a bad endpoint
        find_path(nav, [5, 5], [9, 9])
    assert find_path(nav, [4, 4], [6, 6]).cost == pytest.approx(math.hypot(2, 2))  # in sight: no graph needed


# -- costs, terrain and rules ------------------------------------------------------------------
def _polyline_cost(nav, path, profile):
    """Cost of the returned polyline by the terrain module alone (independent of the search)."""
    a, b = path.points[:-1, :2], path.points[1:, :2]
    names, lens = terrain_lengths(a, b, nav.level.terrain)
    base = np.hypot(*(b - a).T)
    return float(profile.arc_weights(base, lens, names, np.zeros(len(a), np.int64), ("",)).sum())


def test_shortcut_costs_are_exact_under_terrain():
    rng = np.random.default_rng(3)
    regions = [TerrainRegion(shapely.box(10, 10, 40, 30), "swamp"), TerrainRegion(shapely.box(5, 32, 45, 36), "road")]
    pts = rng.uniform(0, 50, (150, 2))
    nav = build_waypoint_graph(Level.rectangle(50, 50, waypoints=pts, terrain=regions), k=6)
    tank = CostProfile("tank", {"swamp": 3.0, "road": 0.5})
    for _ in range(20):
        s, g = rng.uniform(0, 50, (2, 2))
        for refine in ("none", "smooth", "any_angle"):
            path = find_path(nav, s, g, profile=tank, refine=refine)
            assert path.cost == pytest.approx(_polyline_cost(nav, path, tank), rel=1e-9)
        plain = find_path(nav, s, g, profile=tank, refine="none").cost
        assert find_path(nav, s, g, profile=tank).cost <= plain + 1e-9


def test_forbidden_terrain_is_avoided():
    water = TerrainRegion(shapely.box(4, 0, 6, 8), "water")
    nav = build_waypoint_graph(Level.rectangle(10, 10, terrain=[water], waypoints=[[4, 9], [6, 9], [1, 1], [9, 1]]))
    jeep = CostProfile("jeep", forbidden={"water"})
    path = find_path(nav, [1, 1], [9, 1], profile=jeep)
    assert path.cost == pytest.approx(2 * math.hypot(3, 8) + 2)
    assert find_path(nav, [1, 1], [9, 1]).cost == pytest.approx(8.0)


def test_gated_ford_needs_the_capability():
    river = [(0, 4), (10, 4), (10, 6), (0, 6)]
    level = Level.rectangle(10, 20, obstacles=[river, [(0, 14), (10, 14), (10, 16), (0, 16)]],
                            waypoints=[[5, 3], [5, 7], [5, 1], [5, 9]],
                            links=[Link(0, 1, "forced", tag="ford", requires="wading_boots")])
    nav = build_waypoint_graph(level)
    with pytest.raises(NoPathError):
        find_path(nav, [5, 1], [5, 9])
    scout = CostProfile("scout", capabilities={"wading_boots"})
    for refine in ("none", "any_angle"):
        assert find_path(nav, [5, 1], [5, 9], profile=scout, refine=refine).cost == pytest.approx(8.0)


def test_one_way_link_is_not_bypassed_by_shortcuts():
    # a ledge: the one-way link 0 -> 1 is the only way from the left room to the right room
    level = Level.rectangle(20, 10, obstacles=[[(9, 0), (11, 0), (11, 10), (9, 10)]],
                            waypoints=[[8, 5], [12, 5], [2, 5], [18, 5]], links=[Link(0, 1, "one_way", tag="ledge")])
    nav = build_waypoint_graph(level)
    for refine in ("none", "any_angle"):
        assert find_path(nav, [2, 5], [18, 5], refine=refine).cost == pytest.approx(16.0)
        with pytest.raises(NoPathError):
            find_path(nav, [18, 5], [2, 5], refine=refine)


def test_danger_zone_detour():
    nav = build_waypoint_graph(Level.rectangle(20, 20, waypoints=[[10, 16], [4, 10], [16, 10]]), k=None)
    tower = DangerZone((10, 10), 4.0, 10.0)
    calm = find_path(nav, [4, 10], [16, 10])
    assert calm.cost == pytest.approx(12.0)
    risky = find_path(nav, [4, 10], [16, 10], danger=[tower])
    assert risky.points[1].tolist() == [10, 16]
    assert risky.cost == pytest.approx(2 * math.hypot(6, 6))


def test_paths_between_floors_use_the_ladder():
    pts = [[1, 1, 0], [9, 1, 0], [9, 1, 5], [1, 9, 5]]
    ladder = [OffMeshLink(1, 2, 4.0, "ladder", bidirectional=True)]
    nav = build_waypoint_graph(Level.rectangle(10, 10, waypoints=pts, offmesh_links=ladder))
    for refine in ("none", "any_angle"):
        path = find_path(nav, [1, 1.5, 0], [1, 9.5, 5], refine=refine)
        assert path.nodes.tolist() == [1, 2]  # walk to the ladder, climb, walk to the goal
        assert path.cost == pytest.approx(math.hypot(8, 0.5) + 4 + math.hypot(8, 8.5))
        assert path.points.tolist() == [[1, 1.5, 0], [9, 1, 0], [9, 1, 5], [1, 9.5, 5]]
    with pytest.raises(InvalidGeometryError, match="floors"):
        find_path(nav, [1, 1.5], [1, 9.5])


# -- smoothing ---------------------------------------------------------------------------------
def test_smooth_path_pulls_a_graph_path_straight():
    nav = build_waypoint_graph(Level.rectangle(10, 10, waypoints=[[0, 0], [1, 2], [3, 3], [5, 5]]), k=1)
    raw = dijkstra(nav.graph, 0, 3)
    smooth = smooth_path(nav, raw)
    assert smooth.points.tolist() == [[0, 0], [5, 5]]
    assert smooth.nodes.tolist() == [0, 3]
    assert smooth.cost == pytest.approx(math.hypot(5, 5)) and smooth.cost <= raw.cost


def test_smooth_path_keeps_corners_and_never_raises_cost(walled):
    raw = find_path(walled, [2.5, 0.5], [7.5, 0.5], refine="none")
    smooth = smooth_path(walled, raw)
    assert smooth.cost <= raw.cost + 1e-12
    assert smooth.points[0].tolist() == [2.5, 0.5] and smooth.points[-1].tolist() == [7.5, 0.5]
    with pytest.raises(InvalidOptionError, match="Path"):
        smooth_path(walled, [[0, 0], [1, 1]])
    bad = Path(np.array([0, 1], np.int32), np.zeros((5, 2)), 1.0)
    with pytest.raises(InvalidOptionError, match="points"):
        smooth_path(walled, bad)


def test_smoothing_does_not_cross_terrain_edges():
    swamp = TerrainRegion(shapely.box(4, 3, 6, 7), "swamp")
    nav = build_waypoint_graph(Level.rectangle(10, 10, terrain=[swamp], waypoints=[[5, 8], [1, 5], [9, 5]]), k=None)
    # through the swamp costs 4 + 2 x 10 = 24; over it 2 * hypot(4, 3) = 10
    bog = CostProfile("heavy", {"swamp": 10.0})
    path = find_path(nav, [1, 5], [9, 5], profile=bog)
    assert path.points[1].tolist() == [5, 8]
    assert path.cost == pytest.approx(10.0)


# -- kernels -----------------------------------------------------------------------------------
def _kernel_free(los, a, b):
    return LK.segments_free(np.asarray(a, float), np.asarray(b, float), *_wall_grid(los))


def test_kernel_line_of_sight_special_cases():
    # two blocks touching at a corner (a pinch point) and a wall on the map edge (a seam)
    los = LineOfSight([shapely.box(2, 2, 4, 4), shapely.box(4, 4, 6, 6), shapely.box(0, 8, 3, 10)], shapely.box(0, 0, 10, 10))
    a = [[0, 6], [0, 6], [2, 1], [0, 4], [1, 0], [2, 4], [4, 10], [0, 10], [6, 2]]
    b = [[8, 2], [4, 4], [2, 6], [8, 4], [1, 10], [4, 6], [9, 10], [2, 10], [4, 4]]
    # through the pinch; ending at it; along a wall; along two walls through the pinch's row;
    # through a block; along edges around the corner region; along the bounds edge; along the seam;
    # ending at the pinch from the free side
    want = ~los.blocked(a, b)
    np.testing.assert_array_equal(_kernel_free(los, a, b), want)
    assert want.tolist() == [False, True, True, False, False, True, True, False, True]


@pytest.mark.parametrize("radius", [0.0, 0.5])
def test_kernel_line_of_sight_agrees_with_shapely(radius):
    rng = np.random.default_rng(int(radius * 10))
    blocked = rng.random((24, 24)) < 0.25
    ys, xs = np.nonzero(blocked)
    los = LineOfSight(list(shapely.box(xs, ys, xs + 1, ys + 1)), shapely.box(0, 0, 24, 24), agent_radius=radius)
    lattice = np.array([(x, y) for x in np.arange(0, 24.5, 0.5) for y in np.arange(0, 24.5, 0.5)])
    lattice = lattice[los.walkable(lattice)]
    i, j = rng.integers(len(lattice), size=(2, 20000))
    np.testing.assert_array_equal(_kernel_free(los, lattice[i], lattice[j]), ~los.blocked(lattice[i], lattice[j]))


def test_kernels_run_as_plain_python():
    script = textwrap.dedent(
        """
        import numpy as np, shapely
        from navmesh.waypoints.build import build_waypoint_graph
        from navmesh.level import Level
        from navmesh.waypoints.query import find_path
        level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
        nav = build_waypoint_graph(level, corners=True, visibility="kernel")
        print(round(find_path(nav, [1, 1], [9, 1]).cost, 9))
        """
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) == pytest.approx(2 * math.hypot(3, 7) + 2)
