"""The editor's first view in a real window: a progress bar that fills, then the editor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import arcade

from editor.views.loading import PARTS, LoadingView
from editor.views.panel import ACTIVE, BUTTON


def colour_at(view: LoadingView, fraction: float) -> tuple[int, int, int]:
    view.on_draw()
    image = arcade.get_image().convert("RGB")
    w, h = view.window.width, view.window.height
    scale = image.width / w
    x = (w - 0.5 * w) / 2 + fraction * 0.5 * w
    return image.getpixel((round(x * scale), image.height - round(h / 2 * scale)))


def test_the_bar_fills_and_the_editor_follows(window: Any, screenshot_dir: Path) -> None:
    assert PARTS == ("waypoints",)
    started: list[bool] = []
    view = LoadingView(window, on_done=lambda: started.append(True))
    window.show_view(view)
    assert colour_at(view, 0.1) == BUTTON[:3]
    seen_partial = False
    while not view.finished:
        view.advance()
        if 0 < view.fraction < 1 and not seen_partial:
            assert colour_at(view, 0.02) == ACTIVE[:3] and colour_at(view, 0.98) == BUTTON[:3]
            arcade.get_image().save(screenshot_dir / "editor_loading.png")
            seen_partial = True
    assert seen_partial
    assert colour_at(view, 0.98) == ACTIVE[:3]
    assert started == [True]
