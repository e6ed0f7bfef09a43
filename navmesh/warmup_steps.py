"""The representative calls :mod:`navmesh.warmup` runs, in steps: each step is a few tiny calls
through the public API, so exactly the kernel specialisations a game's own calls need are
compiled; ``ctx`` carries what a part's earlier steps built. Importing this module is cheap: each
step imports what it calls."""

from __future__ import annotations

from typing import Any, Callable


def probe(ctx: dict[str, Any]) -> None:
    """The first step of every warm-up: one tiny kernel, so a cold cache shows at once."""
    import numpy as np

    from navmesh._kernels.heap import trace_back

    trace_back(np.full(2, -1, np.int32), 1)  # every search's last step: never compiled in vain


def _wp_nav(ctx: dict[str, Any]) -> Any:
    """The waypoint part's graph with terrain (built once per context)."""
    if "nav" not in ctx:
        from navmesh.level import Level
        from navmesh.terrain import TerrainRegion
        from navmesh.waypoints.build import build_waypoint_graph

        swamp = TerrainRegion([(0, 0), (4, 0), (4, 3), (0, 3)], "swamp")
        level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]], terrain=[swamp])
        ctx["nav"] = build_waypoint_graph(level, corners=True, agent_radius=0.25, fill_spacing=3.0)
    return ctx["nav"]


def _wp_plain(ctx: dict[str, Any]) -> Any:
    """The waypoint part's graph on uniform ground: NavQuery's one-call road (its own kernel)."""
    if "plain" not in ctx:
        from navmesh.level import Level
        from navmesh.waypoints.build import build_waypoint_graph

        plain = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]])
        ctx["plain"] = build_waypoint_graph(plain, corners=True, agent_radius=0.25, fill_spacing=3.0)
    return ctx["plain"]


def _wp_query(ctx: dict[str, Any]) -> Any:
    """A NavQuery with a terrain profile on :func:`_wp_nav`'s graph."""
    if "query" not in ctx:
        from navmesh.terrain import CostProfile
        from navmesh.waypoints.query import NavQuery

        ctx["query"] = NavQuery(_wp_nav(ctx), CostProfile("warm", multipliers={"swamp": 2.0}))
    return ctx["query"]


def _wp_graph(ctx: dict[str, Any]) -> None:
    _wp_nav(ctx)
    _wp_plain(ctx)


def _wp_paths(ctx: dict[str, Any]) -> None:
    from navmesh.waypoints.query import NavQuery

    for query in (NavQuery(_wp_nav(ctx)), _wp_query(ctx)):
        for refine in ("any_angle", "smooth", "none"):
            query.find_path((1, 1), (11, 9), refine=refine)
    NavQuery(_wp_plain(ctx)).find_path((1, 1), (11, 9))


def _wp_joins(ctx: dict[str, Any]) -> None:
    # how a position joins the waypoints it sees: every query's first kernel, on its own
    from navmesh.waypoints.query import NavQuery

    NavQuery(_wp_nav(ctx)).snap((1, 1))


def _wp_group(ctx: dict[str, Any]) -> None:
    _wp_query(ctx).find_paths([(1, 1), (2, 9)], [(11, 9), (11, 1)])


def _wp_sliced(ctx: dict[str, Any]) -> None:
    search = _wp_query(ctx).start_search((1, 1), (11, 9))
    while not search.advance(4):
        pass
    search.result()


def _wp_graph_searches(ctx: dict[str, Any]) -> None:
    from navmesh.search import astar
    from navmesh.tracing import search_trace

    graph = _wp_nav(ctx).graph
    astar(graph, 0, graph.n_nodes - 1)
    for algorithm in ("astar", "dijkstra", "bfs", "dfs", "bellman_ford"):
        search_trace(graph, 0, graph.n_nodes - 1, algorithm=algorithm)


def _small_grid() -> Any:
    from navmesh.grid import GridMap

    return GridMap.from_strings(["......", ".####.", "......"])


def _grid_paths(ctx: dict[str, Any]) -> None:
    from navmesh.grid.search import jps_plus

    grid = _small_grid()
    grid.find_path(0, grid.cell_id(5, 2))  # A*: this small map's jump table picks it
    jps_plus(grid, 0, grid.cell_id(5, 2))  # JPS+, find_path's search on maps of rooms and open ground


def _grid_astar(ctx: dict[str, Any]) -> None:
    import numpy as np

    from navmesh.grid import GridMap, grid_astar

    grid_astar(_small_grid(), 0, 17)
    weighted = GridMap(np.array([[1.0, 2.0, 1.0], [1.0, np.inf, 1.0], [1.0, 3.0, 1.0]]))
    grid_astar(weighted, 0, 8)
    weighted.find_path(0, 8)


def _grid_first_step(ctx: dict[str, Any]) -> None:
    from navmesh.grid import GridMap, first_step

    first_step(_small_grid(), 0, 17)
    first_step(GridMap.from_strings(["......", ".####.", "......"], connectivity=4), 0, 17)


def _jps(ctx: dict[str, Any]) -> None:
    from navmesh.grid import jump_point_search

    grid = _small_grid()
    jump_point_search(grid, 0, grid.cell_id(5, 2))


def _flowfield(ctx: dict[str, Any]) -> None:
    import numpy as np

    from navmesh.grid import FlowField

    grid = _small_grid()
    field = FlowField(grid, grid.cell_id(5, 2))
    field.path_from(0)
    field.next_cell(np.array([0, 1]))


def _steer_nav(ctx: dict[str, Any]) -> Any:
    """The steering part's waypoint graph (built once per context)."""
    if "steer_nav" not in ctx:
        from navmesh.level import Level
        from navmesh.waypoints.build import build_waypoint_graph

        level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]])
        ctx["steer_nav"] = build_waypoint_graph(level, corners=True, agent_radius=0.25)
    return ctx["steer_nav"]


def _followers(ctx: dict[str, Any]) -> None:
    from navmesh.steering import PathFollower

    nav = _steer_nav(ctx)
    for mode in ("straight", "hermite"):
        follower = PathFollower([[1, 1], [4, 9], [11, 9]], 5.0, mode=mode, navmap=nav, radius=0.25)
        follower.update(0.1)
        follower.chase((11, 1))
        follower.update(0.1)


def _crowd_runs(world: Any, starts: list[list[float]], goal: list[float], shared: int) -> None:
    from navmesh.steering import Crowd

    crowd = Crowd(world, shared_search_min=shared)
    ids = crowd.add(starts, radius=0.2, speed=4.0)
    crowd.move_to(ids, goal)
    for _ in range(3):
        crowd.update(1 / 60)


def _crowds_on_grids(ctx: dict[str, Any]) -> None:
    # the crowd's own kernels (steering, walls), without the waypoint searches
    _crowd_runs(_small_grid(), [[0.5, 0.5], [0.5, 1.5]], [5.5, 2.5], 4)


def _crowds_on_graphs(ctx: dict[str, Any]) -> None:
    # the goal lies behind the wall: each unit's own sliced search, and (a group of at least
    # shared_search_min units) one route tree from the goal that the units join in sight
    for shared in (4, 2):
        _crowd_runs(_steer_nav(ctx), [[1.0, 5.0], [1.0, 6.0]], [11.0, 5.0], shared)


def _mesh_build(ctx: dict[str, Any]) -> None:
    from navmesh.level import Level
    from navmesh.polymesh.build import build_navmesh
    from navmesh.terrain import TerrainRegion

    swamp = TerrainRegion([(0, 0), (4, 0), (4, 3), (0, 3)], "swamp")  # a build with terrain splits polygons
    build_navmesh(Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]], terrain=[swamp]),
                  agent_radius=0.25)


def _mesh_paths(ctx: dict[str, Any]) -> None:
    """Queries on a mesh made without the build's kernels (a ring of 8 unit squares round a hole,
    one of them swamp), so that this step and ``_mesh_build`` compile side by side."""
    from navmesh.polymesh.mesh import PolyMesh
    from navmesh.polymesh.query import MeshQuery
    from navmesh.terrain import CostProfile

    cells = [(x, y) for y in range(3) for x in range(3) if (x, y) != (1, 1)]
    corners = [(x, y) for y in range(4) for x in range(4)]
    square = [corners.index((x + dx, y + dy)) for x, y in cells for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1))]
    mesh = PolyMesh.from_polygons(corners, range(0, 4 * len(cells) + 1, 4), square,
                                  tags=[int(c == (2, 0)) for c in cells], tag_names=("", "swamp"))
    query = MeshQuery(mesh)
    query.find_path((0.5, 0.5), (2.5, 2.5))  # round the hole
    query.find_path((0.5, 0.5), (0.7, 0.6))  # within one polygon
    query.raycast((0.5, 0.5), (2.5, 2.5))
    MeshQuery(mesh, CostProfile("warm", multipliers={"swamp": 2.0})).find_path((0.5, 0.5), (2.5, 2.5))  # terrain corridor


STEPS: dict[str, tuple[tuple[str, Callable[[dict[str, Any]], None]], ...]] = {
    "waypoints": (
        ("waypoint graph", _wp_graph),
        ("waypoint joins", _wp_joins),
        ("waypoint paths", _wp_paths),
        ("sliced paths", _wp_sliced),
        ("group paths", _wp_group),
        ("graph searches", _wp_graph_searches),
    ),
    "grid": (("grid paths", _grid_paths), ("grid A*", _grid_astar), ("first steps", _grid_first_step)),
    "jps": (("jump point search", _jps),),
    "flowfield": (("flow field", _flowfield),),
    "steering": (("path followers", _followers), ("crowds on graphs", _crowds_on_graphs),
                 ("crowds on grids", _crowds_on_grids)),
    "mesh": (("mesh build", _mesh_build), ("mesh paths", _mesh_paths)),
}

# Steps whose kernels call (or are) kernels that other steps compile: with several processes
# compiling, a worker takes such a step after those when another step is ready.
NEEDS: dict[str, tuple[str, ...]] = {
    "sliced paths": ("waypoint paths",),
    "waypoint paths": ("waypoint joins",),
    "group paths": ("waypoint paths",),
    "jump point search": ("grid paths",),
    "path followers": ("waypoint paths",),
    "crowds on grids": ("flow field",),
    "crowds on graphs": ("waypoint joins", "sliced paths", "graph searches", "crowds on grids"),
}

# Cold compile CPU seconds of each step after the steps it needs (process_time() around each step of
# a serial cold run; measured idle on 2026-11-27, then the waypoint and mesh steps re-weighed by the
# ratios of their A/B runs when string pulling moved into solve_batch and the mesh build kernels
# became partly numpy). They only order the steps between processes.
COST: dict[str, float] = {
    "kernel cache": 0.5, "waypoint graph": 0.4, "waypoint joins": 6.1, "sliced paths": 0.1, "waypoint paths": 8.8,
    "group paths": 0.1, "graph searches": 4.7, "grid paths": 6.5, "grid A*": 1.9, "first steps": 1.1,
    "jump point search": 0.1, "flow field": 2.4, "path followers": 0.1, "crowds on grids": 10.1,
    "crowds on graphs": 2.4, "mesh build": 2.7, "mesh paths": 15.2,
}
