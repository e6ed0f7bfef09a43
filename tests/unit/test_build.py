"""Tests of navmesh.waypoints.build: generated waypoints, visibility linking, links, terrain, updates, diagnostics."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.sparse
import shapely

import navmesh.waypoints.incremental as incremental_mod
import navmesh.waypoints.linking as linking_mod
from navmesh.waypoints.build import ARC_LINK, ARC_OFFMESH, build_waypoint_graph
from navmesh.waypoints.diagnostics import diagnose
from navmesh.waypoints.navmap import NavMap
from navmesh.waypoints.options import BuildOptions
from navmesh.waypoints.placement import corner_waypoints, fill_waypoints, walkable_region
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshWarning,
    NodeNotFoundError,
)
from navmesh.level import Level, Link, OffMeshLink
from navmesh.danger import DangerZone
from navmesh.tags import decode_arc_tag
from navmesh.terrain import CostProfile, TerrainRegion

SQUARE = [(4, 4), (6, 4), (6, 6), (4, 6)]
WALL = [(4, 0), (6, 0), (6, 8), (4, 8)]  # from the bottom edge up to y=8 in a 10 x 10 level


def arcs(nav: NavMap) -> set[tuple[int, int]]:
    g = nav.graph
    return set(zip(g.arc_sources.tolist(), g.indices.tolist()))


def quiet_build(level, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        return build_waypoint_graph(level, **kw)


# -- generated waypoints -----------------------------------------------------------------------
def test_corner_waypoints_are_the_obstacle_corners():
    level = Level.rectangle(10, 10, obstacles=[SQUARE])
    assert corner_waypoints(level).tolist() == [[4, 4], [4, 6], [6, 4], [6, 6]]


def test_corner_waypoints_with_radius_are_on_the_mitred_inflated_corners():
    level = Level.rectangle(10, 10, obstacles=[SQUARE])
    pts = corner_waypoints(level, agent_radius=1.0)
    assert len(pts) == 8
    # the mitre cuts each corner at distance r: its two ends lie r / cos(22.5 deg) from the corner
    d = shapely.distance(shapely.Polygon(SQUARE).exterior, shapely.points(pts))
    np.testing.assert_allclose(d, 1.0 / math.cos(math.pi / 8))
    # and on the inflated obstacle's boundary, so an agent of that radius can stand there
    los = level.line_of_sight(agent_radius=1.0)
    assert los.walkable(pts).all()


def test_corner_waypoints_include_concave_bounds_corners_and_skip_hidden_ones():
    l_shape = [(0, 0), (10, 0), (10, 4), (4, 4), (4, 10), (0, 10)]
    # the second square overlaps the first: the corner (5, 5) lies inside it
    level = Level(l_shape, obstacles=[[(1, 1), (3, 1), (3, 3), (1, 3)], [(2, 2), (3.5, 2), (3.5, 3.5), (2, 3.5)]])
    pts = {tuple(p) for p in corner_waypoints(level).tolist()}
    assert (4.0, 4.0) in pts  # the L's inner corner
    assert (3.0, 3.0) not in pts  # hidden inside the merged obstacle
    assert {(1.0, 1.0), (3.5, 3.5), (1.0, 3.0), (3.0, 1.0)} <= pts


def test_corner_waypoints_leave_out_corners_on_the_map_edge():
    level = Level.rectangle(10, 10, obstacles=[WALL])
    assert corner_waypoints(level).tolist() == [[4, 8], [6, 8]]


def test_fill_waypoints_cover_open_space_only():
    level = Level.rectangle(40, 20, obstacles=[[(18, 0), (22, 0), (22, 20), (18, 20)]])
    pts = fill_waypoints(level, 5.0, clearance=2.5)
    assert len(pts)
    assert not shapely.intersects_xy(shapely.box(18, 0, 22, 20), pts[:, 0], pts[:, 1]).any()
    assert ((pts[:, 0] - 2.5) % 5 == 0).all() and ((pts[:, 1] - 2.5) % 5 == 0).all()
    with pytest.raises(InvalidOptionError, match="spacing"):
        fill_waypoints(level, 0.0)


def test_walkable_region_subtracts_inflated_obstacles():
    level = Level.rectangle(10, 10, obstacles=[SQUARE])
    assert walkable_region(level).area == pytest.approx(96.0)
    # eroded bounds 8 x 8 minus the 4 x 4 inflated square whose mitre cuts remove four triangles
    # with legs 1 - tan(22.5 deg)
    leg = 1 - math.tan(math.pi / 8)
    assert walkable_region(level, agent_radius=1.0).area == pytest.approx(64 - (16 - 2 * leg * leg))


# -- linking -------------------------------------------------------------------------------
def test_visible_pairs_are_linked_both_ways_and_walls_block():
    level = Level.rectangle(10, 10, obstacles=[WALL], waypoints=[[1, 1], [9, 1], [1, 9], [9, 9]])
    nav = build_waypoint_graph(level)
    assert arcs(nav) == {(0, 2), (2, 0), (2, 3), (3, 2), (1, 3), (3, 1)}
    np.testing.assert_allclose(nav.graph.lengths, np.hypot(*(nav.points[nav.graph.indices] - nav.points[nav.graph.arc_sources]).T))


def test_k_limits_candidates_and_links_stay_symmetric():
    pts = [[x, 0.0] for x in (0, 1, 3, 6, 10, 15)]  # growing gaps: each one's nearest is on its left
    nav = build_waypoint_graph(Level.rectangle(16, 1, waypoints=pts), k=1)
    # each waypoint's single nearest neighbour; a pair found from either side is linked both ways
    assert arcs(nav) == {(i, i + 1) for i in range(5)} | {(i + 1, i) for i in range(5)}
    full = build_waypoint_graph(Level.rectangle(16, 1, waypoints=pts), k=None)
    assert full.graph.n_edges == 6 * 5


def test_max_distance_limits_candidates():
    pts = [[0.0, 0.0], [1.0, 0.0], [3.0, 0.0]]
    nav = build_waypoint_graph(Level.rectangle(4, 1, waypoints=pts), k=None, max_distance=2.0)
    assert arcs(nav) == {(0, 1), (1, 0), (1, 2), (2, 1)}
    nav = build_waypoint_graph(Level.rectangle(4, 1, waypoints=pts), k=8, max_distance=2.0)
    assert arcs(nav) == {(0, 1), (1, 0), (1, 2), (2, 1)}
    nav = build_waypoint_graph(Level.rectangle(4, 1, waypoints=pts), k=8, max_distance=1.0)  # inclusive
    assert arcs(nav) == {(0, 1), (1, 0)}


def _pocket_level():
    # waypoint 0 sits in a pocket; its 3 nearest waypoints are behind the pocket wall, the
    # 4th-6th nearest are visible through the opening to the right
    pocket = [(0, 0), (20, 0), (20, 20), (0, 20)]
    hole = [(1, 1), (4, 1), (4, 2), (2, 2), (2, 4), (4, 4), (4, 5), (1, 5)]
    level = Level(
        [pocket[0], pocket[1], pocket[2], pocket[3]],
        obstacles=[[(0.5, 0.5), (4.5, 0.5), (4.5, 5.5), (0.5, 5.5)]],
        waypoints=[[3, 3]] + [[3, 6], [3, 0.2], [0.2, 3]] + [[9, 3], [12, 3], [15, 3]],
    )
    return level, hole


def test_widening_is_bounded_by_max_candidates():
    box = [(0, 0), (30, 0), (30, 30), (0, 30)]
    walls = [
        [(1, 1), (5, 1), (5, 2), (1, 2)],  # below the pocket
        [(1, 4), (5, 4), (5, 5), (1, 5)],  # above
        [(0.5, 1), (1, 1), (1, 5), (0.5, 5)],  # left; the pocket opens to the right
    ]
    hidden = [[2, 0.5], [3, 0.5], [2, 5.5]]
    cluster = [[20, 3], [20, 4], [21, 3], [21, 4]]  # each one's 3 nearest are in the cluster
    level = Level(box, obstacles=walls, waypoints=[[2, 3]] + hidden + cluster)
    no_widen = build_waypoint_graph(level, k=3, max_candidates=3)
    assert no_widen.graph.neighbors(0).tolist() == []  # its 3 nearest are all hidden
    wide = build_waypoint_graph(level, k=3)  # default cap 4 * k = 12: its 3 nearest visible ones
    assert wide.graph.neighbors(0).tolist() == [4, 5, 6]
    capped = build_waypoint_graph(level, k=3, max_candidates=4)  # only the 4 nearest: (20, 3)
    assert capped.graph.neighbors(0).tolist() == [4]


def test_visibility_backends_agree():
    rng = np.random.default_rng(5)
    obstacles = [shapely.box(x, y, x + w, y + h) for x, y, w, h in rng.uniform([0, 0, 1, 1], [90, 90, 8, 8], (30, 4))]
    free = shapely.difference(shapely.box(0, 0, 100, 100), shapely.union_all(obstacles))
    pts = rng.uniform(0, 100, (400, 2))
    pts = pts[shapely.contains_xy(free, pts[:, 0], pts[:, 1])]
    level = Level.rectangle(100, 100, obstacles=obstacles, waypoints=pts)
    a = build_waypoint_graph(level, k=6, corners=True)
    b = build_waypoint_graph(level, k=6, corners=True, visibility="kernel")
    assert arcs(a) == arcs(b)


# -- manual and off-mesh links -------------------------------------------------------------
def test_forced_forbidden_and_one_way_links_override_visibility():
    pts = [[1, 1], [9, 1], [1, 9], [9, 9]]
    links = [Link(0, 1, "forced", tag="jump"), Link(0, 2, "forbidden"), Link(3, 2, "one_way", requires="key")]
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[WALL], waypoints=pts, links=links))
    assert arcs(nav) == {(0, 1), (1, 0), (1, 3), (3, 1), (3, 2)}
    g = nav.graph
    names = {(int(s), int(d)): g.tag_names[t] for s, d, t in zip(g.arc_sources, g.indices, g.tags)}
    assert names[(0, 1)] == names[(1, 0)] == "jump"
    assert decode_arc_tag(names[(3, 2)]) == ("", frozenset({"key"}))
    assert names[(1, 3)] == ""
    kinds = dict(zip(zip(g.arc_sources.tolist(), g.indices.tolist()), nav.arc_kinds.tolist()))
    assert kinds[(0, 1)] == kinds[(3, 2)] == ARC_LINK


def test_gated_link_is_closed_without_the_capability():
    pts = [[1, 1], [9, 1]]
    links = [Link(0, 1, "forced", tag="ford", requires="wading_boots")]
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 10), (4, 10)]], waypoints=pts, links=links))
    assert np.isinf(nav.weights().values).all()
    boots = CostProfile("scout", {"ford": 2.0}, capabilities={"wading_boots"})
    np.testing.assert_allclose(nav.weights(boots).values, [16.0, 16.0])


def test_offmesh_links_add_their_own_cost_and_direction():
    pts = [[1, 1], [9, 1], [1, 9]]
    offmesh = [OffMeshLink(0, 1, 0.5, "teleport"), OffMeshLink(0, 2, 3.0, "ladder", bidirectional=True)]
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[WALL], waypoints=pts, offmesh_links=offmesh))
    g = nav.graph
    table = {(int(s), int(d), int(k)): float(w) for s, d, k, w in zip(g.arc_sources, g.indices, nav.arc_kinds, nav.weights().values)}
    assert table[(0, 1, ARC_OFFMESH)] == 0.5
    assert (1, 0, ARC_OFFMESH) not in table
    assert table[(0, 2, ARC_OFFMESH)] == table[(2, 0, ARC_OFFMESH)] == 3.0
    assert table[(0, 2, 0)] == 8.0  # the walking arc is still there beside the ladder
    assert nav.terrain.lengths.shape == (g.n_edges, 0)


# -- terrain and weights ---------------------------------------------------------------------
def test_terrain_breakdown_and_profile_weights():
    swamp = TerrainRegion([(4, 0), (6, 0), (6, 10), (4, 10)], "swamp")
    road = TerrainRegion([(0, 0), (2, 0), (2, 10), (0, 10)], "road")
    level = Level.rectangle(10, 10, waypoints=[[1, 5], [9, 5]], terrain=[swamp, road])
    nav = build_waypoint_graph(level)
    assert nav.terrain.tag_names == ("road", "swamp")
    np.testing.assert_allclose(nav.terrain.lengths.toarray(), [[1.0, 2.0], [1.0, 2.0]])
    tank = CostProfile("tank", {"swamp": 3.0, "road": 0.5})
    # 8 long: 1 on road (x0.5), 2 in swamp (x3), 5 plain
    np.testing.assert_allclose(nav.weights(tank).values, [5 + 0.5 + 6.0] * 2)
    # equal profiles give equal weights (per-unit-type caching lives in NavQuery, not the map)
    np.testing.assert_array_equal(nav.weights(tank).values, nav.weights(CostProfile("tank", {"road": 0.5, "swamp": 3.0})).values)
    wheels = CostProfile("jeep", forbidden={"swamp"})
    assert np.isinf(nav.weights(wheels).values).all()


def test_danger_zones_raise_weights_without_caching():
    level = Level.rectangle(10, 10, waypoints=[[1, 5], [9, 5], [1, 1]])
    nav = build_waypoint_graph(level)
    base = nav.weights().values
    zone = DangerZone((5, 5), 1.0, 4.0)
    w = nav.weights(danger=[zone]).values
    g = nav.graph
    through = [(int(s), int(d)) for s, d in zip(g.arc_sources, g.indices)].index((0, 1))
    assert w[through] == pytest.approx(base[through] + 2 * 4.0)
    assert (w >= base).all()
    np.testing.assert_array_equal(nav.weights().values, base)


def test_straight_costs_match_the_terrain_rule():
    swamp = TerrainRegion([(4, 0), (6, 0), (6, 10), (4, 10)], "swamp")
    nav = build_waypoint_graph(Level.rectangle(10, 10, waypoints=[[1, 1]], terrain=[swamp]))
    tank = CostProfile("tank", {"swamp": 3.0})
    np.testing.assert_allclose(nav.straight_costs([[0, 5], [0, 1]], [[10, 5], [3, 1]], tank), [8 + 6, 3])


# -- blocked waypoints and floors ------------------------------------------------------------
def test_blocked_waypoint_policies():
    level = Level.rectangle(10, 10, obstacles=[SQUARE], waypoints=[[1, 1], [3.5, 5], [9, 9]], links=[Link(1, 2, "forced")])
    with pytest.raises(InvalidGeometryError, match=r"waypoints\[1\]"):
        build_waypoint_graph(level, agent_radius=1.0, on_blocked_waypoint="error")
    with pytest.warns(NavmeshWarning, match="no automatic links"):
        kept = build_waypoint_graph(level, agent_radius=1.0)
    assert kept.blocked_waypoints.tolist() == [1]
    assert set(kept.graph.neighbors(1).tolist()) == {2}  # only the forced link
    with pytest.warns(NavmeshWarning, match="dropped 1 waypoints"):
        dropped = build_waypoint_graph(level, agent_radius=1.0, on_blocked_waypoint="drop")
    assert dropped.n_nodes == 2 and dropped.level.links == ()
    assert dropped.blocked_waypoints.tolist() == []


def test_floors_link_only_within_a_floor():
    pts = [[1, 1, 0], [9, 1, 0], [1, 1, 5], [9, 1, 5]]
    ladder = [OffMeshLink(1, 3, 4.0, "ladder", bidirectional=True)]
    nav = build_waypoint_graph(Level.rectangle(10, 10, waypoints=pts, offmesh_links=ladder))
    assert arcs(nav) == {(0, 1), (1, 0), (2, 3), (3, 2), (1, 3), (3, 1)}
    assert nav.floor_ids().tolist() == [0, 0, 1, 1]
    with pytest.raises(InvalidGeometryError, match="floors"):
        nav.visible_waypoints([5, 5])
    assert nav.visible_waypoints([5, 2, 5]).tolist() == [2, 3] or nav.visible_waypoints([5, 2, 5]).tolist() == [3, 2]
    with pytest.raises(NodeNotFoundError, match="no floor"):
        nav.visible_waypoints([5, 2, 1])


def test_corners_are_added_on_every_floor():
    pts = [[1, 1, 0], [1, 1, 3]]
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[SQUARE], waypoints=pts), corners=True)
    assert nav.n_generated == 8
    assert sorted(set(nav.points[2:, 2].tolist())) == [0.0, 3.0]


# -- options -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(k=0), "k=0"),
        (dict(k=2.5), "k=2.5"),
        (dict(max_distance=0), "max_distance"),
        (dict(max_candidates=3), "max_candidates=3"),
        (dict(agent_radius=-1), "agent_radius"),
        (dict(join="bevel"), "join"),
        (dict(visibility="gpu"), "visibility"),
        (dict(on_blocked_waypoint="ignore"), "on_blocked_waypoint"),
        (dict(fill_spacing=-2), "fill_spacing"),
        (dict(corners="yes"), "corners"),
    ],
)
def test_bad_options_are_rejected(kw, match):
    with pytest.raises(InvalidOptionError, match=match):
        build_waypoint_graph(Level.rectangle(10, 10), **kw)


def test_level_must_be_a_level():
    with pytest.raises(InvalidOptionError, match="Level"):
        build_waypoint_graph({"bounds": (0, 0, 1, 1)})


def test_options_record_widening_cap():
    assert BuildOptions(k=8).widened_k == 32
    assert BuildOptions(k=8, max_candidates=8).widened_k == 8
    assert BuildOptions(k=None).widened_k is None


def test_empty_level_builds_an_empty_graph():
    nav = build_waypoint_graph(Level.rectangle(10, 10))
    assert nav.n_nodes == 0 and nav.graph.n_edges == 0


# -- local updates -----------------------------------------------------------------------------
def _same_graph(a: NavMap, b: NavMap) -> None:
    for name in ("points", "indptr", "indices", "lengths", "tags"):
        np.testing.assert_array_equal(getattr(a.graph, name), getattr(b.graph, name), err_msg=name)
    assert a.graph.tag_names == b.graph.tag_names
    np.testing.assert_array_equal(a.arc_kinds, b.arc_kinds)
    np.testing.assert_array_equal(a.blocked_waypoints, b.blocked_waypoints)
    assert a.terrain.tag_names == b.terrain.tag_names
    diff = abs(scipy.sparse.csr_array(a.terrain.lengths) - scipy.sparse.csr_array(b.terrain.lengths))
    assert (diff.max() if diff.nnz else 0.0) == 0.0


def _random_level(seed: int, n_obstacles: int = 40, n_waypoints: int = 300) -> Level:
    rng = np.random.default_rng(seed)
    obstacles = [shapely.box(x, y, x + w, y + h) for x, y, w, h in rng.uniform([0, 0, 2, 2], [190, 190, 12, 12], (n_obstacles, 4))]
    free = shapely.difference(shapely.box(0, 0, 200, 200), shapely.union_all(obstacles))
    pts = rng.uniform(0, 200, (n_waypoints * 2, 2))
    pts = pts[shapely.contains_xy(free, pts[:, 0], pts[:, 1])][:n_waypoints]
    terrain = [TerrainRegion(shapely.box(20, 20, 90, 120), "swamp"), TerrainRegion(shapely.box(60, 100, 180, 130), "road")]
    return Level.rectangle(200, 200, obstacles=obstacles, waypoints=pts, terrain=terrain,
                           links=[Link(0, 1, "forced"), Link(2, 3, "one_way", tag="bridge")])


@pytest.mark.parametrize("options", [dict(k=8), dict(k=6, corners=True, agent_radius=1.5), dict(k=None, max_distance=40.0)])
def test_adding_and_removing_an_obstacle_equals_a_rebuild(options):
    level = _random_level(1)
    nav = quiet_build(level, **options)
    door = shapely.box(95, 60, 104, 140)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        closed = nav.with_obstacle(door)
        rebuilt = build_waypoint_graph(closed.level, **options)
    _same_graph(closed, rebuilt)
    g = closed.graph
    walk = closed.arc_kinds == 0
    lines = shapely.linestrings(np.stack([g.points[g.arc_sources[walk], :2], g.points[g.indices[walk], :2]], axis=1))
    assert not shapely.relate_pattern(lines, door, "T********").any()  # no arc through the closed door
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        reopened = closed.without_obstacle(len(closed.level.obstacles) - 1)
    _same_graph(reopened, nav)


def test_changing_terrain_equals_a_rebuild():
    level = _random_level(2)
    nav = build_waypoint_graph(level)
    regions = list(level.terrain) + [TerrainRegion(shapely.box(100, 0, 140, 60), "water")]
    changed = nav.with_terrain(regions)
    _same_graph(changed, build_waypoint_graph(changed.level))
    moved = changed.with_terrain([regions[1], regions[2]])
    _same_graph(moved, build_waypoint_graph(moved.level))


def test_update_with_a_new_bounds_rebuilds():
    level = _random_level(3, n_obstacles=10, n_waypoints=50)
    nav = build_waypoint_graph(level)
    bigger = level.replace(bounds=(0, 0, 250, 250))
    _same_graph(nav.update(bigger), build_waypoint_graph(bigger))


def test_update_reuses_visibility_answers(monkeypatch):
    level = _random_level(4)
    nav = build_waypoint_graph(level)
    calls = []
    from navmesh import sight

    real = sight.LineOfSight.blocked

    def spy(self, a, b, **options):
        calls.append(len(a))
        return real(self, a, b, **options)

    monkeypatch.setattr(sight.LineOfSight, "blocked", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        nav.with_obstacle(shapely.box(100, 100, 104, 104))
    tested = sum(calls)
    assert tested < 0.2 * nav.graph.n_edges  # only segments near the new obstacle are re-tested


# -- diagnostics -----------------------------------------------------------------------------
def test_diagnose_reports_islands_traps_and_blocked_waypoints():
    wall = [[(4, 0), (6, 0), (6, 10), (4, 10)]]
    room = [[(7, 6), (10, 6), (10, 10), (7, 10)], [(7.5, 6.5), (9.5, 6.5), (9.5, 9.5), (7.5, 9.5)]]  # closed room
    pts = [[1, 1], [1, 9], [3.5, 5], [9, 1], [6.5, 4], [8.5, 8]]
    level = Level.rectangle(10, 10, obstacles=wall + [room], waypoints=pts)
    split = diagnose(build_waypoint_graph(level, k=3), origin=3)
    assert split.n_islands == 3
    assert split.isolated.tolist() == [5]
    assert split.unreachable.tolist() == [0, 1, 2, 5]
    assert not split.ok
    linked = level.replace(links=[Link(1, 3, "one_way"), Link(3, 5, "one_way")])
    d = diagnose(build_waypoint_graph(linked, k=3), origin=3)
    assert d.n_islands == 1
    assert d.unreachable.tolist() == [0, 1, 2]
    assert d.sinks.tolist() == [5]  # entered by a one-way link, no way out
    assert d.sources.tolist() == []
    assert set(d.one_way_traps.tolist()) == {0, 1, 2, 3, 4, 5}
    assert diagnose(build_waypoint_graph(linked, k=3), origin=0).unreachable.tolist() == []
    with pytest.warns(NavmeshWarning):
        blocked = build_waypoint_graph(level, k=3, agent_radius=1.0)
    # (3.5, 5) and (6.5, 4) are nearer than 1 to the wall; the room's inside (2 wide) closes up
    assert blocked.blocked_waypoints.tolist() == [2, 4, 5]
    assert diagnose(blocked).blocked.tolist() == [2, 4, 5]


def test_diagnose_a_healthy_graph():
    nav = build_waypoint_graph(Level.rectangle(10, 10, waypoints=[[1, 1], [9, 9], [1, 9]]))
    d = diagnose(nav, origin=0)
    assert d.ok and d.n_islands == 1
    with pytest.raises(InvalidOptionError):
        diagnose("not a graph")


def test_update_on_a_jagged_grid_with_regenerated_corners_equals_a_rebuild():
    # many equally distant lattice corners: the candidate order must not depend on the KD-tree
    rng = np.random.default_rng(8)
    cells = np.argwhere(rng.random((40, 40)) < 0.12)
    obstacles = [shapely.box(x, y, x + 1, y + 1) for y, x in cells]
    level = Level.rectangle(40, 40, obstacles=obstacles)
    for visibility in ("shapely", "kernel"):
        nav = build_waypoint_graph(level, k=8, corners=True, visibility=visibility)
        for block in (shapely.box(20, 20, 23, 22), shapely.box(0, 5, 2, 9)):
            changed = nav.with_obstacle(block)
            _same_graph(changed, build_waypoint_graph(changed.level, k=8, corners=True, visibility=visibility))
            _same_graph(changed.without_obstacle(-1), nav)


@pytest.mark.parametrize("options", [{"k": 8}, {"k": 5, "agent_radius": 1.0}])
def test_a_chain_of_door_updates_equals_rebuilds_and_relinks_only_near_the_doors(monkeypatch, options):
    # doors over waypoints (their blocked flag flips) and over manually linked ones; each update
    # starts from the previous one, so the spliced arcs and linking choices are carried along
    level = _random_level(5)
    pts = level.waypoints
    doors = [shapely.box(*(pts[0] - 3), *(pts[0] + 3)), shapely.box(95, 60, 104, 140), shapely.box(*(pts[2] - 2), *(pts[2] + 2))]
    nav = quiet_build(level, **options)
    real = linking_mod._nearest_visible
    rows = []

    def spy(cand, k, blocked, los_for, n, which):
        rows.append(len(which))
        return real(cand, k, blocked, los_for, n, which)

    steps = [("with_obstacle", door) for door in doors] + [("without_obstacle", -1)] * len(doors)
    current = nav
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        for method, arg in steps:
            monkeypatch.setattr(linking_mod, "_nearest_visible", spy)
            current = getattr(current, method)(arg)
            monkeypatch.setattr(linking_mod, "_nearest_visible", real)
            _same_graph(current, build_waypoint_graph(current.level, **options))
    _same_graph(current, nav)
    assert len(rows) == len(steps) and max(rows) < nav.n_nodes / 2  # only waypoints near a door chose again


# -- editor-sized edits: one waypoint or one obstacle changes --------------------------------
def _first_rows(old: np.ndarray, new: np.ndarray) -> list[int]:
    """For each old row, the first new row with the same coordinates (-1: none), by a dict."""
    first: dict[tuple[float, ...], int] = {}
    for j, row in enumerate(map(tuple, new.tolist())):
        first.setdefault(row, j)
    return [first.get(tuple(row), -1) for row in old.tolist()]


@pytest.mark.parametrize("edit", ["same", "move", "add_end", "add_middle", "remove", "swap", "shift_all", "onto_other"])
def test_point_id_map_matches_a_dictionary(edit):
    rng = np.random.default_rng(11)
    old = rng.integers(0, 50, (200, 2)).astype(np.float64) + rng.random((200, 2))
    assert incremental_mod.all_unique(old)
    new = {
        "same": old.copy(),
        "move": np.vstack([old[:70], [[99.5, 99.5]], old[71:]]),
        "add_end": np.vstack([old, [[77.25, 3.5]]]),
        "add_middle": np.vstack([old[:150], [[77.25, 3.5]], old[150:]]),  # generated points after it shift
        "remove": np.delete(old, 40, axis=0),
        "swap": old[np.r_[0:10, 11, 10, 12:200]],
        "shift_all": old + 1.0,  # every row changed: the full comparison
        "onto_other": np.vstack([old[:70], old[5:6], old[71:]]),  # a moved point lands on another: duplicates
    }[edit]
    got = incremental_mod.old_to_new(old, new, old_unique=True)
    assert got.tolist() == _first_rows(old, new)
    assert incremental_mod.old_to_new(old, new, old_unique=False).tolist() == _first_rows(old, new)
    assert incremental_mod.all_unique(new) == (edit != "onto_other")


def _move_waypoint(level: Level, i: int, dx: float, dy: float) -> Level:
    pts = np.array(level.waypoints)
    pts[i] += (dx, dy)
    return level.replace(waypoints=pts)


def _free_spot(level: Level, near: np.ndarray) -> np.ndarray:
    los = level.line_of_sight(agent_radius=2.0)
    for step in np.linspace(0.5, 20.0, 40):
        for d in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            p = near + step * np.asarray(d, dtype=float)
            if los.walkable(p[None])[0]:
                return p
    raise AssertionError("no free spot")


def _move_an_obstacle(level: Level) -> Level:
    """The level with the first obstacle that can move by (3, 2) without covering a waypoint moved."""
    for i, poly in enumerate(level.obstacles):
        moved = shapely.affinity.translate(poly, 3.0, 2.0)
        if not shapely.intersects_xy(moved.buffer(2.5), *level.waypoints[:, :2].T).any():
            return level.replace(obstacles=(*level.obstacles[:i], moved, *level.obstacles[i + 1:]))
    raise AssertionError("no obstacle can move")


@pytest.mark.parametrize(
    "options",
    [{"k": 8}, {"k": 6, "corners": True, "agent_radius": 1.5}, {"k": None, "max_distance": 40.0}, {"k": 4, "visibility": "kernel"}],
)
def test_a_chain_of_waypoint_and_obstacle_edits_equals_rebuilds(monkeypatch, options):
    # the editor's drag steps, each update starting from the previous one
    real = incremental_mod.changed_run_map
    direct = []
    monkeypatch.setattr(incremental_mod, "changed_run_map", lambda old, new: direct.append(real(old, new) is not None) or real(old, new))
    level = _random_level(6)
    nav = quiet_build(level, **options)
    w = level.waypoints
    steps = [
        lambda lv: _move_waypoint(lv, 150, *(_free_spot(lv, lv.waypoints[150] + 1.5) - lv.waypoints[150])),
        lambda lv: lv.replace(waypoints=np.vstack([lv.waypoints, _free_spot(lv, w[20] + 2.5)])),
        lambda lv: lv.replace(waypoints=np.vstack([lv.waypoints[:5], _free_spot(lv, w[60] + 1.0), lv.waypoints[5:]]),
                              links=[Link(0, 1, "forced"), Link(2, 3, "one_way", tag="bridge")]),
        lambda lv: lv.replace(waypoints=np.delete(lv.waypoints, 100, axis=0)),
        lambda lv: lv.replace(waypoints=np.delete(lv.waypoints, lv.n_waypoints - 1, axis=0)),
        _move_an_obstacle,
        lambda lv: _move_waypoint(lv, 0, *(_free_spot(lv, lv.waypoints[0] + 4.0) - lv.waypoints[0])),
    ]
    current = nav
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        for step in steps:
            changed = step(current.level)
            current = current.update(changed)
            assert current.level is changed
            _same_graph(current, build_waypoint_graph(changed, **options))
    assert direct.count(True) >= 6  # the waypoint edits mapped ids from the changed rows alone


def test_moving_a_waypoint_of_a_level_with_duplicate_waypoints_equals_a_rebuild():
    # duplicates kept with on_bad_waypoint="warn": the id map takes the full comparison
    level = _random_level(7, n_waypoints=120)
    with pytest.warns(NavmeshWarning):
        dup = level.replace(waypoints=np.vstack([level.waypoints, level.waypoints[10:12]]), on_bad_waypoint="warn")
    nav = build_waypoint_graph(dup)
    assert not nav.build_cache.unique
    pts = np.array(dup.waypoints)
    pts[11] = _free_spot(dup, pts[11] + 1.0)
    with pytest.warns(NavmeshWarning):
        moved = dup.replace(waypoints=pts, on_bad_waypoint="warn")
    _same_graph(nav.update(moved), build_waypoint_graph(moved))
