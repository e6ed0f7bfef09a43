"""Bulk line of sight for a disc agent: the one rule, and :class:`LineOfSight`.


Line-of-sight rule
------------------
This is the one rule; :class:`LineOfSight` (vectorised numpy over a grid of its walls)
and the numba kernels of :mod:`navmesh._kernels.los` both implement it, exactly.

*Blocked sets.* With ``agent_radius = 0`` the obstacles are merged (``shapely.unary_union``:
obstacles that overlap or share an edge become one, so a wall built from adjacent blocks has no
seam) and, together with everything outside the bounds, form **one** blocked set. With
``agent_radius = r > 0`` every merged obstacle is inflated by r and the bounds are eroded by r,
and each inflated obstacle and the outside of the eroded bounds is a blocked set **of its own**
(inflated obstacles are not merged again).

*Walkable points.* A point is walkable when it lies in no blocked set's interior: obstacle
boundaries and the bounds outline are walkable. This is the one meaning of *walkable* in the
library: a point where the agent's centre may stand (:meth:`LineOfSight.walkable`); the set of
them is the *walkable region*.

*Visible segments.* A segment from ``a`` to ``b`` is visible when both ends are walkable and, at
every point ``p`` strictly between them, the segment has, for each blocked set, a side that is
locally free of it: an open half-disc around ``p`` on one side of the segment, however small,
meets none of the set's interior. So running along an obstacle edge (slanted or not) or the
bounds outline and grazing a corner are allowed; entering an obstacle or leaving the bounds is
not. With r = 0 (one blocked set) a segment may not pass through a zero-width gap: a *pinch
point*, where obstacles touch at a point, a hole touches its polygon's outer ring, or an obstacle
touches the bounds outline at a point, nor run along a *seam*, an obstacle edge lying on the
bounds outline. With r > 0 an agent passes between two inflated obstacles that touch (a corridor
exactly ``2 r`` wide), its disc touching both walls: each of them is free on one side.

*Ends at a pinch point.* Near a pinch point the free space is two or more *free wedges*. A
segment may end at a pinch point only inside one free wedge, and only inside its *wide* wedge
(the one wider than 180 degrees) when it has one: that is the only wedge in which a shortest path
can turn at the point, and pinning the point to it means that a path made of visible segments
never turns at a pinch point from one wedge into another. (A pinch point without a wide wedge,
such as two tile corners touching diagonally, may be reached from any of its wedges: no corner
waypoint is placed there, but a waypoint a designer puts exactly on it joins its wedges.)

*Exactness.* Every decision is the sign of an exact orientation test on the float input
coordinates (Shewchuk's floating-point filter, then exact arithmetic when the filter cannot
decide) or a comparison of coordinates: no tolerance. A segment whose float end points miss a
pinch point or a wall corner by 1e-17 is judged as the exact segment between those floats.
Coordinates are assumed well inside +-1e150 (no overflow in products). Inflation and erosion
are shapely buffers (see :func:`navmesh.geometry.inflate`); the rule is exact for the polygons they return.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import check_option
from navmesh._kernels.los import GAP_PINCH, GAP_SEAM, GAP_WEDGE
from navmesh.errors import InvalidGeometryError
from navmesh.sight_grid import BoxGrid, piece_length
from navmesh.sight_ends import EndCorners
from navmesh.sight_walk import walk
from navmesh.geometry import (
    JOINS,
    Join,
    check_quad_segs,
    check_radius,
    erode,
    inflate,
    polygonal_parts,
    ring_edges,
    segment_arrays,
)
from navmesh.predicates import (
    free_wedges,
    in_wedge,
    orient,
    pairs_blocked,
    place_on_line,
    two_corner_wedges,
)

__all__ = ["LineOfSight"]


def _merge(geoms: list[shapely.Geometry]) -> shapely.Geometry:
    """Union of polygons. Many non-overlapping edge-matched tiles (grid cells) take GEOS's fast
    coverage union, several times quicker than the general overlay; anything else the general one."""
    if not geoms:
        return shapely.Polygon()
    arr = np.asarray(geoms, dtype=object)
    if len(arr) > 64 and all(isinstance(g, shapely.Polygon) for g in geoms):
        try:
            if bool(shapely.coverage_is_valid(arr)):
                return shapely.coverage_union_all(arr)
        except shapely.errors.GEOSException:
            pass
    return shapely.union_all(arr)


class LineOfSight:
    """Bulk line-of-sight tests for a disc agent among fixed obstacles inside the level's bounds.

    Build once per level and agent radius, then test thousands of segments per call. Pass the
    level's *original* obstacles and bounds: this class merges the obstacles, inflates the merged
    obstacles and erodes the bounds by ``agent_radius``, and finds pinch points and seams.
    The rule is the module's line-of-sight rule (see :mod:`navmesh.sight`); the numba kernel
    backend (:func:`navmesh.waypoints.linking.wall_grid_for`) reads this object's ``edges`` and
    ``gaps`` and gives the same answers.

    Parameters
    ----------
    obstacles : iterable of polygonal shapely geometry
        Obstacles (Polygons or MultiPolygons), possibly overlapping or touching.
    bounds : shapely Polygon or MultiPolygon, optional
        The level's bounds (the area agents stay in). ``None`` means the whole plane.
    agent_radius : float
        Radius of the agent in world units, >= 0.
    join : {"mitre", "round"}
        Corner style of the inflation (see :func:`navmesh.geometry.inflate`); conservative either way.
    quad_segs : int
        Chords per quarter circle for ``join="round"``.

    Attributes
    ----------
    parts : tuple of shapely.Polygon
        The original obstacles after merging those that overlap or share an edge.
    inflated : tuple of shapely geometry
        ``parts`` inflated by ``agent_radius`` (one per part; they may overlap or touch).
        Their corners are natural waypoint positions.
    eroded_bounds : shapely geometry or None
        ``bounds`` eroded by ``agent_radius``.
    edges : float array of shape (E, 7)
        Every wall edge, free side on its left: rows ``x0, y0, x1, y1, px, py, pinch`` ((px, py)
        the previous vertex of its ring; ``pinch`` 1 when (x0, y0) is a pinch point).
    pinch_points : float array of shape (k, 2)
        Points where the free space has two or more free wedges (only with ``agent_radius=0``).
    pinch_wedges : tuple of float arrays of shape (w, 4)
        Per pinch point its free wedges, counter-clockwise from +x: rows ``qx, qy, rx, ry``, the
        wedge swept counter-clockwise from the ray towards (qx, qy) to the ray towards (rx, ry).
    pinch_wide : int array of shape (k,)
        Index of each pinch point's wide wedge (wider than 180 degrees), -1 when it has none.
    seams : float array of shape (s, 4)
        Obstacle edges lying on the bounds outline (only with ``agent_radius=0``): ``x0, y0, x1, y1``.

    Examples
    --------
    >>> los = LineOfSight([shapely.box(2, -1, 3, 1)], shapely.box(-5, -5, 5, 5))
    >>> los.blocked([[0, 0], [0, 1]], [[4, 0], [4, 1]]).tolist()   # through, along the edge
    [True, False]
    >>> triangle = LineOfSight([shapely.Polygon([(1.1, 2.3), (7.7, 3.1), (4.4, 9.9)])])
    >>> triangle.blocked([[1.1, 2.3]], [[7.7, 3.1]]).tolist()     # along a slanted edge
    [False]
    >>> checkerboard = LineOfSight([shapely.box(0, 0, 1, 1), shapely.box(1, 1, 2, 2)])
    >>> checkerboard.blocked([[0, 2], [0.2, 1.8], [0, 2]], [[2, 0], [1.8, 0.2], [1, 1]]).tolist()
    [True, True, False]
    >>> walls = [shapely.box(0, 0, 10, 1), shapely.box(0, 3, 10, 4)]   # a corridor 2 wide
    >>> LineOfSight(walls, agent_radius=1.0).blocked([[0, 2]], [[10, 2]]).tolist()
    [False]
    """

    def __init__(
        self,
        obstacles: Iterable[shapely.Geometry],
        bounds: shapely.Geometry | None = None,
        *,
        agent_radius: float = 0.0,
        join: Join = "mitre",
        quad_segs: int = 4,
    ) -> None:
        r = check_radius(agent_radius)
        check_option("join", join, JOINS)
        q = check_quad_segs(quad_segs)
        geoms = [g for g in obstacles if g is not None and not g.is_empty]
        merged = _merge(geoms)
        self.agent_radius = r
        self.parts: tuple[shapely.Polygon, ...] = tuple(polygonal_parts(merged))
        self.inflated: tuple[shapely.Geometry, ...] = inflate(self.parts, r, join=join, quad_segs=q)
        self.eroded_bounds: shapely.Geometry | None = bounds
        if bounds is not None:
            self.eroded_bounds = erode(bounds, r, join=join, quad_segs=q)
        self._obst = np.asarray(self.inflated, dtype=object)
        shapely.prepare(self._obst)
        self._tree = shapely.STRtree(self._obst)
        if self.eroded_bounds is not None:
            shapely.prepare(self.eroded_bounds)

        obst_rows, obst_group = ring_edges(self.inflated, free_inside=False)
        area_rows, _ = ring_edges([] if self.eroded_bounds is None else [self.eroded_bounds], free_inside=True)
        rows = np.concatenate([obst_rows, area_rows])
        group = np.concatenate([obst_group, np.full(len(area_rows), -1, np.int64)])
        self._edge_tree = shapely.STRtree(shapely.linestrings(rows[:, :4].reshape(-1, 2, 2)))
        splits = self._set_pinches(rows, group, merged, bounds if r == 0 else None, r == 0)
        if splits:
            # a pinch point inside a wall edge becomes a vertex of it (a straight corner), so that
            # the gap table alone judges segments ending or passing there
            rows = _split_edges(rows, splits)
        flag = np.zeros(len(rows))
        if len(self.pinch_points):
            starts = rows[:, :2]
            at = _row_lookup(starts, self.pinch_points)
            flag[at >= 0] = 1.0
        self.edges: NDArray[np.float64] = np.column_stack([rows, flag])
        self._ends = EndCorners(self.edges)
        # With r == 0, a wall flush against the map edge leaves a zero-width gap: running along
        # an edge the obstacle shares with the bounds outline is blocked.
        self.seams = self._find_seams(merged, bounds) if r == 0 else np.zeros((0, 4))
        self.gaps = self._gap_table()
        # every pinch point's wedges in one array (rows from _wedge_first, _wedge_count of them)
        self._wedge_rows = np.concatenate([np.zeros((0, 4)), *self.pinch_wedges])
        self._wedge_count = np.array([len(w) for w in self.pinch_wedges], dtype=np.int64)
        self._wedge_first = np.cumsum(self._wedge_count) - self._wedge_count
        self._piece = piece_length(self.edges)
        # one grid of wall edges, then seams and pinch points (items past len(edges) are gaps)
        g = np.concatenate([self.edges[:, :4], self.seams, np.c_[self.pinch_points, self.pinch_points]])
        self._grid = BoxGrid(np.minimum(g[:, 0:2], g[:, 2:4]), np.maximum(g[:, 0:2], g[:, 2:4]), _CELL * self._piece)

    # -- set-up ------------------------------------------------------------------------------
    def _set_pinches(self, rows: NDArray[np.float64], group: NDArray[np.int64], merged: shapely.Geometry,
                     bounds: shapely.Geometry | None, look: bool) -> dict[int, list[NDArray[np.float64]]]:
        """Pinch points and their free wedges (candidates from the free space's rings, then the
        wedges from every wall corner and edge through each candidate). Returns the pinch points
        lying inside wall edges, by edge."""
        cands = self._find_pinches(merged, bounds) if look else np.zeros((0, 2))
        points, wedges, wide = [], [], []
        splits: dict[int, list[NDArray[np.float64]]] = {}
        if len(cands):
            li, ei = self._edge_tree.query(shapely.points(cands))
            on = orient(rows[ei, 0:2], rows[ei, 2:4], cands[li]) == 0
            li, ei = li[on], ei[on]
            inside = place_on_line(rows[ei, 0:2], rows[ei, 2:4], cands[li]) >= 0
            by_point: dict[int, list[int]] = {}
            for i, e in zip(li[inside].tolist(), ei[inside].tolist()):
                by_point.setdefault(i, []).append(e)
            for i, p in enumerate(cands):
                corners = []
                for e in by_point.get(i, []):
                    x0, y0, x1, y1, px, py = rows[e]
                    if x0 == p[0] and y0 == p[1]:
                        corners.append((int(group[e]), rows[e, 2:4], rows[e, 4:6], True))
                    elif not (x1 == p[0] and y1 == p[1]):  # the edge passes through p: a straight corner
                        corners.append((int(group[e]), rows[e, 2:4], rows[e, 0:2], False))
                found = two_corner_wedges(corners, p) or (free_wedges(corners, p) if corners else [])
                if len(found) >= 2:
                    for e in by_point.get(i, []):
                        if not ((rows[e, 0:2] == p).all() or (rows[e, 2:4] == p).all()):
                            splits.setdefault(e, []).append(p)
                    points.append(p)
                    wedges.append(np.array([np.r_[q, r] for q, r, _ in found], dtype=np.float64))
                    wide.append(next((k for k, (_, _, w) in enumerate(found) if w), -1))
        self.pinch_points: NDArray[np.float64] = np.array(points, dtype=np.float64).reshape(-1, 2)
        self.pinch_wedges: tuple[NDArray[np.float64], ...] = tuple(wedges)
        self.pinch_wide: NDArray[np.int64] = np.array(wide, dtype=np.int64)
        return splits

    @staticmethod
    def _find_pinches(merged: shapely.Geometry, bounds: shapely.Geometry | None) -> NDArray[np.float64]:
        """Candidate pinch points: where two boundary rings of the free space meet, or one ring
        repeats a vertex."""
        free = merged if bounds is None else shapely.difference(bounds, merged)
        rings: list[shapely.Geometry] = []
        for poly in polygonal_parts(free):
            rings.append(poly.exterior)
            rings.extend(poly.interiors)
        found: list[NDArray[np.float64]] = []
        if rings:
            # A valid ring never touches itself, but repaired input may: a vertex repeated within
            # one ring (its closing vertex aside). One sort over all rings' vertices finds them.
            xy, ring_id = shapely.get_coordinates(np.asarray(rings, dtype=object), return_index=True)
            opening = np.flatnonzero(np.r_[True, ring_id[1:] != ring_id[:-1]])
            closing = np.r_[opening[1:], len(xy)] - 1
            keep = np.ones(len(xy), dtype=bool)
            keep[closing] = False
            xy, ring_id = xy[keep], ring_id[keep]
            order = np.lexsort((xy[:, 1], xy[:, 0], ring_id))
            xy, ring_id = xy[order], ring_id[order]
            again = (ring_id[1:] == ring_id[:-1]) & (xy[1:] == xy[:-1]).all(axis=1)
            if again.any():
                found.append(xy[1:][again])
        if len(rings) > 1:
            ring_arr = np.asarray(rings, dtype=object)
            i, j = shapely.STRtree(ring_arr).query(ring_arr, predicate="intersects")
            upper = i < j
            if upper.any():
                parts = shapely.get_parts(shapely.intersection(ring_arr[i[upper]], ring_arr[j[upper]]))
                found.append(shapely.get_coordinates(parts[shapely.get_type_id(parts) == 0]))
        if not found:
            return np.zeros((0, 2))
        return np.unique(np.concatenate(found), axis=0)

    def _find_seams(self, merged: shapely.Geometry, bounds: shapely.Geometry | None) -> NDArray[np.float64]:
        """Edges an obstacle shares with the bounds outline, as rows x0, y0, x1, y1."""
        if bounds is None or not self.parts:
            return np.zeros((0, 4))
        shared = shapely.get_parts(shapely.intersection(bounds.boundary, shapely.boundary(merged)))
        lines = shared[(shapely.get_dimensions(shared) == 1) & (shapely.length(shared) > 0)]
        out = [np.zeros((0, 4))]
        for line in shapely.get_parts(shapely.line_merge(lines)) if len(lines) else lines:
            c = shapely.get_coordinates(line)
            out.append(np.column_stack([c[:-1], c[1:]]))
        return np.concatenate(out)

    def _gap_table(self) -> NDArray[np.float64]:
        """Seams and pinch points (each followed by its wedges) as kernel gap rows."""
        rows = [np.column_stack([np.full(len(self.seams), GAP_SEAM), self.seams])]
        for p, w, wide in zip(self.pinch_points, self.pinch_wedges, self.pinch_wide.tolist()):
            rows.append(np.array([[GAP_PINCH, p[0], p[1], len(w), wide]]))
            rows.append(np.column_stack([np.full(len(w), GAP_WEDGE), w]))
        return np.concatenate(rows).reshape(-1, 5)

    # -- points -----------------------------------------------------------------------------
    def inside_obstacle(self, points: ArrayLike) -> NDArray[np.bool_]:
        """Whether each point lies strictly inside an (inflated) obstacle; the boundary is outside.

        Parameters
        ----------
        points : float array of shape (n, 2) or (n, 3)
            World coordinates; a third column (z) is ignored.

        Returns
        -------
        bool array of shape (n,)
        """
        pts = _point_geoms(points)
        out = np.zeros(len(pts), dtype=bool)
        if len(pts) and len(self._obst):
            pi, oi = self._tree.query(pts)
            hit = shapely.contains_properly(self._obst[oi], pts[pi])
            out[pi[hit]] = True
        return out

    def outside_bounds(self, points: ArrayLike) -> NDArray[np.bool_]:
        """Whether each point lies outside the eroded bounds; their boundary is inside."""
        pts = _point_geoms(points)
        if self.eroded_bounds is None:
            return np.zeros(len(pts), dtype=bool)
        return ~shapely.covers(self.eroded_bounds, pts)

    def walkable(self, points: ArrayLike) -> NDArray[np.bool_]:
        """Whether the agent's centre may stand at each point (inside the area, not in an obstacle)."""
        return ~(self.inside_obstacle(points) | self.outside_bounds(points))

    # -- segments ---------------------------------------------------------------------------
    def blocked(self, a: ArrayLike, b: ArrayLike, *, ends_walkable: bool = False) -> NDArray[np.bool_]:
        """Whether each segment ``a[i] -> b[i]`` is blocked, for m segments at once.

        Parameters
        ----------
        a, b : float arrays of shape (m, 2) (or (m, 3); z is ignored)
            Segment start and end points in world units.
        ends_walkable : bool
            True when the caller knows every end point is walkable (:meth:`walkable`), as a
            waypoint build does for the waypoints it links: their test is skipped. Answers for
            ends that are not walkable are then meaningless.

        Returns
        -------
        bool array of shape (m,)
            True where the segment is not visible under the module's line-of-sight rule (an end
            not walkable, entering an obstacle or leaving the eroded bounds, through a pinch
            point, along a seam, or ending at a pinch point outside its wide wedge). A
            zero-length segment is blocked when its point is not walkable.

        Notes
        -----
        Each distinct end point is tested once (unless ``ends_walkable``). A segment leaving or
        reaching a wall corner through its blocked wedge is settled there, with no walk
        (:class:`~navmesh.sight_ends.EndCorners`: about half the pairs of a corner build). The
        others walk a uniform grid of the walls' and gaps' bounding boxes
        (:class:`~navmesh.sight_grid.BoxGrid`, cells a few wall edges wide) cell by cell, in
        rounds, dropping a segment once it is blocked; the (segment, wall) pairs of a cell are
        counted before they are gathered. Orientation tests on all pairs of a slice at once find
        proper crossings, ends inside an edge leaving into its blocked side, wall corners the
        segment touches outside their free wedge, pinch points and seams; their floating-point
        stage settles most pairs (:func:`~navmesh.predicates.pairs_blocked`), exact arithmetic
        the rest. No Python loop per segment and no geometry object per segment or pair.
        Memory: slices, batches and a build's chunks are sized from
        ``navmesh.sight.MEMORY_BUDGET`` (192 MB) whatever the level and however many segments
        are passed. (Pruning with shapely's ``STRtree.query(predicate=...)`` was measured 6 to
        12 times slower than the grid and these numpy tests.)

        Speed: about 2 to 5 microseconds per segment of a large all-pairs build on a loaded
        2-core machine. The numba kernel backend of :func:`navmesh.waypoints.build_waypoint_graph`
        (``visibility="kernel"``) gives the same answers 10 to 15 times faster per segment once
        compiled; whole corner builds take 5 to 8 times the kernel's CPU time with ``k=None``
        (was 11 to 20) and about 2.6 times with ``k=8`` (an RTS-like level of 1,945 corners, a
        2,313-corner tile map, 1,600 crates with 6,400 corners; 2026-11-27, idle).
        Pick the kernel for repeated rebuilds, levels of more than a few thousand waypoints and
        ``k=None`` builds that must be quick; this class where numba is unwanted or not compiled
        yet, for small builds (judged in one round), or as the kernels' reference.

        Raises
        ------
        InvalidGeometryError
            Shapes differ or are not (m, 2), or coordinates are not finite.
        """
        pa, pb = segment_arrays(a, b)
        out = np.zeros(len(pa), dtype=bool)
        if not ends_walkable:
            # segments of a build share their ends (waypoints): test each distinct end once
            xy = np.concatenate([pa, pb])
            key = np.ascontiguousarray(xy).view(np.complex128).reshape(-1)  # one sortable value per point
            _, first, at = np.unique(key, return_index=True, return_inverse=True)
            ok = self.walkable(xy[first])[at.reshape(-1)]
            out = ~(ok[: len(pa)] & ok[len(pa) :])
        todo = np.flatnonzero(~out & (pa != pb).any(axis=1))
        if todo.size == 0:
            return out
        out[todo] = self._walls_block(pa[todo], pb[todo])
        return out

    def _walls_block(self, sa: NDArray[np.float64], sb: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether a wall edge, corner, pinch point or seam blocks each segment (ends walkable):
        first the wall corners at its ends (:class:`~navmesh.sight_ends.EndCorners`), then the
        walls and gaps along it (:func:`~navmesh.sight_walk.walk` over the wall grid)."""
        hit = self._ends.blocked(sa, sb)  # ends in a corner's blocked wedge: no walk needed
        if self._grid.n:
            walk(self._grid, sa, sb, hit, self._pairs_block, whole_pairs=_WHOLE_PAIRS,
                 budget=max(min(MEMORY_BUDGET // _BYTES_PER_PAIR, _SLICE_PAIRS), 1),
                 batch=max(min(MEMORY_BUDGET // _BYTES_PER_PIECE, _BATCH_PIECES), 1))
        return hit

    def _pairs_block(self, a: NDArray[np.float64], b: NDArray[np.float64], w: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Per (segment, grid item) pair: whether that wall edge (items below ``len(edges)``), seam
        or pinch point blocks the segment, whose end corners are judged already."""
        n_edges = len(self.edges)
        wall = w < n_edges
        if wall.all():
            return pairs_blocked(a, b, self.edges, w, ends_judged=True)
        out = np.zeros(len(a), dtype=bool)
        out[~wall] = self._gap_blocks(a[~wall], b[~wall], w[~wall] - n_edges)
        out[wall] = pairs_blocked(a[wall], b[wall], self.edges, w[wall], ends_judged=True)
        return out

    def _gap_blocks(self, a: NDArray[np.float64], b: NDArray[np.float64], gi: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Per (segment, seam or pinch point) pair: whether that gap blocks the segment."""
        n_seams = len(self.seams)
        out = np.zeros(len(a), dtype=bool)
        seam = gi < n_seams
        if seam.any():
            s = self.seams[gi[seam]]
            on = (orient(a[seam], b[seam], s[:, :2]) == 0) & (orient(a[seam], b[seam], s[:, 2:]) == 0)
            ax_ = np.where((a[seam, 0] != b[seam, 0])[:, None], np.column_stack([a[seam, 0], b[seam, 0], s[:, 0], s[:, 2]]),
                           np.column_stack([a[seam, 1], b[seam, 1], s[:, 1], s[:, 3]]))
            lo = np.maximum(ax_[:, :2].min(axis=1), ax_[:, 2:].min(axis=1))
            hi = np.minimum(ax_[:, :2].max(axis=1), ax_[:, 2:].max(axis=1))
            out[seam] = on & (hi > lo)
        pin = np.flatnonzero(~seam)
        if pin.size:
            k = gi[pin] - n_seams
            p = self.pinch_points[k]
            pa, pb = a[pin], b[pin]
            on = orient(pa, pb, p) == 0
            where = np.where(on, place_on_line(pa, pb, p), -1)
            sel = np.flatnonzero(where >= 0)
            if sel.size:
                counts = self._wedge_count[k[sel]]
                rep = np.repeat(sel, counts)
                index = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
                wedge = self._wedge_rows[np.repeat(self._wedge_first[k[sel]], counts) + index]
                w_at = where[rep]
                wide = self.pinch_wide[k[rep]]
                s = np.where(w_at == 0, 1, -1)
                ok = in_wedge(pa[rep], pb[rep], p[rep], wedge[:, :2], wedge[:, 2:], s)
                between = w_at == 1
                ok &= ~between | in_wedge(pa[rep], pb[rep], p[rep], wedge[:, :2], wedge[:, 2:], np.ones(len(rep), int))
                ok &= between | (wide < 0) | (index == wide)
                fine = np.zeros(len(a), dtype=bool)
                np.logical_or.at(fine, pin[rep], ok)
                out[pin[sel]] = ~fine[pin[sel]]
        return out

    def visible(self, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
        """``~blocked(a, b)``: whether each segment is walkable from end to end."""
        return ~self.blocked(a, b)

    def __repr__(self) -> str:
        return (
            f"LineOfSight(parts={len(self.parts)}, agent_radius={self.agent_radius}, "
            f"pinch_points={len(self.pinch_points)})"
        )


#: Bytes of temporary arrays :meth:`LineOfSight.blocked` aims to stay within per batch (and
#: :func:`navmesh.waypoints.linking.visible_pairs` per bulk call), whatever the level: pairs are
#: counted, then gathered ``MEMORY_BUDGET // _BYTES_PER_PAIR`` at a time, pieces made
#: ``MEMORY_BUDGET // _BYTES_PER_PIECE`` and segments taken ``MEMORY_BUDGET // BYTES_PER_SEGMENT``
#: at a time. Smaller budgets mean more, smaller batches (same answers, a little slower).
MEMORY_BUDGET = 192 * 2**20
_BYTES_PER_PAIR, _BYTES_PER_PIECE, BYTES_PER_SEGMENT = 400, 600, 400  # generous estimates
# at most this many per slice / batch whatever the budget: arrays of a few MB stay in the cache
# and the allocator's heap (measured about 15% faster than 100 MB slices)
_SLICE_PAIRS, _BATCH_PIECES = 1 << 16, 1 << 15
_CELL = 0.5  # side of the wall grid's cells, in piece lengths (measured fastest)
_WHOLE_PAIRS = 1 << 16  # a call whose segments' boxes list at most this many walls is not walked


def _split_edges(rows: NDArray[np.float64], splits: dict[int, list[NDArray[np.float64]]]) -> NDArray[np.float64]:
    """Wall edge rows with edge ``e`` cut at the points ``splits[e]`` (exactly on it). The next
    edge keeps its previous vertex: the new one lies on the same ray from its corner."""
    out = []
    for e, row in enumerate(rows):
        if e not in splits:
            out.append(row[None])
            continue
        a, b = row[0:2], row[2:4]
        axis = 0 if a[0] != b[0] else 1
        cuts = sorted(splits[e], key=lambda p: abs(p[axis] - a[axis]))
        chain = [a, *cuts, b]
        prev = [row[4:6], *chain[:-2]]
        out.append(np.array([np.r_[chain[i], chain[i + 1], prev[i]] for i in range(len(chain) - 1)]))
    return np.concatenate(out)


def _row_lookup(rows: NDArray[np.float64], table: NDArray[np.float64]) -> NDArray[np.int64]:
    """Index of each (x, y) row in ``table`` (exact equality), -1 when absent."""
    both = np.concatenate([table, rows])
    _, first, inverse = np.unique(both, axis=0, return_index=True, return_inverse=True)
    owner = first[inverse.reshape(-1)][len(table):]
    return np.where(owner < len(table), owner, -1)


def _point_geoms(points: ArrayLike) -> NDArray[np.object_]:
    arr = np.asarray(points, dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] in (2, 3):
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] not in (2, 3):
        raise InvalidGeometryError(f"points has shape {arr.shape}; expected (n, 2) or (n, 3)")
    if not np.isfinite(arr).all():
        raise InvalidGeometryError("points must be finite numbers")
    return shapely.points(arr[:, :2])

