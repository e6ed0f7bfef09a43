"""Search visualiser: watch A*, Dijkstra and breadth-first search expand over a tile map.

Run: ``python examples/search_visualiser.py``. Keys 1 / 2 / 3 pick A*, Dijkstra or BFS; a click
moves the goal; the search replays from the start. Blue dots are expanded nodes, the frontier
is drawn on top, the finished path in red.
"""

from __future__ import annotations

import arcade

import navmesh
from navmesh.arcade_draw import draw_path, draw_trace, grid_shapes

from _runner import HEIGHT, WIDTH, ExampleView, run

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
CELL = 36
TITLE_BAR = 36  # px at the top of the window, above the maze
ORIGIN = ((WIDTH - len(MAZE[0]) * CELL) / 2, (HEIGHT - TITLE_BAR - len(MAZE) * CELL) / 2)  # centred below the bar
ALGORITHMS = {arcade.key.KEY_1: "astar", arcade.key.KEY_2: "dijkstra", arcade.key.KEY_3: "bfs"}
EXPANSIONS_PER_SECOND = 120


class TraceView(ExampleView):
    def __init__(self) -> None:
        super().__init__()
        self.grid = navmesh.GridMap.from_strings(MAZE, cell_size=CELL, origin=ORIGIN)
        self.graph = self.grid.to_navgraph()  # the tile map as a graph: search_trace records it
        self.walls = grid_shapes(self.grid)
        self.start = self.grid.cell_id(1, 13)
        self.goal = self.grid.cell_id(16, 4)
        self.algorithm = "astar"
        self.title = arcade.Text("", 10, HEIGHT - TITLE_BAR / 2, arcade.color.BLACK, 14, anchor_y="center")
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
        try:
            cell = self.grid.cell_at((x, y))
        except navmesh.NodeNotFoundError:  # a click beside the maze
            return
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
        self.title.draw()
        self.after_draw()


def main(argv: list[str] | None = None) -> None:
    run(TraceView, "navmesh: search visualiser", argv)


if __name__ == "__main__":
    main()
