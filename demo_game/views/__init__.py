"""One ``arcade.View`` per mode of the demo: RTS, search visualiser, cat and mouse, flow field."""

from __future__ import annotations

from typing import Any

import arcade

MODES: tuple[str, ...] = ("rts", "visualiser", "maze", "flow")

# The navmesh.warm_up parts each mode searches with (a mode is shown once they are loaded).
MODE_PARTS: dict[str, tuple[str, ...]] = {
    "rts": ("waypoints", "steering"),
    "visualiser": ("waypoints",),
    "maze": ("grid",),
    "flow": ("grid", "flowfield", "steering"),
}
# What the RTS view's optional features need beyond its mode's parts: the flow-field overlay (R)
# and routing on the navigation mesh (N).
FEATURE_PARTS: dict[str, tuple[str, ...]] = {"flow": ("grid", "flowfield"), "mesh": ("mesh",)}


def make_view(mode: str, window: arcade.Window | None = None, **options: Any) -> arcade.View:
    """The view of ``mode`` (one of :data:`MODES`); ``options`` go to its constructor."""
    if mode == "rts":
        from .rts import RtsView as cls
    elif mode == "visualiser":
        from .visualiser import VisualiserView as cls
    elif mode == "maze":
        from .maze import MazeView as cls
    elif mode == "flow":
        from .flow import FlowView as cls
    else:
        raise ValueError(f"mode={mode!r} is not valid; expected one of {', '.join(MODES)}")
    return cls(window, **options)


__all__ = ["FEATURE_PARTS", "MODES", "MODE_PARTS", "make_view"]
