"""Triangles to the GPU: a batch of coloured triangles, cached shape lists and immediate drawing."""

from __future__ import annotations

import weakref
from array import array

import arcade
import arcade.gl
import numpy as np
from arcade.shape_list import Shape, ShapeElementList
from numpy.typing import NDArray

__all__ = ["Batch", "shape_list", "draw_vertices"]


class Batch:
    """Triangles with a colour per vertex, collected piece by piece in painter's order."""

    def __init__(self) -> None:
        self._parts: list[NDArray[np.float32]] = []

    def add(self, tris: NDArray[np.float64], rgba: NDArray[np.float32]) -> None:
        """Append triangle corners ``tris`` (k, 2) with one colour (4,) or one per corner (k, 4)."""
        if len(tris) == 0 or (rgba.ndim == 1 and rgba[3] == 0):
            return
        data = np.empty((len(tris), 6), dtype=np.float32)
        data[:, :2] = tris
        data[:, 2:] = rgba
        self._parts.append(data)

    def vertex_data(self) -> NDArray[np.float32]:
        """Interleaved ``x, y, r, g, b, a`` float32 rows, the layout of arcade's shape programs."""
        if not self._parts:
            return np.zeros((0, 6), dtype=np.float32)
        return np.concatenate(self._parts)

    def draw(self) -> None:
        draw_vertices(self.vertex_data())


class _ArrayShape(Shape):
    """An arcade ``Shape`` of GL triangles built from a float32 vertex array in one step.

    arcade's ``Shape`` constructor packs the vertices with a Python loop (several microseconds
    per vertex, seconds for a large graph); ``ShapeElementList`` only reads ``data`` and
    ``vertices``, which are filled here straight from numpy.
    """

    def __init__(self, vertex_data: NDArray[np.float32]) -> None:
        super().__init__([], [], mode=arcade.gl.TRIANGLES)
        self.points = vertex_data[:, :2]
        self.colors = vertex_data[:, 2:]
        self.data = array("f")
        self.data.frombytes(np.ascontiguousarray(vertex_data, dtype=np.float32).tobytes())
        self.vertices = len(vertex_data)


def shape_list(meshes: list[Batch]) -> ShapeElementList:
    """A shape list with one shape per non-empty mesh, all drawn in one batch, in order."""
    shapes: ShapeElementList = ShapeElementList()
    for mesh in meshes:
        data = mesh.vertex_data()
        if len(data):
            shapes.append(_ArrayShape(data))
    return shapes


class _Scratch:
    """A reusable vertex buffer for immediate drawing, one per GL context."""

    def __init__(self, ctx: arcade.ArcadeContext) -> None:
        # The size must be a whole number of 24-byte vertices.
        self.buffer = ctx.buffer(reserve=24 * 4096, usage="stream")
        self.geometry = ctx.geometry(
            [arcade.gl.BufferDescription(self.buffer, "2f 4f", ("in_vert", "in_color"))]
        )


_SCRATCH: weakref.WeakKeyDictionary[arcade.ArcadeContext, _Scratch] = weakref.WeakKeyDictionary()


def draw_vertices(data: NDArray[np.float32]) -> None:
    """Draw triangles now, through the current camera, in one call."""
    if len(data) == 0:
        return
    ctx = arcade.get_window().ctx
    scratch = _SCRATCH.get(ctx)
    if scratch is None:
        scratch = _SCRATCH[ctx] = _Scratch(ctx)
    size = data.nbytes
    if size > scratch.buffer.size:
        scratch.buffer.orphan(size=max(size, 2 * scratch.buffer.size))
    else:
        # A fresh store each call, so the GPU never waits for the previous draw to finish.
        scratch.buffer.orphan()
    scratch.buffer.write(np.ascontiguousarray(data).tobytes())
    ctx.enable(ctx.BLEND)
    scratch.geometry.render(ctx.line_generic_with_colors_program, mode=ctx.TRIANGLES, vertices=len(data))
    ctx.disable(ctx.BLEND)
