"""Random points of a :class:`~navmesh.polymesh.mesh.PolyMesh`: :func:`random_open_point`."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from navmesh.errors import NodeNotFoundError
from navmesh.polymesh.mesh import PolyMesh

__all__ = ["random_open_point"]


def random_open_point(mesh: PolyMesh, is_open: NDArray[np.bool_], gen: np.random.Generator) -> NDArray[np.float64]:
    """A point drawn uniformly from the area of the polygons where ``is_open`` (a polygon by its
    area, then a triangle of its fan by area, then a point of the triangle); raises
    NodeNotFoundError when no open polygon has any area."""
    areas = np.where(is_open, mesh.areas(), 0.0)
    total = areas.sum()
    if total <= 0:
        raise NodeNotFoundError("the mesh has no walkable polygon for this profile")
    p = int(np.searchsorted(np.cumsum(areas), gen.random() * total, side="right"))
    p = min(p, mesh.n_polygons - 1)
    pts = mesh.polygon_points(p)
    a, b, c = pts[0], pts[1:-1], pts[2:]
    tri = np.abs((b[:, 0] - a[0]) * (c[:, 1] - a[1]) - (b[:, 1] - a[1]) * (c[:, 0] - a[0]))
    k = min(int(np.searchsorted(np.cumsum(tri), gen.random() * tri.sum(), side="right")), len(tri) - 1)
    u, v = gen.random(2)
    if u + v > 1:
        u, v = 1 - u, 1 - v
    return a + u * (b[k] - a) + v * (c[k] - a)
