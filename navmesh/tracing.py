"""Searches that record every step, for drawing them: :func:`search_trace`.

The searches of :mod:`navmesh.search` record nothing and pay nothing for this; this module runs the
same kernels with their logs switched on and returns a :class:`~navmesh.path.SearchTrace`.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from navmesh._kernels import graph as K
from navmesh._checks import check_node, check_option
from navmesh.errors import InvalidOptionError
from navmesh.graph import HEURISTICS, EdgeWeights, Heuristic, NavGraph
from navmesh.path import SearchTrace
from navmesh.search import (
    ZERO1,
    bellman_ford_run,
    check_heuristic,
    expansion_budget,
    finish_search,
    frozen,
    nearest_node,
    open_arcs,
    priced_path,
)

__all__ = ["search_trace"]

_TRACE_ALGORITHMS = ("astar", "dijkstra", "bfs", "dfs", "bellman_ford")


def search_trace(
    graph: NavGraph,
    start: int,
    goal: int,
    *,
    algorithm: Literal["astar", "dijkstra", "bfs", "dfs", "bellman_ford"] = "astar",
    weights: EdgeWeights | ArrayLike | None = None,
    heuristic: Heuristic = "euclidean",
    heuristic_weight: float = 1.0,
    max_expansions: int | None = None,
) -> SearchTrace:
    """Run a search while recording every expansion and every opened node, for visualisation.

    The normal searches record nothing and pay nothing for this. The trace's path is the one the
    matching search returns (same nodes, same cost); it is partial when the goal was not reached.

    What a step is, per ``algorithm``:

    - ``"astar"``, ``"dijkstra"``: a node taken off the open list; each expansion opens (or
      improves) its neighbours. ``heuristic`` and ``heuristic_weight`` apply to ``"astar"`` only.
    - ``"bfs"``: a node taken off the queue (``weights`` are not used: cost counts arcs).
    - ``"dfs"``: a node :func:`dfs` steps onto, in its order (closed ``inf`` arcs never walked);
      each expansion opens the neighbours not reached yet, and a node's latest opening is the one
      the search steps from. The path is :func:`dfs`'s, priced the same way.
    - ``"bellman_ford"``: the start, then every lowering of a node's distance, pass after pass, in
      order; each lowering is both an expansion and an opening from the node it was lowered from,
      so a node may appear several times. Weights may be negative; the path is the
      :func:`bellman_ford` tree's path to ``goal``. ``max_expansions`` is not supported (the
      passes cannot stop early).

    Parameters
    ----------
    graph : NavGraph
    start, goal : int
        Node ids.
    algorithm : {"astar", "dijkstra", "bfs", "dfs", "bellman_ford"}
    weights, heuristic, heuristic_weight
        As in :func:`astar` (negative weights only with ``"bellman_ford"``).
    max_expansions : int, optional
        Budget of expansions (>= 1); a spent budget gives a partial path.

    Returns
    -------
    SearchTrace

    Raises
    ------
    NodeNotFoundError, InvalidCostError, InvalidOptionError
    NegativeCycleError
        ``"bellman_ford"`` only, exactly as :func:`bellman_ford` raises it.

    Examples
    --------
    >>> from navmesh import NavGraph, search_trace
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)])
    >>> search_trace(g, 0, 2, algorithm="bfs").expanded.tolist()
    [0, 1, 2]

    DFS steps deep first: from 0 it goes 0 -> 1 -> 3 before it tries 2 (arcs in CSR order).

    >>> g = NavGraph.from_edges([[0, 0], [1, 1], [1, -1], [2, 1]], [(0, 1), (0, 2), (1, 3), (3, 2)])
    >>> t = search_trace(g, 0, 2, algorithm="dfs")
    >>> t.expanded.tolist(), t.path.nodes.tolist()
    ([0, 1, 3, 2], [0, 1, 3, 2])

    Bellman-Ford with a negative arc: node 2 is lowered twice (first from 0, then from 1).

    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (0, 2), (1, 2)], directed=True)
    >>> t = search_trace(g, 0, 2, algorithm="bellman_ford", weights=[4.0, 1.0, -5.0])
    >>> t.expanded.tolist(), t.opened_parent.tolist(), t.path.cost
    ([0, 1, 2, 2], [-1, 0, 0, 1], -1.0)
    """
    check_option("algorithm", algorithm, _TRACE_ALGORITHMS)
    s = check_node("start", start, graph.n_nodes)
    t = check_node("goal", goal, graph.n_nodes)
    budget = expansion_budget(max_expansions)
    if algorithm == "bellman_ford":
        return _bellman_ford_trace(graph, s, t, weights, budget)
    n, m = graph.n_nodes, graph.n_edges
    log_expanded = np.empty(n, np.int32)
    log_opened, log_parent, log_step = (np.empty(m + 2, np.int32) for _ in range(3))
    logs = (log_expanded, log_opened, log_parent, log_step)
    if algorithm == "dfs":
        w = graph.resolve_weights(weights)
        _, parent, _, _, status, expansions, n_exp, n_open = K.hop_search(*open_arcs(graph, w), s, t, budget, True, True,
                                                                         *logs)
        end = t if status == K.FOUND else nearest_node(graph, log_expanded[:n_exp], graph.points[t])
        path = priced_path(graph, w, parent, end, expansions, partial=status != K.FOUND)
        return SearchTrace(log_expanded[:n_exp], log_opened[:n_open], log_parent[:n_open], log_step[:n_open], path)
    if algorithm == "bfs":
        hops, parent, _, _, status, expansions, n_exp, n_open = K.hop_search(
            graph.indptr, graph.indices, s, t, budget, False, True, *logs
        )
        cost = hops.astype(np.float64)
        end, total = t, float(hops[t])
    else:
        h = heuristic if algorithm == "astar" else "zero"
        hw = check_heuristic(h, heuristic_weight)
        w = graph.resolve_weights(weights)
        cost, parent, _, _, end, total, status, expansions, n_exp, n_open = K.best_first(
            graph.indptr, graph.indices, w.values, graph.points,
            np.array([s], np.int32), ZERO1, np.array([t], np.int32), ZERO1, frozen(graph.points[t]),
            HEURISTICS.index(h), hw * w.heuristic_scale(h), np.inf, budget, True, *logs,
        )
    path = finish_search(graph, status, end, total, parent, cost, expansions, True, log_expanded[:n_exp],
                   graph.points[t], lambda: f"{algorithm} from node {s} to node {t}")
    return SearchTrace(log_expanded[:n_exp], log_opened[:n_open], log_parent[:n_open], log_step[:n_open], path)


def _bellman_ford_trace(
    graph: NavGraph, s: int, t: int, weights: EdgeWeights | ArrayLike | None, budget: int
) -> SearchTrace:
    """The ``"bellman_ford"`` branch of :func:`search_trace`: the start, then every lowering."""
    if budget:
        raise InvalidOptionError(
            f"max_expansions={budget} is not supported with algorithm='bellman_ford' (its passes cannot stop early)"
        )
    w = graph.resolve_weights(weights, allow_negative=True)
    dist, parent, lowered, lowered_from = bellman_ford_run(graph, s, w, record=True)
    nodes = np.concatenate([np.array([s], np.int32), lowered])
    steps = np.arange(len(nodes), dtype=np.int32)  # each lowering opens its node in its own step
    steps[0] = -1
    status = K.FOUND if np.isfinite(dist[t]) else K.EXHAUSTED
    path = finish_search(graph, status, t, float(dist[t]), parent, dist, len(nodes), True, nodes,
                   graph.points[t], lambda: f"bellman_ford from node {s} to node {t}")
    return SearchTrace(nodes, nodes, np.concatenate([np.array([-1], np.int32), lowered_from]), steps, path)
