"""Import a Tiled map (``.tmj`` / ``.json`` / ``.tmx``) into a :class:`~navmesh.level.Level`, or
read it as a grid of cell costs (:func:`read_tiled_grid`, behind ``GridMap.from_tiled``).

The map is read with ``pytiled_parser`` (the reader arcade's ``load_tilemap`` uses). It may be given
as a file path, an arcade resource path (``":resources:tiled_maps/level_1.json"``), a
``pytiled_parser.TiledMap`` or an ``arcade.TileMap`` (whose ``scaling`` and ``offset`` are then
used). Which part of the map becomes what:

- **waypoints**: every point object, in any object layer (layers in file order, objects in file
  order). A numeric ``z`` property makes the waypoints 3-D (others get z = 0).
- **obstacles**: rectangles, polygons and ellipses in a layer named ``obstacle_layer``
  (default ``"obstacles"``), or with a boolean property ``obstacle`` = true on the object or its
  layer; and the cells of tile layers of walls: every tile in a tile layer named in
  ``wall_layers`` (default ``("walls",)``) or with the layer property ``obstacle`` = true, and
  every tile whose tileset gives it the property ``obstacle`` = true, in any tile layer. Wall
  cells are merged into few rectangles.
- **terrain regions**: rectangles, polygons and ellipses with a tag, taken from (first match):
  the object's ``terrain`` property, its layer's ``terrain`` property, or, in a layer named
  ``terrain_layer`` (default ``"terrain"``), the object's class (type) or name. In tile layers,
  the cells of tiles with a string property ``terrain`` (or every tile of a tile layer with a
  ``terrain`` property). Painter's order is the file order, which is Tiled's drawing order:
  what is drawn on top wins.
- **bounds**: a rectangle or polygon in a layer named ``bounds_layer`` (default ``"bounds"``),
  otherwise the whole map rectangle (``width x tilewidth`` by ``height x tileheight`` pixels).

Other objects (polylines, text, tile objects) are ignored; in an obstacle or terrain layer they
raise a ``NavmeshWarning`` because they are probably a mistake. Visibility flags are ignored. A map
that yields no obstacle, no waypoint and no terrain raises a ``NavmeshWarning`` that lists the
layers read and the layers skipped (a map whose walls sit in a tile layer of another name needs
``wall_layers=[...]``).

Coordinates
-----------
Tiled uses pixels with y growing downward from the map's top-left corner; navmesh uses y up, like
arcade. World coordinates are ``x_world = x_tiled * scaling + offset_x`` and
``y_world = (map_height_px - y_tiled) * scaling + offset_y``, exactly where arcade's
``load_tilemap(..., scaling=, offset=)`` puts sprites and objects (the map's bottom-left corner
at ``offset``). Layer and group offsets are added first; object rotation (degrees clockwise on
screen, about the object's x, y) is applied. Ellipses become 16-gons that circumscribe the ellipse
(conservative for obstacles).
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
import pytiled_parser
from pytiled_parser import tiled_object as tobj
from pytiled_parser.layer import LayerGroup, ObjectLayer, TileLayer

from navmesh._checks import describe
from navmesh.errors import InvalidOptionError, LevelFormatError, NavmeshError, NavmeshWarning
from navmesh.geometry import as_polygon, as_polygons, cell_rectangles
from navmesh.level import BadWaypointPolicy, Level
from navmesh.terrain import TerrainRegion

__all__ = ["load_tiled_level", "read_tiled_grid"]

_ELLIPSE_SIDES = 16
_GID_MASK = 0x0FFFFFFF  # Tiled keeps flip flags in the top bits of a tile id


def _walk(
    layers: Iterable[Any], offset: tuple[float, float], where: str
) -> Iterator[tuple[Any, tuple[float, float]]]:
    """Object and tile layers in file order, with the summed offset of their groups."""
    for layer in layers or ():
        dx, dy = layer.offset if layer.offset is not None else (0.0, 0.0)
        off = (offset[0] + _num(dx, where, f"layer {layer.name!r} offsetx"),
               offset[1] + _num(dy, where, f"layer {layer.name!r} offsety"))
        if isinstance(layer, LayerGroup):
            yield from _walk(layer.layers or (), off, where)
        else:
            yield layer, off


def _num(value: Any, where: str, field: str) -> float:
    """A finite float from a map field, or a LevelFormatError naming the file and field."""
    try:
        out = float(value) if not isinstance(value, (bool, str)) else float("nan")
    except (TypeError, ValueError):
        out = float("nan")
    if not math.isfinite(out):
        raise LevelFormatError(f"{where}: field {field} = {_short(value)} is not a finite number")
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _local_outline(obj: Any, where: str) -> np.ndarray | None:
    """Outline of a shape object in its own frame (relative to obj.coordinates), Tiled y-down."""
    if isinstance(obj, tobj.Polygon):
        return np.array(
            [(_num(p.x, where, f"points[{i}].x"), _num(p.y, where, f"points[{i}].y")) for i, p in enumerate(obj.points)],
            dtype=np.float64,
        ).reshape(-1, 2)
    if not isinstance(obj, (tobj.Ellipse, tobj.Rectangle)):
        return None
    w, h = _num(obj.size.width, where, "width"), _num(obj.size.height, where, "height")
    if isinstance(obj, tobj.Ellipse):
        k = np.arange(_ELLIPSE_SIDES) * (2 * math.pi / _ELLIPSE_SIDES)
        grow = 1.0 / math.cos(math.pi / _ELLIPSE_SIDES)  # chords tangent to the ellipse, not inside it
        return np.column_stack([w / 2 * (1 + grow * np.cos(k)), h / 2 * (1 + grow * np.sin(k))])
    return np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])


class _Frame:
    """Tiled pixels (y down, layer offset) to world units (y up, scaled and shifted like arcade)."""

    def __init__(self, height_px: float, scaling: float, offset: tuple[float, float]) -> None:
        self.height_px = height_px
        self.scaling = scaling
        self.offset = offset

    def world(self, xy_tiled: np.ndarray) -> np.ndarray:
        x = xy_tiled[:, 0] * self.scaling + self.offset[0]
        y = (self.height_px - xy_tiled[:, 1]) * self.scaling + self.offset[1]
        return np.column_stack([x, y])

    def object_ring(self, local: np.ndarray, obj: Any, layer_offset: tuple[float, float], where: str) -> np.ndarray:
        angle = math.radians(_num(obj.rotation or 0.0, where, "rotation"))
        if angle:
            c, s = math.cos(angle), math.sin(angle)
            # Clockwise on screen is counter-clockwise in y-down maths: the usual rotation matrix.
            local = np.column_stack([local[:, 0] * c - local[:, 1] * s, local[:, 0] * s + local[:, 1] * c])
        x0 = _num(obj.coordinates.x, where, "x") + layer_offset[0]
        y0 = _num(obj.coordinates.y, where, "y") + layer_offset[1]
        return self.world(local + [x0, y0])

    def cell_boxes(self, mask: np.ndarray, tile: tuple[float, float], layer_offset: tuple[float, float]) -> list[np.ndarray]:
        """Outlines (world units) of few rectangles covering the True cells (row 0 = top row)."""
        rings = []
        for box in cell_rectangles(mask):
            x0, r0, x1, r1 = box.bounds  # columns and rows, rows counted downward like Tiled
            corners = np.array([(x0, r0), (x1, r0), (x1, r1), (x0, r1)]) * tile + layer_offset
            rings.append(self.world(corners))
        return rings


def _prop(props: Any, key: str) -> Any:
    return (props or {}).get(key)


def _resolve(path: str | os.PathLike[str]) -> Path:
    """A file path, with arcade's ``:resources:`` handle resolved without importing arcade."""
    text = os.fspath(path)
    if not text.startswith(":"):
        return Path(text)
    arcade = sys.modules.get("arcade")
    if arcade is not None:  # arcade is loaded: use its resolver, which knows user-added handles
        try:
            return Path(arcade.resources.resolve(text))
        except (FileNotFoundError, KeyError, ValueError) as exc:
            raise FileNotFoundError(f"Tiled map {text} does not exist ({exc})") from None
    handle, _, rest = text[1:].partition(":")
    spec = importlib.util.find_spec("arcade")
    if handle != "resources" or spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"Tiled map {text}: unknown resource handle {handle!r}")
    return Path(next(iter(spec.submodule_search_locations))) / "resources" / "assets" / rest.lstrip("/")


def _open(source: Any) -> tuple[Any, str, float, tuple[float, float]]:
    """(TiledMap, name for messages, arcade scaling, arcade offset) for any accepted source."""
    if isinstance(source, (str, os.PathLike)):
        p = _resolve(source)
        if not p.is_file():
            raise FileNotFoundError(f"Tiled map {os.fspath(source)} does not exist")
        if p.stat().st_size == 0:
            raise LevelFormatError(f"{p}: the file is empty; expected a Tiled map")
        try:
            return pytiled_parser.parse_map(p), str(p), 1.0, (0.0, 0.0)
        except Exception as exc:  # noqa: BLE001 - the parser raises many kinds (JSON, XML, Key, Index, ...)
            raise LevelFormatError(f"{p}: not a readable Tiled map ({type(exc).__name__}: {exc})") from None
    if isinstance(source, pytiled_parser.TiledMap):
        return source, str(source.map_file or "tiled map"), 1.0, (0.0, 0.0)
    inner = getattr(source, "tiled_map", None)
    if isinstance(inner, pytiled_parser.TiledMap):  # an arcade.TileMap
        off = getattr(source, "offset", (0.0, 0.0))
        return inner, str(inner.map_file or "tile map"), float(getattr(source, "scaling", 1.0)), (float(off[0]), float(off[1]))
    raise InvalidOptionError(
        f"source={describe(source)} is not a Tiled map; pass a file path, a ':resources:' path, "
        "a pytiled_parser.TiledMap or an arcade.TileMap"
    )


def _tile_properties(tmap: Any) -> dict[int, dict[str, Any]]:
    """Tile properties by global tile id (gid)."""
    out = {}
    for firstgid, tileset in (tmap.tilesets or {}).items():
        for local_id, tile in (tileset.tiles or {}).items():
            if tile.properties:
                out[int(firstgid) + int(local_id)] = tile.properties
    return out


def _gids(layer: Any, shape: tuple[int, int], where: str) -> np.ndarray:
    """The layer's tile ids as an int array of ``shape`` (flip flags removed), 0 = no tile."""
    rows = layer.data or []
    if len(rows) != shape[0] or any(len(r) != shape[1] for r in rows):
        got = sum(len(r) for r in rows)
        raise LevelFormatError(
            f"{where}: field data holds {got} tiles in {len(rows)} rows; expected {shape[0]} rows of {shape[1]}"
        )
    try:
        return np.array(rows, dtype=np.int64) & _GID_MASK
    except (TypeError, ValueError, OverflowError):
        raise LevelFormatError(f"{where}: field data holds a value that is not a tile id") from None


def load_tiled_level(
    source: Any,
    *,
    wall_layers: Iterable[str] = ("walls",),
    scaling: float | None = None,
    offset: tuple[float, float] | None = None,
    obstacle_layer: str = "obstacles",
    terrain_layer: str = "terrain",
    bounds_layer: str = "bounds",
    on_bad_waypoint: BadWaypointPolicy = "error",
    known_tags: Iterable[str] | None = None,
    repair: bool = False,
) -> Level:
    """Read a Tiled map and turn its object and tile layers into a :class:`Level` (see module notes).

    Parameters
    ----------
    source : path-like, ``":resources:..."`` str, ``pytiled_parser.TiledMap`` or ``arcade.TileMap``
        A Tiled map in JSON (``.tmj``/``.json``) or TMX format; orthogonal, finite (or with a
        bounds layer). An ``arcade.TileMap`` brings its own ``scaling`` and ``offset``.
    wall_layers : iterable of str
        Names of the tile layers whose tiles are all walls. Default ``("walls",)``.
    scaling : float, optional
        World units per Tiled pixel, > 0, as arcade's ``load_tilemap(scaling=)``. Default: the
        arcade map's scaling, else 1.
    offset : pair of float, optional
        World position of the map's bottom-left corner, as arcade's ``load_tilemap(offset=)``.
        Default: the arcade map's offset, else (0, 0).
    obstacle_layer, terrain_layer, bounds_layer : str
        Names of the object layers holding obstacles, terrain regions and the level bounds (the outline units stay inside).
    on_bad_waypoint, known_tags, repair
        As for :class:`Level`.

    Returns
    -------
    Level
        In world coordinates: arcade's (y up, origin at the map's bottom-left corner plus
        ``offset``, sizes times ``scaling``).

    Raises
    ------
    LevelFormatError
        The file is empty or cannot be parsed, the map is not orthogonal, a field is not a finite
        number, a tile layer is shorter than the map, a shape is invalid, a terrain object has no
        tag, or the level is invalid; the message names the file, layer, object and field.
    InvalidOptionError
        ``source`` is not a map, or ``scaling`` / ``offset`` are not finite (scaling > 0).
    FileNotFoundError
        The file does not exist.

    Warns
    -----
    NavmeshWarning
        The map gave no obstacle, waypoint or terrain (the message lists the layers read and the
        layers skipped); an object of an unusable kind sits in an obstacle or terrain layer.

    Examples
    --------
    >>> from pathlib import Path
    >>> sample = Path("tests/data/tiled/level_sample.tmj")
    >>> level = load_tiled_level(sample) if sample.exists() else None
    >>> level is None or level.bounds.bounds == (0.0, 0.0, 640.0, 480.0)
    True
    >>> level = load_tiled_level(":resources:tiled_maps/test_map_1.json", wall_layers=["Platforms"], scaling=0.5)
    >>> level.bounds.bounds, [wall.bounds for wall in level.obstacles]   # the bottom row of tiles
    ((0.0, 0.0, 640.0, 320.0), [(0.0, 0.0, 640.0, 64.0)])
    """
    tmap, name, map_scaling, map_offset = _open(source)
    scale = map_scaling if scaling is None else scaling
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not (0 < scale < math.inf):
        raise InvalidOptionError(f"scaling={describe(scaling)} is not valid; expected a finite number > 0")
    try:
        shift = tuple(float(v) for v in (map_offset if offset is None else offset))
    except (TypeError, ValueError):
        shift = ()
    if len(shift) != 2 or not all(math.isfinite(v) for v in shift):
        raise InvalidOptionError(f"offset={describe(offset)} is not valid; expected two finite numbers (x, y)")
    if isinstance(wall_layers, str):
        wall_layers = (wall_layers,)
    walls_by_name = frozenset(wall_layers)
    if tmap.orientation != "orthogonal":
        raise LevelFormatError(f"{name}: orientation {tmap.orientation!r} is not supported; only orthogonal maps")
    cols = int(_num(tmap.map_size.width, name, "width"))
    rows = int(_num(tmap.map_size.height, name, "height"))
    tile = (_num(tmap.tile_size.width, name, "tilewidth"), _num(tmap.tile_size.height, name, "tileheight"))
    width_px, height_px = cols * tile[0], rows * tile[1]
    frame = _Frame(height_px, float(scale), (shift[0], shift[1]))
    tile_props = _tile_properties(tmap)

    bounds: Any = None
    obstacles: list[tuple[np.ndarray, str]] = []
    regions: list[tuple[np.ndarray, str, str]] = []
    points: list[tuple[float, float, float | None]] = []
    point_names: list[str] = []
    read: list[str] = []
    skipped: list[str] = []
    for layer, layer_offset in _walk(tmap.layers, (0.0, 0.0), name):
        before = (len(obstacles), len(regions), len(points), bounds is None)
        if isinstance(layer, ObjectLayer):
            bounds = _read_objects(
                layer, layer_offset, frame, name, obstacle_layer, terrain_layer, bounds_layer,
                bounds, obstacles, regions, points, point_names,
            )
        elif isinstance(layer, TileLayer):
            if tmap.infinite:
                skipped.append(f"{layer.name!r} (tile layer of an infinite map)")
                continue
            where = f"{name}: tile layer {layer.name!r}"
            gids = _gids(layer, (rows, cols), where)
            _read_tiles(layer, gids, layer_offset, frame, tile, tile_props, walls_by_name, where, obstacles, regions)
        else:
            skipped.append(f"{layer.name!r} ({type(layer).__name__})")
            continue
        after = (len(obstacles), len(regions), len(points), bounds is None)
        kind = "tile layer" if isinstance(layer, TileLayer) else "object layer"
        (read if after != before else skipped).append(f"{layer.name!r} ({kind})")

    if bounds is None and tmap.infinite:
        raise LevelFormatError(f"{name}: infinite maps need a {bounds_layer!r} layer with the level bounds")
    if not obstacles and not regions and not points:
        warnings.warn(
            f"{name}: nothing navigable found (no obstacle, waypoint or terrain); layers read: "
            f"{', '.join(read) or 'none'}; layers skipped: {', '.join(skipped) or 'none'}. "
            f"Tile layers are walls when named in wall_layers={sorted(walls_by_name)!r} or given the "
            "property obstacle=true",
            NavmeshWarning,
            stacklevel=2,
        )
    return _level(
        name, frame, (width_px, height_px), bounds, obstacles, regions, points, point_names,
        on_bad_waypoint=on_bad_waypoint, known_tags=known_tags, repair=repair,
    )


def _read_objects(
    layer: Any, layer_offset: tuple[float, float], frame: _Frame, name: str, obstacle_layer: str,
    terrain_layer: str, bounds_layer: str, bounds: Any, obstacles: list, regions: list, points: list,
    point_names: list,
) -> Any:
    """Append one object layer's shapes to the lists; return the (possibly found) bounds."""
    layer_is_obstacle = layer.name == obstacle_layer or _prop(layer.properties, "obstacle") is True
    layer_tag = _prop(layer.properties, "terrain")
    for obj in layer.tiled_objects:
        where = f"{name}: layer {layer.name!r} object id={obj.id}" + (f" ({obj.name!r})" if obj.name else "")
        if isinstance(obj, tobj.Point):
            xy = frame.object_ring(np.zeros((1, 2)), obj, layer_offset, where)[0]
            z = _prop(obj.properties, "z")
            if z is not None and (isinstance(z, bool) or not isinstance(z, (int, float))):
                raise LevelFormatError(f"{where}: property z={z!r} must be a number")
            points.append((float(xy[0]), float(xy[1]), None if z is None else float(z)))
            point_names.append(where.split(": ", 1)[1])
            continue
        local = _local_outline(obj, where)
        obj_tag = _prop(obj.properties, "terrain")
        is_obstacle = layer_is_obstacle or _prop(obj.properties, "obstacle") is True
        tag = obj_tag if obj_tag is not None else layer_tag
        if tag is None and layer.name == terrain_layer:
            tag = obj.class_ or obj.name or None
        is_bounds = layer.name == bounds_layer
        if local is None:
            if is_obstacle or tag is not None or layer.name == terrain_layer or is_bounds:
                warnings.warn(f"{where}: {type(obj).__name__} objects are ignored", NavmeshWarning, stacklevel=3)
            continue
        if len(local) < 3:
            raise LevelFormatError(f"{where}: shape has {len(local)} points; a polygon needs at least 3")
        ring = frame.object_ring(local, obj, layer_offset, where)
        if is_bounds:
            if bounds is not None:
                raise LevelFormatError(f"{where}: a second shape in the bounds layer; expected exactly one")
            bounds = (ring, where)
        elif is_obstacle:
            obstacles.append((ring, where))
        elif tag is not None:
            if not isinstance(tag, str) or not tag:
                raise LevelFormatError(f"{where}: terrain tag {tag!r} must be a non-empty string")
            regions.append((ring, tag, where))
        elif layer.name == terrain_layer:
            raise LevelFormatError(
                f"{where}: terrain object without a tag; give it a 'terrain' property, a class or a name"
            )
    return bounds


def _read_tiles(
    layer: Any, gids: np.ndarray, layer_offset: tuple[float, float], frame: _Frame, tile: tuple[float, float],
    tile_props: dict[int, dict[str, Any]], walls_by_name: frozenset[str], where: str, obstacles: list,
    regions: list,
) -> None:
    """Append one tile layer's wall cells (as rectangles) and terrain cells to the lists."""
    present = gids != 0
    used = [int(g) for g in np.unique(gids[present])]
    if layer.name in walls_by_name or _prop(layer.properties, "obstacle") is True:
        walls = present
    else:
        wall_ids = [g for g in used if _prop(tile_props.get(g), "obstacle") is True]
        walls = np.isin(gids, wall_ids)
    obstacles.extend((ring, f"{where} walls") for ring in frame.cell_boxes(walls, tile, layer_offset))
    layer_tag = _prop(layer.properties, "terrain")
    tags: dict[str, list[int]] = {}
    for g in used:
        tag = _prop(tile_props.get(g), "terrain")
        tag = layer_tag if tag is None else tag
        if tag is None:
            continue
        if not isinstance(tag, str) or not tag:
            raise LevelFormatError(f"{where}: tile {g} has terrain={_short(tag)}; expected a non-empty string")
        tags.setdefault(tag, []).append(g)
    for tag in sorted(tags):
        cells = np.isin(gids, tags[tag]) & ~walls
        regions.extend((ring, tag, f"{where} terrain {tag!r}") for ring in frame.cell_boxes(cells, tile, layer_offset))


def _level(
    name: str, frame: _Frame, size_px: tuple[float, float], bounds: Any, obstacles: list, regions: list,
    points: list, point_names: list, **options: Any,
) -> Level:
    """The Level from the collected shapes (world units), with file-naming errors."""
    repair = options.pop("repair")
    try:
        bounds_poly = (
            as_polygon(frame.world(np.array([(0.0, 0.0), (size_px[0], 0.0), (size_px[0], size_px[1]), (0.0, size_px[1])])),
                       name=f"{name} map rectangle")
            if bounds is None
            else as_polygon(bounds[0], name=bounds[1], repair=repair)
        )
        obstacle_polys = [q for ring, where in obstacles for q in as_polygons(ring, name=where, repair=repair)]
        terrain = [TerrainRegion(as_polygon(ring, name=where, repair=repair), tag) for ring, tag, where in regions]
        has_z = any(z is not None for _, _, z in points)
        waypoints = np.array(
            [(x, y, 0.0 if z is None else z) if has_z else (x, y) for x, y, z in points], dtype=np.float64
        ).reshape(-1, 3 if has_z else 2)
        return Level(bounds_poly, obstacles=obstacle_polys, waypoints=waypoints, terrain=terrain, **options)
    except LevelFormatError:
        raise
    except NavmeshError as exc:
        msg = str(exc)
        found = re.search(r"waypoints\[(\d+)\]", msg)
        if found and int(found.group(1)) < len(point_names):
            msg += f" (waypoints[{found.group(1)}] is {point_names[int(found.group(1))]})"
        raise LevelFormatError(f"{name}: {msg}") from None


def read_tiled_grid(source: Any, *, walls_layer: str = "walls", cost_property: str = "cost") -> tuple[np.ndarray, float]:
    """Cell multipliers and tile size of a Tiled map read as a grid (the reader behind
    :meth:`navmesh.grid.GridMap.from_tiled`, which documents the rules).

    Every cell holding a tile in the tile layer ``walls_layer`` (searched inside layer groups
    too) is blocked (``inf``); a tile whose tileset gives it a numeric property
    ``cost_property`` (> 0, in any tile layer) sets its cell's multiplier, the largest where
    several layers give one; other cells cost 1.

    Parameters
    ----------
    source : path-like, ``pytiled_parser.TiledMap`` or ``arcade.TileMap``
        A ``.tmj``/``.json``/``.tmx`` file, or a map already loaded.
    walls_layer : str
        Name of the tile layer whose tiles are walls.
    cost_property : str
        Tile property holding a cost multiplier.

    Returns
    -------
    (multipliers, tile_size) : (float64 array of shape (rows, columns), float)
        Row 0 is the map's top row; ``tile_size`` is the tile side in pixels.

    Raises
    ------
    FileNotFoundError
        No such file.
    InvalidOptionError
        ``source`` is not a Tiled map.
    LevelFormatError
        The map cannot be parsed, is not orthogonal, is infinite, has non-square tiles, has no
        tile layer named ``walls_layer``, or a cost property is not a number > 0.
    """

    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if not os.path.isfile(name):
            raise FileNotFoundError(f"{name}: no such Tiled map file")
        try:
            tmap = pytiled_parser.parse_map(Path(name))
        except Exception as exc:  # the parser raises many kinds of errors on bad input
            raise LevelFormatError(f"{name}: cannot read the Tiled map: {type(exc).__name__}: {exc}") from None
    else:
        tmap = getattr(source, "tiled_map", source)
        name = str(getattr(tmap, "map_file", "tiled map"))
    if not hasattr(tmap, "layers") or not hasattr(tmap, "map_size"):
        raise InvalidOptionError(
            f"source={describe(source)} is not a Tiled map; pass a file path, a pytiled_parser.TiledMap "
            "or an arcade.TileMap"
        )
    if tmap.orientation != "orthogonal":
        raise LevelFormatError(f"{name}: orientation {tmap.orientation!r} is not supported; expected 'orthogonal'")
    if tmap.infinite:
        raise LevelFormatError(f"{name}: infinite maps are not supported; give the map a fixed size")
    tw, th = tmap.tile_size.width, tmap.tile_size.height
    if tw != th or tw <= 0:
        raise LevelFormatError(f"{name}: tiles are {tw}x{th}; grid maps need square tiles")
    h, w = int(tmap.map_size.height), int(tmap.map_size.width)

    gid_cost: dict[int, float] = {}
    for firstgid, tileset in tmap.tilesets.items():
        for local_id, tile in (tileset.tiles or {}).items():
            props = tile.properties or {}
            if cost_property not in props:
                continue
            value = props[cost_property]
            try:
                cost = float(value) if not isinstance(value, bool) else float("nan")
            except (TypeError, ValueError):
                cost = float("nan")
            if not cost > 0:
                raise LevelFormatError(
                    f"{name}: tile {local_id} of tileset {tileset.name!r} has {cost_property}={value!r}; "
                    "expected a number > 0 (inf = blocked)"
                )
            gid_cost[int(firstgid) + int(local_id)] = cost

    def tile_layers(layers: list) -> list:
        out = []
        for layer in layers:
            if isinstance(layer, LayerGroup):
                out.extend(tile_layers(layer.layers or []))
            elif isinstance(layer, TileLayer):
                out.append(layer)
        return out

    layers = tile_layers(tmap.layers)
    multipliers = np.ones((h, w), dtype=np.float64)
    has_cost = np.zeros((h, w), dtype=bool)
    walls = None
    lookup_ids = np.array(sorted(gid_cost), dtype=np.int64)
    lookup_vals = np.array([gid_cost[k] for k in lookup_ids], dtype=np.float64)
    for layer in layers:
        rows = layer.data or []  # pytiled_parser gives one list of tile ids per row
        if len(rows) != h or any(len(row) != w for row in rows):
            raise LevelFormatError(
                f"{name}: tile layer {layer.name!r} holds {sum(map(len, rows))} tiles in {len(rows)} rows; "
                f"expected {h} rows of {w} tiles"
            )
        try:
            data = np.array(rows, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise LevelFormatError(f"{name}: tile layer {layer.name!r} holds a value that is not a tile id") from None
        gids = (data & _GID_MASK).reshape(h, w)
        if layer.name == walls_layer and walls is None:
            walls = gids != 0
        if lookup_ids.size:
            pos = np.clip(np.searchsorted(lookup_ids, gids), 0, lookup_ids.size - 1)
            hit = lookup_ids[pos] == gids
            vals = np.where(hit, lookup_vals[pos], 0.0)
            multipliers = np.where(hit & has_cost, np.maximum(multipliers, vals), np.where(hit, vals, multipliers))
            has_cost |= hit
    if walls is None:
        names = ", ".join(repr(layer.name) for layer in layers) or "none"
        raise LevelFormatError(f"{name}: no tile layer named {walls_layer!r} (tile layers: {names})")
    multipliers[walls] = np.inf
    return multipliers, float(tw)
