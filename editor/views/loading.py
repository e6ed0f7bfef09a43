"""The editor's first view: a progress bar while navmesh prepares its kernels, then the editor.

``navmesh.warm_up_steps`` does one short step per frame (a helper process compiles on a fresh
installation), so the window draws from the start instead of showing a frozen frame.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

import navmesh

from .editor_view import BACKGROUND
from .panel import ACTIVE, BUTTON, DIM, HEAD, TEXT
from .text import Texts

PARTS = ("waypoints",)  # graphs, test paths and traces: all the editor searches with
BAR_HEIGHT = 20


class LoadingView(arcade.View):
    """Drives ``navmesh.warm_up_steps(PARTS)`` one step per update; calls ``on_done()`` at the end."""

    def __init__(self, window: arcade.Window | None = None, *, on_done: Callable[[], None]) -> None:
        super().__init__(window)
        self.steps = navmesh.warm_up_steps(PARTS)
        self.on_done = on_done
        self.done, self.total, self.step_name = 0, 1, "starting"
        self.finished = False
        self.texts = Texts()

    @property
    def fraction(self) -> float:
        """How much of the work is done, 0 to 1."""
        return self.done / self.total if self.total else 1.0

    def advance(self) -> None:
        """Do one step (one short piece of work, or one look at the helper process)."""
        if self.finished:
            return
        try:
            self.done, self.total, self.step_name = next(self.steps)
        except StopIteration:
            self.finished = True
            self.on_done()

    def on_update(self, delta_time: float) -> None:
        self.advance()

    def on_draw(self) -> None:
        self.clear(color=BACKGROUND)
        w, h = self.window.width, self.window.height
        bar_w = 0.5 * w
        left, bottom = (w - bar_w) / 2, h / 2 - BAR_HEIGHT / 2
        arcade.draw_lrbt_rectangle_filled(left, left + bar_w, bottom, bottom + BAR_HEIGHT, BUTTON)
        if self.fraction > 0:
            arcade.draw_lrbt_rectangle_filled(left, left + bar_w * self.fraction, bottom, bottom + BAR_HEIGHT, ACTIVE)
        arcade.draw_lrbt_rectangle_outline(left, left + bar_w, bottom, bottom + BAR_HEIGHT, TEXT, 1)
        self.texts.put("title", "navmesh editor", left, bottom + BAR_HEIGHT + 44, color=HEAD, size=20, bold=True)
        self.texts.put("step", f"{self.step_name or 'done'}  ({self.done} of {self.total})", left, bottom - 12,
                       color=TEXT, size=12)
        self.texts.put("note", "preparing the path-finding kernels (compiled once per installation)", left,
                       bottom - 36, color=DIM, size=10)
        self.texts.draw()

    def on_hide_view(self) -> None:
        self.steps.close()  # stops a helper process still compiling (the window closed early)
