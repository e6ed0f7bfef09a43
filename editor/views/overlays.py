"""Overlays of the editor view: manual links, selection, diagnostics, status line, help, PNG export.

Diagnostics come from the library (``navmesh.diagnose`` over ``navmesh.connectivity_report``) plus
one check of the editor's unit profiles: automatic or manual arcs that cross terrain a profile
forbids (those arcs are closed for that unit, which often surprises designers).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import arcade
import numpy as np
from PIL import Image

import navmesh

from .. import edits
from ..profiles import PROFILES

if TYPE_CHECKING:
    from .editor_view import EditorView

LINK_COLORS = {
    "forced": (80, 220, 120, 255),
    "one_way": (255, 150, 40, 255),
    "forbidden": (235, 60, 60, 255),
    "gated": (190, 110, 255, 255),
    "offmesh": (255, 80, 220, 255),
}
ISLAND_COLORS = [(66, 135, 245), (245, 166, 35), (80, 200, 120), (230, 80, 160), (160, 120, 255),
                 (0, 200, 200), (240, 230, 90), (200, 100, 60)]
SELECT_COLOR = (255, 220, 0, 255)
PROBLEM_COLORS = {
    "isolated": (255, 140, 0, 255),
    "unreachable": (170, 170, 170, 255),
    "sink": (255, 60, 60, 255),
    "source": (0, 230, 255, 255),
    "blocked": (255, 0, 0, 255),
    "forbidden": (255, 0, 255, 230),
}


# -- links and selection --------------------------------------------------------------------------
def _arrow(a: np.ndarray, b: np.ndarray, color: Any, size: float) -> None:
    d = b - a
    n = float(np.hypot(*d))
    if n == 0:
        return
    u = d / n
    tip = a + d * 0.6
    left = tip - u * size + np.array([-u[1], u[0]]) * size * 0.5
    right = tip - u * size - np.array([-u[1], u[0]]) * size * 0.5
    arcade.draw_triangle_filled(*tip, *left, *right, color)


def draw_links(view: EditorView) -> None:
    """Manual and off-mesh links, coloured by kind (one-way and off-mesh with a direction arrow)."""
    level, z = view.model.level, view.zoom
    pts = level.waypoints[:, :2] if level.n_waypoints else np.zeros((0, 2))
    for lk in level.links:
        kind = "gated" if lk.requires else lk.kind
        a, b = pts[lk.a], pts[lk.b]
        arcade.draw_line(*a, *b, LINK_COLORS[kind], 3.0 / z)
        if lk.kind == "one_way":
            _arrow(a, b, LINK_COLORS[kind], 14.0 / z)
    for lk in level.offmesh_links:
        a, b = pts[lk.a], pts[lk.b]
        arcade.draw_line(*a, *b, LINK_COLORS["offmesh"], 2.0 / z)
        _arrow(a, b, LINK_COLORS["offmesh"], 14.0 / z)
        if lk.bidirectional:
            _arrow(b, a, LINK_COLORS["offmesh"], 14.0 / z)


def draw_grid(view: EditorView, spacing: float) -> None:
    """Faint snap-grid lines over the level's bounding box (when they are far enough apart)."""
    if spacing * view.zoom < 6.0:
        return
    x0, y0, x1, y1 = view.model.level.bounds.bounds
    xs = np.arange(np.ceil(x0 / spacing), np.floor(x1 / spacing) + 1) * spacing
    ys = np.arange(np.ceil(y0 / spacing), np.floor(y1 / spacing) + 1) * spacing
    seg = [p for x in xs for p in ((x, y0), (x, y1))]
    seg += [p for y in ys for p in ((x0, y), (x1, y))]
    arcade.draw_lines(seg, (255, 255, 255, 28), 1.0)


def draw_selection(view: EditorView) -> None:
    """Highlight the selection; a selected polygon shows its corner handles."""
    s = view.selection
    if s is None:
        return
    level, z = view.model.level, view.zoom
    try:
        if s.kind == "waypoint":
            x, y = level.waypoints[s.index, :2]
            arcade.draw_circle_outline(x, y, 9.0 / z, SELECT_COLOR, 2.5 / z)
        elif s.kind in ("obstacle", "terrain"):
            for r, ring in enumerate(edits.polygon_rings(edits.get_polygon(level, s.kind, s.index))):
                arcade.draw_polygon_outline(ring, SELECT_COLOR, 2.5 / z)
                for j, (x, y) in enumerate(ring):
                    picked = s.ring == r and s.vertex == j
                    half = (6.0 if picked else 4.0) / z
                    arcade.draw_lrbt_rectangle_filled(x - half, x + half, y - half, y + half,
                                                      (255, 255, 255, 255) if picked else SELECT_COLOR)
        else:
            lk = (level.links if s.kind == "link" else level.offmesh_links)[s.index]
            a, b = level.waypoints[lk.a, :2], level.waypoints[lk.b, :2]
            arcade.draw_line(*a, *b, SELECT_COLOR, 6.0 / z)
    except IndexError:
        view.selection = None



# -- diagnostics -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Findings:
    """What the diagnostics overlay shows, computed once per level revision."""

    diagnostics: Any  # navmesh.diagnose's result
    origin: int | None
    forbidden: dict[str, np.ndarray]  # profile name -> arc ids crossing terrain it forbids

    def lines(self) -> list[tuple[str, tuple[int, int, int, int]]]:
        """Summary lines, each in the colour its marks have in the overlay."""
        d = self.diagnostics
        plain = (225, 228, 235, 255)
        origin = "-" if self.origin is None else f"waypoint {self.origin}"
        out = [
            (f"islands: {d.n_islands} (node colours)", plain),
            (f"isolated waypoints: {len(d.isolated)} (orange rings)", PROBLEM_COLORS["isolated"]),
            (f"unreachable from {origin}: {len(d.unreachable)} (grey)", PROBLEM_COLORS["unreachable"]),
            (f"one-way sinks: {len(d.sinks)} (red rings)", PROBLEM_COLORS["sink"]),
            (f"one-way sources: {len(d.sources)} (cyan rings)", PROBLEM_COLORS["source"]),
            (f"in obstacles for the radius: {len(d.blocked)} (red X)", PROBLEM_COLORS["blocked"]),
        ]
        out += [(f"arcs over {name}'s forbidden terrain: {len(arcs)}", PROBLEM_COLORS["forbidden"])
                for name, arcs in self.forbidden.items()]
        return out


def findings(view: EditorView) -> Findings:
    """The diagnostics of the current graph (cached per revision and origin)."""
    nav = view.model.nav
    s = view.selection
    origin = s.index if s is not None and s.kind == "waypoint" and s.index < nav.n_nodes else (
        0 if nav.n_nodes else None)
    key = (view.model.revision, origin)
    cached = getattr(view, "_findings", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    diag = navmesh.diagnose(nav, origin=origin)
    forbidden: dict[str, np.ndarray] = {}
    for prof in PROFILES:
        if prof.forbidden:
            # the library's cost rule decides: arcs it closes for this unit type that it would
            # leave open without the forbidden tags (a bridge over water stays open, a gate stays shut)
            closed = np.isinf(nav.weights(prof).values)
            without = np.isinf(nav.weights(replace(prof, forbidden=frozenset())).values)
            arcs = np.flatnonzero(closed & ~without)
            if len(arcs) or not prof.forbidden.isdisjoint(nav.terrain.tag_names):
                forbidden[prof.name] = arcs
    found = Findings(diag, origin, forbidden)
    view._findings = (key, found)
    return found


def draw_diagnostics(view: EditorView) -> None:
    """Islands in colours; problem waypoints ringed; arcs over forbidden terrain in magenta."""
    nav, z = view.model.nav, view.zoom
    if nav.n_nodes == 0:
        return
    f = findings(view)
    d = f.diagnostics
    pts = nav.points[:, :2]
    g = nav.graph
    src = np.repeat(np.arange(g.n_nodes), np.diff(g.indptr))
    arcs = np.unique(np.concatenate([a for a in f.forbidden.values()] or [np.zeros(0, int)]))
    if len(arcs):
        seg = np.stack([pts[src[arcs]], pts[g.indices[arcs]]], axis=1).reshape(-1, 2)
        arcade.draw_lines(seg.tolist(), PROBLEM_COLORS["forbidden"], 3.0 * max(z, 0.5))
    if d.n_islands > 1:
        for c in range(min(d.n_islands, 64)):
            members = pts[d.components == c]
            color = ISLAND_COLORS[c % len(ISLAND_COLORS)]
            arcade.draw_points(members.tolist(), (*color, 255), 9.0)
    for name, ids, radius in (("unreachable", d.unreachable, 10.0), ("isolated", d.isolated, 13.0),
                              ("sink", d.sinks, 16.0), ("source", d.sources, 16.0)):
        for x, y in pts[ids[:500]]:
            arcade.draw_circle_outline(x, y, radius / z, PROBLEM_COLORS[name], 2.5 / z)
    for x, y in pts[d.blocked[:500]]:
        r = 8.0 / z
        arcade.draw_line(x - r, y - r, x + r, y + r, PROBLEM_COLORS["blocked"], 3.0 / z)
        arcade.draw_line(x - r, y + r, x + r, y - r, PROBLEM_COLORS["blocked"], 3.0 / z)


# -- screen-space overlays ------------------------------------------------------------------------------
def draw_status(view: EditorView) -> None:
    """Status line (messages, errors) and the modal prompt, at the bottom of the level area."""
    w = view.world_width
    if view.prompt is not None:
        p = view.prompt
        arcade.draw_lrbt_rectangle_filled(0, w, 0, 64, (40, 44, 60, 245))
        arcade.draw_lrbt_rectangle_outline(0, w, 0, 64, (255, 220, 0, 255), 2)
        view.texts.put("prompt.title", p.title, 10, 58, color=(255, 230, 120, 255), size=11, bold=True, width=w - 20)
        if p.text is not None:
            view.texts.put("prompt.text", p.text + "_", 10, 26, color=(255, 255, 255, 255), size=11)
        return
    if view.message:
        color = (255, 110, 110, 255) if view.message_error else (220, 230, 240, 255)
        arcade.draw_lrbt_rectangle_filled(0, w, 0, 44, (15, 16, 20, 225))
        view.texts.put("status", view.message, 10, 38, color=color, size=10, width=w - 20)


def draw_help(view: EditorView) -> None:
    """The keyboard shortcuts (from the same table that handles the keys)."""
    from .editor_view import KEYMAP

    w, h = view.window.width, view.window.height
    arcade.draw_lrbt_rectangle_filled(0, w, 0, h, (10, 12, 18, 248))
    view.texts.put("help.title", "navmesh editor: keyboard and mouse  (F1 or Esc closes)", 24, h - 16,
                   color=(255, 220, 0, 255), size=13, bold=True)
    rows = [(shown, what) for shown, what, _, _ in KEYMAP]
    rows += [("Mouse", "left: use the tool   right: delete (goal in test path)"),
             ("Obstacle, terrain", "Enter or first corner: close   Backspace: drop corner   H: hole in selected"),
             ("", "Ctrl+click an edge: insert a corner   right-click: delete corner / polygon"),
             ("Terrain", "1 swamp  2 road  3 water  4 custom (retags the selected region)"),
             ("Link", "1 forced  2 one-way  3 forbidden  4 gated (wade)  5 off-mesh"),
             ("Test path", "Tab: unit profile   A: algorithm (A*, Dijkstra, BFS)   drag an end"),
             ("Panel", "click tools, [-] [+] beside the build settings, and the toggles")]
    half = (len(rows) + 1) // 2
    line = min(22.0, (h - 60) / max(half, 1))
    for i, (shown, what) in enumerate(rows):
        col, row = divmod(i, half)
        x, y = 24 + col * w / 2, h - 50 - row * line
        view.texts.put(f"help.k{i}", shown, x, y, color=(140, 200, 255, 255), size=10, bold=True)
        view.texts.put(f"help.v{i}", what, x + 175, y, color=(230, 230, 230, 255), size=10)


def export_png(view: EditorView, path: str) -> None:
    """Render the whole level (graph, links, test path; no panel or selection) to a PNG file."""
    win = view.window
    w, h = win.width, win.height
    ctx = win.ctx
    fbo = ctx.framebuffer(color_attachments=[ctx.texture((w, h), components=4)])
    saved = view.focus, view.zoom
    try:
        x0, y0, x1, y1 = view.model.level.bounds.bounds
        view.focus = ((x0 + x1) / 2, (y0 + y1) / 2)
        view.zoom = 0.95 * min(w / max(x1 - x0, 1e-9), h / max(y1 - y0, 1e-9))
        with fbo.activate():
            fbo.clear(color=(24, 26, 32, 255))
            view.camera.render_target = fbo
            try:
                view.draw_world(w, h, marks=False)
            finally:
                view.camera.render_target = None
        data = fbo.read(components=4)
    finally:
        view.focus, view.zoom = saved
    Image.frombytes("RGBA", (w, h), data).transpose(Image.Transpose.FLIP_TOP_BOTTOM).save(path)
