"""Static level geometry as cached shape lists: a level, a tile map's walls, a navigation mesh."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely
from arcade.shape_list import ShapeElementList
from arcade.types import RGBOrA255

from navmesh.arcade_draw.batch import Batch, shape_list
from navmesh.arcade_draw.style import (
    BOUNDS_COLOR,
    MESH_EDGE_COLOR,
    MESH_FILL_COLOR,
    OBSTACLE_COLOR,
    OUTLINE_COLOR,
    WAYPOINT_COLOR,
    check_color,
    check_size,
    check_type,
    terrain_color,
)
from navmesh.arcade_draw.triangles import discs, fill, outline, polygon_parts, ring_segments, segments
from navmesh.grid.map import GridMap
from navmesh.level import Level
from navmesh.polymesh.mesh import PolyMesh

__all__ = ["level_shapes", "grid_shapes", "polymesh_shapes"]


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
    check_type("level", level, Level)
    width = check_size("outline_width", outline_width)
    radius = check_size("waypoint_radius", waypoint_radius)
    fill_rgba = check_color("obstacle_color", obstacle_color)
    edge_rgba = check_color("outline_color", outline_color)
    bounds_rgba = check_color("bounds_color", bounds_color)
    wp_rgba = check_color("waypoint_color", waypoint_color)

    # Later regions win, so walk them last to first and keep only what is not yet covered; the
    # visible parts never overlap, so translucent tints do not mix.
    terrain = Batch()
    covered: Any = shapely.Polygon()
    for region in reversed(level.terrain):
        visible = polygon_parts(shapely.difference(region.polygon, covered))
        covered = shapely.union(covered, region.polygon)
        rgba = np.asarray(terrain_color(region.tag, terrain_colors), dtype=np.float32)
        terrain.add(fill(visible), rgba)

    holes = [shapely.Polygon(ring) for ring in level.bounds.interiors]
    obstacles = list(level.obstacles)
    solid = Batch()
    solid.add(fill(obstacles + holes), fill_rgba)

    lines = Batch()
    if width > 0:
        lines.add(outline([level.bounds], width), bounds_rgba)
        lines.add(outline(obstacles, width), edge_rgba)

    dots = Batch()
    if radius > 0 and level.n_waypoints:
        dots.add(discs(np.asarray(level.waypoints, dtype=np.float64)[:, :2], radius), wp_rgba)
    return shape_list([terrain, solid, lines, dots])


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
    check_type("grid", grid, GridMap)
    wall_rgba = check_color("wall_color", wall_color)
    width = check_size("line_width", line_width, allow_zero=False)
    s = float(grid.cell_size)
    walls = np.flatnonzero(np.asarray(grid.blocked).reshape(-1))
    centers = grid.cell_center(walls) if len(walls) else np.zeros((0, 2))
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1)], dtype=np.float64) * (0.5 * s)
    cells = Batch()
    cells.add((centers[:, None, :] + corners).reshape(-1, 2), wall_rgba)

    lines = Batch()
    if line_color is not None:
        x0, y0 = float(grid.origin[0]), float(grid.origin[1])
        x1, y1 = x0 + grid.width * s, y0 + grid.height * s
        xs = x0 + s * np.arange(grid.width + 1)
        ys = y0 + s * np.arange(grid.height + 1)
        a = np.concatenate([np.stack([xs, np.full_like(xs, y0)], 1), np.stack([np.full_like(ys, x0), ys], 1)])
        b = np.concatenate([np.stack([xs, np.full_like(xs, y1)], 1), np.stack([np.full_like(ys, x1), ys], 1)])
        lines.add(segments(a, b, width), check_color("line_color", line_color))
    return shape_list([cells, lines])


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
    check_type("mesh", mesh, PolyMesh)
    width = check_size("line_width", line_width)
    fill_rgba = check_color("fill_color", fill_color)
    edge_rgba = check_color("edge_color", edge_color)
    fills = Batch()
    shapes = mesh.to_shapely()
    for t, tag in enumerate(mesh.tag_names):
        mine = [shapes[p] for p in np.flatnonzero(mesh.tags == t)]
        rgba = fill_rgba if not tag else np.asarray(terrain_color(tag, terrain_colors), dtype=np.float32)
        if mine:
            fills.add(fill(mine), rgba)
    lines = Batch()
    if width > 0 and mesh.n_polygons:
        lines.add(segments(*ring_segments(list(shapes)), width), edge_rgba)
    return shape_list([fills, lines])
