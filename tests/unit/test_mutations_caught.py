"""Tests aimed at bug classes a mutation check let through (issue 15).

Each test names the deliberate bug it catches. Expected answers come from the rules as stated
(hand computation, clipping done here, scipy.sparse.csgraph on matrices built here), never from
the function under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import navmesh
from navmesh import NavGraph
from navmesh.level import Level, Link, OffMeshLink
from navmesh.terrain import CostProfile, TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import find_path, smooth_path

HEURISTICS = ["euclidean", "manhattan", "octile", "chebyshev", "zero"]


def cheapest_matrix(graph: NavGraph, values: np.ndarray) -> sp.csr_array:
    """(n, n) matrix of the cheapest open arc between each ordered pair, built from the arc list."""
    best: dict[tuple[int, int], float] = {}
    for u, v, w in zip(graph.arc_sources.tolist(), graph.indices.tolist(), np.asarray(values).tolist()):
        if math.isfinite(w):
            best[(u, v)] = min(w, best.get((u, v), math.inf))
    rows, cols = zip(*best) if best else ((), ())
    return sp.csr_array((list(best.values()), (list(rows), list(cols))), shape=(graph.n_nodes, graph.n_nodes))


def random_waypoint_graph(seed: int, n: int = 160) -> NavGraph:
    """Waypoints scattered at any angle, each joined to its 6 nearest (like a k=6 build): arc
    directions are arbitrary, so octile and Manhattan distances overestimate arc lengths."""
    rng = np.random.default_rng(seed)
    pts = rng.uniform(0, 100, size=(n, 2))
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    near = np.argsort(d, axis=1)[:, 1:7]
    edges = np.sort(np.array([(i, int(j)) for i in range(n) for j in near[i]]), axis=1)
    return NavGraph.from_edges(pts, np.unique(edges, axis=0))


# -- octile (and every) heuristic on waypoint graphs --------------------------------------------------
# Catches: an octile heuristic that overestimates (e.g. the kernel's octile formula made larger than
# the metric the scale is computed from); 1 in 16 queries then returns a longer path.
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_astar_is_optimal_on_waypoint_graphs_for_every_heuristic(heuristic):
    rng = np.random.default_rng(7)
    bad = []
    for seed in range(3):
        graph = random_waypoint_graph(seed)
        expected = csgraph.dijkstra(cheapest_matrix(graph, graph.lengths), directed=True)
        for s, t in rng.integers(0, graph.n_nodes, size=(150, 2)).tolist():
            if not np.isfinite(expected[s, t]):
                continue
            got = navmesh.astar(graph, s, t, heuristic=heuristic).cost
            if not got == pytest.approx(expected[s, t], rel=1e-9, abs=1e-9):
                bad.append((seed, s, t, got, expected[s, t]))
    assert not bad, f"{len(bad)} non-optimal paths, first {bad[0]}"


# -- heuristic scale above 1 (roads cheaper than their length) ---------------------------------------------
# Catches: a heuristic scale clamped to >= 1 (or any scale above the smallest cost/metric ratio).
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_astar_is_optimal_when_roads_cost_less_than_their_length(heuristic):
    rng = np.random.default_rng(3)
    graph = random_waypoint_graph(11)
    road = rng.random(graph.n_edges) < 0.3
    values = np.where(road, 0.2, 1.0) * graph.lengths
    expected = csgraph.dijkstra(cheapest_matrix(graph, values), directed=True)
    weights = graph.weights(values)
    if heuristic == "euclidean":
        assert weights.heuristic_scale(heuristic) == pytest.approx(0.2)
    bad = []
    for s, t in rng.integers(0, graph.n_nodes, size=(200, 2)).tolist():
        if np.isfinite(expected[s, t]):
            got = navmesh.astar(graph, s, t, weights=weights, heuristic=heuristic).cost
            if not got == pytest.approx(expected[s, t], rel=1e-9, abs=1e-9):
                bad.append((s, t, got, expected[s, t]))
    assert not bad, f"{len(bad)} non-optimal paths, first {bad[0]}"


def test_cheap_road_weights_and_paths_match_an_independent_oracle():
    """A road at x0.25 across an open level: the profile's arc weights equal weights computed here
    (road length by clipping each arc to the road rectangle), and A* with them finds the csgraph
    optimum for every heuristic."""
    road = (0.0, 45.0, 100.0, 55.0)
    rng = np.random.default_rng(5)
    pts = np.unique(rng.integers(1, 100, size=(120, 2)).astype(float), axis=0)
    level = Level.rectangle(100, 100, waypoints=pts, terrain=[TerrainRegion(shapely_box(road), "road")])
    nav = build_waypoint_graph(level, k=6)
    g = nav.graph
    a, b = g.points[g.arc_sources], g.points[g.indices]
    inside = clipped_length(a, b, road)
    values = (g.lengths - inside) + 0.25 * inside
    weights = nav.weights(CostProfile("car", {"road": 0.25}))
    np.testing.assert_allclose(weights.values, values, rtol=1e-9, atol=1e-9)
    expected = csgraph.dijkstra(cheapest_matrix(g, values), directed=True)
    for s, t in rng.integers(0, g.n_nodes, size=(60, 2)).tolist():
        if not np.isfinite(expected[s, t]):
            continue
        for heuristic in HEURISTICS:
            path = navmesh.astar(g, s, t, weights=weights, heuristic=heuristic)
            assert path.cost == pytest.approx(expected[s, t], rel=1e-7, abs=1e-7)


def shapely_box(box):
    import shapely

    return shapely.box(*box)


def clipped_length(a: np.ndarray, b: np.ndarray, box) -> np.ndarray:
    """Length of each segment a->b inside the closed rectangle (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box
    out = np.zeros(len(a))
    for i, (p, q) in enumerate(zip(a[:, :2], b[:, :2])):
        d = q - p
        lo, hi = 0.0, 1.0
        for dp, p0, lo_edge, hi_edge in ((d[0], p[0], x0, x1), (d[1], p[1], y0, y1)):
            if dp == 0:
                if not lo_edge <= p0 <= hi_edge:
                    hi = -1.0
                continue
            t0, t1 = sorted(((lo_edge - p0) / dp, (hi_edge - p0) / dp))
            lo, hi = max(lo, t0), min(hi, t1)
        out[i] = max(hi - lo, 0.0) * math.hypot(*d)
    return out


# -- Bellman-Ford needs every pass ----------------------------------------------------------------
# Catches: Bellman-Ford stopping one pass short. Arcs run i+1 -> i and are relaxed in CSR order (by
# source id), so each pass settles exactly one more node: n-1 passes plus the check are all needed.
@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_bellman_ford_on_a_chain_that_needs_every_pass(n):
    pts = np.column_stack([np.arange(n, dtype=float), np.zeros(n)])
    edges = np.array([(i + 1, i) for i in range(n - 1)])
    graph = NavGraph.from_edges(pts, edges, directed=True)
    weights = np.full(n - 1, -1.0)  # negative arcs but no cycle
    tree = navmesh.bellman_ford(graph, n - 1, weights=weights)
    assert tree.cost.tolist() == [-(n - 1 - i) for i in range(n)]
    assert tree.path_to(0).nodes.tolist() == list(range(n - 1, -1, -1))


def test_bellman_ford_still_finds_a_cycle_that_appears_only_at_the_last_pass():
    n = 6
    pts = np.column_stack([np.arange(n, dtype=float), np.zeros(n)])
    edges = [(i + 1, i) for i in range(n - 1)] + [(0, n - 1)]  # a ring 5 -> 4 -> ... -> 0 -> 5
    graph = NavGraph.from_edges(pts, np.array(edges), directed=True)
    with pytest.raises(navmesh.NegativeCycleError) as info:
        navmesh.bellman_ford(graph, n - 1, weights=np.full(n, -1.0))
    assert sorted(set(info.value.cycle)) == list(range(n))


# -- links between floors ----------------------------------------------------------------------------
# Catches: a manual link between floors measured in x, y only (stairs become free).
def test_manual_link_between_floors_is_as_long_as_the_3d_distance():
    pts = [[1, 1, 0], [9, 1, 0], [9, 1, 6], [1, 9, 6]]
    level = Level.rectangle(10, 10, waypoints=pts, links=[Link(1, 2, "forced", tag="stairs")])
    nav = build_waypoint_graph(level)
    g = nav.graph
    arcs = np.flatnonzero((g.arc_sources == 1) & (g.indices == 2))
    assert g.lengths[arcs].tolist() == [6.0]
    path = navmesh.astar(g, 0, 3)
    assert path.nodes.tolist() == [0, 1, 2, 3]
    assert path.cost == pytest.approx(8.0 + 6.0 + math.hypot(8, 8))
    # the stairs priced by the profile: length 6 x multiplier 2
    q = navmesh.NavQuery(nav, CostProfile("walker", {"stairs": 2.0}))
    assert q.find_path([1, 1, 0], [1, 9, 6], refine="none").cost == pytest.approx(8.0 + 12.0 + math.hypot(8, 8))


# -- gated links -------------------------------------------------------------------------------------
# Catches: a gated arc opening when only one of its capabilities is held.
@pytest.mark.parametrize(
    "capabilities, open_",
    [((), False), (("boots",), False), (("rope",), False), (("boots", "rope"), True), (("boots", "rope", "x"), True)],
)
def test_gated_arc_needs_every_capability(capabilities, open_):
    profile = CostProfile("unit", capabilities=frozenset(capabilities))
    names = ("", "ford|requires:boots|requires:rope", "requires:boots")
    w = profile.arc_weights([5.0, 5.0, 5.0], np.zeros((3, 0)), (), [0, 1, 2], names)
    assert w[0] == 5.0
    assert w[1] == (5.0 if open_ else math.inf)
    assert w[2] == (5.0 if "boots" in capabilities else math.inf)


def test_gated_link_in_a_level_is_closed_without_its_capability():
    pts = [[1, 5], [9, 5]]
    wall = [(4, 0), (6, 0), (6, 10), (4, 10)]
    gate = Link(0, 1, "forced", requires="key")
    nav = build_waypoint_graph(Level.rectangle(10, 10, obstacles=[wall], waypoints=pts, links=[gate]))
    with pytest.raises(navmesh.NoPathError):
        navmesh.NavQuery(nav, CostProfile("no key", capabilities={"boots"})).find_path([1, 5], [9, 5])
    path = navmesh.NavQuery(nav, CostProfile("key", capabilities={"key"})).find_path([1, 5], [9, 5])
    assert path.cost == pytest.approx(8.0)


# -- smoothing never prices a link as a straight walk -------------------------------------------------
# Catches: smooth_path pricing off-mesh or tagged links as straight walks (it promises never to raise
# the cost). The teleport costs 1 but spans 96 units: priced as a walk, the straight shortcut from
# start to goal (98) looks no dearer than the path (~109) and replaces a path costing ~13.
def test_smooth_path_keeps_a_cheap_teleport():
    pts = [[2, 2], [98, 2], [50, 2]]
    level = Level.rectangle(
        100, 10, waypoints=pts,
        links=[Link(0, 1, "forbidden")],
        offmesh_links=[OffMeshLink(0, 1, 1.0, "teleport")],
    )
    nav = build_waypoint_graph(level)
    start, goal = [1, 8], [99, 8]
    raw = find_path(nav, start, goal, refine="none")
    hand = math.hypot(1, 6) + 1.0 + math.hypot(1, 6)
    assert raw.points.tolist() == [start, [2, 2], [98, 2], goal]
    assert raw.cost == pytest.approx(hand)
    smooth = smooth_path(nav, raw)
    assert smooth.cost == pytest.approx(hand)
    assert smooth.points.tolist() == [start, [2, 2], [98, 2], goal]


def test_smooth_path_keeps_a_cheap_tagged_link():
    """A forced 'bridge' link at x0.1 between two waypoints; walking straight costs x1."""
    pts = [[2, 2], [98, 2], [50, 9]]
    level = Level.rectangle(100, 10, waypoints=pts, links=[Link(0, 1, "forced", tag="bridge")])
    nav = build_waypoint_graph(level, k=1)
    profile = CostProfile("unit", {"bridge": 0.1})
    start, goal = [1, 8], [99, 8]
    raw = find_path(nav, start, goal, profile=profile, refine="none")
    hand = math.hypot(1, 6) + 9.6 + math.hypot(1, 6)
    assert raw.cost == pytest.approx(hand)
    smooth = smooth_path(nav, raw, profile=profile)
    assert smooth.cost == pytest.approx(hand)
    assert [2, 2] in smooth.points.tolist() and [98, 2] in smooth.points.tolist()


def test_smooth_path_never_raises_an_expensive_teleport_path_cost():
    """A dear teleport (cost 500) is never chosen over walking; the smoothed walk costs no more."""
    pts = [[2, 2], [98, 2], [50, 2]]
    level = Level.rectangle(100, 10, waypoints=pts, offmesh_links=[OffMeshLink(0, 1, 500.0, "teleport")])
    nav = build_waypoint_graph(level)
    raw = find_path(nav, [1, 8], [99, 8], refine="none")
    smooth = smooth_path(nav, raw)
    assert smooth.cost <= raw.cost + 1e-9
    assert smooth.cost == pytest.approx(98.0)


# -- work that cannot fit is refused before it is allocated ---------------------------------------------
def test_huge_k_on_five_waypoints_allocates_nothing_large():
    import tracemalloc

    from navmesh.waypoints.options import BuildOptions

    pts = [[1, 1], [2, 5], [8, 8], [5, 5], [9, 1]]
    level = Level.rectangle(10, 10, waypoints=pts)
    assert BuildOptions(k=10**7).candidate_width(5) == 5
    tracemalloc.start()
    try:
        huge = build_waypoint_graph(level, k=10**7)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20
    every = build_waypoint_graph(level, k=4)  # k=4 on five waypoints already links every visible pair
    assert np.array_equal(huge.graph.indptr, every.graph.indptr)
    assert np.array_equal(huge.graph.indices, every.graph.indices)


def test_candidate_table_too_large_is_refused_by_arithmetic():
    from navmesh.waypoints.options import MAX_TABLE_ENTRIES, BuildOptions

    with pytest.raises(navmesh.InvalidOptionError, match=r"k=1000 .* candidate table"):
        BuildOptions(k=1000).candidate_width(2**20)
    assert BuildOptions(k=8).candidate_width(MAX_TABLE_ENTRIES // 32) == 32


def test_tiny_fill_spacing_is_refused_before_the_lattice_exists():
    import tracemalloc

    from navmesh.waypoints.placement import fill_waypoints

    tracemalloc.start()
    try:
        with pytest.raises(navmesh.InvalidOptionError, match="spacing"):
            fill_waypoints(Level.rectangle(10, 10), 1e-9)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20
