"""The demo's first view: :class:`navmesh.arcade_loading.LoadingView` in the demo's colours.

The colours are those of :mod:`.base` (a test checks that they agree), written out here so that
the loading view is drawn before ``base``'s imports (shapely, the levels) are paid for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import arcade

from navmesh.arcade_loading import LoadingView

BACKGROUND = (38, 52, 40)
TEXT = (235, 238, 245)
DIM_TEXT = (170, 178, 190)
ACCENT = (255, 215, 90)
FONT = ("DejaVu Sans", "Arial", "calibri")
BAR_EMPTY = (60, 72, 62)


def loading_view(window: arcade.Window | None = None, *, parts: Iterable[str],
                 steps: Sequence[tuple[str, Callable[[], Any]]] = (),
                 on_done: Callable[[], arcade.View | None], title: str = "navmesh demo",
                 loader: Any = None, load: bool = True) -> LoadingView:
    """A loading view for ``parts`` and the demo's own ``steps`` (see ``LoadingView``; ``loader``
    and ``load`` as there)."""
    return LoadingView(window, parts=parts, steps=steps, on_done=on_done, title=title, background=BACKGROUND,
                       bar=ACCENT, bar_empty=BAR_EMPTY, text=TEXT, dim_text=DIM_TEXT, font_name=FONT,
                       loader=loader, load=load)
