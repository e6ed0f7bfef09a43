"""Test-path tool: pick start and goal, a unit profile and an algorithm; see path, cost and frontier.

The path and its cost come from ``navmesh.find_path`` (the answer a game gets). The frontier is a
recorded graph search (``navmesh.search_trace``) between the waypoints the two ends snap to, with
the chosen algorithm and the profile's weights. Drag an end and both follow.
"""

from __future__ import annotations

from typing import Any

import arcade
import numpy as np

import navmesh
from navmesh import arcade_draw

from ..profiles import PROFILES
from .base import Point, Tool

ALGORITHMS = ("astar", "dijkstra", "bfs")
START_COLOR = (50, 220, 90, 255)
GOAL_COLOR = (240, 70, 70, 255)


class TestPathTool(Tool):
    name = "test path"
    shortcut = "P"
    hint = "click: start, then goal   drag an end: path follows   Tab: profile   A: algorithm"

    __test__ = False  # not a pytest class

    def __init__(self, view) -> None:
        super().__init__(view)
        self.start: Point | None = None
        self.goal: Point | None = None
        self.profile = 0
        self.algorithm = 0
        self.dragging: str | None = None
        self._key: Any = None
        self.path: navmesh.Path | None = None
        self.trace: navmesh.SearchTrace | None = None
        self.error: str | None = None

    def press(self, p: Point, button: str, mods: frozenset[str]) -> None:
        r = self.view.pick_radius
        for end in ("start", "goal"):
            q = getattr(self, end)
            if q is not None and np.hypot(p[0] - q[0], p[1] - q[1]) <= r:
                self.dragging = end
                return
        if button == "right" or (self.start is not None and self.goal is None):
            self.goal = p
        else:
            self.start = p

    def motion(self, p: Point) -> None:
        if self.dragging is not None:
            setattr(self, self.dragging, p)

    def release(self, p: Point) -> None:
        self.dragging = None

    def on_key(self, symbol: str, mods: frozenset[str]) -> bool:
        if symbol == "TAB":
            self.profile = (self.profile + 1) % len(PROFILES)
        elif symbol == "A":
            self.algorithm = (self.algorithm + 1) % len(ALGORITHMS)
        else:
            return False
        return True

    def cancel(self) -> None:
        self.start = self.goal = None

    def update(self) -> None:
        """Recompute the path and trace when the ends, the choices or the level changed."""
        model = self.view.model
        on_mesh = bool(getattr(self.view, "show_mesh", False))
        key = (model.revision, self.start, self.goal, self.profile, self.algorithm, on_mesh)
        if key == self._key:
            return
        self._key = key
        self.path = self.trace = self.error = None
        if self.start is None or self.goal is None:
            return
        if on_mesh:  # the mesh overlay is on: the exact any-angle path on the navigation mesh, no trace
            try:
                self.path = navmesh.NavQuery(model.mesh(), PROFILES[self.profile]).find_path(self.start, self.goal)
            except navmesh.NavmeshError as exc:
                self.error = str(exc)
            return
        nav = model.nav
        query = navmesh.NavQuery(nav, PROFILES[self.profile])
        try:
            self.path = query.find_path(self.start, self.goal)
        except navmesh.NavmeshError as exc:
            self.error = str(exc)
        try:
            s, g = query.snap(self.start), query.snap(self.goal)
            self.trace = navmesh.search_trace(nav.graph, s, g, algorithm=ALGORITHMS[self.algorithm],
                                              weights=nav.weights(query.profile))
        except navmesh.NavmeshError as exc:
            self.error = self.error or str(exc)

    def draw(self) -> None:
        self.update()
        z = self.view.zoom
        if self.trace is not None:
            arcade_draw.draw_trace(self.trace, self.view.model.nav.graph, node_radius=4.0 / z, line_width=1.5 / z)
        if self.path is not None:
            arcade_draw.draw_path(self.path, line_width=3.0 / z, point_radius=4.0 / z)
        for q, color in ((self.start, START_COLOR), (self.goal, GOAL_COLOR)):
            if q is not None:
                arcade.draw_circle_filled(q[0], q[1], 7.0 / z, color)
                arcade.draw_circle_outline(q[0], q[1], 7.0 / z, (0, 0, 0, 255), 1.5 / z)

    def buttons(self) -> list[tuple[str, str]]:
        return [("Tab profile", "TAB"), ("A algorithm", "A")]

    def status(self) -> list[str]:
        self.update()
        lines = [f"profile: {PROFILES[self.profile].name} (Tab)   algorithm: {ALGORITHMS[self.algorithm]} (A)"
                 if not getattr(self.view, "show_mesh", False) else
                 f"profile: {PROFILES[self.profile].name} (Tab)   on the navigation mesh (M)"]
        if self.start is None or self.goal is None:
            lines.append("click the start" if self.start is None else "click the goal")
            return lines
        if self.path is not None:
            lines.append(f"cost {self.path.cost:.2f}   length {self.path.length:.1f}")
            moved = [end for end in ("start", "goal") if getattr(self.path, f"{end}_moved")]
            if moved:
                lines.append(f"{' and '.join(moved)} moved out of a wall")
        if self.trace is not None:
            t = self.trace
            found = "" if not t.path.partial else " (goal not reached)"
            lines.append(f"{ALGORITHMS[self.algorithm]}: {len(t.expanded)} expanded (red), frontier green{found}")
        if self.error:
            lines.append(self.error)
        return lines
