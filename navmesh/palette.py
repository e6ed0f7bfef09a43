"""Colours of terrain tags: one table for every picture of a level.

:mod:`navmesh.arcade_draw` (and through it the demo and the editor) and the ``navmesh render``
command all colour a terrain tag from here, so a ford is the same light blue and a bridge the same
brown in a window and in a PNG. This module imports neither arcade nor an image library.

Examples
--------
>>> terrain_rgb("water"), terrain_rgb("bridge")
((40, 105, 200), (150, 105, 60))
>>> terrain_rgb("goo") == terrain_rgb("goo")        # other tags: a stable pick from a palette
True
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["TERRAIN_RGB", "terrain_rgb"]

TERRAIN_RGB: Mapping[str, tuple[int, int, int]] = MappingProxyType({
    "water": (40, 105, 200),
    "ford": (95, 160, 215),
    "bridge": (150, 105, 60),
    "road": (176, 156, 112),
    "swamp": (88, 96, 52),
    "forest": (30, 82, 42),
    "mud": (120, 85, 50),
    "sand": (220, 200, 130),
    "ice": (180, 230, 250),
    "lava": (230, 80, 20),
    "danger": (200, 30, 30),
})
"""RGB 0-255 of common terrain tags: water blues (a ford lighter than open water), earth browns,
vegetation greens. Other tags get a colour from :func:`terrain_rgb`."""

# Colours for tags not in TERRAIN_RGB, picked by a stable hash of the tag (crc32, not hash(): the
# same in every run and on every machine).
_PALETTE: tuple[tuple[int, int, int], ...] = (
    (228, 26, 28), (55, 126, 184), (77, 175, 74), (152, 78, 163), (255, 127, 0),
    (255, 255, 51), (166, 86, 40), (247, 129, 191), (0, 206, 209), (154, 205, 50),
)


def terrain_rgb(tag: str) -> tuple[int, int, int]:
    """RGB 0-255 of a terrain tag: its :data:`TERRAIN_RGB` entry, else a fixed palette colour.

    Parameters
    ----------
    tag : str
        Terrain tag such as ``"swamp"``.

    Returns
    -------
    tuple of 3 int
    """
    if tag in TERRAIN_RGB:
        return TERRAIN_RGB[tag]
    return _PALETTE[zlib.crc32(str(tag).encode("utf-8", "surrogatepass")) % len(_PALETTE)]
