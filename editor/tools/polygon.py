"""Obstacle and terrain tool: draw polygons corner by corner, cut holes, reshape, move, delete.

Left clicks add corners to a draft; clicking the first corner again (or Enter) closes it. With a
polygon selected, H starts a hole in it instead. Dragging a corner of the selected polygon moves
the corner, dragging inside moves the polygon, Ctrl+click on an edge inserts a corner, right-click
on a corner deletes the corner and right-click inside deletes the polygon. The terrain tool paints
with the current tag (1 swamp, 2 road, 3 water, 4 custom).
"""

from __future__ import annotations

import arcade

from .. import edits
from ..profiles import TAGS
from .base import (
    Point,
    Selection,
    Tool,
    delete_selection,
    pick_edge,
    pick_polygon,
    pick_vertex,
    start_drag,
)

DRAFT_COLOR = (255, 200, 0, 255)


class PolygonTool(Tool):
    """Draws obstacles (``kind="obstacle"``) or terrain regions (``kind="terrain"``)."""

    def __init__(self, view, kind: str) -> None:
        super().__init__(view)
        self.kind = kind
        self.name = kind
        self.shortcut = "O" if kind == "obstacle" else "T"
        self.hint = ("click: add corner (first corner or Enter closes)   H: hole in selected   "
                     "Ctrl+click edge: insert corner   right-click: delete corner / polygon")
        self.draft: list[Point] = []
        self.hole_of: int | None = None
        self.tag = TAGS[0]

    def _polygons(self) -> list:
        level = self.view.model.level
        return list(level.obstacles) if self.kind == "obstacle" else [t.polygon for t in level.terrain]

    def press(self, p: Point, button: str, mods: frozenset[str]) -> None:
        view, r = self.view, self.view.pick_radius
        sel = view.selection if view.selection is not None and view.selection.kind == self.kind else None
        if button == "right":
            self._delete_at(p, sel)
            return
        if self.draft or self.hole_of is not None:
            if len(self.draft) >= 3 and abs(p[0] - self.draft[0][0]) <= r and abs(p[1] - self.draft[0][1]) <= r:
                self.close()
            else:
                self.draft.append(view.snap(p))
            return
        if sel is not None and "ctrl" in mods:
            hit = pick_edge(edits.get_polygon(view.model.level, self.kind, sel.index), p, r)
            if hit is not None:
                err = view.model.edit(edits.insert_vertex, self.kind, sel.index, hit[0], hit[1], view.snap(p))
                view.say(err or "corner inserted", error=err is not None)
                return
        self.drag = start_drag(view, p, (self.kind,))
        if self.drag is None:
            view.selection = None
            self.draft = [view.snap(p)]

    def _delete_at(self, p: Point, sel: Selection | None) -> None:
        view = self.view
        if self.draft:
            self.draft.pop()
            return
        if sel is not None:
            hit = pick_vertex(edits.get_polygon(view.model.level, self.kind, sel.index), p, view.pick_radius)
            if hit is not None:
                view.selection = Selection(self.kind, sel.index, *hit)
                delete_selection(view)
                return
        i = pick_polygon(self._polygons(), p)
        if i is not None:
            view.selection = Selection(self.kind, i)
            delete_selection(view)

    def close(self) -> None:
        """Finish the draft: a new polygon, or a hole in the selected one."""
        view, ring = self.view, list(self.draft)
        if len(ring) < 3:
            view.say(f"a {self.kind} needs at least 3 corners", error=True)
            return
        if self.hole_of is not None:
            err = view.model.edit(edits.add_hole, self.kind, self.hole_of, ring)
            done = f"hole cut in {self.kind} {self.hole_of}"
        elif self.kind == "obstacle":
            err = view.model.edit(edits.add_obstacle, ring)
            done = f"obstacle {len(view.model.level.obstacles) - 1} added"
        else:
            err = view.model.edit(edits.add_terrain, ring, self.tag)
            done = f"{self.tag} region {len(view.model.level.terrain) - 1} painted"
        if err is not None:
            view.say(err, error=True)
            return
        self.draft, self.hole_of = [], None
        view.say(done)

    def on_key(self, symbol: str, mods: frozenset[str]) -> bool:
        view = self.view
        if symbol in ("RETURN", "ENTER") and self.draft:
            self.close()
            return True
        if symbol == "BACKSPACE" and self.draft:
            self.draft.pop()
            return True
        if symbol == "H" and view.selection is not None and view.selection.kind == self.kind:
            self.hole_of = view.selection.index
            self.draft = []
            view.say(f"drawing a hole in {self.kind} {self.hole_of}: click its corners")
            return True
        if self.kind == "terrain" and symbol in ("_1", "_2", "_3", "_4"):
            self.tag = TAGS[int(symbol[1]) - 1]
            sel = view.selection
            if sel is not None and sel.kind == "terrain":
                err = view.model.edit(edits.retag_terrain, sel.index, self.tag)
                view.say(err or f"terrain {sel.index} is now {self.tag}", error=err is not None)
            else:
                view.say(f"painting {self.tag}")
            return True
        return False

    def cancel(self) -> None:
        self.draft, self.hole_of = [], None

    def draw(self) -> None:
        if not self.draft:
            return
        w = 2.0 / self.view.zoom
        pts = [*self.draft, self.view.cursor] if self.view.cursor is not None else list(self.draft)
        arcade.draw_line_strip(pts, DRAFT_COLOR, w)
        for x, y in self.draft:
            arcade.draw_circle_filled(x, y, 4.0 / self.view.zoom, DRAFT_COLOR)

    def buttons(self) -> list[tuple[str, str]]:
        close = [("Enter close", "RETURN")] if self.draft else []
        if self.kind == "terrain":
            return [(f"{i + 1} {tag}", f"_{i + 1}") for i, tag in enumerate(TAGS)] + close
        return close

    def status(self) -> list[str]:
        lines = [f"tag: {self.tag}  (1 swamp 2 road 3 water 4 custom)"] if self.kind == "terrain" else []
        if self.hole_of is not None:
            lines.append(f"drawing a hole in {self.kind} {self.hole_of}")
        if self.draft:
            lines.append(f"draft: {len(self.draft)} corners")
        return lines
