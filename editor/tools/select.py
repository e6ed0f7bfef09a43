"""Select tool: pick anything to see its properties; drag waypoints, obstacles, terrain and corners."""

from __future__ import annotations

from .base import Point, Tool, pick_link, start_drag


class SelectTool(Tool):
    name = "select"
    shortcut = "S"
    hint = "click: select   drag: move (corners of the selected polygon too)   Del: delete"

    def press(self, p: Point, button: str, mods: frozenset[str]) -> None:
        if button != "left":
            return
        self.drag = start_drag(self.view, p, ("waypoint", "obstacle", "terrain"))
        if self.drag is None:
            self.view.selection = pick_link(self.view.model.level, p, self.view.pick_radius)
