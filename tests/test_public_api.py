"""The public API: the top-level names are a deliberate, reviewed list, and the core needs no arcade."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import navmesh

EXPECTED = {
    "__version__",
    "NO_NODE", "NavGraph", "EdgeWeights", "Path", "SearchTrace",
    "astar", "dijkstra", "bfs", "dfs", "bellman_ford", "all_pairs", "search_trace", "connectivity_report",
    "Level", "Link", "OffMeshLink", "TerrainRegion", "CostProfile", "DangerZone",
    "load_level", "save_level", "load_tiled_level",
    "build_waypoint_graph", "NavMap", "NavQuery", "find_path", "diagnose",
    "build_navmesh", "PolyMesh", "MeshQuery", "load_mesh", "save_mesh",
    "GridMap", "FlowField", "grid_astar", "jump_point_search", "first_step", "first_steps",
    "PathFollower", "Crowd", "warm_up", "warm_up_steps",
    "NavmeshError", "InvalidGeometryError", "InvalidCostError", "InvalidOptionError", "NodeNotFoundError",
    "NoPathError", "SearchBudgetError", "NegativeCycleError", "LevelFormatError", "NavmeshWarning",
}


def test_all_is_the_reviewed_list_and_every_name_resolves():
    assert set(navmesh.__all__) == EXPECTED
    assert len(navmesh.__all__) == len(set(navmesh.__all__))
    for name in navmesh.__all__:
        assert getattr(navmesh, name) is not None


def test_unknown_attribute_is_an_attribute_error():
    try:
        navmesh.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_core_imports_and_finds_paths_with_arcade_blocked():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["arcade"] = None          # any import of arcade now raises ImportError
        sys.modules["pytiled_parser"] = None  # format readers load lazily
        import navmesh
        level = navmesh.Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
        query = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True))
        print(round(query.find_path([1, 1], [9, 1]).cost, 6))
        grid = navmesh.GridMap.from_strings(["..#", "..."])
        print(*navmesh.grid_astar(grid, 0, 5).nodes.tolist(), sep=",")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert float(out[0]) == round(2 * (3**2 + 7**2) ** 0.5 + 2, 6)
    assert out[1] == "0,4,5"  # a diagonal, then right: the wall corner at (2, 0) may not be cut
