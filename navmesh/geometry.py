"""Polygon input, agent-radius inflation and bulk segment helpers.

This module knows shapes, not graphs: it turns user input into valid shapely polygons
(:func:`as_polygon`, :func:`as_bounds`, ...), grows obstacles by an agent radius and shrinks the
walkable area by it (:func:`inflate`, :func:`erode`), checks and measures segments in bulk
(:func:`segment_arrays`, :func:`segment_lengths_inside`) and turns tile cells into rectangles
(:func:`cell_rectangles`). Line of sight lives in :mod:`navmesh.sight`; exact orientation and
wedge tests in :mod:`navmesh.predicates`; where starts and goals may lie in :mod:`navmesh.endpoints`.
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
    "polygonal_parts",
    "check_radius",
    "check_quad_segs",
    "inflate",
    "erode",
    "segment_arrays",
    "segment_lines",
    "segment_lengths_inside",
    "ring_edges",
    "cell_rectangles",
    "Join",
    "JOINS",
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


def polygonal_parts(geom: shapely.Geometry) -> list[shapely.Polygon]:
    """The non-empty Polygons (area > 0) inside any geometry, collections flattened."""
    parts = shapely.get_parts(geom)
    out: list[shapely.Polygon] = []
    for part in parts:
        if isinstance(part, shapely.Polygon):
            if not part.is_empty and part.area > 0:
                out.append(part)
        elif isinstance(part, (shapely.MultiPolygon, shapely.GeometryCollection)):
            out.extend(polygonal_parts(part))
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
    parts = polygonal_parts(shapely.make_valid(poly))
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
def check_radius(radius: Any) -> float:
    """``radius`` as a float, or :class:`InvalidOptionError` unless it is finite and >= 0."""
    try:
        r = float(radius)
    except (TypeError, ValueError, OverflowError):
        r = float("nan")
    if not (math.isfinite(r) and r >= 0):
        raise InvalidOptionError(f"radius={describe(radius)} is not valid; expected a finite number >= 0")
    return r


def check_quad_segs(quad_segs: Any) -> int:
    """``quad_segs`` as an int, or :class:`InvalidOptionError` unless it is an integer >= 1."""
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
    r = check_radius(radius)
    check_option("join", join, JOINS)
    q = check_quad_segs(quad_segs)
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
    r = check_radius(radius)
    check_option("join", join, JOINS)
    q = check_quad_segs(quad_segs)
    if r == 0:
        return bounds
    return _grow(np.asarray([bounds], dtype=object), -r, join, q)[0]



# -- bulk segment helpers --------------------------------------------------------------------
def segment_arrays(a: ArrayLike, b: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Segment ends as two float arrays of shape (m, 2) (a third column is dropped).

    Raises
    ------
    InvalidGeometryError
        The shapes differ or are not (m, 2) / (m, 3), or a coordinate is not finite.
    """
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


def segment_lines(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.object_]:
    """Shapely LineStrings ``a[i] -> b[i]`` for checked (m, 2) arrays (see :func:`segment_arrays`)."""
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
    pa, pb = segment_arrays(a, b)
    geoms = np.asarray(list(polygons), dtype=object)
    m, p = len(pa), len(geoms)
    if m == 0 or p == 0:
        return scipy.sparse.csr_array((m, p), dtype=np.float64)
    lines = segment_lines(pa, pb)
    tree = shapely.STRtree(geoms)
    seg, poly = tree.query(lines, predicate="intersects")
    lengths = shapely.length(shapely.intersection(lines[seg], geoms[poly]))
    keep = lengths > 0
    return scipy.sparse.csr_array((lengths[keep], (seg[keep], poly[keep])), shape=(m, p))



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
