"""The side panel: tools, build settings with [-] [+] buttons, selection properties, tool readouts,
each unit profile's terrain multipliers, and the diagnostics summary.

Drawn with plain rectangles and ``arcade.Text`` (no arcade.gui), so it works in any window.
The same layout pass that draws the panel also gives the clickable buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import arcade

from ..profiles import PROFILES
from . import overlays

if TYPE_CHECKING:
    from .editor_view import EditorView

PANEL_WIDTH = 300
BG = (34, 37, 46, 255)
HEAD = (255, 220, 0, 255)
TEXT = (225, 228, 235, 255)
DIM = (150, 156, 170, 255)
BUTTON = (58, 63, 80, 255)
ACTIVE = (70, 120, 200, 255)
LINE = 15  # pixels per text line

Button = tuple[float, float, float, float, Callable[[], None]]


class Panel:
    """The editor's side panel (right edge of the window)."""

    def __init__(self, view: EditorView) -> None:
        self.view = view

    def click(self, x: float, y: float) -> bool:
        """Press the button at screen (x, y); True when there was one."""
        for left, right, bottom, top, action in self.layout(draw=False):
            if left <= x <= right and bottom <= y <= top:
                action()
                return True
        return False

    def draw(self) -> None:
        v = self.view
        arcade.draw_lrbt_rectangle_filled(v.world_width, v.window.width, 0, v.window.height, BG)
        self.layout(draw=True)

    def layout(self, *, draw: bool) -> list[Button]:
        v, m = self.view, self.view.model
        x0 = v.world_width + 10
        width = PANEL_WIDTH - 20
        y = v.window.height - 8
        buttons: list[Button] = []

        def text(slot: str, value: str, *, color=TEXT, size: float = 9, bold: bool = False, dx: float = 0) -> None:
            nonlocal y
            if draw:
                v.texts.put(f"panel.{slot}", value, x0 + dx, y, color=color, size=size, bold=bold)
            y -= LINE

        def button(label: str, left: float, w: float, action: Callable[[], None], active: bool = False) -> None:
            bottom, top = y - LINE + 1, y + 1
            buttons.append((left, left + w, bottom, top, action))
            if draw:
                arcade.draw_lrbt_rectangle_filled(left, left + w, bottom, top, ACTIVE if active else BUTTON)
                v.texts.put(f"panel.b.{label}.{left}.{y}", label, left + 4, y - 1, color=TEXT, size=8)

        text("title", f"navmesh editor - {m.title}", color=HEAD, bold=True, size=10)
        y -= 3
        # tools: two rows of three
        for row in (("S", "W", "O"), ("T", "L", "P")):
            for i, key in enumerate(row):
                tool = v.tools[key]
                button(f"{key} {tool.name}", x0 + i * 94, 90, lambda k=key: v.set_tool(k), tool is v.tool)
            y -= LINE + 2
        y -= 2
        text("settings", "build settings", color=HEAD, bold=True)
        s = m.settings
        rows = [("k", "k (links/waypoint)", s.k), ("max_distance", "max link distance", s.max_distance),
                ("agent_radius", "agent radius", s.agent_radius), ("fill_spacing", "fill spacing", s.fill_spacing)]
        for name, label, value in rows:
            shown = "none" if value is None else f"{value:g}"
            button("-", x0 + width - 44, 20, lambda n=name: v.change_setting(n, -1))
            button("+", x0 + width - 20, 20, lambda n=name: v.change_setting(n, 1))
            text(f"set.{name}", f"{label}: {shown}")
            y -= 2
        button("C corners", x0, 90, lambda: v.generate("corners"))
        button("F fill", x0 + 94, 90, lambda: v.generate("fill"))
        button("G snap", x0 + 188, 90, lambda: v.run_action("toggle_snap", "G"), v.snap_on)
        y -= LINE + 2
        button("N graph", x0, 90, lambda: v.run_action("toggle_graph", "N"), v.show_graph)
        button("D diagnose", x0 + 94, 90, lambda: v.run_action("toggle_diagnostics", "D"), v.show_diagnostics)
        button("F1 help", x0 + 188, 90, lambda: v.run_action("toggle_help", "F1"), v.show_help)
        y -= LINE + 6
        lv, nav = m.level, m.nav
        text("counts", f"{lv.n_waypoints} waypoints  {len(lv.obstacles)} obstacles  {len(lv.terrain)} terrain")
        text("counts2", f"{len(lv.links)} links  {len(lv.offmesh_links)} off-mesh  graph {nav.n_nodes} nodes "
             f"{nav.graph.n_edges} arcs", color=DIM)
        y -= 4
        text("seltitle", "selection", color=HEAD, bold=True)
        for i, line in enumerate(self.selection_lines()[:4]):
            text(f"sel{i}", line)
        y -= 4
        text("tooltitle", f"{v.tool.name} tool", color=HEAD, bold=True)
        tool_buttons = v.tool.buttons()
        for i, (label, key) in enumerate(tool_buttons):
            button(label, x0 + (i % 3) * 94, 90, lambda k=key: v.press_key(k))
            if i % 3 == 2 or i == len(tool_buttons) - 1:
                y -= LINE + 2
        for i, line in enumerate(v.tool.status()[:4]):
            text(f"tool{i}", line[:48])
        y -= 4
        text("proftitle", "unit profiles (terrain cost x)", color=HEAD, bold=True)
        for prof in PROFILES:
            parts = [f"{t} x{mult:g}" for t, mult in prof.multipliers.items()]
            rules = [f"no {t}" for t in sorted(prof.forbidden)] + [f"can {c}" for c in sorted(prof.capabilities)]
            text(f"prof.{prof.name}", f"{prof.name}: {'  '.join(parts) or 'every tag x1'}", color=DIM)
            if rules:
                text(f"prof.{prof.name}.rules", "   " + "  ".join(rules), color=DIM)
        y -= 4
        if v.show_diagnostics:
            text("diagtitle", "diagnostics", color=HEAD, bold=True)
            for i, (line, color) in enumerate(overlays.findings(v).lines()):
                text(f"diag{i}", line, color=color)
        else:
            text("legendtitle", "manual links", color=HEAD, bold=True)
            for kind, color in overlays.LINK_COLORS.items():
                label = {"one_way": "one-way", "offmesh": "off-mesh (teleport)", "gated": "gated (needs wade)"}.get(kind, kind)
                text(f"legend.{kind}", label, color=color)
        return buttons

    def selection_lines(self) -> list[str]:
        s, level = self.view.selection, self.view.model.level
        if s is None:
            return ["nothing (select tool: S)"]
        try:
            if s.kind == "waypoint":
                x, y = level.waypoints[s.index, :2]
                return [f"waypoint {s.index} at ({x:.1f}, {y:.1f})"]
            if s.kind in ("obstacle", "terrain"):
                poly = level.obstacles[s.index] if s.kind == "obstacle" else level.terrain[s.index].polygon
                tag = f" '{level.terrain[s.index].tag}'" if s.kind == "terrain" else ""
                shape = f"{len(poly.exterior.coords) - 1} corners, {len(poly.interiors)} holes"
                lines = [f"{s.kind} {s.index}{tag}: {shape}", f"area {poly.area:.0f}"]
                if s.vertex is not None:
                    lines.append(f"corner {s.vertex} of ring {s.ring}")
                return lines
            if s.kind == "link":
                lk = level.links[s.index]
                return [f"link {lk.a} -> {lk.b} {lk.kind}" + (f" requires {lk.requires}" if lk.requires else "")]
            lk = level.offmesh_links[s.index]
            return [f"off-mesh {lk.a} -> {lk.b} '{lk.tag}' cost {lk.cost:.1f}"
                    + (" both ways" if lk.bidirectional else "")]
        except IndexError:
            return ["nothing"]
