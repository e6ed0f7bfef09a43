"""The search visualiser: watch BFS, DFS, Dijkstra, A* and Bellman-Ford search the valley's graph.

``navmesh.search_trace`` records each algorithm step by step, so its frontier grows on screen:
the nodes A*, Dijkstra and BFS take off their open list, the nodes DFS steps onto, and every
distance Bellman-Ford's passes lower. Every search runs on the arcs open to infantry (none over
water) with infantry weights (swamp x2.5), so BFS's fewest arcs and DFS's first path found can be
compared with the cheapest path of the others.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import arcade
import numpy as np

import navmesh
import navmesh.arcade_draw as nd

from ..units import INFANTRY
from .base import (
    DIM_TEXT,
    HEADER,
    TEXT,
    DemoView,
    load_valley,
    panel,
)
from .rts import TERRAIN_COLORS

ALGORITHMS: tuple[str, ...] = ("bfs", "dfs", "dijkstra", "astar", "bellman_ford")
LABELS = {"bfs": "BFS", "dfs": "DFS", "dijkstra": "Dijkstra", "astar": "A*", "bellman_ford": "Bellman-Ford"}
FOOTER = 28  # px: the hint line at the bottom left
TABLE_WIDTH = 400  # px: the results table at the top right
START_COLOR = (80, 230, 120, 255)
GOAL_COLOR = (255, 90, 90, 255)

HELP = [
    ("Left click", "set the start (then the goal, alternately)"),
    ("Right click", "set the goal"),
    ("1 2 3 4 5", "BFS, DFS, Dijkstra, A*, Bellman-Ford"),
    ("Space / N", "pause or run / single step (when paused)"),
    ("Up / Down", "faster / slower"),
    ("Enter", "jump to the end"),
    ("", "Green: open set (frontier), red: expanded,"),
    ("", "white: search tree. A Bellman-Ford step is one"),
    ("", "lowered distance, so a node can turn up again."),
]


@dataclass(frozen=True)
class Result:
    """One algorithm's answer between the current endpoints."""

    algorithm: str
    path: navmesh.Path | None
    cost: float  # sum of infantry weights along the path (inf: no path)
    hops: int  # arcs on the path (-1: no path)
    expansions: int  # steps of the trace (Bellman-Ford: the start plus every lowered distance)
    trace: navmesh.SearchTrace


def open_graph(graph: navmesh.NavGraph, weights: navmesh.EdgeWeights) -> tuple[navmesh.NavGraph, navmesh.EdgeWeights]:
    """The graph of the arcs with a finite weight, whose arc lengths are those weights."""
    src = np.repeat(np.arange(graph.n_nodes), np.diff(graph.indptr))
    ok = np.isfinite(weights.values)
    edges = np.stack([src[ok], graph.indices[ok]], axis=1)
    sub = navmesh.NavGraph.from_edges(graph.points, edges, lengths=np.asarray(weights.values)[ok], directed=True)
    return sub, sub.default_weights


class VisualiserView(DemoView):
    """Pick two points; see how five searches explore the graph and what they find."""

    title = "Search visualiser"

    def __init__(self, window: arcade.Window | None = None, *, seed: int = 0, scenario: bool = False,
                 **kwargs) -> None:
        super().__init__(window, help_lines=HELP, **kwargs)
        self.level, self.navmap = load_valley()
        self.graph, self.weights = open_graph(self.navmap.graph, self.navmap.weights(INFANTRY.profile))
        self.query = navmesh.NavQuery(self.navmap, INFANTRY.profile)
        self.world_size = np.array(self.level.bounds.bounds[2:], dtype=float)
        self.table_text = arcade.Text("\n".join(ALGORITHMS), 0, 0, TEXT, 13, multiline=True, width=430,
                                      anchor_y="top", font_name="DejaVu Sans Mono")
        self.table_height = self.table_text.content_height + 40  # one row per algorithm, plus the head
        self.camera = arcade.Camera2D()
        self._fit_camera()
        self.static = nd.level_shapes(self.level, terrain_colors=TERRAIN_COLORS, obstacle_color=(96, 92, 88),
                                      outline_width=0.0, waypoint_radius=0.0)
        self.graph_shapes = nd.graph_shapes(self.graph, color=(150, 190, 230, 90), node_color=(190, 210, 235, 160),
                                            node_radius=4.0, line_width=1.5)
        self.algorithm = "astar"
        self.results: dict[str, Result] = {}
        self.start = self.goal = -1
        self.step_pos = 0.0
        self.speed = 60.0  # trace steps per second
        self.paused = False
        self._next_is_start = True
        self.table_head = arcade.Text("algorithm        steps  arcs    cost", 0, 0, DIM_TEXT, 13,
                                      font_name="DejaVu Sans Mono")
        self.set_endpoints((260.0, 700.0), (2750.0, 1050.0))
        if scenario:
            self.choose("dijkstra")  # the widest frontier: it shows best part-way

    def table_rect(self) -> tuple[float, float, float, float]:
        """Screen (left, bottom, width, height) of the results table: top right, under the header."""
        w, h = self.window.width, self.window.height
        return (w - TABLE_WIDTH - 10, h - HEADER - 10 - self.table_height, TABLE_WIDTH, self.table_height)

    def map_area(self) -> tuple[float, float, float, float]:
        """Screen (left, bottom, width, height) the map is fitted into: clear of the header, the table
        and the hint line at the bottom.

        Either left of the table or below it, whichever shows the map larger.
        """
        w, h = self.window.width, self.window.height
        left, bottom, _, _ = self.table_rect()
        beside = (0.0, FOOTER, left - 10, h - HEADER - FOOTER)
        below = (0.0, FOOTER, float(w), bottom - 10 - FOOTER)
        return max(beside, below, key=lambda a: min(a[2] / self.world_size[0], a[3] / self.world_size[1]))

    def _fit_camera(self) -> None:
        left, bottom, width, height = self.map_area()
        self.camera.match_window()
        self.camera.zoom = 0.96 * min(width / self.world_size[0], height / self.world_size[1])
        # the camera's position is the world point at the window's centre; the map's centre goes
        # to the area's centre
        shift = np.array([left + width / 2 - self.window.width / 2, bottom + height / 2 - self.window.height / 2])
        centre = self.world_size / 2 - shift / self.camera.zoom
        self.camera.position = (float(centre[0]), float(centre[1]))

    # -- searching ------------------------------------------------------------------------------
    def set_endpoints(self, start: tuple[float, float] | None, goal: tuple[float, float] | None) -> None:
        """Snap new endpoints (world units; None keeps one) and run every algorithm between them."""
        if start is not None:
            self.start = self.query.snap(start)
        if goal is not None:
            self.goal = self.query.snap(goal)
        self.results = {name: self._run(name) for name in ALGORITHMS}
        self.step_pos = 0.0

    def _cost(self, path: navmesh.Path) -> float:
        nodes = path.nodes
        arcs = [self.graph.arc(int(a), int(b)) for a, b in itertools.pairwise(nodes)]
        return float(self.weights.values[arcs].sum()) if arcs else 0.0

    def _run(self, name: str) -> Result:
        weights = None if name == "bfs" else self.weights  # BFS counts arcs
        trace = navmesh.search_trace(self.graph, self.start, self.goal, algorithm=name, weights=weights)
        path = None if trace.path.partial else trace.path
        if path is None:
            cost = np.inf
        elif name == "bfs":
            cost = self._cost(path)  # what the fewest-arcs path costs the infantry
        else:
            cost = float(path.cost)
        return Result(name, path, cost, len(path.nodes) - 1 if path else -1, len(trace.expanded), trace)

    @property
    def result(self) -> Result:
        """The selected algorithm's result."""
        return self.results[self.algorithm]

    @property
    def total_steps(self) -> int:
        """Trace steps the animation of the selected algorithm shows in all."""
        return len(self.result.trace.expanded)

    @property
    def finished(self) -> bool:
        """Whether the animation of the selected algorithm has reached its end."""
        return self.step_pos >= self.total_steps

    def choose(self, name: str) -> None:
        """Show algorithm ``name`` from its first expansion."""
        self.algorithm = name
        self.step_pos = 0.0

    # -- input ----------------------------------------------------------------------------------
    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        p = self.camera.unproject((x, y))
        point = (p[0], p[1])
        if button == arcade.MOUSE_BUTTON_RIGHT:
            self.set_endpoints(None, point)
        elif self._next_is_start:
            self.set_endpoints(point, None)
            self._next_is_start = False
        else:
            self.set_endpoints(None, point)
            self._next_is_start = True

    def key(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        numbers = (k.KEY_1, k.KEY_2, k.KEY_3, k.KEY_4, k.KEY_5)
        if symbol in numbers:
            self.choose(ALGORITHMS[numbers.index(symbol)])
        elif symbol == k.SPACE:
            self.paused = not self.paused
        elif symbol in (k.N, k.PERIOD):
            self.step_pos = min(float(int(self.step_pos) + 1), self.total_steps)
        elif symbol == k.UP:
            self.speed = min(self.speed * 2, 7680.0)
        elif symbol == k.DOWN:
            self.speed = max(self.speed / 2, 1.875)
        elif symbol == k.ENTER:
            self.step_pos = float(self.total_steps)

    # -- simulation and drawing -----------------------------------------------------------------
    def step(self, dt: float) -> None:
        if not self.paused:
            self.step_pos = min(self.step_pos + self.speed * dt, float(self.total_steps))

    def draw(self) -> None:
        self.camera.use()
        self.static.draw()
        self.graph_shapes.draw()
        r = self.result
        nd.draw_trace(r.trace, self.graph, step=int(self.step_pos), node_radius=13.0, line_width=4.0)
        if r.path is not None and self.finished:
            nd.draw_path(r.path, color=(255, 215, 90, 255), line_width=10.0, point_radius=10.0)
        pts = self.graph.points
        for node, color in ((self.start, START_COLOR), (self.goal, GOAL_COLOR)):
            arcade.draw_circle_filled(pts[node, 0], pts[node, 1], 30, color)
            arcade.draw_circle_outline(pts[node, 0], pts[node, 1], 30, (0, 0, 0, 255), 8)

    def draw_hud(self) -> None:
        state = "paused" if self.paused else f"{self.speed:g} steps/s"
        self.draw_header(f"{LABELS[self.algorithm]}   step {int(self.step_pos)} / {self.total_steps}   {state}   "
                         "1-5 algorithm   click: start / goal")
        rows = []
        for name in ALGORITHMS:
            r = self.results[name]
            mark = ">" if name == self.algorithm else " "
            exp = str(r.expansions)
            hops = "-" if r.hops < 0 else str(r.hops)
            cost = "no path" if not np.isfinite(r.cost) else f"{r.cost:8.1f}"
            rows.append(f"{mark}{LABELS[name]:<13}{exp:>8}{hops:>6}{cost:>9}")
        self.table_text.text = "\n".join(rows)
        left, bottom, tw, height = self.table_rect()
        top = bottom + height
        panel(left, bottom, tw, height)
        self.table_head.position = (left + 10, top - 22)
        self.table_head.draw()
        self.table_text.position = (left + 10, top - 30)
        self.table_text.draw()

    def readout(self) -> str:
        return ""

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._fit_camera()
