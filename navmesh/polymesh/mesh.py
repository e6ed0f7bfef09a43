"""`PolyMesh`: an immutable navigation mesh of convex polygons in flat arrays.

Layout (CSR, like :class:`~navmesh.graph.NavGraph`): polygon ``p`` has the vertex ids
``indices[indptr[p]:indptr[p + 1]]`` in counter-clockwise order. Slot ``e`` of that range is
also the polygon's edge ``e``, from vertex ``indices[e]`` to the next vertex of the polygon
(wrapping around); ``neighbours[e]`` is the polygon across it, or ``NO_NODE`` (-1) for a wall
(an obstacle, the bounds outline or the outside). Polygons are adjacent only across a shared
edge, never across a lone vertex: where obstacles touch at a point (a pinch), the polygons on
either side are not adjacent and each side has its own copy of the vertex, so a path never
squeezes through a zero-width gap.

Each polygon carries one terrain tag: ``tag_names[tags[p]]`` (``""`` is plain ground). The
terrain rule is the one of :mod:`navmesh.terrain` (the last region containing a point wins);
builds split polygons along region outlines so the tag is the same all over a polygon.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph
from numpy.typing import ArrayLike, NDArray

from navmesh._kernels.polymerge import match_slots
from navmesh.errors import InvalidGeometryError, describe

__all__ = ["PolyMesh", "edge_twins", "match_edges", "next_slots", "split_pinches"]

_FLAT = 1e-9  # radians: a wall vertex whose walkable angle is within this of 180 degrees may bend a path


def _frozen(arr: Any, dtype: Any) -> NDArray[Any]:
    out = np.array(arr, dtype=dtype)
    out.flags.writeable = False
    return out


def next_slots(indptr: NDArray[np.int64]) -> NDArray[np.int64]:
    """For each slot ``e``, the slot of the next vertex of its polygon (wrapping around)."""
    n_slots = int(indptr[-1])
    nxt = np.arange(1, n_slots + 1, dtype=np.int64)
    if n_slots:
        nxt[indptr[1:] - 1] = indptr[:-1]
    return nxt


def wall_corners(xy: NDArray[np.float64], indptr: NDArray[np.int64], indices: NDArray[np.int64],
                 nbr: NDArray[np.int64], open_poly: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Whether a shortest path may turn at each vertex, for a unit that may enter only the
    polygons ``open_poly``: the vertex touches a wall (an edge of an open polygon to nothing or
    to a closed polygon) and the open polygons' interior angles there add up to at least 180
    degrees, less 1e-9 radians (see ``PolyMesh.is_corner``)."""
    n_poly = len(indptr) - 1
    nxt = next_slots(indptr)
    prev = np.empty_like(nxt)
    prev[nxt] = np.arange(len(nxt))
    own = open_poly[np.repeat(np.arange(n_poly), np.diff(indptr))] if n_poly else np.zeros(0, bool)
    wall = own & ((nbr < 0) | ~open_poly[np.maximum(nbr, 0)]) if len(nbr) else np.zeros(0, bool)
    on_wall = np.zeros(len(xy), dtype=bool)
    np.logical_or.at(on_wall, indices, wall | wall[prev])
    # walkable angle at each vertex: the sum of its open polygons' interior angles there
    u, w = xy[indices[prev]] - xy[indices], xy[indices[nxt]] - xy[indices]
    # convex polygons: every interior angle is in [0, pi]; abs() maps atan2(-0.0, x < 0) = -pi to pi
    angle = np.abs(np.arctan2(w[:, 0] * u[:, 1] - w[:, 1] * u[:, 0], (w * u).sum(axis=1))) if len(indices) else np.zeros(0)
    total = np.zeros(len(xy))
    np.add.at(total, indices, np.where(own, angle, 0.0))
    return on_wall & (total > np.pi - _FLAT)


@dataclass(frozen=True, eq=False)
class PolyMesh:
    """A navigation mesh: convex polygons covering the walkable area, with their adjacency.

    Made by :func:`~navmesh.polymesh.build.build_navmesh` or read from a ``.mesh`` file
    (:func:`~navmesh.io.mesh_file.load_mesh`); immutable, so one mesh serves every unit type at
    once (per-unit costs live in the query object).

    Parameters
    ----------
    vertices : float array of shape (V, 2)
        Vertex positions in world units.
    indptr : int array of shape (P + 1,)
        Polygon ``p`` owns slots ``indptr[p]:indptr[p + 1]`` (at least 3).
    indices : int array of shape (E,)
        Vertex id of each slot; each polygon counter-clockwise and convex.
    neighbours : int array of shape (E,)
        Polygon across the edge that starts at each slot, -1 for a wall. Must be symmetric.
    tags : int array of shape (P,), optional
        Index into ``tag_names`` per polygon (default all 0).
    tag_names : tuple of str, optional
        Tag names; ``tag_names[0]`` is ``""`` (plain ground). Default ``("",)``.
    agent_radius : float
        The agent radius the mesh was built for (world units; 0 for meshes read from files).
    level : Level, optional
        The level the mesh was built from (kept by :func:`build_navmesh` so that local updates,
        :func:`navmesh.polymesh.with_obstacle` / ``without_obstacle``, know the other obstacles);
        None for meshes read from files.
    join : {"mitre", "round"}
        The corner style the obstacles were inflated with (see :func:`build_navmesh`).
    body_tags : int array of shape (P,), optional
        Per polygon, a bit mask of the tags (bit ``t`` for ``tag_names[t]``, so at most 63 tags)
        that the body of a unit whose centre stands in it may touch: the tags found within
        ``agent_radius`` of the polygon, its own tag included. A unit type that forbids any of
        them may not enter the polygon (forbidden terrain is a wall for the whole body); costs
        still follow ``tags``, the centre's terrain. None (the default, and for meshes read
        from files): only the polygon's own tag, the rule for a point agent.

    Attributes
    ----------
    twins : int32 array of shape (E,)
        For each edge with a neighbour, the slot of the same edge in the neighbour; -1 for walls.
    polygon_of : int32 array of shape (E,)
        The polygon owning each slot.
    on_wall : bool array of shape (V,)
        Whether a vertex touches a wall.
    is_corner : bool array of shape (V,)
        Whether a shortest path may turn at a vertex: it touches a wall and the walkable angle
        around it is at least 180 degrees, less 1e-9 radians. (Flat wall vertices count: where
        polygons are split along a terrain outline or a tile line, the vertex on the wall is a
        rounded intersection point that may bend the wall inward by a hair; a path hugging
        that wall must be allowed to bend there too.) Convex corners of the walkable area and
        pinch-point wedges narrower than 180 degrees are not corners.

    Raises
    ------
    InvalidGeometryError
        Inconsistent arrays: wrong shapes, ids out of range, a polygon with fewer than 3
        vertices, a neighbour relation that is not mutual, or a clockwise polygon.

    Examples
    --------
    >>> mesh = PolyMesh([[0, 0], [2, 0], [2, 1], [0, 1]], [0, 3, 6], [0, 1, 2, 0, 2, 3],
    ...                 [-1, -1, 1, 0, -1, -1])
    >>> mesh.n_polygons, mesh.n_vertices, mesh.polygon(1).tolist()
    (2, 4, [0, 2, 3])
    """

    vertices: NDArray[np.float64]
    indptr: NDArray[np.int64]
    indices: NDArray[np.int32]
    neighbours: NDArray[np.int32]
    tags: NDArray[np.int32] | None = None
    tag_names: tuple[str, ...] = ("",)
    agent_radius: float = 0.0
    level: Any = None
    join: str = "mitre"
    body_tags: NDArray[np.int64] | None = None
    twins: NDArray[np.int32] = field(init=False, repr=False)
    polygon_of: NDArray[np.int32] = field(init=False, repr=False)
    on_wall: NDArray[np.bool_] = field(init=False, repr=False)
    is_corner: NDArray[np.bool_] = field(init=False, repr=False)
    _cache: dict[str, Any] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        put = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 - frozen dataclass
        try:
            xy = np.asarray(self.vertices, dtype=np.float64).reshape(-1, 2)
            indptr = np.asarray(self.indptr, dtype=np.int64).reshape(-1)
            indices = np.asarray(self.indices, dtype=np.int64).reshape(-1)
            nbr = np.asarray(self.neighbours, dtype=np.int64).reshape(-1)
        except (TypeError, ValueError) as exc:
            raise InvalidGeometryError(f"PolyMesh arrays cannot be read as numbers ({exc})") from None
        n_poly = len(indptr) - 1
        if n_poly < 0 or indptr[0] != 0 or np.any(np.diff(indptr) < 3) or indptr[-1] != len(indices):
            raise InvalidGeometryError(
                f"indptr={describe(indptr.tolist())} is not valid; expected 0, increasing by >= 3 per polygon, "
                f"ending at len(indices)={len(indices)}"
            )
        if not np.isfinite(xy).all():
            raise InvalidGeometryError("vertices must be finite numbers")
        if len(indices) and (indices.min() < 0 or indices.max() >= len(xy)):
            raise InvalidGeometryError(f"indices must be vertex ids from 0 to {len(xy) - 1}")
        if len(nbr) != len(indices) or (len(nbr) and (nbr.min() < -1 or nbr.max() >= n_poly)):
            raise InvalidGeometryError(
                f"neighbours must hold one polygon id (or -1) per slot: {len(indices)} values from -1 to {n_poly - 1}"
            )
        tags = np.zeros(n_poly, np.int32) if self.tags is None else np.asarray(self.tags, dtype=np.int64).reshape(-1)
        names = tuple(self.tag_names)
        if not names or names[0] != "" or len(tags) != n_poly or (n_poly and (tags.min() < 0 or tags.max() >= len(names))):
            raise InvalidGeometryError(
                f"tags/tag_names are not valid; expected one tag index per polygon into tag_names, "
                f"whose first name is '' (got tag_names={describe(names)})"
            )
        if self.body_tags is not None:
            body = np.asarray(self.body_tags, dtype=np.int64).reshape(-1)
            if len(names) > 63 or len(body) != n_poly or np.any((body >> tags) & 1 == 0):
                raise InvalidGeometryError(
                    f"body_tags is not valid; expected one bit mask per polygon ({n_poly}) holding at least the "
                    f"polygon's own tag bit, with at most 63 tag names (got {len(names)})"
                )
            put("body_tags", _frozen(body, np.int64))
        nxt = next_slots(indptr)
        owner = np.repeat(np.arange(n_poly, dtype=np.int64), np.diff(indptr))
        a, b = indices, indices[nxt]
        if n_poly:
            # shoelace area per polygon: counter-clockwise polygons have positive area
            cross = xy[a, 0] * xy[b, 1] - xy[b, 0] * xy[a, 1]
            area = np.add.reduceat(cross, indptr[:-1])
            if np.any(area <= 0):
                bad = int(np.flatnonzero(area <= 0)[0])
                raise InvalidGeometryError(f"polygon {bad} is clockwise or degenerate; polygons must be counter-clockwise")
        twins = edge_twins(a, b, nbr, owner, len(xy))
        put("vertices", _frozen(xy, np.float64))
        put("indptr", _frozen(indptr, np.int64))
        put("indices", _frozen(indices, np.int32))
        put("neighbours", _frozen(nbr, np.int32))
        put("tags", _frozen(tags, np.int32))
        put("tag_names", names)
        put("agent_radius", float(self.agent_radius))
        put("twins", _frozen(twins, np.int32))
        put("polygon_of", _frozen(owner, np.int32))
        wall = nbr < 0
        prev = np.empty_like(nxt)
        prev[nxt] = np.arange(len(nxt))
        on_wall = np.zeros(len(xy), dtype=bool)
        np.logical_or.at(on_wall, indices, wall | wall[prev])
        put("on_wall", _frozen(on_wall, bool))
        put("is_corner", _frozen(wall_corners(xy, indptr, indices, nbr, np.ones(n_poly, bool)), bool))

    # -- derived values ---------------------------------------------------------------------
    @property
    def n_polygons(self) -> int:
        """Number of polygons."""
        return len(self.indptr) - 1

    @property
    def n_vertices(self) -> int:
        """Number of vertices."""
        return len(self.vertices)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the vertices (zeros for an empty mesh)."""
        if not len(self.vertices):
            return (0.0, 0.0, 0.0, 0.0)
        lo, hi = self.vertices.min(axis=0), self.vertices.max(axis=0)
        return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))

    def polygon(self, p: int) -> NDArray[np.int32]:
        """Vertex ids of polygon ``p``, counter-clockwise."""
        return self.indices[self.indptr[p]:self.indptr[p + 1]]

    def polygon_points(self, p: int) -> NDArray[np.float64]:
        """Vertex positions of polygon ``p``, shape (k, 2)."""
        return self.vertices[self.polygon(p)]

    def areas(self) -> NDArray[np.float64]:
        """Area of each polygon (world units squared)."""
        nxt = next_slots(self.indptr)
        xy, a, b = self.vertices, self.indices, self.indices[nxt]
        cross = xy[a, 0] * xy[b, 1] - xy[b, 0] * xy[a, 1]
        return np.add.reduceat(cross, self.indptr[:-1]) / 2 if self.n_polygons else np.zeros(0)

    def tag_of(self, p: int) -> str:
        """The terrain tag of polygon ``p`` (``""`` for plain ground)."""
        return self.tag_names[int(self.tags[p])]

    def to_shapely(self) -> "Any":
        """The polygons as an array of shapely Polygons (for drawing and checks)."""
        import shapely

        if not self.n_polygons:
            return np.empty(0, dtype=object)
        return shapely.polygons(shapely.linearrings(self.vertices[self.indices], indices=self.polygon_of))

    def __repr__(self) -> str:
        return f"PolyMesh({self.n_polygons} polygons, {self.n_vertices} vertices, agent_radius={self.agent_radius:g})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PolyMesh):
            return NotImplemented
        return (
            self.tag_names == other.tag_names
            and (self.body_tags is None) == (other.body_tags is None)
            and (self.body_tags is None or np.array_equal(self.body_tags, other.body_tags))
            and all(np.array_equal(getattr(self, k), getattr(other, k))
                    for k in ("vertices", "indptr", "indices", "neighbours", "tags"))
        )

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_polygons(
        cls,
        vertices: ArrayLike,
        indptr: ArrayLike,
        indices: ArrayLike,
        *,
        tags: ArrayLike | None = None,
        tag_names: tuple[str, ...] = ("",),
        agent_radius: float = 0.0,
    ) -> "PolyMesh":
        """A mesh from convex counter-clockwise polygons alone: neighbours are found from shared
        edges, and vertices where polygons meet only at a point (pinches) are split, one copy per
        group of polygons joined by edges.

        Examples
        --------
        >>> squares = PolyMesh.from_polygons([[0, 0], [1, 0], [1, 1], [0, 1], [2, 1], [2, 2], [1, 2]],
        ...                                  [0, 4, 8], [0, 1, 2, 3, 2, 4, 5, 6])
        >>> squares.neighbours.tolist(), squares.n_vertices       # corners touch: not adjacent
        ([-1, -1, -1, -1, -1, -1, -1, -1], 8)
        """
        xy = np.asarray(vertices, dtype=np.float64).reshape(-1, 2)
        ptr = np.asarray(indptr, dtype=np.int64).reshape(-1)
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        nbr = match_edges(ptr, idx, len(xy))
        xy, idx = split_pinches(xy, ptr, idx, nbr)
        return cls(xy, ptr, idx, nbr, tags=tags, tag_names=tag_names, agent_radius=agent_radius)


def edge_twins(a: NDArray[np.int64], b: NDArray[np.int64], nbr: NDArray[np.int64], owner: NDArray[np.int64],
               n_vertices: int) -> NDArray[np.int64]:
    """Slot of each edge (a[e] -> b[e]) in its neighbour polygon; checks that neighbours are mutual."""
    twins = np.full(len(a), -1, np.int64)
    has = np.flatnonzero(nbr >= 0)
    if not len(has):
        return twins
    key = a * n_vertices + b
    order = np.argsort(key, kind="stable")
    want = b[has] * n_vertices + a[has]
    pos = np.searchsorted(key[order], want)
    pos = np.minimum(pos, len(order) - 1)
    cand = order[pos]
    ok = (key[cand] == want) & (owner[cand] == nbr[has]) & (nbr[cand] == owner[has])
    if not ok.all():
        e = int(has[np.flatnonzero(~ok)[0]])
        raise InvalidGeometryError(
            f"edge {e} (vertices {int(a[e])}-{int(b[e])}) of polygon {int(owner[e])} names neighbour "
            f"{int(nbr[e])}, which does not share that edge back; neighbours must be mutual"
        )
    twins[has] = cand
    return twins


def match_edges(indptr: NDArray[np.int64], indices: NDArray[np.int64], n_vertices: int,
                *, with_twins: bool = False) -> Any:
    """Neighbour polygon across each slot's edge, from edges shared in opposite directions (and,
    ``with_twins``, the slot of each edge in its neighbour, from the same search)."""
    twins, nbr = match_slots(np.asarray(indptr, np.int64), np.asarray(indices, np.int64), int(n_vertices))
    return (nbr, twins) if with_twins else nbr


def split_pinches(vertices: NDArray[np.float64], indptr: NDArray[np.int64], indices: NDArray[np.int64],
                  neighbours: NDArray[np.int64], twins: NDArray[np.int64] | None = None,
                  ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Give each group of polygon corners joined across edges around a vertex its own vertex id.

    A corner is a slot (its polygon's corner at ``indices[e]``). Corners of one vertex in two
    polygons that share an edge at that vertex belong together; what remains apart is a pinch.
    Returns the new vertices and indices (unchanged when there is no pinch).
    """
    n = len(indices)
    if n == 0:
        return vertices, indices
    nxt = next_slots(indptr)
    if twins is None:
        twins = edge_twins(indices, indices[nxt], neighbours, np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)),
                           len(vertices))
    has = np.flatnonzero(twins >= 0)
    # edge e runs a -> b; its twin runs b -> a, and the twin's next slot is the neighbour's corner at a
    rows = has
    cols = nxt[twins[has]]
    graph = scipy.sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    _, label = scipy.sparse.csgraph.connected_components(graph, directed=False)
    groups, first = np.unique(label, return_index=True)
    if len(groups) == len(np.unique(indices)):
        return vertices, indices
    new_vertex_of_group = np.full(len(groups), -1, np.int64)
    # keep the original id for the first group of each vertex (stable ids when there is no pinch)
    owner_vertex = indices[first]
    order = np.argsort(owner_vertex, kind="stable")
    seen = np.zeros(len(vertices), bool)
    extra = []
    next_id = len(vertices)
    for gi in order.tolist():
        v = int(owner_vertex[gi])
        if not seen[v]:
            seen[v] = True
            new_vertex_of_group[gi] = v
        else:
            new_vertex_of_group[gi] = next_id
            extra.append(v)
            next_id += 1
    new_indices = new_vertex_of_group[np.searchsorted(groups, label)]
    new_vertices = np.concatenate([vertices, vertices[np.array(extra, dtype=np.int64)].reshape(-1, 2)])
    return new_vertices, new_indices
