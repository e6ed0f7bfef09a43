"""The loading view: a progress bar while navmesh compiles (or loads) its kernels, then the demo.

``navmesh.warm_up_steps`` does one short step per frame; on a fresh installation a helper
process compiles while this view keeps drawing, so the window never shows a frozen frame.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import arcade

import navmesh

from .base import ACCENT, BACKGROUND, DIM_TEXT, FONT, TEXT

BAR_EMPTY = (60, 72, 62)
BAR_WIDTH = 0.6  # of the window width
BAR_HEIGHT = 22


class LoadingView(arcade.View):
    """Drives ``navmesh.warm_up_steps(parts)`` one step per update and draws its progress.

    Parameters
    ----------
    window : arcade.Window, optional
        The window (default: the current one).
    parts : iterable of str
        The navmesh warm-up parts the program uses.
    on_done : callable
        Called once, with no arguments, when every step has finished (it shows the next view).
    title : str
        The heading above the bar.
    """

    def __init__(self, window: arcade.Window | None = None, *, parts: Iterable[str],
                 on_done: Callable[[], None], title: str = "navmesh demo") -> None:
        super().__init__(window)
        self.steps = navmesh.warm_up_steps(parts)
        self.on_done = on_done
        self.done, self.total, self.step_name = 0, 1, "starting"
        self.finished = False
        self.started = time.perf_counter()
        self.frames = 0
        self.first_drawn = 0.0  # Unix time of the first frame drawn (for start-up reports)
        self.frame_gaps: list[float] = []  # seconds between frames drawn
        self._last_frame: float | None = None
        self.title_text = arcade.Text(title, 0, 0, ACCENT, 28, bold=True, anchor_x="center", font_name=FONT)
        self.step_text = arcade.Text("", 0, 0, TEXT, 14, anchor_x="center", font_name=FONT)
        self.note_text = arcade.Text("preparing the path-finding kernels (compiled once per installation, "
                                     "then loaded from the cache)", 0, 0, DIM_TEXT, 12, anchor_x="center",
                                     font_name=FONT)

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
        if self.frames == 0:
            self.first_drawn = time.time()
        now = time.perf_counter()
        if self._last_frame is not None:
            self.frame_gaps.append(now - self._last_frame)
        self._last_frame = now
        self.frames += 1
        w, h = self.window.width, self.window.height
        bar_w = BAR_WIDTH * w
        left, bottom = (w - bar_w) / 2, h / 2 - BAR_HEIGHT / 2
        arcade.draw_lrbt_rectangle_filled(left, left + bar_w, bottom, bottom + BAR_HEIGHT, BAR_EMPTY)
        if self.fraction > 0:
            arcade.draw_lrbt_rectangle_filled(left, left + bar_w * self.fraction, bottom, bottom + BAR_HEIGHT, ACCENT)
        arcade.draw_lrbt_rectangle_outline(left, left + bar_w, bottom, bottom + BAR_HEIGHT, TEXT, 2)
        self.title_text.position = (w / 2, bottom + BAR_HEIGHT + 48)
        self.title_text.draw()
        seconds = time.perf_counter() - self.started
        label = self.step_name or "done"
        self.step_text.text = f"{label}   ({self.done} of {self.total}, {seconds:.0f} s)"
        self.step_text.position = (w / 2, bottom - 34)
        self.step_text.draw()
        self.note_text.position = (w / 2, bottom - 62)
        self.note_text.draw()

    def on_hide_view(self) -> None:
        self.steps.close()  # stops a helper process still compiling (the window closed early)
