"""Polygon validation, agent-radius inflation and bulk line of sight.

This module knows shapes, not graphs: it turns user input into valid shapely polygons,
grows obstacles by an agent radius (and shrinks the walkable area by it), and answers
"can a point agent walk straight from ``a`` to ``b``?" for many segments in one call.

Line-of-sight rule
------------------
A segment is *blocked* when it passes through the interior of an obstacle or leaves the
walkable area (the bounds). Running along an obstacle edge or the bounds edge, and touching
a corner, is allowed: these are the rules of published any-angle answers.

Obstacles that overlap or share an edge are merged first (``shapely.unary_union``), so a
segment running along the shared edge of two adjacent wall blocks is inside the wall.
Obstacles that touch only at a point (two squares meeting corner to corner, a checkerboard)
leave a gap of zero width: a segment passing *through* such a pinch point is blocked, while
a segment ending at it is allowed. The same holds where an obstacle touches the bounds edge at
a point, and a segment may not run along an edge that an obstacle shares with the bounds
outline (a wall built against the map edge). Pinch points are the points where two boundary
rings of the free space meet.

For an agent of radius r the merged obstacles are inflated (and the bounds eroded) by r and the
agent's centre follows the rule above; inflated obstacles are not merged again, so two walls
exactly 2r apart leave a corridor the agent fits through, touching both.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Literal, Sequence

import numpy as np
import scipy.sparse
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import check_option
from navmesh.errors import InvalidGeometryError, InvalidOptionError, describe

__all__ = [
    "as_polygon",
    "as_polygons",
    "polygon_list",
    "as_bounds",
    "polygon_to_data",
    "inflate",
    "erode",
    "segment_lengths_inside",
    "LineOfSight",
    "cell_rectangles",
    "Join",
]

Join = Literal["mitre", "round"]
JOINS: tuple[str, ...] = ("mitre", "round")


# -- validation ------------------------------------------------------------------------------
def _ring_array(coords: Any, name: str) -> NDArray[np.float64]:
    try:
        arr = np.array(coords, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidGeometryError(f"{name} cannot be read as (x, y) coordinates: {exc}") from None
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise InvalidGeometryError(
            f"{name} has shape {arr.shape}; expected (n, 2) x, y coordinates with n >= 3"
        )
    bad = ~np.isfinite(arr).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidGeometryError(f"{name}[{i}]={arr[i].tolist()} is not finite; coordinates must be finite numbers")
    return arr


def _is_point(item: Any) -> bool:
    """True when ``item`` looks like one point: a flat sequence of numbers (not a ring)."""
    try:
        return len(item) > 0 and all(np.ndim(v) == 0 for v in item)
    except TypeError:
        return False


def _build_polygon(obj: Any, name: str) -> shapely.Polygon:
    """Turn ``obj`` into a (not yet validated) shapely Polygon."""
    if isinstance(obj, shapely.Polygon):
        if obj.has_z:
            raise InvalidGeometryError(f"{name} has z coordinates; polygons are 2-D footprints")
        if obj.is_empty:
            raise InvalidGeometryError(f"{name} is empty; a polygon needs at least 3 corners")
        _ring_array(obj.exterior.coords, f"{name}.exterior")
        for j, ring in enumerate(obj.interiors):
            _ring_array(ring.coords, f"{name}.holes[{j}]")
        return obj
    if isinstance(obj, shapely.geometry.base.BaseGeometry):
        raise InvalidGeometryError(f"{name} is a {obj.geom_type}; expected a Polygon")
    if isinstance(obj, dict):
        if "exterior" not in obj:
            raise InvalidGeometryError(
                f"{name} is a mapping without 'exterior'; expected {{'exterior': [...], 'holes': [...]}}"
            )
        shell = _ring_array(obj["exterior"], f"{name}.exterior")
        raw_holes = obj.get("holes", ())
        if isinstance(raw_holes, (str, bytes)) or not hasattr(raw_holes, "__iter__"):
            raise InvalidGeometryError(f"{name}.holes={describe(raw_holes)} must be a list of rings")
        holes = [_ring_array(h, f"{name}.holes[{j}]") for j, h in enumerate(raw_holes)]
    else:
        try:
            items = list(obj)
        except TypeError:
            raise InvalidGeometryError(
                f"{name}={describe(obj)} is not a polygon; expected a shapely Polygon, a list of (x, y) "
                "points, or [exterior, hole, ...] rings"
            ) from None
        if items and not _is_point(items[0]) and not isinstance(items[0], (str, bytes)):
            shell = _ring_array(items[0], f"{name}[0]")
            holes = [_ring_array(h, f"{name}[{j + 1}]") for j, h in enumerate(items[1:])]
        else:
            shell = _ring_array(items, name)
            holes = []
    for ring_name, ring in [(f"{name} exterior", shell)] + [(f"{name} hole {j}", h) for j, h in enumerate(holes)]:
        distinct = np.unique(ring, axis=0)
        if len(distinct) < 3:
            raise InvalidGeometryError(f"{ring_name} has {len(distinct)} distinct points; a ring needs at least 3")
    return shapely.Polygon(shell, holes)


def _validate(poly: shapely.Polygon, name: str) -> shapely.Polygon:
    if not shapely.is_valid(poly):
        reason = shapely.is_valid_reason(poly)
        raise InvalidGeometryError(
            f"{name} is not a valid polygon ({reason}); rings must not cross or touch themselves "
            "(pass repair=True to fix it with shapely.make_valid)"
        )
    if not poly.area > 0:
        raise InvalidGeometryError(f"{name} has zero area; a polygon must enclose some area")
    return poly


def _polygonal_parts(geom: shapely.Geometry) -> list[shapely.Polygon]:
    parts = shapely.get_parts(geom)
    out: list[shapely.Polygon] = []
    for part in parts:
        if isinstance(part, shapely.Polygon):
            if not part.is_empty and part.area > 0:
                out.append(part)
        elif isinstance(part, (shapely.MultiPolygon, shapely.GeometryCollection)):
            out.extend(_polygonal_parts(part))
    return out


def as_polygons(obj: Any, *, name: str = "polygon", repair: bool = False) -> tuple[shapely.Polygon, ...]:
    """Validate ``obj`` as polygonal geometry and return its polygons.

    Like :func:`as_polygon`, but also accepts a ``MultiPolygon`` and, with ``repair=True``, keeps
    every polygonal part that ``shapely.make_valid`` produces (a self-crossing "bow tie" becomes
    two triangles).

    Parameters
    ----------
    obj : shapely Polygon or MultiPolygon, list of (x, y) points, [exterior, hole, ...] rings,
        or mapping ``{"exterior": points, "holes": [points, ...]}``
        The shape, in world units.
    name : str
        How error messages call the object, e.g. ``"obstacles[3]"``.
    repair : bool
        Repair invalid polygons with ``shapely.make_valid`` instead of raising; lines and points
        produced by the repair are dropped.

    Returns
    -------
    tuple of shapely.Polygon
        One or more valid polygons of positive area.

    Raises
    ------
    InvalidGeometryError
        Wrong shape, NaN/inf coordinates, fewer than 3 distinct corners, zero area, or a
        self-intersection without ``repair``; or nothing polygonal is left after the repair.

    Examples
    --------
    >>> bow_tie = [(0, 0), (2, 2), (2, 0), (0, 2)]
    >>> [round(p.area, 6) for p in as_polygons(bow_tie, name="bow tie", repair=True)]
    [1.0, 1.0]
    """
    if isinstance(obj, shapely.MultiPolygon):
        out: list[shapely.Polygon] = []
        for j, part in enumerate(obj.geoms):
            out.extend(as_polygons(part, name=f"{name}.geoms[{j}]", repair=repair))
        if not out:
            raise InvalidGeometryError(f"{name} is an empty MultiPolygon")
        return tuple(out)
    poly = _build_polygon(obj, name)
    if not repair:
        return (_validate(poly, name),)
    if shapely.is_valid(poly) and poly.area > 0:
        return (poly,)
    parts = _polygonal_parts(shapely.make_valid(poly))
    if not parts:
        raise InvalidGeometryError(f"{name} has no area left after repair; it is degenerate")
    return tuple(parts)


def polygon_list(objs: Iterable[Any], *, name: str = "polygons", repair: bool = False) -> tuple[shapely.Polygon, ...]:
    """Validate many polygons at once; item ``i`` is called ``f"{name}[{i}]"`` in errors.

    Shapely polygons are checked with vectorised shapely calls (fast for tens of thousands of
    grid-cell obstacles); anything else, and any polygon that fails, goes through
    :func:`as_polygons` for the detailed message or the repair.

    Examples
    --------
    >>> len(polygon_list([shapely.box(0, 0, 1, 1), [(2, 0), (3, 0), (3, 1)]], name="obstacles"))
    2
    """
    items = list(objs)
    ok = np.zeros(len(items), dtype=bool)
    is_poly = np.array([isinstance(o, shapely.Polygon) for o in items], dtype=bool)
    if is_poly.any():
        polys = np.asarray([items[i] for i in np.flatnonzero(is_poly)], dtype=object)
        good = ~shapely.has_z(polys) & ~shapely.is_empty(polys)
        good &= shapely.is_valid(polys) & (shapely.area(polys) > 0)
        coords, owner = shapely.get_coordinates(polys, return_index=True)
        bad_owner = np.unique(owner[~np.isfinite(coords).all(axis=1)])
        good[bad_owner] = False
        ok[np.flatnonzero(is_poly)[good]] = True
    out: list[shapely.Polygon] = []
    for i, obj in enumerate(items):
        if ok[i]:
            out.append(obj)
        else:
            out.extend(as_polygons(obj, name=f"{name}[{i}]", repair=repair))
    return tuple(out)


def as_polygon(obj: Any, *, name: str = "polygon", repair: bool = False) -> shapely.Polygon:
    """Validate ``obj`` and return it as one valid shapely Polygon.

    Parameters
    ----------
    obj : shapely Polygon, list of (x, y) points, [exterior, hole, ...] rings, or mapping
        ``{"exterior": points, "holes": [points, ...]}``
        The shape in world units. The ring may be given open or closed. A nested list whose
        first item is itself a list of points is read as rings: exterior first, then holes
        (the GeoJSON layout).
    name : str
        How error messages call the object, e.g. ``"obstacles[3]"``.
    repair : bool
        Repair an invalid polygon with ``shapely.make_valid``. If the repair splits it into
        several polygons this raises; use :func:`as_polygons` to keep all parts.

    Returns
    -------
    shapely.Polygon
        A valid polygon of positive area. Coordinates are kept as given (not re-ordered), so a
        level saved and loaded again is identical.

    Raises
    ------
    InvalidGeometryError
        Wrong shape, NaN/inf coordinates, fewer than 3 distinct corners, zero area, or a
        self-intersection (the message names the object and shapely's reason).

    Examples
    --------
    >>> as_polygon([(0, 0), (4, 0), (4, 3)], name="wall").area
    6.0
    >>> square_with_hole = [[(0, 0), (4, 0), (4, 4), (0, 4)], [(1, 1), (2, 1), (2, 2), (1, 2)]]
    >>> as_polygon(square_with_hole).area
    15.0
    >>> as_polygon([(0, 0), (2, 2), (2, 0), (0, 2)], name="obstacles[3]")
    Traceback (most recent call last):
    ...
    navmesh.errors.InvalidGeometryError: obstacles[3] is not a valid polygon (Self-intersection[1 1]); \
rings must not cross or touch themselves (pass repair=True to fix it with shapely.make_valid)
    """
    parts = as_polygons(obj, name=name, repair=repair)
    if len(parts) != 1:
        raise InvalidGeometryError(
            f"{name} splits into {len(parts)} polygons when repaired; use as_polygons to keep them all"
        )
    return parts[0]


def as_bounds(obj: Any, *, name: str = "bounds", repair: bool = False) -> shapely.Polygon:
    """Validate the walkable area: a polygon as in :func:`as_polygon`, or ``(xmin, ymin, xmax, ymax)``.

    Examples
    --------
    >>> as_bounds((0, 0, 10, 5)).bounds
    (0.0, 0.0, 10.0, 5.0)
    """
    if not isinstance(obj, shapely.Geometry) and not isinstance(obj, dict):
        try:
            flat = list(obj)
        except TypeError:
            flat = None
        if flat is not None and len(flat) == 4 and all(not isinstance(v, (list, tuple)) and np.ndim(v) == 0 for v in flat):
            try:
                x0, y0, x1, y1 = (float(v) for v in flat)
            except (TypeError, ValueError):
                raise InvalidGeometryError(
                    f"{name}={describe(obj)} must be 4 numbers (xmin, ymin, xmax, ymax)"
                ) from None
            if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
                raise InvalidGeometryError(f"{name}={describe(obj)} is not finite; coordinates must be finite numbers")
            if not (x0 < x1 and y0 < y1):
                raise InvalidGeometryError(f"{name}={describe(obj)} is empty; expected xmin < xmax and ymin < ymax")
            return shapely.box(x0, y0, x1, y1)
    return as_polygon(obj, name=name, repair=repair)


def polygon_to_data(poly: shapely.Polygon) -> dict[str, Any]:
    """Plain-data form of a polygon: ``{"exterior": [[x, y], ...], "holes": [[[x, y], ...], ...]}``.

    Rings are closed (first point repeated last), as shapely stores them; floats are kept exactly.

    Examples
    --------
    >>> polygon_to_data(shapely.box(0, 0, 1, 1))["exterior"]
    [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]
    """
    return {
        "exterior": np.asarray(poly.exterior.coords).tolist(),
        "holes": [np.asarray(r.coords).tolist() for r in poly.interiors],
    }


# -- inflation -------------------------------------------------------------------------------
def _check_radius(radius: Any) -> float:
    try:
        r = float(radius)
    except (TypeError, ValueError, OverflowError):
        r = float("nan")
    if not (math.isfinite(r) and r >= 0):
        raise InvalidOptionError(f"radius={describe(radius)} is not valid; expected a finite number >= 0")
    return r


def _check_quad_segs(quad_segs: Any) -> int:
    if isinstance(quad_segs, bool) or not isinstance(quad_segs, (int, np.integer)) or quad_segs < 1:
        raise InvalidOptionError(f"quad_segs={describe(quad_segs)} is not valid; expected an integer >= 1")
    return int(quad_segs)


def _grow(geoms: NDArray[np.object_], r: float, join: str, quad_segs: int) -> NDArray[np.object_]:
    """Conservative outward offset by ``r`` (``r`` may be negative for a shrink)."""
    mitre = shapely.buffer(geoms, r, join_style="mitre", mitre_limit=1.0 if join == "mitre" else 10.0)
    if join == "mitre":
        return mitre
    # Chords of shapely's round joins lie inside the circle; push the arc out so that no chord
    # comes closer than r, and cut back to the exact offset on straight sides with the mitre shape.
    # GEOS rounds the number of chords per corner to nearest, so one chord may span up to
    # 1.5 quarter-turn quanta (pi / (2 * quad_segs) each).
    stretch = 1.0 / math.cos(1.5 * math.pi / (4 * quad_segs))
    rounded = shapely.buffer(geoms, r * stretch, join_style="round", quad_segs=quad_segs)
    return shapely.intersection(mitre, rounded) if r > 0 else shapely.union(mitre, rounded)


def inflate(
    polygons: Iterable[shapely.Polygon],
    radius: float,
    *,
    join: Join = "mitre",
    quad_segs: int = 4,
) -> tuple[shapely.Geometry, ...]:
    """Grow each obstacle by an agent radius, so a disc agent becomes a point agent.

    Parameters
    ----------
    polygons : iterable of shapely.Polygon
        Valid obstacles (see :func:`as_polygon`).
    radius : float
        Agent radius in world units, >= 0. ``0`` returns the polygons unchanged.
    join : {"mitre", "round"}
        How convex corners are grown. ``"mitre"``: straight sides are offset by exactly
        ``radius`` and corners are squared off at distance ``radius`` from the original corner
        (shapely mitre join with ``mitre_limit=1``): one or two new corners per corner, good for
        corner waypoints. ``"round"``: corners follow the circle, approximated by
        ``quad_segs`` chords per quarter turn that are *tangent* to the circle (not inscribed),
        while straight sides stay at exactly ``radius``.
    quad_segs : int
        Chords per quarter circle for ``join="round"``, >= 1.

    Returns
    -------
    tuple of shapely geometry
        One inflated polygon per input, in input order (a polygon with a narrow notch may stay
        a Polygon with fewer holes). Inflated obstacles may overlap; :class:`LineOfSight` merges them.

    Notes
    -----
    Both joins are conservative: the result contains every point within ``radius`` of the
    obstacle (the exact Minkowski sum with a disc), and straight sides are exact, so a corridor
    exactly ``2 * radius`` wide stays open (its inflated walls touch but do not overlap). Only
    convex corners block a little more than the exact disc: ``"mitre"`` up to
    ``radius * (sqrt(2) - 1)`` beyond the arc, ``"round"`` a few percent of ``radius``.
    (At nearly straight corners GEOS merges offset points closer than ``1e-3 * radius``, which
    can cut such a corner by about ``1e-7 * radius``; below any practical tolerance.)

    Examples
    --------
    >>> [p.bounds for p in inflate([shapely.box(0, 0, 2, 2)], 1.0)]
    [(-1.0, -1.0, 3.0, 3.0)]
    """
    r = _check_radius(radius)
    check_option("join", join, JOINS)
    q = _check_quad_segs(quad_segs)
    geoms = np.asarray(list(polygons), dtype=object)
    if geoms.size == 0 or r == 0:
        return tuple(geoms.tolist())
    return tuple(_grow(geoms, r, join, q).tolist())


def erode(
    bounds: shapely.Polygon,
    radius: float,
    *,
    join: Join = "mitre",
    quad_segs: int = 4,
) -> shapely.Geometry:
    """Shrink the walkable area by an agent radius, so the agent's disc stays inside it.

    The counterpart of :func:`inflate` for the bounds, with the same ``join`` choices; it is
    conservative too (the result lies inside the exact erosion). Parts narrower than
    ``2 * radius`` disappear; the result may be empty or a MultiPolygon.

    Examples
    --------
    >>> erode(shapely.box(0, 0, 10, 4), 1.0).bounds
    (1.0, 1.0, 9.0, 3.0)
    """
    r = _check_radius(radius)
    check_option("join", join, JOINS)
    q = _check_quad_segs(quad_segs)
    if r == 0:
        return bounds
    return _grow(np.asarray([bounds], dtype=object), -r, join, q)[0]


# -- bulk segment helpers --------------------------------------------------------------------
def _segment_arrays(a: ArrayLike, b: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    pa = np.asarray(a, dtype=np.float64)
    pb = np.asarray(b, dtype=np.float64)
    if pa.ndim == 1:
        pa = pa[None, :]
    if pb.ndim == 1:
        pb = pb[None, :]
    if pa.ndim != 2 or pa.shape[1] not in (2, 3) or pb.shape != pa.shape:
        raise InvalidGeometryError(
            f"segment ends have shapes {pa.shape} and {pb.shape}; expected two (m, 2) arrays"
        )
    if not (np.isfinite(pa).all() and np.isfinite(pb).all()):
        raise InvalidGeometryError("segment ends must be finite numbers")
    return pa[:, :2], pb[:, :2]


def _lines(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.object_]:
    coords = np.stack([a, b], axis=1).reshape(-1, 2)
    return shapely.linestrings(coords, indices=np.repeat(np.arange(len(a)), 2))


def segment_lengths_inside(
    a: ArrayLike, b: ArrayLike, polygons: Sequence[shapely.Geometry]
) -> scipy.sparse.csr_array:
    """Length of each segment inside (or on the boundary of) each polygon, in bulk.

    Parameters
    ----------
    a, b : float arrays of shape (m, 2)
        Segment start and end points (a third column is ignored).
    polygons : sequence of P polygonal shapely geometries
        Closed sets: a segment running along an edge counts as inside.

    Returns
    -------
    scipy.sparse.csr_array of shape (m, P)
        Entry (i, j) is the length of segment i inside polygon j; absent entries are 0.

    Examples
    --------
    >>> m = segment_lengths_inside([[0, 1]], [[10, 1]], [shapely.box(2, 0, 5, 2)])
    >>> m.toarray().tolist()
    [[3.0]]
    """
    pa, pb = _segment_arrays(a, b)
    geoms = np.asarray(list(polygons), dtype=object)
    m, p = len(pa), len(geoms)
    if m == 0 or p == 0:
        return scipy.sparse.csr_array((m, p), dtype=np.float64)
    lines = _lines(pa, pb)
    tree = shapely.STRtree(geoms)
    seg, poly = tree.query(lines, predicate="intersects")
    lengths = shapely.length(shapely.intersection(lines[seg], geoms[poly]))
    keep = lengths > 0
    return scipy.sparse.csr_array((lengths[keep], (seg[keep], poly[keep])), shape=(m, p))


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
    """Bulk line-of-sight tests for a disc agent among fixed obstacles inside a walkable area.

    Build once per level and agent radius, then test thousands of segments per call. Pass the
    level's *original* obstacles and bounds: this class merges the obstacles, finds pinch points,
    then inflates the merged obstacles and erodes the bounds by ``agent_radius``.

    Rule: a segment (the path of the agent's centre) is blocked when it enters the interior of
    an inflated obstacle, leaves the eroded bounds, or (only with ``agent_radius=0``) passes
    through a pinch point of the original geometry. Running along boundaries and touching corners
    is allowed, so a corridor exactly ``2 * agent_radius`` wide is open: the agent's disc touches
    both walls. Obstacles that overlap or share an edge are merged *before* inflation, so a wall
    built from adjacent blocks has no seam; obstacles that touch only at a point (checkerboard) or
    an obstacle touching the bounds edge at a point leave a zero-width gap that a point agent
    cannot pass through (ending a segment exactly at the pinch point is allowed); nor may a
    segment run along an edge an obstacle shares with the bounds outline. With
    ``agent_radius > 0`` such places lie inside the inflated obstacles anyway.

    Parameters
    ----------
    obstacles : iterable of polygonal shapely geometry
        Obstacles (Polygons or MultiPolygons), possibly overlapping or touching.
    bounds : shapely Polygon or MultiPolygon, optional
        The walkable area. ``None`` means the whole plane.
    agent_radius : float
        Radius of the agent in world units, >= 0.
    join : {"mitre", "round"}
        Corner style of the inflation (see :func:`inflate`); conservative either way.
    quad_segs : int
        Chords per quarter circle for ``join="round"``.

    Attributes
    ----------
    parts : tuple of shapely.Polygon
        The original obstacles after merging those that overlap or share an edge.
    inflated : tuple of shapely geometry
        ``parts`` inflated by ``agent_radius`` (one per part; they may overlap or touch).
        Their corners are natural waypoint positions.
    walkable_area : shapely geometry or None
        ``bounds`` eroded by ``agent_radius``.
    pinch_points : float array of shape (k, 2)
        Points where the free space of the original geometry narrows to zero width (only used
        with ``agent_radius=0``).

    Examples
    --------
    >>> los = LineOfSight([shapely.box(2, -1, 3, 1)], shapely.box(-5, -5, 5, 5))
    >>> los.blocked([[0, 0], [0, 1]], [[4, 0], [4, 1]]).tolist()   # through, along the edge
    [True, False]
    >>> checkerboard = LineOfSight([shapely.box(0, 0, 1, 1), shapely.box(1, 1, 2, 2)])
    >>> checkerboard.blocked([[0, 2], [0, 2]], [[2, 0], [1, 1]]).tolist()  # through, to the pinch
    [True, False]
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
        r = _check_radius(agent_radius)
        check_option("join", join, JOINS)
        q = _check_quad_segs(quad_segs)
        geoms = [g for g in obstacles if g is not None and not g.is_empty]
        merged = _merge(geoms)
        self.agent_radius = r
        self.parts: tuple[shapely.Polygon, ...] = tuple(_polygonal_parts(merged))
        self.pinch_points = self._find_pinches(merged, bounds) if r == 0 else np.zeros((0, 2))
        if r > 0 and self.parts:
            self.inflated: tuple[shapely.Geometry, ...] = tuple(
                _grow(np.asarray(self.parts, dtype=object), r, join, q).tolist()
            )
        else:
            self.inflated = self.parts
        self.walkable_area: shapely.Geometry | None = bounds
        if bounds is not None and r > 0:
            self.walkable_area = _grow(np.asarray([bounds], dtype=object), -r, join, q)[0]
        self._obst = np.asarray(self.inflated, dtype=object)
        shapely.prepare(self._obst)
        self._tree = shapely.STRtree(self._obst)
        if self.walkable_area is not None:
            shapely.prepare(self.walkable_area)
        self._pinch_geoms = (
            shapely.points(self.pinch_points) if len(self.pinch_points) else np.empty(0, dtype=object)
        )
        self._pinch_tree = shapely.STRtree(self._pinch_geoms)
        # With r == 0, a wall flush against the map edge leaves a zero-width gap: running along
        # the edge an obstacle shares with the bounds outline is blocked.
        self._seams = np.empty(0, dtype=object)
        if r == 0 and bounds is not None and self.parts:
            shared = shapely.get_parts(shapely.intersection(bounds.boundary, shapely.boundary(merged)))
            self._seams = shared[shapely.length(shared) > 0]
        self._seam_tree = shapely.STRtree(self._seams)

    @staticmethod
    def _find_pinches(merged: shapely.Geometry, bounds: shapely.Geometry | None) -> NDArray[np.float64]:
        free = merged if bounds is None else shapely.difference(bounds, merged)
        rings: list[shapely.Geometry] = []
        for poly in _polygonal_parts(free):
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
        """Whether each point lies outside the (eroded) walkable area; its boundary is inside."""
        pts = _point_geoms(points)
        if self.walkable_area is None:
            return np.zeros(len(pts), dtype=bool)
        return ~shapely.covers(self.walkable_area, pts)

    def walkable(self, points: ArrayLike) -> NDArray[np.bool_]:
        """Whether the agent's centre may stand at each point (inside the area, not in an obstacle)."""
        return ~(self.inside_obstacle(points) | self.outside_bounds(points))

    # -- segments ---------------------------------------------------------------------------
    def blocked(self, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
        """Whether each segment ``a[i] -> b[i]`` is blocked, for m segments at once.

        Parameters
        ----------
        a, b : float arrays of shape (m, 2) (or (m, 3); z is ignored)
            Segment start and end points in world units.

        Returns
        -------
        bool array of shape (m,)
            True where the segment enters an obstacle's interior, leaves the walkable area,
            passes through a pinch point, or runs along an obstacle edge on the bounds outline.
            A zero-length segment is blocked when its point is not walkable.

        Notes
        -----
        Midpoints strictly inside a part or outside the area settle many segments at once; the
        rest get STRtree candidates and vectorised ``crosses | contains`` on the (segment, part)
        pairs, so zero-width corridors between touching inflated obstacles stay open; then one
        covers test against the walkable area, and tree queries for pinch points and bounds seams.
        No Python loop per segment. (A single free-space polygon test was tried and dropped: GEOS
        slows down with its hole count, 11x slower on a map with 4,500 obstacles.)

        Raises
        ------
        InvalidGeometryError
            Shapes differ or are not (m, 2), or coordinates are not finite.
        """
        pa, pb = _segment_arrays(a, b)
        m = len(pa)
        out = np.zeros(m, dtype=bool)
        if m == 0:
            return out
        same = (pa == pb).all(axis=1)
        if same.any():
            out[same] = ~self.walkable(pa[same])
        idx = np.flatnonzero(~same)
        if idx.size == 0:
            return out
        sa, sb = pa[idx], pb[idx]
        lines = _lines(sa, sb)
        hit = self._blocked_by_parts(lines, sa, sb)
        if len(self._seams):
            li, si = self._seam_tree.query(lines, predicate="intersects")
            along = shapely.length(shapely.intersection(lines[li], self._seams[si])) > 0
            hit[li[along]] = True
        if len(self._pinch_geoms):
            li, ki = self._pinch_tree.query(lines, predicate="intersects")
            if li.size:
                pin = self.pinch_points[ki]
                at_end = (pin == sa[li]).all(axis=1) | (pin == sb[li]).all(axis=1)
                hit[li[~at_end]] = True
        out[idx] = hit
        return out

    def _blocked_by_parts(
        self, lines: NDArray[np.object_], sa: NDArray[np.float64], sb: NDArray[np.float64]
    ) -> NDArray[np.bool_]:
        """Interior contact with an (inflated) part or leaving the walkable area, pair by pair
        (vectorised over STRtree candidate pairs)."""
        hit = np.zeros(len(lines), dtype=bool)
        # Cheap certain cases first: the midpoint strictly inside a part or outside the area.
        hit |= ~self.walkable(0.5 * (sa + sb))
        rest = np.flatnonzero(~hit)
        if rest.size and len(self._obst):
            li, oi = self._tree.query(lines[rest])
            obst, cand = self._obst[oi], lines[rest][li]
            # Interior contact: the line crosses the polygon, or lies inside it.
            inner = shapely.crosses(obst, cand) | shapely.contains(obst, cand)
            hit[rest[li[inner]]] = True
        if self.walkable_area is not None:
            rest = np.flatnonzero(~hit)
            hit[rest] = ~shapely.covers(self.walkable_area, lines[rest])
        return hit

    def visible(self, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
        """``~blocked(a, b)``: whether each segment is walkable from end to end."""
        return ~self.blocked(a, b)

    def __repr__(self) -> str:
        return (
            f"LineOfSight(parts={len(self.parts)}, agent_radius={self.agent_radius}, "
            f"pinch_points={len(self.pinch_points)})"
        )


def _point_geoms(points: ArrayLike) -> NDArray[np.object_]:
    arr = np.asarray(points, dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] in (2, 3):
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] not in (2, 3):
        raise InvalidGeometryError(f"points has shape {arr.shape}; expected (n, 2) or (n, 3)")
    if not np.isfinite(arr).all():
        raise InvalidGeometryError("points must be finite numbers")
    return shapely.points(arr[:, :2])


def cell_rectangles(blocked: NDArray[np.bool_]) -> list[shapely.Polygon]:
    """Few rectangles exactly covering the True cells of a grid (tile maps as obstacles).

    Runs of True cells along each row are merged, and stacked while the next rows repeat them.

    Parameters
    ----------
    blocked : bool array of shape (rows, cols)
        Row ``y`` is the cell square ``[x, x + 1] x [y, y + 1]`` in the grid's own units (rows grow
        in +y, as in Moving AI files read top-down).

    Returns
    -------
    list of shapely.Polygon
        Axis-aligned boxes whose union is the blocked area.

    Examples
    --------
    >>> [b.bounds for b in cell_rectangles(np.array([[1, 1, 0], [1, 1, 0]], dtype=bool))]
    [(0.0, 0.0, 2.0, 2.0)]
    """
    out, open_runs = [], {}
    h = blocked.shape[0]
    for y in range(h + 1):
        runs = set()
        if y < h:
            d = np.diff(np.concatenate([[0], blocked[y].astype(np.int8), [0]]))
            runs = set(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist()))
        still = {}
        for run, y0 in open_runs.items():
            if run in runs:
                still[run] = y0
            else:
                out.append(shapely.box(run[0], y0, run[1], y))
        for run in runs - still.keys():
            still[run] = y
        open_runs = still
    return out
