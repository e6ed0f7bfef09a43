"""The demo's loading view in a real window: the bar is drawn, fills step by step, then the demo starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade

from demo_game.views.base import ACCENT
from demo_game.views.loading import BAR_EMPTY, BAR_WIDTH, LoadingView


def bar_colours(view: LoadingView, fractions: tuple[float, ...]) -> list[tuple[int, int, int]]:
    """Draw the view and read the bar's colour at ``fractions`` of its length (middle row)."""
    view.on_draw()
    image = arcade.get_image().convert("RGB")
    w, h = view.window.width, view.window.height
    left = (w - BAR_WIDTH * w) / 2
    row = image.height - round(h / 2 * image.height / h)
    scale = image.width / w
    return [image.getpixel((round((left + f * BAR_WIDTH * w) * scale), row)) for f in fractions]


def close(colour: tuple[int, int, int], expected: tuple[int, ...]) -> bool:
    return all(abs(a - b) <= 3 for a, b in zip(colour, expected[:3]))


def test_the_bar_fills_as_the_steps_finish_then_on_done_runs(window: Any, screenshot_dir: Path) -> None:
    started: list[bool] = []
    view = LoadingView(window, parts=["grid", "flowfield"], on_done=lambda: started.append(True))
    window.show_view(view)
    assert all(close(c, BAR_EMPTY) for c in bar_colours(view, (0.05, 0.5, 0.95)))
    fractions: list[float] = []
    shot_taken = False
    while not view.finished:
        view.advance()
        fractions.append(view.fraction)
        if not shot_taken and 0.3 < view.fraction < 0.8:
            start, end = bar_colours(view, (0.02, 0.98))
            assert close(start, ACCENT) and close(end, BAR_EMPTY)  # part filled
            arcade.get_image().save(screenshot_dir / "demo_loading.png")
            shot_taken = True
    assert shot_taken
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert view.total == 5  # the cache check, grid: 3 steps, flow field: 1
    assert all(close(c, ACCENT) for c in bar_colours(view, (0.05, 0.5, 0.95)))  # full
    assert started == [True]
    view.advance()
    assert started == [True]  # on_done runs once
