"""Local updates of a :class:`~navmesh.polymesh.mesh.PolyMesh`: adding or removing one obstacle
(a door closing or opening) re-meshes only the polygons the change touches.

How
---
The changed obstacle, inflated by the mesh's agent radius (the *zone*), is where walkability
changes. The polygons of the old mesh that meet the zone (closed sets: touching counts), or come
within ``margin`` of it, are the *touched* polygons. The region to re-mesh is their union plus
the zone, cut to the new level's free space; the free space is computed from the level's bounds
and only the obstacles close enough to the zone to shape it (within three agent radii), by the
build's own :func:`~navmesh.polymesh.build.free_space`. The region is triangulated and merged
by the build's pipeline (:func:`~navmesh.polymesh.build.convex_cover`), and the new polygons
replace the touched ones; every other polygon keeps its vertex coordinates, its tag and its
order (ids shift down past removed polygons; new polygons come last).

The region meets the untouched polygons along whole edges of the old mesh, so the pieces fit
edge to edge; if they do not (a vertex of the region's outline lost to rounding), the update
falls back to a full :func:`~navmesh.polymesh.build.build_navmesh`, so the result always covers
what a rebuild covers and gives the same exact path lengths (the polygons themselves may differ
from a rebuild's: any convex partition of the same area gives the same shortest paths).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh._checks import check_nonneg_float
from navmesh.errors import InvalidOptionError, describe
from navmesh.geometry import as_polygon, inflate
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh, convex_cover, free_space, snap_tolerance
from navmesh.polymesh.mesh import PolyMesh, match_edges, split_pinches

__all__ = ["with_obstacle", "without_obstacle"]

_REACH = 3.0  # agent radii: obstacles farther than this from the changed one cannot shape the zone


def _level_of(mesh: Any) -> Level:
    if not isinstance(mesh, PolyMesh):
        raise InvalidOptionError(f"mesh={describe(mesh)} is not a PolyMesh (see build_navmesh)")
    if not isinstance(mesh.level, Level):
        raise InvalidOptionError(
            f"mesh={mesh!r} does not know its level (it was read from a file or made from arrays); "
            "local updates need a mesh made by build_navmesh"
        )
    return mesh.level


def with_obstacle(mesh: PolyMesh, polygon: Any, *, margin: float = 0.0) -> PolyMesh:
    """The mesh after adding an obstacle (a door closing), re-meshing only where it lands.

    Parameters
    ----------
    mesh : PolyMesh
        A mesh made by :func:`~navmesh.polymesh.build.build_navmesh` (it keeps its level).
    polygon : shapely Polygon or sequence of (x, y)
        The new obstacle, in world units; appended to the level's obstacles.
    margin : float
        Also re-mesh polygons within this distance of the inflated obstacle (world units,
        >= 0): more room for the merge to make large polygons, more work.

    Returns
    -------
    PolyMesh
        A new mesh whose ``level`` has the obstacle; it covers the same area as
        ``build_navmesh(level, agent_radius=mesh.agent_radius, join=mesh.join)`` and gives the
        same path lengths.

    Raises
    ------
    InvalidOptionError
        ``mesh`` is not a PolyMesh made by ``build_navmesh``, or a bad ``margin``.
    InvalidGeometryError
        ``polygon`` is not a valid polygon.

    Examples
    --------
    >>> from navmesh.polymesh.build import build_navmesh
    >>> from navmesh.polymesh.query import MeshQuery
    >>> mesh = build_navmesh(Level.rectangle(10, 10))
    >>> closed = with_obstacle(mesh, [(4, 0), (6, 0), (6, 8), (4, 8)])
    >>> round(MeshQuery(closed).find_path([1, 1], [9, 1]).cost, 6), len(closed.level.obstacles)
    (17.231546, 1)
    """
    level = _level_of(mesh)
    poly = as_polygon(polygon, name="polygon")
    m = check_nonneg_float("margin", margin, allow_none=False)
    new_level = level.replace(obstacles=(*level.obstacles, poly), on_bad_waypoint="warn")
    return _remesh(mesh, new_level, poly, m)


def without_obstacle(mesh: PolyMesh, index: int, *, margin: float = 0.0) -> PolyMesh:
    """The mesh after removing ``mesh.level.obstacles[index]`` (a door opening); see
    :func:`with_obstacle` for ``margin`` and the result.

    Raises
    ------
    InvalidOptionError
        ``mesh`` is not a PolyMesh made by ``build_navmesh``, ``index`` is not an obstacle's
        index (negative indices count from the end), or a bad ``margin``.

    Examples
    --------
    >>> from navmesh.polymesh.build import build_navmesh
    >>> mesh = build_navmesh(Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]]))
    >>> round(float(without_obstacle(mesh, 0).areas().sum()), 9)
    100.0
    """
    level = _level_of(mesh)
    n = len(level.obstacles)
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not -n <= index < n:
        raise InvalidOptionError(
            f"index={describe(index)} is not valid; the level has obstacles 0..{n - 1}" if n else
            f"index={describe(index)} is not valid; the level has no obstacles"
        )
    m = check_nonneg_float("margin", margin, allow_none=False)
    obstacles = list(level.obstacles)
    gone = obstacles.pop(int(index))
    new_level = level.replace(obstacles=tuple(obstacles), on_bad_waypoint="warn")
    return _remesh(mesh, new_level, gone, m)


def _remesh(mesh: PolyMesh, level: Level, changed: shapely.Polygon, margin: float) -> PolyMesh:
    """``mesh`` re-meshed around ``changed`` (an obstacle added to or removed from ``level``)."""
    r, join = mesh.agent_radius, mesh.join
    tol = snap_tolerance(level)
    zone = shapely.union_all(np.asarray(inflate([changed], r, join=join), dtype=object))
    reach = zone if margin == 0 else shapely.buffer(zone, margin)
    shapes = mesh.to_shapely()
    touched = np.zeros(mesh.n_polygons, bool)
    if mesh.n_polygons:
        touched[shapely.STRtree(shapes).query(reach, predicate="intersects")] = True
    # the new free space near the zone: only obstacles close enough to shape it
    near = [o for o in level.obstacles if shapely.distance(o, changed) <= _REACH * r + tol]
    local = free_space(Level(level.bounds, obstacles=near), agent_radius=r, join=join)
    region = shapely.intersection(local, shapely.union_all(np.concatenate([shapes[touched], [zone]])))
    xy_n, ptr_n, idx_n, tags_n = convex_cover(region, level, tol=tol)
    spliced = _splice(mesh, touched, xy_n, ptr_n, idx_n, tags_n, tol)
    if spliced is None:  # the pieces did not fit edge to edge: rebuild (see module notes)
        return build_navmesh(level, agent_radius=r, join=join)
    xy, indptr, indices, tags = spliced
    names = ("",) + tuple(sorted({reg.tag for reg in level.terrain}))
    nbr, twins = match_edges(indptr, indices, len(xy), with_twins=True)
    xy, indices = split_pinches(xy, indptr, indices, nbr, twins)
    return PolyMesh(xy, indptr, indices, nbr, tags=tags, tag_names=names, agent_radius=r, level=level, join=join)


def _splice(mesh: PolyMesh, touched: NDArray[np.bool_], xy_n: NDArray[np.float64], ptr_n: NDArray[np.int64],
            idx_n: NDArray[np.int64], tags_n: NDArray[np.int64], tol: float
            ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None:
    """The untouched polygons of ``mesh`` followed by the new ones, on one vertex array; None when
    an edge between an untouched polygon and the region finds no partner."""
    keep = np.flatnonzero(~touched)
    sizes_old = np.diff(mesh.indptr)[keep]
    slots_old = np.concatenate([np.arange(mesh.indptr[p], mesh.indptr[p + 1]) for p in keep]) if len(keep) else \
        np.zeros(0, np.int64)
    pts_old = mesh.vertices[mesh.indices[slots_old]]
    pts_new = xy_n[idx_n]
    if len(pts_old) and len(pts_new):
        # new vertices within the snap distance of an old one take its exact coordinates
        d, j = cKDTree(pts_old).query(pts_new, distance_upper_bound=tol)
        close = np.isfinite(d)
        pts_new = pts_new.copy()
        pts_new[close] = pts_old[j[close]]
    xy, ids = np.unique(np.concatenate([pts_old, pts_new]), axis=0, return_inverse=True)
    ids = ids.reshape(-1)
    indptr = np.zeros(len(keep) + len(ptr_n), np.int64)
    np.cumsum(np.concatenate([sizes_old, np.diff(ptr_n)]), out=indptr[1:])
    tags = np.concatenate([mesh.tags[keep].astype(np.int64), tags_n])
    nxt = np.arange(1, len(ids) + 1)
    if len(ids):
        nxt[indptr[1:] - 1] = indptr[:-1]
    if np.any(ids == ids[nxt]):  # a snap collapsed an edge
        return None
    nbr = match_edges(indptr, ids, len(xy))
    # untouched polygons that bordered touched ones must border new ones now, edge to edge
    was = mesh.neighbours[slots_old]
    bordered = (was >= 0) & touched[np.maximum(was, 0)]
    if np.any(nbr[: len(slots_old)][bordered] < 0):
        return None
    return xy, indptr, ids, tags
