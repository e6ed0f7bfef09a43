"""Connectivity of a NavGraph: components, strongly connected components, and a report of the
places a unit can get stuck in (sinks), never get to (sources), or not reach at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csgraph

from navmesh._checks import check_node
from navmesh.graph import NavGraph
from navmesh.search import bfs_tree

__all__ = ["connected_components", "strongly_connected_components", "ConnectivityReport", "connectivity_report"]


def _labels(graph: NavGraph, connection: str) -> NDArray[np.int32]:
    # Topology only: a closed or zero weight must not hide an arc here.
    adjacency = graph.to_scipy(np.ones(graph.n_edges))
    _, labels = csgraph.connected_components(adjacency, directed=True, connection=connection)
    return labels.astype(np.int32)


def connected_components(graph: NavGraph) -> NDArray[np.int32]:
    """Component label per node, ignoring arc direction (weakly connected components).

    Examples
    --------
    >>> from navmesh import NavGraph
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [5, 5]], [(0, 1)])
    >>> connected_components(g).tolist()
    [0, 0, 1]
    """
    return _labels(graph, "weak")


def strongly_connected_components(graph: NavGraph) -> NDArray[np.int32]:
    """Label per node; two nodes share a label when each can reach the other along the arcs."""
    return _labels(graph, "strong")


@dataclass(frozen=True, eq=False)
class ConnectivityReport:
    """What can go wrong when units move on a directed graph.

    Attributes
    ----------
    components : int32 array (n,)
        Weakly connected component label per node ("islands").
    strong_components : int32 array (n,)
        Strongly connected component label per node.
    n_islands : int
        Number of weakly connected components.
    isolated : int32 array
        Nodes with no arcs at all.
    sinks : int32 array
        Nodes with arcs in but none out: a unit that arrives cannot leave.
    sources : int32 array
        Nodes with arcs out but none in: a unit can leave but never return.
    unreachable : int32 array
        Nodes that ``origin`` cannot reach (empty when no origin was given).
    one_way_traps : int32 array
        Nodes from which some node of their island cannot be reached back (their strongly
        connected component is smaller than their island).
    blocked : int32 array
        Waypoint graphs only (:func:`navmesh.diagnose`): waypoints outside the walkable area for
        the agent radius (inside inflated obstacles). Empty for a plain graph.
    """

    components: NDArray[np.int32]
    strong_components: NDArray[np.int32]
    n_islands: int
    isolated: NDArray[np.int32]
    sinks: NDArray[np.int32]
    sources: NDArray[np.int32]
    unreachable: NDArray[np.int32]
    one_way_traps: NDArray[np.int32]
    blocked: NDArray[np.int32] = field(default_factory=lambda: np.zeros(0, np.int32))

    @property
    def ok(self) -> bool:
        """True when the graph is one island with no isolated, unreachable, trapped or blocked node
        and no sink or source."""
        problems = (self.isolated, self.unreachable, self.sinks, self.sources, self.one_way_traps, self.blocked)
        return self.n_islands <= 1 and not any(len(p) for p in problems)


def connectivity_report(graph: NavGraph, origin: int | None = None) -> ConnectivityReport:
    """Islands, sinks, sources, isolated nodes and (given ``origin``) nodes it cannot reach.

    Examples
    --------
    >>> from navmesh import NavGraph
    >>> g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)], directed=True)
    >>> r = connectivity_report(g, origin=1)
    >>> r.sinks.tolist(), r.sources.tolist(), r.unreachable.tolist()
    ([2], [0], [0])
    """
    weak = connected_components(graph)
    out_deg = graph.out_degree()
    in_deg = graph.in_degree()
    if origin is None:
        unreachable = np.zeros(0, np.int32)
    else:
        tree = bfs_tree(graph, check_node("origin", origin, graph.n_nodes))
        unreachable = np.flatnonzero(~np.isfinite(tree.cost)).astype(np.int32)
    strong = strongly_connected_components(graph)
    if len(weak):
        weak_size = np.bincount(weak)
        strong_size = np.bincount(strong)
        traps = np.flatnonzero(strong_size[strong] < weak_size[weak]).astype(np.int32)
    else:
        traps = np.zeros(0, np.int32)
    return ConnectivityReport(
        components=weak,
        strong_components=strong,
        one_way_traps=traps,
        n_islands=int(weak.max()) + 1 if len(weak) else 0,
        isolated=np.flatnonzero((out_deg == 0) & (in_deg == 0)).astype(np.int32),
        sinks=np.flatnonzero((out_deg == 0) & (in_deg > 0)).astype(np.int32),
        sources=np.flatnonzero((out_deg > 0) & (in_deg == 0)).astype(np.int32),
        unreachable=unreachable,
    )
