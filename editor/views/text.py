"""Screen text that is laid out once and only re-laid out when it changes (arcade.Text is costly)."""

from __future__ import annotations

import arcade

FONT = ("DejaVu Sans", "Arial", "calibri")


class Texts:
    """A pool of ``arcade.Text`` objects keyed by slot; ``put`` this frame's lines, then ``draw``."""

    def __init__(self) -> None:
        self._pool: dict[str, arcade.Text] = {}
        self._used: list[str] = []

    def put(self, slot: str, text: str, x: float, y: float, *, color=(230, 230, 230, 255), size: float = 10,
            bold: bool = False, width: int | None = None) -> arcade.Text:
        t = self._pool.get(slot)
        if t is None or t.bold != bold or t.font_size != size or (t.multiline != (width is not None)):
            t = arcade.Text(text, x, y, color, size, width=width, multiline=width is not None, font_name=FONT,
                            bold=bold, anchor_y="top")
            self._pool[slot] = t
        else:
            if t.text != text:
                t.text = text
            if (t.x, t.y) != (x, y):
                t.position = (x, y)
            if tuple(t.color) != tuple(color):
                t.color = color
            if width is not None and t.width != width:
                t.width = width
        self._used.append(slot)
        return t

    def draw(self) -> None:
        for slot in self._used:
            self._pool[slot].draw()
        self._used.clear()
