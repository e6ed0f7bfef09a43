"""The editor's first view in a real window: the editor's colours, a bar that fills, then the editor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade

from editor.views import editor_view, panel
from editor.views import loading as editor_loading
from navmesh.arcade_loading import BAR_WIDTH, LoadingView


def colour_at(view: LoadingView, fraction: float) -> tuple[int, int, int]:
    view.on_draw()
    image = arcade.get_image().convert("RGB")
    w, h = view.window.width, view.window.height
    scale = image.width / w
    x = (w - BAR_WIDTH * w) / 2 + fraction * BAR_WIDTH * w
    return image.getpixel((round(x * scale), image.height - round(h / 2 * scale)))


def test_the_loading_colours_are_the_editors() -> None:
    for name in ("TEXT", "DIM", "BUTTON", "ACTIVE"):
        assert getattr(editor_loading, name) == getattr(panel, name)[:3], name
    assert editor_loading.BACKGROUND == editor_view.BACKGROUND[:3]


def test_the_bar_fills_and_the_editor_follows(window: Any, screenshot_dir: Path) -> None:
    assert editor_loading.PARTS == ("waypoints",)
    started: list[bool] = []
    view = editor_loading.loading_view(window, steps=[("open", lambda: None)], on_done=lambda: started.append(True))
    window.show_view(view)
    assert colour_at(view, 0.1) == editor_loading.BUTTON
    seen_partial = False
    while not view.finished:
        view.advance()
        if 0 < view.fraction < 1 and not seen_partial:
            assert colour_at(view, 0.02) == editor_loading.ACTIVE and colour_at(view, 0.98) == editor_loading.BUTTON
            arcade.get_image().save(screenshot_dir / "editor_loading.png")
            seen_partial = True
    assert seen_partial
    assert colour_at(view, 0.98) == editor_loading.ACTIVE
    assert started == [True]
