"""What every example shares: a window, ``--frames N`` (quit after N frames) and ``--screenshot``.

Not navigation code: the examples import :func:`run` so that each file shows only its own idea.
"""

from __future__ import annotations

import argparse
from typing import Callable, Sequence

import arcade

WIDTH, HEIGHT = 800, 600


class ExampleView(arcade.View):
    """An ``arcade.View`` that can stop itself after a number of drawn frames."""

    frames: int | None = None
    screenshot: str | None = None
    drawn = 0

    def after_draw(self) -> None:
        """Call at the end of ``on_draw``: counts frames, saves the screenshot and quits when told."""
        self.drawn += 1
        if self.frames is not None and self.drawn >= self.frames:
            if self.screenshot:
                arcade.get_image(0, 0, *self.window.get_framebuffer_size()).save(self.screenshot)
            arcade.exit()


def run(make_view: Callable[[], ExampleView], title: str, argv: Sequence[str] | None = None) -> None:
    """Parse ``--frames`` / ``--screenshot``, open the window and run the view."""
    parser = argparse.ArgumentParser(description=title)
    parser.add_argument("--frames", type=int, default=None, help="quit after drawing this many frames")
    parser.add_argument("--screenshot", default=None, help="with --frames: save the last frame to this PNG")
    args = parser.parse_args(argv)
    window = arcade.Window(WIDTH, HEIGHT, title)
    view = make_view()
    view.frames, view.screenshot = args.frames, args.screenshot
    window.show_view(view)
    arcade.run()
