"""The walls of a mesh for one unit type (edges of open polygons to nothing or to a closed
polygon) as a shapely tree, and the nearest point on them: where an endpoint off the open mesh
moves to (:class:`~navmesh.polymesh.query.MeshQuery`'s endpoint policy)."""

from __future__ import annotations

import numpy as np
import shapely
from numpy.typing import NDArray

from navmesh.polymesh.mesh import PolyMesh

__all__ = ["nearest_wall_point", "wall_tree"]


def wall_tree(mesh: PolyMesh, open_poly: NDArray[np.bool_], edges: NDArray[np.float64]
              ) -> tuple[shapely.STRtree, NDArray[np.object_], NDArray[np.int64]]:
    """The wall edges (a tree, their lines, their slots) of the open polygons ``open_poly``;
    ``edges`` (E, 2, 2): each slot's edge. Cached on the mesh per set of open polygons."""
    key = ("walls", tuple(open_poly.tolist()) if mesh.n_polygons < 64 else hash(open_poly.tobytes()))
    cache = mesh._cache
    if key not in cache:
        slots = np.arange(len(mesh.indices))
        nbr = mesh.neighbours
        own_open = open_poly[mesh.polygon_of] if len(slots) else np.zeros(0, bool)
        wall = own_open & ((nbr < 0) | ~open_poly[np.maximum(nbr, 0)])
        slots = slots[wall]
        lines = shapely.linestrings(edges[slots])
        cache[key] = (shapely.STRtree(lines), lines, slots)
    return cache[key]


def nearest_wall_point(mesh: PolyMesh, open_poly: NDArray[np.bool_], edges: NDArray[np.float64],
                       p: NDArray[np.float64]) -> tuple[NDArray[np.float64], int] | None:
    """The point of the walls nearest ``p`` and the polygon whose wall it is; None without walls."""
    tree, lines, slots = wall_tree(mesh, open_poly, edges)
    if not len(lines):
        return None
    pt = shapely.Point(p)
    k = int(tree.query_nearest(pt, all_matches=False)[0])
    near = np.asarray(shapely.line_interpolate_point(lines[k], shapely.line_locate_point(lines[k], pt)).coords[0])
    return near, int(mesh.polygon_of[slots[k]])
