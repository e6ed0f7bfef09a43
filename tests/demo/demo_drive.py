"""Helpers for driving the demo's views in the session's hidden window (``window`` fixture)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

arcade = pytest.importorskip("arcade")

DT = 1 / 60
TOL = 4  # 8-bit rounding of blended colours


def screen(view: Any, point: Any) -> tuple[float, float]:
    """Screen pixel of a world point under the view's world camera."""
    p = view.camera.project((float(point[0]), float(point[1])))
    return float(p[0]), float(p[1])


def drag(view: Any, a: tuple[float, float], b: tuple[float, float], *, modifiers: int = 0) -> None:
    """A left-button drag from screen pixel ``a`` to ``b``, in a few mouse-move steps."""
    view.on_mouse_press(a[0], a[1], arcade.MOUSE_BUTTON_LEFT, modifiers)
    for t in (0.25, 0.5, 0.75, 1.0):
        x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
        view.on_mouse_drag(x, y, 1, 1, arcade.MOUSE_BUTTON_LEFT, modifiers)
    view.on_mouse_release(b[0], b[1], arcade.MOUSE_BUTTON_LEFT, modifiers)


def click(view: Any, p: tuple[float, float], button: int, *, modifiers: int = 0) -> None:
    view.on_mouse_press(p[0], p[1], button, modifiers)
    view.on_mouse_release(p[0], p[1], button, modifiers)


def frame(window: Any, view: Any) -> Any:
    """Draw one frame of ``view`` and return it as a PIL image."""
    window.show_view(view)
    view.on_draw()
    return arcade.get_image()


def pixel(image: Any, x: float, y: float) -> tuple[int, int, int]:
    """RGB at screen pixel (x, y) (y up, as arcade counts)."""
    return image.getpixel((int(x), image.height - 1 - int(y)))[:3]


def close_to(got: tuple[int, ...], want: tuple[float, ...], tol: float = TOL) -> bool:
    return all(abs(g - w) <= tol for g, w in zip(got, want))


def blend(color: tuple[int, ...], under: tuple[int, ...]) -> tuple[float, ...]:
    """``color`` (with alpha) drawn over ``under``."""
    a = color[3] / 255 if len(color) == 4 else 1.0
    return tuple(a * c + (1 - a) * u for c, u in zip(color[:3], under[:3]))


def run(view: Any, frames: int, *, until: Any = None) -> int:
    """Call ``on_update(DT)`` up to ``frames`` times (stopping early when ``until()`` is true)."""
    for i in range(frames):
        view.on_update(DT)
        if until is not None and until():
            return i + 1
    return frames


def make_rts(window: Any, **options: Any) -> Any:
    """An RTS view built with ``options`` and shown in the session's window."""
    from demo_game.views.rts import RtsView

    view = RtsView(window, **options)
    window.show_view(view)
    return view


def blue(view: Any, kind: Any) -> np.ndarray:
    """Ids of the blue team's units of type ``kind``."""
    from demo_game.units import UNIT_TYPES

    a = view.army
    return np.flatnonzero((a.teams == 0) & (a.kinds == UNIT_TYPES.index(kind)))
