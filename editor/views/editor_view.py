"""The editing view: the level under a pan/zoom camera, the tools, overlays, prompts and shortcuts.

Input handling stays in plain methods (``on_mouse_press``, ``on_key_press``, ``on_update`` ...) so
tests and ``--script`` replays drive the view exactly as a person does. Everything that edits goes
through ``self.model`` (see :mod:`editor.model`); drawing only reads the model and the library's
results.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import arcade
import numpy as np
import pyglet
from arcade.types import LBWH

import navmesh
from navmesh import arcade_draw

from .. import edits
from ..model import EditorModel
from ..tools import (
    LinkTool,
    PolygonTool,
    Selection,
    SelectTool,
    TestPathTool,
    Tool,
    WaypointTool,
)
from ..tools.base import delete_selection
from . import overlays
from .panel import PANEL_WIDTH, Panel
from .text import Texts

BACKGROUND = (24, 26, 32, 255)
MESSAGE_SECONDS = 6.0
GRID = 16.0  # world units between snap points
ZOOM_RANGE = (0.05, 20.0)


@dataclass
class Prompt:
    """A modal question at the bottom of the screen.

    With ``text`` not None it is a line input (Enter calls ``on_enter(text)``); otherwise ``keys``
    maps key names to actions. Escape cancels either.
    """

    title: str
    keys: dict[str, Callable[[], None]]
    text: str | None = None
    on_enter: Callable[[str], None] | None = None


# One table drives both the key handling and the help overlay: (shown keys, what, [(key, mods)], action).
KEYMAP: list[tuple[str, str, list[tuple[str, frozenset[str]]], str]] = []


def _key(shown: str, what: str, combos: list[tuple[str, str]], action: str) -> None:
    KEYMAP.append((shown, what, [(k, frozenset(m.split("+")) - {""}) for k, m in combos], action))


_key("S W O T L P", "tools: select, waypoint, obstacle, terrain, link, test path",
     [("S", ""), ("W", ""), ("O", ""), ("T", ""), ("L", ""), ("P", "")], "tool")
_key("C", "add corner waypoints for the agent radius", [("C", "")], "corners")
_key("F", "fill open areas with waypoints (fill spacing)", [("F", "")], "fill")
_key("G", "grid snap on / off", [("G", "")], "toggle_snap")
_key("D", "diagnostics overlay", [("D", "")], "toggle_diagnostics")
_key("N", "graph on / off", [("N", "")], "toggle_graph")
_key("M", "navigation mesh overlay on / off (test paths then search the mesh)", [("M", "")], "toggle_mesh")
_key("F1  ?", "this help", [("F1", ""), ("SLASH", "shift"), ("QUESTION", "")], "toggle_help")
_key("Del", "delete the selection (a corner, or the whole thing)", [("DELETE", ""), ("X", "")], "delete")
_key("Esc", "cancel the current drawing / deselect", [("ESCAPE", "")], "cancel")
_key("Ctrl+Z", "undo", [("Z", "ctrl")], "undo")
_key("Ctrl+Y  Ctrl+Shift+Z", "redo", [("Y", "ctrl"), ("Z", "ctrl+shift")], "redo")
_key("Ctrl+S", "save", [("S", "ctrl")], "save")
_key("Ctrl+Shift+S", "save as", [("S", "ctrl+shift")], "save_as")
_key("Ctrl+O", "open a level", [("O", "ctrl")], "open")
_key("Ctrl+I", "import a Tiled map", [("I", "ctrl")], "import_tiled")
_key("Ctrl+E", "export a PNG (level, graph, test path)", [("E", "ctrl")], "export")
_key("[  ]", "k (links per waypoint) - / +", [("BRACKETLEFT", ""), ("BRACKETRIGHT", "")], "k")
_key(",  .", "agent radius - / +", [("COMMA", ""), ("PERIOD", "")], "radius")
_key("-  =", "max link distance - / +", [("MINUS", ""), ("EQUAL", "")], "max_distance")
_key("Home", "fit the level in the view", [("HOME", "")], "fit")
_key("Arrows  middle drag", "pan", [("LEFT", ""), ("RIGHT", ""), ("UP", ""), ("DOWN", "")], "pan")
_key("Wheel  PgUp PgDn", "zoom", [("PAGEUP", ""), ("PAGEDOWN", "")], "zoom")
_key("Ctrl+Q", "quit (asks about unsaved changes)", [("Q", "ctrl")], "quit")


def key_name(symbol: int) -> str:
    """Stable key name: pyglet's symbol string ("W", "_1", "DELETE", "RETURN" ...)."""
    return pyglet.window.key.symbol_string(symbol)


def modifier_names(modifiers: int) -> frozenset[str]:
    names = set()
    if modifiers & arcade.key.MOD_SHIFT:
        names.add("shift")
    if modifiers & (arcade.key.MOD_CTRL | arcade.key.MOD_COMMAND):
        names.add("ctrl")
    if modifiers & arcade.key.MOD_ALT:
        names.add("alt")
    return frozenset(names)


class EditorView(arcade.View):
    """The level editor.

    Parameters
    ----------
    model : EditorModel
        The document.
    on_quit : callable, optional
        Called when the editor may close (changes saved or discarded). Default: nothing (tests).
    """

    def __init__(self, model: EditorModel, *, on_quit: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.model = model
        self.on_quit = on_quit or (lambda: None)
        self.quit_requested = False
        self.tools: dict[str, Tool] = {
            "S": SelectTool(self), "W": WaypointTool(self), "O": PolygonTool(self, "obstacle"),
            "T": PolygonTool(self, "terrain"), "L": LinkTool(self), "P": TestPathTool(self),
        }
        self.tool: Tool = self.tools["W"]
        self.selection: Selection | None = None
        self.snap_on = False
        self.show_graph = True
        self.show_diagnostics = False
        self.show_mesh = False
        self.show_help = False
        self.cursor: tuple[float, float] | None = None
        self.prompt: Prompt | None = None
        self.message = ""
        self.message_error = False
        self._message_time = 0.0
        self._panning = False
        self.texts = Texts()
        self.panel = Panel(self)
        self._shapes: Any = None
        self._shapes_key: Any = None
        self.focus = (0.0, 0.0)
        self.zoom = 1.0
        self.camera = arcade.camera.Camera2D()
        self.fit()

    # -- coordinates ------------------------------------------------------------------------------
    @property
    def world_width(self) -> int:
        """Width of the level area on screen (the side panel takes the rest)."""
        return max(self.window.width - PANEL_WIDTH, 100)

    def to_world(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.focus
        return (cx + (x - self.world_width / 2) / self.zoom, cy + (y - self.window.height / 2) / self.zoom)

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.focus
        return ((x - cx) * self.zoom + self.world_width / 2, (y - cy) * self.zoom + self.window.height / 2)

    @property
    def pick_radius(self) -> float:
        """World distance matching 8 screen pixels."""
        return 8.0 / self.zoom

    def snap(self, p: tuple[float, float]) -> tuple[float, float]:
        if not self.snap_on:
            return (float(p[0]), float(p[1]))
        return (round(p[0] / GRID) * GRID, round(p[1] / GRID) * GRID)

    def fit(self) -> None:
        """Centre the level and zoom so it fills the view with a margin."""
        x0, y0, x1, y1 = self.model.level.bounds.bounds
        self.focus = ((x0 + x1) / 2, (y0 + y1) / 2)
        self.zoom = 0.92 * min(self.world_width / max(x1 - x0, 1e-9), self.window.height / max(y1 - y0, 1e-9))

    def _sync_camera(self, width: int, height: int) -> None:
        self.camera.viewport = LBWH(0, 0, width, height)
        self.camera.zoom = 1.0  # the projection setter scales by the current zoom
        self.camera.projection = LBWH(-width / 2, -height / 2, width, height)
        self.camera.position = self.focus
        self.camera.zoom = self.zoom

    # -- messages and prompts ---------------------------------------------------------------------
    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` in the status line (red when ``error``)."""
        self.message, self.message_error, self._message_time = text, error, time.monotonic()

    def ask(self, title: str, keys: dict[str, Callable[[], None]]) -> None:
        self.prompt = Prompt(title, keys)

    def ask_text(self, title: str, initial: str, on_enter: Callable[[str], None]) -> None:
        self.prompt = Prompt(title, {}, initial, on_enter)

    def offer_recovery(self) -> None:
        """Ask whether to take the autosave a crashed session left behind."""
        found = self.model.recovery()
        if found is None:
            return
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(found.stat().st_mtime))

        def recover() -> None:
            try:
                self.model.recover()
            except (navmesh.NavmeshError, OSError) as exc:
                self.say(f"cannot recover: {exc}", error=True)
                return
            self.say(f"recovered unsaved work from {stamp}; save to keep it")

        def discard() -> None:
            self.model.discard_autosave()
            self.say("autosave discarded")

        self.ask(f"Unsaved work from {stamp} was found ({found.name}).  Y: recover it   N: discard it",
                 {"Y": recover, "N": discard})

    # -- commands (the KEYMAP actions and panel buttons) ------------------------------------------
    def set_tool(self, shortcut: str) -> None:
        self.tool.cancel()
        self.tool = self.tools[shortcut]
        self.say(f"{self.tool.name} tool: {self.tool.hint}")

    def undo(self) -> None:
        self.say("undone" if self.model.undo() else "nothing to undo")
        self._after_history()

    def redo(self) -> None:
        self.say("redone" if self.model.redo() else "nothing to redo")
        self._after_history()

    def _after_history(self) -> None:
        self.selection = None
        for tool in self.tools.values():
            if not isinstance(tool, TestPathTool):
                tool.cancel()

    def generate(self, what: str) -> None:
        s = self.model.settings
        before = self.model.level.n_waypoints
        if what == "corners":
            err = self.model.edit(edits.generate_corners, s.agent_radius)
        else:
            err = self.model.edit(edits.generate_fill, s.fill_spacing, s.agent_radius)
        if err is not None:
            self.say(err, error=True)
        else:
            self.say(f"{self.model.level.n_waypoints - before} {what} waypoints added")

    def change_setting(self, name: str, step: int) -> None:
        s = self.model.settings
        if name == "k":
            value: Any = max(1, (s.k or 8) + step)
        elif name == "agent_radius":
            value = max(0.0, s.agent_radius + 2.0 * step)
        elif name == "fill_spacing":
            value = max(8.0, s.fill_spacing + 8.0 * step)
        else:
            ladder = [50.0, 100.0, 150.0, 200.0, 300.0, 400.0, 600.0, 800.0, None]
            at = ladder.index(s.max_distance) if s.max_distance in ladder else len(ladder) - 1
            value = ladder[min(max(at + step, 0), len(ladder) - 1)]
        err = self.model.update_settings(**{name: value})
        self.say(err or f"{name} = {value if value is not None else 'no limit'}", error=err is not None)

    def save(self, then: Callable[[], None] | None = None) -> None:
        if self.model.path is None:
            self.save_as(then)
            return
        self._save_to(str(self.model.path), then)

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        initial = str(self.model.path) if self.model.path is not None else str(Path.cwd() / "level.json")
        self.ask_text("Save as (path, Enter to save):", initial, lambda text: self._save_to(text, then))

    def _save_to(self, path: str, then: Callable[[], None] | None = None) -> None:
        try:
            self.model.save(path)
        except (OSError, ValueError, navmesh.NavmeshError) as exc:
            self.say(f"NOT saved: {exc}. Your work is kept; try another place (Ctrl+Shift+S).", error=True)
            return
        self.say(f"saved {path}")
        if then is not None:
            then()

    def open_file(self, path: str) -> None:
        """Open a level file; on failure show why and keep the current level."""
        def go() -> None:
            try:
                self.model.open(path)
            except (OSError, navmesh.NavmeshError) as exc:
                self.say(f"cannot open {path}: {exc}", error=True)
                return
            self.selection = None
            self._after_history()
            self.fit()
            self.say(f"opened {path}")
            self.offer_recovery()

        self._unless_unsaved(go)

    def import_file(self, path: str) -> None:
        try:
            self.model.import_tiled(path)
        except (OSError, navmesh.NavmeshError) as exc:
            self.say(f"cannot import {path}: {exc}", error=True)
            return
        self.selection = None
        self.fit()
        self.say(f"imported {path} (Ctrl+Z undoes)")

    def _unless_unsaved(self, go: Callable[[], None]) -> None:
        if not self.model.dirty:
            go()
            return

        def discard() -> None:
            self.model.discard_autosave()
            go()

        self.ask(f"{self.model.title} has unsaved changes.  S: save first   D: discard them   Esc: cancel",
                 {"S": lambda: self.save(go), "D": discard})

    def request_close(self) -> None:
        """Close, asking first when there are unsaved changes (never loses work silently)."""
        def done() -> None:
            self.model.discard_autosave()
            self.quit_requested = True
            self.on_quit()

        self._unless_unsaved(done)

    def export_png(self, path: str) -> None:
        """Write the level with its graph and the test path (if any) as a PNG of the window's size."""
        try:
            overlays.export_png(self, path)
        except OSError as exc:
            self.say(f"NOT exported: {exc}", error=True)
            return
        self.say(f"exported {path}")

    def run_action(self, action: str, shown: str) -> None:
        if action == "tool":
            self.set_tool(shown)
        elif action in ("corners", "fill"):
            self.generate(action)
        elif action == "toggle_snap":
            self.snap_on = not self.snap_on
            self.say(f"grid snap {'on' if self.snap_on else 'off'} ({GRID:g} units)")
        elif action == "toggle_diagnostics":
            self.show_diagnostics = not self.show_diagnostics
        elif action == "toggle_graph":
            self.show_graph = not self.show_graph
        elif action == "toggle_mesh":
            self.show_mesh = not self.show_mesh
        elif action == "toggle_help":
            self.show_help = not self.show_help
        elif action == "delete":
            delete_selection(self)
        elif action == "cancel":
            self.tool.cancel()
            self.selection = None
            self.show_help = False
        elif action in ("undo", "redo", "save", "save_as", "fit"):
            getattr(self, action)()
        elif action == "open":
            self.ask_text("Open level (path):", str(self.model.path or Path.cwd()), self.open_file)
        elif action == "import_tiled":
            self.ask_text("Import Tiled map (.tmj / .tmx path):", str(Path.cwd()), self.import_file)
        elif action == "export":
            stem = self.model.path.with_suffix("") if self.model.path is not None else Path.cwd() / "level"
            self.ask_text("Export PNG to:", f"{stem}.png", self.export_png)
        elif action in ("k", "radius", "max_distance"):
            name = {"k": "k", "radius": "agent_radius", "max_distance": "max_distance"}[action]
            up = shown in ("BRACKETRIGHT", "PERIOD", "EQUAL")
            self.change_setting(name, 1 if up else -1)
        elif action == "pan":
            step = 60.0 / self.zoom
            dx, dy = {"LEFT": (-step, 0), "RIGHT": (step, 0), "UP": (0, step), "DOWN": (0, -step)}[shown]
            self.focus = (self.focus[0] + dx, self.focus[1] + dy)
        elif action == "zoom":
            self.zoom_at(1.25 if shown == "PAGEUP" else 0.8, None)
        elif action == "quit":
            self.request_close()

    def zoom_at(self, factor: float, screen: tuple[float, float] | None) -> None:
        """Zoom by ``factor`` keeping the world point under ``screen`` (default: centre) in place."""
        if screen is None:
            screen = (self.world_width / 2, self.window.height / 2)
        before = self.to_world(*screen)
        self.zoom = float(np.clip(self.zoom * factor, *ZOOM_RANGE))
        after = self.to_world(*screen)
        self.focus = (self.focus[0] + before[0] - after[0], self.focus[1] + before[1] - after[1])

    # -- input ------------------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        return self.press_key(key_name(symbol), modifier_names(modifiers))

    def press_key(self, name: str, mods: frozenset[str] = frozenset()) -> bool:
        """Handle a key by name (``key_name``) with modifier names; True when it was used."""
        if self.prompt is not None:
            self._prompt_key(name)
            return True
        mods = mods - {"alt"}
        if self.show_help and name not in ("F1", "SLASH", "QUESTION"):
            self.show_help = False
        if not mods and self.tool.on_key(name, mods):
            return True
        for _, _, combos, action in KEYMAP:
            if (name, mods) in combos:
                self.run_action(action, name)
                return True
        return self.tool.on_key(name, mods)

    def _prompt_key(self, name: str) -> None:
        p = self.prompt
        assert p is not None
        if name == "ESCAPE":
            self.prompt = None
            self.say("cancelled")
        elif p.text is not None:
            if name in ("RETURN", "ENTER") and p.on_enter is not None:
                self.prompt = None
                p.on_enter(p.text)
            elif name == "BACKSPACE":
                p.text = p.text[:-1]
        elif name in p.keys:
            self.prompt = None
            p.keys[name]()

    def on_text(self, text: str) -> None:
        if self.prompt is not None and self.prompt.text is not None and text.isprintable():
            self.prompt.text += text

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.prompt is not None:
            return
        if x >= self.world_width:
            self.panel.click(x, y)
            return
        if button == arcade.MOUSE_BUTTON_MIDDLE:
            self._panning = True
            return
        name = "right" if button == arcade.MOUSE_BUTTON_RIGHT else "left"
        self.cursor = self.to_world(x, y)
        self.tool.press(self.cursor, name, modifier_names(modifiers))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        if self._panning:
            self.focus = (self.focus[0] - dx / self.zoom, self.focus[1] - dy / self.zoom)
            return
        self.cursor = self.to_world(x, y)
        self.tool.motion(self.cursor)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self._panning:
            self._panning = False
            return
        self.tool.release(self.to_world(x, y))

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.cursor = self.to_world(x, y) if x < self.world_width else None

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        if x < self.world_width:
            self.zoom_at(1.15 ** scroll_y, (x, y))

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)

    # -- world-coordinate helpers for scripts and tests -------------------------------------------
    def click(self, x: float, y: float, button: str = "left", mods: frozenset[str] = frozenset()) -> None:
        """Press and release the mouse at world point (x, y), through the normal handlers."""
        sx, sy = self.to_screen(x, y)
        b = arcade.MOUSE_BUTTON_RIGHT if button == "right" else arcade.MOUSE_BUTTON_LEFT
        m = (arcade.key.MOD_CTRL if "ctrl" in mods else 0) | (arcade.key.MOD_SHIFT if "shift" in mods else 0)
        self.on_mouse_press(sx, sy, b, m)
        self.on_mouse_release(sx, sy, b, m)

    def drag_to(self, start: tuple[float, float], end: tuple[float, float], steps: int = 4) -> None:
        """Drag with the left button from world point ``start`` to ``end`` in ``steps`` moves."""
        sx, sy = self.to_screen(*start)
        ex, ey = self.to_screen(*end)
        self.on_mouse_press(sx, sy, arcade.MOUSE_BUTTON_LEFT, 0)
        px, py = sx, sy
        for i in range(1, steps + 1):
            x, y = sx + (ex - sx) * i / steps, sy + (ey - sy) * i / steps
            self.on_mouse_drag(x, y, x - px, y - py, arcade.MOUSE_BUTTON_LEFT, 0)
            px, py = x, y
        self.on_mouse_release(ex, ey, arcade.MOUSE_BUTTON_LEFT, 0)

    # -- frame --------------------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        if self.tool.drag is not None:
            self.tool.drag.flush()
        try:
            self.model.tick()
        except OSError as exc:
            self.say(f"autosave failed: {exc}", error=True)
        if self.message and not self.message_error and time.monotonic() - self._message_time > MESSAGE_SECONDS:
            self.message = ""

    def level_shapes(self) -> Any:
        """Cached shape lists of the level and graph (rebuilt when the model or zoom changes)."""
        key = (self.model.revision, self.zoom, self.show_graph, self.show_mesh)
        if key != self._shapes_key:
            z = self.zoom
            shapes = arcade_draw.level_shapes(self.model.level, outline_width=2.0 / z, waypoint_radius=4.0 / z)
            if self.show_mesh:
                for s in arcade_draw.polymesh_shapes(self.model.mesh(), line_width=1.0 / z):
                    shapes.append(s)
            if self.show_graph:
                for s in arcade_draw.graph_shapes(self.model.nav.graph, node_radius=2.5 / z, line_width=1.0 / z,
                                                  arrow_size=9.0 / z):
                    shapes.append(s)
            self._shapes, self._shapes_key = shapes, key
        return self._shapes

    def draw_world(self, width: int, height: int, *, marks: bool = True) -> None:
        """Draw the level, graph, overlays and tool marks with the world camera."""
        self._sync_camera(width, height)
        with self.camera.activate():
            if self.snap_on and marks:
                overlays.draw_grid(self, GRID)
            self.level_shapes().draw()
            overlays.draw_links(self)
            if self.show_diagnostics:
                overlays.draw_diagnostics(self)
            tp = self.tools["P"]
            if self.tool is tp or tp.start is not None and not marks:
                tp.draw()
            if marks:
                overlays.draw_selection(self)
                if self.tool is not tp:
                    self.tool.draw()

    def on_draw(self) -> None:
        self.clear(color=BACKGROUND)
        self.draw_world(self.world_width, self.window.height)
        self.window.default_camera.use()
        self.panel.draw()
        overlays.draw_status(self)
        self.texts.draw()
        if self.show_help:
            overlays.draw_help(self)
            self.texts.draw()
