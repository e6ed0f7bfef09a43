"""A loading view for arcade games: navmesh's kernels load (or compile) between frames.

:class:`LoadingView` is the first view a game shows. It draws a progress bar at once, then on
each frame does one short step of :func:`navmesh.warm_up_steps` (importing navmesh's kernels,
loading them from numba's cache, or, on a fresh installation, waiting for the helper processes
that compile them), then the game's own loading steps (building a level, say), one per frame,
and finally calls ``on_done`` to show the game. The window never shows a frozen frame while the
kernels compile.

A game that should start before every kernel is loaded shares one
:class:`navmesh.warmup.KernelLoader`: its first loading view waits only until the first screen's
parts are compiled (``load=False``: numba's cache holds them, so the screen's own first calls
merely load them), the game keeps calling ``loader.step()`` between frames, and a screen whose
parts are not loaded yet gets a loading view of its own on the same loader (``load=True``).

This module imports arcade (like :mod:`navmesh.arcade_draw`) and nothing heavy from navmesh
until its first step, so the first frame comes quickly.

Examples
--------
A game's ``main``::

    window = arcade.Window(1280, 720, "my game")
    level = {}
    window.show_view(LoadingView(
        parts=["waypoints", "steering"],
        steps=[("level", lambda: level.update(nav=build_my_level()))],
        on_done=lambda: GameView(level["nav"]),
    ))
    arcade.run()
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import arcade

from navmesh._checks import describe
from navmesh.errors import InvalidOptionError

__all__ = ["LoadingView"]

Colour = tuple[int, int, int] | tuple[int, int, int, int]

BAR_WIDTH = 0.6  # of the window width
BAR_HEIGHT = 22  # pixels
DRAW_RATE = 1 / 12  # seconds between the loading view's frames: a progress bar needs no more, and
# a window drawn at 60 frames per second (software OpenGL on some machines) took most of a core
# from the helper processes compiling the kernels
WAIT_DRAW_RATE = 1 / 4  # while the view only waits for helper processes compiling the kernels: each
# frame of software OpenGL (Xvfb) cost about 35 ms of CPU, which at 12 frames a second delayed a
# cold start of the demo by about 9 s; the bar still moves within a quarter second of a step
NOTE = "preparing the path-finding kernels (compiled once per installation, then loaded from the cache)"


class LoadingView(arcade.View):
    """Loads navmesh's kernels and the game's own data one step per frame, drawing a progress bar.

    Parameters
    ----------
    window : arcade.Window, optional
        The window (default: the current one).
    parts : iterable of str
        The :func:`navmesh.warm_up` parts to wait for (default: all of them, or all of
        ``loader``'s).
    steps : sequence of (str, callable), optional
        The game's own loading work after the kernels: (label, function of no arguments), each
        run in a frame of its own and counted in the bar.
    on_done : callable
        Called once, with no arguments, after the last step. When it returns an
        ``arcade.View``, that view is shown.
    title : str
        The heading above the bar.
    note : str
        The small line under the bar.
    background, bar, bar_empty, text, dim_text : colour tuples
        RGB(A) colours of the background, the filled and the empty part of the bar, the title
        and step line, and the note.
    font_name : str or tuple of str
        Font(s) for the texts.
    loader : navmesh.warmup.KernelLoader, optional
        A loader shared with the game (default: the view makes its own over ``parts`` at its
        first step and stops its helper processes when it is hidden). A shared loader is never
        stopped here; ``parts`` must be among its parts.
    load : bool
        Wait until the steps of ``parts`` have run in this process (default), or with False only
        until their kernels are compiled into numba's cache (the game's own steps then load the
        kernels they use; the rest is left to ``loader.step()`` calls later).

    Raises
    ------
    InvalidOptionError
        ``on_done`` or a step's function is not callable, or a step is not a (label, callable)
        pair. An unknown part is reported by :func:`navmesh.warm_up_steps` at the first step.

    Notes
    -----
    ``frames``, ``first_drawn`` (Unix time of the first frame), ``first_drawn_cpu`` (the
    process's CPU seconds then) and ``frame_gaps`` (seconds between frames) record how soon and
    how smoothly the loading view was drawn, for start-up reports. While shown, the view draws
    12 frames a second at most (:data:`DRAW_RATE`), and 4 while it only waits for helper processes
    compiling the kernels (:data:`WAIT_DRAW_RATE`), leaving the CPU to the compiling; the window's
    own draw rate comes back when it is hidden.
    """

    def __init__(
        self,
        window: arcade.Window | None = None,
        *,
        parts: Iterable[str] | None = None,
        steps: Sequence[tuple[str, Callable[[], Any]]] = (),
        on_done: Callable[[], arcade.View | None],
        title: str = "loading",
        note: str = NOTE,
        background: Colour = (24, 26, 32),
        bar: Colour = (70, 120, 200),
        bar_empty: Colour = (58, 63, 80),
        text: Colour = (225, 228, 235),
        dim_text: Colour = (150, 156, 170),
        font_name: str | tuple[str, ...] = ("DejaVu Sans", "Arial", "calibri"),
        loader: Any = None,
        load: bool = True,
    ) -> None:
        super().__init__(window)
        if not callable(on_done):
            raise InvalidOptionError(f"on_done={describe(on_done)} is not valid; expected a callable")
        own = list(steps)
        for step in own:
            if not (isinstance(step, tuple) and len(step) == 2 and isinstance(step[0], str) and callable(step[1])):
                raise InvalidOptionError(
                    f"steps entry {describe(step)} is not valid; expected a (label, callable) pair"
                )
        if not isinstance(load, bool):
            raise InvalidOptionError(f"load={describe(load)} is not valid; expected True or False")
        self.parts = None if parts is None else list(parts)
        self.loader = loader
        self.load = load
        self._own_loader = loader is None
        self._own_next = -1  # the game's step announced (-1: still on the kernels)
        self.own_steps = own
        self.on_done = on_done
        self.colours = {"background": background, "bar": bar, "bar_empty": bar_empty}
        self.done, self.total, self.step_name = 0, 1 + len(own), "starting navmesh"
        self.finished = False
        self.started = time.perf_counter()
        self.frames = 0
        self.first_drawn = 0.0
        self.first_drawn_cpu = 0.0
        self.frame_gaps: list[float] = []
        self._last_frame: float | None = None
        self._started = False
        self._game_draw_rate: float | None = None  # the window's draw rate before this view
        self._own_draw_rate: float | None = None
        self._shown = False  # between on_show_view and on_hide_view (the view sets the draw rate)
        self.title_text = arcade.Text(title, 0, 0, text, 26, bold=True, anchor_x="center", font_name=font_name)
        self.step_text = arcade.Text("", 0, 0, text, 14, anchor_x="center", font_name=font_name)
        self.note_text = arcade.Text(note, 0, 0, dim_text, 11, anchor_x="center", font_name=font_name)

    @property
    def fraction(self) -> float:
        """How much of the work is done, 0 to 1."""
        return self.done / self.total if self.total else 1.0

    def _kernel_progress(self) -> tuple[int, int, bool]:
        """(steps done, steps to wait for, ready) of the kernels this view waits for."""
        loader = self.loader
        parts = loader.parts if self.parts is None else self.parts
        if self.load:
            last = max(i for i, (part, _, _) in enumerate(loader.plan) if part in parts or i == 0) + 1
            done = min(loader.done, last)
            return done, last, done == last
        n = len([1 for part, _, _ in loader.plan if part in parts])
        if loader.done == 0:
            return 0, 1 + n, False
        compiled = loader.compiled_steps(parts)
        return 1 + compiled, 1 + n, compiled == n

    def _show_kernels(self) -> bool:
        done, total, ready = self._kernel_progress()
        self.total = total + len(self.own_steps)
        self.done = done
        self.step_name = self.loader.name or "kernels ready"
        return ready

    def _announce_own(self, index: int) -> None:
        _, kernel_total, _ = self._kernel_progress()
        self._own_next = index
        self.done = kernel_total + index
        self.step_name = self.own_steps[index][0]

    def _finish(self) -> None:
        self.done, self.step_name = self.total, ""
        self.finished = True
        following = self.on_done()
        if isinstance(following, arcade.View):
            self.window.show_view(following)

    def advance(self) -> None:
        """Do one step: a piece of the kernels' warm-up (or one look at the helper processes
        compiling them), or one of the game's own steps; after the last, call ``on_done``.

        Each step is announced (its name drawn) one frame before it runs."""
        if self.finished:
            return
        if not self._started:  # the first step: numba's import (the loader's first step's work follows)
            self._started = True
            if self.loader is None:
                from navmesh.warmup import PARTS, KernelLoader

                self.loader = KernelLoader(PARTS if self.parts is None else self.parts)
            elif self.parts is not None:
                self.loader.compiled(self.parts)  # an unknown part: a clear error now
            if not self._show_kernels():
                return
        elif self._own_next < 0:
            self._pace(DRAW_RATE if self.loader.step() else WAIT_DRAW_RATE)
            if not self._show_kernels():
                return
        else:
            _, work = self.own_steps[self._own_next]
            work()
            self._own_next += 1
        if self._own_next < 0:
            self._own_next = 0
        if self._own_next < len(self.own_steps):
            self._announce_own(self._own_next)
        else:
            self._finish()

    def on_update(self, delta_time: float) -> None:
        if self.frames > 0:  # the first frame is drawn before any work
            self.advance()

    def on_draw(self) -> None:
        self.clear(color=self.colours["background"])
        now = time.perf_counter()
        if self.frames == 0:
            self.first_drawn = time.time()
            self.first_drawn_cpu = time.process_time()
        else:
            self.frame_gaps.append(now - self._last_frame)  # type: ignore[operator]
        self._last_frame = now
        self.frames += 1
        w, h = self.window.width, self.window.height
        bar_w = BAR_WIDTH * w
        left, bottom = (w - bar_w) / 2, h / 2 - BAR_HEIGHT / 2
        arcade.draw_lrbt_rectangle_filled(left, left + bar_w, bottom, bottom + BAR_HEIGHT, self.colours["bar_empty"])
        if self.fraction > 0:
            arcade.draw_lrbt_rectangle_filled(left, left + bar_w * self.fraction, bottom, bottom + BAR_HEIGHT,
                                              self.colours["bar"])
        self.title_text.position = (w / 2, bottom + BAR_HEIGHT + 44)
        self.title_text.draw()
        seconds = time.perf_counter() - self.started
        line = f"{self.step_name or 'done'}   ({self.done} of {self.total}, {seconds:.0f} s)"
        if self.step_text.text != line:  # a new layout only when the line changes
            self.step_text.text = line
        self.step_text.position = (w / 2, bottom - 32)
        self.step_text.draw()
        self.note_text.position = (w / 2, bottom - 58)
        self.note_text.draw()

    def _pace(self, rate: float) -> None:
        """Draw a frame every ``rate`` seconds (never faster than the game's own rate) while shown."""
        if not self._shown:
            return
        rate = max(rate, self._game_draw_rate or 0.0)
        if self._own_draw_rate != rate:
            self.window.set_draw_rate(rate)
            self._own_draw_rate = getattr(self.window, "_draw_rate", rate)

    def on_show_view(self) -> None:
        # arcade has no public getter for the draw rate: remember it to give it back on hide
        self._game_draw_rate = getattr(self.window, "_draw_rate", None)
        self._own_draw_rate = None  # (shown again: the game's rate came back at the last hide)
        self._shown = True
        self._pace(DRAW_RATE)

    def on_hide_view(self) -> None:
        # the game's rate comes back, unless the game set one of its own meanwhile (in on_done)
        self._shown = False
        if self._game_draw_rate is not None and getattr(self.window, "_draw_rate", None) == self._own_draw_rate:
            self.window.set_draw_rate(self._game_draw_rate)
        if self._own_loader and self.loader is not None:
            self.loader.close()  # stops helper processes still compiling (the window closed early)
