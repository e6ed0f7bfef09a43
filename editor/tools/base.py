"""What every tool shares: the selection, picking things under the cursor, and drags that edit.

Tools talk to the editor view through a small surface: ``view.model`` (the document),
``view.pick_radius`` (world units that match a few screen pixels), ``view.snap(point)`` (grid
snap when it is on), ``view.selection`` and ``view.say(text, error=)`` for the status line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from .. import edits

if TYPE_CHECKING:
    from ..views.editor_view import EditorView

Point = tuple[float, float]


@dataclass(frozen=True)
class Selection:
    """A selected thing: ``kind`` is waypoint, obstacle, terrain, link or offmesh; ``index`` its row.

    ``ring`` and ``vertex`` name a corner of an obstacle or terrain polygon (ring 0 is the outline,
    1.. the holes) when one is picked.
    """

    kind: str
    index: int
    ring: int | None = None
    vertex: int | None = None


# -- picking ----------------------------------------------------------------------------------------
def pick_waypoint(level: Any, p: Point, radius: float) -> int | None:
    """Nearest waypoint within ``radius`` of ``p``."""
    if level.n_waypoints == 0:
        return None
    d = np.hypot(*(level.waypoints[:, :2] - np.asarray(p)).T)
    i = int(np.argmin(d))
    return i if d[i] <= radius else None


def pick_vertex(poly: shapely.Polygon, p: Point, radius: float) -> tuple[int, int] | None:
    """(ring, vertex) of the polygon corner nearest ``p`` within ``radius``."""
    best, found = radius, None
    for r, ring in enumerate(edits.polygon_rings(poly)):
        d = np.hypot(*(np.asarray(ring) - np.asarray(p)).T)
        j = int(np.argmin(d))
        if d[j] <= best:
            best, found = float(d[j]), (r, j)
    return found


def pick_edge(poly: shapely.Polygon, p: Point, radius: float) -> tuple[int, int] | None:
    """(ring, corner before the edge) of the polygon edge nearest ``p`` within ``radius``."""
    best, found = radius, None
    for r, ring in enumerate(edits.polygon_rings(poly)):
        a = np.asarray(ring)
        b = np.roll(a, -1, axis=0)
        d = shapely.distance(shapely.linestrings(np.stack([a, b], axis=1)), shapely.Point(p))
        j = int(np.argmin(d))
        if d[j] <= best:
            best, found = float(d[j]), (r, j)
    return found


def pick_polygon(polys: list[shapely.Polygon], p: Point) -> int | None:
    """Topmost (last) polygon containing ``p``."""
    for i in range(len(polys) - 1, -1, -1):
        if shapely.contains_xy(polys[i], *p):
            return i
    return None


def pick_link(level: Any, p: Point, radius: float) -> Selection | None:
    """Manual or off-mesh link whose segment passes within ``radius`` of ``p``."""
    pts = level.waypoints[:, :2]
    for kind, items in (("link", level.links), ("offmesh", level.offmesh_links)):
        for i, lk in enumerate(items):
            if shapely.distance(shapely.LineString([pts[lk.a], pts[lk.b]]), shapely.Point(p)) <= radius:
                return Selection(kind, i)
    return None


# -- drags --------------------------------------------------------------------------------------------
class Drag:
    """A mouse drag that edits the level; all its steps are one undo step.

    Mouse motion only records the target; :meth:`flush` (once per frame, and on release) makes
    the edit, so a burst of motion events costs one edit and one relink per frame.
    """

    def __init__(self, view: EditorView, sel: Selection, start: Point) -> None:
        self.view, self.sel, self.last = view, sel, start
        self.key = object()  # merge key: one undo step per drag
        self.pending: Point | None = None

    def move(self, p: Point) -> None:
        self.pending = p

    def flush(self) -> None:
        """Apply the latest recorded target, if any."""
        if self.pending is None:
            return
        p, self.pending = self.view.snap(self.pending), None
        s = self.sel
        if s.kind == "waypoint":
            err = self.view.model.edit(edits.move_waypoint, s.index, p, merge=self.key)
        elif s.vertex is not None:
            err = self.view.model.edit(edits.move_vertex, s.kind, s.index, s.ring, s.vertex, p, merge=self.key)
        else:
            dx, dy = p[0] - self.last[0], p[1] - self.last[1]
            if dx == 0 and dy == 0:
                return
            err = self.view.model.edit(edits.translate_polygon, s.kind, s.index, dx, dy, merge=self.key)
        if err is None:
            self.last = p
        else:
            self.view.say(err, error=True)

    def finish(self) -> None:
        self.flush()
        self.view.model.end_merge()


def start_drag(view: EditorView, p: Point, kinds: tuple[str, ...]) -> Drag | None:
    """Select and start dragging the thing under ``p`` among ``kinds`` (corners of the selected
    polygon first, then waypoints, then obstacles, then terrain)."""
    level, r = view.model.level, view.pick_radius
    sel = view.selection
    if sel is not None and sel.kind in ("obstacle", "terrain") and sel.kind in kinds:
        hit = pick_vertex(edits.get_polygon(level, sel.kind, sel.index), p, r)
        if hit is not None:
            view.selection = Selection(sel.kind, sel.index, *hit)
            return Drag(view, view.selection, p)
    if "waypoint" in kinds and (i := pick_waypoint(level, p, r)) is not None:
        view.selection = Selection("waypoint", i)
        return Drag(view, view.selection, p)
    if "obstacle" in kinds and (i := pick_polygon(list(level.obstacles), p)) is not None:
        view.selection = Selection("obstacle", i)
        return Drag(view, view.selection, view.snap(p))
    if "terrain" in kinds and (i := pick_polygon([t.polygon for t in level.terrain], p)) is not None:
        view.selection = Selection("terrain", i)
        return Drag(view, view.selection, view.snap(p))
    return None


def delete_selection(view: EditorView) -> None:
    """Delete the selected thing (a corner when one is picked, else the whole thing)."""
    s = view.selection
    if s is None:
        view.say("nothing selected")
        return
    m = view.model
    if s.kind == "waypoint":
        err = m.edit(edits.delete_waypoint, s.index)
    elif s.kind in ("obstacle", "terrain") and s.vertex is not None:
        err = m.edit(edits.delete_vertex, s.kind, s.index, s.ring, s.vertex)
    elif s.kind in ("obstacle", "terrain"):
        err = m.edit(edits.delete_polygon, s.kind, s.index)
    elif s.kind == "link":
        err = m.edit(edits.remove_link, s.index)
    else:
        err = m.edit(edits.remove_offmesh, s.index)
    if err is not None:
        view.say(err, error=True)
        return
    view.selection = None
    view.say(f"deleted {s.kind}" + (" corner" if s.vertex is not None else ""))


class Tool:
    """Base tool: no-ops. ``name`` and ``shortcut`` show in the panel; ``hint`` in the status line."""

    name = "tool"
    shortcut = ""
    hint = ""

    def __init__(self, view: EditorView) -> None:
        self.view = view
        self.drag: Drag | None = None

    def press(self, p: Point, button: str, mods: frozenset[str]) -> None:
        """Mouse button down at world point ``p`` (button is "left" or "right")."""

    def motion(self, p: Point) -> None:
        """Mouse dragged to ``p`` with a button down."""
        if self.drag is not None:
            self.drag.move(p)

    def release(self, p: Point) -> None:
        """Mouse button up."""
        if self.drag is not None:
            self.drag.finish()
            self.drag = None

    def on_key(self, symbol: str, mods: frozenset[str]) -> bool:
        """A key for this tool; return True when used."""
        return False

    def cancel(self) -> None:
        """Escape: drop any half-made thing."""

    def draw(self) -> None:
        """Draw the tool's own marks in world coordinates."""

    def status(self) -> list[str]:
        """Lines for the side panel."""
        return []

    def buttons(self) -> list[tuple[str, str]]:
        """(label, key name) buttons for the side panel; pressing one presses the key."""
        return []
