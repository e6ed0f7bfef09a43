"""Import a Tiled map (``.tmj`` / ``.json`` / ``.tmx``) into a :class:`~navmesh.level.Level`.

The map is read with ``pytiled_parser`` (the reader arcade's ``load_tilemap`` uses); only object
layers matter. Which object becomes what:

- **waypoints**: every point object, in any object layer (layers in file order, objects in file
  order). A numeric ``z`` property makes the waypoints 3-D (others get z = 0).
- **obstacles**: rectangles, polygons and ellipses in a layer named ``obstacle_layer``
  (default ``"obstacles"``), or with a boolean property ``obstacle`` = true on the object or its
  layer.
- **terrain regions**: rectangles, polygons and ellipses with a tag, taken from (first match):
  the object's ``terrain`` property, its layer's ``terrain`` property, or, in a layer named
  ``terrain_layer`` (default ``"terrain"``), the object's class (type) or name. Painter's order is
  the file order, which is Tiled's drawing order: objects drawn on top win.
- **bounds**: a rectangle or polygon in a layer named ``bounds_layer`` (default ``"bounds"``),
  otherwise the whole map rectangle (``width x tilewidth`` by ``height x tileheight`` pixels).

Other objects (polylines, text, tile objects) are ignored; in an obstacle or terrain layer they
raise a ``NavmeshWarning`` because they are probably a mistake. Visibility flags are ignored.

Coordinates
-----------
Tiled uses pixels with y growing downward from the map's top-left corner; navmesh uses y up, like
arcade. World coordinates are ``x_world = x_tiled`` and ``y_world = map_height_px - y_tiled`` (so
the map's bottom-left corner is the origin, as in arcade's ``load_tilemap`` with scaling 1).
Layer and group offsets are added first; object rotation (degrees clockwise on screen, about the
object's x, y) is applied. Ellipses become 16-gons that circumscribe the ellipse (conservative for
obstacles).
"""

from __future__ import annotations

import json
import math
import os
import re
import warnings
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np
import pytiled_parser
import shapely
from pytiled_parser import tiled_object as tobj
from pytiled_parser.layer import LayerGroup, ObjectLayer

from navmesh.errors import LevelFormatError, NavmeshError, NavmeshWarning
from navmesh.geometry import as_polygon, as_polygons
from navmesh.level import BadWaypointPolicy, Level
from navmesh.terrain import TerrainRegion

__all__ = ["load_tiled_level"]

_ELLIPSE_SIDES = 16


def _layers(layers: Iterable[Any], offset: tuple[float, float]) -> Iterator[tuple[ObjectLayer, tuple[float, float]]]:
    """Object layers in file order, with the summed offset of their groups."""
    for layer in layers or ():
        off = (offset[0] + float(layer.offset[0]), offset[1] + float(layer.offset[1]))
        if isinstance(layer, LayerGroup):
            yield from _layers(layer.layers or (), off)
        elif isinstance(layer, ObjectLayer):
            yield layer, off


def _local_outline(obj: Any) -> np.ndarray | None:
    """Outline of a shape object in its own frame (relative to obj.coordinates), Tiled y-down."""
    w, h = float(obj.size.width), float(obj.size.height)
    if isinstance(obj, tobj.Polygon):
        return np.array([(float(p.x), float(p.y)) for p in obj.points], dtype=np.float64)
    if isinstance(obj, tobj.Ellipse):
        k = np.arange(_ELLIPSE_SIDES) * (2 * math.pi / _ELLIPSE_SIDES)
        grow = 1.0 / math.cos(math.pi / _ELLIPSE_SIDES)  # chords tangent to the ellipse, not inside it
        return np.column_stack([w / 2 * (1 + grow * np.cos(k)), h / 2 * (1 + grow * np.sin(k))])
    if isinstance(obj, tobj.Rectangle):
        return np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
    return None


def _world(local: np.ndarray, obj: Any, offset: tuple[float, float], height_px: float) -> np.ndarray:
    angle = math.radians(float(obj.rotation or 0.0))
    if angle:
        c, s = math.cos(angle), math.sin(angle)
        # Clockwise on screen is counter-clockwise in y-down maths: the usual rotation matrix.
        local = np.column_stack([local[:, 0] * c - local[:, 1] * s, local[:, 0] * s + local[:, 1] * c])
    x = local[:, 0] + float(obj.coordinates.x) + offset[0]
    y = local[:, 1] + float(obj.coordinates.y) + offset[1]
    return np.column_stack([x, height_px - y])


def _prop(props: Any, key: str) -> Any:
    return (props or {}).get(key)


def load_tiled_level(
    path: str | os.PathLike[str],
    *,
    obstacle_layer: str = "obstacles",
    terrain_layer: str = "terrain",
    bounds_layer: str = "bounds",
    on_bad_waypoint: BadWaypointPolicy = "error",
    known_tags: Iterable[str] | None = None,
    repair: bool = False,
) -> Level:
    """Read a Tiled map and turn its object layers into a :class:`Level` (see module notes).

    Parameters
    ----------
    path : str or path-like
        A Tiled map in JSON (``.tmj``/``.json``) or TMX format; orthogonal, finite (or with a
        bounds layer).
    obstacle_layer, terrain_layer, bounds_layer : str
        Names of the layers holding obstacles, terrain regions and the walkable area.
    on_bad_waypoint, known_tags, repair
        As for :class:`Level`.

    Returns
    -------
    Level
        In world coordinates: pixels, y up, origin at the map's bottom-left corner.

    Raises
    ------
    LevelFormatError
        The file cannot be parsed, the map is not orthogonal, a shape is invalid, a terrain
        object has no tag, or the level is invalid; the message names the file, layer and object.
    FileNotFoundError
        The file does not exist.

    Examples
    --------
    >>> from pathlib import Path
    >>> sample = Path("tests/data/tiled/level_sample.tmj")
    >>> level = load_tiled_level(sample) if sample.exists() else None
    >>> level is None or level.bounds.bounds == (0.0, 0.0, 640.0, 480.0)
    True
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"Tiled map {p} does not exist")
    try:
        tmap = pytiled_parser.parse_map(p)
    except (KeyError, ValueError, TypeError, AttributeError, json.JSONDecodeError, pytiled_parser.UnknownFormat) as exc:
        raise LevelFormatError(f"{p}: not a readable Tiled map ({type(exc).__name__}: {exc})") from None
    except Exception as exc:  # the XML parser raises its own ParseError for broken TMX
        if type(exc).__name__ == "ParseError":
            raise LevelFormatError(f"{p}: not a readable Tiled map ({exc})") from None
        raise
    if tmap.orientation != "orthogonal":
        raise LevelFormatError(f"{p}: orientation {tmap.orientation!r} is not supported; only orthogonal maps")
    width_px = float(tmap.map_size.width) * float(tmap.tile_size.width)
    height_px = float(tmap.map_size.height) * float(tmap.tile_size.height)

    bounds: Any = None
    obstacles: list[Any] = []
    regions: list[tuple[np.ndarray, str, str]] = []
    points: list[tuple[float, float, float | None]] = []
    point_names: list[str] = []
    for layer, offset in _layers(tmap.layers, (0.0, 0.0)):
        layer_is_obstacle = layer.name == obstacle_layer or _prop(layer.properties, "obstacle") is True
        layer_tag = _prop(layer.properties, "terrain")
        for obj in layer.tiled_objects:
            where = f"{p}: layer {layer.name!r} object id={obj.id}" + (f" ({obj.name!r})" if obj.name else "")
            if isinstance(obj, tobj.Point):
                xy = _world(np.zeros((1, 2)), obj, offset, height_px)[0]
                z = _prop(obj.properties, "z")
                if z is not None and (isinstance(z, bool) or not isinstance(z, (int, float))):
                    raise LevelFormatError(f"{where}: property z={z!r} must be a number")
                points.append((float(xy[0]), float(xy[1]), None if z is None else float(z)))
                point_names.append(where.split(": ", 1)[1])
                continue
            local = _local_outline(obj)
            obj_tag = _prop(obj.properties, "terrain")
            is_obstacle = layer_is_obstacle or _prop(obj.properties, "obstacle") is True
            tag = obj_tag if obj_tag is not None else layer_tag
            if tag is None and layer.name == terrain_layer:
                tag = obj.class_ or obj.name or None
            is_bounds = layer.name == bounds_layer
            if local is None:
                if is_obstacle or tag is not None or layer.name == terrain_layer or is_bounds:
                    warnings.warn(f"{where}: {type(obj).__name__} objects are ignored", NavmeshWarning, stacklevel=2)
                continue
            if len(local) < 3 or not np.isfinite(local).all():
                raise LevelFormatError(f"{where}: shape has {len(local)} points; a polygon needs at least 3")
            ring = _world(local, obj, offset, height_px)
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

    if bounds is None and tmap.infinite:
        raise LevelFormatError(f"{p}: infinite maps need a {bounds_layer!r} layer with the walkable area")
    try:
        bounds_poly = (
            shapely.box(0.0, 0.0, width_px, height_px)
            if bounds is None
            else as_polygon(bounds[0], name=bounds[1], repair=repair)
        )
        obstacle_polys = [q for ring, where in obstacles for q in as_polygons(ring, name=where, repair=repair)]
        terrain = [
            TerrainRegion(as_polygon(ring, name=where, repair=repair), tag) for ring, tag, where in regions
        ]
        has_z = any(z is not None for _, _, z in points)
        waypoints = np.array(
            [(x, y, 0.0 if z is None else z) if has_z else (x, y) for x, y, z in points], dtype=np.float64
        ).reshape(-1, 3 if has_z else 2)
        return Level(
            bounds_poly,
            obstacles=obstacle_polys,
            waypoints=waypoints,
            terrain=terrain,
            on_bad_waypoint=on_bad_waypoint,
            known_tags=known_tags,
        )
    except LevelFormatError:
        raise
    except NavmeshError as exc:
        msg = str(exc)
        found = re.search(r"waypoints\[(\d+)\]", msg)
        if found and int(found.group(1)) < len(point_names):
            msg += f" (waypoints[{found.group(1)}] is {point_names[int(found.group(1))]})"
        raise LevelFormatError(f"{p}: {msg}") from None
