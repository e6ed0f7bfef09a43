"""navmesh: waypoint graphs, grid maps and fast path search for Python arcade games."""

from navmesh.connectivity import (
    ConnectivityReport,
    connected_components,
    connectivity_report,
    strongly_connected_components,
)
from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    LevelFormatError,
    NavmeshError,
    NavmeshWarning,
    NegativeCycleError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
)
from navmesh.graph import NO_NODE, EdgeWeights, NavGraph
from navmesh.path import Path, RouteTable, SearchTrace, ShortestPathTree
from navmesh.search import (
    all_pairs,
    astar,
    astar_multi,
    bellman_ford,
    bfs,
    bfs_tree,
    dfs,
    dijkstra,
    dijkstra_tree,
    search_trace,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "NO_NODE",
    "NavGraph",
    "EdgeWeights",
    "Path",
    "ShortestPathTree",
    "RouteTable",
    "SearchTrace",
    "astar",
    "astar_multi",
    "dijkstra",
    "dijkstra_tree",
    "bfs",
    "bfs_tree",
    "dfs",
    "bellman_ford",
    "all_pairs",
    "search_trace",
    "connected_components",
    "strongly_connected_components",
    "connectivity_report",
    "ConnectivityReport",
    "NavmeshError",
    "InvalidGeometryError",
    "InvalidCostError",
    "InvalidOptionError",
    "NodeNotFoundError",
    "NoPathError",
    "SearchBudgetError",
    "NegativeCycleError",
    "LevelFormatError",
    "NavmeshWarning",
]
