"""Graph searches on hand-made graphs whose answers are worked out by hand."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path as FilePath

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import navmesh
import navmesh.search
from navmesh import (
    InvalidCostError,
    InvalidOptionError,
    NavGraph,
    NegativeCycleError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
)

ROOT = FilePath(__file__).resolve().parents[2]


def ladder() -> NavGraph:
    """Two rows of 5 nodes, 10 apart; rungs at both ends.

    0 - 1 - 2 - 3 - 4        (y = 0)
    |               |
    5 - 6 - 7 - 8 - 9        (y = 10)
    """
    pts = [[10 * i, 0] for i in range(5)] + [[10 * i, 10] for i in range(5)]
    edges = [(i, i + 1) for i in range(4)] + [(i, i + 1) for i in range(5, 9)] + [(0, 5), (4, 9)]
    return NavGraph.from_edges(pts, edges)


def test_astar_hand_computed():
    p = navmesh.astar(ladder(), 1, 6)
    # 1 -> 0 -> 5 -> 6 costs 10 + 10 + 10
    assert p.nodes.tolist() == [1, 0, 5, 6] and p.cost == 30.0 and not p.partial
    assert p.length == 30.0 and p.points.tolist() == [[10, 0], [0, 0], [0, 10], [10, 10]]


def test_cheap_road_is_taken_and_astar_stays_optimal():
    g = ladder()
    w = g.lengths.copy()
    for a, b in [(5, 6), (6, 7), (7, 8), (8, 9)]:
        w[g.arc(a, b)] = w[g.arc(b, a)] = 2.0  # bottom row is a road at 1/5 cost
    # top row 0->4 costs 40; road: 0->5->...->9->4 costs 10 + 8 + 10 = 28
    for h in ("euclidean", "manhattan", "octile", "chebyshev", "zero"):
        p = navmesh.astar(g, 0, 4, weights=w, heuristic=h)
        assert p.cost == 28.0 and p.nodes.tolist() == [0, 5, 6, 7, 8, 9, 4], h


def test_closed_arcs_are_never_used():
    g = ladder()
    w = g.lengths.copy()
    w[g.arc(0, 5)] = w[g.arc(5, 0)] = np.inf
    # around the ladder: 0 -> 4 (40), 4 -> 9 (10), 9 -> 5 (40)
    assert navmesh.astar(g, 0, 5, weights=w).cost == 90.0


def test_dfs_never_walks_a_closed_arc():
    g = ladder()
    w = g.lengths.copy()
    w[g.arc(0, 5)] = w[g.arc(5, 0)] = np.inf
    path = navmesh.dfs(g, 0, 5, weights=w)
    assert path.nodes.tolist() == [0, 1, 2, 3, 4, 9, 8, 7, 6, 5]
    assert path.cost == 90.0
    # with both ends of the ladder closed, astar and dfs agree that there is no path
    w[g.arc(4, 9)] = w[g.arc(9, 4)] = np.inf
    for search in (navmesh.astar, navmesh.dfs):
        with pytest.raises(NoPathError):
            search(g, 0, 5, weights=w)


def test_dfs_prices_parallel_arcs_by_the_cheapest_open_one():
    # three arcs 0 -> 1 (the first in CSR order is closed, the second dear, the third cheap)
    g = NavGraph([[0, 0], [3, 4]], [0, 3, 3], [1, 1, 1])
    assert navmesh.dfs(g, 0, 1, weights=[np.inf, 9.0, 2.0]).cost == 2.0
    assert navmesh.dfs(g, 0, 1).cost == 5.0
    with pytest.raises(NoPathError):
        navmesh.dfs(g, 0, 1, weights=[np.inf, np.inf, np.inf])


@pytest.mark.parametrize("weight", [float("nan"), -1.0, 0.5, float("inf"), 1e300, "2", None, True, [2.0]])
@pytest.mark.parametrize("algorithm", ["astar", "dijkstra"])
def test_search_trace_refuses_bad_heuristic_weights(weight, algorithm):
    with pytest.raises(InvalidOptionError, match="heuristic_weight"):
        navmesh.search_trace(ladder(), 0, 4, algorithm=algorithm, heuristic_weight=weight)
    with pytest.raises(InvalidOptionError, match="heuristic_weight"):
        navmesh.astar(ladder(), 0, 4, heuristic_weight=weight)


def test_search_trace_with_weight_one_is_optimal_and_weighted_is_bounded():
    g = ladder()
    w = g.lengths.copy()
    w[g.arc(0, 1)] = w[g.arc(1, 0)] = 100.0
    assert navmesh.search_trace(g, 0, 1, weights=w).path.cost == 90.0
    assert navmesh.search_trace(g, 0, 1, weights=w, heuristic_weight=1.5).path.cost <= 1.5 * 90.0


def test_unreachable_goal_raises_or_gives_partial_path():
    g = NavGraph.from_edges([[0, 0], [1, 0], [5, 0], [9, 0]], [(0, 1), (2, 3)])
    with pytest.raises(NoPathError, match=r"\[0\].*\[3\]"):
        navmesh.astar(g, 0, 3)
    p = navmesh.astar(g, 0, 3, allow_partial=True)
    assert p.partial and p.nodes.tolist() == [0, 1] and p.cost == 1.0
    assert navmesh.bfs(g, 0, 3, allow_partial=True).nodes.tolist() == [0, 1]


def test_budget_raises_or_gives_partial_path_toward_goal():
    g = NavGraph.from_edges([[i, 0] for i in range(10)], [(i, i + 1) for i in range(9)])
    with pytest.raises(SearchBudgetError, match="3 expansions"):
        navmesh.dijkstra(g, 0, 9, max_expansions=3)
    p = navmesh.dijkstra(g, 0, 9, max_expansions=3, allow_partial=True)
    assert p.partial and p.nodes.tolist() == [0, 1, 2] and p.expansions == 3
    with pytest.raises(SearchBudgetError):
        navmesh.bfs(g, 0, 9, max_expansions=2)


def test_astar_multi_uses_entry_and_exit_costs():
    g = ladder()
    # start off-graph between 2 and 7, joining both; goal off-graph near 4 and 9
    p = navmesh.search.astar_multi(g, [2, 7], [4, 9], start_costs=[5.0, 5.0], goal_costs=[1.0, 6.0],
                            goal_point=[41, 0])
    assert p.nodes.tolist() == [2, 3, 4] and p.cost == 5.0 + 20.0 + 1.0


def test_dijkstra_tree_and_nearest_start():
    g = NavGraph.from_edges([[i, 0] for i in range(6)], [(i, i + 1) for i in range(5)])
    tree = navmesh.search.dijkstra_tree(g, [0, 5])
    assert tree.cost.tolist() == [0, 1, 2, 2, 1, 0]
    assert tree.origin.tolist()[:2] == [0, 0] and tree.origin.tolist()[4:] == [5, 5]
    assert tree.path_to(4).nodes.tolist() == [5, 4]
    limited = navmesh.search.dijkstra_tree(g, 0, limit=2.5)
    assert limited.cost.tolist() == [0, 1, 2, np.inf, np.inf, np.inf]
    with pytest.raises(NoPathError):
        limited.path_to(5)


def test_bfs_counts_arcs_not_length():
    g = NavGraph.from_edges([[0, 0], [50, 40], [100, 0], [1, 1], [2, 2]], [(0, 1), (1, 2), (0, 3), (3, 4), (4, 2)])
    assert navmesh.bfs(g, 0, 2).nodes.tolist() == [0, 1, 2]
    assert navmesh.dijkstra(g, 0, 2).nodes.tolist() == [0, 3, 4, 2]


def test_bellman_ford_negative_arc_and_cycle():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0], [3, 0]], [(0, 1), (1, 2), (2, 1), (2, 3)], directed=True)
    order = [(int(u), int(v)) for u, v in zip(g.arc_sources, g.indices)]
    assert order == [(0, 1), (1, 2), (2, 1), (2, 3)]
    tree = navmesh.bellman_ford(g, 0, weights=[1.0, 4.0, -1.0, -2.0])
    assert tree.cost.tolist() == [0.0, 1.0, 5.0, 3.0]
    with pytest.raises(NegativeCycleError) as info:
        navmesh.bellman_ford(g, 0, weights=[1.0, 1.0, -3.0, 0.0])
    assert set(info.value.cycle) == {1, 2} and info.value.cycle[0] == info.value.cycle[-1]


def test_negative_weights_refused_outside_bellman_ford():
    g = ladder()
    with pytest.raises(InvalidCostError, match=">= 0"):
        navmesh.astar(g, 0, 1, weights=-g.lengths)


def test_all_pairs_next_hop_and_memory_refusal():
    g = ladder()
    table = navmesh.all_pairs(g)
    assert table.next_hop(1, 6) == 0 and table.next_hop(6, 6) == 6 and table.cost(1, 6) == 30.0
    assert table.path(1, 6).nodes.tolist() == [1, 0, 5, 6]
    with pytest.raises(InvalidOptionError, match="max_bytes"):
        navmesh.all_pairs(g, max_bytes=1000)


def test_search_trace_records_frontier_in_order():
    g = ladder()
    trace = navmesh.search_trace(g, 0, 4, algorithm="dijkstra")
    assert trace.expanded[0] == 0 and trace.path.nodes.tolist() == [0, 1, 2, 3, 4]
    assert trace.opened[0] == 0 and trace.opened_parent[0] == -1 and trace.opened_step[0] == -1
    # every opened node (after the start) was opened by an already expanded node
    for node, parent, step in zip(trace.opened[1:], trace.opened_parent[1:], trace.opened_step[1:]):
        assert trace.expanded[step] == parent and g.arc(int(parent), int(node)) >= 0
    astar_trace = navmesh.search_trace(g, 0, 4)
    assert len(astar_trace.expanded) <= len(trace.expanded)
    assert navmesh.search_trace(g, 0, 4, algorithm="bfs").path.cost == 4.0


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda g: navmesh.astar(g, 0, 99), NodeNotFoundError, "goal=99"),
        (lambda g: navmesh.astar(g, -1, 2), NodeNotFoundError, "start=-1"),
        (lambda g: navmesh.astar(g, 0.5, 2), NodeNotFoundError, "start=0.5"),
        (lambda g: navmesh.astar(g, 0, 2, heuristic="diagonal"), InvalidOptionError, "'euclidean'"),
        (lambda g: navmesh.astar(g, 0, 2, heuristic_weight=0.5), InvalidOptionError, "heuristic_weight"),
        (lambda g: navmesh.astar(g, 0, 2, max_expansions=0), InvalidOptionError, "max_expansions"),
        (lambda g: navmesh.astar(g, 0, 2, weights=[1.0]), InvalidCostError, "shape"),
        (lambda g: navmesh.search.dijkstra_tree(g, [], limit=1), NodeNotFoundError, "starts"),
        (lambda g: navmesh.search.dijkstra_tree(g, 0, limit=float("nan")), InvalidOptionError, "limit"),
        (lambda g: navmesh.search_trace(g, 0, 2, algorithm="ida"), InvalidOptionError, "algorithm"),
        (lambda g: navmesh.astar(g, 0, 2, max_expansions=2**70), InvalidOptionError, "max_expansions"),
        (lambda g: navmesh.bfs(g, 0, 2, max_expansions=2**63), InvalidOptionError, "max_expansions"),
        (lambda g: navmesh.search_trace(g, 0, 2, max_expansions=2**70), InvalidOptionError, "max_expansions"),
        (lambda g: navmesh.astar(g, 0, 2, heuristic_weight="2"), InvalidOptionError, "heuristic_weight='2'"),
        (lambda g: navmesh.all_pairs(g, max_bytes=None), InvalidOptionError, "max_bytes=None"),
        (lambda g: navmesh.all_pairs(g, max_bytes="1"), InvalidOptionError, "max_bytes"),
        (lambda g: navmesh.astar(g, 0, 2, allow_partial="yes"), InvalidOptionError, "allow_partial"),
        (lambda g: navmesh.astar(g, 0, 2, weights=["1"] * g.n_edges), InvalidCostError, "weights"),
        (lambda g: navmesh.astar(g, 0, 2, weights=[1e300] * g.n_edges), InvalidCostError, r"within \+-1e\+50"),
        (lambda g: navmesh.search.astar_multi(g, [0], [2], start_costs=["x"]), InvalidCostError, "start_costs"),
        (lambda g: navmesh.search.astar_multi(g, [0], [2], goal_costs=[10**400]), InvalidCostError, "goal_costs"),
        (lambda g: NavGraph([[1e200, 0]], [0, 0], []), navmesh.InvalidGeometryError, "1e.15"),
    ],
)
def test_bad_arguments_get_specific_errors(call, error, words):
    with pytest.raises(error, match=words):
        call(ladder())


def test_searches_run_as_plain_python_without_jit():
    """The kernels are plain Python under NUMBA_DISABLE_JIT=1: the hand-made cases pass there too."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not without_jit",
           str(ROOT / "tests" / "unit" / "test_search.py")]
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_second_process_loads_kernels_from_numba_cache():
    """cache=True: a fresh process reuses the compiled A* kernel instead of compiling it again."""
    code = (
        "import numpy as np, navmesh\n"
        "from navmesh._kernels import graph as K\n"
        "g = navmesh.NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)])\n"
        "navmesh.astar(g, 0, 2)\n"
        "print(sum(K.best_first.stats.cache_misses.values()), sum(K.best_first.stats.cache_hits.values()))\n"
    )
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compilation without the JIT")
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
            for _ in range(2)]
    misses, hits = map(int, runs[1].stdout.split())
    assert (misses, hits) == (0, 1)


def scipy_csr(graph: NavGraph, values) -> scipy.sparse.csr_array:
    """The graph's open arcs (finite weight) as a scipy matrix in the graph's own arc order (ones)."""
    ok = np.isfinite(np.asarray(graph.lengths if values is None else values, dtype=float))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(graph.arc_sources[ok], minlength=graph.n_nodes))])
    return scipy.sparse.csr_array((np.ones(ok.sum()), graph.indices[ok], indptr), shape=(graph.n_nodes,) * 2)


def check_dfs_trace(g: NavGraph, s: int, t: int, w) -> navmesh.SearchTrace:
    """A DFS trace against scipy's depth-first order and navmesh.dfs."""
    trace = navmesh.search_trace(g, s, t, algorithm="dfs", weights=w)
    order, pred = csgraph.depth_first_order(scipy_csr(g, w), s, directed=True, return_predecessors=True)
    if t in order:
        order = order[: order.tolist().index(t) + 1]
        library = navmesh.dfs(g, s, t, weights=w)
        assert not trace.path.partial and trace.path.nodes.tolist() == library.nodes.tolist()
        assert trace.path.cost == library.cost and trace.path.expansions == library.expansions
    else:
        with pytest.raises(NoPathError):
            navmesh.dfs(g, s, t, weights=w)
        assert trace.path.partial
    assert trace.expanded.tolist() == order.tolist()
    # every node after the start is stepped onto from its scipy predecessor, whose latest opening it is
    for i, v in enumerate(trace.expanded[1:].tolist(), start=1):
        opened_before = np.flatnonzero((trace.opened == v) & (trace.opened_step < i))
        assert len(opened_before) and trace.opened_parent[opened_before[-1]] == pred[v]
    for node, parent, step in zip(trace.opened[1:], trace.opened_parent[1:], trace.opened_step[1:]):
        assert trace.expanded[step] == parent and g.arc(int(parent), int(node)) >= 0
    return trace


def check_bellman_ford_trace(g: NavGraph, s: int, t: int, w) -> navmesh.SearchTrace | None:
    """A Bellman-Ford trace against scipy and navmesh.bellman_ford; None when both find a negative cycle."""
    try:
        tree = navmesh.bellman_ford(g, s, weights=w)
    except NegativeCycleError as error:
        with pytest.raises(NegativeCycleError) as info:
            navmesh.search_trace(g, s, t, algorithm="bellman_ford", weights=w)
        assert info.value.cycle == error.cycle and str(info.value) == str(error)
        return None
    trace = navmesh.search_trace(g, s, t, algorithm="bellman_ford", weights=w)
    values = np.asarray(w, dtype=float)
    best: dict[tuple[int, int], float] = {}
    for u, v, c in zip(g.arc_sources.tolist(), g.indices.tolist(), values.tolist()):
        best[u, v] = min(best.get((u, v), np.inf), c)
    rows, cols = zip(*best) if best else ((), ())
    matrix = scipy.sparse.csr_array((list(best.values()), (rows, cols)), shape=(g.n_nodes,) * 2)
    dist = csgraph.bellman_ford(matrix, indices=s)
    assert trace.expanded[0] == s and trace.opened_step[0] == -1 and trace.opened_parent[0] == -1
    assert trace.opened.tolist() == trace.expanded.tolist()
    assert trace.opened_step.tolist() == [-1, *range(1, len(trace.expanded))]
    assert set(trace.expanded.tolist()) == set(np.flatnonzero(np.isfinite(dist)).tolist())
    if np.isfinite(dist[t]):
        assert not trace.path.partial
        assert trace.path.cost == tree.cost[t] and trace.path.cost == pytest.approx(dist[t], abs=1e-9)
        assert trace.path.nodes.tolist() == tree.path_to(t).nodes.tolist()
    else:
        assert trace.path.partial and np.isfinite(trace.path.cost)
    # replaying the lowerings in order (each by the first arc that lowers) rebuilds the final tree
    cost, parent = np.full(g.n_nodes, np.inf), np.full(g.n_nodes, -1)
    cost[s] = 0.0
    for v, u in zip(trace.expanded[1:].tolist(), trace.opened_parent[1:].tolist()):
        arcs = np.arange(g.indptr[u], g.indptr[u + 1])
        better = [cost[u] + values[e] for e in arcs if g.indices[e] == v and cost[u] + values[e] < cost[v]]
        assert better  # a real lowering along an arc u -> v (the first such arc in CSR order)
        cost[v], parent[v] = better[0], u
    assert cost.tolist() == tree.cost.tolist() and parent.tolist() == tree.parent.tolist()
    return trace


def test_dfs_trace_steps_deep_first_and_skips_closed_arcs():
    g = ladder()
    w = g.lengths.copy()
    w[g.arc(0, 5)] = w[g.arc(5, 0)] = np.inf
    trace = check_dfs_trace(g, 0, 5, w)
    # by hand: the rung 0-5 is closed, so DFS runs along the top row and back along the bottom
    assert trace.expanded.tolist() == [0, 1, 2, 3, 4, 9, 8, 7, 6, 5]
    assert trace.path.nodes.tolist() == trace.expanded.tolist() and trace.path.cost == 90.0
    # node 4 opens 9 (its only unreached neighbour): the frontier is one node deep here
    assert trace.opened.tolist()[:3] == [0, 1, 2] and 5 not in trace.opened[:9].tolist()
    check_dfs_trace(g, 0, 5, g.lengths)  # open rung: 0 -> 1 first anyway (CSR order), then the long way
    assert navmesh.search_trace(g, 3, 3, algorithm="dfs").expanded.tolist() == [3]


def test_dfs_trace_reopens_a_node_from_the_node_it_is_stepped_onto_from():
    # 0 opens 1 and 2; DFS goes 0 -> 1 -> 2, so 2 is opened again from 1 and reached from 1
    g = NavGraph.from_edges([[0, 0], [1, 0], [0, 1], [5, 5]], [(0, 1), (0, 2), (1, 2), (2, 3)])
    trace = check_dfs_trace(g, 0, 3, None)
    assert trace.expanded.tolist() == [0, 1, 2, 3]
    pairs = list(zip(trace.opened.tolist(), trace.opened_parent.tolist(), trace.opened_step.tolist()))
    assert pairs == [(0, -1, -1), (1, 0, 0), (2, 0, 0), (2, 1, 1), (3, 2, 2)]
    assert trace.path.nodes.tolist() == [0, 1, 2, 3]


def test_dfs_trace_unreachable_goal_and_budget_give_partial_paths():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0], [9, 0]], [(0, 1), (1, 2)])
    trace = check_dfs_trace(g, 0, 3, None)
    assert trace.path.partial and trace.path.nodes.tolist() == [0, 1, 2] and trace.path.cost == 2.0
    short = navmesh.search_trace(g, 0, 2, algorithm="dfs", max_expansions=2)
    assert short.expanded.tolist() == [0, 1] and short.path.partial and short.path.nodes.tolist() == [0, 1]
    closed = navmesh.search_trace(g, 0, 2, algorithm="dfs", weights=[np.inf] * g.n_edges)
    assert closed.expanded.tolist() == [0] and closed.opened.tolist() == [0] and closed.path.partial


def test_dfs_trace_prices_parallel_arcs_like_dfs():
    g = NavGraph([[0, 0], [3, 4]], [0, 3, 3], [1, 1, 1])
    trace = check_dfs_trace(g, 0, 1, [np.inf, 9.0, 2.0])
    assert trace.path.cost == 2.0 and trace.opened.tolist() == [0, 1, 1]


def test_bellman_ford_trace_lists_every_lowering_pass_by_pass():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0], [3, 0]], [(0, 1), (1, 2), (2, 1), (2, 3)], directed=True)
    trace = check_bellman_ford_trace(g, 0, 3, [1.0, 4.0, -1.0, -2.0])
    # pass 1 scans nodes 0..3 in order: 1 (from 0), 2 (from 1), 3 (from 2); pass 2 lowers nothing
    assert trace.expanded.tolist() == [0, 1, 2, 3] and trace.opened_parent.tolist() == [-1, 0, 1, 2]
    assert trace.path.nodes.tolist() == [0, 1, 2, 3] and trace.path.cost == 3.0
    # arcs listed backwards along a chain: each pass lowers one more node
    chain = NavGraph.from_edges([[i, 0] for i in range(4)], [(2, 3), (1, 2), (0, 1)], directed=True)
    trace = check_bellman_ford_trace(chain, 0, 3, [-1.0, -1.0, -1.0])
    assert trace.expanded.tolist() == [0, 1, 2, 3] and trace.path.cost == -3.0
    # a node lowered twice: 2 first from 0 (cost 1), then from 1 (cost 4 - 5 = -1)
    tri = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (0, 2), (1, 2)], directed=True)
    trace = check_bellman_ford_trace(tri, 0, 2, [4.0, 1.0, -5.0])
    assert trace.expanded.tolist() == [0, 1, 2, 2] and trace.path.nodes.tolist() == [0, 1, 2]


def test_bellman_ford_trace_raises_negative_cycles_like_bellman_ford():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0], [3, 0]], [(0, 1), (1, 2), (2, 1), (2, 3)], directed=True)
    assert check_bellman_ford_trace(g, 0, 3, [1.0, 1.0, -3.0, 0.0]) is None
    # a negative cycle out of reach does not matter; an unreachable goal gives a partial path
    trace = check_bellman_ford_trace(g, 2, 0, [1.0, 1.0, 1.0, 0.0])
    assert trace.path.partial
    with pytest.raises(InvalidOptionError, match="max_expansions"):
        navmesh.search_trace(g, 0, 3, algorithm="bellman_ford", max_expansions=5)
    with pytest.raises(InvalidCostError):
        navmesh.search_trace(g, 0, 3, algorithm="dfs", weights=[1.0, -1.0, 1.0, 1.0])


@st.composite
def small_graphs(draw, *, negative: bool):
    n = draw(st.integers(1, 12))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    pts = np.array(draw(st.lists(st.integers(-20, 20), min_size=2 * n, max_size=2 * n)), float).reshape(n, 2)
    g = NavGraph.from_edges(pts, np.array(pairs, dtype=np.int64).reshape(-1, 2), directed=negative or draw(st.booleans()))
    low = -4 if negative else 0
    raw = draw(st.lists(st.one_of(st.integers(low, 9), st.just(None)), min_size=g.n_edges, max_size=g.n_edges))
    w = np.array([np.inf if x is None else x for x in raw], dtype=float)
    if negative:
        w[~np.isfinite(w)] = 9.0
    return g, w, draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))


@settings(max_examples=80, deadline=None)
@given(small_graphs(negative=False))
def test_dfs_trace_matches_scipy_and_dfs_on_random_graphs(case):
    g, w, s, t = case
    check_dfs_trace(g, s, t, w)


@settings(max_examples=80, deadline=None)
@given(small_graphs(negative=True))
def test_bellman_ford_trace_matches_scipy_and_bellman_ford_on_random_graphs(case):
    g, w, s, t = case
    check_bellman_ford_trace(g, s, t, w)
