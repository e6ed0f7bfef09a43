"""The walls units slide along: free space per unit class as bucketed edges for the kernels.

:class:`Walls` turns a level's obstacles and bounds into the arrays of
:mod:`navmesh._kernels.walls` for one or several unit classes (a radius, and on a NavMap the
terrain the unit type may not enter), and answers bulk questions with them: may a unit of this
class stand here, walk straight there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._kernels import buckets as BK
from navmesh._kernels import walls as K
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError
from navmesh.forbidden import forbidden_area
from navmesh.geometry import cell_rectangles
from navmesh.grid import GridMap
from navmesh.sight import LineOfSight
from navmesh.terrain import CostProfile

__all__ = ["Walls", "level_geometry", "terrain_edges"]


def terrain_edges(source: Any) -> NDArray[np.float64]:
    """Terrain boundaries as segments (m, 4) ``x0, y0, x1, y1``: a NavMap level's terrain region
    outlines, or a GridMap's edges between passable cells of different cost."""
    if isinstance(source, GridMap):
        cost = np.asarray(source.costs, dtype=np.float64)
        s, (ox, oy), h = source.cell_size, source.origin, source.height
        out = []
        ok = np.isfinite(cost)
        r, c = np.nonzero(ok[:, :-1] & ok[:, 1:] & (cost[:, :-1] != cost[:, 1:]))
        x = ox + (c + 1) * s
        out.append(np.column_stack([x, oy + (h - r - 1) * s, x, oy + (h - r) * s]))
        r, c = np.nonzero(ok[:-1] & ok[1:] & (cost[:-1] != cost[1:]))
        y = oy + (h - r - 1) * s
        out.append(np.column_stack([ox + c * s, y, ox + (c + 1) * s, y]))
        return np.concatenate(out).astype(np.float64)
    rows = []
    for region in source.level.terrain:
        for ring in [region.polygon.exterior, *region.polygon.interiors]:
            c = np.asarray(ring.coords)[:, :2]
            rows.append(np.column_stack([c[:-1], c[1:]]))
    return np.concatenate(rows) if rows else np.zeros((0, 4))


def level_geometry(source: Any) -> tuple[list[shapely.Geometry], shapely.Geometry]:
    """Obstacles and bounds of a NavMap (its level) or a GridMap (blocked cells as boxes).

    Parameters
    ----------
    source : NavMap or GridMap
        A waypoint map (anything with a ``level`` holding ``obstacles`` and ``bounds``) or a tile map.

    Returns
    -------
    (list of shapely.Polygon, shapely.Polygon)
        Obstacles and the walkable bounds in world units.
    """
    if isinstance(source, GridMap):
        s, (ox, oy), h = source.cell_size, source.origin, source.height
        boxes = []
        for b in cell_rectangles(np.asarray(source.blocked, dtype=bool)):
            x0, y0, x1, y1 = b.bounds
            boxes.append(shapely.box(ox + x0 * s, oy + (h - y1) * s, ox + x1 * s, oy + (h - y0) * s))
        bounds = shapely.box(ox, oy, ox + source.width * s, oy + h * s)
        return boxes, bounds
    level = getattr(source, "level", None)
    if level is None or not hasattr(level, "obstacles"):
        raise InvalidOptionError(
            f"expected a NavMap, a GridMap or a PolyMesh built from a level, got {type(source).__name__}"
            + (" without a level (a mesh read from a file has none; build it with build_navmesh(level))" if level is None and hasattr(source, "agent_radius") else "")
        )
    return list(level.obstacles), level.bounds


def _line_of_sight(source: Any, obstacles: Sequence[shapely.Geometry], bounds: shapely.Geometry, radius: float) -> LineOfSight:
    """The map's own LineOfSight when it was built for this radius (a NavMap's), else a new one."""
    own = getattr(source, "line_of_sight", None)
    if isinstance(own, LineOfSight) and own.agent_radius == radius:
        return own
    return LineOfSight(obstacles, bounds, agent_radius=radius)


def _free_space(los: LineOfSight, bounds: shapely.Geometry, forbidden: shapely.Geometry | None) -> shapely.Geometry:
    area = los.eroded_bounds if los.eroded_bounds is not None else bounds
    walls = list(los.inflated) + ([] if forbidden is None else [forbidden])
    if not walls:
        return area
    return shapely.difference(area, shapely.union_all(np.asarray(walls, dtype=object)))


def _ring_edges(geom: shapely.Geometry) -> NDArray[np.float64]:
    rings = []
    for poly in shapely.get_parts(geom):
        if poly.is_empty or not isinstance(poly, shapely.Polygon):
            continue
        for ring in [poly.exterior, *poly.interiors]:
            c = np.asarray(ring.coords)[:, :2]
            rings.append(np.column_stack([c[:-1], c[1:]]))
    if not rings:
        return np.zeros((0, 4))
    e = np.concatenate(rings)
    return e[(e[:, 0] != e[:, 2]) | (e[:, 1] != e[:, 3])]


# the candidates and costs of :func:`navmesh._kernels.walls.bulk`'s FIRST question, unused by the others
_NO_CAND = np.empty((0, 0), np.int64)
_NO_COST = np.empty((0, 0))


class Walls:
    """Free space for one or several unit classes, as arrays for the steering kernels.

    Parameters
    ----------
    source : NavMap or GridMap
        Where the obstacles and bounds come from (see :func:`level_geometry`).
    radii : sequence of float
        Unit radii (world units, >= 0); class ``k`` has radius ``radii[k]``: obstacles inflated
        and bounds eroded by it (mitre joins, as :class:`navmesh.sight.LineOfSight`).
    profiles : sequence of CostProfile or None, optional
        One per class (default: None for all). On a NavMap, class ``k``'s free space also
        leaves out the terrain ``profiles[k]`` forbids, grown by the radius
        (:func:`forbidden_area` with ``body=True``): a unit of a type that may not enter water
        slides along the river bank as along a wall, its body out of the water.

    Raises
    ------
    InvalidOptionError
        A radius is negative or not finite, or ``profiles`` does not match ``radii``.

    Attributes
    ----------
    radii : tuple of float
    profiles : tuple of CostProfile or None
    free : tuple of shapely geometry
        The free space of each class (where that unit's centre may stand).
    barrier_class : int
        The class holding terrain boundaries (``len(radii)``): region outlines of a NavMap's
        level, edges between cells of different cost on a GridMap. Route shortcuts never cross
        them, so a shortcut never takes a unit through terrain its route avoided.
    arrays : tuple
        ``(edges, grid, cell_ptr, cell_items, ref, eps)`` as the kernels take them.

    Examples
    --------
    >>> from navmesh.grid import GridMap
    >>> walls = Walls(GridMap.from_strings('''
    ... ...
    ... .@.
    ... ...'''), [0.25])
    >>> walls.walkable([[0.5, 0.5], [1.5, 1.5], [1.5, 0.8]], 0).tolist()
    [True, False, False]
    """

    def __init__(self, source: Any, radii: Sequence[float], profiles: Sequence[CostProfile | None] | None = None) -> None:
        obstacles, bounds = level_geometry(source)
        self.radii = tuple(float(r) for r in radii)
        if not self.radii or any(not np.isfinite(r) or r < 0 for r in self.radii):
            raise InvalidOptionError(f"radii={list(radii)!r} is not valid; expected finite numbers >= 0")
        self.profiles = tuple(profiles) if profiles is not None else (None,) * len(self.radii)
        if len(self.profiles) != len(self.radii) or any(
            p is not None and not isinstance(p, CostProfile) for p in self.profiles
        ):
            raise InvalidOptionError(
                f"profiles has {len(self.profiles)} entries; expected one CostProfile or None per radius ({len(self.radii)})"
            )
        self.free = tuple(
            _free_space(_line_of_sight(source, obstacles, bounds, r), bounds, forbidden_area(source, p, r, body=True))
            for r, p in zip(self.radii, self.profiles)
        )
        # one more class after the radii: terrain boundaries, which shortcuts may not cross
        per_class = [_ring_edges(f) for f in self.free] + [terrain_edges(source)]
        x0, y0, x1, y1 = bounds.bounds
        span = max(x1 - x0, y1 - y0, 1e-9)
        n_edges = max(sum(len(e) for e in per_class), 1)
        mean = np.mean([np.hypot(e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]).mean() for e in per_class if len(e)] or [span])
        cs = float(max(mean, np.sqrt((x1 - x0) * (y1 - y0) / n_edges), span / 512))
        nx, ny = int(np.ceil((x1 - x0) / cs)) + 1, int(np.ceil((y1 - y0) / cs)) + 1
        grid = np.array([x0 - 0.5 * cs, y0 - 0.5 * cs, cs, float(nx), float(ny)])
        n_cells = nx * ny
        k = len(self.radii) + 1
        cell_ptr, cell_items = BK.bucket_segments(per_class, grid)
        edges = np.ascontiguousarray(np.concatenate(per_class)) if sum(map(len, per_class)) else np.zeros((0, 4))
        ref = np.zeros((k * n_cells, 3))
        for c, f in enumerate(self.free):
            rows = K.cell_refs(cell_ptr, cell_items, edges, grid, c * n_cells, n_cells)
            if rows[:, 2].min() <= 1e-6 * cs:
                raise InvalidGeometryError("wall geometry too dense to bucket: a grid cell has no clear reference point")
            shapely.prepare(f)
            status = shapely.covers(f, shapely.points(rows[:, :2]))
            ref[c * n_cells : (c + 1) * n_cells] = np.column_stack([rows[:, :2], status.astype(np.float64)])
        eps = 1e-10 * cs
        self.barrier_class = len(self.radii)
        self.arrays = (edges, grid, cell_ptr, cell_items, ref, eps)
        self._inner: dict[int, shapely.Geometry] = {}

    def _ask(self, question: int, a: ArrayLike, b: ArrayLike | None, cls: int | ArrayLike,
             barrier: int = -1) -> NDArray[np.float64]:
        """:func:`navmesh._kernels.walls.bulk`'s answers to ``question`` for the segments
        ``a[i] -> b[i]`` (checked; ``b`` None: the points ``a`` themselves, named ``points``)."""
        if b is None:
            pa = pb = self._points("points", a)
        else:
            pa, pb = self._points("a", a), self._points("b", b)
            if pa.shape != pb.shape:
                raise InvalidGeometryError(f"a has shape {pa.shape} and b {pb.shape}; expected the same")
        return K.bulk(pa, pb, self._classes(cls, len(pa)), barrier, question, _NO_CAND, _NO_COST, *self.arrays)

    def walkable(self, points: ArrayLike, cls: int | ArrayLike) -> NDArray[np.bool_]:
        """Whether a unit of class ``cls`` may stand at each point (n, 2)."""
        return self._ask(K.STATUS, points, None, cls)[:, 0] == 1.0

    def visible(self, a: ArrayLike, b: ArrayLike, cls: int | ArrayLike) -> NDArray[np.bool_]:
        """Whether a unit of class ``cls`` can walk straight from ``a[i]`` to ``b[i]`` (m, 2)."""
        return self._ask(K.SEGMENT, a, b, cls)[:, 0] > 0.5

    def sees(self, a: ArrayLike, b: ArrayLike, cls: int | ArrayLike) -> NDArray[np.bool_]:
        """:meth:`visible`, but the targets ``b`` may lie on a wall (corner waypoints): each
        segment is tested up to a hair before its target."""
        return self._ask(K.SIGHT, a, b, cls)[:, 0] > 0.5

    def shortcut(self, a: ArrayLike, b: ArrayLike, cls: int | ArrayLike) -> NDArray[np.bool_]:
        """:meth:`sees`, and the segment crosses no terrain boundary."""
        return self._ask(K.SIGHT, a, b, cls, self.barrier_class)[:, 0] > 0.5

    def first_in_sight(
        self, a: NDArray[np.float64], targets: NDArray[np.float64], cand: NDArray[np.int64], cost: NDArray[np.float64],
        cls: int, barrier: int,
    ) -> NDArray[np.int64]:
        """Per row i of ``a`` (m, 2): the first column j of ``cand[i]`` ((m, k) rows of
        ``targets``, sorted by ``cost[i]`` ascending) with a finite cost whose target a unit of
        class ``cls`` sees (:meth:`sees`; with ``barrier >= 0`` also crossing no edge of that
        class, as :meth:`shortcut`), or -1. Inputs are trusted (the crowd's own arrays)."""
        a, targets, cost = (np.ascontiguousarray(x, np.float64) for x in (a, targets, cost))
        cand = np.ascontiguousarray(cand, np.int64)  # (C arrays: the one compiled form of the kernel)
        out = K.bulk(a, targets, self._classes(cls, len(a)), barrier, K.FIRST, cand, cost, *self.arrays)
        return out[:, 0].astype(np.int64)

    def move(self, a: ArrayLike, b: ArrayLike, cls: int | ArrayLike) -> NDArray[np.float64]:
        """Where units of class ``cls`` standing at ``a[i]`` end when they try to step to
        ``b[i]`` (m, 2): the whole step when it is free, else sliding along the wall in the way
        (:func:`navmesh._kernels.walls.safe_move`). A unit standing in a wall stays where it is."""
        return self._ask(K.MOVE, a, b, cls)

    def status(self, points: ArrayLike, cls: int | ArrayLike) -> NDArray[np.int64]:
        """Per point (n, 2): 1 where a unit of class ``cls`` may stand, 0 on a wall (within the
        kernels' tolerance), -1 inside a wall or outside the bounds."""
        return self._ask(K.STATUS, points, None, cls)[:, 0].astype(np.int64)

    def nearest_free(self, points: ArrayLike, cls: int) -> NDArray[np.float64]:
        """Each point moved to the nearest point of the class's free space (nudged inside)."""
        p = self._points("points", points).copy()
        ok = self.walkable(p, cls)
        if ok.all():
            return p
        free = self.free[cls]
        if free.is_empty:
            raise NodeNotFoundError("no free space for this unit radius: the walls cover the whole map")
        bad = np.flatnonzero(~ok)
        near = shapely.get_coordinates(shapely.shortest_line(free, shapely.points(p[bad])))[0::2]
        p[bad] = near
        still = np.flatnonzero(~self.walkable(p, cls))
        if still.size:
            # step a little into the free space (toward a representative interior point)
            inner = self._inner.get(cls)
            if inner is None:  # (once per class: buffering a cave's free space takes a while)
                inner = shapely.buffer(free, -1e-6 * self.arrays[1][2])
                if inner.is_empty:
                    inner = free
                shapely.prepare(inner)
                self._inner[cls] = inner
            near = shapely.get_coordinates(shapely.shortest_line(inner, shapely.points(p[still])))[0::2]
            p[still] = near
        return p

    @staticmethod
    def _points(name: str, points: ArrayLike) -> NDArray[np.float64]:
        p = np.asarray(points, dtype=np.float64)
        if p.ndim == 1:
            p = p[None, :]
        if p.ndim != 2 or p.shape[1] < 2 or not np.isfinite(p).all():
            raise InvalidGeometryError(f"{name} has shape {p.shape}; expected finite (n, 2) positions")
        p = np.ascontiguousarray(p[:, :2])
        return p if p.flags.writeable else p.copy()  # (one kernel specialisation: writable arrays)

    def _classes(self, cls: int | ArrayLike, n: int) -> NDArray[np.int64]:
        c = np.broadcast_to(np.asarray(cls, dtype=np.int64), (n,)).copy()
        if n and (c.min() < 0 or c.max() >= len(self.radii)):
            raise InvalidOptionError(f"cls holds {int(c.max())}; classes run 0..{len(self.radii) - 1}")
        return c
