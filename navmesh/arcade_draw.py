"""Debug drawing of navmesh results with arcade: the only module of the library that imports arcade.

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

The module only reads navmesh results and never feeds anything back into the library.

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

import math
import weakref
from array import array
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import arcade
import arcade.gl
import numpy as np
import shapely
from arcade.shape_list import Shape, ShapeElementList
from arcade.types import RGBOrA255
from numpy.typing import NDArray

from navmesh.errors import InvalidOptionError, NodeNotFoundError, describe
from navmesh.grid.flowfield import FlowField
from navmesh.graph import NavGraph
from navmesh.grid.map import GridMap
from navmesh.level import Level
from navmesh.palette import TERRAIN_RGB, terrain_rgb
from navmesh.path import Path, SearchTrace
from navmesh.polymesh.mesh import PolyMesh

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

# Defaults, chosen to read well on a dark background.
OBSTACLE_COLOR: RGBOrA255 = (92, 94, 110, 255)
OUTLINE_COLOR: RGBOrA255 = (190, 192, 210, 255)
BOUNDS_COLOR: RGBOrA255 = (230, 230, 230, 255)
WAYPOINT_COLOR: RGBOrA255 = (255, 255, 255, 255)
ARC_COLOR: RGBOrA255 = (70, 130, 180, 200)
NODE_COLOR: RGBOrA255 = (135, 206, 250, 255)
PATH_COLOR: RGBOrA255 = (255, 215, 0, 255)
PARTIAL_COLOR: RGBOrA255 = (255, 99, 71, 255)
EXPANDED_COLOR: RGBOrA255 = (220, 20, 60, 220)
OPEN_COLOR: RGBOrA255 = (50, 205, 50, 235)
TREE_COLOR: RGBOrA255 = (255, 255, 255, 70)
ARROW_COLOR: RGBOrA255 = (173, 216, 230, 220)
GOAL_COLOR: RGBOrA255 = (255, 215, 0, 255)
MESH_FILL_COLOR: RGBOrA255 = (70, 130, 180, 70)
MESH_EDGE_COLOR: RGBOrA255 = (135, 206, 250, 200)

TERRAIN_ALPHA = 140
"""Opacity of terrain tints (0-255): the floor and grid show through."""
TERRAIN_COLORS: Mapping[str, RGBOrA255] = MappingProxyType({tag: (*rgb, TERRAIN_ALPHA) for tag, rgb in TERRAIN_RGB.items()})
"""Tint of common terrain tags (the shared :data:`navmesh.palette.TERRAIN_RGB` at
:data:`TERRAIN_ALPHA`); other tags get a stable colour from :func:`terrain_color`."""

_DISC_SIDES = 12


# -- argument checks ----------------------------------------------------------------------------
def _color(name: str, value: Any) -> NDArray[np.float32]:
    """``value`` as float32 RGBA 0-255, or InvalidOptionError naming ``name``."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        arr = np.zeros(0)
    if arr.shape not in ((3,), (4,)) or not np.isfinite(arr).all() or arr.min() < 0 or arr.max() > 255:
        raise InvalidOptionError(
            f"{name}={describe(value)} is not a colour; expected (r, g, b) or (r, g, b, a) with values 0-255"
        )
    return np.append(arr, 255.0)[:4].astype(np.float32) if len(arr) == 3 else arr.astype(np.float32)


def _size(name: str, value: Any, *, allow_zero: bool = True) -> float:
    """``value`` as a finite float >= 0 (> 0 without ``allow_zero``), in world units."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    v = float(value) if ok else math.nan
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        rule = ">= 0" if allow_zero else "> 0"
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a finite number {rule} (world units)")
    return v


def _check_type(name: str, value: Any, kind: type) -> None:
    if not isinstance(value, kind):
        raise InvalidOptionError(f"{name}={describe(value)} is not a {kind.__name__}")


def terrain_color(tag: str, terrain_colors: Mapping[str, RGBOrA255] | None = None) -> tuple[int, int, int, int]:
    """The tint :func:`level_shapes` uses for a terrain tag.

    Parameters
    ----------
    tag : str
        Terrain tag such as ``"swamp"``.
    terrain_colors : mapping of str to colour, optional
        Colours that take precedence over :data:`TERRAIN_COLORS`.

    Returns
    -------
    tuple of 4 int
        RGBA 0-255: the given colour, else the shared colour of the tag
        (:func:`navmesh.palette.terrain_rgb`, the one ``navmesh render`` uses) at
        :data:`TERRAIN_ALPHA`.

    Examples
    --------
    >>> terrain_color("water")
    (40, 105, 200, 140)
    >>> terrain_color("water", {"water": (0, 0, 255)})
    (0, 0, 255, 255)
    >>> terrain_color("goo") == terrain_color("goo")
    True
    """
    if terrain_colors and tag in terrain_colors:
        rgba = _color(f"terrain colour of {tag!r}", terrain_colors[tag])
        return tuple(int(v) for v in np.rint(rgba))  # type: ignore[return-value]
    return (*terrain_rgb(tag), TERRAIN_ALPHA)


# -- triangle builders (pure numpy; every result is an (k, 2) array of triangle corners) ----------
def _segments(a: NDArray[np.float64], b: NDArray[np.float64], width: float) -> NDArray[np.float64]:
    """Two triangles per segment ``a[i] -> b[i]``, ``width`` wide; zero-length segments are dropped."""
    d = b - a
    length = np.hypot(d[:, 0], d[:, 1])
    keep = length > 0
    a, b, d, length = a[keep], b[keep], d[keep], length[keep]
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) * (0.5 * width / length)[:, None]
    quad = np.stack([a + n, a - n, b - n, a + n, b - n, b + n], axis=1)
    return quad.reshape(-1, 2)


def _discs(centers: NDArray[np.float64], radius: float, sides: int = _DISC_SIDES) -> NDArray[np.float64]:
    """A filled regular polygon of ``sides`` corners around each centre (a fan of triangles)."""
    ang = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang)], axis=1) * radius
    c = centers[:, None, :]
    tris = np.stack(
        [np.broadcast_to(c, (len(centers), sides, 2)), c + ring, c + np.roll(ring, -1, axis=0)], axis=2
    )
    return tris.reshape(-1, 2)


def _arrowheads(tips: NDArray[np.float64], dirs: NDArray[np.float64], size: float) -> NDArray[np.float64]:
    """A triangle per tip pointing along the unit vector ``dirs``, ``size`` long and wide."""
    normal = np.stack([-dirs[:, 1], dirs[:, 0]], axis=1)
    base = tips - dirs * size
    tris = np.stack([tips, base + normal * (0.5 * size), base - normal * (0.5 * size)], axis=1)
    return tris.reshape(-1, 2)


def _polygon_parts(geom: Any) -> list[shapely.Polygon]:
    """The non-empty polygons in any shapely geometry (a difference can yield collections)."""
    parts = shapely.get_parts(geom)
    return [p for p in parts if isinstance(p, shapely.Polygon) and not p.is_empty]


def _fill(polygons: list[shapely.Polygon]) -> NDArray[np.float64]:
    """Triangles covering the polygons exactly, holes left open (constrained Delaunay)."""
    if not polygons:
        return np.zeros((0, 2))
    tris = shapely.get_parts(shapely.constrained_delaunay_triangles(np.asarray(polygons, dtype=object)))
    if len(tris) == 0:
        return np.zeros((0, 2))
    # Each triangle is a closed ring of 4 coordinates; the 4th repeats the first.
    return shapely.get_coordinates(tris).reshape(-1, 4, 2)[:, :3].reshape(-1, 2)


def _ring_segments(polygons: list[shapely.Polygon]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Start and end points of every edge of every ring (exterior and holes) of the polygons."""
    starts, ends = [np.zeros((0, 2))], [np.zeros((0, 2))]
    for poly in polygons:
        for ring in (poly.exterior, *poly.interiors):
            xy = shapely.get_coordinates(ring)
            starts.append(xy[:-1])
            ends.append(xy[1:])
    return np.concatenate(starts), np.concatenate(ends)


def _outline(polygons: list[shapely.Polygon], width: float) -> NDArray[np.float64]:
    """Outline triangles of the polygons' rings; corners are filled with discs (round joins)."""
    a, b = _ring_segments(polygons)
    return np.concatenate([_segments(a, b, width), _discs(a, 0.5 * width, 8)])


def _dashes(
    points: NDArray[np.float64], dash: float, gap: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Pieces of the polyline that lie in the "on" part of a dash pattern measured along it."""
    seg = np.hypot(*np.diff(points, axis=0).T)
    keep = np.concatenate([[True], seg > 0])
    points = points[keep]
    if len(points) < 2:
        return np.zeros((0, 2)), np.zeros((0, 2))
    s = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    period = dash + gap
    marks = np.arange(0.0, s[-1], period)
    # Cut the line at every corner and at every dash start and end; each piece between two cuts
    # is wholly on or off, judged by its midpoint's phase in the pattern.
    cuts = np.unique(np.concatenate([s, marks, np.minimum(marks + dash, s[-1])]))
    mid = 0.5 * (cuts[:-1] + cuts[1:])
    on = np.mod(mid, period) < dash
    lo, hi = cuts[:-1][on], cuts[1:][on]

    def at(d: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.stack([np.interp(d, s, points[:, 0]), np.interp(d, s, points[:, 1])], axis=1)

    return at(lo), at(hi)


# -- vertex data, cached shapes and immediate drawing -----------------------------------------
class _Mesh:
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
        _draw_vertices(self.vertex_data())


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


def _shape_list(meshes: list[_Mesh]) -> ShapeElementList:
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


def _draw_vertices(data: NDArray[np.float32]) -> None:
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


# -- static geometry ----------------------------------------------------------------------------
def level_shapes(
    level: Level,
    *,
    terrain_colors: Mapping[str, RGBOrA255] | None = None,
    obstacle_color: RGBOrA255 = OBSTACLE_COLOR,
    outline_color: RGBOrA255 = OUTLINE_COLOR,
    bounds_color: RGBOrA255 = BOUNDS_COLOR,
    outline_width: float = 2.0,
    waypoint_color: RGBOrA255 = WAYPOINT_COLOR,
    waypoint_radius: float = 3.0,
) -> ShapeElementList:
    """Level geometry as a cached shape list: terrain, obstacles, bounds and waypoints.

    Painted from bottom to top: terrain regions tinted per tag (only the part of each region that
    a later region does not cover, so translucent tints never mix and the picture follows the
    painter's rule of :class:`~navmesh.level.Level`), obstacles and holes in the bounds filled,
    the bounds outline and obstacle outlines, then the waypoints. Polygons with holes are
    triangulated exactly (constrained Delaunay), so a hole shows what is below it.

    Parameters
    ----------
    level : Level
        The level to draw.
    terrain_colors : mapping of str to colour, optional
        Tint per terrain tag; tags not listed use :func:`terrain_color`.
    obstacle_color, outline_color, bounds_color : colour
        Obstacle fill, obstacle outline, and walkable-area outline (alpha 0 leaves one out).
    outline_width : float
        Width of both outlines in world units, >= 0 (0: no outlines).
    waypoint_color : colour
        Colour of the level's waypoints.
    waypoint_radius : float
        Radius of a waypoint dot in world units, >= 0 (0: no waypoints).

    Returns
    -------
    arcade.shape_list.ShapeElementList
        Call its ``draw()`` in ``on_draw``; rebuild it when the level changes.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``level`` is not a Level.
    """
    _check_type("level", level, Level)
    width = _size("outline_width", outline_width)
    radius = _size("waypoint_radius", waypoint_radius)
    fill_rgba = _color("obstacle_color", obstacle_color)
    edge_rgba = _color("outline_color", outline_color)
    bounds_rgba = _color("bounds_color", bounds_color)
    wp_rgba = _color("waypoint_color", waypoint_color)

    # Later regions win, so walk them last to first and keep only what is not yet covered; the
    # visible parts never overlap, so translucent tints do not mix.
    terrain = _Mesh()
    covered: Any = shapely.Polygon()
    for region in reversed(level.terrain):
        visible = _polygon_parts(shapely.difference(region.polygon, covered))
        covered = shapely.union(covered, region.polygon)
        rgba = np.asarray(terrain_color(region.tag, terrain_colors), dtype=np.float32)
        terrain.add(_fill(visible), rgba)

    holes = [shapely.Polygon(ring) for ring in level.bounds.interiors]
    obstacles = list(level.obstacles)
    solid = _Mesh()
    solid.add(_fill(obstacles + holes), fill_rgba)

    lines = _Mesh()
    if width > 0:
        lines.add(_outline([level.bounds], width), bounds_rgba)
        lines.add(_outline(obstacles, width), edge_rgba)

    dots = _Mesh()
    if radius > 0 and level.n_waypoints:
        dots.add(_discs(np.asarray(level.waypoints, dtype=np.float64)[:, :2], radius), wp_rgba)
    return _shape_list([terrain, solid, lines, dots])


def graph_shapes(
    graph: NavGraph,
    *,
    color: RGBOrA255 = ARC_COLOR,
    node_color: RGBOrA255 = NODE_COLOR,
    node_radius: float = 3.0,
    line_width: float = 1.0,
    arrow_size: float = 8.0,
    tag_colors: Mapping[str, RGBOrA255] | None = None,
) -> ShapeElementList:
    """A navigation graph as a cached shape list: arcs as lines, nodes as dots.

    An undirected edge (arcs both ways) is drawn once; a one-way arc gets an arrowhead at its
    target, so one-way links stand out. Self-loops are not drawn.

    Parameters
    ----------
    graph : NavGraph
        The graph (a built level's ``nav.graph``).
    color : colour
        Colour of the arcs.
    node_color : colour
        Colour of the node dots.
    node_radius : float
        Radius of a node dot in world units, >= 0 (0: no dots).
    line_width : float
        Width of an arc in world units, > 0.
    arrow_size : float
        Length and width of the arrowhead of a one-way arc in world units, >= 0 (0: none).
    tag_colors : mapping of str to colour, optional
        Arc colour per arc tag name (``graph.tag_names``), e.g. ``{"ladder": (255, 0, 255)}``. A
        name is looked up whole and, failing that, by its part before ``"|"`` (the surface of a
        gated arc such as ``"ford|requires:boots"``). Unlisted tags use ``color``.

    Returns
    -------
    arcade.shape_list.ShapeElementList
        Call its ``draw()`` in ``on_draw``; rebuild it when the graph changes.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``graph`` is not a NavGraph.
    """
    _check_type("graph", graph, NavGraph)
    radius = _size("node_radius", node_radius)
    width = _size("line_width", line_width, allow_zero=False)
    head = _size("arrow_size", arrow_size)
    rgba = _color("color", color)
    node_rgba = _color("node_color", node_color)

    table = dict(tag_colors or {})
    tag_rgba = np.broadcast_to(rgba, (len(graph.tag_names), 4)).copy()
    for i, tag in enumerate(graph.tag_names):
        key = tag if tag in table else tag.split("|", 1)[0]
        if key in table:
            tag_rgba[i] = _color(f"tag_colors[{key!r}]", table[key])

    pts = graph.points[:, :2]
    src = graph.arc_sources.astype(np.int64)
    dst = graph.indices.astype(np.int64)
    n = np.int64(graph.n_nodes)
    has_reverse = np.isin(dst * n + src, src * n + dst)
    draw = (src != dst) & ((src < dst) | ~has_reverse)
    one_way = draw & ~has_reverse
    arc_rgba = tag_rgba[graph.tags]

    arcs = _Mesh()
    a, b = pts[src[draw]], pts[dst[draw]]
    length = np.hypot(*(b - a).T)
    live = length > 0
    arcs.add(_segments(a, b, width), np.repeat(arc_rgba[draw][live], 6, axis=0))
    if head > 0 and one_way.any():
        a, b = pts[src[one_way]], pts[dst[one_way]]
        length = np.hypot(*(b - a).T)
        live = length > 0
        unit = (b - a)[live] / length[live, None]
        tips = b[live] - unit * radius
        arcs.add(_arrowheads(tips, unit, head), np.repeat(arc_rgba[one_way][live], 3, axis=0))

    nodes = _Mesh()
    if radius > 0 and graph.n_nodes:
        nodes.add(_discs(pts, radius), node_rgba)
    return _shape_list([arcs, nodes])


def grid_shapes(
    grid: GridMap,
    *,
    wall_color: RGBOrA255 = OBSTACLE_COLOR,
    line_color: RGBOrA255 | None = None,
    line_width: float = 1.0,
) -> ShapeElementList:
    """A tile map's blocked cells (and optionally its cell lines) as a cached shape list.

    Parameters
    ----------
    grid : GridMap
        The map; cells are ``grid.cell_size`` world units wide, rows counted from the top.
    wall_color : colour
        Fill of blocked cells.
    line_color : colour, optional
        Colour of the lines between cells. Default: no lines.
    line_width : float
        Width of those lines in world units, > 0.

    Returns
    -------
    arcade.shape_list.ShapeElementList

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``grid`` is not a GridMap.
    """
    _check_type("grid", grid, GridMap)
    wall_rgba = _color("wall_color", wall_color)
    width = _size("line_width", line_width, allow_zero=False)
    s = float(grid.cell_size)
    walls = np.flatnonzero(np.asarray(grid.blocked).reshape(-1))
    centers = grid.cell_center(walls) if len(walls) else np.zeros((0, 2))
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)], dtype=np.float64) * (0.5 * s)
    cells = _Mesh()
    cells.add((centers[:, None, :] + corners).reshape(-1, 2), wall_rgba)

    lines = _Mesh()
    if line_color is not None:
        x0, y0 = float(grid.origin[0]), float(grid.origin[1])
        x1, y1 = x0 + grid.width * s, y0 + grid.height * s
        xs = x0 + s * np.arange(grid.width + 1)
        ys = y0 + s * np.arange(grid.height + 1)
        a = np.concatenate([np.stack([xs, np.full_like(xs, y0)], 1), np.stack([np.full_like(ys, x0), ys], 1)])
        b = np.concatenate([np.stack([xs, np.full_like(xs, y1)], 1), np.stack([np.full_like(ys, x1), ys], 1)])
        lines.add(_segments(a, b, width), _color("line_color", line_color))
    return _shape_list([cells, lines])


# -- per-frame drawing --------------------------------------------------------------------------
def polymesh_shapes(
    mesh: PolyMesh,
    *,
    fill_color: RGBOrA255 = MESH_FILL_COLOR,
    edge_color: RGBOrA255 = MESH_EDGE_COLOR,
    line_width: float = 1.0,
    terrain_colors: Mapping[str, RGBOrA255] | None = None,
) -> ShapeElementList:
    """A navigation mesh as a cached shape list: its polygons filled, then their edges.

    Parameters
    ----------
    mesh : PolyMesh
        The mesh (:func:`navmesh.build_navmesh`).
    fill_color : colour
        Fill of plain-ground polygons (alpha 0 leaves the fill out).
    edge_color : colour
        Colour of every polygon edge.
    line_width : float
        Width of the edges in world units, >= 0 (0: no edges).
    terrain_colors : mapping of str to colour, optional
        Fill per terrain tag for tagged polygons; tags not listed use :func:`terrain_color`.

    Returns
    -------
    arcade.shape_list.ShapeElementList
        Call its ``draw()`` in ``on_draw``.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``mesh`` is not a PolyMesh.
    """
    _check_type("mesh", mesh, PolyMesh)
    width = _size("line_width", line_width)
    fill_rgba = _color("fill_color", fill_color)
    edge_rgba = _color("edge_color", edge_color)
    fills = _Mesh()
    shapes = mesh.to_shapely()
    for t, tag in enumerate(mesh.tag_names):
        mine = [shapes[p] for p in np.flatnonzero(mesh.tags == t)]
        rgba = fill_rgba if not tag else np.asarray(terrain_color(tag, terrain_colors), dtype=np.float32)
        if mine:
            fills.add(_fill(mine), rgba)
    lines = _Mesh()
    if width > 0 and mesh.n_polygons:
        a = mesh.vertices[mesh.indices]
        nxt = np.arange(1, len(mesh.indices) + 1)
        nxt[mesh.indptr[1:] - 1] = mesh.indptr[:-1]
        b = mesh.vertices[mesh.indices[nxt]]
        lines.add(_segments(a, b, width), edge_rgba)
    return _shape_list([fills, lines])


def draw_path(
    path: Path,
    *,
    color: RGBOrA255 = PATH_COLOR,
    line_width: float = 3.0,
    point_radius: float = 4.0,
    partial_color: RGBOrA255 = PARTIAL_COLOR,
    dash: tuple[float, float] = (12.0, 8.0),
) -> None:
    """Draw a path now: its polyline and a dot at each of its points.

    A partial path (``path.partial``, the goal was not reached) is drawn dashed in
    ``partial_color``, so it cannot be mistaken for a complete one.

    Parameters
    ----------
    path : Path
        The path; ``path.points`` gives the positions (z ignored).
    color : colour
        Colour of a complete path.
    line_width : float
        Width of the polyline in world units, > 0.
    point_radius : float
        Radius of the dot at each point in world units, >= 0 (0: no dots).
    partial_color : colour
        Colour of a partial path.
    dash : pair of float
        Length of a dash and of the gap after it, in world units (> 0, >= 0), for partial paths.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``path`` is not a Path.
    """
    _check_type("path", path, Path)
    width = _size("line_width", line_width, allow_zero=False)
    radius = _size("point_radius", point_radius)
    try:
        on, off = dash
    except (TypeError, ValueError):
        raise InvalidOptionError(f"dash={describe(dash)} is not valid; expected (dash length, gap length)") from None
    on = _size("dash[0]", on, allow_zero=False)
    off = _size("dash[1]", off)
    rgba = _color("partial_color", partial_color) if path.partial else _color("color", color)
    pts = path.points[:, :2]
    mesh = _Mesh()
    if len(pts) >= 2:
        if path.partial:
            a, b = _dashes(pts, on, off)
            mesh.add(np.concatenate([_segments(a, b, width), _discs(np.concatenate([a, b]), 0.5 * width, 8)]), rgba)
        else:
            mesh.add(np.concatenate([_segments(pts[:-1], pts[1:], width), _discs(pts, 0.5 * width, 8)]), rgba)
    if radius > 0 and len(pts):
        mesh.add(_discs(pts, radius), rgba)
    mesh.draw()


def draw_trace(
    trace: SearchTrace,
    graph: NavGraph,
    *,
    step: int | None = None,
    expanded_color: RGBOrA255 = EXPANDED_COLOR,
    open_color: RGBOrA255 = OPEN_COLOR,
    tree_color: RGBOrA255 = TREE_COLOR,
    node_radius: float = 4.0,
    line_width: float = 1.5,
) -> None:
    """Draw the state of a recorded search after ``step`` expansions (the "watch the search" view).

    Shows the closed set (nodes expanded so far), the open set (nodes reached but not yet
    expanded: the frontier) and the search tree (each reached node joined to the node it is
    currently reached from). Increase ``step`` by one each frame to animate the search; draw
    ``trace.path`` with :func:`draw_path` once ``step`` reaches ``len(trace.expanded)``.

    Parameters
    ----------
    trace : SearchTrace
        A trace from :func:`navmesh.search.search_trace`.
    graph : NavGraph
        The graph the trace was recorded on (gives the node positions; z ignored).
    step : int, optional
        Expansions to show, >= 0; values past ``len(trace.expanded)`` show the finished search.
        Default: the finished search.
    expanded_color, open_color, tree_color : colour
        Colours of expanded nodes, open nodes and search-tree lines (alpha 0 leaves one out).
    node_radius : float
        Radius of a node dot in world units, > 0.
    line_width : float
        Width of a search-tree line in world units, > 0.

    Raises
    ------
    InvalidOptionError
        ``step`` is negative or not an int, a colour or a size is invalid, or the arguments are
        not a SearchTrace and a NavGraph.
    NodeNotFoundError
        The trace holds node ids the graph does not have (it was recorded on another graph).
    """
    _check_type("trace", trace, SearchTrace)
    _check_type("graph", graph, NavGraph)
    n_exp = len(trace.expanded)
    if step is None:
        k = n_exp
    elif isinstance(step, (int, np.integer)) and not isinstance(step, bool) and step >= 0:
        k = min(int(step), n_exp)
    else:
        raise InvalidOptionError(f"step={describe(step)} is not valid; expected an int >= 0 or None")
    radius = _size("node_radius", node_radius, allow_zero=False)
    width = _size("line_width", line_width, allow_zero=False)
    exp_rgba = _color("expanded_color", expanded_color)
    open_rgba = _color("open_color", open_color)
    tree_rgba = _color("tree_color", tree_color)
    top = max(
        int(trace.expanded.max(initial=-1)),
        int(trace.opened.max(initial=-1)),
        int(trace.opened_parent.max(initial=-1)),
    )
    if top >= graph.n_nodes:
        raise NodeNotFoundError(
            f"trace holds node {top} but graph has {graph.n_nodes} nodes; pass the graph the trace was recorded on"
        )

    pts = graph.points[:, :2]
    reached = trace.opened_step < k
    nodes = trace.opened[reached]
    parents = trace.opened_parent[reached]
    # A node may be opened again with a better parent; the latest opening is the current one.
    last = len(nodes) - 1 - np.unique(nodes[::-1], return_index=True)[1]
    nodes, parents = nodes[last], parents[last]
    closed = np.zeros(graph.n_nodes, dtype=bool)
    closed[trace.expanded[:k]] = True

    mesh = _Mesh()
    linked = parents >= 0
    mesh.add(_segments(pts[parents[linked]], pts[nodes[linked]], width), tree_rgba)
    mesh.add(_discs(pts[np.flatnonzero(closed)], radius), exp_rgba)
    mesh.add(_discs(pts[nodes[~closed[nodes]]], radius), open_rgba)
    mesh.draw()


def draw_flow_field(
    field: FlowField,
    *,
    color: RGBOrA255 = ARROW_COLOR,
    goal_color: RGBOrA255 = GOAL_COLOR,
    arrow_length: float = 0.7,
    line_width: float | None = None,
) -> None:
    """Draw a flow field now: an arrow in each reached cell pointing along its signpost.

    Goal cells get a dot; blocked and unreached cells (no signpost) get nothing (draw the walls
    with :func:`grid_shapes`). All arrows go in one draw call.

    Parameters
    ----------
    field : FlowField
        The field; its grid gives the cell positions and size.
    color : colour
        Colour of the arrows.
    goal_color : colour
        Colour of the goal dots.
    arrow_length : float
        Length of an arrow as a fraction of the cell size, in (0, 1].
    line_width : float, optional
        Width of an arrow's shaft in world units, > 0. Default: a tenth of the cell size.

    Raises
    ------
    InvalidOptionError
        A colour or a size is invalid, or ``field`` is not a FlowField.
    """
    _check_type("field", field, FlowField)
    frac = _size("arrow_length", arrow_length, allow_zero=False)
    if frac > 1:
        raise InvalidOptionError(f"arrow_length={describe(arrow_length)} is not valid; expected a fraction in (0, 1]")
    rgba = _color("color", color)
    goal_rgba = _color("goal_color", goal_color)
    grid = field.grid
    s = float(grid.cell_size)
    width = 0.1 * s if line_width is None else _size("line_width", line_width, allow_zero=False)

    cells = np.arange(grid.n_cells)
    dirs = field.direction_at(cells)
    moving = np.flatnonzero((dirs != 0).any(axis=1))
    centers = grid.cell_center(moving) if len(moving) else np.zeros((0, 2))
    unit = dirs[moving]
    half = 0.5 * frac * s
    head = min(0.35 * s, 0.6 * frac * s)
    tail, tip = centers - unit * half, centers + unit * half

    mesh = _Mesh()
    # The shaft stops where the head begins so that translucent arrows do not darken there.
    mesh.add(_segments(tail, tip - unit * (0.5 * head), width), rgba)
    mesh.add(_arrowheads(tip, unit, head), rgba)
    mesh.add(_discs(grid.cell_center(field.goals.astype(np.int64)), 0.3 * s), goal_rgba)
    mesh.draw()
