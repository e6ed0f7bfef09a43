"""Link tool: manual forced, one-way, forbidden and gated links, and off-mesh links.

Click a waypoint, then another: the pair gets a link of the current kind (1 forced, 2 one-way,
3 forbidden, 4 gated: forced but only for units with the gate capability, 5 off-mesh teleport
costing the straight distance). Right-click near a link removes it. With a manual link selected,
1-4 change its kind; with an off-mesh link selected, B makes it one-way / two-way.
"""

from __future__ import annotations

import arcade
import numpy as np

from .. import edits
from .base import (
    Point,
    Selection,
    Tool,
    delete_selection,
    pick_link,
    pick_waypoint,
)

KINDS = ("forced", "one_way", "forbidden", "gated", "offmesh")
GATE = "wade"  # capability a gated link asks for


class LinkTool(Tool):
    name = "link"
    shortcut = "L"
    hint = "click two waypoints: link   1-5: kind   right-click a link: remove"

    def __init__(self, view) -> None:
        super().__init__(view)
        self.kind = KINDS[0]
        self.first: int | None = None

    def press(self, p: Point, button: str, mods: frozenset[str]) -> None:
        view = self.view
        level = view.model.level
        if button == "right":
            self.first = None
            view.selection = pick_link(level, p, view.pick_radius)
            if view.selection is not None:
                delete_selection(view)
            return
        hit = pick_waypoint(level, p, view.pick_radius)
        if hit is None:
            view.selection = pick_link(level, p, view.pick_radius)
            return
        if self.first is None or self.first == hit:
            self.first = hit
            view.selection = Selection("waypoint", hit)
            return
        a, b, self.first = self.first, hit, None
        if self.kind == "offmesh":
            cost = float(np.hypot(*(level.waypoints[a, :2] - level.waypoints[b, :2])))
            err = view.model.edit(edits.add_offmesh, a, b, cost)
            sel = Selection("offmesh", len(view.model.level.offmesh_links) - 1)
        else:
            kind, requires = ("forced", GATE) if self.kind == "gated" else (self.kind, None)
            err = view.model.edit(edits.set_link, a, b, kind, requires)
            sel = Selection("link", len(view.model.level.links) - 1)
        if err is not None:
            view.say(err, error=True)
            return
        view.selection = sel
        view.say(f"{self.kind} link {a} -> {b}")

    def on_key(self, symbol: str, mods: frozenset[str]) -> bool:
        view, sel = self.view, self.view.selection
        if symbol in ("_1", "_2", "_3", "_4", "_5"):
            self.kind = KINDS[int(symbol[1]) - 1]
            if sel is not None and sel.kind == "link" and self.kind != "offmesh":
                lk = view.model.level.links[sel.index]
                kind, requires = ("forced", GATE) if self.kind == "gated" else (self.kind, None)
                err = view.model.edit(edits.set_link, lk.a, lk.b, kind, requires)
                view.selection = None if err else Selection("link", len(view.model.level.links) - 1)
                view.say(err or f"link {lk.a} -> {lk.b} is now {self.kind}", error=err is not None)
            else:
                view.say(f"link kind: {self.kind}")
            return True
        if symbol == "B" and sel is not None and sel.kind == "offmesh":
            both = not view.model.level.offmesh_links[sel.index].bidirectional
            err = view.model.edit(lambda lv: edits.replace_offmesh(lv, sel.index, bidirectional=both))
            view.say(err or f"off-mesh link {'two-way' if both else 'one-way'}", error=err is not None)
            return True
        return False

    def cancel(self) -> None:
        self.first = None

    def draw(self) -> None:
        if self.first is None or self.view.cursor is None:
            return
        a = self.view.model.level.waypoints[self.first, :2]
        arcade.draw_line(a[0], a[1], *self.view.cursor, (255, 200, 0, 255), 2.0 / self.view.zoom)

    def buttons(self) -> list[tuple[str, str]]:
        return [(f"{i + 1} {kind.replace('_', '-')}", f"_{i + 1}") for i, kind in enumerate(KINDS)]

    def status(self) -> list[str]:
        lines = [f"kind: {self.kind}", f"1 forced 2 one-way 3 forbidden 4 gated({GATE}) 5 off-mesh"]
        if self.first is not None:
            lines.append(f"from waypoint {self.first}: click the other end")
        return lines
