"""Triangle builders for the debug drawing: pure numpy, every result an (k, 2) array of triangle corners."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

__all__ = ["segments", "discs", "arrowheads", "polygon_parts", "fill", "ring_segments", "stroke", "outline", "dashes"]

DISC_SIDES = 12


def segments(a: NDArray[np.float64], b: NDArray[np.float64], width: float) -> NDArray[np.float64]:
    """Two triangles per segment ``a[i] -> b[i]``, ``width`` wide; zero-length segments are dropped."""
    d = b - a
    length = np.hypot(d[:, 0], d[:, 1])
    keep = length > 0
    a, b, d, length = a[keep], b[keep], d[keep], length[keep]
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) * (0.5 * width / length)[:, None]
    quad = np.stack([a + n, a - n, b - n, a + n, b - n, b + n], axis=1)
    return quad.reshape(-1, 2)


def discs(centers: NDArray[np.float64], radius: float, sides: int = DISC_SIDES) -> NDArray[np.float64]:
    """A filled regular polygon of ``sides`` corners around each centre (a fan of triangles)."""
    ang = np.linspace(0.0, 2.0 * np.pi, sides, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang)], axis=1) * radius
    c = centers[:, None, :]
    tris = np.stack(
        [np.broadcast_to(c, (len(centers), sides, 2)), c + ring, c + np.roll(ring, -1, axis=0)], axis=2
    )
    return tris.reshape(-1, 2)


def arrowheads(tips: NDArray[np.float64], dirs: NDArray[np.float64], size: float) -> NDArray[np.float64]:
    """A triangle per tip pointing along the unit vector ``dirs``, ``size`` long and wide."""
    normal = np.stack([-dirs[:, 1], dirs[:, 0]], axis=1)
    base = tips - dirs * size
    tris = np.stack([tips, base + normal * (0.5 * size), base - normal * (0.5 * size)], axis=1)
    return tris.reshape(-1, 2)


def polygon_parts(geom: Any) -> list[shapely.Polygon]:
    """The non-empty polygons in any shapely geometry (a difference can yield collections)."""
    parts = shapely.get_parts(geom)
    return [p for p in parts if isinstance(p, shapely.Polygon) and not p.is_empty]


def fill(polygons: list[shapely.Polygon]) -> NDArray[np.float64]:
    """Triangles covering the polygons exactly, holes left open (constrained Delaunay)."""
    if not polygons:
        return np.zeros((0, 2))
    tris = shapely.get_parts(shapely.constrained_delaunay_triangles(np.asarray(polygons, dtype=object)))
    if len(tris) == 0:
        return np.zeros((0, 2))
    # Each triangle is a closed ring of 4 coordinates; the 4th repeats the first.
    return shapely.get_coordinates(tris).reshape(-1, 4, 2)[:, :3].reshape(-1, 2)


def ring_segments(polygons: list[shapely.Polygon]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Start and end points of every edge of every ring (exterior and holes) of the polygons."""
    if len(polygons) == 0:
        return np.zeros((0, 2)), np.zeros((0, 2))
    rings = shapely.get_rings(np.asarray(polygons, dtype=object))
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    # every ring repeats its first point last: consecutive points of one ring are its edges
    same = ring[1:] == ring[:-1]
    return xy[:-1][same], xy[1:][same]


def stroke(a: NDArray[np.float64], b: NDArray[np.float64], width: float, joints: NDArray[np.float64]) -> NDArray[np.float64]:
    """Segments ``a[i] -> b[i]`` ``width`` wide with a disc of that diameter at each of ``joints``
    (round joins and caps): the one way outlines, polylines and dashes are drawn."""
    return np.concatenate([segments(a, b, width), discs(joints, 0.5 * width, 8)])


def outline(polygons: list[shapely.Polygon], width: float) -> NDArray[np.float64]:
    """Outline triangles of the polygons' rings; corners are filled with discs (round joins)."""
    a, b = ring_segments(polygons)
    return stroke(a, b, width, a)


def dashes(
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
