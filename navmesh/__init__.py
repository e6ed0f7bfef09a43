"""navmesh: waypoint graphs, tile maps, fast path search and steering for Python arcade games.

The everyday API is re-exported here (a literal ``__all__``, snapshot-tested). The rest lives in
the subpackages, one job each:

- :mod:`navmesh.waypoints`: generated waypoints, the build (:class:`NavMap`), local updates and
  per-unit-type queries (:class:`NavQuery`);
- :mod:`navmesh.polymesh`: navigation meshes of convex polygons (:func:`build_navmesh`,
  :class:`PolyMesh`) with exact any-angle paths (Polyanya, :class:`MeshQuery`; ``NavQuery`` on
  a PolyMesh gives one);
- :mod:`navmesh.grid`: tile maps, grid searches, the maze first-step search, flow fields;
- :mod:`navmesh.steering`: path following (straight or Hermite), re-planning, variation, crowds;
- :mod:`navmesh.io`: level JSON, Tiled, Moving AI and ``.mesh`` files (readers are imported on first use);
- :mod:`navmesh.search`, :mod:`navmesh.tracing`, :mod:`navmesh.connectivity`, :mod:`navmesh.geometry`, :mod:`navmesh.sight`,
  :mod:`navmesh.terrain`: graph searches, reachability, line of sight, cost profiles;
- :mod:`navmesh.arcade_draw`, :mod:`navmesh.arcade_adapt` and :mod:`navmesh.arcade_loading`: debug
  drawing; levels, grids and sprite motion from arcade objects; a loading view that prepares the
  kernels between frames (the only modules that import arcade);
- :mod:`navmesh.cli`: the ``navmesh`` command; :func:`warm_up` compiles kernels at load time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:  # the names below load on first use (see __getattr__)
    from navmesh.connectivity import connectivity_report
    from navmesh.graph import NO_NODE, EdgeWeights, NavGraph
    from navmesh.grid import (
        FlowField,
        GridMap,
        first_step,
        first_steps,
        grid_astar,
        jump_point_search,
    )
    from navmesh.io.level_json import load_level, save_level
    from navmesh.level import Level, Link, OffMeshLink
    from navmesh.path import Path, SearchTrace
    from navmesh.polymesh.build import build_navmesh
    from navmesh.polymesh.mesh import PolyMesh
    from navmesh.polymesh.query import MeshQuery
    from navmesh.search import (
        all_pairs,
        astar,
        bellman_ford,
        bfs,
        dfs,
        dijkstra,
    )
    from navmesh.tracing import search_trace
    from navmesh.steering import Crowd, PathFollower
    from navmesh.danger import DangerZone
    from navmesh.terrain import CostProfile, TerrainRegion
    from navmesh.warmup import warm_up, warm_up_steps
    from navmesh.waypoints.build import build_waypoint_graph
    from navmesh.waypoints.diagnostics import diagnose
    from navmesh.waypoints.navmap import NavMap
    from navmesh.waypoints.query import NavQuery, find_path

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # graphs and searches
    "NO_NODE",
    "NavGraph",
    "EdgeWeights",
    "Path",
    "SearchTrace",
    "astar",
    "dijkstra",
    "bfs",
    "dfs",
    "bellman_ford",
    "all_pairs",
    "search_trace",
    "connectivity_report",
    # levels
    "Level",
    "Link",
    "OffMeshLink",
    "TerrainRegion",
    "CostProfile",
    "DangerZone",
    "load_level",
    "save_level",
    "load_tiled_level",
    # waypoint navigation
    "build_waypoint_graph",
    "NavMap",
    "NavQuery",
    "find_path",
    "diagnose",
    # navigation meshes
    "build_navmesh",
    "PolyMesh",
    "MeshQuery",
    "load_mesh",
    "save_mesh",
    # tile maps
    "GridMap",
    "FlowField",
    "grid_astar",
    "jump_point_search",
    "first_step",
    "first_steps",
    # steering
    "PathFollower",
    "Crowd",
    # start-up
    "warm_up",
    "warm_up_steps",
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

# Every public name but the errors is imported on first use, so that `import navmesh` (and a
# loading view in `navmesh.arcade_loading`) starts in a fraction of a second; the kernels, numba,
# scipy and shapely load with the first name that needs them.
_LAZY = {
    "connectivity_report": "navmesh.connectivity",
    "NO_NODE": "navmesh.graph",
    "EdgeWeights": "navmesh.graph",
    "NavGraph": "navmesh.graph",
    "FlowField": "navmesh.grid",
    "GridMap": "navmesh.grid",
    "first_step": "navmesh.grid",
    "first_steps": "navmesh.grid",
    "grid_astar": "navmesh.grid",
    "jump_point_search": "navmesh.grid",
    "load_level": "navmesh.io.level_json",
    "save_level": "navmesh.io.level_json",
    "Level": "navmesh.level",
    "Link": "navmesh.level",
    "OffMeshLink": "navmesh.level",
    "Path": "navmesh.path",
    "SearchTrace": "navmesh.path",
    "build_navmesh": "navmesh.polymesh.build",
    "PolyMesh": "navmesh.polymesh.mesh",
    "MeshQuery": "navmesh.polymesh.query",
    "all_pairs": "navmesh.search",
    "astar": "navmesh.search",
    "bellman_ford": "navmesh.search",
    "bfs": "navmesh.search",
    "dfs": "navmesh.search",
    "dijkstra": "navmesh.search",
    "search_trace": "navmesh.tracing",
    "Crowd": "navmesh.steering",
    "PathFollower": "navmesh.steering",
    "CostProfile": "navmesh.terrain",
    "DangerZone": "navmesh.danger",
    "TerrainRegion": "navmesh.terrain",
    "warm_up": "navmesh.warmup",
    "warm_up_steps": "navmesh.warmup",
    "build_waypoint_graph": "navmesh.waypoints.build",
    "diagnose": "navmesh.waypoints.diagnostics",
    "NavMap": "navmesh.waypoints.navmap",
    "NavQuery": "navmesh.waypoints.query",
    "find_path": "navmesh.waypoints.query",
    "load_tiled_level": "navmesh.io.tiled",
    "load_mesh": "navmesh.io.mesh_file",
    "save_mesh": "navmesh.io.mesh_file",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'navmesh' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

