"""What every mode's view shares: fixed-step updates, FPS meter, help overlay, mode switching."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import arcade

import navmesh

from ..levels import VALLEY

BACKGROUND = (38, 52, 40)
PANEL = (12, 16, 22, 225)
TEXT = (235, 238, 245)
DIM_TEXT = (170, 178, 190)
ACCENT = (255, 215, 90)
FONT = ("DejaVu Sans", "Arial", "calibri")
MONO = ("DejaVu Sans Mono", "Consolas", "Courier New")

MODE_KEYS = {arcade.key.F2: "rts", arcade.key.F3: "visualiser", arcade.key.F4: "maze", arcade.key.F5: "flow"}

# The graph every waypoint mode searches: corner and fill waypoints for units up to radius 10.
BUILD_OPTIONS = {"k": 8, "agent_radius": 10.0, "corners": True, "fill_spacing": 110.0}
# A tile map cell is a wall when its centre lies this close to an obstacle (times the cell size).
GRID_MARGIN = 0.35
HEADER = 62  # px: the title bar at the top of every mode


def load_valley(path: Path = VALLEY) -> tuple[navmesh.Level, navmesh.NavMap]:
    """The bundled level and its navigation map."""
    level = navmesh.load_level(path)
    return level, navmesh.build_waypoint_graph(level, **BUILD_OPTIONS)


class FpsMeter:
    """Frames per second over the last second or so (exponential average of frame gaps)."""

    def __init__(self) -> None:
        self._last = time.perf_counter()
        self.fps = 0.0

    def tick(self) -> None:
        now = time.perf_counter()
        gap, self._last = now - self._last, now
        if gap > 0:
            self.fps = 1.0 / gap if self.fps == 0 else 0.9 * self.fps + 0.1 / gap


class DemoView(arcade.View):
    """Base view: ``on_update`` runs ``step(dt)`` (with a fixed dt in unattended runs), ``on_draw``
    clears, calls ``draw()`` and then the ``after_draw`` hook the app uses to count frames.

    Parameters
    ----------
    window : arcade.Window, optional
        The window (default: the current one).
    switch_mode : callable, optional
        Called with a mode name when the player presses F2-F5.
    help_lines : list of (str, str)
        The help overlay's rows, (keys, what they do) (F1 or H shows it).
    """

    title = ""
    hint = "F1 help"  # the line at the bottom left: what to try first

    def __init__(self, window: arcade.Window | None = None, *, switch_mode: Callable[[str], None] | None = None,
                 help_lines: list[tuple[str, str]] | None = None) -> None:
        super().__init__(window)
        self.switch_mode = switch_mode
        self.fixed_dt: float | None = None
        self.after_draw: Callable[[], None] | None = None
        self.fps = FpsMeter()
        self.show_help = False
        self.ui_camera = arcade.Camera2D()
        rows = [*(help_lines or []), ("", ""), ("F2 F3 F4 F5", "RTS, search visualiser, cat and mouse, flow field"),
                ("F1 / H", "show / hide this help")]
        pad = max(len(k) for k, _ in rows) + 2
        lines = [f"{self.title}  -  help", ""] + [f"{k:<{pad}}{v}".rstrip() for k, v in rows]
        self.help_text = arcade.Text("\n".join(lines), 0, 0, TEXT, 13, multiline=True, width=760, anchor_y="top",
                                     font_name=MONO)
        self.fps_text = arcade.Text("", 0, 0, DIM_TEXT, 12, anchor_x="right", font_name=FONT)
        self.hint_text = arcade.Text(self.hint, 0, 0, DIM_TEXT, 12, font_name=FONT)
        self.title_text = arcade.Text(f"navmesh demo  -  {self.title}", 10, 0, ACCENT, 16, bold=True, font_name=FONT)
        self.status_text = arcade.Text("", 10, 0, TEXT, 13, font_name=FONT)

    # -- arcade events ---------------------------------------------------------------------------
    def on_update(self, delta_time: float) -> None:
        self.step(self.fixed_dt if self.fixed_dt is not None else min(delta_time, 0.1))

    def on_draw(self) -> None:
        self.clear(color=BACKGROUND)
        self.fps.tick()
        self.draw()
        self.ui_camera.use()
        self.draw_hud()
        w, h = self.window.width, self.window.height
        self.fps_text.position = (w - 10, h - 22)
        self.fps_text.text = f"{self.fps.fps:5.0f} fps" + self.readout()
        self.fps_text.draw()
        self.hint_text.position = (10, 10)
        self.hint_text.draw()
        if self.show_help:
            self._draw_help()
        if self.after_draw is not None:
            self.after_draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in (arcade.key.F1, arcade.key.H):
            self.show_help = not self.show_help
        elif symbol in MODE_KEYS and self.switch_mode is not None:
            self.switch_mode(MODE_KEYS[symbol])
        else:
            self.key(symbol, modifiers)

    def on_resize(self, width: int, height: int) -> None:
        self.ui_camera.match_window()

    # -- for subclasses -----------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """Advance the simulation by ``dt`` seconds."""

    def draw(self) -> None:
        """Draw the world (the window is cleared already)."""

    def draw_hud(self) -> None:
        """Draw screen-space text (the UI camera is active)."""

    def readout(self) -> str:
        """Extra text after the FPS figure."""
        return ""

    def key(self, symbol: int, modifiers: int) -> None:
        """A key press that is not F1/H or a mode key."""

    # -- helpers ------------------------------------------------------------------------------------
    def draw_header(self, status: str) -> None:
        """The title bar: the mode's name and one status line (call from ``draw_hud``)."""
        w, h = self.window.width, self.window.height
        panel(0, h - HEADER, w, HEADER)
        self.title_text.position = (10, h - 26)
        self.title_text.draw()
        self.status_text.text = status
        self.status_text.position = (10, h - 52)
        self.status_text.draw()

    def _draw_help(self) -> None:
        w, h = self.window.width, self.window.height
        tw, th = self.help_text.content_width + 40, self.help_text.content_height + 40
        left, bottom = (w - tw) / 2, (h - th) / 2
        arcade.draw_lrbt_rectangle_filled(left, left + tw, bottom, bottom + th, PANEL)
        arcade.draw_lrbt_rectangle_outline(left, left + tw, bottom, bottom + th, ACCENT, 2)
        self.help_text.position = (left + 20, bottom + th - 20)
        self.help_text.draw()


def panel(left: float, bottom: float, width: float, height: float) -> None:
    """A translucent dark panel behind HUD text."""
    arcade.draw_lrbt_rectangle_filled(left, left + width, bottom, bottom + height, PANEL)
