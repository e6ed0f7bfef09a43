"""`build_navmesh`: a level's walkable area as a mesh of convex polygons.

Pipeline
--------
1. Free space: the level's bounds eroded by the agent radius minus the obstacles inflated by it,
   exactly as :class:`~navmesh.sight.LineOfSight` makes them for the waypoint graph (same
   merging, same ``join``), so both maps share one notion of walkable; ring vertices lying
   exactly on a straight run between their neighbours are dropped (:func:`drop_collinear`).
2. Terrain: the free space is cut into one piece per terrain class (painter's order: a later
   region wins where regions overlap; the rest is plain ground). With ``agent_radius > 0`` the
   pieces are cut again along each terrain class's outline grown by the radius (round joins,
   as :func:`navmesh.forbidden.forbidden_area` grows it for the steering walls), so that every
   polygon knows which tags a unit's body standing in it may touch (``PolyMesh.body_tags``): a
   unit type forbidding one of them may not enter it, and forbidden terrain is a wall for the
   whole body, as on the waypoint graph and in steering.
3. Large pieces are cut into tiles, then every piece is triangulated with shapely's
   ``constrained_delaunay_triangles`` (no new points). Vertices closer than ``1e-12`` times the
   level size are merged, and a vertex lying inside another triangle's edge (where two pieces
   meet) is inserted into that edge, so neighbours always share whole edges.
4. Hertel-Mehlhorn: shared edges are removed, those inside the live core of the triangles
   first (what Polyanya searches; dead-end branches it skips), longest first, while the union
   stays convex and both sides have the same tag (:mod:`navmesh._kernels.polymerge`). Then the
   polygons around each vertex the tile cuts left (inside the free space, or on a straight
   wall) are triangulated again without it and merged again.
5. Pinches (obstacles touching at a point, a hole touching the outline) get one vertex copy per
   side: polygons are adjacent only across edges, so paths never pass a zero-width gap, as the
   line-of-sight rule says.

With ``agent_radius > 0``, two inflated obstacles that touch leave a corridor of zero width.
The line-of-sight rule lets a disc of exactly that radius slide along it; the mesh, having no
zero-area polygons, does not.
"""

from __future__ import annotations


import numpy as np
import shapely
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh._checks import check_nonneg_float, check_option
from navmesh._kernels.polymerge import edge_points, merge_convex
from navmesh.errors import InvalidOptionError, describe
from navmesh.geometry import JOINS, Join, inflate
from navmesh.level import Level
from navmesh.polymesh.mesh import PolyMesh, match_edges, next_slots, split_pinches

__all__ = ["build_navmesh", "convex_cover", "drop_collinear", "free_space", "snap_tolerance", "TILE_VERTICES"]

#: Free-space pieces with more vertices than this are cut into tiles before triangulation
#: (GEOS's triangulation slows down quadratically with many holes in one polygon, and its
#: Delaunay flips with long thin corridors: a 512 x 512 maze triangulates twice as fast in
#: tiles of 300 vertices as in tiles of 1,000).
TILE_VERTICES = 300
_SNAP = 1e-12  # relative to the level size: vertices closer than this are one vertex


def free_space(level: Level, *, agent_radius: float = 0.0, join: Join = "mitre") -> shapely.Geometry:
    """The walkable area of ``level`` for a disc agent: eroded bounds minus inflated obstacles.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 6), (4, 6)]])
    >>> free_space(level).area, round(free_space(level, agent_radius=1).area, 6)
    (88.0, 40.343146)
    """
    los = level.line_of_sight(agent_radius=agent_radius, join=join)
    area = los.eroded_bounds
    if area is None or area.is_empty:
        return shapely.Polygon()
    blocked = [g for g in los.inflated if g is not None and not g.is_empty]
    if not blocked:
        return drop_collinear(area)
    if los.agent_radius == 0:
        # the line-of-sight tester merged the obstacles already: its parts meet at points at most
        free = shapely.difference(area, shapely.multipolygons(np.asarray(_polygons(np.asarray(blocked, dtype=object)))))
    else:
        free = shapely.difference(area, shapely.union_all(blocked))
    return drop_collinear(free)


def drop_collinear(geom: shapely.Geometry) -> shapely.Geometry:
    """``geom``'s polygons without the ring vertices that lie exactly on the line through their
    two neighbours, between them (straight wall runs of merged grid cells keep a vertex wherever
    two cells met). Such a vertex is not a corner a path could turn at, yet it cuts the wall into
    more edges, the triangulation into more triangles and the mesh into more polygons, and the
    search treats it as a corner of the wall. Vertices at the same position as another vertex
    (rings touching at a point) stay: they keep the touch where the triangulation expects it.

    Examples
    --------
    >>> drop_collinear(shapely.Polygon([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2), (0, 1)])).wkt
    'POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))'
    """
    polys = np.asarray(_polygons(geom), dtype=object)
    if not len(polys):
        return geom
    # every ring, grouped by polygon with its shell first (shapely.polygons(..., indices=) reads them so)
    rings, owner_all = shapely.get_rings(polys, return_index=True)
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    closing = np.append(ring[1:] != ring[:-1], True)  # each ring repeats its first point last
    xy, ring = xy[~closing], ring[~closing]
    start = np.searchsorted(ring, np.arange(len(rings)))
    end = np.append(start[1:], len(ring))
    at = np.arange(len(ring))
    nxt, prv = at + 1, at - 1
    nxt[end - 1], prv[start] = start, end - 1
    u, w = xy - xy[prv], xy[nxt] - xy
    straight = (u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0] == 0) & ((u * w).sum(axis=1) > 0)
    if not straight.any():
        return geom
    # the straight vertices found at another vertex's position too (complex numbers: one sort)
    z = np.sort(xy[:, 0] + 1j * xy[:, 1])
    zs = xy[straight, 0] + 1j * xy[straight, 1]
    straight[straight] = np.searchsorted(z, zs, side="right") - np.searchsorted(z, zs, side="left") == 1
    if not straight.any():
        return geom
    keep = ~straight
    out = shapely.polygons(shapely.linearrings(xy[keep], indices=ring[keep]), indices=owner_all)
    return out[0] if len(out) == 1 else shapely.multipolygons(out)


def _polygons(geom: shapely.Geometry | NDArray[np.object_]) -> list[shapely.Polygon]:
    """The polygons of positive area in ``geom`` (one geometry or an array), collections opened."""
    parts = shapely.get_parts(geom)
    while True:
        kind = shapely.get_type_id(parts)
        nested = (kind == 6) | (kind == 7)  # MultiPolygon, GeometryCollection
        if not nested.any():
            break
        parts = np.concatenate([parts[~nested], shapely.get_parts(parts[nested])])
    keep = (kind == 3) & (shapely.area(parts) > 0)
    return list(parts[keep])


def _pieces(free: shapely.Geometry, level: Level) -> list[tuple[shapely.Polygon, int]]:
    """(polygon, tag index) pieces of the free space, tag 0 plain ground."""
    if not level.terrain:
        return [(p, 0) for p in _polygons(free)]
    names = [""] + sorted({r.tag for r in level.terrain})
    out: list[tuple[shapely.Polygon, int]] = []
    covered = shapely.Polygon()
    rest = free
    for region in reversed(level.terrain):  # last region first: it wins where regions overlap
        own = shapely.difference(region.polygon, covered) if not covered.is_empty else region.polygon
        piece = shapely.intersection(rest, own)
        out.extend((p, names.index(region.tag)) for p in _polygons(piece))
        covered = shapely.union(covered, region.polygon)
        rest = shapely.difference(rest, region.polygon)
    out.extend((p, 0) for p in _polygons(rest))
    return out


def _body_cuts(pieces: list[tuple[shapely.Polygon, int]], level: Level, radius: float
               ) -> list[tuple[shapely.Polygon, int, int]]:
    """The pieces cut along each terrain class's area (painter's rule) grown by ``radius``:
    (polygon, tag index, body mask), the mask holding bit t when the polygon lies within
    ``radius`` of terrain of tag t (its own tag always; with no radius, 0: a point agent has
    no body, and a mesh then keeps no masks, so any number of tags works)."""
    out = [(p, t, 1 << t if radius > 0 else 0) for p, t in pieces]
    if radius <= 0 or not level.terrain:
        return out
    names = [""] + sorted({r.tag for r in level.terrain})
    zones: dict[int, list[shapely.Geometry]] = {}
    covered = shapely.Polygon()
    for region in reversed(level.terrain):  # the painter's rule, as _pieces applies it
        own = shapely.difference(region.polygon, covered) if not covered.is_empty else region.polygon
        zones.setdefault(names.index(region.tag), []).append(own)
        covered = shapely.union(covered, region.polygon)
    for t, parts in sorted(zones.items()):
        area = _polygons(shapely.union_all(parts))
        if not area:
            continue
        zone = shapely.union_all(inflate(area, radius, join="round", quad_segs=8))
        shapely.prepare(zone)
        cut = []
        for poly, tag, mask in out:
            if tag == t or not shapely.intersects(zone, poly):
                cut.append((poly, tag, mask))
                continue
            cut.extend((p, tag, mask | (1 << t)) for p in _polygons(shapely.intersection(poly, zone)))
            cut.extend((p, tag, mask) for p in _polygons(shapely.difference(poly, zone)))
        out = cut
    return out


def _tiles(poly: shapely.Polygon) -> list[shapely.Polygon]:
    """Cut a polygon with many vertices into pieces of at most about TILE_VERTICES each, by
    halving its box in both directions until the pieces are small enough (each level clips
    every vertex once, so cutting costs O(n log n), not one pass of the whole polygon per tile)."""
    out: list[shapely.Polygon] = []
    todo = [poly]
    while todo:
        big = []
        for p in todo:
            (out if shapely.get_num_coordinates(p) <= TILE_VERTICES else big).append(p)
        todo = []
        for p in big:
            x0, y0, x1, y1 = p.bounds
            xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
            for box in ((x0, y0, xm, ym), (xm, y0, x1, ym), (x0, ym, xm, y1), (xm, ym, x1, y1)):
                todo.extend(_polygons(shapely.clip_by_rect(p, *box)))
    return out


def _triangulate(polys: list[shapely.Polygon]) -> tuple[NDArray[np.float64], bool]:
    """Triangles of the polygons as an array of shape (t, 3, 2), and whether a polygon had to be
    cut first (its pieces meet along the cuts: their vertices must be matched up)."""
    if not polys:
        return np.zeros((0, 3, 2)), False
    arr = np.asarray(polys, dtype=object)
    cut = False
    try:
        tris = shapely.constrained_delaunay_triangles(arr)
    except shapely.errors.GEOSException:
        done = [_triangulate_one(p) for p in polys]
        tris = np.asarray([d[0] for d in done], dtype=object)
        cut = any(d[1] for d in done)
    # GEOS returns collections of triangles (Polygons of 4 ring points, the last repeating the
    # first): reading all coordinates at once avoids one Python object per triangle
    kind = shapely.get_type_id(tris)
    bad = (kind != 7) & (kind != 3)
    if bad.any():  # an empty or unexpected result: take its polygon parts one by one
        tris = np.concatenate([tris[~bad], np.asarray(_polygons(tris[bad]), dtype=object)])
    coords = shapely.get_coordinates(tris)
    return coords.reshape(-1, 4, 2)[:, :3], cut


def _triangulate_one(poly: shapely.Polygon) -> tuple[shapely.Geometry, bool]:
    """The triangles of one polygon that failed in the batch, and whether it was cut."""
    try:
        return shapely.constrained_delaunay_triangles(poly), False
    except shapely.errors.GEOSException:
        fixed = _polygons(shapely.make_valid(shapely.set_precision(poly, 0.0)))
        parts = [q for p in fixed for q in _split_touches(p)]
        return shapely.constrained_delaunay_triangles(shapely.GeometryCollection(parts)), len(parts) > len(fixed)


def _touch_point(poly: shapely.Polygon) -> NDArray[np.float64] | None:
    """A point where the polygon's rings touch (a hole touching another hole or the outline at a
    vertex, legal in a valid polygon), or None."""
    rings = [poly.exterior, *poly.interiors]
    pts = np.concatenate([np.asarray(r.coords)[:-1] for r in rings])
    uniq, counts = np.unique(pts, axis=0, return_counts=True)
    return uniq[np.argmax(counts)] if len(counts) and counts.max() > 1 else None


def _split_touches(poly: shapely.Polygon, depth: int = 0) -> list[shapely.Polygon]:
    """Cut ``poly`` through the points where its rings touch until no rings touch.

    GEOS's polygon triangulator fails ("Unable to find a convex corner") on holes that touch
    each other or the outline at a point, as terrain outlines crossing touching obstacles make
    them. A vertical cut through the touch point, then a horizontal one if a piece still touches
    there, separates the touching rings; the pieces cover the polygon exactly.
    """
    p = _touch_point(poly)
    if p is None or depth > 16:
        return [poly]
    x0, y0, x1, y1 = poly.bounds
    boxes = ((x0, y0, p[0], y1), (p[0], y0, x1, y1)) if depth % 2 == 0 else ((x0, y0, x1, p[1]), (x0, p[1], x1, y1))
    return [q for box in boxes for piece in _polygons(shapely.clip_by_rect(poly, *box))
            for q in _split_touches(piece, depth + 1)]


def _snap(points: NDArray[np.float64], tol: float) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Unique vertices (merging those closer than ``tol``) and the id of each input point."""
    # np.unique(axis=0) sorts rows as structured values, several times slower than a lexsort
    order = np.lexsort((points[:, 1], points[:, 0]))
    srt = points[order]
    new = np.ones(len(srt), bool)
    new[1:] = (srt[1:, 0] != srt[:-1, 0]) | (srt[1:, 1] != srt[:-1, 1])
    uniq = srt[new]
    inverse = np.empty(len(points), np.int64)
    inverse[order] = np.cumsum(new) - 1
    pairs = cKDTree(uniq).query_pairs(tol, output_type="ndarray") if len(uniq) > 1 and tol > 0 else np.zeros((0, 2), int)
    if len(pairs):
        import scipy.sparse
        import scipy.sparse.csgraph

        g = scipy.sparse.coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(uniq), len(uniq)))
        _, label = scipy.sparse.csgraph.connected_components(g, directed=False)
        keep, first = np.unique(label, return_index=True)
        uniq = uniq[first]
        inverse = np.searchsorted(keep, label)[inverse]
    return uniq, inverse


def _insert_t_junctions(xy: NDArray[np.float64], indptr: NDArray[np.int64], indices: NDArray[np.int64],
                        tol: float) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Insert vertices that lie inside an unmatched edge into that edge (pieces meeting with
    different vertices along a shared line)."""
    nbr = match_edges(indptr, indices, len(xy))
    open_slots = np.flatnonzero(nbr < 0)
    if not len(open_slots):
        return indptr, indices
    nxt = next_slots(indptr)
    a, b = indices[open_slots], indices[nxt[open_slots]]
    verts = np.unique(np.concatenate([a, b]))
    v, li, t = edge_points(xy, a, b, verts, tol)
    if not len(v):
        return indptr, indices
    slot = open_slots[li]
    order = np.lexsort((t, slot))
    slot, v = slot[order], v[order]
    # rebuild: after slot e come the inserted vertices of e, in order along e
    counts = np.bincount(slot, minlength=len(indices))
    owner = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    new_sizes = np.bincount(owner, weights=1 + counts, minlength=len(indptr) - 1).astype(np.int64)
    new_ptr = np.zeros(len(indptr), np.int64)
    np.cumsum(new_sizes, out=new_ptr[1:])
    start = np.zeros(len(indices) + 1, np.int64)
    np.cumsum(1 + counts, out=start[1:])
    new_idx = np.empty(int(new_ptr[-1]), np.int64)
    new_idx[start[:-1]] = indices
    first_of_slot = np.searchsorted(slot, slot, side="left")
    rank = np.arange(len(slot)) - first_of_slot
    new_idx[start[slot] + 1 + rank] = v
    return new_ptr, new_idx


def snap_tolerance(level: Level) -> float:
    """Distance (world units) under which two vertices of a mesh of ``level`` are one vertex."""
    x0, y0, x1, y1 = level.bounds.bounds
    return _SNAP * max(x1 - x0, y1 - y0, abs(x0), abs(y0), abs(x1), abs(y1), 1e-300)


def convex_cover(free: shapely.Geometry, level: Level, *, tol: float, agent_radius: float = 0.0
                 ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Steps 2-4 of the build (module notes) on the area ``free``: convex counter-clockwise
    polygons covering it, split along ``level``'s terrain outlines (and, for ``agent_radius``
    > 0, along those outlines grown by it), sharing whole edges.

    Returns (vertices, indptr, indices, tags) with vertices closer than ``tol`` merged; pinches
    are not split yet and some vertices may be unused; ``tags`` has two columns, the tag index
    and the body mask (``PolyMesh.body_tags``) of each polygon. Local updates
    (:mod:`navmesh.polymesh.update`) run it on the region they re-mesh.
    """
    pieces = _body_cuts(_pieces(free, level), level, agent_radius)
    classes: dict[tuple[int, int], int] = {}  # (tag, body mask) -> class: polygons merge within a class
    tris_list, tag_list = [], []
    joins = len(pieces) > 1  # pieces meet along shared lines: their vertices must be matched up
    for poly, tag, mask in pieces:
        tiles = _tiles(poly)
        tris, cut = _triangulate(tiles)
        joins = joins or len(tiles) > 1 or cut
        tris_list.append(tris)
        tag_list.append(np.full(len(tris), classes.setdefault((tag, mask), len(classes)), np.int64))
    if not tris_list or sum(len(t) for t in tris_list) == 0:
        return np.zeros((0, 2)), np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros((0, 2), np.int64)
    tris = np.concatenate(tris_list)
    tags = np.concatenate(tag_list)
    xy, ids = _snap(tris.reshape(-1, 2), tol)
    ids = ids.reshape(-1, 3)
    # counter-clockwise, no zero-area triangles (a merge of close vertices may flatten one)
    p0, p1, p2 = xy[ids[:, 0]], xy[ids[:, 1]], xy[ids[:, 2]]
    cross = (p1[:, 0] - p0[:, 0]) * (p2[:, 1] - p0[:, 1]) - (p1[:, 1] - p0[:, 1]) * (p2[:, 0] - p0[:, 0])
    flip = cross < 0
    ids[flip] = ids[flip][:, ::-1]
    keep = cross != 0
    ids, tags = ids[keep], tags[keep]
    indptr = np.arange(0, 3 * len(ids) + 1, 3, dtype=np.int64)
    indices = ids.reshape(-1)
    if joins:
        indptr, indices = _insert_t_junctions(xy, indptr, indices, tol)
    _, twins = match_edges(indptr, indices, len(xy), with_twins=True)
    indptr, indices, tags = merge_convex(xy, indptr, indices, twins, tags)
    # vertices the cuts made (tiles, terrain outlines): the rest are the corners of ``free``
    made = ~np.isin(xy[:, 0] + 1j * xy[:, 1], _ring_points(free))
    for _ in range(3):  # removing one inner vertex may leave a neighbouring one to remove next
        done = _drop_inner_vertices(xy, indptr, indices, tags, made)
        if done is None:
            break
        indptr, indices, tags = done
    table = np.array(list(classes), dtype=np.int64).reshape(-1, 2)
    return xy, indptr, indices, table[tags]


def _ring_points(geom: shapely.Geometry) -> NDArray[np.complex128]:
    """The ring vertices of ``geom`` as complex numbers x + iy (for exact membership tests)."""
    xy = shapely.get_coordinates(geom)
    return xy[:, 0] + 1j * xy[:, 1]


def _drop_inner_vertices(xy: NDArray[np.float64], indptr: NDArray[np.int64], indices: NDArray[np.int64],
                         tags: NDArray[np.int64], made: NDArray[np.bool_]
                         ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None:
    """Re-mesh the polygons around each vertex inside the free space (not on any wall, as where
    tile cuts cross) that polygons of one tag share: their union is triangulated without that
    vertex and merged again. Around such a vertex three or more polygons form a cycle; without
    it, a free space without holes has a tree of polygons, so the search's dead-end branches
    cover it and a query there is a funnel through the one corridor. Two polygons meet at such a
    vertex in a straight line (a tile corner on the other tile's edge): they share two edges
    there, and neither can go alone in a merge.

    Likewise a vertex the cuts ``made`` (a tile line meeting a wall) lying exactly on the straight
    line between its two wall neighbours, with one tag around it: the polygons around it form a
    fan from wall to wall, re-meshed without it. It is no corner of the free space, yet the
    search takes every wall vertex for one, and the polygons could not merge across it.
    Returns None when there is no such vertex."""
    nbr, twins = match_edges(indptr, indices, len(xy), with_twins=True)
    nxt = next_slots(indptr)
    prv = np.empty_like(nxt)
    prv[nxt] = np.arange(len(nxt))
    owner = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    wall = nbr < 0
    on_wall = np.zeros(len(xy), bool)
    on_wall[indices[wall]] = True
    on_wall[indices[nxt[wall]]] = True
    count = np.bincount(indices, minlength=len(xy))
    # a wall vertex with one wall edge leaving it and one arriving, in a straight line
    leaving = np.bincount(indices[wall], minlength=len(xy))
    start = np.full(len(xy), -1, np.int64)  # the slot of the wall edge leaving each such vertex
    start[indices[wall]] = np.flatnonzero(wall)
    ws = np.flatnonzero(wall)
    arrive_from = np.full(len(xy), -1, np.int64)
    arrive_from[indices[nxt[ws]]] = indices[ws]
    flat = np.flatnonzero(made & on_wall & (leaving == 1) & (np.bincount(indices[nxt[ws]], minlength=len(xy)) == 1))
    if len(flat):
        a, b = xy[arrive_from[flat]], xy[indices[nxt[start[flat]]]]
        u, w = xy[flat] - a, b - xy[flat]
        flat = flat[(u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0] == 0) & ((u * w).sum(axis=1) > 0)]
    inner = np.flatnonzero((count >= 2) & ~on_wall)
    if not len(inner) and not len(flat):
        return None
    fan = np.zeros(len(xy), bool)
    fan[flat] = True
    inner = np.concatenate([inner, flat])
    slot_of = {}
    for e in np.flatnonzero(np.isin(indices, inner)):
        slot_of.setdefault(int(indices[e]), []).append(int(e))
    taken = np.zeros(len(indptr) - 1, bool)
    stars, links = [], []
    for v in inner.tolist():
        slots = slot_of[v]
        star = owner[slots]
        if taken[star].any() or len(set(tags[star].tolist())) != 1:
            continue
        # the link: each polygon's chain after v up to the vertex before v, going round v (from
        # the wall edge leaving v to the one arriving at v, for a vertex on a wall)
        link: list[int] = []
        e = int(start[v]) if fan[v] else slots[0]
        for _ in range(len(slots)):
            x = int(nxt[e])
            while indices[nxt[x]] != v:  # up to, not including, the vertex before v
                link.append(int(indices[x]))
                x = int(nxt[x])
            e = int(twins[x])  # across the edge into v: the next polygon's slot leaving v
            if e < 0:  # the wall edge arriving at v: its start closes the fan
                link.append(int(indices[x]))
                break
        if (e < 0) != fan[v] or (e >= 0 and e != slots[0]) or len(link) < 3 or len(set(link)) != len(link):
            continue
        taken[star] = True
        stars.append(star)
        links.append(link)
    if not links:
        return None
    # one triangulation call for all the links (one polygon each)
    sizes = np.array([len(k) for k in links])
    flat_links = np.concatenate([np.asarray(k, np.int64) for k in links])
    rings = shapely.polygons(shapely.linearrings(xy[flat_links], indices=np.repeat(np.arange(len(links)), sizes)))
    try:
        tri_sets = list(shapely.constrained_delaunay_triangles(rings))
    except shapely.errors.GEOSException:
        tri_sets = []
        for ring in rings:
            try:
                tri_sets.append(shapely.constrained_delaunay_triangles(ring))
            except shapely.errors.GEOSException:
                tri_sets.append(None)
    drop, new_tris, new_tags = [], [], []
    for star, link, got in zip(stars, links, tri_sets):
        if got is None:
            continue
        tris = shapely.get_coordinates(got).reshape(-1, 4, 2)
        ids = {tuple(p): k for k, p in zip(link, xy[link].tolist())}
        tri_ids = [[ids.get(tuple(p)) for p in t[:3].tolist()] for t in tris]
        if len(tri_ids) != len(link) - 2 or any(None in t for t in tri_ids):
            continue  # the triangulation dropped or moved a vertex: keep the polygons
        drop.extend(star.tolist())
        new_tris.extend(tri_ids)
        new_tags.extend([int(tags[star[0]])] * len(tri_ids))
    if not drop:
        return None
    keep = np.ones(len(indptr) - 1, bool)
    keep[drop] = False
    sizes = np.diff(indptr)[keep]
    tri = np.asarray(new_tris, np.int64)
    p0, p1, p2 = xy[tri[:, 0]], xy[tri[:, 1]], xy[tri[:, 2]]
    flip = (p1[:, 0] - p0[:, 0]) * (p2[:, 1] - p0[:, 1]) - (p1[:, 1] - p0[:, 1]) * (p2[:, 0] - p0[:, 0]) < 0
    tri[flip] = tri[flip][:, ::-1]
    ptr = np.zeros(len(sizes) + len(tri) + 1, np.int64)
    np.cumsum(np.concatenate([sizes, np.full(len(tri), 3)]), out=ptr[1:])
    idx = np.concatenate([indices[np.repeat(keep, np.diff(indptr))], tri.reshape(-1)])
    all_tags = np.concatenate([tags[keep], np.asarray(new_tags, np.int64)])
    _, twins = match_edges(ptr, idx, len(xy), with_twins=True)
    return merge_convex(xy, ptr, idx, twins, all_tags)


def build_navmesh(level: Level, *, agent_radius: float = 0.0, join: Join = "mitre") -> PolyMesh:
    """Build the navigation mesh of ``level`` for a disc agent of radius ``agent_radius``.

    Parameters
    ----------
    level : Level
        Bounds, obstacles (holes in the bounds count as obstacles) and terrain regions;
        waypoints and links are ignored.
    agent_radius : float
        Agent radius in world units, >= 0: obstacles grow and the bounds shrink by it.
    join : {"mitre", "round"}
        Corner style of the inflation (see :func:`navmesh.geometry.inflate`); use the one the
        waypoint graph uses to get the same walkable area.

    Returns
    -------
    PolyMesh
        Convex polygons covering the free space, adjacent across shared edges, one terrain tag
        each (``tag_names`` sorted, ``""`` first). Empty when nothing is walkable.

    Raises
    ------
    InvalidOptionError
        ``level`` is not a Level, or a bad ``agent_radius`` / ``join``.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 6), (4, 6)]])
    >>> mesh = build_navmesh(level)
    >>> round(float(mesh.areas().sum()), 9), bool(mesh.n_polygons <= 6)
    (88.0, True)
    """
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a Level")
    r = check_nonneg_float("agent_radius", agent_radius, allow_none=False)
    check_option("join", join, JOINS)
    names = ("",) + tuple(sorted({reg.tag for reg in level.terrain}))
    free = free_space(level, agent_radius=r, join=join)
    if r > 0 and len(names) > 63:
        raise InvalidOptionError(
            f"level has {len(names) - 1} terrain tags; with agent_radius={r} > 0 build_navmesh supports at most 62 "
            "(each polygon keeps the tags within the radius as a 64-bit mask)"
        )
    xy, indptr, indices, tags = convex_cover(free, level, tol=snap_tolerance(level), agent_radius=r)
    if len(indptr) == 1:
        return PolyMesh(np.zeros((0, 2)), [0], [], [], tag_names=names, agent_radius=r, level=level, join=join)
    nbr, twins = match_edges(indptr, indices, len(xy), with_twins=True)
    xy2, indices = split_pinches(xy, indptr, indices, nbr, twins)
    used = np.zeros(len(xy2), bool)
    used[indices] = True
    if not used.all():  # vertices merged away or dropped with flat triangles
        remap = np.cumsum(used) - 1
        xy2, indices = xy2[used], remap[indices]
    xy2, indptr, indices, nbr, tags = spatial_order(xy2, indptr, indices, nbr, tags)
    return PolyMesh(xy2, indptr, indices, nbr, tags=tags[:, 0], tag_names=names, agent_radius=r, level=level, join=join,
                    body_tags=tags[:, 1] if r > 0 else None)


def _morton(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.int64]:
    """Z-order keys of points: coordinates scaled to 16 bits each over their box, bits interleaved."""
    keys = np.zeros(len(x), np.int64)
    for k, v in enumerate((x, y)):
        lo, span = (float(v.min()), float(np.ptp(v))) if len(v) else (0.0, 0.0)
        q = ((v - lo) * (65535.0 / span)).astype(np.int64) if span > 0 else np.zeros(len(v), np.int64)
        for bit in range(16):
            keys |= ((q >> bit) & 1) << (2 * bit + k)
    return keys


def spatial_order(xy: NDArray[np.float64], indptr: NDArray[np.int64], indices: NDArray[np.int64],
                  nbr: NDArray[np.int64], tags: NDArray[np.int64]
                  ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The same mesh with its polygons numbered along a Z-order curve of their centres and its
    vertices in order of first use: polygons near each other sit near each other in memory, so a
    search or a corridor walk on a big mesh (a 512 x 512 maze: 38,000 polygons, megabytes of
    arrays) reads few cache lines per polygon. Returns (vertices, indptr, indices, neighbours, tags);
    ``tags`` may have several columns (rows follow the polygons)."""
    n = len(indptr) - 1
    sizes = np.diff(indptr)
    owner = np.repeat(np.arange(n), sizes)
    cx = np.bincount(owner, weights=xy[indices, 0], minlength=n) / sizes
    cy = np.bincount(owner, weights=xy[indices, 1], minlength=n) / sizes
    order = np.argsort(_morton(cx, cy), kind="stable")  # old polygon ids in their new order
    new_sizes = sizes[order]
    new_ptr = np.zeros(n + 1, np.int64)
    np.cumsum(new_sizes, out=new_ptr[1:])
    slots = np.repeat(indptr[:-1][order] - new_ptr[:-1], new_sizes) + np.arange(int(new_ptr[-1]))  # old slot per new slot
    old_v = indices[slots]
    seen, first = np.unique(old_v, return_index=True)
    v_order = seen[np.argsort(first, kind="stable")]  # old vertex ids in their new order
    v_new = np.empty(len(xy), np.int64)
    v_new[v_order] = np.arange(len(v_order))
    p_new = np.empty(n, np.int64)
    p_new[order] = np.arange(n)
    old_nbr = np.asarray(nbr)[slots]
    new_nbr = np.where(old_nbr >= 0, p_new[np.maximum(old_nbr, 0)], -1)
    return xy[v_order], new_ptr, v_new[old_v], new_nbr, np.asarray(tags)[order]

