"""Default colours of the debug drawing, terrain tints, and the checks of colour and size arguments."""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
from arcade.types import RGBOrA255
from numpy.typing import NDArray

from navmesh.errors import InvalidOptionError, describe
from navmesh.palette import TERRAIN_RGB, terrain_rgb

__all__ = ["terrain_color", "TERRAIN_COLORS", "TERRAIN_ALPHA", "check_color", "check_size", "check_type"]

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

# -- argument checks ----------------------------------------------------------------------------
def check_color(name: str, value: Any) -> NDArray[np.float32]:
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


def check_size(name: str, value: Any, *, allow_zero: bool = True) -> float:
    """``value`` as a finite float >= 0 (> 0 without ``allow_zero``), in world units."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    v = float(value) if ok else math.nan
    if not math.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        rule = ">= 0" if allow_zero else "> 0"
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a finite number {rule} (world units)")
    return v


def check_type(name: str, value: Any, kind: type) -> None:
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
        rgba = check_color(f"terrain colour of {tag!r}", terrain_colors[tag])
        return tuple(int(v) for v in np.rint(rgba))  # type: ignore[return-value]
    return (*terrain_rgb(tag), TERRAIN_ALPHA)
