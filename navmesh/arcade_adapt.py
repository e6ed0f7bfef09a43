"""Navigation for an existing arcade game: levels and grids from sprites and tile maps, sprites moved.

With :mod:`navmesh.arcade_draw` the only library module that imports arcade. Everything here reads
arcade objects and hands back plain navmesh values (or moves sprites); world coordinates are
arcade's everywhere (pixels, y up), so a sprite's ``position`` can go straight into a search:

- :func:`level_from_sprites`, :func:`level_from_tilemap`: a :class:`~navmesh.level.Level` whose
  obstacles are wall sprites' hit boxes or a tile map's walls;
- :func:`grid_from_sprites`, :func:`grid_from_tilemap`: a :class:`~navmesh.grid.GridMap` of the
  same walls, optionally grown by an agent's radius (no half-cell shift or row flip to do by hand);
- :func:`sprite_radius`: an agent radius from a sprite's hit box;
- :func:`walk_to`, :func:`follow_path`, :func:`place_sprites`: plan and move sprites each
  ``on_update`` with a :class:`~navmesh.steering.PathFollower` or a :class:`~navmesh.steering.Crowd`.

Examples
--------
>>> import arcade
>>> walls = arcade.SpriteList()
>>> for x in (48, 80, 112):
...     walls.append(arcade.SpriteSolidColor(32, 32, center_x=x, center_y=80))
>>> level = level_from_sprites(walls, bounds=(160, 160))
>>> [wall.bounds for wall in level.obstacles]          # touching sprites merge into one wall
[(32.0, 64.0, 128.0, 96.0)]
>>> grid = grid_from_sprites(walls, 32, bounds=(160, 160))
>>> grid.blocked.astype(int).tolist()                  # row 0 is the top row
[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
"""

from __future__ import annotations

import math
import warnings
from decimal import Decimal
from typing import Any, Iterable, Literal, Sequence

import arcade
import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from scipy import ndimage

from navmesh._checks import MAX_COORDINATE, as_array, check_option, describe
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NavmeshWarning, NodeNotFoundError
from navmesh.grid import GridMap
from navmesh.io.tiled import load_tiled_level
from navmesh.level import Level
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery
from navmesh.steering import Crowd, FollowerEvent, PathFollower
from navmesh.steering.follower import from_here
from navmesh.waypoints.navmap import NavMap
from navmesh.waypoints.query import NavQuery, find_path

#: Most cells :func:`grid_from_sprites` makes (2048 x 2048): it tests every cell against the walls'
#: hit boxes (about 0.5 kB and 7 microseconds per cell), so a tiny ``cell_size`` would exhaust memory.
MAX_SPRITE_GRID_CELLS = 2**22

__all__ = [
    "MAX_SPRITE_GRID_CELLS",
    "level_from_sprites",
    "level_from_tilemap",
    "grid_from_sprites",
    "grid_from_tilemap",
    "sprite_radius",
    "walk_to",
    "follow_path",
    "place_sprites",
]


def _hit_boxes(sprites: Iterable[arcade.BasicSprite]) -> NDArray[np.object_]:
    """Each sprite's hit box as a shapely polygon, world coordinates."""
    try:
        sprites = list(sprites)
        rings = [np.asarray(sprite.hit_box.get_adjusted_points(), dtype=np.float64) for sprite in sprites]
    except (AttributeError, TypeError):
        raise InvalidOptionError(f"walls={describe(sprites)} is not a SpriteList (or list) of arcade sprites") from None
    for i, ring in enumerate(rings):
        if not (np.isfinite(ring).all() and np.abs(ring).max(initial=0.0) <= MAX_COORDINATE):
            raise InvalidGeometryError(
                f"walls[{i}] at position {describe(tuple(sprites[i].position))} has hit box points "
                f"{describe(ring.tolist())}; a wall sprite's position, size and angle must be finite and its "
                f"hit box within +-{MAX_COORDINATE:g}"
            )
    polys = shapely.polygons(rings) if rings else np.empty(0, object)
    return shapely.make_valid(np.asarray(polys, dtype=object))


def _bounds_box(bounds: Any, walls: NDArray[np.object_]) -> shapely.Polygon:
    """The bounds rectangle: given (width, height) or (left, bottom, right, top), else the walls' extent."""
    if bounds is None:
        if walls.size == 0:
            raise InvalidGeometryError("bounds is needed when there are no wall sprites")
        return shapely.box(*shapely.total_bounds(walls))
    try:
        values = [float(v) for v in bounds]
    except (TypeError, ValueError):
        values = []
    if len(values) == 2:
        values = [0.0, 0.0, *values]
    if len(values) != 4 or not all(math.isfinite(v) for v in values) or values[2] <= values[0] or values[3] <= values[1]:
        raise InvalidGeometryError(
            f"bounds={describe(bounds)} is not valid; expected (width, height) or (left, bottom, right, top), "
            "finite, with positive size"
        )
    return shapely.box(*values)


def level_from_sprites(
    walls: Iterable[arcade.BasicSprite],
    *,
    bounds: Sequence[float] | None = None,
    waypoints: ArrayLike | None = None,
    **level_options: Any,
) -> Level:
    """A level whose obstacles are the hit boxes of wall sprites (touching ones merged).

    Parameters
    ----------
    walls : arcade.SpriteList or iterable of sprites
        The walls. Their hit boxes are read as they are now (position, scale, rotation).
    bounds : (width, height) or (left, bottom, right, top), optional
        The bounds rectangle in world units (the window, usually). Default: the walls' extent.
    waypoints : float array of shape (n, 2), optional
        Waypoints; without any, build the graph with ``corners=True`` or ``fill_spacing=``.
    **level_options
        Passed to :class:`~navmesh.level.Level` (``terrain``, ``links``, ``on_bad_waypoint``, ...).

    Returns
    -------
    Level

    Raises
    ------
    InvalidGeometryError
        ``bounds`` is malformed, or missing while there are no walls; or a wall sprite's hit box
        is not finite or beyond +-1e15 (the message gives its index in ``walls``).
    InvalidOptionError
        ``walls`` holds something other than sprites.
    """
    boxes = _hit_boxes(walls)
    area = _bounds_box(bounds, boxes)
    merged = shapely.get_parts(shapely.union_all(boxes)) if boxes.size else []
    obstacles = [p for p in merged if isinstance(p, shapely.Polygon) and p.area > 0]
    if waypoints is None:
        waypoints = np.zeros((0, 2))
    return Level(area, obstacles=obstacles, waypoints=waypoints, **level_options)


def level_from_tilemap(tile_map: arcade.TileMap, *, wall_layers: Iterable[str] = ("walls",), **options: Any) -> Level:
    """A level from a map loaded with ``arcade.load_tilemap`` (its scaling and offset honoured).

    Object layers of polygons and tile layers of walls are read as described in
    :mod:`navmesh.io.tiled` (terrain from tile properties included).

    Parameters
    ----------
    tile_map : arcade.TileMap
    wall_layers : iterable of str
        Tile layers whose tiles are walls (arcade's bundled maps call theirs ``"Platforms"``).
    **options
        Passed to :func:`~navmesh.io.tiled.load_tiled_level`.

    Examples
    --------
    >>> import arcade
    >>> tile_map = arcade.load_tilemap(":resources:tiled_maps/test_map_1.json", scaling=0.5)
    >>> level = level_from_tilemap(tile_map, wall_layers=["Platforms"])
    >>> level.bounds.bounds, level.obstacles[0].bounds
    ((0.0, 0.0, 640.0, 320.0), (0.0, 0.0, 640.0, 64.0))
    """
    return load_tiled_level(tile_map, wall_layers=wall_layers, **options)


def _check_radius(agent_radius: Any, *, extent: float) -> float:
    """``agent_radius`` as a float in ``[0, extent]`` (``extent``: the diagonal of the grid's area)."""
    try:
        r = float(agent_radius) if not isinstance(agent_radius, bool) else float("nan")
    except (TypeError, ValueError, OverflowError):
        r = float("nan")
    if not (r >= 0 and math.isfinite(r)):
        raise InvalidOptionError(f"agent_radius={describe(agent_radius)} is not valid; expected a finite number >= 0")
    if r > extent:
        raise InvalidOptionError(
            f"agent_radius={describe(agent_radius)} is larger than the whole grid (diagonal {extent:g} world units); "
            "expected a radius from 0 to the grid's diagonal"
        )
    return r


def _grow_walls(grid: GridMap, agent_radius: float) -> GridMap:
    """The grid with every cell blocked whose centre lies closer than ``agent_radius`` to a wall cell."""
    r = _check_radius(agent_radius, extent=math.hypot(grid.width, grid.height) * grid.cell_size)
    reach = int(math.ceil(r / grid.cell_size + 0.5))
    if r == 0 or reach < 1:
        return grid
    off = np.arange(-reach, reach + 1)
    gap = np.maximum(np.abs(off) - 0.5, 0.0)  # centre to the nearest edge of a cell that far away
    footprint = np.hypot(gap[:, None], gap[None, :]) * grid.cell_size < r
    grown = ndimage.binary_dilation(grid.blocked, structure=footprint)
    if r > grid.cell_size / 2:
        closed = int((grown & ~grid.blocked).sum())
        free = int((~grid.blocked).sum())
        if closed:
            warnings.warn(
                f"agent_radius={r:.6g} is more than half the cell size ({grid.cell_size:.6g} / 2): it closes every "
                f"corridor narrower than 2 x {r:.6g} = {2 * r:.6g} world units, one-cell corridors included "
                f"({closed} of {free} free cells blocked). A unit whose hit box fits a cell passes a one-cell "
                "corridor: for a sprite use sprite_radius(sprite, fit='box') (half its hit box's larger side) "
                "instead of the circle round it",
                NavmeshWarning, stacklevel=3,
            )
    return GridMap(
        np.where(grown, np.inf, grid.costs), cell_size=grid.cell_size, origin=grid.origin,
        connectivity=grid.connectivity, diagonal=grid.diagonal, wrap=grid.wrap, regions=grid.regions,
    )


def grid_from_sprites(
    walls: Iterable[arcade.BasicSprite],
    cell_size: float,
    *,
    bounds: Sequence[float] | None = None,
    agent_radius: float = 0.0,
    **grid_options: Any,
) -> GridMap:
    """A tile grid over ``bounds`` whose cells are blocked where a wall sprite's hit box covers them.

    A cell is blocked when a hit box overlaps it with positive area (sprites standing exactly on
    cells block exactly those cells; touching an edge does not block). The grid's bottom-left
    corner is the bounds' bottom-left corner, so ``grid.cell_at(sprite.position)`` and
    ``grid.cell_center(cell)`` are plain arcade positions.

    Parameters
    ----------
    walls : arcade.SpriteList or iterable of sprites
    cell_size : float
        Side of a cell, world units, > 0 (usually the wall sprites' size); small enough cells to
        cover ``bounds`` with at most :data:`MAX_SPRITE_GRID_CELLS` (4,194,304) cells.
    bounds : (width, height) or (left, bottom, right, top), optional
        Area covered; default the walls' extent. Sizes are rounded up to whole cells.
    agent_radius : float
        Also block cells whose centre is closer than this to a wall cell (world units, from 0 to
        the diagonal of ``bounds``), so an agent of that radius walking from cell centre to cell
        centre never touches a wall.
        Games' rule for tile grids is that a unit fitting a cell passes a one-cell corridor:
        that holds for any radius up to half the cell size (nothing is blocked then); use
        ``sprite_radius(unit, fit="box")``. A larger radius closes one-cell corridors, with a
        :class:`~navmesh.errors.NavmeshWarning` naming the numbers.
    **grid_options
        Passed to :class:`~navmesh.grid.GridMap` (``connectivity``, ``diagonal``).

    Warns
    -----
    NavmeshWarning
        ``agent_radius`` exceeds half the cell size and closes cells.

    Raises
    ------
    InvalidGeometryError
        Bad bounds, or a wall sprite's hit box is not finite (the message gives its index).
    InvalidOptionError
        ``cell_size`` is not > 0 or makes more than :data:`MAX_SPRITE_GRID_CELLS` cells;
        ``agent_radius`` is negative, not finite or longer than the bounds' diagonal; ``walls``
        holds something other than sprites.
    """
    boxes = _hit_boxes(walls)
    left, bottom, right, top = _bounds_box(bounds, boxes).bounds
    try:
        size = float(cell_size)
    except (TypeError, ValueError):
        size = float("nan")
    if not (size > 0 and math.isfinite(size)):
        raise InvalidOptionError(f"cell_size={describe(cell_size)} is not valid; expected a finite number > 0")
    cols, rows = (math.ceil((right - left) / size - 1e-9), math.ceil((top - bottom) / size - 1e-9))
    if cols * rows > MAX_SPRITE_GRID_CELLS:
        raise InvalidOptionError(  # Decimal: the count may not even fit a float
            f"cell_size={describe(cell_size)} is too small: bounds {right - left:g} x {top - bottom:g} would make "
            f"{Decimal(cols * rows):.2e} cells; grid_from_sprites supports at most "
            f"{MAX_SPRITE_GRID_CELLS} cells (MAX_SPRITE_GRID_CELLS); use a larger cell_size"
        )
    _check_radius(agent_radius, extent=math.hypot(right - left, top - bottom))
    blocked = np.zeros((rows, cols), dtype=bool)
    if boxes.size:
        c, r = np.meshgrid(np.arange(cols), np.arange(rows))
        x0, y0 = left + c * size, top - (r + 1) * size  # row 0 is the top row
        cells = shapely.box(x0.ravel(), y0.ravel(), x0.ravel() + size, y0.ravel() + size)
        tree = shapely.STRtree(cells)
        wall_idx, cell_idx = tree.query(boxes, predicate="intersects")
        overlap = shapely.area(shapely.intersection(boxes[wall_idx], cells[cell_idx])) > 1e-9 * size * size
        blocked.ravel()[cell_idx[overlap]] = True
    grid = GridMap(blocked, cell_size=size, origin=(left, bottom), **grid_options)
    return _grow_walls(grid, agent_radius)


def grid_from_tilemap(
    tile_map: arcade.TileMap, walls_layer: str = "walls", *, agent_radius: float = 0.0, **grid_options: Any
) -> GridMap:
    """A tile grid of a map loaded with ``arcade.load_tilemap``: one cell per tile, placed like its sprites.

    Tiles in the tile layer ``walls_layer`` block their cells; tile properties ``cost`` set cell
    multipliers (see :meth:`GridMap.from_tiled <navmesh.grid.GridMap.from_tiled>`). The map's
    ``scaling`` and ``offset`` are honoured, so ``grid.cell_center(cell)`` is where arcade draws
    that tile's sprite.

    Parameters
    ----------
    tile_map : arcade.TileMap
    walls_layer : str
        Name of the tile layer of walls (``"Platforms"`` in arcade's bundled maps).
    agent_radius : float
        Also block cells closer than this to a wall cell (world units, from 0 to the map's
        diagonal); see :func:`grid_from_sprites`.
    **grid_options
        ``cost_property``, ``connectivity``, ``diagonal``, ``wrap`` as for ``GridMap.from_tiled``.

    Examples
    --------
    >>> import arcade
    >>> tile_map = arcade.load_tilemap(":resources:tiled_maps/test_map_1.json", scaling=0.5)
    >>> grid = grid_from_tilemap(tile_map, "Platforms")
    >>> grid.shape, grid.cell_size, bool(grid.blocked[-1].all())     # the bottom row is floor tiles
    ((5, 10), 64.0, True)
    >>> sprite = tile_map.sprite_lists["Platforms"][0]
    >>> grid.cell_center(grid.cell_at(sprite.position)).tolist() == list(sprite.position)
    True
    """
    if not (hasattr(tile_map, "tiled_map") and hasattr(tile_map, "scaling")):
        raise InvalidOptionError(f"tile_map={describe(tile_map)} is not an arcade.TileMap")
    offset = getattr(tile_map, "offset", (0.0, 0.0))
    grid = GridMap.from_tiled(
        tile_map, walls_layer=walls_layer, scaling=tile_map.scaling, origin=(float(offset[0]), float(offset[1])),
        **grid_options,
    )
    return _grow_walls(grid, agent_radius)


def sprite_radius(sprite: arcade.BasicSprite, *, fit: Literal["circle", "box"] = "circle") -> float:
    """An agent radius for a sprite, from its hit box (world units).

    Parameters
    ----------
    sprite : arcade sprite
    fit : {"circle", "box"}
        ``"circle"`` (default): the radius of the circle around the sprite's centre that holds
        its whole hit box, for waypoint maps (an agent of this radius never overlaps a wall,
        whichever way it turns). ``"box"``: half the larger side of the hit box's extent around
        the centre, for tile grids (:func:`grid_from_sprites`), where a unit moves from cell
        centre to cell centre without turning: a unit whose box fits a cell (this at most half
        the cell size) passes a one-cell corridor.

    Examples
    --------
    >>> import arcade
    >>> round(sprite_radius(arcade.SpriteSolidColor(30, 40)), 6)
    25.0
    >>> sprite_radius(arcade.SpriteSolidColor(30, 40), fit="box")
    20.0
    """
    check_option("fit", fit, ("circle", "box"))
    dx, dy = _hit_box_offsets(sprite)
    if fit == "box":
        return float(max(np.abs(dx).max(), np.abs(dy).max()))
    return float(np.hypot(dx, dy).max())


def _hit_box_offsets(sprite: arcade.BasicSprite) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The sprite's hit box corners relative to its centre (x offsets, y offsets)."""
    try:
        pts = np.asarray(sprite.hit_box.get_adjusted_points(), dtype=np.float64).reshape(-1, 2)
        cx, cy = float(sprite.center_x), float(sprite.center_y)
    except (AttributeError, TypeError, ValueError):
        raise InvalidOptionError(f"sprite={describe(sprite)} is not an arcade sprite") from None
    return pts[:, 0] - cx, pts[:, 1] - cy


def walk_to(
    sprite: arcade.BasicSprite,
    where: NavQuery | NavMap | MeshQuery | PolyMesh | GridMap,
    goal: ArrayLike,
    speed: float,
    **follower_options: Any,
) -> PathFollower:
    """Plan from the sprite's position to ``goal`` and return a follower for :func:`follow_path`.

    Call it again from wherever the sprite stands (a chaser re-planning every few frames): any
    position a follower produced is a valid start. A start or goal inside a wall follows the
    library's endpoint policy: it moves to the nearest walkable point (``path.start_moved`` /
    ``goal_moved``); a sprite standing in a wall walks out from where it stands, continuously.

    Parameters
    ----------
    sprite : arcade sprite
        The unit; its ``position`` is the start.
    where : NavQuery, NavMap, MeshQuery, PolyMesh or GridMap
        What to search: a NavQuery or MeshQuery (its cost profile applies; re-plans use it
        too), a NavMap or PolyMesh (default profile) or a GridMap (:meth:`GridMap.find_path <navmesh.grid.GridMap.find_path>`,
        cell centres as waypoints).
    goal : pair of float
        World position.
    speed : float
        World units per second, > 0.
    **follower_options
        Passed to :class:`~navmesh.steering.PathFollower` (``mode="hermite"``, ``radius``, ...).

    Returns
    -------
    PathFollower
        Starting exactly at the sprite's position. On a grid the route runs from the sprite's
        position through the cell centres to the goal and never sweeps the sprite's hit box over
        a blocked cell: it goes by the centre of the sprite's own cell unless the first step
        from where it stands is clear, and stops at the goal cell's centre (or as near the goal
        as the hit box stays clear) when the hit box would overlap a blocked cell at the goal.

    Raises
    ------
    NoPathError
        The goal cannot be reached.
    NodeNotFoundError
        The sprite or the goal lies farther outside the level's bounds (the grid) than
        :data:`~navmesh.endpoints.BOUNDS_MARGIN` (5%) of its size; or nothing at all is walkable.
    InvalidGeometryError
        The goal is not two finite numbers.
    """
    start = np.array(sprite.position, dtype=np.float64)
    end = np.asarray(goal, dtype=np.float64).reshape(-1)
    if end.shape != (2,) or not np.isfinite(end).all():
        raise InvalidGeometryError(f"goal={describe(goal)} is not valid; expected two finite numbers (x, y)")
    if isinstance(where, GridMap):
        return PathFollower(_grid_route(where, sprite, start, end), speed, **follower_options)
    if isinstance(where, PolyMesh):
        where = MeshQuery(where)
    if isinstance(where, MeshQuery):
        path = from_here(where.find_path(start, end), start)
        follower_options.setdefault("profile", where.profile)
        return PathFollower(path, speed, navmap=where, **follower_options)
    if isinstance(where, NavQuery):
        query = where
        path = query.find_path(start, end)
    else:
        path = find_path(where, start, end)
        query = None
    path = from_here(path, start)
    if query is not None:
        follower_options.setdefault("profile", query.profile)
    return PathFollower(path, speed, navmap=where if query is None else query.navmap, **follower_options)


def _grid_route(grid: GridMap, sprite: arcade.BasicSprite, start: NDArray[np.float64],
                goal: NDArray[np.float64]) -> NDArray[np.float64]:
    """The route of :func:`walk_to` on a grid (see its Returns)."""
    path = grid.find_path(start, goal)
    dx, dy = _hit_box_offsets(sprite)
    box = (min(dx.min(), 0.0), min(dy.min(), 0.0), max(dx.max(), 0.0), max(dy.max(), 0.0))
    centres = path.points[:, :2]
    end = centres[-1]
    if not path.goal_moved:
        end = goal
        if not _sweep_clear(grid, box, centres[-1], goal):
            # the hit box at the goal would overlap a wall: go as near as the box stays in the goal cell
            half = grid.cell_size / 2
            lo = centres[-1] - half - np.array(box[:2])
            hi = centres[-1] + half - np.array(box[2:])
            end = np.where(lo <= hi, np.clip(goal, lo, np.maximum(lo, hi)), centres[-1])
    route = [start, *centres, end]
    # skip the first and last cell centres when going straight past them keeps the box clear
    if len(route) >= 3 and _sweep_clear(grid, box, route[0], route[2]):
        del route[1]
    if len(route) > 3 and _sweep_clear(grid, box, route[-3], route[-1]):
        del route[-2]
    return np.vstack(route)


def _sweep_clear(grid: GridMap, box: tuple[float, float, float, float], a: NDArray[np.float64],
                 b: NDArray[np.float64]) -> bool:
    """Whether the hit box (offsets ``box`` = (left, bottom, right, top) from the centre) stays off
    blocked cells and inside the grid while its centre moves straight from ``a`` to ``b``.

    The swept area lies inside the bounding box of the two end boxes; every cell that bounding
    box overlaps with positive area must be passable (a conservative test)."""
    s = grid.cell_size
    ox, oy = grid.origin
    x0, x1 = min(a[0], b[0]) + box[0], max(a[0], b[0]) + box[2]
    y0, y1 = min(a[1], b[1]) + box[1], max(a[1], b[1]) + box[3]
    c0, c1 = math.floor((x0 - ox) / s), math.ceil((x1 - ox) / s) - 1
    r0, r1 = math.floor((y0 - oy) / s), math.ceil((y1 - oy) / s) - 1  # rows counted upward
    if c0 < 0 or r0 < 0 or c1 >= grid.width or r1 >= grid.height:
        return False
    rows = slice(grid.height - 1 - r1, grid.height - r0)
    return not bool(grid.blocked[rows, c0 : c1 + 1].any())


def _arcade_angle(heading: float | NDArray[np.float64], facing: float) -> Any:
    """arcade's sprite angle (degrees clockwise) for a heading (radians counter-clockwise from +x)."""
    return facing - np.degrees(heading)


def follow_path(
    sprite: arcade.BasicSprite, follower: PathFollower, delta_time: float, *, turn: bool = False, facing: float = 0.0
) -> tuple[FollowerEvent, ...]:
    """Advance ``follower`` by ``delta_time`` seconds and put the sprite where it is (call in on_update).

    Parameters
    ----------
    sprite : arcade sprite
    follower : PathFollower
    delta_time : float
        Seconds since the last update (arcade's ``on_update`` argument), >= 0; 0 (a paused
        game) leaves the follower and the sprite where they are.
    turn : bool
        Also turn the sprite to its heading.
    facing : float
        With ``turn``: the sprite angle (degrees clockwise, arcade's convention) at which its
        texture faces +x. Default 0 (the texture faces right).

    Returns
    -------
    tuple of FollowerEvent
        What happened during this update (``"goal"`` on arrival, re-plans, ...).
    """
    events = follower.update(delta_time)
    sprite.position = (float(follower.position[0]), float(follower.position[1]))
    if turn:
        sprite.angle = float(_arcade_angle(follower.heading, facing))
    return events


def place_sprites(
    sprites: Sequence[arcade.BasicSprite], crowd: Crowd, ids: ArrayLike, *, turn: bool = False, facing: float = 0.0
) -> None:
    """Put each sprite on its crowd unit (call after ``crowd.update(delta_time)`` in on_update).

    Parameters
    ----------
    sprites : sequence of arcade sprites (a SpriteList works)
    crowd : Crowd
    ids : int array of shape (len(sprites),)
        The crowd unit of each sprite, as returned by ``crowd.add``.
    turn, facing
        As for :func:`follow_path`.

    Raises
    ------
    InvalidOptionError
        ``crowd`` is not a Crowd, or ``ids`` and ``sprites`` differ in length.
    NodeNotFoundError
        An id is not an integer, or is outside ``0 .. len(crowd) - 1`` (negative ids are not
        counted from the end).
    """
    if not isinstance(crowd, Crowd):
        raise InvalidOptionError(f"crowd={describe(crowd)} is not a navmesh.Crowd")
    idx = np.atleast_1d(as_array("ids", ids, NodeNotFoundError))
    if idx.ndim != 1 or not (np.issubdtype(idx.dtype, np.integer) or idx.size == 0):
        raise NodeNotFoundError(
            f"ids={describe(ids)} is not valid; expected integer unit ids as returned by crowd.add, one per sprite"
        )
    idx = idx.astype(np.int64)  # an empty list reads as floats
    if idx.size != len(sprites):
        raise InvalidOptionError(f"ids has {idx.size} entries for {len(sprites)} sprites; expected one per sprite")
    out = (idx < 0) | (idx >= len(crowd))
    if out.any():
        raise NodeNotFoundError(
            f"ids holds {int(idx[out][0])}, out of range; the crowd has unit ids 0..{len(crowd) - 1}"
        )
    xy = crowd.positions[idx].tolist()
    angles = _arcade_angle(crowd.headings[idx], facing).tolist() if turn else None
    for i, sprite in enumerate(sprites):
        sprite.position = (xy[i][0], xy[i][1])
        if angles is not None:
            sprite.angle = angles[i]
