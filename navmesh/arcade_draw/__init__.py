"""Debug drawing of navmesh results with arcade (with :mod:`navmesh.arcade_adapt`, the only library
code that imports arcade).

Two kinds of function, both of which need an open ``arcade.Window`` (call them from ``setup`` or
``on_draw``, after the window exists):

- ``*_shapes`` build static geometry once into an ``arcade.shape_list.ShapeElementList``; keep it
  and call its ``draw()`` every frame (the vertices stay on the GPU): :func:`level_shapes`,
  :func:`graph_shapes`, :func:`grid_shapes`.
- ``draw_*`` draw at once, for things that change from frame to frame: :func:`draw_path`,
  :func:`draw_trace` (the animated "watch the search" view), :func:`draw_flow_field`.

Everything is turned into triangles with numpy and sent in one buffer: a graph of any size is one
draw call, not one per arc. Coordinates, widths and radii are world units (pixels when the camera
is at zoom 1), so drawings scale with the camera; a third (z) coordinate is ignored. Colours are
arcade colour tuples ``(r, g, b)`` or ``(r, g, b, a)`` with components 0-255; alpha blends.

The package only reads navmesh results and never feeds anything back into the library. Its
modules: :mod:`~navmesh.arcade_draw.maps` (levels, tile maps, meshes),
:mod:`~navmesh.arcade_draw.searches` (graphs, paths, search traces, flow fields),
:mod:`~navmesh.arcade_draw.style` (default colours, terrain tints, argument checks),
:mod:`~navmesh.arcade_draw.triangles` (numpy triangle builders) and
:mod:`~navmesh.arcade_draw.batch` (vertex batches to the GPU).

Examples
--------
Inside an ``arcade.View`` (needs a window, so not run as a doctest):

>>> class NavView(arcade.View):                                   # doctest: +SKIP
...     def __init__(self, level, nav):
...         super().__init__()
...         self.static = level_shapes(level)
...         for shape in graph_shapes(nav.graph):
...             self.static.append(shape)
...         self.path = None
...     def on_draw(self):
...         self.clear()
...         self.static.draw()
...         if self.path is not None:
...             draw_path(self.path)
"""

from __future__ import annotations

from navmesh.arcade_draw.maps import grid_shapes, level_shapes, polymesh_shapes
from navmesh.arcade_draw.searches import draw_flow_field, draw_path, draw_trace, graph_shapes
from navmesh.arcade_draw.style import TERRAIN_ALPHA, TERRAIN_COLORS, terrain_color

__all__ = [
    "level_shapes",
    "graph_shapes",
    "grid_shapes",
    "polymesh_shapes",
    "draw_path",
    "draw_trace",
    "draw_flow_field",
    "terrain_color",
    "TERRAIN_COLORS",
    "TERRAIN_ALPHA",
]
