"""Quick start: a small level with a swamp, two unit types, a tile maze and a flow field.

Run: ``python3 examples/quickstart.py`` (after ``python3 -m pip install -e .``).
"""

from __future__ import annotations

import navmesh


def waypoint_level() -> None:
    wall = [(45, 15), (55, 15), (55, 50), (45, 50)]  # short way round: south, through the swamp
    swamp = navmesh.TerrainRegion([(40, 0), (60, 0), (60, 15), (40, 15)], "swamp")
    level = navmesh.Level.rectangle(100, 60, obstacles=[wall], terrain=[swamp])
    nav = navmesh.build_waypoint_graph(level, corners=True, k=None)  # small level: full visibility graph
    print(nav)
    for profile in (
        navmesh.CostProfile("infantry", multipliers={"swamp": 1.2}),
        navmesh.CostProfile("tank", multipliers={"swamp": 4.0}),
    ):
        path = navmesh.find_path(nav, (10, 30), (90, 30), profile=profile)
        corners = ", ".join(f"({x:.1f}, {y:.1f})" for x, y in path.points)
        print(f"{profile.name:9s} cost {path.cost:7.2f}  length {path.length:6.2f}  via {corners}")
    closed = nav.with_obstacle([(45, 0), (55, 0), (55, 15), (45, 15)])  # a gate shuts the south gap
    path = navmesh.find_path(closed, (10, 30), (90, 30))
    print(f"south gap closed: everyone goes north, length {path.length:.2f}")


def tile_maze() -> None:
    grid = navmesh.GridMap.from_strings([
        "#########",
        "#...#...#",
        "#.#.#.#.#",
        "#.#...#.#",
        "#########",
    ])
    start, goal = grid.cell_id(1, 1), grid.cell_id(7, 1)
    path = navmesh.grid_astar(grid, start, goal)
    step = navmesh.first_step(grid, start, goal)
    print(f"maze: {len(path.nodes)} cells, cost {path.cost:.3f}, first step to cell {step} "
          f"(column {step % grid.shape[1]}, row {step // grid.shape[1]})")
    field = navmesh.FlowField(grid, goal)
    print("flow-field distances to the goal:")
    for row in field.distance:
        print("  " + " ".join("  ##" if d == float("inf") else f"{d:4.1f}" for d in row))


if __name__ == "__main__":
    waypoint_level()
    tile_maze()
