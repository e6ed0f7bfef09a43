"""Local updates of a :class:`~navmesh.polymesh.mesh.PolyMesh`: adding or removing one obstacle
(a door closing or opening) re-meshes only the polygons the change touches.

How
---
The *zone* holds every place whose walkability changes: the changed obstacle grown by 1.5 agent
radii (the obstacle inflated by the radius, and where it meets other obstacles, the corners their
merged inflation fills), and, as the build merges touching obstacles and inflates each group's
outline as one, wherever the outline of the changed obstacle's group moves (the free space near
the change before and after it differ there). The polygons of the old mesh that meet the zone
(closed sets: touching counts), or come within ``margin`` of it, are the *touched* polygons. The
region to re-mesh is their union plus the zone, cut to the new level's free space; the free space
is computed from the level's bounds and only the obstacles close enough to shape it (within three
agent radii, with the groups they belong to), by the build's own
:func:`~navmesh.polymesh.build.free_space`. The region is triangulated and merged
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
from navmesh.geometry import as_polygon
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh, convex_cover, free_space, snap_tolerance
from navmesh.polymesh.mesh import PolyMesh, match_edges, split_pinches

__all__ = ["with_obstacle", "without_obstacle"]

_GROW = 1.5  # agent radii: walkability changes at most this far from the changed obstacle
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
    # the free space near the change before and after it, from only the obstacles close enough
    # to shape it. Walkability changes within the obstacle inflated by the radius (the zone),
    # and, as the build merges touching obstacles before inflating them, wherever the merged
    # outline of the obstacles around the changed one moves: the two free spaces differ there
    before, local = (_free_near(lv, changed, r, join, tol) for lv in (mesh.level, level))
    zone = shapely.buffer(changed, _GROW * r) if r > 0 else changed
    if r > 0:
        moved = shapely.get_parts(shapely.difference(shapely.symmetric_difference(before, local), zone))
        # areas only: lines and slivers thinner than the snap tolerance are rounding, not change
        size = np.sqrt(shapely.area(level.bounds))
        zone = shapely.union_all([zone, *moved[shapely.area(moved) > tol * size]])
    reach = zone if margin == 0 else shapely.buffer(zone, margin)
    touched, shapes = _touched(mesh, reach)
    region = shapely.intersection(local, shapely.union_all(np.concatenate([shapes, [zone]])))
    xy_n, ptr_n, idx_n, tags_n = convex_cover(region, level, tol=tol, agent_radius=r)
    spliced = _splice(mesh, touched, xy_n, ptr_n, idx_n, tags_n, tol)
    if spliced is None:  # the pieces did not fit edge to edge: rebuild (see module notes)
        return build_navmesh(level, agent_radius=r, join=join)
    xy, indptr, indices, tags = spliced
    names = ("",) + tuple(sorted({reg.tag for reg in level.terrain}))
    nbr, twins = match_edges(indptr, indices, len(xy), with_twins=True)
    xy, indices = split_pinches(xy, indptr, indices, nbr, twins)
    return PolyMesh(xy, indptr, indices, nbr, tags=tags[:, 0], tag_names=names, agent_radius=r, level=level,
                    join=join, body_tags=tags[:, 1] if r > 0 else None)


def _free_near(level: Level, changed: shapely.Polygon, r: float, join: Any, tol: float) -> shapely.Geometry:
    """The free space of ``level`` shaped by its obstacles within ``_REACH`` radii of ``changed``
    and every obstacle touching or overlapping those, transitively: the build merges such a group
    and inflates its outline as one, so each member can move the group's outline (a level whose
    walls all touch is one group: its update costs about a rebuild's free space)."""
    obstacles = np.asarray(level.obstacles, dtype=object)
    if not len(obstacles):
        return free_space(level, agent_radius=r, join=join)
    take = shapely.dwithin(obstacles, changed, _REACH * r + tol)
    tree, frontier = shapely.STRtree(obstacles), np.flatnonzero(take)
    while len(frontier):
        _, hit = tree.query(obstacles[frontier], predicate="intersects")
        frontier = np.unique(hit[~take[hit]])
        take[frontier] = True
    return free_space(Level(level.bounds, obstacles=tuple(obstacles[take])), agent_radius=r, join=join)


def _touched(mesh: PolyMesh, reach: shapely.Geometry) -> tuple[NDArray[np.bool_], NDArray[np.object_]]:
    """Which polygons meet ``reach`` (closed sets), and their shapes: bounding boxes first, then
    shapely on the few candidates."""
    touched = np.zeros(mesh.n_polygons, bool)
    if not mesh.n_polygons:
        return touched, np.empty(0, dtype=object)
    pts = mesh.vertices[mesh.indices]
    lo = np.minimum.reduceat(pts, mesh.indptr[:-1], axis=0)
    hi = np.maximum.reduceat(pts, mesh.indptr[:-1], axis=0)
    x0, y0, x1, y1 = reach.bounds
    cand = np.flatnonzero((lo[:, 0] <= x1) & (hi[:, 0] >= x0) & (lo[:, 1] <= y1) & (hi[:, 1] >= y0))
    if not len(cand):
        return touched, np.empty(0, dtype=object)
    sizes = np.diff(mesh.indptr)[cand]
    slots = np.repeat(mesh.indptr[cand], sizes) + np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    shapes = shapely.polygons(shapely.linearrings(mesh.vertices[mesh.indices[slots]],
                                                  indices=np.repeat(np.arange(len(cand)), sizes)))
    hit = shapely.intersects(shapes, reach)
    touched[cand[hit]] = True
    return touched, shapes[hit]


def _splice(mesh: PolyMesh, touched: NDArray[np.bool_], xy_n: NDArray[np.float64], ptr_n: NDArray[np.int64],
            idx_n: NDArray[np.int64], tags_n: NDArray[np.int64], tol: float
            ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None:
    """The untouched polygons of ``mesh`` followed by the new ones, on one vertex array; None when
    an edge between an untouched polygon and the region finds no partner."""
    xy_old = mesh.vertices
    # one id per position: pinch copies of a vertex become one again (split_pinches splits them)
    order = np.lexsort((xy_old[:, 1], xy_old[:, 0]))
    first = np.ones(len(order), bool)
    first[1:] = np.any(xy_old[order[1:]] != xy_old[order[:-1]], axis=1)
    canon = np.empty(len(order), np.int64)
    canon[order] = order[np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))]
    kept_slots = np.flatnonzero(~touched[mesh.polygon_of])
    ids_old = canon[mesh.indices[kept_slots]]
    # new vertices at (or within the snap distance of) an old position take its id and coordinates
    new_ids = np.full(len(xy_n), -1, np.int64)
    used_n = np.unique(idx_n)
    if len(used_n) and len(xy_old):
        d, j = cKDTree(xy_old).query(xy_n[used_n], distance_upper_bound=tol)
        close = np.isfinite(d)
        new_ids[used_n[close]] = canon[j[close]]
        fresh = used_n[~close]
    else:
        fresh = used_n
    new_ids[fresh] = len(xy_old) + np.arange(len(fresh))
    xy = np.concatenate([xy_old, xy_n[fresh]])
    ptr_n, idx_n, tags_n = _drop_flat(xy, ptr_n, new_ids[idx_n], tags_n)
    ids = np.concatenate([ids_old, idx_n])
    keep = np.flatnonzero(~touched)
    indptr = np.zeros(len(keep) + len(ptr_n), np.int64)
    np.cumsum(np.concatenate([np.diff(mesh.indptr)[keep], np.diff(ptr_n)]), out=indptr[1:])
    body = mesh.body_tags if mesh.body_tags is not None else np.left_shift(1, mesh.tags.astype(np.int64))
    tags = np.concatenate([np.stack([mesh.tags, body], axis=1)[keep].astype(np.int64), tags_n])
    nxt = np.arange(1, len(ids) + 1)
    if len(ids):
        nxt[indptr[1:] - 1] = indptr[:-1]
    if np.any(ids == ids[nxt]):  # a snap collapsed an edge
        return None
    # drop the vertices only touched polygons used
    used = np.zeros(len(xy), bool)
    used[ids] = True
    remap = np.cumsum(used) - 1
    xy, ids = xy[used], remap[ids]
    nbr = match_edges(indptr, ids, len(xy))
    # untouched polygons that bordered touched ones must border new ones now, edge to edge
    was = mesh.neighbours[kept_slots]
    bordered = (was >= 0) & touched[np.maximum(was, 0)]
    if np.any(nbr[: len(kept_slots)][bordered] < 0):
        return None
    return xy, indptr, ids, tags


def _drop_flat(xy: NDArray[np.float64], indptr: NDArray[np.int64], indices: NDArray[np.int64],
               tags: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The polygons without those of no area (PolyMesh's own shoelace): a corner of the changed
    obstacle on an old edge pinches the region there, and the triangulation may leave a flat
    triangle along that edge."""
    if len(indptr) < 2:
        return indptr, indices, tags
    nxt = np.arange(1, len(indices) + 1)
    nxt[indptr[1:] - 1] = indptr[:-1]
    a, b = xy[indices], xy[indices[nxt]]
    area = np.add.reduceat(a[:, 0] * b[:, 1] - b[:, 0] * a[:, 1], indptr[:-1])
    keep = area > 0
    if keep.all():
        return indptr, indices, tags
    sizes = np.diff(indptr)
    out_ptr = np.zeros(int(keep.sum()) + 1, np.int64)
    np.cumsum(sizes[keep], out=out_ptr[1:])
    return out_ptr, indices[np.repeat(keep, sizes)], tags[keep]
