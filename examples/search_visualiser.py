"""Search visualiser: watch A*, Dijkstra and breadth-first search expand over a tile map.

Run: ``python examples/search_visualiser.py``. Keys 1 / 2 / 3 pick A*, Dijkstra or BFS; a click
moves the goal; the search replays from the start. Blue dots are expanded nodes, the frontier
is drawn on top, the finished path in red.
"""

from __future__ import annotations

import arcade

import navmesh
from navmesh.arcade_draw import draw_path, draw_trace, grid_shapes

from _runner import ExampleView, run

MAZE = [
    "....................",
    "...........#........",
    "..######...#..####..",
    "...........#.....#..",
    "...........#.....#..",
    "..#######..#.....#..",
    "........#..#######..",
    "........#...........",
    "..####..#...........",
    "..#.....#######.....",
    "..#.................",
    "..#.....###########.",
    "..#.................",
    "....................",
    "....................",
]
CELL = 40
ALGORITHMS = {arcade.key.KEY_1: "astar", arcade.key.KEY_2: "dijkstra", arcade.key.KEY_3: "bfs"}
EXPANSIONS_PER_SECOND = 120


class TraceView(ExampleView):
    def __init__(self) -> None:
        super().__init__()
        self.grid = navmesh.GridMap.from_strings(MAZE, cell_size=CELL)
        self.graph = self.grid.to_navgraph()  # the tile map as a graph: search_trace records it
        self.walls = grid_shapes(self.grid)
        self.start = self.grid.cell_id(1, 13)
        self.goal = self.grid.cell_id(16, 4)
        self.algorithm = "astar"
        self.title = arcade.Text("", 10, 575, arcade.color.BLACK, 14)
        self.replay()

    def replay(self) -> None:
        self.trace = navmesh.search_trace(self.graph, self.start, self.goal, algorithm=self.algorithm)
        self.clock = 0.0
        self.title.text = f"{self.algorithm}: {len(self.trace.expanded)} expansions (keys 1/2/3, click a goal)"

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in ALGORITHMS:
            self.algorithm = ALGORITHMS[symbol]
            self.replay()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        cell = self.grid.cell_at((x, y))
        if self.grid.is_passable(cell):
            self.goal = cell
            self.replay()

    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time

    def on_draw(self) -> None:
        self.clear(color=arcade.color.BEIGE)
        self.walls.draw()
        step = int(self.clock * EXPANSIONS_PER_SECOND)
        draw_trace(self.trace, self.graph, step=step, node_radius=6)
        if step >= len(self.trace.expanded):
            draw_path(self.trace.path)
        arcade.draw_lrbt_rectangle_filled(0, 800, 565, 600, (245, 245, 220, 230))
        self.title.draw()
        self.after_draw()


def main(argv: list[str] | None = None) -> None:
    run(TraceView, "navmesh: search visualiser", argv)


if __name__ == "__main__":
    main()
