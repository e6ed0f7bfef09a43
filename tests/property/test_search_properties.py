"""Properties of the graph searches on random graphs, checked against scipy.sparse.csgraph.

Conventions the properties rely on (documented in :mod:`navmesh.search`): a closed arc (weight
``inf``) is never walked by any search, ``dfs`` included; where parallel arcs join two nodes, a
path's cost counts the cheapest open one (``dfs`` prices its steps the same way).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import navmesh
import navmesh.search
from navmesh import NavGraph

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def random_graphs(draw, *, negative: bool = False):
    """A random graph (2-D or 3-D, directed or not) and per-arc weights.

    Weights are one of: the arc lengths, lengths times a random factor in [0.1, 3] (some arcs
    cheaper than their length, like roads), or random values unrelated to geometry (with zeros).
    """
    n = draw(st.integers(1, 24))
    dim = draw(st.sampled_from([2, 3]))
    coords = draw(st.lists(st.integers(-50, 50), min_size=n * dim, max_size=n * dim))
    points = np.array(coords, dtype=float).reshape(n, dim)
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4 * n))
    directed = draw(st.booleans()) or negative
    graph = NavGraph.from_edges(points, np.array(pairs, dtype=np.int64).reshape(-1, 2), directed=directed)
    m = graph.n_edges
    kind = draw(st.sampled_from(["length", "scaled", "random", "closed"]))
    if negative:
        values = np.array(draw(st.lists(st.integers(-3, 10), min_size=m, max_size=m)), dtype=float)
    elif kind == "length":
        values = graph.lengths.copy()
    elif kind == "scaled":
        factors = draw(st.lists(st.floats(0.1, 3.0), min_size=m, max_size=m))
        values = graph.lengths * np.array(factors)
    elif kind == "random":
        values = np.array(draw(st.lists(st.integers(0, 20), min_size=m, max_size=m)), dtype=float)
    else:
        closed = draw(st.lists(st.booleans(), min_size=m, max_size=m))
        values = np.where(np.array(closed, dtype=bool), np.inf, graph.lengths)
    return graph, values


def scipy_matrix(graph: NavGraph, values: np.ndarray) -> sp.csr_array:
    """The graph as scipy sees it, built here from the arc list (cheapest of parallel arcs)."""
    best: dict[tuple[int, int], float] = {}
    for u, v, w in zip(graph.arc_sources.tolist(), graph.indices.tolist(), values.tolist()):
        if w != math.inf:  # closed arcs are left out
            best[(u, v)] = min(w, best.get((u, v), math.inf))
    rows = [k[0] for k in best]
    cols = [k[1] for k in best]
    return sp.csr_array((list(best.values()), (rows, cols)), shape=(graph.n_nodes, graph.n_nodes))


def assert_real_path(graph: NavGraph, values: np.ndarray, path: navmesh.Path) -> None:
    """The path is a chain of open arcs whose cheapest weights sum to the reported cost."""
    total = 0.0
    for a, b in zip(path.nodes[:-1].tolist(), path.nodes[1:].tolist()):
        arcs = np.flatnonzero((graph.arc_sources == a) & (graph.indices == b) & np.isfinite(values))
        assert arcs.size, f"{a}->{b} is not an open arc"
        total += values[arcs].min()
    assert total == pytest.approx(path.cost, rel=1e-9, abs=1e-9)
    np.testing.assert_array_equal(path.points, graph.points[path.nodes])


def snapshot(graph: NavGraph):
    return [a.copy() for a in (graph.points, graph.indptr, graph.indices, graph.lengths, graph.tags)]


@SETTINGS
@given(random_graphs(), st.sampled_from(["euclidean", "manhattan", "octile", "chebyshev", "zero"]), st.data())
def test_astar_and_dijkstra_costs_equal_scipy(case, heuristic, data):
    graph, values = case
    before = snapshot(graph)
    weights = graph.weights(values)
    expected = csgraph.dijkstra(scipy_matrix(graph, values), directed=True)
    for _ in range(6):
        s = data.draw(st.integers(0, graph.n_nodes - 1))
        t = data.draw(st.integers(0, graph.n_nodes - 1))
        if np.isinf(expected[s, t]):
            with pytest.raises(navmesh.NoPathError):
                navmesh.astar(graph, s, t, weights=weights, heuristic=heuristic)
            continue
        for path in (
            navmesh.astar(graph, s, t, weights=weights, heuristic=heuristic),
            navmesh.dijkstra(graph, s, t, weights=values),
        ):
            assert path.cost == pytest.approx(expected[s, t], rel=1e-9, abs=1e-9)
            assert path.nodes[0] == s and path.nodes[-1] == t and not path.partial
            assert_real_path(graph, values, path)
        weighted = navmesh.astar(graph, s, t, weights=weights, heuristic=heuristic, heuristic_weight=2.0)
        assert weighted.cost <= 2.0 * expected[s, t] + 1e-9
        assert_real_path(graph, values, weighted)
    for got, was in zip(snapshot(graph), before):
        np.testing.assert_array_equal(got, was)


@SETTINGS
@given(random_graphs(), st.data())
def test_dijkstra_tree_equals_scipy_including_multi_source(case, data):
    graph, values = case
    matrix = scipy_matrix(graph, values)
    sources = data.draw(st.lists(st.integers(0, graph.n_nodes - 1), min_size=1, max_size=3))
    tree = navmesh.search.dijkstra_tree(graph, sources, weights=values)
    rows = csgraph.dijkstra(matrix, directed=True, indices=sources).reshape(len(sources), -1)
    np.testing.assert_allclose(tree.cost, rows.min(axis=0), rtol=1e-9, atol=1e-9)
    reached = np.isfinite(tree.cost)
    # each reached node's origin is a source at exactly that cost
    for v in np.flatnonzero(reached):
        k = sources.index(int(tree.origin[v]))
        assert rows[k, v] == pytest.approx(tree.cost[v], rel=1e-9, abs=1e-9)
        assert_real_path(graph, values, tree.path_to(int(v)))
    limit = float(np.median(tree.cost[reached]))
    limited = navmesh.search.dijkstra_tree(graph, sources, weights=values, limit=limit)
    inside = tree.cost <= limit
    np.testing.assert_allclose(limited.cost[inside], tree.cost[inside])
    assert np.isinf(limited.cost[~inside]).all()


@SETTINGS
@given(random_graphs(), st.data())
def test_bfs_equals_scipy_hop_counts(case, data):
    graph, values = case
    hops = csgraph.shortest_path(scipy_matrix(graph, np.ones(graph.n_edges)), directed=True, unweighted=True)
    s = data.draw(st.integers(0, graph.n_nodes - 1))
    np.testing.assert_array_equal(navmesh.search.bfs_tree(graph, s).cost, hops[s])
    t = data.draw(st.integers(0, graph.n_nodes - 1))
    if np.isinf(hops[s, t]):
        with pytest.raises(navmesh.NoPathError):
            navmesh.bfs(graph, s, t)
        with pytest.raises(navmesh.NoPathError):
            navmesh.dfs(graph, s, t)
    else:
        path = navmesh.bfs(graph, s, t)
        assert path.cost == hops[s, t] == len(path.nodes) - 1
        assert_real_path(graph, np.ones(graph.n_edges), path)
        any_path = navmesh.dfs(graph, s, t)
        assert any_path.nodes[0] == s and any_path.nodes[-1] == t
        assert_real_path(graph, graph.lengths, any_path)


@SETTINGS
@given(random_graphs(), st.data())
def test_dfs_finds_a_path_exactly_when_open_arcs_lead_there(case, data):
    graph, values = case
    closed = data.draw(st.lists(st.booleans(), min_size=graph.n_edges, max_size=graph.n_edges))
    values = np.where(np.array(closed, dtype=bool), np.inf, values)
    dist = csgraph.dijkstra(scipy_matrix(graph, values), directed=True)
    s = data.draw(st.integers(0, graph.n_nodes - 1))
    t = data.draw(st.integers(0, graph.n_nodes - 1))
    if np.isinf(dist[s, t]):
        with pytest.raises(navmesh.NoPathError):
            navmesh.dfs(graph, s, t, weights=values)
        return
    path = navmesh.dfs(graph, s, t, weights=values)
    assert path.nodes[0] == s and path.nodes[-1] == t and len(set(path.nodes.tolist())) == len(path.nodes)
    assert_real_path(graph, values, path)
    assert path.cost >= dist[s, t] - 1e-9


@SETTINGS
@given(random_graphs(negative=True), st.data())
def test_bellman_ford_equals_scipy_including_negative_cycles(case, data):
    graph, values = case
    s = data.draw(st.integers(0, graph.n_nodes - 1))
    matrix = scipy_matrix(graph, values)
    try:
        expected = csgraph.bellman_ford(matrix, directed=True, indices=s)
    except csgraph.NegativeCycleError:
        with pytest.raises(navmesh.NegativeCycleError) as info:
            navmesh.bellman_ford(graph, s, weights=values)
        cycle = info.value.cycle
        assert cycle[0] == cycle[-1] and len(cycle) >= 2
        total = 0.0
        for a, b in zip(cycle[:-1], cycle[1:]):
            arcs = np.flatnonzero((graph.arc_sources == a) & (graph.indices == b))
            assert arcs.size, f"cycle step {a}->{b} is not an arc"
            total += values[arcs].min()
        assert total < 0
        return
    tree = navmesh.bellman_ford(graph, s, weights=values)
    np.testing.assert_allclose(tree.cost, expected, rtol=1e-9, atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(random_graphs())
def test_all_pairs_table_matches_scipy(case):
    graph, values = case
    table = navmesh.all_pairs(graph, weights=values)
    expected = csgraph.dijkstra(scipy_matrix(graph, values), directed=True)
    np.testing.assert_allclose(table.costs, expected, rtol=1e-9, atol=1e-9)
    for u in range(graph.n_nodes):
        for v in range(graph.n_nodes):
            if np.isfinite(expected[u, v]):
                path = table.path(u, v)
                assert_real_path(graph, values, path)
                assert path.cost == pytest.approx(expected[u, v], rel=1e-9, abs=1e-9)
            else:
                assert table.next_hop(u, v) == -1


@SETTINGS
@given(random_graphs(), st.data())
def test_reversed_undirected_query_costs_the_same(case, data):
    graph, values = case
    undirected = NavGraph.from_edges(
        graph.points, np.stack([graph.arc_sources, graph.indices], axis=1), directed=False
    )
    s = data.draw(st.integers(0, graph.n_nodes - 1))
    t = data.draw(st.integers(0, graph.n_nodes - 1))
    reachable = np.isfinite(navmesh.search.bfs_tree(undirected, s).cost[t])
    if not reachable:
        for a, b in ((s, t), (t, s)):
            with pytest.raises(navmesh.NoPathError):
                navmesh.astar(undirected, a, b)
        return
    forward = navmesh.astar(undirected, s, t)
    backward = navmesh.astar(undirected, t, s)
    assert forward.cost == pytest.approx(backward.cost, rel=1e-9, abs=1e-9)
    assert forward.nodes[0] == backward.nodes[-1] == s
