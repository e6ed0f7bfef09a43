"""The demo's loading view in a real window: the demo's colours, the bar fills step by step (the
kernels, then building the first mode's level), then the demo starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade

from demo_game.views import base
from demo_game.views import loading as demo_loading
from navmesh.arcade_loading import BAR_WIDTH, LoadingView


def bar_colours(view: LoadingView, fractions: tuple[float, ...]) -> list[tuple[int, int, int]]:
    """Draw the view and read the bar's colour at ``fractions`` of its length (middle row)."""
    view.on_draw()
    image = arcade.get_image().convert("RGB")
    w, h = view.window.width, view.window.height
    scale = image.width / w
    left = (w - BAR_WIDTH * w) / 2
    row = image.height - round(h / 2 * scale)
    return [image.getpixel((round((left + f * BAR_WIDTH * w) * scale), row)) for f in fractions]


def close(colour: tuple[int, int, int], expected: tuple[int, ...]) -> bool:
    return all(abs(a - b) <= 3 for a, b in zip(colour, expected[:3]))


def test_the_loading_colours_are_the_demos() -> None:
    for name in ("BACKGROUND", "TEXT", "DIM_TEXT", "ACCENT", "FONT"):
        assert getattr(demo_loading, name) == getattr(base, name), name


def test_the_bar_fills_as_the_steps_finish_then_on_done_runs(window: Any, screenshot_dir: Path) -> None:
    started: list[bool] = []
    built: list[bool] = []
    view = demo_loading.loading_view(window, parts=["grid", "flowfield"], steps=[("level", lambda: built.append(True))],
                                     on_done=lambda: started.append(True))
    window.show_view(view)
    assert all(close(c, demo_loading.BAR_EMPTY) for c in bar_colours(view, (0.05, 0.5, 0.95)))
    fractions: list[float] = []
    shot_taken = False
    while not view.finished:
        view.advance()
        fractions.append(view.fraction)
        if not shot_taken and 0.3 < view.fraction < 0.8:
            start, end = bar_colours(view, (0.02, 0.98))
            assert close(start, base.ACCENT) and close(end, demo_loading.BAR_EMPTY)  # part filled
            arcade.get_image().save(screenshot_dir / "demo_loading.png")
            shot_taken = True
    assert shot_taken
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert view.total == 6  # the cache check, grid: 3 steps, flow field: 1, the level
    assert all(close(c, base.ACCENT) for c in bar_colours(view, (0.05, 0.5, 0.95)))  # full
    assert built == [True] and started == [True]
    view.advance()
    assert started == [True]  # on_done runs once
