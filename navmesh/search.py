"""Public graph searches: validate once, call a numba kernel, wrap the result.

Every search takes a :class:`~navmesh.graph.NavGraph` and node ids, and optionally ``weights``
(an :class:`~navmesh.graph.EdgeWeights` from ``graph.weights(values)``, a plain array of one cost
per arc, or None for the arc lengths). Pass an ``EdgeWeights`` when you search many times with the
same costs: a plain array is validated on every call.

Unreachable goals raise :class:`~navmesh.errors.NoPathError` unless ``allow_partial=True``, which
returns a partial :class:`~navmesh.path.Path` to the expanded node nearest the goal (straight-line
distance). A spent ``max_expansions`` budget raises :class:`~navmesh.errors.SearchBudgetError`
unless ``allow_partial=True``. Nothing returns None.
"""

from __future__ import annotations

import math
from typing import Callable, NoReturn

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._kernels import graph as K
from navmesh._checks import (
    MAX_COST,
    as_float_array,
    check_flag,
    check_node,
    check_nodes,
    check_nonneg_float,
    check_option,
    check_positive_int,
    check_points,
    is_real,
)
from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    NegativeCycleError,
    NoPathError,
    SearchBudgetError,
)
from navmesh.errors import describe as _short
from navmesh.graph import HEURISTICS, EdgeWeights, Heuristic, NavGraph
from navmesh.path import Path, RouteTable, ShortestPathTree, path_from_parents

__all__ = [
    "astar",
    "astar_multi",
    "dijkstra",
    "dijkstra_tree",
    "bfs",
    "bfs_tree",
    "dfs",
    "bellman_ford",
    "all_pairs",
    "ALL_PAIRS_MAX_BYTES",
]

WeightsLike = "EdgeWeights | ArrayLike | None"
ALL_PAIRS_MAX_BYTES = 256 * 1024 * 1024
_NO_LOG = np.empty(0, np.int32)
ZERO1 = np.zeros(1)
ZERO1.flags.writeable = False


def frozen(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """A read-only view: the kernels get one array type for costs (numba compiles a kernel once
    more for each read-only/writeable mix of its arguments)."""
    view = values.view()
    view.flags.writeable = False
    return view



#: Largest ``heuristic_weight``: far beyond it weighted A* is already greedy best-first search, and
#: the weighted estimates must stay far from float64 overflow.
MAX_HEURISTIC_WEIGHT = 1e6


def expansion_budget(max_expansions: int | None) -> int:
    return check_positive_int("max_expansions", max_expansions) or 0


def check_heuristic(heuristic: str, heuristic_weight: float) -> float:
    """Check ``heuristic`` and return ``heuristic_weight`` as a float in [1, MAX_HEURISTIC_WEIGHT]."""
    check_option("heuristic", heuristic, HEURISTICS)
    try:
        hw = float(heuristic_weight) if is_real(heuristic_weight) else math.nan
    except OverflowError:
        hw = math.inf
    if not 1.0 <= hw <= MAX_HEURISTIC_WEIGHT:
        raise InvalidOptionError(
            f"heuristic_weight={_short(heuristic_weight)} is not valid; expected a number from 1 to "
            f"{MAX_HEURISTIC_WEIGHT:g} (1 keeps A* optimal)"
        )
    return hw


def finish_search(
    graph: NavGraph,
    status: int,
    end: int,
    end_cost: float,
    parent: NDArray[np.int32],
    cost_of: NDArray[np.float64],
    expansions: int,
    allow_partial: bool,
    expanded: NDArray[np.integer] | NDArray[np.bool_],
    goal_point: NDArray[np.float64],
    describe: Callable[[], str],
) -> Path:
    """Turn kernel output into a Path, a partial Path or the right error.

    ``end_cost`` is the cost of the found path; ``cost_of`` gives the cost of partial paths;
    ``expanded`` (node ids or a mask) lists the nodes a partial path may end at; ``describe``
    builds the "search from X to Y" text only when an error needs it.
    """
    if status == K.FOUND:
        return path_from_parents(parent, end, graph.points, end_cost, expansions=expansions)
    nodes = np.flatnonzero(expanded) if expanded.dtype == np.bool_ else np.asarray(expanded)
    if check_flag("allow_partial", allow_partial) and len(nodes):
        nearest = nearest_node(graph, nodes, goal_point)
        return path_from_parents(parent, nearest, graph.points, cost_of[nearest], expansions=expansions, partial=True)
    _raise_no_path(status, expansions, describe)


def nearest_node(graph: NavGraph, nodes: NDArray[np.integer], point: NDArray[np.float64]) -> int:
    """The node of ``nodes`` (not empty) nearest ``point`` in straight-line distance."""
    return int(nodes[np.argmin(((graph.points[nodes] - point) ** 2).sum(axis=1))])


def _raise_no_path(status: int, expansions: int, describe: Callable[[], str]) -> NoReturn:
    """Raise SearchBudgetError or NoPathError for a search that found no path."""
    if status == K.BUDGET:
        raise SearchBudgetError(
            f"{describe()} spent its budget of {expansions} expansions; "
            "raise max_expansions or pass allow_partial=True"
        )
    raise NoPathError(f"{describe()}: the goal is unreachable")


_NO_LOG = np.empty(0, np.int32)  # best_first's search log, not kept


def _best_first_path(
    graph: NavGraph,
    starts: NDArray[np.int32],
    start_costs: NDArray[np.float64],
    goals: NDArray[np.int32],
    goal_costs: NDArray[np.float64],
    goal_point: NDArray[np.float64],
    weights: EdgeWeights | ArrayLike | None,
    heuristic: str,
    heuristic_weight: float,
    max_expansions: int | None,
    allow_partial: bool,
) -> Path:
    """Shared body of astar, astar_multi and dijkstra, after their own argument checks."""
    hw = check_heuristic(heuristic, heuristic_weight)
    budget = expansion_budget(max_expansions)
    w = graph.resolve_weights(weights)
    allow_partial = check_flag("allow_partial", allow_partial)
    g, parent, _, closed, end, total, status, expansions, _, _ = K.best_first(
        graph.indptr, graph.indices, w.values, graph.points,
        starts, frozen(start_costs), goals, frozen(goal_costs), frozen(goal_point),
        HEURISTICS.index(heuristic), hw * w.heuristic_scale(heuristic),
        np.inf, budget, False, _NO_LOG, _NO_LOG, _NO_LOG, _NO_LOG,
    )
    if status == K.FOUND:
        return path_from_parents(parent, end, graph.points, total, expansions=expansions)
    if allow_partial and closed.any():
        # the expanded node nearest the goal point (the first of equals), as far as the search got
        expanded = np.flatnonzero(closed)
        d = graph.points[expanded] - goal_point
        nearest = int(expanded[np.argmin(np.sqrt((d * d).sum(axis=1)))])
        return path_from_parents(parent, nearest, graph.points, g[nearest], expansions=expansions, partial=True)
    what = "dijkstra" if heuristic == "zero" else "astar"
    _raise_no_path(status, expansions, lambda: f"{what} from node(s) {starts.tolist()} to node(s) {goals.tolist()}")


def astar(
    graph: NavGraph,
    start: int,
    goal: int,
    *,
    weights: EdgeWeights | ArrayLike | None = None,
    heuristic: Heuristic = "euclidean",
    heuristic_weight: float = 1.0,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Cheapest path from ``start`` to ``goal`` by A*.

    Parameters
    ----------
    graph : NavGraph
    start, goal : int
        Node ids.
    weights : EdgeWeights or float array of shape (m,), optional
        Cost per arc (>= 0, ``inf`` closes an arc). Default: the arc lengths.
    heuristic : {"euclidean", "manhattan", "octile", "chebyshev", "zero"}
        Distance estimate to the goal. It is scaled by ``weights.heuristic_scale(heuristic)``, the
        smallest cost/metric ratio over all arcs, so it never overestimates: the result is optimal
        for every heuristic and every weights array (cheap roads included).
    heuristic_weight : float
        Factor >= 1 on the heuristic (weighted A*). Above 1 the search expands fewer nodes but the
        path may cost up to that factor times the optimum: it is no longer guaranteed optimal.
    max_expansions : int, optional
        Budget of node expansions (>= 1).
    allow_partial : bool
        Return a partial path instead of raising when the goal is unreachable or the budget runs out.

    Returns
    -------
    Path

    Raises
    ------
    NodeNotFoundError, InvalidCostError, InvalidOptionError, NoPathError, SearchBudgetError

    Examples
    --------
    >>> from navmesh import NavGraph, astar
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [1, 1], [0, 1]], [(0, 1), (1, 2), (2, 3), (3, 0)])
    >>> p = astar(g, 0, 2)
    >>> p.cost, len(p.nodes)
    (2.0, 3)
    """
    s = check_node("start", start, graph.n_nodes)
    t = check_node("goal", goal, graph.n_nodes)
    return _best_first_path(
        graph, np.array([s], np.int32), ZERO1, np.array([t], np.int32), ZERO1, graph.points[t],
        weights, heuristic, heuristic_weight, max_expansions, allow_partial,
    )


def astar_multi(
    graph: NavGraph,
    starts: ArrayLike,
    goals: ArrayLike,
    *,
    start_costs: ArrayLike | None = None,
    goal_costs: ArrayLike | None = None,
    goal_point: ArrayLike | None = None,
    weights: EdgeWeights | ArrayLike | None = None,
    heuristic: Heuristic = "euclidean",
    heuristic_weight: float = 1.0,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Cheapest path from any of several start nodes to any of several goal nodes.

    This is the primitive behind point-to-point queries: a position joins the graph through several
    visible nodes, each with its own entry (or exit) cost.

    Parameters
    ----------
    starts : int or int array of shape (s,)
        Start nodes.
    goals : int or int array of shape (t,)
        Goal nodes.
    start_costs : float array of shape (s,), optional
        Cost already paid on reaching each start node (>= 0, finite). Default 0.
    goal_costs : float array of shape (t,), optional
        Cost still to pay after each goal node (>= 0, finite). Default 0.
    goal_point : array of shape (d,), optional
        Where the heuristic aims. Default: the first goal node's position. For an optimal result
        every ``goal_costs[j]`` must be at least ``scale * metric(goals[j], goal_point)``.
    weights, heuristic, heuristic_weight, max_expansions, allow_partial
        As in :func:`astar`.

    Returns
    -------
    Path
        From the chosen start node to the chosen goal node; ``cost`` includes the entry and exit
        cost. A partial path ends at the expanded node nearest ``goal_point``.
    """
    src = check_nodes("starts", starts, graph.n_nodes)
    dst = check_nodes("goals", goals, graph.n_nodes)
    src_cost = _entry_costs("start_costs", start_costs, len(src))
    dst_cost = _entry_costs("goal_costs", goal_costs, len(dst))
    if goal_point is None:
        target = graph.points[dst[0]]
    else:
        target = as_float_array("goal_point", goal_point, InvalidGeometryError).reshape(1, -1)
        target = check_points("goal_point", target, dims=(graph.dim,))[0]
    return _best_first_path(
        graph, src, src_cost, dst, dst_cost, target,
        weights, heuristic, heuristic_weight, max_expansions, allow_partial,
    )


def _entry_costs(name: str, values: ArrayLike | None, size: int) -> NDArray[np.float64]:
    if values is None:
        return np.zeros(size)
    arr = np.atleast_1d(as_float_array(name, values, InvalidCostError))
    if arr.shape != (size,) or not ((arr >= 0) & (arr <= MAX_COST)).all():
        raise InvalidCostError(
            f"{name}={_short(values)} is not valid; expected {size} numbers from 0 to {MAX_COST:g}"
        )
    return arr


def dijkstra(
    graph: NavGraph,
    start: int,
    goal: int,
    *,
    weights: EdgeWeights | ArrayLike | None = None,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Cheapest path from ``start`` to ``goal`` by Dijkstra's algorithm, stopping at the goal.

    Same parameters and results as :func:`astar` with ``heuristic="zero"``.

    Examples
    --------
    >>> from navmesh import NavGraph, dijkstra
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)])
    >>> dijkstra(g, 0, 2).nodes.tolist()
    [0, 1, 2]
    """
    return astar(
        graph, start, goal, weights=weights, heuristic="zero",
        max_expansions=max_expansions, allow_partial=allow_partial,
    )


def dijkstra_tree(
    graph: NavGraph,
    starts: int | ArrayLike,
    *,
    weights: EdgeWeights | ArrayLike | None = None,
    limit: float | None = None,
) -> ShortestPathTree:
    """Costs from the nearest of ``starts`` to every node (Dijkstra).

    With one start this is one-start-to-all; with several, every node learns its nearest
    start (``origin``): the primitive behind flow fields and "nearest exit" queries.

    Parameters
    ----------
    starts : int or int array of shape (s,)
    weights : as in :func:`astar`
    limit : float, optional
        Stop once costs exceed this (>= 0); farther nodes stay unreached (``inf``).

    Examples
    --------
    >>> from navmesh import NavGraph
    >>> from navmesh.search import dijkstra_tree
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [3, 0]], [(0, 1), (1, 2)])
    >>> dijkstra_tree(g, [0, 2]).origin.tolist()
    [0, 0, 2]
    """
    src = check_nodes("starts", starts, graph.n_nodes)
    lim = check_nonneg_float("limit", limit)
    w = graph.resolve_weights(weights)
    g, parent, origin, _, _, _, _, expansions, _, _ = K.best_first(
        graph.indptr, graph.indices, w.values, graph.points,
        src, frozen(np.zeros(len(src))), _NO_LOG, frozen(np.empty(0)), frozen(np.zeros(graph.dim)),
        K.H_ZERO, 0.0, np.inf if lim is None else lim, 0,
        False, _NO_LOG, _NO_LOG, _NO_LOG, _NO_LOG,
    )
    if lim is not None:
        # Nodes opened past the limit hold tentative costs: report them unreached, as scipy does.
        beyond = g > lim
        g[beyond] = np.inf
        parent[beyond] = -1
        origin[beyond] = -1
    return ShortestPathTree(graph, g, parent, origin, expansions)


def bfs(
    graph: NavGraph,
    start: int,
    goal: int,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
) -> Path:
    """Path with the fewest arcs (breadth-first search, the Lee algorithm); ``cost`` is the arc count.

    Examples
    --------
    >>> from navmesh import NavGraph, bfs
    >>> g = NavGraph.from_edges([[0, 0], [5, 0], [9, 0], [1, 1]], [(0, 1), (1, 2), (0, 3), (3, 2)])
    >>> bfs(g, 0, 2).cost
    2.0
    """
    s = check_node("start", start, graph.n_nodes)
    t = check_node("goal", goal, graph.n_nodes)
    hops, parent, queue, n_done, status, expansions, _, _ = K.hop_search(
        graph.indptr, graph.indices, s, t, expansion_budget(max_expansions), False,
        False, _NO_LOG, _NO_LOG, _NO_LOG, _NO_LOG,
    )
    return finish_search(graph, status, t, float(hops[t]), parent, hops.astype(np.float64), expansions, allow_partial,
                   queue[:n_done], graph.points[t], lambda: f"bfs from node {s} to node {t}")


def bfs_tree(graph: NavGraph, start: int) -> ShortestPathTree:
    """Number of arcs from ``start`` to every node (``inf`` when unreachable), with BFS parents."""
    s = check_node("start", start, graph.n_nodes)
    hops, parent, _, _, _, expansions, _, _ = K.hop_search(
        graph.indptr, graph.indices, s, -1, 0, False,
        False, _NO_LOG, _NO_LOG, _NO_LOG, _NO_LOG,
    )
    cost = np.where(hops >= 0, hops, np.inf).astype(np.float64)
    origin = np.where(hops >= 0, s, -1)
    return ShortestPathTree(graph, cost, parent, origin, expansions)


def dfs(
    graph: NavGraph,
    start: int,
    goal: int,
    *,
    weights: EdgeWeights | ArrayLike | None = None,
) -> Path:
    """Any path from ``start`` to ``goal`` (depth-first search): cheap to find, not short.

    Closed arcs (weight ``inf``) are never walked. ``cost`` is the sum, over each pair of
    consecutive nodes of the path found, of the cheapest open arc between them: where parallel
    arcs join two nodes, a unit stepping from one to the other takes the cheapest.

    Examples
    --------
    >>> from navmesh import NavGraph, dfs
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2), (0, 2)], directed=True)
    >>> dfs(g, 0, 2, weights=[1.0, float("inf"), 1.0]).nodes.tolist()   # arcs 0->1, 0->2, 1->2
    [0, 1, 2]
    """
    s = check_node("start", start, graph.n_nodes)
    t = check_node("goal", goal, graph.n_nodes)
    w = graph.resolve_weights(weights)
    _, parent, _, _, status, expansions, _, _ = K.hop_search(
        *open_arcs(graph, w), s, t, 0, True, False, _NO_LOG, _NO_LOG, _NO_LOG, _NO_LOG
    )
    if status != K.FOUND:
        raise NoPathError(f"dfs: no path from node {s} to node {t} along open arcs")
    return priced_path(graph, w, parent, t, expansions)


def open_arcs(graph: NavGraph, w: EdgeWeights) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """CSR ``indptr, indices`` of the arcs with a finite weight, in the graph's arc order."""
    is_open = np.isfinite(w.values)
    if is_open.all():
        return graph.indptr, graph.indices
    indptr = np.zeros(graph.n_nodes + 1, np.int32)
    np.cumsum(np.bincount(graph.arc_sources[is_open], minlength=graph.n_nodes), out=indptr[1:])
    return indptr, graph.indices[is_open]


def priced_path(
    graph: NavGraph, w: EdgeWeights, parent: NDArray[np.int32], end: int, expansions: int, partial: bool = False
) -> Path:
    """The parent chain to ``end``, each step priced by the cheapest open arc joining its two nodes."""
    path = path_from_parents(parent, end, graph.points, 0.0, expansions=expansions, partial=partial)
    cost = 0.0
    for a, b in zip(path.nodes[:-1].tolist(), path.nodes[1:].tolist()):
        lo, hi = graph.indptr[a], graph.indptr[a + 1]
        cost += float(w.values[lo:hi][graph.indices[lo:hi] == b].min())
    return Path(path.nodes, path.points, cost, expansions, partial)


def bellman_ford(
    graph: NavGraph,
    start: int,
    *,
    weights: EdgeWeights | ArrayLike | None = None,
) -> ShortestPathTree:
    """Costs from ``start`` to every node when some weights are negative (Bellman-Ford, O(n m)).

    Raises
    ------
    NegativeCycleError
        When a cycle of negative total weight is reachable from ``start``; ``error.cycle`` lists it.

    Examples
    --------
    >>> from navmesh import NavGraph, bellman_ford
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2), (0, 2)], directed=True)
    >>> [(int(u), int(v)) for u, v in zip(g.arc_sources, g.indices)]   # arcs in CSR order
    [(0, 1), (0, 2), (1, 2)]
    >>> bellman_ford(g, 0, weights=[4.0, -2.0, 5.0]).cost.tolist()
    [0.0, 4.0, -2.0]
    """
    s = check_node("start", start, graph.n_nodes)
    w = graph.resolve_weights(weights, allow_negative=True)
    dist, parent, _, _ = bellman_ford_run(graph, s, w, record=False)
    origin = np.where(np.isfinite(dist), s, -1)
    return ShortestPathTree(graph, dist, parent, origin)


def bellman_ford_run(
    graph: NavGraph, s: int, w: EdgeWeights, *, record: bool
) -> tuple[NDArray[np.float64], NDArray[np.int32], NDArray[np.int32], NDArray[np.int32]]:
    """Run the Bellman-Ford kernel; returns (dist, parent, lowered, lowered_from) or raises
    NegativeCycleError. ``lowered`` lists every distance lowering in order (empty without ``record``)."""
    dist, parent, cycle, log, n_log = K.bellman_ford_kernel(
        graph.indptr, graph.indices, w.values, s, record
    )
    if len(cycle):
        cyc = [int(c) for c in cycle] + [int(cycle[0])]
        raise NegativeCycleError(f"bellman_ford: negative cycle reachable from node {s}: {cyc}", cyc)
    return dist, parent, log[0 : 2 * n_log : 2], log[1 : 2 * n_log : 2]


def all_pairs(
    graph: NavGraph,
    *,
    weights: EdgeWeights | ArrayLike | None = None,
    max_bytes: int = ALL_PAIRS_MAX_BYTES,
) -> RouteTable:
    """Precompute costs and next hops between every pair of nodes (a route matrix).

    Memory is ``12 * n**2`` bytes (float64 cost + int32 hop per pair): about 120 MB at n = 3,000.
    Time is n Dijkstra runs. Meant for small graphs (a few thousand nodes) queried very often.

    Raises
    ------
    InvalidOptionError
        When ``12 * n**2`` exceeds ``max_bytes`` (default 256 MiB, about 4,700 nodes).

    Examples
    --------
    >>> from navmesh import NavGraph, all_pairs
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)])
    >>> table = all_pairs(g)
    >>> table.next_hop(0, 2), table.cost(0, 2)
    (1, 2.0)
    """
    max_bytes = check_positive_int("max_bytes", max_bytes, allow_none=False)
    need = 12 * graph.n_nodes**2
    if need > max_bytes:
        raise InvalidOptionError(
            f"all_pairs on {graph.n_nodes} nodes needs {need / 2**20:.0f} MiB, over max_bytes="
            f"{max_bytes / 2**20:.0f} MiB; use astar per query or raise max_bytes"
        )
    w = graph.resolve_weights(weights)
    costs, hops = K.all_pairs_kernel(graph.indptr, graph.indices, w.values, graph.points)
    return RouteTable(graph, costs, hops)
