"""`NavMap`: the immutable output of a waypoint-graph build, with its local updates."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from navmesh._checks import MAX_COORDINATE, as_float_array
from navmesh._kernels import los as LK
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshWarning,
    NodeNotFoundError,
    describe,
)
from navmesh.forbidden import forbidden_area
from navmesh.geometry import as_polygon, segment_lines
from navmesh.sight import LineOfSight
from navmesh.graph import EdgeWeights, NavGraph
from navmesh.level import Level
from navmesh.danger import DangerZone, add_danger
from navmesh.terrain import (
    CostProfile,
    TerrainLengths,
    TerrainRegion,
)
from navmesh.waypoints.linking import query_candidates, visible_pairs, wall_grid_for
from navmesh.waypoints.options import ARC_OFFMESH, BuildOptions
from navmesh.waypoints.placement import free_space

if TYPE_CHECKING:
    from navmesh.waypoints.incremental import BuildCache

__all__ = ["NavMap"]




class NavMap:
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
    walkable_region : shapely geometry
        The walkable region W for the agent radius (eroded bounds minus inflated obstacles).
    terrain : TerrainLengths
        Length of each arc inside each terrain tag, csr of shape (n_edges, T); zero rows for
        off-mesh arcs.
    arc_kinds : int8 array of shape (n_edges,)
        0: automatic link, 1: manual forced / one-way link, 2: off-mesh link.
    blocked_waypoints : int32 array
        Waypoints outside W (inside an inflated obstacle or outside the eroded bounds): they get
        no automatic links.
    corner_edges : (float array (n, 4), bool array (n,)) or None
        ``linking="cones"`` only: the directions of the two boundary edges at each generated
        corner waypoint, and which nodes have them (the taut-link rule; positions joining the
        graph use it too).
    """

    def __init__(self, *, level: Level, options: BuildOptions, graph: NavGraph, n_generated: int,
                 line_of_sight: LineOfSight, walkable_region: shapely.Geometry | None, terrain: TerrainLengths,
                 arc_kinds: NDArray[np.int8], blocked_waypoints: NDArray[np.int32], floors: NDArray[np.int64],
                 trees: dict[float, tuple[cKDTree, NDArray[np.int64]]], cache: BuildCache,
                 corner_edges: tuple[NDArray[np.float64], NDArray[np.bool_]] | None = None,
                 rebuild: Callable[[NavMap, Level], NavMap]) -> None:
        self.level = level
        self.options = options
        self.graph = graph
        self.n_generated = n_generated
        self.line_of_sight = line_of_sight
        self._walkable_region = walkable_region
        self.terrain = terrain
        arc_kinds.flags.writeable = False
        self.arc_kinds = arc_kinds
        blocked_waypoints.flags.writeable = False
        self.blocked_waypoints = blocked_waypoints
        self._floors = floors  # floor id per node (index into sorted unique z), all 0 in 2-D
        self._trees = trees  # z value -> (KD-tree over that floor's (x, y), node ids)
        self.build_cache = cache
        self.corner_edges = corner_edges
        # the builder's update (navmesh.waypoints.build.update), handed in so that this module
        # never imports the builder, which imports it
        self._rebuild = rebuild
        # derived geometry of the map itself, built on first use (per-unit-type data lives in NavQuery)
        self._walls: LK.WallGrid | None = None
        self._barriers: NDArray[np.float64] | None = None
        self._body_zones: dict[CostProfile, shapely.Geometry | None] = {}

    # -- shape ----------------------------------------------------------------------------------
    @property
    def walkable_region(self) -> shapely.Geometry:
        """The walkable region W for the agent radius (computed on first use)."""
        if self._walkable_region is None:
            self._walkable_region = free_space(self.line_of_sight)
        return self._walkable_region

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
            f"NavMap(n_nodes={self.n_nodes}, n_edges={self.graph.n_edges}, generated={self.n_generated}, "
            f"k={self.options.k}, agent_radius={self.options.agent_radius})"
        )

    # -- costs ----------------------------------------------------------------------------------
    def weights(self, profile: CostProfile | None = None, *, danger: Iterable[DangerZone] = ()) -> EdgeWeights:
        """Arc weights for a unit type (computed on each call: :class:`NavQuery` keeps them).

        Parameters
        ----------
        profile : CostProfile, optional
            Terrain multipliers, forbidden tags and capabilities. Default: ``CostProfile()``
            (every tag x1, nothing forbidden, no capabilities: gated arcs are closed).
        danger : iterable of DangerZone
            Runtime extra costs (e.g. near an enemy tower).

        Returns
        -------
        EdgeWeights
            ``inf`` for arcs the unit may not use.

        Examples
        --------

        >>> from navmesh import Level, build_waypoint_graph
        >>> level = Level.rectangle(10, 10, waypoints=[[1, 1], [9, 1]],
        ...                         terrain=[([(4, 0), (6, 0), (6, 2), (4, 2)], "swamp")])
        >>> nav = build_waypoint_graph(level)
        >>> nav.weights(CostProfile("tank", {"swamp": 3.0})).values.tolist()
        [12.0, 12.0]
        """
        prof = check_profile(profile)
        zones = check_danger(danger)
        values = prof.arc_weights(
            self.graph.lengths, self.terrain.lengths, self.terrain.tag_names, self.graph.tags, self.graph.tag_names
        )
        body = self.body_zone(prof)
        if body is not None:
            walk = np.flatnonzero((self.arc_kinds != ARC_OFFMESH) & np.isfinite(values))
            p2 = self.points[:, :2]
            values[walk[_enters(body, p2[self.graph.arc_sources[walk]], p2[self.graph.indices[walk]])]] = np.inf
        return self.graph.weights(self.arc_danger(values, zones) if zones else values)

    def arc_danger(self, values: NDArray[np.float64], zones: Sequence[DangerZone]) -> NDArray[np.float64]:
        """Arc weights ``values`` (n_edges,) raised by danger zones on walking arcs (a new array)."""
        out = np.array(values, dtype=np.float64)
        if not zones:
            return out
        a = self.points[self.graph.arc_sources]
        b = self.points[self.graph.indices]
        walk = self.arc_kinds != ARC_OFFMESH
        out[walk] = add_danger(out[walk], a[walk, :2], b[walk, :2], zones)
        return out

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
        prof = check_profile(profile)
        zones = check_danger(danger)
        pa = np.atleast_2d(np.asarray(a, dtype=np.float64))
        pb = np.atleast_2d(np.asarray(b, dtype=np.float64))
        lengths = np.sqrt(((pb - pa) ** 2).sum(axis=1))
        names, tl = self.level.terrain_layer().lengths(pa[:, :2], pb[:, :2])
        w = prof.segment_weights(lengths, tl, names)
        body = self.body_zone(prof)
        if body is not None:
            w[_enters(body, pa[:, :2], pb[:, :2])] = np.inf
        if zones:
            w = add_danger(w, pa[:, :2], pb[:, :2], zones)
        return w

    def point_multipliers(self, points: ArrayLike, profile: CostProfile | None = None) -> NDArray[np.float64]:
        """Terrain multiplier at each point for ``profile`` (painter's rule); ``inf`` in forbidden
        terrain and, for an agent radius > 0, within that radius of it (:meth:`body_zone`)."""
        prof = check_profile(profile)
        pts = np.asarray(points, dtype=np.float64)
        tags = self.level.terrain_layer().tag_at(pts)
        names, index = np.unique(np.asarray(tags, dtype=str), return_inverse=True)
        mult = prof.tag_multipliers(names.tolist())[index.reshape(-1)]
        body = self.body_zone(prof)
        if body is not None and len(pts):
            p2 = pts.reshape(-1, pts.shape[-1])
            mult[shapely.contains_xy(body, p2[:, 0], p2[:, 1])] = np.inf
        return mult

    def body_zone(self, profile: CostProfile | None) -> shapely.Geometry | None:
        """Where this map's agent may not put its centre for ``profile``: the terrain the profile
        forbids, grown by ``agent_radius`` so that the whole body stays out
        (:func:`~navmesh.forbidden.forbidden_area` with ``body=True``, prepared; cached per profile).

        Arcs, joins and shortcuts that run inside it are closed (:meth:`weights`,
        :meth:`straight_costs`), and a start or goal inside it is moved out as one inside a wall.
        None when nothing is forbidden or the agent radius is 0 (terrain is then judged at the centre).
        """
        prof = check_profile(profile)
        if not self.options.agent_radius or not prof.forbidden or not self.level.terrain:
            return None
        if prof not in self._body_zones:
            zone = forbidden_area(self, prof, self.options.agent_radius, body=True)
            if zone is not None:
                shapely.prepare(zone)
            self._body_zones[prof] = zone
        return self._body_zones[prof]

    # -- visibility -----------------------------------------------------------------------------
    def visible(self, a: ArrayLike, b: ArrayLike) -> NDArray[np.bool_]:
        """Line of sight for each segment ``a[i] -> b[i]`` with this graph's visibility backend."""
        pa = np.atleast_2d(np.asarray(a, dtype=np.float64))[:, :2]
        pb = np.atleast_2d(np.asarray(b, dtype=np.float64))[:, :2]
        return visible_pairs(self.options.visibility, self.line_of_sight, self.walls, pa, pb)

    @property
    def walls(self) -> LK.WallGrid:
        """W's boundary edges bucketed for the numba line-of-sight kernel (built on first use)."""
        if self._walls is None:
            self._walls = wall_grid_for(self.line_of_sight)
        return self._walls

    def barrier_segments(self, danger: Sequence[DangerZone] = (), profile: CostProfile | None = None) -> NDArray[np.float64]:
        """Segments (m, 4) a straight shortcut may not touch: terrain region boundaries, manual and
        off-mesh link segments, forbidden link segments, squares around danger zones, and the
        outline of ``profile``'s :meth:`body_zone`."""
        if self._barriers is None:
            segs = _ring_segments([region.polygon for region in self.level.terrain])
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
        body = None if profile is None else self.body_zone(profile)
        if body is not None:
            out.extend(_ring_segments(shapely.get_parts(body)))
        return np.concatenate(out)

    def walls_extent(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the level bounds."""
        x0, y0, x1, y1 = self.level.bounds.bounds
        return (x0, y0, x1, y1)

    # -- candidates for arbitrary positions ---------------------------------------------------
    def visible_waypoints(self, point: ArrayLike) -> NDArray[np.int32]:
        """Waypoints a position would link to by the k-nearest linking rule, nearest first.

        The same rule as between waypoints: the ``k`` nearest visible waypoints on the position's
        floor among its ``max_candidates`` nearest (within ``max_distance``); with ``k=None``
        every visible waypoint within ``max_distance``. Path queries join positions by the wider
        rule of :class:`~navmesh.waypoints.query.NavQuery` (every visible waypoint among the
        nearest 100, looking on until one is visible).

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
        cand = query_candidates(tree, p[None, :2], width, opts.max_distance)[0]
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
        p = as_float_array(name, point, InvalidGeometryError).reshape(-1)
        if p.shape[0] not in (2, 3) or not (np.abs(p) <= MAX_COORDINATE).all():
            raise InvalidGeometryError(
                f"{name}={describe(point)} is not valid; expected 2 or 3 finite coordinates within +-{MAX_COORDINATE:g}"
            )
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

    @property
    def floor_values(self) -> tuple[float, ...]:
        """The z value of each floor, ascending (one floor, z = 0.0, on a 2-D level)."""
        return tuple(sorted(self._trees))

    def floor_tree(self, z: float) -> tuple[cKDTree, NDArray[np.int64]]:
        """(KD-tree over the (x, y) of the nodes on floor ``z``, their node ids)."""
        return self._trees[float(z)]

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
    def update(self, level: Level) -> NavMap:
        """The graph of a changed level, reusing every answer the change cannot affect.

        Line-of-sight answers are reused for segments that do not meet an added or removed
        obstacle (inflated by the agent radius); terrain breakdowns for segments that do not meet
        a changed terrain region (or a region overlapping one); nearest-candidate lists for
        waypoints that no added or removed waypoint can affect. Generated waypoints, the linking
        stages and manual links are recomputed from those, so the result equals
        ``build_waypoint_graph(level, **options)`` (tested exactly). A change of bounds reuses
        nothing. Node ids of the level's own waypoints stay the same; generated ones may shift.

        The cost follows the change: when the waypoints differ from the old ones in one run of
        rows (one moved, added or removed, as an editor's drag step makes them), the old node
        ids are mapped to the new ones from that run alone and the cached answers keep their
        sorted order; a level made by ``Level.replace`` with the same bounds and obstacles shares
        the old level's line-of-sight tester.

        Parameters
        ----------
        level : Level
            The changed level.

        Returns
        -------
        NavMap
        """
        return self._rebuild(self, level)

    def _changed_level(self, **changes: Any) -> Level:
        """The level with ``changes``. A waypoint that a new obstacle covers lies outside the
        walkable area, so the map's own ``on_blocked_waypoint`` policy (applied by the update)
        handles it: Level's check for waypoints inside obstacles (``on_bad_waypoint``) stays out
        of the way, so one waypoint in a wall meets one policy and gets one warning."""
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"\d+ bad waypoints kept", category=NavmeshWarning)
            return self.level.replace(on_bad_waypoint="warn", **changes)

    def with_obstacle(self, polygon: Any) -> NavMap:
        """The graph after adding an obstacle (e.g. a door closing); see :meth:`update`.

        Examples
        --------

        >>> from navmesh import Level, build_waypoint_graph
        >>> level = Level.rectangle(10, 10, waypoints=[[1, 5], [9, 5]])
        >>> nav = build_waypoint_graph(level)
        >>> nav.graph.n_edges, nav.with_obstacle([(4, 0), (6, 0), (6, 10), (4, 10)]).graph.n_edges
        (2, 0)
        """
        poly = as_polygon(polygon, name="polygon")
        return self.update(self._changed_level(obstacles=(*self.level.obstacles, poly)))

    def without_obstacle(self, index: int) -> NavMap:
        """The graph after removing ``level.obstacles[index]`` (a door opening); see :meth:`update`."""
        n = len(self.level.obstacles)
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not -n <= index < n:
            raise InvalidOptionError(f"index={describe(index)} is not valid; the level has obstacles 0..{n - 1}")
        obstacles = list(self.level.obstacles)
        del obstacles[int(index)]
        return self.update(self._changed_level(obstacles=tuple(obstacles)))

    def with_terrain(self, terrain: Sequence[TerrainRegion | tuple[Any, str]]) -> NavMap:
        """The graph after replacing the terrain regions (painter's order); see :meth:`update`."""
        return self.update(self._changed_level(terrain=tuple(terrain)))


def check_profile(profile: CostProfile | None) -> CostProfile:
    if profile is None:
        return DEFAULT_PROFILE
    if not isinstance(profile, CostProfile):
        raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
    return profile


def check_danger(danger: Iterable[DangerZone]) -> tuple[DangerZone, ...]:
    if isinstance(danger, DangerZone):
        return (danger,)
    try:
        zones = tuple(danger)
    except TypeError:
        raise InvalidOptionError(f"danger={describe(danger)} is not a sequence of DangerZone") from None
    for z in zones:
        if not isinstance(z, DangerZone):
            raise InvalidOptionError(f"danger holds {describe(z)}; expected DangerZone objects")
    return zones


DEFAULT_PROFILE = CostProfile()


def _enters(zone: shapely.Geometry, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which segments ``a[i] -> b[i]`` run inside ``zone`` for more than rounding noise (1e-9 of
    their length, or of 1): touching its outline or running along it does not count."""
    out = np.zeros(len(a), dtype=bool)
    if len(a) == 0:
        return out
    lines = segment_lines(a, b)
    hit = np.flatnonzero(shapely.intersects(zone, lines))
    if hit.size:
        edge = shapely.length(shapely.intersection(lines[hit], shapely.boundary(zone)))
        inside = shapely.length(shapely.intersection(lines[hit], zone)) - edge
        length = np.sqrt(((b[hit] - a[hit]) ** 2).sum(axis=1))
        out[hit] = inside > 1e-9 * np.maximum(length, 1.0)
    return out


def _ring_segments(polygons: Iterable[shapely.Polygon]) -> list[NDArray[np.float64]]:
    """The edges ``x0, y0, x1, y1`` of every ring of ``polygons``, one (m, 4) array per ring."""
    out = []
    for poly in polygons:
        for ring in [poly.exterior, *poly.interiors]:
            c = np.asarray(ring.coords)[:, :2]
            out.append(np.column_stack([c[:-1], c[1:]]))
    return out
