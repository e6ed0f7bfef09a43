"""Every public entry point, fed generated bad values, raises only navmesh errors.

Each entry point is called with valid arguments except one, which hypothesis replaces by a bad
value: a wrong type, NaN, inf, a huge or negative number, an empty container, an out-of-range id,
a long string. The call may succeed (some odd values are legal, e.g. ``True`` where a flag is
expected) but must never let a raw Python, numpy or numba exception out; file paths may also
raise the documented ``OSError``. An error message stays short: a bad value is echoed shortened.
"""

from __future__ import annotations

import math
import os
import pathlib
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import navmesh
from navmesh.errors import NavmeshError
from navmesh.io.level_json import level_from_data
from navmesh.io.movingai import read_map, read_scenarios
from navmesh.search import astar_multi, dijkstra_tree
from navmesh.waypoints.options import BuildOptions
from navmesh.waypoints.placement import corner_waypoints, fill_waypoints

LONG = "x" * 1_000_000  # an error message must not echo this
MAX_MESSAGE = 2_000

bad_scalars = st.one_of(
    st.sampled_from([
        None, "", "2", LONG, b"1", "\udcff", object(), 1j, True, False, [], (), {}, set(), [[]], [1, [2]],
        math.nan, math.inf, -math.inf, -1, -1e-9, 0, 0.0, 1e200, -1e200, 1e308, 5e-324,
        2**31, 2**63, 2**70, -(2**70), 10**400, np.float64("nan"), np.int64(-5), np.uint64(2**64 - 1),
        np.array([]), np.array([[1, 2], [3, 4]]), np.array(["a"]), np.zeros((0, 2)), np.full((2, 2), np.nan),
        {"a": 1}, [math.nan, 1], [1e200, 1e200], [10**400, 0], ["a", "b"], [None, None],
    ]),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.floats(), max_size=4),
    st.lists(st.integers(), max_size=4),
)

SQUARE = [(0, 0), (4, 0), (4, 4), (0, 4)]
GRAPH = navmesh.NavGraph.from_edges([[0, 0], [1, 0], [1, 1], [0, 1]], [(0, 1), (1, 2), (2, 3), (3, 0)])
LEVEL = navmesh.Level.rectangle(
    20, 10,
    obstacles=[[(9, 0), (11, 0), (11, 7), (9, 7)]],
    waypoints=[[2, 2], [18, 2], [10, 9]],
    terrain=[navmesh.TerrainRegion([(0, 0), (5, 0), (5, 5), (0, 5)], "swamp")],
)
NAV = navmesh.build_waypoint_graph(LEVEL)
QUERY = navmesh.NavQuery(NAV)
GRID = navmesh.GridMap.from_strings(["....", ".##.", "...."]) if hasattr(navmesh.GridMap, "from_strings") else None
FOLDER = pathlib.Path(tempfile.mkdtemp())
(FOLDER / "ok.map").write_text("type octile\nheight 1\nwidth 2\nmap\n..\n")



def crowd_of_one():
    crowd = navmesh.Crowd(NAV)
    crowd.add([[2, 2]])
    return crowd


def inside_folder(value):
    """Text paths are made relative to the test folder (never write where the tests run)."""
    return FOLDER / value.replace("/", "_").replace("..", "__") if isinstance(value, str) and value else value


ENTRY_POINTS = {
    # graphs and searches
    "NavGraph.points": lambda v: navmesh.NavGraph(v, [0, 0, 0], []),
    "NavGraph.indptr": lambda v: navmesh.NavGraph([[0, 0], [1, 1]], v, []),
    "NavGraph.indices": lambda v: navmesh.NavGraph([[0, 0], [1, 1]], [0, 1, 1], v),
    "NavGraph.lengths": lambda v: navmesh.NavGraph([[0, 0], [1, 1]], [0, 1, 1], [1], lengths=v),
    "NavGraph.tags": lambda v: navmesh.NavGraph([[0, 0], [1, 1]], [0, 1, 1], [1], tags=v),
    "from_edges.points": lambda v: navmesh.NavGraph.from_edges(v, [(0, 1)]),
    "from_edges.edges": lambda v: navmesh.NavGraph.from_edges([[0, 0], [1, 1]], v),
    "from_edges.lengths": lambda v: navmesh.NavGraph.from_edges([[0, 0], [1, 1]], [(0, 1)], lengths=v),
    "from_edges.directed": lambda v: navmesh.NavGraph.from_edges([[0, 0], [1, 1]], [(0, 1)], directed=v),
    "graph.weights": lambda v: GRAPH.weights(v),
    "graph.neighbors": lambda v: GRAPH.neighbors(v),
    "graph.arc": lambda v: GRAPH.arc(0, v),
    "astar.start": lambda v: navmesh.astar(GRAPH, v, 2),
    "astar.goal": lambda v: navmesh.astar(GRAPH, 0, v),
    "astar.weights": lambda v: navmesh.astar(GRAPH, 0, 2, weights=v),
    "astar.heuristic": lambda v: navmesh.astar(GRAPH, 0, 2, heuristic=v),
    "astar.heuristic_weight": lambda v: navmesh.astar(GRAPH, 0, 2, heuristic_weight=v),
    "astar.max_expansions": lambda v: navmesh.astar(GRAPH, 0, 2, max_expansions=v),
    "astar.allow_partial": lambda v: navmesh.astar(GRAPH, 0, 2, allow_partial=v),
    "astar_multi.starts": lambda v: astar_multi(GRAPH, v, [2]),
    "astar_multi.start_costs": lambda v: astar_multi(GRAPH, [0, 1], [2], start_costs=v),
    "astar_multi.goal_point": lambda v: astar_multi(GRAPH, [0], [2], goal_point=v),
    "dijkstra.weights": lambda v: navmesh.dijkstra(GRAPH, 0, 2, weights=v),
    "dijkstra_tree.starts": lambda v: dijkstra_tree(GRAPH, v),
    "dijkstra_tree.limit": lambda v: dijkstra_tree(GRAPH, 0, limit=v),
    "bfs.goal": lambda v: navmesh.bfs(GRAPH, 0, v),
    "bfs.max_expansions": lambda v: navmesh.bfs(GRAPH, 0, 2, max_expansions=v),
    "dfs.weights": lambda v: navmesh.dfs(GRAPH, 0, 2, weights=v),
    "bellman_ford.start": lambda v: navmesh.bellman_ford(GRAPH, v),
    "bellman_ford.weights": lambda v: navmesh.bellman_ford(GRAPH, 0, weights=v),
    "all_pairs.weights": lambda v: navmesh.all_pairs(GRAPH, weights=v),
    "all_pairs.max_bytes": lambda v: navmesh.all_pairs(GRAPH, max_bytes=v),
    "search_trace.algorithm": lambda v: navmesh.search_trace(GRAPH, 0, 2, algorithm=v),
    "search_trace.heuristic_weight": lambda v: navmesh.search_trace(GRAPH, 0, 2, heuristic_weight=v),
    "search_trace.max_expansions": lambda v: navmesh.search_trace(GRAPH, 0, 2, max_expansions=v),
    "search_trace.weights": lambda v: navmesh.search_trace(GRAPH, 0, 2, algorithm="dijkstra", weights=v),
    "connectivity_report.origin": lambda v: navmesh.connectivity_report(GRAPH, origin=v),
    # levels
    "Level.rectangle.width": lambda v: navmesh.Level.rectangle(v, 10),
    "Level.bounds": lambda v: navmesh.Level(v),
    "Level.obstacles": lambda v: navmesh.Level.rectangle(10, 10, obstacles=v),
    "Level.obstacle": lambda v: navmesh.Level.rectangle(10, 10, obstacles=[v]),
    "Level.waypoints": lambda v: navmesh.Level.rectangle(10, 10, waypoints=v),
    "Level.waypoint": lambda v: navmesh.Level.rectangle(10, 10, waypoints=[[1, 1], v]),
    "Level.terrain": lambda v: navmesh.Level.rectangle(10, 10, terrain=v),
    "Level.terrain_pair": lambda v: navmesh.Level.rectangle(10, 10, terrain=[(SQUARE, v)]),
    "Level.links": lambda v: navmesh.Level.rectangle(10, 10, waypoints=[[1, 1], [5, 5]], links=v),
    "Level.link": lambda v: navmesh.Level.rectangle(10, 10, waypoints=[[1, 1], [5, 5]], links=[v]),
    "Level.offmesh_links": lambda v: navmesh.Level.rectangle(10, 10, offmesh_links=v),
    "Level.on_bad_waypoint": lambda v: navmesh.Level.rectangle(10, 10, on_bad_waypoint=v),
    "Level.known_tags": lambda v: navmesh.Level.rectangle(10, 10, terrain=[(SQUARE, "a")], known_tags=v),
    "Level.replace": lambda v: LEVEL.replace(waypoints=v),
    "Level.line_of_sight": lambda v: LEVEL.line_of_sight(agent_radius=v),
    "Link.a": lambda v: navmesh.Link(v, 1, "forced"),
    "Link.kind": lambda v: navmesh.Link(0, 1, v),
    "Link.tag": lambda v: navmesh.Link(0, 1, "forced", tag=v),
    "Link.requires": lambda v: navmesh.Link(0, 1, "forced", requires=v),
    "OffMeshLink.cost": lambda v: navmesh.OffMeshLink(0, 1, v, "ladder"),
    "OffMeshLink.tag": lambda v: navmesh.OffMeshLink(0, 1, 1.0, v),
    "OffMeshLink.bidirectional": lambda v: navmesh.OffMeshLink(0, 1, 1.0, "x", bidirectional=v),
    "TerrainRegion.polygon": lambda v: navmesh.TerrainRegion(v, "swamp"),
    "TerrainRegion.tag": lambda v: navmesh.TerrainRegion(SQUARE, v),
    "CostProfile.name": lambda v: navmesh.CostProfile(v),
    "CostProfile.multipliers": lambda v: navmesh.CostProfile("p", v),
    "CostProfile.multiplier": lambda v: navmesh.CostProfile("p", {"swamp": v}),
    "CostProfile.forbidden": lambda v: navmesh.CostProfile("p", forbidden=v),
    "CostProfile.capabilities": lambda v: navmesh.CostProfile("p", capabilities=v),
    "DangerZone.centre": lambda v: navmesh.DangerZone(v, 1.0, 1.0),
    "DangerZone.radius": lambda v: navmesh.DangerZone((0, 0), v, 1.0),
    "DangerZone.extra": lambda v: navmesh.DangerZone((0, 0), 1.0, v),
    # files
    "load_level.path": lambda v: navmesh.load_level(v),
    "save_level.level": lambda v: navmesh.save_level(v, FOLDER / "bad.json"),
    "save_level.path": lambda v: navmesh.save_level(LEVEL, inside_folder(v)),
    "level_from_data": lambda v: level_from_data(v),
    "level_from_data.bounds": lambda v: level_from_data({"schema": 1, "bounds": v}),
    "level_from_data.waypoints": lambda v: level_from_data(
        {"schema": 1, "bounds": {"exterior": SQUARE}, "waypoints": [v]}
    ),
    "read_map.path": lambda v: read_map(v),
    "read_scenarios.path": lambda v: read_scenarios(v),
    # waypoint graphs and queries
    "build.level": lambda v: navmesh.build_waypoint_graph(v),
    "build.k": lambda v: navmesh.build_waypoint_graph(LEVEL, k=v),
    "build.max_distance": lambda v: navmesh.build_waypoint_graph(LEVEL, max_distance=v),
    "build.max_candidates": lambda v: navmesh.build_waypoint_graph(LEVEL, max_candidates=v),
    "build.agent_radius": lambda v: navmesh.build_waypoint_graph(LEVEL, agent_radius=v),
    "build.corners": lambda v: navmesh.build_waypoint_graph(LEVEL, corners=v),
    "build.fill_spacing": lambda v: navmesh.build_waypoint_graph(LEVEL, fill_spacing=v),
    "BuildOptions.k": lambda v: BuildOptions(k=v).candidate_width(5),
    "fill_waypoints.spacing": lambda v: fill_waypoints(LEVEL, v),
    "fill_waypoints.clearance": lambda v: fill_waypoints(LEVEL, 2.0, clearance=v),
    "corner_waypoints.agent_radius": lambda v: corner_waypoints(LEVEL, agent_radius=v),
    "NavQuery.profile": lambda v: navmesh.NavQuery(NAV, v),
    "NavQuery.find_path.start": lambda v: QUERY.find_path(v, [18, 2]),
    "NavQuery.find_path.goal": lambda v: QUERY.find_path([2, 2], v),
    "NavQuery.find_path.refine": lambda v: QUERY.find_path([2, 2], [18, 2], refine=v),
    "NavQuery.find_path.max_expansions": lambda v: QUERY.find_path([2, 2], [18, 2], max_expansions=v),
    "NavQuery.find_path.danger": lambda v: QUERY.find_path([2, 2], [18, 2], danger=v),
    "NavQuery.find_paths.starts": lambda v: QUERY.find_paths(v, [[18, 2]]),
    "NavQuery.snap": lambda v: QUERY.snap(v),
    "NavQuery.nearest_walkable": lambda v: QUERY.nearest_walkable(v),
    "find_path.nav": lambda v: navmesh.find_path(v, [2, 2], [18, 2]),
    "find_path.profile": lambda v: navmesh.find_path(NAV, [2, 2], [18, 2], profile=v),
    "NavMap.with_obstacle": lambda v: NAV.with_obstacle(v),
    "diagnose.origin": lambda v: navmesh.diagnose(NAV, origin=v),
    # steering
    "PathFollower.points": lambda v: navmesh.PathFollower(v, 10.0),
    "PathFollower.speed": lambda v: navmesh.PathFollower([[0, 0], [5, 0]], v),
    "PathFollower.mode": lambda v: navmesh.PathFollower([[0, 0], [5, 0]], 10.0, mode=v),
    "PathFollower.update": lambda v: navmesh.PathFollower([[0, 0], [5, 0]], 10.0).update(v),
    "PathFollower.navmap": lambda v: navmesh.PathFollower([[0, 0], [5, 0]], 10.0, navmap=v, mode="hermite").update(0.1),
    "Crowd.navmap": lambda v: navmesh.Crowd(v),
    "Crowd.add.positions": lambda v: navmesh.Crowd(NAV).add(v),
    "Crowd.add.radius": lambda v: navmesh.Crowd(NAV).add([[2, 2]], radius=v),
    "Crowd.move_to.goal": lambda v: crowd_of_one().move_to([0], v),
    "Crowd.move_to.ids": lambda v: crowd_of_one().move_to(v, [18, 2]),
    "Crowd.update": lambda v: crowd_of_one().update(v),
    # grids
    "GridMap.cells": lambda v: navmesh.GridMap(v),
    "grid_astar.start": lambda v: navmesh.grid_astar(GRID, v, 3),
    "grid_astar.max_expansions": lambda v: navmesh.grid_astar(GRID, 0, 3, max_expansions=v),
    "jump_point_search.goal": lambda v: navmesh.jump_point_search(GRID, 0, v),
    "first_step.goal": lambda v: navmesh.first_step(GRID, 0, v),
    "first_steps.starts": lambda v: navmesh.first_steps(GRID, v, [3]),
    "FlowField.goals": lambda v: navmesh.FlowField(GRID, v),
    "FlowField.path_from": lambda v: navmesh.FlowField(GRID, 0).path_from(v),
    "GridMap.from_tiled.source": lambda v: navmesh.GridMap.from_tiled(inside_folder(v)),
}

FILE_ARGUMENTS = {"load_level.path", "save_level.path", "read_map.path", "read_scenarios.path", "GridMap.from_tiled.source"}


def call_with(name: str, value) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ENTRY_POINTS[name](value)
        except NavmeshError as exc:
            assert len(str(exc)) < MAX_MESSAGE, f"{name}: message of {len(str(exc))} characters"
        except OSError:
            if name not in FILE_ARGUMENTS:
                raise


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(value=bad_scalars)
def test_only_navmesh_errors_come_out(name, value):
    call_with(name, value)


def test_inputs_are_left_unchanged():
    """Refused calls never change the shared graph, level or map they were given."""
    before = [GRAPH.points.copy(), GRAPH.indices.copy(), NAV.graph.indices.copy(), LEVEL.waypoints.copy()]
    for name in sorted(ENTRY_POINTS):
        call_with(name, math.nan)
    after = [GRAPH.points, GRAPH.indices, NAV.graph.indices, LEVEL.waypoints]
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)


def test_save_leaves_no_file_when_refused():
    target = FOLDER / "refused.json"
    with pytest.raises(NavmeshError):
        navmesh.save_level("not a level", target)
    assert not target.exists()
    assert not [p for p in os.listdir(FOLDER) if p.endswith(".tmp")]


@pytest.mark.parametrize("value", [None, 5, 1.5, object()])
def test_load_tiled_level_refuses_a_source_of_the_wrong_type(value):
    with pytest.raises(NavmeshError):
        navmesh.load_tiled_level(value)
