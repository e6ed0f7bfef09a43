"""The editor's first view: :class:`navmesh.arcade_loading.LoadingView` in the editor's colours.

The colours are those of :mod:`.panel` and :mod:`.editor_view` (a test checks that they agree),
written out here so that the bar is drawn before the editor's own modules are imported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import arcade

from navmesh.arcade_loading import LoadingView

PARTS = ("waypoints",)  # graphs, test paths and traces: all the editor searches with
BACKGROUND = (24, 26, 32)
TEXT = (225, 228, 235)
DIM = (150, 156, 170)
BUTTON = (58, 63, 80)
ACTIVE = (70, 120, 200)


def loading_view(window: arcade.Window | None = None, *, steps: Sequence[tuple[str, Callable[[], Any]]] = (),
                 on_done: Callable[[], arcade.View | None]) -> LoadingView:
    """A loading view for the editor's kernels and its own ``steps`` (see ``LoadingView``)."""
    return LoadingView(window, parts=PARTS, steps=steps, on_done=on_done, title="navmesh editor",
                       background=BACKGROUND, bar=ACTIVE, bar_empty=BUTTON, text=TEXT, dim_text=DIM)
