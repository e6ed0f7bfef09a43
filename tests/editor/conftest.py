"""A fresh editor view on the session's hidden window for each test, with its own state folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import navmesh


@pytest.fixture
def make_editor(window: Any, tmp_path: Path) -> Iterator[Any]:
    """``make_editor(level=None, path=None)`` -> an EditorView shown in the session window."""
    from editor.model import EditorModel
    from editor.views.editor_view import EditorView

    def make(level: navmesh.Level | None = None, path: Path | None = None) -> EditorView:
        model = EditorModel(level if level is not None else navmesh.Level.rectangle(400, 300), path=path,
                            state_dir=tmp_path / "state")
        view = EditorView(model)
        window.show_view(view)
        # zoom 1 around a whole-number centre: world -> screen -> world is exact, so clicks land
        # on the very coordinates the tests name
        x0, y0, x1, y1 = model.level.bounds.bounds
        view.zoom, view.focus = 1.0, (float((x0 + x1) // 2), float((y0 + y1) // 2))
        return view

    yield make
