"""Joining positions to a waypoint graph: checking, moving (projection) and linking start/goal positions.

:class:`Endpoints` is made once per :class:`~navmesh.waypoints.query.NavQuery`. It holds the rows
the kernels read for every node and for the two ends of the query being run (``xy``, ``floor``,
``table``: n + 2 rows, the last two the start and the goal), and per floor the waypoints bucketed
for the join kernel. The joining rule and the endpoint policy:

Joining positions to the graph
------------------------------
A start or goal position joins every waypoint on its floor that it sees among its ``JOIN_NEAREST``
nearest (100); when it sees none of them, it joins every waypoint it sees on its floor, however
far (the nearest one it sees may sit on a graph island that leads nowhere), so a position says
"no path" only when no path exists. On a map built with ``linking="cones"`` it also joins, by
the links' own rule, the nearest visible waypoint in each cone (taut at the waypoint), looking at
up to ``JOIN_CONE_CANDIDATES`` (200) waypoints. On a ``k=None`` map (the full visibility graph)
it joins every waypoint it sees. Each join costs the straight walk there under the unit's
:class:`~navmesh.terrain.CostProfile`. When the goal is in sight of the start, the straight walk
is a candidate too, and it is returned whenever the search finds nothing cheaper, nothing at all,
or runs out of budget. Visibility in queries always uses the numba line-of-sight kernel (the rule
the shapely backend implements), whatever backend built the map.

Endpoints off the walkable area
-------------------------------
The library's one endpoint policy (the same for grids, the ``navmesh path`` command and level
files): a start or goal that is not walkable (inside an obstacle inflated by the agent radius,
or inside the bounds but outside the area eroded by the radius) moves to the nearest walkable
point and the path says so (``Path.start_moved`` / ``goal_moved``); ``strict=True`` raises
:class:`~navmesh.errors.NodeNotFoundError` instead, naming the point and how far the nearest
walkable point is. A position within :data:`~navmesh.endpoints.ENDPOINT_TOLERANCE` (1e-9) times
the level's size of the walkable area counts as walkable, also under ``strict``: points the
library produced (path corners, positions along legs, where a follower or crowd unit stands) may
lie a few ulps outside the inflated walls, and they are always valid endpoints. A position
farther outside the level's bounds than :data:`~navmesh.endpoints.BOUNDS_MARGIN` (5%) of its size
is an error either way, never a silent move across the map.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COORDINATE, as_float_array
from navmesh._kernels import anyangle as AK
from navmesh._kernels import los as LK
from navmesh.errors import InvalidGeometryError, NodeNotFoundError, describe
from navmesh.endpoints import BOUNDS_MARGIN, endpoint_tolerance, level_size, nearest_walkable
from navmesh.waypoints.costs import CostRules, Rules
from navmesh.waypoints.navmap import NavMap

__all__ = ["JOIN_CONE_CANDIDATES", "JOIN_NEAREST", "Endpoints", "Ends", "FloorJoin"]

JOIN_NEAREST = 100  # nearest waypoints a position tests before it looks at every one
JOIN_CONE_CANDIDATES = 200  # on cone maps, how far (in candidates) a position's cone search looks


@dataclass(frozen=True, eq=False)
class FloorJoin:
    """One floor's waypoints as :func:`navmesh._kernels.anyangle.join_positions` takes them.

    ``ids`` are the node ids of the floor's waypoints; ``points`` their (x, y); ``blocked`` marks
    waypoints outside the walkable area (never joined); ``dirs``/``has`` the corner edges of the
    cone rule; ``near`` how many nearest ones a position tests first; ``grid`` the bucket grid
    (3 arrays) and ``scratch`` the kernel's 5 scratch arrays.
    """

    ids: NDArray[np.int64]
    points: NDArray[np.float64]
    blocked: NDArray[np.bool_]
    dirs: NDArray[np.float64]
    has: NDArray[np.bool_]
    near: int
    grid: tuple
    scratch: tuple

    @property
    def kernel_arrays(self) -> tuple:
        """The 13 arrays :func:`navmesh._kernels.anyangle.solve_batch` takes as ``joins``."""
        return (self.ids, self.points, self.blocked, self.dirs, self.has, *self.grid, *self.scratch)


@dataclass(frozen=True, eq=False)
class Ends:
    """m start/goal pairs joined to the graph (rows are pairs; entries/exits in CSR form)."""

    starts: NDArray[np.float64]
    goals: NDArray[np.float64]
    start_moved: NDArray[np.bool_]
    goal_moved: NDArray[np.bool_]
    xy: NDArray[np.float64]  # (m, 4): sx, sy, gx, gy
    mult: NDArray[np.float64]  # (m, 2)
    floor: NDArray[np.int64]  # (m, 2)
    entry_ptr: NDArray[np.int64]
    entry_nodes: NDArray[np.int32]
    entry_costs: NDArray[np.float64]
    exit_ptr: NDArray[np.int64]
    exit_nodes: NDArray[np.int32]
    exit_costs: NDArray[np.float64]
    direct: NDArray[np.float64]
    bound: NDArray[np.float64]


class Endpoints:
    """Positions checked, moved onto the walkable area and joined to one map's graph.

    Parameters
    ----------
    nav : NavMap
    costs : CostRules
        The unit type's cost rules (join costs, the end rows' multipliers).
    """

    def __init__(self, nav: NavMap, costs: CostRules) -> None:
        self.navmap = nav
        self.costs = costs
        n = self.n_nodes = nav.graph.n_nodes
        self.xy = np.zeros((n + 2, 2))
        self.xy[:n] = nav.points[:, :2]
        self.floor = np.zeros(n + 2, np.int64)
        self.floor[:n] = nav.floor_ids()
        self.table = np.zeros((n + 2, nav.points.shape[1]))  # rows of returned points
        self.table[:n] = nav.points
        usable = np.ones(n, bool)  # waypoints inside W: seeing one proves a position walkable
        usable[nav.blocked_waypoints] = False
        self.body = nav.body_zone(costs.profile)  # where this unit type's centre may not stand
        self._region: shapely.Geometry | None = None
        self.walls = costs.walls
        opts = nav.options
        corner = nav.corner_edges
        dirs, has = corner if corner is not None else (np.zeros((n, 4)), np.zeros(n, bool))
        self.join_k = opts.k if corner is not None else 0
        self.cone_width = JOIN_CONE_CANDIDATES if opts.max_candidates is None else opts.max_candidates
        self.floors: list[FloorJoin] = []
        for z in nav.floor_values:
            ids = nav.floor_tree(z)[1]
            pts = np.ascontiguousarray(nav.points[ids, :2])
            m = len(ids)
            scratch = (np.zeros(max(self.join_k, 1), bool), np.empty(m), np.empty(m, np.int64), np.empty(m),
                       np.empty(m, np.int64))
            self.floors.append(FloorJoin(np.ascontiguousarray(ids, np.int64), pts, ~usable[ids],
                                         np.ascontiguousarray(dirs[ids]), has[ids],
                                         JOIN_NEAREST if opts.k is not None else m, AK.bucket_grid(pts)[:3], scratch))

    # -- positions ------------------------------------------------------------------------------
    def positions(self, name: str, points: ArrayLike) -> NDArray[np.float64]:
        """Positions as rows like the map's points (m, d), validated in bulk."""
        nav = self.navmap
        p = np.array(as_float_array(name, points, InvalidGeometryError), ndmin=2)
        if p.ndim != 2 or p.shape[1] not in (2, 3) or not np.isfinite(p).all():
            raise InvalidGeometryError(f"{name}={describe(points)} is not valid; expected rows of 2 or 3 finite coordinates")
        if np.abs(p).max(initial=0.0) > MAX_COORDINATE:
            raise InvalidGeometryError(
                f"{name}={describe(points)} is not valid; coordinates must lie within +-{MAX_COORDINATE:g} world units"
            )
        floors = nav.floor_values
        dim = nav.points.shape[1]
        if p.shape[1] == 2 and len(floors) > 1:
            raise InvalidGeometryError(f"{name}={p[0].tolist()} has no z; this level has {len(floors)} floors, give (x, y, z)")
        if dim == 3:
            if p.shape[1] == 2:
                return np.column_stack([p, np.full(len(p), floors[0])])
            off = ~np.isin(p[:, 2], floors)
            if off.any():
                raise NodeNotFoundError(f"{name}={p[off][0].tolist()} is on no floor; floors are at z in {list(floors)}")
        return np.ascontiguousarray(p[:, :dim])

    def floor_of(self, p: NDArray[np.float64]) -> NDArray[np.int64]:
        """Floor id of each position (rows from :meth:`positions`)."""
        if p.shape[1] < 3:
            return np.zeros(len(p), np.int64)
        return np.searchsorted(np.asarray(self.navmap.floor_values), p[:, 2]).astype(np.int64)

    def set_ends(self, s: NDArray[np.float64], g: NDArray[np.float64], mult: NDArray[np.float64],
                 end_mult: NDArray[np.float64], floor: tuple[int, int] = (0, 0)) -> None:
        """Write one query's start and goal into the end rows (``mult`` is the call's multipliers)."""
        n = self.n_nodes
        self.xy[n] = s[:2]
        self.xy[n + 1] = g[:2]
        self.table[n] = s
        self.table[n + 1] = g
        mult[n:] = end_mult
        self.floor[n:] = floor

    # -- joining --------------------------------------------------------------------------------
    def visible(self, p: NDArray[np.float64], floor: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int32], NDArray[np.float64]]:
        """Waypoints each position joins (see :mod:`navmesh.waypoints.query`), nearest first, in CSR
        form (ptr, node ids, distances)."""
        m = len(p)
        p2 = np.ascontiguousarray(p[:, :2])
        counts = np.zeros(m, np.int64)
        owner, found, dists = [], [], []
        for f, fj in enumerate(self.floors):
            rows = np.flatnonzero(floor == f) if len(self.floors) > 1 else np.arange(m)
            free = np.full(len(rows), -1, np.int64)  # free positions, not waypoints
            c, picked, dist = AK.join_positions(p2[rows].reshape(-1), free, fj.points, fj.blocked, fj.dirs, fj.has, self.join_k,
                                                fj.near, self.cone_width, np.inf, *fj.grid, *fj.scratch, *self.walls)
            counts[rows] = c
            owner.append(np.repeat(rows, c))
            found.append(fj.ids[picked])
            dists.append(dist)
        if len(self.floors) == 1:
            nodes, dist = found[0].astype(np.int32), dists[0]
        else:
            order = np.argsort(np.concatenate(owner), kind="stable")
            nodes = np.concatenate(found)[order].astype(np.int32)
            dist = np.concatenate(dists)[order]
        ptr = np.zeros(m + 1, np.int64)
        np.cumsum(counts, out=ptr[1:])
        return ptr, nodes, dist

    def walkable(self, pts: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether this unit type may stand at each point (n, 2): walkable for the map's agent
        radius, and outside the map's body zone for the unit's profile."""
        ok = self.navmap.line_of_sight.walkable(pts)
        if self.body is not None and len(pts):
            ok &= ~shapely.contains_xy(self.body, pts[:, 0], pts[:, 1])
        return ok

    def moved_inside(self, pts: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Nearest points to ``pts`` (n, 2) where this unit type may stand (:meth:`walkable`) and
        how far each moved (see :func:`~navmesh.endpoints.nearest_walkable`)."""
        nav = self.navmap
        if len(pts) == 0 or self.walkable(pts).all():
            return pts, np.zeros(len(pts))
        if self._region is None:  # built on first use: only when a point needs moving
            region = nav.walkable_region
            self._region = region if self.body is None else shapely.difference(region, self.body)
        region = self._region
        if region.is_empty:
            raise NodeNotFoundError(
                f"no walkable point exists for agent_radius={nav.options.agent_radius}: the obstacles "
                "(and the terrain this unit type may not enter) cover the level"
            )
        x0, y0, x1, y1 = nav.level.bounds.bounds
        try:
            return nearest_walkable(self, region, pts, size=max(1.0, x1 - x0, y1 - y0))
        except InvalidGeometryError as err:
            raise NodeNotFoundError(str(err)) from None

    def join(self, p: NDArray[np.float64], strict: bool, names: Callable[[int], str], *, outside_ok: bool = False):
        """Positions made walkable (or checked, ``strict``) and joined: (positions, moved, (ptr,
        nodes, distances), floor). Seeing a waypoint inside W proves a position walkable, so the
        shapely test runs only for positions that see none. A position within the endpoint
        tolerance of W is walkable (moved by at most that much, not reported); ``strict`` raises
        for one farther away, and so does a position farther than the bounds margin outside the
        level's bounds (unless ``outside_ok``). ``names(i)`` names row i in errors."""
        floor = self.floor_of(p)
        ptr, nodes, dist = self.visible(p, floor)
        moved = np.zeros(len(p), bool)
        proven = ptr[1:] > ptr[:-1]  # joined waypoints are walkable ones
        if self.body is not None:
            proven &= ~shapely.contains_xy(self.body, p[:, 0], p[:, 1])
        if not proven.all():
            doubt = np.flatnonzero(~proven)
            bad = doubt[~self.walkable(p[doubt, :2])]
            if len(bad):
                p, moved[bad] = self._moved(p, bad, strict, names, outside_ok)
                ptr, nodes, dist = self.visible(p, floor)
        return p, moved, (ptr, nodes, dist), floor

    def _moved(self, p: NDArray[np.float64], bad: NDArray[np.int64], strict: bool, names: Callable[[int], str],
               outside_ok: bool) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """``p`` with rows ``bad`` (not walkable) moved to the nearest walkable point, and which of
        them moved farther than the tolerance; raises as :meth:`join` says."""
        nav = self.navmap
        tol = endpoint_tolerance(nav.level.bounds)
        margin = BOUNDS_MARGIN * level_size(nav.level.bounds.bounds)
        outside = shapely.distance(nav.level.bounds, shapely.points(p[bad, :2]))
        if not outside_ok and (outside > margin).any():
            i = int(np.argmax(outside > margin))
            raise NodeNotFoundError(
                f"{names(int(bad[i]))}={p[bad[i]].tolist()} lies {outside[i]:.6g} world units outside the "
                f"level's bounds {tuple(round(v, 6) for v in nav.level.bounds.bounds)}; a start or goal may "
                f"lie at most BOUNDS_MARGIN x the level's size = {margin:.6g} outside them"
            )
        inside, how_far = self.moved_inside(p[bad, :2])
        far = how_far > tol
        if strict and far.any():
            i = int(np.argmax(far))
            raise NodeNotFoundError(
                f"{names(int(bad[i]))}={p[bad[i]].tolist()} is not walkable for agent_radius="
                f"{nav.options.agent_radius}: it lies inside an obstacle (inflated by the agent radius), "
                f"outside the eroded bounds, or within the agent radius of terrain this unit type may not "
                f"enter, {how_far[i]:.6g} world units from the nearest walkable point "
                f"{inside[i].tolist()} (pass strict=False to start from there)"
            )
        p = p.copy()
        p[bad, :2] = inside
        return p, far

    def join_ends(self, s: NDArray[np.float64], g: NDArray[np.float64], strict: bool, rules: Rules) -> Ends:
        """Join m start/goal pairs under one call's cost ``rules``."""
        costs = self.costs
        m = len(s)
        both = np.concatenate([s, g])

        def name(i: int) -> str:
            end = "start" if i < m else "goal"
            return end if m == 1 else f"{end}s[{i % m}]"

        both, moved, (ptr, nodes, dist_j), floor = self.join(both, strict, name)
        s, g = both[:m], both[m:]
        sxy, gxy = s[:, :2], g[:, :2]
        dist = np.sqrt(((gxy - sxy) ** 2).sum(axis=1))
        sees = (floor[:m] == floor[m:]) & LK.segments_free(sxy, gxy, *self.walls)
        direct = np.full(m, np.inf)
        if not (costs.terrain or rules.zones):
            # uniform ground: every walk costs its length
            mult = np.ones(2 * m)
            join_costs = dist_j
            direct[sees] = dist[sees]
            kept_ptr = ptr
        else:
            terrain_mult = costs.point_mult(both)
            mult = costs.point_mult(both, rules.zones, terrain_mult) if rules.zones else terrain_mult
            owner = np.repeat(np.arange(2 * m), np.diff(ptr))
            wp = self.table[nodes]
            is_entry = owner < m
            join_costs = np.empty(len(nodes))
            rows = owner[is_entry]
            join_costs[is_entry] = costs.walk_costs(both[rows], wp[is_entry], terrain_mult[rows], rules.zones)
            rows = owner[~is_entry]
            join_costs[~is_entry] = costs.walk_costs(wp[~is_entry], both[rows], costs.base.mult[nodes[~is_entry]],
                                                     rules.zones)
            rows = np.flatnonzero(sees)
            direct[rows] = costs.walk_costs(s[rows], g[rows], terrain_mult[rows], rules.zones)
            keep = np.isfinite(join_costs)
            kept_ptr = np.zeros(2 * m + 1, np.int64)
            np.cumsum(np.bincount(owner[keep], minlength=2 * m), out=kept_ptr[1:])
            nodes, join_costs = nodes[keep], join_costs[keep]
        split = kept_ptr[m]
        return Ends(
            starts=s, goals=g, start_moved=moved[:m], goal_moved=moved[m:],
            xy=np.concatenate([sxy, gxy], axis=1),
            mult=np.stack([mult[:m], mult[m:]], axis=1),
            floor=np.stack([floor[:m], floor[m:]], axis=1),
            entry_ptr=kept_ptr[: m + 1], entry_nodes=nodes[:split], entry_costs=join_costs[:split],
            exit_ptr=kept_ptr[m:] - split, exit_nodes=nodes[split:], exit_costs=join_costs[split:],
            direct=direct, bound=costs.hscale * dist,
        )


def one_point(name: str, value: Any) -> None:
    """Raise unless ``value`` reads as one position: shape (2,) or (3,)."""
    try:
        shape = np.shape(value)
    except (TypeError, ValueError):
        return  # as_float_array names the problem
    if shape not in ((2,), (3,)):
        raise InvalidGeometryError(
            f"{name}={describe(value)} has shape {shape}; expected one position of shape (2,) or (3,) "
            "(use find_paths for many)"
        )
