"""navmesh: waypoint graphs, grid maps and fast path search for Python arcade games.

The public API is re-exported here. Drawing lives in ``navmesh.arcade_draw`` (the only module that
imports arcade), so the core runs without a display.
"""

from navmesh.build import (
    BuildOptions,
    Diagnostics,
    WaypointGraph,
    build_waypoint_graph,
    corner_waypoints,
    diagnose,
    fill_waypoints,
    walkable_region,
)
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
from navmesh.flowfield import FlowField
from navmesh.geometry import LineOfSight, as_bounds, as_polygon, as_polygons, erode, inflate
from navmesh.graph import NO_NODE, EdgeWeights, NavGraph
from navmesh.grid import DIRECTION_NAMES, GridMap
from navmesh.gridsearch import first_step, first_steps, grid_astar, grid_dijkstra, jump_point_search
from navmesh.level import Level, Link, OffMeshLink, load_level, save_level
from navmesh.movingai import MovingAIMap, Scenarios, read_map, read_scenarios
from navmesh.path import Path, RouteTable, SearchTrace, ShortestPathTree
from navmesh.query import find_path, smooth_path, snap
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
from navmesh.terrain import CostProfile, DangerZone, TerrainRegion, add_danger
from navmesh.tiled import load_tiled_level

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # graph and search
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
    # levels and waypoint graphs
    "Level",
    "Link",
    "OffMeshLink",
    "load_level",
    "save_level",
    "load_tiled_level",
    "TerrainRegion",
    "CostProfile",
    "DangerZone",
    "add_danger",
    "LineOfSight",
    "as_polygon",
    "as_polygons",
    "as_bounds",
    "inflate",
    "erode",
    "build_waypoint_graph",
    "BuildOptions",
    "WaypointGraph",
    "corner_waypoints",
    "fill_waypoints",
    "walkable_region",
    "diagnose",
    "Diagnostics",
    "snap",
    "find_path",
    "smooth_path",
    # tile maps
    "GridMap",
    "DIRECTION_NAMES",
    "grid_astar",
    "grid_dijkstra",
    "jump_point_search",
    "first_step",
    "first_steps",
    "FlowField",
    "read_map",
    "read_scenarios",
    "MovingAIMap",
    "Scenarios",
    # errors
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
