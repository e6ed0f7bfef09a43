"""Waypoint tool: click to place (grid snap optional), drag to move, right-click to delete."""

from __future__ import annotations

from .. import edits
from .base import (
    Point,
    Selection,
    Tool,
    delete_selection,
    pick_waypoint,
    start_drag,
)


class WaypointTool(Tool):
    name = "waypoint"
    shortcut = "W"
    hint = "click: place   drag: move   right-click: delete"

    def press(self, p: Point, button: str, mods: frozenset[str]) -> None:
        view = self.view
        level = view.model.level
        hit = pick_waypoint(level, p, view.pick_radius)
        if button == "right":
            if hit is not None:
                view.selection = Selection("waypoint", hit)
                delete_selection(view)
            return
        if hit is not None:
            self.drag = start_drag(view, p, ("waypoint",))
            return
        q = view.snap(p)
        err = view.model.edit(edits.add_waypoints, [q])
        if err is not None:
            view.say(err, error=True)
            return
        view.selection = Selection("waypoint", view.model.level.n_waypoints - 1)
        view.say(f"waypoint {view.model.level.n_waypoints - 1} at ({q[0]:.0f}, {q[1]:.0f})")
