"""Polygon validation, agent-radius inflation and bulk line of sight.

This module knows shapes, not graphs: it turns user input into valid shapely polygons,
grows obstacles by an agent radius (and shrinks the walkable area by it), and answers
"can a point agent walk straight from ``a`` to ``b``?" for many segments in one call.

Line-of-sight rule
------------------
This is the one rule; :class:`LineOfSight` (vectorised numpy over shapely STRtree candidates)
and the numba kernels of :mod:`navmesh._kernels.los` both implement it, exactly.

*Blocked sets.* With ``agent_radius = 0`` the obstacles are merged (``shapely.unary_union``:
obstacles that overlap or share an edge become one, so a wall built from adjacent blocks has no
seam) and, together with everything outside the bounds, form **one** blocked set. With
``agent_radius = r > 0`` every merged obstacle is inflated by r and the bounds are eroded by r,
and each inflated obstacle and the outside of the eroded bounds is a blocked set **of its own**
(inflated obstacles are not merged again).

*Walkable points.* A point is walkable when it lies in no blocked set's interior: obstacle
boundaries and the bounds outline are walkable.

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
are shapely buffers (see :func:`inflate`); the rule is exact for the polygons they return.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cmp_to_key
from typing import Any, Iterable, Literal, Sequence

import numpy as np
import scipy.sparse
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import check_option
from navmesh._kernels.los import GAP_PINCH, GAP_SEAM, GAP_WEDGE
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
    "orient",
    "ring_edges",
    "cell_rectangles",
    "BOUNDS_MARGIN",
    "ENDPOINT_TOLERANCE",
    "endpoint_tolerance",
    "level_size",
    "nearest_walkable",
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


def orient(a: ArrayLike, b: ArrayLike, c: ArrayLike) -> NDArray[np.int8]:
    """Exact sign of the turn ``a -> b -> c`` for arrays of points, vectorised.

    Parameters
    ----------
    a, b, c : float arrays of shape (n, 2)
        Points in world units (finite, well inside +-1e150).

    Returns
    -------
    int8 array of shape (n,)
        1 where ``c`` lies left of the directed line ``a -> b`` (counter-clockwise turn), -1 right,
        0 exactly on it. Decided in floating point when Shewchuk's error bound allows, otherwise
        with exact rational arithmetic (``fractions.Fraction``) on the float inputs.

    Examples
    --------
    >>> orient([[0.2, 1.8]], [[1.8, 0.2]], [[1.0, 1.0]]).tolist()   # the floats miss (1, 1)
    [-1]
    >>> orient([[0, 0]], [[2, 2]], [[1, 1]]).tolist()
    [0]
    """
    pa, pb, pc = (np.asarray(v, dtype=np.float64).reshape(-1, 2) for v in (a, b, c))
    detl = (pa[:, 0] - pc[:, 0]) * (pb[:, 1] - pc[:, 1])
    detr = (pa[:, 1] - pc[:, 1]) * (pb[:, 0] - pc[:, 0])
    det = detl - detr
    out = np.sign(det).astype(np.int8)
    unsure = np.abs(det) <= _ERR_BOUND * (np.abs(detl) + np.abs(detr))
    unsure &= (detl != 0) | (detr != 0)  # a zero factor makes both products exactly zero
    for i in np.flatnonzero(unsure):
        ax, ay, bx, by, cx, cy = (Fraction(float(v)) for v in (*pa[i], *pb[i], *pc[i]))
        exact = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
        out[i] = (exact > 0) - (exact < 0)
    return out


_ERR_BOUND = 3.3306690738754716e-16  # Shewchuk's ccwerrboundA, (3 + 16 eps) eps with eps = 2^-53


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


def ring_edges(geoms: Sequence[shapely.Geometry], free_inside: bool) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Directed edges of every ring of the polygons, free side on the left.

    Parameters
    ----------
    geoms : sequence of polygonal shapely geometry
    free_inside : bool
        True: the polygons are free space (the walkable area), so they lie left of their edges;
        False: they are obstacles, on the right.

    Returns
    -------
    rows : float array of shape (E, 6)
        ``x0, y0, x1, y1, px, py``: an edge and (px, py), the vertex before (x0, y0) on its ring.
        Closing and repeated vertices are dropped.
    polygon : int array of shape (E,)
        Index into ``geoms`` of the polygon each edge belongs to.

    Examples
    --------
    >>> ring_edges([shapely.box(0, 0, 1, 1)], free_inside=False)[0][:2].tolist()
    [[1.0, 0.0, 0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0, 1.0, 0.0]]
    """
    arr = np.asarray(list(geoms), dtype=object)
    if len(arr) == 0:
        return np.zeros((0, 6)), np.zeros(0, np.int64)
    parts, owner = shapely.get_parts(arr, return_index=True)
    keep = (shapely.get_type_id(parts) == 3) & ~shapely.is_empty(parts)
    parts, owner = parts[keep], owner[keep]
    if len(parts) == 0:
        return np.zeros((0, 6)), np.zeros(0, np.int64)
    # outer rings clockwise put the polygon on the right (obstacles); counter-clockwise on the left
    rings, ring_part = shapely.get_rings(shapely.orient_polygons(parts, exterior_cw=not free_inside), return_index=True)
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    first = np.r_[True, ring[1:] != ring[:-1]]
    last = np.r_[ring[1:] != ring[:-1], True]
    keep = ~last  # shapely closes every ring by repeating its first vertex
    keep[1:] &= np.any(xy[1:] != xy[:-1], axis=1) | first[1:]  # repeated vertices
    xy, ring = xy[keep], ring[keep]
    kept_rings, ring = np.unique(ring, return_inverse=True)
    ring = ring.reshape(-1)
    sizes = np.bincount(ring)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    pos = np.arange(len(xy)) - starts[ring]
    nxt = starts[ring] + (pos + 1) % sizes[ring]
    prv = starts[ring] + (pos - 1) % sizes[ring]
    good = sizes[ring] >= 3
    rows = np.column_stack([xy, xy[nxt], xy[prv]])[good]
    polygon = owner[ring_part[kept_rings]][ring]
    return rows, polygon[good].astype(np.int64)


def _sort_key(d: tuple[Fraction, Fraction]) -> tuple[int, Any]:
    return (0 if d[1] > 0 or (d[1] == 0 and d[0] > 0) else 1, d)


def _angle_order(u: tuple[Fraction, Fraction], v: tuple[Fraction, Fraction]) -> int:
    """Exact comparison of two nonzero directions by angle from +x in [0, 360)."""
    hu, hv = _sort_key(u)[0], _sort_key(v)[0]
    if hu != hv:
        return hu - hv
    c = u[0] * v[1] - u[1] * v[0]
    return -1 if c > 0 else (1 if c < 0 else 0)


def _in_closed_wedge(d: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction], r: tuple[Fraction, Fraction]) -> bool:
    """Whether direction d lies in the closed wedge swept counter-clockwise from q to r."""
    c_qr = q[0] * r[1] - q[1] * r[0]
    c_qd = q[0] * d[1] - q[1] * d[0]
    c_dr = d[0] * r[1] - d[1] * r[0]
    if c_qr > 0:
        return c_qd >= 0 and c_dr >= 0
    if c_qr < 0:
        return c_qd >= 0 or c_dr >= 0
    if q[0] * r[0] + q[1] * r[1] < 0:
        return c_qd >= 0
    return True


def _free_wedges(corners: list[tuple[int, NDArray[np.float64], NDArray[np.float64], bool]], point: NDArray[np.float64]
                 ) -> list[tuple[NDArray[np.float64], NDArray[np.float64], bool]]:
    """The free wedges around ``point`` from the wall corners there, exactly.

    ``corners`` holds (group, q, r, vertex): a corner whose free side is swept counter-clockwise
    from ray point->q to ray point->r (``vertex``: a ring vertex, not an edge passing through); group -1 is the walkable area (free where all its corners are free),
    any other group an obstacle (free where any of its corners is free). Returns (q, r, wide)
    per wedge, counter-clockwise from +x; ``wide``: wider than 180 degrees.
    """
    px, py = Fraction(float(point[0])), Fraction(float(point[1]))

    def direction(x: NDArray[np.float64]) -> tuple[Fraction, Fraction]:
        return (Fraction(float(x[0])) - px, Fraction(float(x[1])) - py)

    rays: list[tuple[tuple[Fraction, Fraction], NDArray[np.float64]]] = []
    wedge_of = [(g, direction(q), direction(r)) for g, q, r, _ in corners]
    for _, q, r, _ in corners:
        rays += [(direction(q), q), (direction(r), r)]
    rays.sort(key=cmp_to_key(lambda s, t: _angle_order(s[0], t[0])))
    distinct = [rays[0]]
    for ray in rays[1:]:
        if _angle_order(ray[0], distinct[-1][0]) != 0:
            distinct.append(ray)
    n = len(distinct)
    if n < 2:
        return []

    def free(d: tuple[Fraction, Fraction]) -> bool:
        groups: dict[int, list[bool]] = {}
        for g, q, r in wedge_of:
            groups.setdefault(g, []).append(_in_closed_wedge(d, q, r))
        return all(all(v) if g < 0 else any(v) for g, v in groups.items())

    sector_free = []
    for i in range(n):
        u, w = distinct[i][0], distinct[(i + 1) % n][0]
        c = u[0] * w[1] - u[1] * w[0]
        if c > 0:
            mid = (u[0] + w[0], u[1] + w[1])
        elif c < 0 or u[0] * w[0] + u[1] * w[1] > 0:
            mid = (-(u[0] + w[0]), -(u[1] + w[1]))
        else:
            mid = (-u[1], u[0])  # a half-turn sector: the left normal of u
        sector_free.append(free(mid))
    if all(sector_free) or not any(sector_free):
        return []
    begin = next(i for i in range(n) if sector_free[i] and not sector_free[i - 1])
    wedges = []
    i = begin
    for _ in range(n):
        if sector_free[i] and not sector_free[i - 1]:
            j = i
            while sector_free[(j + 1) % n]:
                j = (j + 1) % n
            q, r = distinct[i], distinct[(j + 1) % n]
            c = q[0][0] * r[0][1] - q[0][1] * r[0][0]
            wedges.append((q[1], r[1], bool(c < 0)))
        i = (i + 1) % n
    wedges.sort(key=cmp_to_key(lambda s, t: _angle_order(direction(s[0]), direction(t[0]))))
    return wedges


def _two_corner_wedges(corners: list[tuple[int, NDArray[np.float64], NDArray[np.float64], bool]],
                       point: NDArray[np.float64]) -> list[tuple[NDArray[np.float64], NDArray[np.float64], bool]]:
    """The common pinch quickly: two corners of two different obstacles (tile maps' diagonal
    cells). Their blocked wedges are disjoint, so the free wedges run from each corner's first
    free ray to the other's last: [q1, r2] and [q2, r1]. Anything else: [] (use :func:`_free_wedges`)."""
    if len(corners) != 2 or not all(c[3] for c in corners):
        return []
    (g1, q1, r1, _), (g2, q2, r2, _) = corners
    if g1 < 0 or g2 < 0 or g1 == g2:
        return []
    p = np.asarray(point, dtype=np.float64)[None]
    wide = orient(np.repeat(p, 2, axis=0), np.array([q1, q2]), np.array([r2, r1])) < 0
    out = [(q1, r2, bool(wide[0])), (q2, r1, bool(wide[1]))]
    return sorted(out, key=lambda w: math.atan2(w[0][1] - point[1], w[0][0] - point[0]) % (2 * math.pi))


class LineOfSight:
    """Bulk line-of-sight tests for a disc agent among fixed obstacles inside a walkable area.

    Build once per level and agent radius, then test thousands of segments per call. Pass the
    level's *original* obstacles and bounds: this class merges the obstacles, inflates the merged
    obstacles and erodes the bounds by ``agent_radius``, and finds pinch points and seams.
    The rule is the module's line-of-sight rule (see :mod:`navmesh.geometry`); the numba kernel
    backend (:func:`navmesh.waypoints.linking.wall_grid_for`) reads this object's ``edges`` and
    ``gaps`` and gives the same answers.

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
        r = _check_radius(agent_radius)
        check_option("join", join, JOINS)
        q = _check_quad_segs(quad_segs)
        geoms = [g for g in obstacles if g is not None and not g.is_empty]
        merged = _merge(geoms)
        self.agent_radius = r
        self.parts: tuple[shapely.Polygon, ...] = tuple(_polygonal_parts(merged))
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

        obst_rows, obst_group = ring_edges(self.inflated, free_inside=False)
        area_rows, _ = ring_edges([] if self.walkable_area is None else [self.walkable_area], free_inside=True)
        rows = np.concatenate([obst_rows, area_rows])
        group = np.concatenate([obst_group, np.full(len(area_rows), -1, np.int64)])
        self._edge_tree = shapely.STRtree(shapely.linestrings(rows[:, :4].reshape(-1, 2, 2)))
        splits = self._set_pinches(rows, group, merged, bounds if r == 0 else None, r == 0)
        if splits:
            # a pinch point inside a wall edge becomes a vertex of it (a straight corner), so that
            # the gap table alone judges segments ending or passing there
            rows = _split_edges(rows, splits)
            self._edge_tree = shapely.STRtree(shapely.linestrings(rows[:, :4].reshape(-1, 2, 2)))
        flag = np.zeros(len(rows))
        if len(self.pinch_points):
            starts = rows[:, :2]
            at = _row_lookup(starts, self.pinch_points)
            flag[at >= 0] = 1.0
        self.edges: NDArray[np.float64] = np.column_stack([rows, flag])
        # With r == 0, a wall flush against the map edge leaves a zero-width gap: running along
        # an edge the obstacle shares with the bounds outline is blocked.
        self.seams = self._find_seams(merged, bounds) if r == 0 else np.zeros((0, 4))
        self.gaps = self._gap_table()
        self._gap_tree = shapely.STRtree(self._gap_geoms())
        self._piece = _piece_length(self.edges)

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
            inside = _place(rows[ei, 0:2], rows[ei, 2:4], cands[li]) >= 0
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
                found = _two_corner_wedges(corners, p) or (_free_wedges(corners, p) if corners else [])
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

    def _gap_geoms(self) -> NDArray[np.object_]:
        seams = shapely.linestrings(self.seams.reshape(-1, 2, 2)) if len(self.seams) else np.empty(0, dtype=object)
        return np.concatenate([seams, shapely.points(self.pinch_points) if len(self.pinch_points) else seams[:0]])

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
            True where the segment is not visible under the module's line-of-sight rule (an end
            not walkable, entering an obstacle or leaving the walkable area, through a pinch
            point, along a seam, or ending at a pinch point outside its wide wedge). A
            zero-length segment is blocked when its point is not walkable.

        Notes
        -----
        Each distinct end point is tested once. Segments are cut into pieces a few wall edges
        long; STRtree queries with the pieces' (padded) bounding boxes give the (segment, wall
        edge) and (segment, pinch point or seam) candidate pairs, in rounds from the first
        pieces on, dropping a segment once it is blocked. Exact orientation tests
        (:func:`orient`) on all pairs of a batch at once find proper crossings, ends inside an
        edge leaving into its blocked side, wall corners the segment touches outside their free
        wedge, pinch points and seams. No Python loop per segment; batches are sized so that the
        temporary arrays stay within a few hundred MB whatever the level and however many
        segments are passed.

        Speed: about 10 to 40 microseconds per segment on a loaded 2-core machine (much less
        for short segments, which are one piece). The numba kernel backend of
        :func:`navmesh.waypoints.build_waypoint_graph` (``visibility="kernel"``) gives the same
        answers 5 to 10 times faster once compiled; pick it for large ``k=None`` builds and
        for repeated rebuilds, and this class where numba is unwanted, for a few thousand
        segments, or as the reference the kernels are tested against.

        Raises
        ------
        InvalidGeometryError
            Shapes differ or are not (m, 2), or coordinates are not finite.
        """
        pa, pb = _segment_arrays(a, b)
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
        """Whether a wall edge, corner, pinch point or seam blocks each segment (ends walkable).

        Each segment is cut into pieces about ``_piece`` long (a few wall edges per piece's
        bounding box) and the pieces are tested in rounds, first pieces first: a round's pieces
        go to the STRtrees in batches (bounding boxes padded well beyond rounding), every
        (segment, wall) pair found is judged exactly on the whole segment, and a segment leaves
        the rounds once blocked. A long segment's own bounding box would pair it with most of
        the level's walls; its pieces pair it with the walls near it, and most segments of a
        large build are blocked within their first pieces. Batches are sized so that about
        ``_PAIR_BUDGET`` pairs are judged at once, which bounds the memory whatever the level.
        """
        m = len(sa)
        hit = np.zeros(m, dtype=bool)
        d = sb - sa
        length = np.hypot(d[:, 0], d[:, 1])
        n_pieces = np.maximum(np.ceil(length / self._piece), 1).astype(np.int64)
        # float rounding of the piece ends is ~1e-16 of the coordinates; pad far beyond it
        pad = 1e-9 * (np.abs(np.c_[sa, sb]).max(axis=1) + length)
        batch = max(_PAIR_BUDGET // 8, 1)
        r = 0
        while True:
            active = np.flatnonzero((n_pieces > r) & ~hit)
            if active.size == 0:
                return hit
            lo = 0
            while lo < active.size:
                seg = active[lo : lo + batch]
                lo += len(seg)
                n = n_pieces[seg]
                p0 = sa[seg] if r == 0 else sa[seg] + d[seg] * (r / n)[:, None]
                p1 = np.where((r + 1 == n)[:, None], sb[seg], sa[seg] + d[seg] * ((r + 1) / n)[:, None])
                lo_xy = np.minimum(p0, p1) - pad[seg, None]
                hi_xy = np.maximum(p0, p1) + pad[seg, None]
                boxes = shapely.box(lo_xy[:, 0], lo_xy[:, 1], hi_xy[:, 0], hi_xy[:, 1])
                pairs = 0
                for tree, judge in ((self._edge_tree, self._edge_pairs), (self._gap_tree, self._gap_blocks)):
                    bi, wi = tree.query(boxes)
                    pairs += bi.size
                    for k in range(0, bi.size, _PAIR_BUDGET):
                        i, w = seg[bi[k : k + _PAIR_BUDGET]], wi[k : k + _PAIR_BUDGET]
                        hit[i[judge(sa[i], sb[i], w)]] = True
                # the next batch brings about as many pairs per piece as this one
                batch = int(min(max(len(seg) * _PAIR_BUDGET // max(pairs, 1), 1000), 4 * _PAIR_BUDGET))
            r += 1

    def _edge_pairs(self, a: NDArray[np.float64], b: NDArray[np.float64], ei: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Per (segment, wall edge) pair: whether that edge or its start corner blocks the segment.

        Only pairs whose segment and edge may touch (a floating-point test with a wide margin:
        never wrong about pairs far apart) go to the exact tests."""
        out = np.zeros(len(a), dtype=bool)
        e = self.edges
        k = np.flatnonzero(_may_touch(a, b, e[ei, 0:2], e[ei, 2:4]))
        if k.size:
            out[k] = _edge_blocks(a[k], b[k], e[ei[k]])
        return out

    def _gap_blocks(self, a: NDArray[np.float64], b: NDArray[np.float64], gi: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Per (segment, seam or pinch point) pair: whether that gap blocks the segment."""
        n_seams = len(self.seams)
        out = np.zeros(len(a), dtype=bool)
        seam = gi < n_seams
        if seam.any():
            s = self.seams[gi[seam]]
            on = (orient(a[seam], b[seam], s[:, :2]) == 0) & (orient(a[seam], b[seam], s[:, 2:]) == 0)
            ax_ = np.where((a[seam, 0] != b[seam, 0])[:, None], np.c_[a[seam, 0], b[seam, 0], s[:, 0], s[:, 2]],
                           np.c_[a[seam, 1], b[seam, 1], s[:, 1], s[:, 3]])
            lo = np.maximum(ax_[:, :2].min(axis=1), ax_[:, 2:].min(axis=1))
            hi = np.minimum(ax_[:, :2].max(axis=1), ax_[:, 2:].max(axis=1))
            out[seam] = on & (hi > lo)
        pin = np.flatnonzero(~seam)
        if pin.size:
            k = gi[pin] - n_seams
            p = self.pinch_points[k]
            pa, pb = a[pin], b[pin]
            on = orient(pa, pb, p) == 0
            where = np.where(on, _place(pa, pb, p), -1)
            sel = np.flatnonzero(where >= 0)
            if sel.size:
                counts = np.array([len(self.pinch_wedges[j]) for j in k[sel]], dtype=np.int64)
                rep = np.repeat(sel, counts)
                wedge = np.concatenate([self.pinch_wedges[j] for j in k[sel]])
                index = np.concatenate([np.arange(c) for c in counts])
                w_at = where[rep]
                wide = self.pinch_wide[k[rep]]
                s = np.where(w_at == 0, 1, -1)
                ok = _in_wedge(pa[rep], pb[rep], p[rep], wedge[:, :2], wedge[:, 2:], s)
                between = w_at == 1
                ok &= ~between | _in_wedge(pa[rep], pb[rep], p[rep], wedge[:, :2], wedge[:, 2:], np.ones(len(rep), int))
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


# Candidate (segment, wall) pairs judged at once by LineOfSight.blocked: about 250 bytes of
# temporaries each, so a few hundred MB at most whatever the level.
_PAIR_BUDGET = 1_000_000


def _piece_length(edges: NDArray[np.float64]) -> float:
    """Length of the pieces LineOfSight.blocked cuts segments into: the side of a square holding
    about nine wall edges on average (walls spread evenly over their bounding box), and no
    shorter than the median edge. Measured: making a piece costs as much as judging a dozen
    (segment, edge) pairs, so pieces holding a few edges each are the cheapest."""
    if len(edges) == 0:
        return math.inf
    xy = np.concatenate([edges[:, 0:2], edges[:, 2:4]])
    span = xy.max(axis=0) - xy.min(axis=0)
    area = max(float(span[0]) * float(span[1]), float(span.max()) ** 2 / max(len(edges), 1))
    median = float(np.median(np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1])))
    return max(3.0 * math.sqrt(area / len(edges)), median, 1e-300)


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


def _place(a: NDArray[np.float64], b: NDArray[np.float64], p: NDArray[np.float64]) -> NDArray[np.int8]:
    """Where points p on the lines a-b lie: 0 at a, 1 strictly between, 2 at b, -1 outside (exact:
    collinear points are ordered by a coordinate that differs between a and b)."""
    axis = np.where(a[:, 0] != b[:, 0], 0, 1)
    rows = np.arange(len(a))
    u, ua, ub = p[rows, axis], a[rows, axis], b[rows, axis]
    out = np.full(len(a), -1, dtype=np.int8)
    out[(np.minimum(ua, ub) < u) & (u < np.maximum(ua, ub))] = 1
    out[u == ub] = 2
    out[u == ua] = 0
    return out


def _in_wedge(a: NDArray[np.float64], b: NDArray[np.float64], v: NDArray[np.float64], q: NDArray[np.float64],
              r: NDArray[np.float64], s: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether direction ``s * (b - a)`` from v (a point on the line a-b) lies in the closed wedge
    swept counter-clockwise from ray v->q to ray v->r."""
    c_qr = orient(v, q, r).astype(np.int64)
    c_qd = -s * orient(a, b, q)  # cross(q - v, d): v is on the line a-b
    c_dr = s * orient(a, b, r)
    x = np.where((q[:, 0] != v[:, 0]) | (r[:, 0] != v[:, 0]), 0, 1)
    rows = np.arange(len(v))
    qc, vc, rc = q[rows, x], v[rows, x], r[rows, x]
    opposite = ((qc < vc) & (vc < rc)) | ((rc < vc) & (vc < qc))
    return np.where(
        c_qr > 0, (c_qd >= 0) & (c_dr >= 0),
        np.where(c_qr < 0, (c_qd >= 0) | (c_dr >= 0), np.where(opposite, c_qd >= 0, True)),
    )


def _sides(o: NDArray[np.float64], d: NDArray[np.float64], c: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """cross(d, c - o) in floating point and a bound far above its rounding error."""
    t1 = d[:, 0] * (c[:, 1] - o[:, 1])
    t2 = d[:, 1] * (c[:, 0] - o[:, 0])
    return t1 - t2, 1e-12 * (np.abs(t1) + np.abs(t2))


def _may_touch(a: NDArray[np.float64], b: NDArray[np.float64], p: NDArray[np.float64],
               q: NDArray[np.float64]) -> NDArray[np.bool_]:
    """False only where segment a-b and edge p-q are surely apart: one's end points lie strictly on
    one side of the other's line by far more than rounding (a zero or unsure sign keeps the pair).
    An edge that does not touch a segment neither crosses it nor has its corner on it."""
    s1, m1 = _sides(a, b - a, p)
    s2, m2 = _sides(a, b - a, q)
    apart = ((s1 > m1) & (s2 > m2)) | ((s1 < -m1) & (s2 < -m2))
    s1, m1 = _sides(p, q - p, a)
    s2, m2 = _sides(p, q - p, b)
    apart |= ((s1 > m1) & (s2 > m2)) | ((s1 < -m1) & (s2 < -m2))
    return ~apart


def _edge_blocks(a: NDArray[np.float64], b: NDArray[np.float64], e: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Per (segment, wall edge) pair: whether that edge or its start corner blocks the segment."""
    p, q, r = e[:, 0:2], e[:, 2:4], e[:, 4:6]
    o1 = orient(a, b, p).astype(np.int64)
    o2 = orient(a, b, q).astype(np.int64)
    out = np.zeros(len(a), dtype=bool)
    cross = np.flatnonzero(o1 * o2 < 0)
    if cross.size:
        o3 = orient(p[cross], q[cross], a[cross]).astype(np.int64)
        o4 = orient(p[cross], q[cross], b[cross]).astype(np.int64)
        out[cross] = (o3 * o4 < 0) | ((o3 == 0) & (o4 < 0)) | ((o4 == 0) & (o3 < 0))
    corner = np.flatnonzero((o1 == 0) & (e[:, 6] == 0))
    if corner.size:
        where = _place(a[corner], b[corner], p[corner])
        args = (a[corner], b[corner], p[corner], q[corner], r[corner])
        ones = np.ones(corner.size, dtype=np.int64)
        bad = (where != 2) & (where >= 0) & ~_in_wedge(*args, ones)
        bad |= (where != 0) & (where >= 0) & ~_in_wedge(*args, -ones)
        out[corner] = bad
    return out


# -- nearest walkable points -----------------------------------------------------------------
#: Relative tolerance of endpoints: a point this close (times the level's size, see
#: :func:`endpoint_tolerance`) to the walkable region counts as on it. Points the library itself
#: computes (path corners, positions interpolated along path legs) may land a few ulps outside
#: the region; they must stay valid starts and goals.
ENDPOINT_TOLERANCE = 1e-9
#: How far outside the level's bounds (times its size) a start or goal may lie and still move to
#: the nearest walkable point; farther out it is an error, never a silent move across the map.
BOUNDS_MARGIN = 0.05

# how far (times the level size) a point is pushed past the region's boundary, tried in turn
_NUDGES = (0.0, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4)
_DIRECTIONS = np.column_stack([np.cos(np.arange(16) * np.pi / 8), np.sin(np.arange(16) * np.pi / 8)])


def level_size(box: tuple[float, float, float, float]) -> float:
    """A level's size for relative tolerances: the larger side of its bounding box
    ``(xmin, ymin, xmax, ymax)`` or its largest coordinate, at least 1 (world units)."""
    x0, y0, x1, y1 = box
    return max(1.0, x1 - x0, y1 - y0, abs(x0), abs(y0), abs(x1), abs(y1))


def endpoint_tolerance(bounds: shapely.Geometry) -> float:
    """Distance (world units) within which a point counts as on the walkable region:
    ``ENDPOINT_TOLERANCE`` times :func:`level_size` of ``bounds``."""
    return ENDPOINT_TOLERANCE * level_size(bounds.bounds)


def nearest_walkable(
    los: LineOfSight, region: shapely.Geometry, points: ArrayLike, *, size: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The nearest walkable point to each point, and how far each one moved.

    Walkable points (``los.walkable``) stay where they are. Each other point moves to the
    nearest point of ``region``'s boundary, pushed just inside where the line of sight agrees
    that it is walkable: first along the way it came, then, if rounding leaves that direction
    undefined or outside (a point a few ulps off an inflated corner), in 16 directions around
    the boundary point, by growing steps from 0 to 1e-4 times ``size``; the walkable candidate
    nearest to the point is taken. A region part too thin for all of that falls back to a point
    inside that part.

    Parameters
    ----------
    los : LineOfSight
        The walkability rule.
    region : shapely geometry
        The walkable region W of ``los`` (eroded bounds minus inflated obstacles), non-empty.
    points : float array of shape (n, 2)
        Finite world positions.
    size : float
        The level's size (world units), scaling the push steps.

    Returns
    -------
    moved : float array of shape (n, 2)
        Walkable points.
    distance : float array of shape (n,)
        ``|moved - points|`` per row (0 for points that were walkable).

    Raises
    ------
    InvalidGeometryError
        ``region`` is empty (nothing is walkable) or no walkable point was found near a point.
    """
    pts = np.array(points, dtype=np.float64).reshape(-1, 2)
    out = pts.copy()
    bad = np.flatnonzero(~los.walkable(pts)) if len(pts) else np.zeros(0, np.int64)
    if bad.size == 0:
        return out, np.zeros(len(pts))
    if region.is_empty:
        raise InvalidGeometryError("no walkable point exists: the inflated obstacles cover the whole level")
    p = pts[bad]
    boundary = shapely.boundary(region) if region.geom_type != "GeometryCollection" else region
    near = shapely.get_coordinates(shapely.shortest_line(shapely.points(p), boundary))[1::2]
    away = near - p
    norm = np.hypot(away[:, 0], away[:, 1])
    away = np.where(norm[:, None] > 0, away / np.where(norm > 0, norm, 1.0)[:, None], 0.0)
    dirs = np.concatenate([away[:, None, :], np.broadcast_to(_DIRECTIONS, (len(p), 16, 2))], axis=1)  # (m, 17, 2)
    found = np.zeros(len(p), bool)
    best = near.copy()
    for step in _NUDGES:
        todo = np.flatnonzero(~found)
        if todo.size == 0:
            break
        cand = near[todo, None, :] + dirs[todo] * (step * size)
        ok = los.walkable(cand.reshape(-1, 2)).reshape(len(todo), -1)
        dist = np.hypot(*(cand - p[todo, None, :]).transpose(2, 0, 1))
        dist = np.where(ok, dist, np.inf)
        pick = dist.argmin(axis=1)
        hit = np.isfinite(dist[np.arange(len(todo)), pick])
        best[todo[hit]] = cand[hit, pick[hit]]
        found[todo[hit]] = True
    if not found.all():
        for i in np.flatnonzero(~found).tolist():
            parts = shapely.get_parts(region)
            part = parts[int(np.argmin(shapely.distance(parts, shapely.points(p[i]))))]
            inner = np.asarray(shapely.get_coordinates(shapely.point_on_surface(part))[0])
            if los.walkable(inner[None])[0]:
                best[i], found[i] = inner, True
        if not found.all():
            q = p[~found][0].tolist()
            raise InvalidGeometryError(f"point={q}: no walkable point found near it (the walkable region is degenerate there)")
    out[bad] = best
    return out, np.hypot(*(out - pts).T)


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
