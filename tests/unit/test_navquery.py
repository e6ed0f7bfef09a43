"""NavQuery: the per-unit-type query object (one-shot, group and sliced searches, tolerant endpoints,
joins that search on, runtime danger, cone linking)."""

from __future__ import annotations

import json
import math
from pathlib import Path as FilePath

import numpy as np
import pytest
import scipy.sparse
import shapely
from scipy.sparse import csgraph

from navmesh._kernels import los as LK
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
)
from navmesh.io.level_json import load_level
from navmesh.level import Level
from navmesh.path import Path
from navmesh.danger import DangerZone
from navmesh.terrain import CostProfile, TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for
from navmesh.waypoints.query import JOIN_NEAREST, NavQuery, SlicedSearch, find_path

LEVELS = FilePath(__file__).resolve().parents[1] / "scenarios" / "levels"
REFINES = ("none", "smooth", "any_angle")


def same_path(a: Path, b: Path) -> bool:
    return (
        np.array_equal(a.nodes, b.nodes) and np.array_equal(a.points, b.points) and a.cost == b.cost
        and a.partial == b.partial and a.start_moved == b.start_moved and a.goal_moved == b.goal_moved
    )


def outcome(fn, *args, **kwargs):
    """A path, or the type of the navmesh error raised (so failures compare too)."""
    try:
        return fn(*args, **kwargs)
    except (NoPathError, SearchBudgetError, NodeNotFoundError) as err:
        return type(err)


def same_outcome(a, b) -> bool:
    if isinstance(a, Path) and isinstance(b, Path):
        return same_path(a, b)
    return a is b


def _scenarios():
    for spec_path in sorted(LEVELS.glob("*.expected.json")):
        name = spec_path.name[: -len(".expected.json")]
        spec = json.loads(spec_path.read_text())
        yield name, spec


def _profile(data):
    if data is None:
        return None
    return CostProfile(data.get("name", "default"), data.get("multipliers", {}),
                       forbidden=frozenset(data.get("forbidden", ())), capabilities=frozenset(data.get("capabilities", ())))


@pytest.fixture(scope="module")
def terrain_level():
    rng = np.random.default_rng(5)
    regions = [TerrainRegion(shapely.box(10, 10, 30, 25), "swamp"), TerrainRegion(shapely.box(32, 5, 36, 45), "water")]
    obstacles = [shapely.box(15, 30, 25, 40), shapely.box(40, 10, 45, 30)]
    level = Level.rectangle(50, 50, obstacles=obstacles, terrain=regions)
    return level, rng.uniform(0, 50, (40, 2)), rng.uniform(0, 50, (40, 2))


PROFILES = [None, CostProfile("tank", {"swamp": 3.0}), CostProfile("boat", {"water": 0.5}, forbidden=frozenset({"swamp"})),
            CostProfile("hover", {"swamp": 0.8, "water": 1.5})]


# -- NavQuery equals the module-level function ---------------------------------------------------
@pytest.mark.parametrize("name, spec", list(_scenarios()), ids=[n for n, _ in _scenarios()])
def test_navquery_equals_module_function_on_the_scenarios(name, spec):
    level = load_level(LEVELS / f"{name}.json")
    navs = {}
    for query in spec["queries"]:
        radius = query.get("agent_radius")
        if radius not in navs:
            options = dict(spec["build"], **({} if radius is None else {"agent_radius": radius}))
            navs[radius] = build_waypoint_graph(level, **options)
        nav = navs[radius]
        profile = _profile(query.get("profile"))
        q = NavQuery(nav, profile)
        for refine in REFINES:
            kw = dict(refine=refine, allow_partial=query.get("allow_partial", False))
            a = outcome(q.find_path, query["start"], query["goal"], **kw)
            b = outcome(find_path, nav, query["start"], query["goal"], profile=profile, **kw)
            assert same_outcome(a, b)
            if "cost" in query:
                assert a.cost == pytest.approx(query["cost"], abs=1e-6)  # the hand-computed answer


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: "default" if p is None else p.name)
def test_navquery_equals_module_function_under_terrain(terrain_level, profile):
    level, starts, goals = terrain_level
    nav = build_waypoint_graph(level, k=6, corners=True, fill_spacing=6.0)
    q = NavQuery(nav, profile)
    for refine in REFINES:
        for s, g in zip(starts[:15], goals[:15]):
            a = outcome(q.find_path, s, g, refine=refine)
            b = outcome(find_path, nav, s, g, profile=profile, refine=refine)
            assert same_outcome(a, b)


# -- group orders ------------------------------------------------------------------------------
@pytest.mark.parametrize("profile", PROFILES[:2], ids=["default", "tank"])
@pytest.mark.parametrize("refine", REFINES)
def test_find_paths_equals_single_calls(terrain_level, profile, refine):
    level, starts, goals = terrain_level
    nav = build_waypoint_graph(level, k=8, corners=True, linking="cones")
    q = NavQuery(nav, profile)
    group = q.find_paths(starts, goals, refine=refine, allow_partial=True)
    assert len(group) == len(starts)
    for path, s, g in zip(group, starts, goals):
        assert same_path(path, q.find_path(s, g, refine=refine, allow_partial=True))


def test_find_paths_shares_one_goal_and_names_the_failing_row():
    level = Level.rectangle(20, 10, obstacles=[[(9, 0), (11, 0), (11, 10), (9, 10)]], waypoints=[[1, 1], [4, 5], [15, 5]])
    q = NavQuery(build_waypoint_graph(level))
    paths = q.find_paths([[1, 2], [3, 3]], [5, 5])
    assert [p.points[-1].tolist() for p in paths] == [[5.0, 5.0], [5.0, 5.0]]
    with pytest.raises(NoPathError, match=r"row 1: no path"):
        q.find_paths([[1, 2], [1, 2]], [[5, 5], [18, 5]])
    with pytest.raises(InvalidOptionError, match="rows"):
        q.find_paths([[1, 2], [3, 3], [4, 4]], [[5, 5], [6, 6]])
    assert q.find_paths(np.zeros((0, 2)), np.zeros((0, 2))) == []


# -- sliced search -----------------------------------------------------------------------------
@pytest.mark.parametrize("budget", [1, 2, 5])
@pytest.mark.parametrize("refine", REFINES)
def test_sliced_search_equals_one_shot(terrain_level, budget, refine):
    level, starts, goals = terrain_level
    nav = build_waypoint_graph(level, k=8, corners=True)
    q = NavQuery(nav, PROFILES[1])
    for s, g in zip(starts[:12], goals[:12]):
        search = q.start_search(s, g, refine=refine)
        steps = 0
        while not search.advance(budget):
            steps += 1
            assert steps < 10_000
        assert search.finished
        got = outcome(search.result)
        assert same_outcome(got, outcome(q.find_path, s, g, refine=refine))


def test_interleaved_sliced_searches_and_one_shots_do_not_disturb_each_other(terrain_level):
    level, starts, goals = terrain_level
    nav = build_waypoint_graph(level, k=8, corners=True)
    q = NavQuery(nav)
    want = [q.find_path(s, g) for s, g in zip(starts[:6], goals[:6])]
    searches = [q.start_search(s, g) for s, g in zip(starts[:6], goals[:6])]
    while not all(s.finished for s in searches):
        for s in searches:
            s.advance(3)
        q.find_path(goals[7], starts[7])  # the one-shot workspace is used in between
    for s, w in zip(searches, want):
        assert same_path(s.result(), w)
        assert same_path(s.result(), w)  # asking again gives the same answer


def test_sliced_search_budget_partial_and_errors():
    level = Level.rectangle(20, 10, obstacles=[[(9, 0), (11, 0), (11, 10), (9, 10)]],
                            waypoints=[[1, 1], [4, 5], [8, 8], [15, 5]])
    q = NavQuery(build_waypoint_graph(level))
    search = q.start_search([1, 2], [18, 5])
    assert isinstance(search, SlicedSearch)
    with pytest.raises(InvalidOptionError, match="has not finished"):
        search.result()
    while not search.advance(1):
        pass
    with pytest.raises(NoPathError):
        search.result()
    part = q.start_search([1, 2], [18, 5], allow_partial=True, max_expansions=2)
    while not part.advance(1):
        pass
    assert same_path(part.result(), q.find_path([1, 2], [18, 5], allow_partial=True, max_expansions=2))
    with pytest.raises(InvalidOptionError, match="max_expansions"):
        q.start_search([1, 2], [8, 7]).advance(0)


# -- the map is never changed; unit types do not disturb each other ----------------------------
def _snapshot(nav):
    g = nav.graph
    return [np.array(a, copy=True) for a in (g.points, g.indptr, g.indices, g.lengths, g.tags, nav.arc_kinds,
                                              nav.blocked_waypoints, nav.terrain.lengths.toarray())]


def test_queries_leave_the_navmap_unchanged(terrain_level):
    level, starts, goals = terrain_level
    nav = build_waypoint_graph(level, k=8, corners=True, linking="cones")
    before = _snapshot(nav)
    weights_before = nav.weights(PROFILES[1]).values.copy()
    q = NavQuery(nav, PROFILES[1])
    q.find_paths(starts, goals, allow_partial=True, danger=[DangerZone((20, 20), 6.0, 4.0)])
    for refine in REFINES:
        q.find_paths(starts, goals, refine=refine, allow_partial=True)
    s = q.start_search(starts[0], goals[0])
    s.advance(4)
    q.snap([20, 20])
    q.nearest_walkable([[20, 35], [1, 1]])
    for a, b in zip(before, _snapshot(nav)):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(nav.weights(PROFILES[1]).values, weights_before)


def test_two_profiles_on_one_map_do_not_disturb_each_other(terrain_level):
    level, starts, goals = terrain_level
    nav = build_waypoint_graph(level, k=8, corners=True)
    tank, boat = NavQuery(nav, PROFILES[1]), NavQuery(nav, PROFILES[2])
    alone_tank = [outcome(NavQuery(nav, PROFILES[1]).find_path, s, g) for s, g in zip(starts, goals)]
    alone_boat = [outcome(NavQuery(nav, PROFILES[2]).find_path, s, g) for s, g in zip(starts, goals)]
    for s, g, want_t, want_b in zip(starts, goals, alone_tank, alone_boat):
        assert same_outcome(outcome(tank.find_path, s, g), want_t)
        assert same_outcome(outcome(boat.find_path, s, g), want_b)
    # and the profiles really differ: the boat may not enter the swamp the tank crosses
    assert any(isinstance(t, Path) and isinstance(b, Path) and t.cost != b.cost for t, b in zip(alone_tank, alone_boat))


def test_danger_is_a_runtime_argument():
    level = Level.rectangle(20, 10, waypoints=[[1, 5], [19, 5]])
    q = NavQuery(build_waypoint_graph(level, corners=True))
    plain = q.find_path([1, 5], [19, 5])
    assert plain.cost == pytest.approx(18.0)
    zone = DangerZone((10, 5), 2.0, 5.0)
    risky = q.find_path([1, 5], [19, 5], danger=[zone])
    assert risky.cost == pytest.approx(18.0 + 5.0 * 4.0)  # straight through: extra x length inside the disc
    assert same_path(q.find_path([1, 5], [19, 5]), plain)  # nothing of the danger stays behind


@pytest.mark.parametrize("multiplier", [1e30, 1e29])
def test_the_largest_documented_multiplier_is_accepted_by_a_query(multiplier):
    """CostProfile accepts multipliers up to 1e30; a NavQuery must too (arc weights then exceed 1e30)."""
    water = TerrainRegion([(0, 0), (50, 0), (50, 50), (0, 50)], "water")
    level = Level.rectangle(100, 100, terrain=[water], waypoints=[[10, 10], [90, 90], [90, 10]])
    q = NavQuery(build_waypoint_graph(level), CostProfile("dry", {"water": multiplier}))
    path = q.find_path([10, 10], [90, 90], refine="none")
    # Every route starts 40 units inside the water (to x = 50 or y = 50); the cheapest leaves it
    # along x: 40 * m wet, then 40 + 80 dry (the detour via (90, 10)). Hand sum, not the library's.
    assert path.points.tolist() == [[10, 10], [90, 10], [90, 90]]
    assert path.cost == pytest.approx(40 * multiplier + 120, rel=1e-12)


# -- endpoints ---------------------------------------------------------------------------------
def test_tolerant_endpoints_move_to_the_nearest_walkable_point():
    level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    q = NavQuery(build_waypoint_graph(level, corners=True))
    path = q.find_path([4.2, 3], [5.5, 1])  # both inside the wall
    assert path.start_moved and path.goal_moved
    np.testing.assert_allclose(path.points, [[4, 3], [4, 8], [6, 8], [6, 1]], atol=1e-9)
    assert path.cost == pytest.approx(5 + 2 + 7)
    assert not q.find_path([1, 1], [9, 1]).start_moved
    with pytest.raises(NodeNotFoundError, match=r"start=\[4.2, 3.0\] is not walkable .* 0.2 world units from"):
        q.find_path([4.2, 3], [9, 1], strict=True)
    with pytest.raises(NodeNotFoundError, match="goal="):
        q.find_path([1, 1], [4.2, 3], strict=True)
    np.testing.assert_allclose(q.nearest_walkable([[4.2, 3], [1, 1]]), [[4, 3], [1, 1]], atol=1e-9)
    assert q.snap([4.2, 3]) == q.snap([4, 3]) == 0


def test_an_endpoint_beyond_the_bounds_is_an_error_not_a_snap():
    level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    q = NavQuery(build_waypoint_graph(level, corners=True, agent_radius=0.5))
    with pytest.raises(NodeNotFoundError, match=r"goal=\[12.0, 1.0\] lies 2 world units outside the level's bounds"):
        q.find_path([1, 1], [12, 1])
    with pytest.raises(NodeNotFoundError, match="start=.* lies 50000 world units outside"):
        q.find_path([-50000, 5], [1, 1])
    # within BOUNDS_MARGIN (5% of the size) it moves inside the eroded area, and says so
    path = q.find_path([1, 1], [10.4, 1])
    assert path.goal_moved and path.points[-1].tolist() == pytest.approx([9.5, 1.0])
    with pytest.raises(NodeNotFoundError, match="at most BOUNDS_MARGIN x the level's size = 0.5 outside them"):
        q.find_path([1, 1], [10.6, 1])
    # nearest_walkable itself projects any finite point
    assert q.nearest_walkable([12, 1]).tolist() == pytest.approx([9.5, 1.0])


@pytest.mark.parametrize("radius", [8, 11, 14, 17, 20])
def test_every_point_along_a_route_is_a_valid_endpoint(radius):
    # main 2c8c9c7: 66 of 3,960 such points raised "no walkable point found near it" over radii 8-20
    level = Level.rectangle(800, 600, obstacles=[[(300, 100), (340, 100), (340, 500), (300, 500)]])
    q = NavQuery(build_waypoint_graph(level, corners=True, agent_radius=radius))
    rng = np.random.default_rng(radius)
    for _ in range(3):
        a = (rng.uniform(30, 280), rng.uniform(30, 570))
        b = (rng.uniform(360, 770), rng.uniform(30, 570))
        route = q.find_path(a, b).points
        t = np.linspace(0, 1, 25)[:, None]
        samples = np.concatenate([route[i] + t * (route[i + 1] - route[i]) for i in range(len(route) - 1)])
        for p in samples:
            for s, g in ((p, b), (a, p)):
                again = q.find_path(s, g, strict=True)  # strict: a route point is walkable
                assert not again.start_moved and not again.goal_moved
                assert np.hypot(*(again.points[0] - s)) <= 1e-9 * 800
                assert again.cost >= np.hypot(*(np.subtract(g, s))) - 1e-6


def test_find_path_takes_one_point_and_a_bounded_lookback():
    q = NavQuery(build_waypoint_graph(Level.rectangle(100, 100), corners=True))
    with pytest.raises(InvalidGeometryError, match=r"start=.* has shape \(2, 2\); expected one position"):
        q.find_path([[10, 10], [20, 50]], [50, 50])
    with pytest.raises(InvalidGeometryError, match="goal="):
        q.find_path([10, 10], [[20, 50]])
    with pytest.raises(InvalidOptionError, match="lookback=1000000000000 .* MAX_LOOKBACK=1024"):
        q.find_path([10, 10], [20, 50], lookback=10**12)
    assert q.find_path([10, 10], [20, 50], lookback=1024).cost == pytest.approx(np.hypot(10, 40))


def test_a_position_whose_nearest_waypoints_are_hidden_searches_on():
    # 150 waypoints crowd a closed room next to the start; the only ways on are two far waypoints
    room = shapely.box(12, 0, 30, 30).difference(shapely.box(12.5, 0.5, 29.5, 29.5))
    inside = np.random.default_rng(2).uniform(13, 29, (150, 2))
    level = Level.rectangle(100, 60, obstacles=[room], waypoints=np.concatenate([inside, [[90, 55], [95, 5]]]))
    nav = build_waypoint_graph(level, k=4)
    start, goal = np.array([11.0, 40.0]), np.array([60.0, 10.0])
    d = np.hypot(*(nav.points - start).T)
    assert (np.argsort(d)[:JOIN_NEAREST] < 150).all()  # every one of the nearest 100 is behind the wall
    # seeing none of its nearest 100, the start joins every waypoint it sees, however far: both
    # (90, 55) and (95, 5); the straight walk to (95, 5) is the cheaper way on
    assert not nav.line_of_sight.blocked(np.array([start, start]), np.array([[90, 55], [95, 5]])).any()
    path = NavQuery(nav).find_path(start, goal, refine="none")
    assert path.nodes.tolist() == [151]
    assert path.cost == pytest.approx(math.dist(start, (95, 5)) + math.dist((95, 5), goal))
    assert NavQuery(nav).snap(start) == 150  # the nearest waypoint it sees


def test_a_hidden_position_joins_every_visible_waypoint_not_just_an_island():
    """Issue 8: the start's 100 nearest waypoints hide in a closed room and the nearest one it
    sees is an island (all its links forbidden); a farther visible one leads to the goal."""
    room = shapely.box(40, 40, 60, 60).difference(shapely.box(40.5, 40.5, 59.5, 59.5))
    divider = shapely.box(20, 10, 21, 100)  # the goal's side, reached only through the gap below y = 10
    inside = np.random.default_rng(3).uniform(41, 59, (150, 2))
    island, w, w2 = 150, 151, 152
    pts = np.concatenate([inside, [[39, 80], [25, 5], [10, 5]]])
    level = Level.rectangle(100, 100, obstacles=[room, divider], waypoints=pts,
                            links=[(island, v, "forbidden") for v in range(len(pts)) if v != island])
    nav = build_waypoint_graph(level, k=4)
    start, goal = np.array([39.0, 50.0]), np.array([10.0, 50.0])
    los, n = level.line_of_sight(), nav.n_nodes
    d = np.hypot(*(nav.points - start).T)
    assert (np.argsort(d)[:JOIN_NEAREST] < 150).all()  # the nearest 100 are behind the room's wall
    seen = np.flatnonzero(~los.blocked(np.repeat(start[None], n, axis=0), nav.points))
    assert seen[np.argmin(d[seen])] == island and w in seen  # the first one seen is the island
    assert island not in nav.graph.arc_sources and island not in nav.graph.indices
    # independent answer: Dijkstra over the graph plus arcs from the start / to the goal for
    # every waypoint shapely says each sees
    mat = scipy.sparse.lil_array((n + 2, n + 2))
    for a, b, length in zip(nav.graph.arc_sources, nav.graph.indices, nav.graph.lengths):
        mat[a, b] = length
    for v in seen:
        mat[n, v] = math.dist(start, nav.points[v])
    for v in np.flatnonzero(~los.blocked(np.repeat(goal[None], n, axis=0), nav.points)):
        mat[v, n + 1] = math.dist(nav.points[v], goal)
    assert los.blocked(start[None], goal[None])[0]
    want = csgraph.dijkstra(mat.tocsr(), indices=n)[n + 1]
    assert want == pytest.approx(math.dist(start, (25, 5)) + 15.0 + 45.0)  # by hand: start, w, w2, goal
    q = NavQuery(nav)
    for refine in REFINES:
        path = q.find_path(start, goal, refine=refine)
        assert path.nodes.tolist() == [w, w2] and not path.partial
        assert path.cost == pytest.approx(want)
        assert same_path(q.find_paths([start], [goal], refine=refine)[0], path)
        search = q.start_search(start, goal, refine=refine)
        while not search.advance(3):
            pass
        assert same_path(search.result(), path)
    assert q.find_path(goal, start, refine="none").cost == pytest.approx(want)
    assert q.snap(start) == island  # snapping still picks the nearest visible waypoint


def test_queries_use_the_kernel_line_of_sight_whatever_built_the_map(terrain_level):
    level, starts, goals = terrain_level
    a = NavQuery(build_waypoint_graph(level, k=8, corners=True))
    b = NavQuery(build_waypoint_graph(level, k=8, corners=True, visibility="kernel"))
    for s, g in zip(starts, goals):
        assert same_outcome(outcome(a.find_path, s, g), outcome(b.find_path, s, g))


def test_graph_path_cost_equals_csgraph_with_every_visible_join(terrain_level):
    """Independent answer: Dijkstra on the graph plus start/goal arcs to every waypoint that
    shapely says is visible (the levels have fewer than JOIN_NEAREST waypoints)."""
    level, starts, goals = terrain_level
    flat = Level.rectangle(50, 50, obstacles=level.obstacles)
    nav = build_waypoint_graph(flat, k=3, corners=True)
    assert nav.n_nodes < JOIN_NEAREST
    los, pts, n = flat.line_of_sight(), nav.points, nav.n_nodes
    q = NavQuery(nav)
    for s, g in zip(starts, goals):
        if not los.walkable(np.stack([s, g])).all():
            continue
        mat = scipy.sparse.lil_array((n + 2, n + 2))
        for a, b, w in zip(nav.graph.arc_sources, nav.graph.indices, nav.graph.lengths):
            mat[a, b] = w
        for end, row in ((s, True), (g, False)):
            seen = ~los.blocked(np.repeat(end[None], n, axis=0), pts)
            for v in np.flatnonzero(seen):
                if row:
                    mat[n, v] = math.dist(end, pts[v])
                else:
                    mat[v, n + 1] = math.dist(pts[v], end)
        if not los.blocked(s[None], g[None])[0]:
            mat[n, n + 1] = math.dist(s, g)
        want = csgraph.dijkstra(mat.tocsr(), indices=n)[n + 1]
        assert q.find_path(s, g, refine="none").cost == pytest.approx(want)


# -- cone linking ------------------------------------------------------------------------------
def test_cone_links_are_visible_taut_and_at_most_k_per_waypoint_choice():
    rng = np.random.default_rng(9)
    obstacles = [shapely.box(x, y, x + w, y + h) for x, y, w, h in rng.uniform([0, 0, 1, 1], [45, 45, 5, 5], (25, 4))]
    level = Level.rectangle(50, 50, obstacles=obstacles)
    nav = build_waypoint_graph(level, k=6, corners=True, linking="cones")
    full = build_waypoint_graph(level, k=None, corners=True)
    cone_arcs = set(zip(nav.graph.arc_sources.tolist(), nav.graph.indices.tolist()))
    full_arcs = set(zip(full.graph.arc_sources.tolist(), full.graph.indices.tolist()))
    assert cone_arcs and cone_arcs <= full_arcs  # a subgraph of the visibility graph
    assert all((b, a) in cone_arcs for a, b in cone_arcs)
    # each waypoint chose at most k links, so the graph has at most k * n pairs
    assert len(cone_arcs) // 2 <= 6 * nav.n_nodes
    dirs, has = nav.corner_edges
    for a, b in cone_arcs:
        for u, v in ((a, b), (b, a)):
            if has[u]:
                d = nav.points[v] - nav.points[u]
                c1 = d[0] * dirs[u, 1] - d[1] * dirs[u, 0]
                c2 = d[0] * dirs[u, 3] - d[1] * dirs[u, 2]
                assert (c1 >= 0 and c2 >= 0) or (c1 <= 0 and c2 <= 0)


def test_cone_linking_update_equals_rebuild():
    level = Level.rectangle(30, 30, obstacles=[shapely.box(5, 5, 10, 10), shapely.box(15, 12, 20, 25)])
    nav = build_waypoint_graph(level, k=8, corners=True, linking="cones")
    door = nav.with_obstacle(shapely.box(22, 2, 26, 6))
    rebuilt = build_waypoint_graph(door.level, k=8, corners=True, linking="cones")
    for name in ("points", "indptr", "indices", "lengths"):
        np.testing.assert_array_equal(getattr(door.graph, name), getattr(rebuilt.graph, name))


def test_linking_option_is_checked():
    with pytest.raises(InvalidOptionError, match="linking"):
        build_waypoint_graph(Level.rectangle(5, 5, waypoints=[[1, 1], [2, 2]]), linking="yao")


def test_kernel_walls_agree_for_joins():
    """The join's kernel line of sight is the shapely rule (spot check on a level with pinches)."""
    level = Level.rectangle(10, 10, obstacles=[shapely.box(2, 2, 4, 4), shapely.box(4, 4, 6, 6)])
    los = level.line_of_sight()
    rng = np.random.default_rng(1)
    pts = rng.uniform(0, 10, (300, 2))
    pts = pts[los.walkable(pts)]
    i, j = rng.integers(len(pts), size=(2, 300))
    got = LK.segments_free(pts[i], pts[j], *wall_grid_for(los))
    np.testing.assert_array_equal(got, ~los.blocked(pts[i], pts[j]))
