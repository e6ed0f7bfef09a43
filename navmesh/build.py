"""Waypoint graphs from level geometry: generated waypoints, visibility linking, terrain breakdown.

``build_waypoint_graph(level)`` turns a :class:`~navmesh.level.Level` into a
:class:`WaypointGraph`: the :class:`~navmesh.graph.NavGraph` plus everything point queries need
(line of sight, KD-trees, per-arc terrain lengths, per-profile weights).

Linking rule
------------
1. Candidates. Each waypoint's candidates are the waypoints on the same floor (same z) in order
   of distance (ties by node id), from a scipy ``cKDTree``, within ``max_distance`` if given.
2. Visibility. A candidate pair counts when the segment between them is not blocked by the
   obstacles inflated by ``agent_radius`` and stays inside the eroded bounds
   (:class:`~navmesh.geometry.LineOfSight`); each stage tests all its pairs in one bulk call,
   never in a Python loop per segment.
3. Each waypoint links to its ``k`` nearest *visible* candidates. It tests its ``k`` nearest
   first and widens the search (to 2k, 4k, ... nearest) only while it has fewer than ``k``
   visible ones, up to the cap ``max_candidates`` (default ``4 * k``): a waypoint in a small
   pocket never makes the build scan the whole map, and ``max_candidates=k`` means "the visible
   ones among the k nearest". ``k=None`` links every visible pair on a floor (within
   ``max_distance``): with corner waypoints this is the visibility graph, whose shortest paths
   are the true shortest paths.
4. Links are symmetric: a visible pair gives the arcs a->b and b->a, whoever found it.
5. Manual links override: ``forbidden`` removes both arcs, ``forced`` adds both arcs (even without
   line of sight), ``one_way`` a->b adds a->b and removes b->a. Off-mesh links add their own arcs
   (cost = the link's cost) next to any walking arc.

Arc tags: tag 0 (``""``) is a plain walking arc, whose cost depends on the terrain under it; a
link with a tag or a capability requirement gets the tag name
``navmesh.terrain.encode_arc_tag(tag, requires)``, which :meth:`CostProfile.arc_weights` reads.

Local updates
-------------
:meth:`WaypointGraph.update` (and ``with_obstacle`` / ``without_obstacle`` / ``with_terrain``)
re-runs the same pipeline on the changed level but reuses every line-of-sight answer and terrain
breakdown whose segment does not meet the changed obstacles (inflated) or terrain regions. When
the waypoints and manual links are unchanged it also works row by row: only waypoints that tested
a dropped pair (or whose blocked flag changed) choose their neighbours again, and the pairs that
leave or join are spliced into the previous graph's sorted arc arrays. A build is the same splice
into an empty graph, so the result is the graph a rebuild gives.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import scipy.sparse
import shapely
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from navmesh import _anyangle_kernels as AK
from navmesh._checks import check_nonneg_float, check_option, check_positive_int
from navmesh.connectivity import connectivity_report
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshWarning,
    NodeNotFoundError,
    describe,
)
from navmesh.geometry import Join, LineOfSight, as_polygon, inflate
from navmesh.graph import EdgeWeights, NavGraph
from navmesh.level import Level
from navmesh.terrain import (
    CostProfile,
    DangerZone,
    TerrainLengths,
    TerrainRegion,
    add_danger,
    encode_arc_tag,
)

__all__ = [
    "DEFAULT_WIDENING",
    "BuildOptions",
    "Diagnostics",
    "WaypointGraph",
    "build_waypoint_graph",
    "corner_waypoints",
    "diagnose",
    "fill_waypoints",
    "walkable_region",
]

Visibility = Literal["shapely", "kernel"]
VISIBILITY: tuple[str, ...] = ("shapely", "kernel")
BlockedPolicy = Literal["error", "warn", "drop"]
BLOCKED_POLICIES: tuple[str, ...] = ("error", "warn", "drop")
JOINS: tuple[str, ...] = ("mitre", "round")
DEFAULT_WIDENING = 4  # max_candidates defaults to this many times k

ARC_WALK = 0  # automatic link found by line of sight
ARC_LINK = 1  # manual forced / one-way link
ARC_OFFMESH = 2  # off-mesh link (teleport, ladder, ...)

_LOS_CHUNK = 200_000  # segments per bulk shapely call: bounds the temporary geometry arrays


# -- walkable region and generated waypoints ---------------------------------------------------
def walkable_region(level: Level, *, agent_radius: float = 0.0, join: Join = "mitre") -> shapely.Geometry:
    """The walkable region W for an agent: eroded bounds minus the union of inflated obstacles.

    Parameters
    ----------
    level : Level
    agent_radius : float
        Agent radius in world units, >= 0.
    join : {"mitre", "round"}
        Corner shape of the inflation (see :func:`navmesh.geometry.inflate`).

    Returns
    -------
    shapely Polygon or MultiPolygon
        Rings oriented with W on their left (exterior counter-clockwise); may be empty.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 4), (6, 4), (6, 6), (4, 6)]])
    >>> walkable_region(level).area, round(walkable_region(level, agent_radius=1).area, 3)
    (96.0, 48.686)
    """
    los = _line_of_sight(level, agent_radius, join)
    return _free_space(los)


def _line_of_sight(level: Level, agent_radius: float, join: str) -> LineOfSight:
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
    r = check_nonneg_float("agent_radius", agent_radius, allow_none=False)
    check_option("join", join, JOINS)
    return level.line_of_sight(agent_radius=r, join=join)


def _free_space(los: LineOfSight) -> shapely.Geometry:
    area = los.walkable_area
    if area is None:
        raise InvalidGeometryError("the line of sight has no bounds; a level always has bounds")
    if los.inflated:
        area = shapely.difference(area, shapely.union_all(np.asarray(los.inflated, dtype=object)))
    return shapely.orient_polygons(area)


def _ring_rows(geoms: Sequence[shapely.Geometry], sign: float) -> NDArray[np.float64]:
    """Edge rows (x0, y0, x1, y1, px, py) of every ring of the polygons, inside on the left
    (sign=1) or on the right (sign=-1); vectorised over all rings."""
    parts = shapely.get_parts(np.asarray(list(geoms), dtype=object)) if len(geoms) else np.zeros(0, dtype=object)
    parts = parts[(shapely.get_type_id(parts) == 3) & ~shapely.is_empty(parts)] if len(parts) else parts
    if len(parts) == 0:
        return np.zeros((0, 6))
    rings = shapely.get_rings(shapely.orient_polygons(parts, exterior_cw=sign < 0))
    coords, ring_id = shapely.get_coordinates(rings, return_index=True)
    return AK.ring_edges_flat(coords, ring_id)


def _corner_points(los: LineOfSight) -> NDArray[np.float64]:
    """Convex corners of the inflated obstacles and concave corners of the walkable area that an
    agent can stand on (walkable, and not on the walkable area's edge for obstacle corners)."""

    def turning(rows: NDArray[np.float64], want: float) -> NDArray[np.float64]:
        v, q, p = rows[:, 0:2], rows[:, 2:4], rows[:, 4:6]
        turn = (v[:, 0] - p[:, 0]) * (q[:, 1] - v[:, 1]) - (v[:, 1] - p[:, 1]) * (q[:, 0] - v[:, 0])
        return v[turn * want > 0]

    # a left turn with the obstacle on the left is a convex obstacle corner; a right turn with the
    # walkable area on the left is a concave corner of the area
    obst = turning(_ring_rows(los.inflated, 1.0), 1.0)
    area = np.zeros((0, 2))
    if los.walkable_area is not None:
        area = turning(_ring_rows([los.walkable_area], 1.0), -1.0)
    if len(obst) and los.walkable_area is not None:
        on_edge = shapely.intersects_xy(los.walkable_area.boundary, obst[:, 0], obst[:, 1])
        obst = obst[~on_edge]
    found = np.concatenate([obst, area])
    if len(found) == 0:
        return np.zeros((0, 2))
    found = np.unique(found, axis=0)
    return found[los.walkable(found)]


def corner_waypoints(level: Level, *, agent_radius: float = 0.0, join: Join = "mitre") -> NDArray[np.float64]:
    """Waypoints at the convex corners of the inflated obstacles (and the concave corners of the bounds).

    These are the convex corners of the obstacles grown by ``agent_radius`` (one or two per
    corner with ``join="mitre"``; the corners themselves with radius 0) and the concave corners
    of the walkable area, where an agent can stand: corners inside another obstacle or on the
    edge of the walkable area are left out. Shortest paths around polygons bend only at such
    corners, so linking all mutually visible corners (``k=None``) gives true shortest paths.

    Parameters
    ----------
    level : Level
    agent_radius : float
        Agent radius in world units, >= 0.
    join : {"mitre", "round"}
        Corner shape of the inflation; ``"round"`` gives several corners per obstacle corner.

    Returns
    -------
    float array of shape (c, 2)
        Corner positions, sorted by x then y, no duplicates. They lie on obstacle boundaries.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 4), (6, 4), (6, 6), (4, 6)]])
    >>> corner_waypoints(level).tolist()
    [[4.0, 4.0], [4.0, 6.0], [6.0, 4.0], [6.0, 6.0]]
    >>> len(corner_waypoints(level, agent_radius=1.0))   # mitre with limit 1: two per corner
    8
    """
    return _corner_points(_line_of_sight(level, agent_radius, join))


def fill_waypoints(
    level: Level,
    spacing: float,
    *,
    agent_radius: float = 0.0,
    join: Join = "mitre",
    clearance: float | None = None,
) -> NDArray[np.float64]:
    """Waypoints on a square lattice over the open parts of the walkable region.

    Parameters
    ----------
    level : Level
    spacing : float
        Lattice spacing in world units, > 0. The lattice is aligned to the bounds' lower-left
        corner plus half a spacing.
    agent_radius, join
        As for :func:`corner_waypoints`.
    clearance : float, optional
        Keep only lattice points at least this far from W's boundary (walls and bounds), >= 0.
        Default ``spacing / 2``: open areas get points, narrow places are left to corner waypoints.

    Returns
    -------
    float array of shape (f, 2)
        Sorted by x then y.

    Examples
    --------
    >>> fill_waypoints(Level.rectangle(40, 20), 10.0).tolist()
    [[5.0, 5.0], [5.0, 15.0], [15.0, 5.0], [15.0, 15.0], [25.0, 5.0], [25.0, 15.0], [35.0, 5.0], [35.0, 15.0]]
    >>> len(fill_waypoints(Level.rectangle(40, 20), 10.0, clearance=6.0))
    0
    """
    free = _free_space(_line_of_sight(level, agent_radius, join))
    s = check_nonneg_float("spacing", spacing, allow_none=False)
    if s <= 0:
        raise InvalidOptionError(f"spacing={describe(spacing)} is not valid; expected a number > 0")
    c = s / 2 if clearance is None else check_nonneg_float("clearance", clearance, allow_none=False)
    if free.is_empty:
        return np.zeros((0, 2))
    x0, y0, x1, y1 = free.bounds
    xs = np.arange(x0 + s / 2, x1, s)
    ys = np.arange(y0 + s / 2, y1, s)
    if xs.size * ys.size > 50_000_000:
        raise InvalidOptionError(f"spacing={s} makes {xs.size * ys.size} lattice points; use a larger spacing")
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    if not len(pts):
        return np.zeros((0, 2))
    shapely.prepare(free)
    inside = shapely.contains_xy(free, pts[:, 0], pts[:, 1])
    pts = pts[inside]
    if c > 0 and len(pts):
        far = shapely.distance(free.boundary, shapely.points(pts)) >= c
        pts = pts[far]
    return pts[np.lexsort((pts[:, 1], pts[:, 0]))]


# -- options and result ----------------------------------------------------------------------
@dataclass(frozen=True)
class BuildOptions:
    """The options a :class:`WaypointGraph` was built with (see :func:`build_waypoint_graph`)."""

    k: int | None = 8
    max_distance: float | None = None
    max_candidates: int | None = None
    agent_radius: float = 0.0
    join: str = "mitre"
    corners: bool = False
    fill_spacing: float | None = None
    visibility: str = "shapely"
    on_blocked_waypoint: str = "warn"

    def __post_init__(self) -> None:
        put = lambda name, value: object.__setattr__(self, name, value)
        put("k", check_positive_int("k", self.k))
        md = check_nonneg_float("max_distance", self.max_distance)
        if md is not None and md <= 0:
            raise InvalidOptionError(f"max_distance={describe(self.max_distance)} is not valid; expected a number > 0")
        put("max_distance", md)
        mc = check_positive_int("max_candidates", self.max_candidates)
        if mc is not None and self.k is not None and mc < self.k:
            raise InvalidOptionError(f"max_candidates={mc} is not valid; expected an integer >= k={self.k}")
        put("max_candidates", mc)
        put("agent_radius", check_nonneg_float("agent_radius", self.agent_radius, allow_none=False))
        check_option("join", self.join, JOINS)
        if not isinstance(self.corners, (bool, np.bool_)):
            raise InvalidOptionError(f"corners={describe(self.corners)} is not valid; expected True or False")
        put("corners", bool(self.corners))
        fs = check_nonneg_float("fill_spacing", self.fill_spacing)
        if fs is not None and fs <= 0:
            raise InvalidOptionError(f"fill_spacing={describe(self.fill_spacing)} is not valid; expected a number > 0")
        put("fill_spacing", fs)
        check_option("visibility", self.visibility, VISIBILITY)
        check_option("on_blocked_waypoint", self.on_blocked_waypoint, BLOCKED_POLICIES)

    @property
    def widened_k(self) -> int | None:
        """The search cap: how many nearest waypoints a waypoint may test (None: no cap, k=None)."""
        if self.k is None:
            return None
        return self.max_candidates if self.max_candidates is not None else DEFAULT_WIDENING * self.k


@dataclass(frozen=True, eq=False)
class _Arcs:
    """A graph's arcs in CSR order: by source, target, kind, tag."""

    src: NDArray[np.int64]
    dst: NDArray[np.int64]
    kind: NDArray[np.int8]
    tag: NDArray[np.int32]
    length: NDArray[np.float64]


class _Cache:
    """Answers that a local update may reuse: keyed by unordered waypoint pairs of a point set.

    A build fills every field. :meth:`WaypointGraph.update` passes a copy with the answers the
    change may affect left out: ``stale`` lists the dropped line-of-sight keys and ``zone`` the
    area where walkability may have changed, so only the waypoints they touch are looked at again.
    """

    def __init__(self, points: NDArray[np.float64], los_keys: NDArray[np.int64], los_free: NDArray[np.bool_],
                 ter_keys: NDArray[np.int64], ter_rows: scipy.sparse.csr_array, ter_names: tuple[str, ...],
                 candidates: NDArray[np.int64] | None = None, *, designer: NDArray[np.float64] | None = None,
                 blocked: NDArray[np.bool_] | None = None, chosen: NDArray[np.bool_] | None = None,
                 row_blocked: NDArray[np.bool_] | None = None, pairs: NDArray[np.int64] | None = None,
                 arcs: _Arcs | None = None, links: tuple[Any, Any] | None = None,
                 trees: dict[float, tuple[cKDTree, NDArray[np.int64]]] | None = None,
                 stale: NDArray[np.int64] | None = None, zone: shapely.Geometry | None = None) -> None:
        self.points = points
        # candidates of ``points``: an (n, max_candidates) nearest-first table, or pair keys (k=None)
        self.candidates = candidates
        self.los_keys = los_keys  # sorted
        self.los_free = los_free
        self.ter_keys = ter_keys  # sorted
        self.ter_rows = ter_rows
        self.ter_names = ter_names
        self.designer = designer  # the level's waypoints, and which of them are blocked
        self.blocked = blocked
        self.chosen = chosen  # which candidates each waypoint links to (k given), like ``candidates``
        self.row_blocked = row_blocked  # blocked flag per point, as the linking stage saw it
        self.pairs = pairs  # sorted keys of the linked pairs
        self.arcs = arcs  # the graph's arcs, and the manual and off-mesh links they were made with
        self.links = links
        self.trees = trees  # KD-trees per floor of ``points``
        self.stale = np.zeros(0, np.int64) if stale is None else stale
        self.zone = shapely.Polygon() if zone is None else zone


class WaypointGraph:
    """A level's waypoint graph with everything point-to-point queries need.

    Made by :func:`build_waypoint_graph`; immutable (local updates return a new object).

    Attributes
    ----------
    level : Level
        The designer's level it was built from (generated waypoints are not added to it).
    options : BuildOptions
    graph : NavGraph
        Nodes ``0..level.n_waypoints - 1`` are the level's waypoints in order; generated corner
        and fill waypoints follow (``n_generated`` of them).
    points : float array of shape (n, 2) or (n, 3)
        Node positions (``graph.points``).
    line_of_sight : LineOfSight
        For the agent radius (obstacles inflated, bounds eroded).
    walkable : shapely geometry
        The walkable region W for the agent radius (eroded bounds minus inflated obstacles).
    terrain : TerrainLengths
        Length of each arc inside each terrain tag, csr of shape (n_edges, T); zero rows for
        off-mesh arcs.
    arc_kinds : int8 array of shape (n_edges,)
        0: automatic link, 1: manual forced / one-way link, 2: off-mesh link.
    blocked_waypoints : int32 array
        Waypoints outside W (inside an inflated obstacle or outside the eroded bounds): they get
        no automatic links.
    """

    def __init__(self, *, level: Level, options: BuildOptions, graph: NavGraph, n_generated: int,
                 line_of_sight: LineOfSight, walkable: shapely.Geometry | None, terrain: TerrainLengths,
                 arc_kinds: NDArray[np.int8], blocked_waypoints: NDArray[np.int32], floors: NDArray[np.int64],
                 trees: dict[float, tuple[cKDTree, NDArray[np.int64]]], cache: _Cache) -> None:
        self.level = level
        self.options = options
        self.graph = graph
        self.n_generated = n_generated
        self.line_of_sight = line_of_sight
        self._walkable = walkable
        self.terrain = terrain
        arc_kinds.flags.writeable = False
        self.arc_kinds = arc_kinds
        blocked_waypoints.flags.writeable = False
        self.blocked_waypoints = blocked_waypoints
        self._floors = floors  # floor id per node (index into sorted unique z), all 0 in 2-D
        self._trees = trees  # z value -> (KD-tree over that floor's (x, y), node ids)
        self._cache = cache
        self._weights: dict[CostProfile, EdgeWeights] = {}
        self._node_mult: dict[CostProfile, NDArray[np.float64]] = {}
        self._walls: AK.WallGrid | None = None
        self._barriers: NDArray[np.float64] | None = None
        self._barrier_grid: AK.WallGrid | None = None

    # -- shape ----------------------------------------------------------------------------------
    @property
    def walkable(self) -> shapely.Geometry:
        """The walkable region W for the agent radius (computed on first use)."""
        if self._walkable is None:
            self._walkable = _free_space(self.line_of_sight)
        return self._walkable

    @property
    def points(self) -> NDArray[np.float64]:
        """Node positions, shape (n, 2) or (n, 3)."""
        return self.graph.points

    @property
    def n_nodes(self) -> int:
        """Number of nodes (level waypoints plus generated ones)."""
        return self.graph.n_nodes

    def __repr__(self) -> str:
        return (
            f"WaypointGraph(n_nodes={self.n_nodes}, n_edges={self.graph.n_edges}, generated={self.n_generated}, "
            f"k={self.options.k}, agent_radius={self.options.agent_radius})"
        )

    # -- costs ----------------------------------------------------------------------------------
    def weights(self, profile: CostProfile | None = None, *, danger: Iterable[DangerZone] = ()) -> EdgeWeights:
        """Arc weights for a unit type, validated once and cached per profile.

        Parameters
        ----------
        profile : CostProfile, optional
            Terrain multipliers, forbidden tags and capabilities. Default: ``CostProfile()``
            (every tag x1, nothing forbidden, no capabilities: gated arcs are closed).
        danger : iterable of DangerZone
            Runtime extra costs (e.g. near an enemy tower). Weights with danger are not cached.

        Returns
        -------
        EdgeWeights
            ``inf`` for arcs the unit may not use.

        Examples
        --------
        >>> level = Level.rectangle(10, 10, waypoints=[[1, 1], [9, 1]],
        ...                         terrain=[([(4, 0), (6, 0), (6, 2), (4, 2)], "swamp")])
        >>> nav = build_waypoint_graph(level)
        >>> nav.weights(CostProfile("tank", {"swamp": 3.0})).values.tolist()
        [12.0, 12.0]
        """
        prof = _check_profile(profile)
        zones = _check_danger(danger)
        if prof not in self._weights:
            values = prof.arc_weights(
                self.graph.lengths, self.terrain.lengths, self.terrain.tag_names, self.graph.tags, self.graph.tag_names
            )
            self._weights[prof] = self.graph.weights(values)
        w = self._weights[prof]
        if not zones:
            return w
        a = self.points[self.graph.arc_sources]
        b = self.points[self.graph.indices]
        walk = self.arc_kinds != ARC_OFFMESH
        values = np.array(w.values)
        values[walk] = add_danger(values[walk], a[walk], b[walk], zones)
        return self.graph.weights(values)

    def straight_costs(
        self, a: ArrayLike, b: ArrayLike, profile: CostProfile | None = None, *, danger: Iterable[DangerZone] = ()
    ) -> NDArray[np.float64]:
        """Cost of walking straight from ``a[i]`` to ``b[i]`` (terrain rule of a plain arc).

        Line of sight is not checked here. ``inf`` where the segment enters forbidden terrain.

        Parameters
        ----------
        a, b : float arrays of shape (m, 2) or (m, 3)
        profile : CostProfile, optional
        danger : iterable of DangerZone

        Returns
        -------
        float array of shape (m,)
        """
        prof = _check_profile(profile)
        zones = _check_danger(danger)
        pa = np.atleast_2d(np.asarray(a, dtype=np.float64))
        pb = np.atleast_2d(np.asarray(b, dtype=np.float64))
        lengths = np.sqrt(((pb - pa) ** 2).sum(axis=1))
        names, tl = self.level.terrain_layer().lengths(pa[:, :2], pb[:, :2])
        w = prof.arc_weights(lengths, tl, names, np.zeros(len(pa), np.int64), ("",))
        if zones:
            w = add_danger(w, pa[:, :2], pb[:, :2], zones)
        return w

    def point_multipliers(self, points: ArrayLike, profile: CostProfile | None = None) -> NDArray[np.float64]:
        """Terrain multiplier at each point for ``profile`` (painter's rule); ``inf`` in forbidden terrain."""
        prof = _check_profile(profile)
        tags = self.level.terrain_layer().tag_at(np.asarray(points, dtype=np.float64))
        table = {t: (np.inf if t in prof.forbidden else prof.multiplier(t)) for t in set(tags.tolist())}
        table[""] = 1.0
        return np.array([table[t] for t in tags.tolist()], dtype=np.float64)

    def node_multipliers(self, profile: CostProfile | None = None) -> NDArray[np.float64]:
        """:meth:`point_multipliers` of every node (cached per profile), shape (n,)."""
        prof = _check_profile(profile)
        if prof not in self._node_mult:
            mult = self.point_multipliers(self.points, prof) if self.n_nodes else np.zeros(0)
            mult.flags.writeable = False
            self._node_mult[prof] = mult
        return self._node_mult[prof]

    # -- visibility -----------------------------------------------------------------------------
    def visible(self, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
        """Line of sight for each segment ``a[i] -> b[i]`` with this graph's visibility backend."""
        pa = np.atleast_2d(np.asarray(a, dtype=np.float64))[:, :2]
        pb = np.atleast_2d(np.asarray(b, dtype=np.float64))[:, :2]
        return _visible(self.options.visibility, self.line_of_sight, self.walls, pa, pb)

    @property
    def walls(self) -> AK.WallGrid:
        """W's boundary edges bucketed for the numba line-of-sight kernel (built on first use)."""
        if self._walls is None:
            self._walls = _wall_grid(self.line_of_sight)
        return self._walls

    def barrier_segments(self, danger: Sequence[DangerZone] = ()) -> NDArray[np.float64]:
        """Segments (m, 4) a straight shortcut may not touch: terrain region boundaries, manual and
        off-mesh link segments, forbidden link segments, and squares around danger zones."""
        if self._barriers is None:
            segs = []
            for region in self.level.terrain:
                for ring in [region.polygon.exterior, *region.polygon.interiors]:
                    c = np.asarray(ring.coords)
                    segs.append(np.column_stack([c[:-1], c[1:]]))
            p2 = self.points[:, :2]
            pairs = [(lk.a, lk.b) for lk in self.level.links] + [(lk.a, lk.b) for lk in self.level.offmesh_links]
            if pairs:
                ab = np.asarray(pairs, dtype=np.int64)
                segs.append(np.column_stack([p2[ab[:, 0]], p2[ab[:, 1]]]))
            self._barriers = np.concatenate(segs) if segs else np.zeros((0, 4))
        out = [self._barriers]
        for z in danger:
            (cx, cy), r = z.centre, z.radius
            sq = np.array([[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r], [cx - r, cy - r]])
            out.append(np.column_stack([sq[:-1], sq[1:]]))
        return np.concatenate(out)

    def barrier_grid(self, danger: Sequence[DangerZone] = ()) -> AK.WallGrid:
        """:meth:`barrier_segments` bucketed for the kernels (cached when there is no danger)."""
        if not danger and self._barrier_grid is not None:
            return self._barrier_grid
        grid = AK.wall_grid(AK.segment_edges(self.barrier_segments(danger)), extent=self.walls_extent())
        if not danger:
            self._barrier_grid = grid
        return grid

    def walls_extent(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the level bounds."""
        x0, y0, x1, y1 = self.level.bounds.bounds
        return (x0, y0, x1, y1)

    # -- candidates for arbitrary positions ---------------------------------------------------
    def visible_waypoints(self, point: ArrayLike) -> NDArray[np.int32]:
        """Waypoints a position joins by the linking rule, nearest first.

        The same rule as between waypoints: the ``k`` nearest visible waypoints on the position's
        floor among its ``max_candidates`` nearest (within ``max_distance``); with ``k=None``
        every visible waypoint within ``max_distance``.

        Parameters
        ----------
        point : float array of shape (2,) or (3,)
            World position; on a level with several floors give z.

        Returns
        -------
        int32 array
            Node ids, nearest first; empty when none is visible.
        """
        p = self._check_position("point", point)
        _, tree, ids = self._floor_of(p)
        opts = self.options
        width = opts.widened_k
        cand = _query_candidates(tree, p[None, :2], width, opts.max_distance)[0]
        cand = ids[cand[cand >= 0]]
        if opts.k is None:
            d = np.hypot(*(self.points[cand, :2] - p[:2]).T)
            cand = cand[np.argsort(d, kind="stable")]
        found: list[NDArray[np.int64]] = []
        lo, hi = 0, len(cand) if opts.k is None else min(opts.k, len(cand))
        while hi > lo:
            part = cand[lo:hi]
            found.append(part[self.visible(np.repeat(p[None, :2], len(part), axis=0), self.points[part, :2])])
            if opts.k is not None and sum(len(f) for f in found) >= opts.k:
                break
            lo, hi = hi, min(2 * hi, len(cand))
        vis = np.concatenate(found) if found else np.zeros(0, np.int64)
        if opts.k is not None:
            vis = vis[: opts.k]
        return vis.astype(np.int32)

    def _check_position(self, name: str, point: ArrayLike) -> NDArray[np.float64]:
        try:
            p = np.asarray(point, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise InvalidGeometryError(f"{name}={describe(point)} is not a position; expected (x, y) or (x, y, z)") from None
        if p.shape[0] not in (2, 3) or not np.isfinite(p).all():
            raise InvalidGeometryError(f"{name}={describe(point)} is not valid; expected 2 or 3 finite coordinates")
        if p.shape[0] == 2 and len(self._trees) > 1:
            raise InvalidGeometryError(
                f"{name}={p.tolist()} has no z; this level has {len(self._trees)} floors, give (x, y, z)"
            )
        if p.shape[0] == 3 and self.points.shape[1] == 3 and p[2] not in self._trees:
            raise NodeNotFoundError(f"{name}={p.tolist()} is on no floor; floors are at z in {sorted(self._trees)}")
        return p

    def _floor_of(self, p: NDArray[np.float64]) -> tuple[float, cKDTree, NDArray[np.int64]]:
        if len(self._trees) == 1 or p.shape[0] == 2:
            z = next(iter(self._trees))
        else:
            z = float(p[2])
        tree, ids = self._trees[z]
        return z, tree, ids

    def position(self, point: ArrayLike) -> NDArray[np.float64]:
        """A query position as a row like ``points`` (z added from its floor when the graph is 3-D)."""
        p = self._check_position("point", point)
        if self.points.shape[1] == 3 and p.shape[0] == 2:
            p = np.array([p[0], p[1], next(iter(self._trees))])
        return p[: self.points.shape[1]]

    def floor_ids(self) -> NDArray[np.int64]:
        """Floor index of each node (0 on a 2-D level): the rank of its z among the floors."""
        return self._floors

    def floor_index(self, point: ArrayLike) -> int:
        """Floor index of a query position (0 on a 2-D level or when z is not given)."""
        p = self._check_position("point", point)
        if p.shape[0] < 3 or len(self._trees) == 1:
            return 0
        return sorted(self._trees).index(float(p[2]))

    # -- local updates --------------------------------------------------------------------------
    def update(self, level: Level) -> WaypointGraph:
        """The graph of a changed level, reusing every answer the change cannot affect.

        Line-of-sight answers are reused for segments that do not meet an added or removed
        obstacle (inflated by the agent radius); terrain breakdowns for segments that do not meet
        a changed terrain region (or a region overlapping one); nearest-candidate lists for
        waypoints that no added or removed waypoint can affect. Generated waypoints, the linking
        stages and manual links are recomputed from those, so the result equals
        ``build_waypoint_graph(level, **options)`` (tested exactly). A change of bounds reuses
        nothing. Node ids of the level's own waypoints stay the same; generated ones may shift.

        Parameters
        ----------
        level : Level
            The changed level.

        Returns
        -------
        WaypointGraph
        """
        if not isinstance(level, Level):
            raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
        old = self.level
        cache = self._cache
        if not shapely.equals_exact(old.bounds, level.bounds, 0.0):
            return _assemble(level, self.options, None)
        changed_obstacles = _multiset_diff(old.obstacles, level.obstacles, lambda p: p.wkb)
        keep_los = np.ones(len(cache.los_keys), dtype=bool)
        moved = shapely.Polygon()  # where walkability may have changed
        if changed_obstacles:
            grown = inflate(changed_obstacles, self.options.agent_radius, join=self.options.join)
            moved = shapely.union_all(np.asarray(grown, dtype=object))
            keep_los = ~_segments_meet(cache.points, cache.los_keys, moved)
        changed_regions = _multiset_diff(old.terrain, level.terrain, lambda r: (r.tag, r.polygon.wkb))
        keep_ter = np.ones(len(cache.ter_keys), dtype=bool)
        if changed_regions:
            polys = [r.polygon for r in changed_regions]
            every = np.asarray([r.polygon for r in (*old.terrain, *level.terrain)], dtype=object)
            touching = shapely.intersects(every, shapely.union_all(np.asarray(polys, dtype=object)))
            zone = shapely.union_all(every[touching])  # regions whose painter's cover may change too
            keep_ter = ~_segments_meet(cache.points, cache.ter_keys, zone)
        kept = _Cache(
            cache.points, cache.los_keys[keep_los], cache.los_free[keep_los],
            cache.ter_keys[keep_ter], cache.ter_rows[np.flatnonzero(keep_ter)], cache.ter_names, cache.candidates,
            designer=cache.designer, blocked=cache.blocked, chosen=cache.chosen, row_blocked=cache.row_blocked,
            pairs=cache.pairs, arcs=cache.arcs, links=cache.links, trees=cache.trees,
            stale=cache.los_keys[~keep_los], zone=moved,
        )
        return _assemble(level, self.options, kept)

    def with_obstacle(self, polygon: Any) -> WaypointGraph:
        """The graph after adding an obstacle (e.g. a door closing); see :meth:`update`.

        Examples
        --------
        >>> level = Level.rectangle(10, 10, waypoints=[[1, 5], [9, 5]])
        >>> nav = build_waypoint_graph(level)
        >>> nav.graph.n_edges, nav.with_obstacle([(4, 0), (6, 0), (6, 10), (4, 10)]).graph.n_edges
        (2, 0)
        """
        poly = as_polygon(polygon, name="polygon")
        return self.update(self.level.replace(obstacles=(*self.level.obstacles, poly), on_bad_waypoint="warn"))

    def without_obstacle(self, index: int) -> WaypointGraph:
        """The graph after removing ``level.obstacles[index]`` (a door opening); see :meth:`update`."""
        n = len(self.level.obstacles)
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not -n <= index < n:
            raise InvalidOptionError(f"index={describe(index)} is not valid; the level has obstacles 0..{n - 1}")
        obstacles = list(self.level.obstacles)
        del obstacles[int(index)]
        return self.update(self.level.replace(obstacles=tuple(obstacles), on_bad_waypoint="warn"))

    def with_terrain(self, terrain: Sequence[TerrainRegion | tuple[Any, str]]) -> WaypointGraph:
        """The graph after replacing the terrain regions (painter's order); see :meth:`update`."""
        return self.update(self.level.replace(terrain=tuple(terrain), on_bad_waypoint="warn"))


def _check_profile(profile: CostProfile | None) -> CostProfile:
    if profile is None:
        return _DEFAULT_PROFILE
    if not isinstance(profile, CostProfile):
        raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
    return profile


def _check_danger(danger: Iterable[DangerZone]) -> tuple[DangerZone, ...]:
    if isinstance(danger, DangerZone):
        return (danger,)
    zones = tuple(danger)
    for z in zones:
        if not isinstance(z, DangerZone):
            raise InvalidOptionError(f"danger holds {describe(z)}; expected DangerZone objects")
    return zones


_DEFAULT_PROFILE = CostProfile()


def _multiset_diff(old: Sequence[Any], new: Sequence[Any], key: Any) -> list[Any]:
    """Items in exactly one of the two sequences (counting repeats), compared by ``key``.

    Objects present in both by identity are matched first, so an unchanged level costs no keys.
    """
    ids_new = Counter(id(x) for x in new)
    ids_old = Counter(id(x) for x in old)
    rest_old = []
    for x in old:
        if ids_new.get(id(x), 0) > 0:
            ids_new[id(x)] -= 1
        else:
            rest_old.append(x)
    rest_new = []
    for x in new:
        if ids_old.get(id(x), 0) > 0:
            ids_old[id(x)] -= 1
        else:
            rest_new.append(x)
    a = Counter(key(x) for x in rest_old)
    b = Counter(key(x) for x in rest_new)
    out = []
    for items, mine, other in ((rest_old, a, b), (rest_new, b, a)):
        extra = mine - other
        for x in items:
            k = key(x)
            if extra.get(k, 0) > 0:
                out.append(x)
                extra[k] -= 1
    return out


def _segments_meet(points: NDArray[np.float64], keys: NDArray[np.int64], zone: shapely.Geometry) -> NDArray[np.bool_]:
    """Which cached pair segments meet ``zone`` (closed sets: touching counts)."""
    out = np.zeros(len(keys), dtype=bool)
    if len(keys) == 0 or zone.is_empty:
        return out
    n = len(points)
    ka = keys // n
    kb = keys - ka * n
    x0, y0, x1, y1 = zone.bounds
    # bounding boxes first, x then y, on 1-D gathers (this runs over every cached pair)
    xa, xb = points[ka, 0], points[kb, 0]
    idx = np.flatnonzero((np.minimum(xa, xb) <= x1) & (np.maximum(xa, xb) >= x0))
    ya, yb = points[ka[idx], 1], points[kb[idx], 1]
    idx = idx[(np.minimum(ya, yb) <= y1) & (np.maximum(ya, yb) >= y0)]
    if idx.size:
        shapely.prepare(zone)
        lines = shapely.linestrings(np.stack([points[ka[idx], :2], points[kb[idx], :2]], axis=1))
        out[idx] = shapely.intersects(zone, lines)
    return out


# -- building ----------------------------------------------------------------------------------
def build_waypoint_graph(
    level: Level,
    *,
    k: int | None = 8,
    max_distance: float | None = None,
    max_candidates: int | None = None,
    agent_radius: float = 0.0,
    join: Join = "mitre",
    corners: bool = False,
    fill_spacing: float | None = None,
    visibility: Visibility = "shapely",
    on_blocked_waypoint: BlockedPolicy = "warn",
) -> WaypointGraph:
    """Link a level's waypoints by line of sight into a navigation graph.

    See the module notes for the linking rule, manual links and tags.

    Parameters
    ----------
    level : Level
        Bounds, obstacles, waypoints, terrain and links.
    k : int or None
        Visible neighbours each waypoint links to (nearest first), >= 1. ``None``: every visible
        waypoint on the floor within ``max_distance`` (the full visibility graph; O(n^2) pairs
        without a distance).
    max_distance : float, optional
        Only waypoints closer than this (world units, > 0) are candidates.
    max_candidates : int, optional
        The search cap: a waypoint looks for its ``k`` nearest visible waypoints among at most
        this many nearest ones (>= k; default ``4 * k``; ``k`` turns widening off).
    agent_radius : float
        Agent radius in world units, >= 0: obstacles are inflated and the bounds eroded by it, so
        a corridor exactly ``2 * agent_radius`` wide stays open.
    join : {"mitre", "round"}
        Corner shape of the inflation (see :func:`navmesh.geometry.inflate`).
    corners : bool
        Add :func:`corner_waypoints` (after the level's own waypoints; on every floor of a 3-D level).
    fill_spacing : float, optional
        Add :func:`fill_waypoints` at this spacing (world units, > 0).
    visibility : {"shapely", "kernel"}
        Line-of-sight backend: the level's bulk shapely :class:`~navmesh.geometry.LineOfSight`,
        or the numba edge-grid kernel of :mod:`navmesh._anyangle_kernels` (same rule; much faster
        for the millions of pairs of a large ``k=None`` build).
    on_blocked_waypoint : {"error", "warn", "drop"}
        Waypoints outside the walkable region for this radius (too close to an obstacle or the
        bounds): raise ``InvalidGeometryError``; keep them as nodes without automatic links and
        warn (``NavmeshWarning``); or remove them (with their links; later ids shift) and warn.

    Returns
    -------
    WaypointGraph

    Raises
    ------
    InvalidOptionError
        An option out of range.
    InvalidGeometryError
        A blocked waypoint with ``on_blocked_waypoint="error"``.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 2), (6, 2), (6, 10), (4, 10)]],
    ...                         waypoints=[[2, 8], [8, 8]])
    >>> nav = build_waypoint_graph(level, corners=True)
    >>> nav.n_nodes, nav.n_generated, nav.graph.neighbors(0).tolist()
    (4, 2, [2])
    """
    options = BuildOptions(
        k=k, max_distance=max_distance, max_candidates=max_candidates, agent_radius=agent_radius, join=join,
        corners=corners, fill_spacing=fill_spacing, visibility=visibility, on_blocked_waypoint=on_blocked_waypoint,
    )
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
    return _assemble(level, options, None)


def _visible(mode: str, los: LineOfSight, walls: AK.WallGrid | None, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    if len(a) == 0:
        return np.zeros(0, dtype=bool)
    if mode == "kernel":
        return AK.segments_free(np.ascontiguousarray(a), np.ascontiguousarray(b), *walls)
    out = np.empty(len(a), dtype=bool)
    for s in range(0, len(a), _LOS_CHUNK):
        out[s : s + _LOS_CHUNK] = ~los.blocked(a[s : s + _LOS_CHUNK], b[s : s + _LOS_CHUNK])
    return out


def _wall_grid(los: LineOfSight) -> AK.WallGrid:
    """The line of sight's geometry as kernel walls: inflated parts (free side outside) and the
    walkable area (free side inside), plus its pinch points and seams."""
    rows = [_ring_rows(los.inflated, -1.0)]
    extent = None
    if los.walkable_area is not None and not los.walkable_area.is_empty:
        rows.append(_ring_rows([los.walkable_area], 1.0))
        extent = los.walkable_area.bounds
    return AK.wall_grid(np.concatenate(rows), los.pinch_points, _seams(los), extent=extent)


def _seams(los: LineOfSight) -> NDArray[np.float64]:
    """Edges an obstacle shares with the bounds outline (r == 0 only), as rows x0, y0, x1, y1:
    the zero-width gaps :class:`LineOfSight` does not let a segment run along."""
    if los.agent_radius > 0 or not los.parts or los.walkable_area is None:
        return np.zeros((0, 4))
    outline = shapely.boundary(los.walkable_area)
    parts = np.asarray(los.parts, dtype=object)
    # the parts are merged (disjoint interiors), so each one's shared edges are the union's
    parts = parts[shapely.intersects(parts, outline)]
    if len(parts) == 0:
        return np.zeros((0, 4))
    shared = shapely.get_parts(shapely.intersection(shapely.boundary(parts), outline))
    lines = shared[(shapely.get_dimensions(shared) == 1) & (shapely.length(shared) > 0)]
    lines = shapely.get_parts(shapely.line_merge(lines)) if len(lines) else lines
    out = []
    for line in lines:
        c = shapely.get_coordinates(line)
        out.append(np.column_stack([c[:-1], c[1:]]))
    return np.concatenate(out) if out else np.zeros((0, 4))


def _query_candidates(tree: cKDTree, pts: NDArray[np.float64], k: int | None, max_distance: float | None,
                      self_ids: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
    """Local (tree) ids of the candidates of each point, -1 padded; ``self_ids`` are excluded.

    With ``k`` the rows hold the ``k`` nearest in the canonical order (distance, then id), so
    ties are broken the same way whatever the tree's layout (a rebuild and an update agree).
    """
    n = tree.n
    if n == 0 or len(pts) == 0:
        return np.full((len(pts), 0), -1, dtype=np.int64)
    if k is None:
        if max_distance is None:
            rows = [np.arange(n)] * len(pts)
        else:
            rows = tree.query_ball_point(pts, max_distance, return_sorted=True)
        width = max((len(r) for r in rows), default=0)
        out = np.full((len(pts), width), -1, dtype=np.int64)
        for i, r in enumerate(rows):
            out[i, : len(r)] = r
        if self_ids is not None:
            out[out == self_ids[:, None]] = -1
        return out
    extra = 0 if self_ids is None else 1
    kk = min(k + extra + 1, n)  # one more than needed, to see a tie at the cut
    # cKDTree's bound is strict; nudge it so "within max_distance" includes the distance itself
    bound = np.inf if max_distance is None else np.nextafter(max_distance, np.inf)
    d, idx = tree.query(pts, k=kk, distance_upper_bound=bound)
    d = np.asarray(d, dtype=np.float64).reshape(len(pts), -1)
    idx = np.asarray(idx, dtype=np.int64).reshape(len(pts), -1)
    gone = idx >= n
    if self_ids is not None:
        gone |= idx == self_ids[:, None]
    idx[gone] = n
    d[gone] = np.inf
    order = np.lexsort((idx, d), axis=-1)
    idx = np.take_along_axis(idx, order, axis=1)
    d = np.take_along_axis(d, order, axis=1)
    if idx.shape[1] > k:
        tie = np.flatnonzero(np.isfinite(d[:, k]) & (d[:, k] == d[:, k - 1]))
        for i in tie:  # rare: the cut falls inside a group of equally distant candidates
            reach = d[i, k - 1] * (1 + 1e-9) + 1e-12  # the ball query rounds on its own
            near = np.asarray(tree.query_ball_point(pts[i], reach), dtype=np.int64)
            if self_ids is not None:
                near = near[near != self_ids[i]]
            dist = np.hypot(*(tree.data[near] - pts[i]).T)
            near = near[np.lexsort((near, dist))][:k]
            idx[i, : len(near)] = near
    out = idx[:, :k]
    out[out >= n] = -1
    return out


def _nearest_visible(cand: NDArray[np.int64], k: int, blocked: NDArray[np.bool_], los_for: Any, n: int,
                     rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which candidates waypoints ``rows`` link to: their ``k`` nearest visible ones.

    ``cand`` holds each waypoint's candidates nearest first (-1 padded); the answer has the
    shape of ``cand[rows]``. Columns are tested in stages (k, 2k, 4k, ... up to the table
    width) and only for waypoints that still have fewer than ``k`` visible candidates, so the
    answer is the same as testing the whole table. A row's answer depends only on the line of
    sight of the pairs it tested and on whether it is blocked.
    """
    table = cand[rows]
    blk = blocked[rows]
    rows_n, width = table.shape
    visible = np.zeros(table.shape, dtype=bool)
    active = np.arange(rows_n)
    lo, hi = 0, min(k, width)
    while hi > lo and len(active):
        block = table[active, lo:hi]
        r_idx, c_idx = np.nonzero(block >= 0)
        keys = _pair_keys(rows[active[r_idx]], block[r_idx, c_idx], n)
        uniq, inv = np.unique(keys, return_inverse=True)
        visible[active[r_idx], lo + c_idx] = los_for(uniq)[inv.reshape(-1)]
        count = visible[:, :hi].sum(axis=1)
        active = np.flatnonzero((count < k) & ~blk & (table[:, hi - 1] >= 0))
        lo, hi = hi, min(2 * hi, width)
    return visible & (np.cumsum(visible, axis=1) <= k)


def _unique_keys(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted unique keys (numpy 2's hash-based ``np.unique`` is ~50x slower on 10^5 int64 keys)."""
    s = np.sort(keys)
    return s[np.concatenate([[True], s[1:] != s[:-1]])] if len(s) else s


def _pair_keys(u: NDArray[np.int64], v: NDArray[np.int64], n: int) -> NDArray[np.int64]:
    a = np.minimum(u, v).astype(np.int64)
    b = np.maximum(u, v).astype(np.int64)
    return a * n + b


def _old_to_new(old_points: NDArray[np.float64], new_points: NDArray[np.float64]) -> NDArray[np.int64]:
    """For each old point, the id of the new point with the same coordinates (-1: gone)."""
    if len(old_points) == len(new_points) and np.array_equal(old_points, new_points):
        return np.arange(len(old_points), dtype=np.int64)
    if len(old_points) == 0 or len(new_points) == 0 or old_points.shape[1] != new_points.shape[1]:
        return np.full(len(old_points), -1, dtype=np.int64)
    both = np.concatenate([new_points, old_points])
    _, first, inverse = np.unique(both, axis=0, return_index=True, return_inverse=True)
    owner = first[inverse.reshape(-1)][len(new_points):]  # the first row with these coordinates
    return np.where(owner < len(new_points), owner, -1).astype(np.int64)


def _updated_table(cache: _Cache, points: NDArray[np.float64], p2: NDArray[np.float64],
                   trees: dict[float, tuple[cKDTree, NDArray[np.int64]]], opts: BuildOptions) -> NDArray[np.int64]:
    """The nearest-candidate table of ``points``, re-querying only waypoints whose candidates a
    change of the point set can affect: new waypoints, waypoints that lost a candidate, and
    waypoints with a new waypoint no farther than their farthest candidate. The rest keep their
    rows (renumbered): with the canonical (distance, id) order those rows are what a query gives."""
    n = len(points)
    old = cache.candidates
    width = old.shape[1]
    to_new = _old_to_new(cache.points, points)
    from_old = np.full(n, -1, dtype=np.int64)
    from_old[to_new[to_new >= 0]] = np.flatnonzero(to_new >= 0)
    common = np.flatnonzero(from_old >= 0)
    added = np.flatnonzero(from_old < 0)
    rows = old[from_old[common]]
    valid = rows >= 0
    mapped = np.where(valid, to_new[np.where(valid, rows, 0)], -1)
    redo = (valid & (mapped < 0)).any(axis=1)
    if len(added):
        full_row = mapped[:, -1] >= 0
        reach = np.full(len(common), np.inf if opts.max_distance is None else opts.max_distance)
        far = p2[np.where(full_row, mapped[:, -1], 0)]
        reach[full_row] = np.hypot(*(far[full_row] - p2[common[full_row]]).T)
        nearest_new = cKDTree(p2[added]).query(p2[common])[0]
        redo |= nearest_new <= reach * (1 + 1e-9) + 1e-12
    table = np.full((n, width), -1, dtype=np.int64)
    table[common[~redo]] = mapped[~redo]
    again = np.concatenate([common[redo], added])
    (tree, ids), = trees.values()
    if len(again) and len(ids) >= 2:
        local = _query_candidates(tree, p2[again], width, opts.max_distance, self_ids=again)
        table[again, : local.shape[1]] = local
    return table


def _remap_keys(keys: NDArray[np.int64], old_points: NDArray[np.float64], new_points: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """Re-express pair keys of ``old_points`` in ids of ``new_points`` (matching exact coordinates)."""
    n_old, n_new = len(old_points), len(new_points)
    if n_old == n_new and np.array_equal(old_points, new_points):
        return keys, np.ones(len(keys), dtype=bool)
    to_new = _old_to_new(old_points, new_points)
    if len(keys) == 0:
        return keys, np.ones(0, dtype=bool)
    a = to_new[keys // n_old]
    b = to_new[keys % n_old]
    ok = (a >= 0) & (b >= 0)
    return _pair_keys(a[ok], b[ok], n_new), ok


def _changed_pairs(cand: NDArray[np.int64], before: NDArray[np.bool_], after: NDArray[np.bool_], rows: NDArray[np.int64],
                   pairs: NDArray[np.int64], n: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Pairs leaving and joining the sorted ``pairs`` when the choices of waypoints ``rows`` go from
    ``before`` to ``after`` (tables like ``cand``): a pair is linked while either end chooses it."""

    def keys(table: NDArray[np.bool_]) -> NDArray[np.int64]:
        r, c = np.nonzero(table[rows])
        return _unique_keys(_pair_keys(rows[r], cand[rows[r], c], n))

    was, now = keys(before), keys(after)
    lost = was[_lookup(was, now) < 0]
    a, b = lost // n, lost % n
    still = ((cand[a] == b[:, None]) & after[a]).any(axis=1) | ((cand[b] == a[:, None]) & after[b]).any(axis=1)
    won = now[_lookup(now, was) < 0]
    return lost[~still], won[_lookup(won, pairs) < 0]


def _merge_keys(keys: NDArray[np.int64], gone: NDArray[np.int64], added: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted ``keys`` without ``gone`` (all present) and with ``added`` (sorted, all absent)."""
    kept = np.delete(keys, np.searchsorted(keys, gone))
    return np.insert(kept, np.searchsorted(kept, added), added)


def _splice_arcs(base: _Arcs, gone: NDArray[np.int64], added: NDArray[np.int64], overridden: NDArray[np.int64],
                 points: NDArray[np.float64], n: int) -> _Arcs:
    """``base`` without the walking arcs of the pairs ``gone`` and with those of the pairs ``added``
    (both ways, except arcs whose key a manual link overrides, sorted ``overridden``), in CSR order.

    A walking arc (kind 0) sorts first among the arcs with its ends, so it is found and inserted
    at the left end of its key's run; arrays are deleted from and inserted into, never re-sorted.
    """

    def both_ways(pairs: NDArray[np.int64]) -> NDArray[np.int64]:
        a, b = pairs // n, pairs % n
        return np.concatenate([a * n + b, b * n + a])

    key = base.src * n + base.dst
    out = both_ways(gone)
    at = np.minimum(np.searchsorted(key, out), max(len(key) - 1, 0))
    at = at[(key[at] == out) & (base.kind[at] == ARC_WALK)] if len(key) else at[:0]
    key = np.delete(key, at)
    new = np.sort(both_ways(added))
    new = new[_lookup(new, overridden) < 0]
    where = np.searchsorted(key, new)
    src, dst = new // n, new % n

    def splice(old: NDArray[Any], values: Any) -> NDArray[Any]:
        return np.insert(np.delete(old, at), where, values)

    return _Arcs(
        splice(base.src, src), splice(base.dst, dst), splice(base.kind, ARC_WALK), splice(base.tag, 0),
        splice(base.length, _distances(points, src, dst)),
    )


def _distances(points: NDArray[np.float64], a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.float64]:
    """Euclidean length of each segment ``points[a[i]] -> points[b[i]]`` (the same either way round)."""
    return np.sqrt(((points[b] - points[a]) ** 2).sum(axis=1)) if len(a) else np.zeros(0)


def _lookup(keys: NDArray[np.int64], table: NDArray[np.int64]) -> NDArray[np.int64]:
    """Index of each key in the sorted ``table``, -1 when absent."""
    if len(table) == 0:
        return np.full(len(keys), -1, dtype=np.int64)
    pos = np.searchsorted(table, keys)
    pos_c = np.minimum(pos, len(table) - 1)
    return np.where(table[pos_c] == keys, pos_c, -1)


def _blocked_waypoints(los: LineOfSight, designer: NDArray[np.float64], cache: _Cache | None) -> NDArray[np.bool_]:
    """Which of the level's waypoints lie outside W; a cache answers for those outside its zone."""
    if len(designer) == 0:
        return np.zeros(0, dtype=bool)
    if cache is None or cache.blocked is None or not np.array_equal(cache.designer, designer):
        return ~los.walkable(designer[:, :2])
    flags = cache.blocked.copy()
    if not cache.zone.is_empty:
        near = np.flatnonzero(shapely.intersects_xy(cache.zone, designer[:, 0], designer[:, 1]))
        flags[near] = ~los.walkable(designer[near, :2])
    return flags


def _assemble(level: Level, opts: BuildOptions, cache: _Cache | None) -> WaypointGraph:
    """The whole build; ``cache`` holds reusable answers (None for a fresh build)."""
    los = level.line_of_sight(agent_radius=opts.agent_radius, join=opts.join)
    free = _free_space(los) if opts.fill_spacing is not None else None
    walls = _wall_grid(los) if opts.visibility == "kernel" else None

    # Waypoints: the level's, then generated ones not already present.
    designer = level.waypoints
    dim = designer.shape[1] if len(designer) else 2
    extra = np.zeros((0, 2))
    if opts.corners:
        extra = _corner_points(los)
    if opts.fill_spacing is not None:
        fill = fill_waypoints(level, opts.fill_spacing, agent_radius=opts.agent_radius, join=opts.join)
        extra = np.concatenate([extra, fill])
    if dim == 3 and len(extra):
        floors_z = np.unique(designer[:, 2])
        extra = np.concatenate([np.column_stack([extra, np.full(len(extra), z)]) for z in floors_z])
    if len(extra):
        have = {tuple(r) for r in designer.tolist()}
        fresh = np.array([tuple(r) not in have for r in extra.tolist()], dtype=bool)
        _, first = np.unique(extra, axis=0, return_index=True)
        once = np.zeros(len(extra), dtype=bool)
        once[first] = True
        extra = extra[fresh & once]

    # Blocked designer waypoints (outside W for this radius).
    designer_checked = designer  # before the blocked policy may drop some
    designer_blocked = _blocked_waypoints(los, designer, cache)
    blocked_designer = np.flatnonzero(designer_blocked)
    if blocked_designer.size and opts.on_blocked_waypoint != "warn":
        level = _apply_blocked_policy(level, blocked_designer, opts)
        designer = level.waypoints
        blocked_designer = np.zeros(0, np.int64)
    elif blocked_designer.size:
        shown = ", ".join(f"waypoints[{i}]={designer[i].tolist()}" for i in blocked_designer[:5])
        warnings.warn(
            f"{blocked_designer.size} waypoints lie outside the walkable area for agent_radius={opts.agent_radius} "
            f"and get no automatic links: {shown}" + (" ..." if blocked_designer.size > 5 else ""),
            NavmeshWarning,
            stacklevel=3,
        )
    points = np.concatenate([designer, extra]) if len(extra) else np.array(designer, dtype=np.float64)
    if points.ndim != 2 or len(points) == 0:
        points = points.reshape(-1, dim)
    n = len(points)
    p2 = np.ascontiguousarray(points[:, :2])

    # Floors and KD-trees.
    if dim == 3 and n:
        zs, floors = np.unique(points[:, 2], return_inverse=True)
        floors = floors.reshape(-1).astype(np.int64)
    else:
        zs, floors = np.array([0.0]), np.zeros(n, dtype=np.int64)
    trees: dict[float, tuple[cKDTree, NDArray[np.int64]]] = {}
    if cache is not None and cache.trees is not None and np.array_equal(cache.points, points):
        trees = cache.trees  # the same waypoints: the same trees
    else:
        for f, z in enumerate(zs.tolist()):
            ids = np.flatnonzero(floors == f).astype(np.int64)
            trees[float(z)] = (cKDTree(p2[ids]) if len(ids) else cKDTree(np.zeros((0, 2))), ids)

    # LOS answers: reuse the cache, compute the rest in bulk.
    if cache is not None:
        los_keys, ok = _remap_keys(cache.los_keys, cache.points, points)
        los_free = cache.los_free[ok]
        order = np.argsort(los_keys, kind="stable")
        los_keys, los_free = los_keys[order], los_free[order]
    else:
        los_keys, los_free = np.zeros(0, np.int64), np.zeros(0, bool)

    def los_for(keys: NDArray[np.int64]) -> NDArray[np.bool_]:
        """LOS for sorted unique keys, from the cache or computed now (and remembered)."""
        nonlocal los_keys, los_free
        at = _lookup(keys, los_keys)
        out = np.zeros(len(keys), dtype=bool)
        out[at >= 0] = los_free[at[at >= 0]]
        todo = np.flatnonzero(at < 0)
        if todo.size:
            a, b = keys[todo] // n, keys[todo] % n
            out[todo] = _visible(opts.visibility, los, walls, p2[a], p2[b])
            # the new keys are sorted and absent from los_keys: inserting keeps it sorted
            where = np.searchsorted(los_keys, keys[todo])
            los_keys = np.insert(los_keys, where, keys[todo])
            los_free = np.insert(los_free, where, out[todo])
        return out

    blocked_all = np.zeros(n, dtype=bool)
    blocked_all[blocked_designer] = True
    same_points = cache is not None and cache.candidates is not None and np.array_equal(cache.points, points)
    chosen = None
    # a cache of the same waypoints and links lets the linking and the arcs change row by row
    reuse = same_points and cache.chosen is not None and cache.links == (level.links, level.offmesh_links)
    old_pairs = cache.pairs if reuse else np.zeros(0, np.int64)
    gone = np.zeros(0, np.int64)
    if opts.k is None:
        # every pair of a floor (within max_distance): the visibility graph
        if same_points:
            pair_list = cache.candidates
        else:
            chunks = []
            for z, (tree, ids) in trees.items():
                if len(ids) < 2:
                    continue
                if opts.max_distance is None:
                    iu, ju = np.triu_indices(len(ids), 1)
                else:
                    pr = tree.query_pairs(opts.max_distance, output_type="ndarray")
                    iu, ju = pr[:, 0], pr[:, 1]
                chunks.append(_pair_keys(ids[iu], ids[ju], n))
            pair_list = np.sort(np.concatenate(chunks)) if chunks else np.zeros(0, np.int64)
        candidates = pair_list
        added = pair_list[los_for(pair_list)]
    else:
        # the k nearest visible waypoints among the max_candidates nearest, tested in stages
        cand = None
        if same_points:
            cand = cache.candidates
        elif cache is not None and cache.candidates is not None and cache.candidates.ndim == 2 and len(trees) == 1:
            cand = _updated_table(cache, points, p2, trees, opts)
        if cand is None:
            cand = np.full((n, opts.widened_k), -1, dtype=np.int64)
            for z, (tree, ids) in trees.items():
                if len(ids) < 2:
                    continue
                local = _query_candidates(tree, p2[ids], opts.widened_k, opts.max_distance, self_ids=np.arange(len(ids)))
                cand[ids, : local.shape[1]] = np.where(local >= 0, ids[np.maximum(local, 0)], -1)
        candidates = cand
        rows, before = np.arange(n), np.zeros(cand.shape, dtype=bool)
        if reuse:
            # only waypoints that tested a pair whose answer was dropped, or whose blocked flag
            # changed, can link differently
            stale = cache.stale
            changed = np.flatnonzero(blocked_all != cache.row_blocked)
            rows = _unique_keys(np.concatenate([stale // n, stale % n, changed]))
            before = cache.chosen
        chosen = before.copy()
        chosen[rows] = _nearest_visible(cand, opts.k, blocked_all, los_for, n, rows)
        gone, added = _changed_pairs(cand, before, chosen, rows, old_pairs, n)

    # Arcs: automatic pairs both ways, then manual and off-mesh links (few: a Python loop is fine).
    names: dict[str, int] = {"": 0}
    remove: set[int] = set()
    x_src, x_dst, x_kind, x_name, x_cost = [], [], [], [], []
    for lk in level.links:
        remove.add(lk.a * n + lk.b)
        remove.add(lk.b * n + lk.a)
        if lk.kind == "forbidden":
            continue
        ends = [(lk.a, lk.b), (lk.b, lk.a)] if lk.kind == "forced" else [(lk.a, lk.b)]
        for a, b in ends:
            x_src.append(a)
            x_dst.append(b)
            x_kind.append(ARC_LINK)
            x_name.append(encode_arc_tag(lk.tag, lk.requires))
            x_cost.append(np.nan)
    for lk in level.offmesh_links:
        ends = [(lk.a, lk.b), (lk.b, lk.a)] if lk.bidirectional else [(lk.a, lk.b)]
        for a, b in ends:
            x_src.append(a)
            x_dst.append(b)
            x_kind.append(ARC_OFFMESH)
            x_name.append(encode_arc_tag(lk.tag, lk.requires))
            x_cost.append(lk.cost)
    for name in sorted(set(x_name) - {""}):
        names[name] = len(names)
    tag_names = tuple(names)
    if reuse:
        base = cache.arcs
    else:
        x_src_a, x_dst_a = np.asarray(x_src, np.int64), np.asarray(x_dst, np.int64)
        x_kind_a, x_tag = np.asarray(x_kind, np.int8), np.asarray([names[t] for t in x_name], np.int32)
        x_len = np.asarray(x_cost, np.float64)
        x_len[x_kind_a != ARC_OFFMESH] = _distances(points, x_src_a, x_dst_a)[x_kind_a != ARC_OFFMESH]
        order = np.lexsort((x_tag, x_kind_a, x_dst_a, x_src_a))
        base = _Arcs(x_src_a[order], x_dst_a[order], x_kind_a[order], x_tag[order], x_len[order])
    overridden = np.sort(np.fromiter(remove, np.int64, count=len(remove)))
    arcs = _splice_arcs(base, gone, added, overridden, points, n)
    pairs = _merge_keys(old_pairs, gone, added)
    src_all, dst_all, kind_all, tag_ids, lengths = arcs.src, arcs.dst, arcs.kind, arcs.tag, arcs.length

    # Terrain lengths per walking arc, by unordered pair (reused from the cache when allowed).
    layer = level.terrain_layer()
    ter_names = layer.tag_names
    if len(ter_names):
        walk = kind_all != ARC_OFFMESH
        ter_keys = _unique_keys(_pair_keys(src_all[walk], dst_all[walk], n))
    else:
        ter_keys = np.zeros(0, np.int64)
    ter_rows = scipy.sparse.csr_array((len(ter_keys), len(ter_names)), dtype=np.float64)
    if len(ter_names) and len(ter_keys):
        have = np.full(len(ter_keys), -1, np.int64)
        old_rows = None
        if cache is not None and len(cache.ter_keys):
            ck, ok = _remap_keys(cache.ter_keys, cache.points, points)
            srt = np.argsort(ck, kind="stable")
            ck = ck[srt]
            old_rows = _recolumn(cache.ter_rows[np.flatnonzero(ok)[srt]], cache.ter_names, ter_names)
            have = _lookup(ter_keys, ck)
        todo = np.flatnonzero(have < 0)
        parts_rows = np.empty(len(ter_keys), dtype=np.int64)
        blocks = []
        if old_rows is not None and (have >= 0).any():
            blocks.append(old_rows[have[have >= 0]])
        if todo.size:
            a, b = ter_keys[todo] // n, ter_keys[todo] % n
            blocks.append(layer.lengths(p2[a], p2[b]).lengths)
        stacked = scipy.sparse.vstack(blocks, format="csr") if len(blocks) > 1 else scipy.sparse.csr_array(blocks[0])
        reused = np.flatnonzero(have >= 0)
        parts_rows[reused] = np.arange(len(reused))
        parts_rows[todo] = len(reused) + np.arange(len(todo))
        ter_rows = scipy.sparse.csr_array(stacked[parts_rows])
    arc_rows = scipy.sparse.csr_array((len(src_all), len(ter_names)), dtype=np.float64)
    if len(ter_names) and len(src_all):
        walk = np.flatnonzero(kind_all != ARC_OFFMESH)
        pick = _lookup(_pair_keys(src_all[walk], dst_all[walk], n), ter_keys)
        sel = scipy.sparse.csr_array(
            (np.ones(len(walk)), (walk, pick)), shape=(len(src_all), len(ter_keys))
        )
        arc_rows = scipy.sparse.csr_array(sel @ ter_rows)
        arc_rows.sort_indices()

    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src_all, minlength=n), out=indptr[1:])
    graph = NavGraph(points, indptr, dst_all, lengths, tag_ids, tag_names)
    blocked_nodes = np.flatnonzero(blocked_all).astype(np.int32)
    new_cache = _Cache(points, los_keys, los_free, ter_keys, ter_rows, ter_names, candidates,
                       designer=designer_checked, blocked=designer_blocked, chosen=chosen, row_blocked=blocked_all,
                       pairs=pairs, arcs=arcs, links=(level.links, level.offmesh_links), trees=trees)
    return WaypointGraph(
        level=level, options=opts, graph=graph, n_generated=len(extra), line_of_sight=los, walkable=free,
        terrain=TerrainLengths(ter_names, arc_rows), arc_kinds=kind_all.astype(np.int8),
        blocked_waypoints=blocked_nodes, floors=floors, trees=trees, cache=new_cache,
    )


def _recolumn(rows: scipy.sparse.csr_array, old: tuple[str, ...], new: tuple[str, ...]) -> scipy.sparse.csr_array:
    if old == new:
        return scipy.sparse.csr_array(rows)
    coo = scipy.sparse.coo_array(rows)
    where = {t: j for j, t in enumerate(new)}
    col_map = np.array([where.get(t, -1) for t in old], dtype=np.int64)
    cols = col_map[coo.col] if len(coo.col) else coo.col
    keep = cols >= 0
    return scipy.sparse.csr_array((coo.data[keep], (coo.row[keep], cols[keep])), shape=(rows.shape[0], len(new)))


def _apply_blocked_policy(level: Level, blocked: NDArray[np.int64], opts: BuildOptions) -> Level:
    pts = level.waypoints
    lines = [f"waypoints[{i}]={pts[i].tolist()}" for i in blocked[:5]]
    rule = (
        f"lies outside the walkable area for agent_radius={opts.agent_radius} (inside an inflated obstacle "
        "or too close to the bounds)"
    )
    if opts.on_blocked_waypoint == "error":
        raise InvalidGeometryError(
            f"{lines[0]} {rule}; move it, or pass on_blocked_waypoint='warn' or 'drop'"
            + (f" ({len(blocked) - 1} more)" if len(blocked) > 1 else "")
        )
    keep = np.ones(len(pts), dtype=bool)
    keep[blocked] = False
    new_id = np.cumsum(keep) - 1
    links = [lk for lk in level.links if keep[lk.a] and keep[lk.b]]
    offmesh = [lk for lk in level.offmesh_links if keep[lk.a] and keep[lk.b]]
    links = [dataclasses.replace(lk, a=int(new_id[lk.a]), b=int(new_id[lk.b])) for lk in links]
    offmesh = [dataclasses.replace(lk, a=int(new_id[lk.a]), b=int(new_id[lk.b])) for lk in offmesh]
    warnings.warn(
        f"dropped {len(blocked)} waypoints that {rule}: {', '.join(lines)}" + (" ..." if len(blocked) > 5 else ""),
        NavmeshWarning,
        stacklevel=4,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        return level.replace(waypoints=pts[keep], links=tuple(links), offmesh_links=tuple(offmesh), on_bad_waypoint="warn")


# -- diagnostics -------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Diagnostics:
    """What may be wrong with a waypoint graph, for designers.

    Attributes
    ----------
    n_islands : int
        Weakly connected components (ignoring arc direction).
    components : int32 array (n,)
        Island label per node.
    isolated : int32 array
        Nodes without any arc.
    unreachable : int32 array
        Nodes that ``origin`` cannot reach (empty without an origin).
    sinks : int32 array
        Nodes with arcs in but none out (one-way links leading into a dead end).
    sources : int32 array
        Nodes with arcs out but none in.
    one_way_traps : int32 array
        Nodes from which some node of their island cannot be reached back (their strongly
        connected component is smaller than their island).
    blocked : int32 array
        Waypoints outside the walkable area for the agent radius (inside inflated obstacles).
    """

    n_islands: int
    components: NDArray[np.int32]
    isolated: NDArray[np.int32]
    unreachable: NDArray[np.int32]
    sinks: NDArray[np.int32]
    sources: NDArray[np.int32]
    one_way_traps: NDArray[np.int32]
    blocked: NDArray[np.int32]

    @property
    def ok(self) -> bool:
        """True when the graph is one island with no isolated, trapped or blocked waypoint."""
        return (
            self.n_islands <= 1 and not len(self.isolated) and not len(self.unreachable) and not len(self.sinks)
            and not len(self.sources) and not len(self.one_way_traps) and not len(self.blocked)
        )


def diagnose(nav: WaypointGraph, *, origin: int | None = None) -> Diagnostics:
    """Islands, isolated and unreachable waypoints, one-way sinks and sources, blocked waypoints.

    Parameters
    ----------
    nav : WaypointGraph
    origin : int, optional
        A node (e.g. the player's spawn): report the nodes it cannot reach.

    Returns
    -------
    Diagnostics

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 10), (4, 10)]],
    ...                         waypoints=[[1, 1], [1, 9], [9, 5]])
    >>> d = diagnose(build_waypoint_graph(level), origin=0)
    >>> d.n_islands, d.isolated.tolist(), d.unreachable.tolist()
    (2, [2], [2])
    """
    if not isinstance(nav, WaypointGraph):
        raise InvalidOptionError(f"nav={describe(nav)} is not a WaypointGraph")
    report = connectivity_report(nav.graph, origin)
    weak = report.components
    strong = report.strong_components
    weak_size = np.bincount(weak, minlength=max(int(weak.max()) + 1, 1)) if len(weak) else np.zeros(0, int)
    strong_size = np.bincount(strong, minlength=max(int(strong.max()) + 1, 1)) if len(strong) else np.zeros(0, int)
    traps = np.flatnonzero(strong_size[strong] < weak_size[weak]).astype(np.int32) if len(weak) else np.zeros(0, np.int32)
    return Diagnostics(
        n_islands=report.n_islands,
        components=weak,
        isolated=report.isolated,
        unreachable=report.unreachable,
        sinks=report.sinks,
        sources=report.sources,
        one_way_traps=traps,
        blocked=nav.blocked_waypoints,
    )
