"""Position-to-position queries on a :class:`~navmesh.waypoints.navmap.NavMap`: :class:`NavQuery`.

A ``NavQuery`` is made once per unit type (Detour's query object with its filter): it holds the
unit's validated arc weights, node multipliers, barrier grid and heuristic scale, and a reusable
search workspace, so a query allocates nothing proportional to the map. Queries never change the
map; any number of ``NavQuery`` objects (other unit types, other threads) share one NavMap, but
one ``NavQuery`` is not thread-safe: use one query object per thread. The module-level
:func:`find_path`, :func:`snap` and :func:`smooth_path` are conveniences over a cached query.

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

Refinement (``refine=``)
------------------------
- ``"none"``: the cheapest path through the graph (A* with the joins as extra arcs).
- ``"smooth"``: that path, string-pulled afterwards (:meth:`NavQuery.smooth_path`).
- ``"any_angle"``: a Theta*-style search: a node reached from ``u`` takes ``u``'s parent as its
  own parent when the straight walk from there is allowed and costs no more (the goal too); then
  string-pulled. A sparse corner graph (``k=8``,
  ideally ``linking="cones"``) then gives paths within about 1% of the true shortest ones (see
  ``benchmarks/anyangle.py``).

A straight shortcut is *allowed* when it has line of sight and touches no terrain region
boundary, manual / gated / off-mesh link segment or danger-zone square, and its ends are on one
floor. So a shortcut lies inside one terrain class and its cost is exact (length x that class's
multiplier); shortcuts never cross terrain edges, never bypass a link the designer drew, and never
change the cost rules. Refinement never raises a path's cost.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import (
    MAX_COORDINATE,
    as_float_array,
    check_nonneg_float,
    check_option,
    check_positive_int,
)
from navmesh._kernels import anyangle as AK
from navmesh._kernels import los as LK
from navmesh._kernels.status import BUDGET, FOUND
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
    describe,
)
from navmesh.endpoints import BOUNDS_MARGIN, endpoint_tolerance, level_size, nearest_walkable
from navmesh.path import Path
from navmesh.danger import DangerZone, add_danger
from navmesh.terrain import CostProfile
from navmesh.waypoints.navmap import NavMap, check_danger, check_profile

__all__ = ["JOIN_CONE_CANDIDATES", "JOIN_NEAREST", "MAX_LOOKBACK", "REFINES", "NavQuery", "Refine", "SlicedSearch", "find_path", "smooth_path", "snap"]

Refine = Literal["none", "smooth", "any_angle"]
REFINES: tuple[str, ...] = ("none", "smooth", "any_angle")
DEFAULT_LOOKBACK = 1
MAX_LOOKBACK = 1024  # ancestors a node may take as its parent (any_angle); more finds nothing new in practice
JOIN_NEAREST = 100  # nearest waypoints a position tests before it looks at every one
JOIN_CONE_CANDIDATES = 200  # on cone maps, how far (in candidates) a position's cone search looks


def _check_nav(nav: NavMap) -> NavMap:
    if not isinstance(nav, NavMap):
        raise InvalidOptionError(f"nav={describe(nav)} is not a NavMap (see build_waypoint_graph)")
    return nav


def _one_point(name: str, value: Any) -> None:
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


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected True or False")
    return bool(value)


@dataclass(frozen=True)
class _Options:
    """Validated search options, as the kernels take them."""

    hscale: float
    lookback: int
    pull: bool
    budget: int
    allow_partial: bool


@dataclass(frozen=True, eq=False)
class _Rules:
    """Cost rules of one call: the unit's cached arrays, or copies raised by danger zones."""

    zones: tuple[DangerZone, ...]
    weights: NDArray[np.float64]
    mult: NDArray[np.float64]
    los: tuple


@dataclass(frozen=True, eq=False)
class _Ends:
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


class NavQuery:
    """Path queries on one :class:`NavMap` for one unit type (Detour's query plus its filter).

    Everything that depends only on the map and the profile (arc weights, node multipliers,
    barrier grid, heuristic scale) is computed once here, with a search workspace that every
    query reuses; make one query object per unit type and reuse it for every unit of that type.
    Queries never change the map, so any number of ``NavQuery`` objects (other profiles, other
    threads) can share one NavMap. One object is not thread-safe: use one per thread.

    Parameters
    ----------
    navmap : NavMap or PolyMesh
        The build output (:func:`~navmesh.waypoints.build.build_waypoint_graph`); given a PolyMesh
        (:func:`~navmesh.polymesh.build.build_navmesh`) the call returns a
        :class:`~navmesh.polymesh.query.MeshQuery` instead.
    profile : CostProfile, optional
        Terrain multipliers, forbidden tags and capabilities. Default: everything x1, gated arcs
        closed.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> from navmesh.waypoints.build import build_waypoint_graph
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    >>> query = NavQuery(build_waypoint_graph(level, corners=True))
    >>> query.find_path([1, 1], [9, 1]).points.tolist()
    [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
    >>> path = query.find_path([1, 1], [5, 4])          # the goal stands inside the wall
    >>> path.goal_moved, path.points[-1].tolist()
    (True, [4.0, 4.0])
    """

    def __new__(cls, navmap: Any = None, profile: CostProfile | None = None) -> Any:
        # one query class for both maps: a PolyMesh gets a MeshQuery (navmesh.polymesh.query)
        from navmesh.polymesh.mesh import PolyMesh

        if cls is NavQuery and isinstance(navmap, PolyMesh):
            from navmesh.polymesh.query import MeshQuery

            return MeshQuery(navmap, profile)
        return super().__new__(cls)

    def __init__(self, navmap: NavMap, profile: CostProfile | None = None) -> None:
        nav = _check_nav(navmap)
        prof = check_profile(profile)
        self.navmap = nav
        self.profile = prof
        graph = nav.graph
        n = graph.n_nodes
        self._n = n
        weights = nav.weights(prof)
        self._csr = (
            np.ascontiguousarray(graph.indptr, dtype=np.int64),
            np.ascontiguousarray(graph.indices, dtype=np.int32),
        )
        self._hscale = max(min(weights.heuristic_scale("euclidean"), prof.min_multiplier()), 0.0)
        self._terrain = len(nav.level.terrain) > 0
        node_mult = self._point_mult(nav.points) if n else np.zeros(0)
        mult = np.empty(n + 2)
        mult[:n] = node_mult
        self._xy = np.zeros((n + 2, 2))
        self._xy[:n] = nav.points[:, :2]
        self._floor = np.zeros(n + 2, np.int64)
        self._floor[:n] = nav.floor_ids()
        self._table = np.zeros((n + 2, nav.points.shape[1]))  # rows of returned points
        self._table[:n] = nav.points
        self._usable = np.ones(n, bool)  # waypoints inside W: seeing one proves a position walkable
        self._usable[nav.blocked_waypoints] = False
        walls = nav.walls
        self._walls = tuple(walls)
        barriers = LK.wall_grid(LK.segment_edges(nav.barrier_segments()), extent=nav.walls_extent())
        self._rules = _Rules((), np.ascontiguousarray(weights.values, dtype=np.float64), mult,
                             (*walls, *barriers[:4]))
        self._ws = AK.workspace(n, graph.n_edges, DEFAULT_LOOKBACK)
        self._spare: list[tuple] = []  # workspaces of finished sliced searches
        # per floor: the nodes in a bucket grid, for joining positions (and the cone rule's data)
        opts = nav.options
        dirs, has = nav.corner_edges if nav.corner_edges is not None else (np.zeros((n, 4)), np.zeros(n, bool))
        self._join_k = opts.k if nav.corner_edges is not None else 0
        self._cone_width = JOIN_CONE_CANDIDATES if opts.max_candidates is None else opts.max_candidates
        self._floors = []
        for z in nav.floor_values:
            ids = nav.floor_tree(z)[1]
            pts = np.ascontiguousarray(nav.points[ids, :2])
            near = JOIN_NEAREST if opts.k is not None else len(ids)
            scratch = (np.zeros(max(self._join_k, 1), bool), np.empty(len(ids)), np.empty(len(ids), np.int64),
                       np.empty(len(ids)), np.empty(len(ids), np.int64))
            self._floors.append((ids, pts, ~self._usable[ids], np.ascontiguousarray(dirs[ids]), has[ids], near,
                                 *AK.bucket_grid(pts)[:3], *scratch))

    def __repr__(self) -> str:
        return f"NavQuery({self.navmap!r}, profile={self.profile.name!r})"

    # -- public queries -------------------------------------------------------------------------
    def find_path(
        self,
        start: ArrayLike,
        goal: ArrayLike,
        *,
        danger: Iterable[DangerZone] = (),
        refine: Refine = "any_angle",
        heuristic_weight: float = 1.0,
        max_expansions: int | None = None,
        allow_partial: bool = False,
        strict: bool = False,
        lookback: int = DEFAULT_LOOKBACK,
    ) -> Path:
        """The path from ``start`` to ``goal`` for this unit type.

        Both positions join the graph as the module notes say. Unless ``strict=True``, a start or
        goal that is not walkable (inside an obstacle inflated by the agent radius, or outside the
        bounds) moves to the nearest walkable point first, and the path says so
        (``start_moved`` / ``goal_moved``).

        Parameters
        ----------
        start, goal : float arrays of shape (2,) or (3,)
            World positions (give z on a level with several floors).
        danger : iterable of DangerZone
            Runtime extra costs for this query only.
        refine : {"none", "smooth", "any_angle"}
            How much to straighten the path (default ``"any_angle"``; see the module notes).
        heuristic_weight : float
            Factor >= 1 on the A* heuristic (``refine="none"`` or ``"smooth"``; above 1 the result
            may cost up to that factor times the optimum).
        max_expansions : int, optional
            Search budget (>= 1 node expansions).
        allow_partial : bool
            When the goal cannot be reached (or the budget runs out), return the path to the
            reached waypoint nearest the goal (``partial=True``; just the start before any
            waypoint was reached) instead of raising.
        strict : bool
            Raise instead of moving an endpoint that is not walkable.
        lookback : int
            ``refine="any_angle"`` only: how many ancestors (1 to ``MAX_LOOKBACK`` = 1024) a node
            may take as its parent; 1 is Theta*. Larger values find a few more shortcuts for more
            line-of-sight tests.

        Returns
        -------
        Path
            ``points`` runs from ``start`` exactly to ``goal`` (a partial path ends at its last
            waypoint); ``nodes`` are the graph waypoints on the way; ``cost`` is the total cost
            under the profile, entry and exit walks included.

        Raises
        ------
        NodeNotFoundError
            An endpoint lies farther outside the level's bounds than
            :data:`~navmesh.endpoints.BOUNDS_MARGIN` (5%) of the level's size; ``strict=True`` and
            an endpoint is farther than :data:`~navmesh.endpoints.ENDPOINT_TOLERANCE` times the
            level's size from the walkable area; or nothing is walkable at all.
        NoPathError
            The goal cannot be reached (and ``allow_partial`` is False).
        SearchBudgetError
            The budget ran out (and ``allow_partial`` is False).
        InvalidGeometryError
            A position is not one point of 2 or 3 finite numbers (use :meth:`find_paths` for many).
        InvalidOptionError
            An option is out of range (``lookback`` above ``MAX_LOOKBACK``, ...).
        """
        _one_point("start", start)
        _one_point("goal", goal)
        return self.find_paths(start, goal, danger=danger, refine=refine, heuristic_weight=heuristic_weight,
                               max_expansions=max_expansions, allow_partial=allow_partial, strict=strict,
                               lookback=lookback)[0]

    def find_paths(
        self,
        starts: ArrayLike,
        goals: ArrayLike,
        *,
        danger: Iterable[DangerZone] = (),
        refine: Refine = "any_angle",
        heuristic_weight: float = 1.0,
        max_expansions: int | None = None,
        allow_partial: bool = False,
        strict: bool = False,
        lookback: int = DEFAULT_LOOKBACK,
    ) -> list[Path]:
        """One path per row, ``starts[i]`` to ``goals[i]``, solved in one compiled call.

        Each path equals ``find_path(starts[i], goals[i], **options)``; a group order shares the
        joins' bulk work and the workspace. ``allow_partial=True`` is usual for group orders so
        one blocked unit does not fail the whole order.

        Parameters
        ----------
        starts : float array of shape (m, 2) or (m, 3)
        goals : float array of shape (m, 2) or (m, 3), or one goal of shape (2,) or (3,) for all
        danger, refine, heuristic_weight, max_expansions, allow_partial, strict, lookback
            As :meth:`find_path`.

        Returns
        -------
        list of Path
            One per row.

        Raises
        ------
        NoPathError, SearchBudgetError
            For the first row that fails (the message names it), unless ``allow_partial``.
        InvalidOptionError
            ``starts`` and ``goals`` have different row counts.

        Examples
        --------
        >>> from navmesh.level import Level
        >>> from navmesh.waypoints.build import build_waypoint_graph
        >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
        >>> query = NavQuery(build_waypoint_graph(level, corners=True))
        >>> [round(p.cost, 3) for p in query.find_paths([[1, 1], [1, 9], [8, 2]], [9, 1])]
        [17.232, 12.715, 1.414]
        """
        opts = self._options(refine, heuristic_weight, max_expansions, allow_partial, lookback)
        rules = self._rules_for(danger)
        starts = as_float_array("starts", starts, InvalidGeometryError)
        goals = as_float_array("goals", goals, InvalidGeometryError)
        s = self._positions("start" if starts.ndim == 1 else "starts", starts)
        g = self._positions("goal" if goals.ndim == 1 else "goals", goals)
        if len(g) == 1 and len(s) != 1:
            g = np.repeat(g, len(s), axis=0)
        if len(g) != len(s):
            raise InvalidOptionError(f"starts has {len(s)} rows but goals has {len(g)}; expected equal counts or one goal")
        ends = self._join_ends(s, g, _check_bool("strict", strict), rules)
        if len(s) == 0:
            return []
        ws = self._workspace(self._ws, opts.lookback)
        self._ws = ws
        indptr, indices = self._csr
        orders, cums, offsets, status, partial, expansions = AK.solve_batch(
            indptr, indices, rules.weights, self._xy, rules.mult, self._floor, ws, rules.los,
            ends.xy, ends.mult, ends.floor, ends.entry_ptr, ends.entry_nodes, ends.entry_costs,
            ends.exit_ptr, ends.exit_nodes, ends.exit_costs, ends.direct, ends.bound,
            opts.hscale, opts.budget, opts.lookback, opts.allow_partial, opts.pull,
        )
        return [
            self._path(ends, i, orders[offsets[i]:offsets[i + 1]], cums[offsets[i]:offsets[i + 1]], int(status[i]),
                       bool(partial[i]), int(expansions[i]), opts.budget, None if starts.ndim == 1 else i)
            for i in range(len(s))
        ]

    def start_search(
        self,
        start: ArrayLike,
        goal: ArrayLike,
        *,
        danger: Iterable[DangerZone] = (),
        refine: Refine = "any_angle",
        heuristic_weight: float = 1.0,
        max_expansions: int | None = None,
        allow_partial: bool = False,
        strict: bool = False,
        lookback: int = DEFAULT_LOOKBACK,
    ) -> SlicedSearch:
        """Begin a search to be spread over frames (see :class:`SlicedSearch`).

        Takes the options of :meth:`find_path`. The endpoints are joined to the graph now; the
        search runs only in :meth:`SlicedSearch.advance`. Advanced to the end, its result equals
        ``find_path(start, goal, **options)``. Each unfinished sliced search holds its own
        workspace (returned to this query when its result is taken).

        Examples
        --------
        >>> from navmesh.level import Level
        >>> from navmesh.waypoints.build import build_waypoint_graph
        >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
        >>> query = NavQuery(build_waypoint_graph(level, corners=True))
        >>> search = query.start_search([1, 1], [9, 1])
        >>> while not search.advance(1):     # one expansion per frame
        ...     pass
        >>> search.result().points.tolist()
        [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
        """
        opts = self._options(refine, heuristic_weight, max_expansions, allow_partial, lookback)
        rules = self._rules_for(danger)
        s = self._positions("start", start)
        g = self._positions("goal", goal)
        if len(s) != 1 or len(g) != 1:
            raise InvalidGeometryError("start and goal must be one position each; use find_paths for many")
        ends = self._join_ends(s, g, _check_bool("strict", strict), rules)
        ws = self._workspace(self._spare.pop() if self._spare else None, opts.lookback)
        return SlicedSearch(self, ends, rules, opts, ws)

    def snap(self, point: ArrayLike, *, strict: bool = False) -> int:
        """The nearest waypoint visible from ``point`` (moved to the nearest walkable point first,
        wherever it lies, unless ``strict=True``), looking as far as needed.

        Parameters
        ----------
        point : float array of shape (2,) or (3,)

        Returns
        -------
        int
            Node id.

        Raises
        ------
        NodeNotFoundError
            No waypoint is visible from the point; or ``strict=True`` and it is not walkable.
        """
        p = self._positions("point", point)
        if len(p) != 1:
            raise InvalidGeometryError(f"point={describe(point)} is not one position")
        p, _, (ptr, nodes, _), _ = self._join(p, _check_bool("strict", strict), lambda i: "point", outside_ok=True)
        if ptr[1] == 0:
            raise NodeNotFoundError(f"point={p[0].tolist()}: no waypoint is visible from it")
        return int(nodes[0])

    def nearest_walkable(self, points: ArrayLike) -> NDArray[np.float64]:
        """The nearest position where the unit's centre may stand, for each point.

        Walkable points are returned unchanged; others (inside an obstacle inflated by the agent
        radius, or outside the bounds) move to the nearest point of the walkable region.

        Parameters
        ----------
        points : float array of shape (n, 2), (n, 3), (2,) or (3,)

        Returns
        -------
        float array of the same shape as the map's points (z added on a 3-D map)

        Raises
        ------
        NodeNotFoundError
            The level has no walkable region at all for this agent radius.
        """
        rows = as_float_array("points", points, InvalidGeometryError)
        single = rows.ndim == 1
        pts = self._positions("points", rows)
        if len(pts):
            pts[:, :2] = self._moved_inside(pts[:, :2])[0]
        return pts[0] if single else pts

    def smooth_path(self, path: Path, *, danger: Iterable[DangerZone] = ()) -> Path:
        """String-pull a path: drop points while a straight shortcut is allowed and costs no more.

        From each kept point the path jumps to the farthest later point that can be reached by an
        allowed straight shortcut (see the module notes) costing no more than the path it replaces.

        Parameters
        ----------
        path : Path
            From :meth:`find_path` (points = start, waypoints, goal), or a plain graph path whose
            points are ``navmap.points[path.nodes]``.
        danger : iterable of DangerZone
            The danger the path was found with.

        Returns
        -------
        Path
            Same ends, a subset of the points, ``cost`` <= the input path's cost under the profile.
        """
        if not isinstance(path, Path):
            raise InvalidOptionError(f"path={describe(path)} is not a Path")
        rules = self._rules_for(danger)
        nodes = path.nodes
        k = len(path.points)
        if k < 3:
            return path
        n = self._n
        if len(nodes) and (nodes.min() < 0 or nodes.max() >= n):
            raise NodeNotFoundError(f"path.nodes hold ids outside 0..{n - 1}; the path is not from this graph")
        lead, tail = {len(nodes): (0, 0), len(nodes) + 1: (1, 0), len(nodes) + 2: (1, 1)}.get(k, (None, None))
        if lead is None:
            raise InvalidOptionError(
                f"path has {k} points and {len(nodes)} nodes; expected the nodes' points, optionally with the start "
                "and goal positions around them"
            )
        ends = self._positions("path.points", path.points[[0, -1]])
        order = np.concatenate([[n] if lead else [], nodes, [n + 1] if tail else []]).astype(np.int64)
        fl = self._floor_of(ends)
        self._set_ends(ends[0], ends[1], rules.mult, self._point_mult(ends, rules.zones), (int(fl[0]), int(fl[1])))
        rows = self._table[order]
        arcs = self._arc_costs(rules.weights, nodes)
        straight = self._walk_costs(rows[:-1], rows[1:], self._point_mult(rows[:-1]), rules.zones)
        steps = straight.copy()
        steps[lead : lead + len(arcs)] = np.where(np.isfinite(arcs), arcs, straight[lead : lead + len(arcs)])
        cum = np.concatenate([[0.0], np.cumsum(steps)])
        keep, cost = AK.string_pull(order, self._xy, rules.mult, self._floor, cum, rules.los)
        kept = order[keep]
        return Path(kept[kept < n].astype(np.int32), self._table[kept], float(cost[-1]), path.expansions,
                    path.partial, path.start_moved, path.goal_moved)

    # -- validation and cost rules --------------------------------------------------------------
    def _options(self, refine, heuristic_weight, max_expansions, allow_partial, lookback) -> _Options:
        check_option("refine", refine, REFINES)
        hw = check_nonneg_float("heuristic_weight", heuristic_weight, allow_none=False)
        if hw < 1.0:
            raise InvalidOptionError(f"heuristic_weight={heuristic_weight!r} is not valid; expected a number >= 1")
        budget = check_positive_int("max_expansions", max_expansions)
        lookback = check_positive_int("lookback", lookback, allow_none=False)
        if lookback > MAX_LOOKBACK:
            raise InvalidOptionError(
                f"lookback={lookback} is not valid; expected an integer from 1 to MAX_LOOKBACK={MAX_LOOKBACK}"
            )
        partial = _check_bool("allow_partial", allow_partial)
        if refine == "any_angle":
            return _Options(self._hscale, lookback, True, budget or 0, partial)
        return _Options(self._hscale * hw, 0, refine == "smooth", budget or 0, partial)

    def _rules_for(self, danger: Iterable[DangerZone]) -> _Rules:
        zones = check_danger(danger)
        if not zones:
            return self._rules
        nav = self.navmap
        mult = self._rules.mult.copy()
        mult[: self._n] = self._point_mult(nav.points, zones, mult[: self._n])
        barriers = LK.wall_grid(LK.segment_edges(nav.barrier_segments(zones)), extent=nav.walls_extent())
        return _Rules(zones, nav.arc_danger(self._rules.weights, zones), mult, (*self._walls, *barriers[:4]))

    def _point_mult(self, points: NDArray[np.float64], zones: tuple[DangerZone, ...] = (),
                    base: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """Terrain multiplier at each point (inf in closed terrain and, with danger, in its squares:
        no shortcut may start where the cost is not uniform)."""
        if base is not None:
            mult = base.copy()
        elif self._terrain:
            mult = self.navmap.point_multipliers(points[:, :2], self.profile)
        else:
            mult = np.ones(len(points))
        for z in zones:
            (cx, cy), r = z.centre, z.radius
            inside = (np.abs(points[:, 0] - cx) <= r) & (np.abs(points[:, 1] - cy) <= r)
            mult[inside] = np.inf
        return mult

    def _walk_costs(self, a: NDArray[np.float64], b: NDArray[np.float64], mult_a: NDArray[np.float64],
                    zones: tuple[DangerZone, ...]) -> NDArray[np.float64]:
        """Cost of walking straight from ``a[i]`` to ``b[i]`` (a plain arc's terrain rule).

        A segment that touches no terrain boundary lies in one class: its cost is its length
        times the terrain multiplier at ``a`` (``mult_a``, without danger); the others get the
        exact terrain breakdown."""
        length = np.sqrt(((b[:, :2] - a[:, :2]) ** 2).sum(axis=1))
        if not self._terrain:
            cost = length
        else:
            base = self._rules.los[8:]
            mixed = LK.segments_touch(np.ascontiguousarray(a[:, :2]), np.ascontiguousarray(b[:, :2]), *base)
            cost = length * mult_a
            if mixed.any():
                cost[mixed] = self.navmap.straight_costs(a[mixed], b[mixed], self.profile)
        if zones:
            cost = add_danger(cost, a[:, :2], b[:, :2], zones)
        return cost

    def _arc_costs(self, weights: NDArray[np.float64], nodes: NDArray[np.int32]) -> NDArray[np.float64]:
        """Cheapest arc weight between consecutive nodes (inf when there is no arc)."""
        g = self.navmap.graph
        out = np.full(max(len(nodes) - 1, 0), np.inf)
        for i in range(len(nodes) - 1):
            lo, hi = g.indptr[nodes[i]], g.indptr[nodes[i] + 1]
            hit = np.flatnonzero(g.indices[lo:hi] == nodes[i + 1])
            if hit.size:
                out[i] = weights[lo + hit].min()
        return out

    # -- positions and joins --------------------------------------------------------------------
    def _positions(self, name: str, points: ArrayLike) -> NDArray[np.float64]:
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

    def _floor_of(self, p: NDArray[np.float64]) -> NDArray[np.int64]:
        if p.shape[1] < 3:
            return np.zeros(len(p), np.int64)
        return np.searchsorted(np.asarray(self.navmap.floor_values), p[:, 2]).astype(np.int64)

    def _visible(self, p: NDArray[np.float64], floor: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int32], NDArray[np.float64]]:
        """Waypoints each position joins (see the module notes), nearest first, in CSR form (ptr,
        node ids, distances)."""
        m = len(p)
        p2 = np.ascontiguousarray(p[:, :2])
        if len(self._floors) == 1:
            ids, pts, blocked, dirs, has, near, *grid = self._floors[0]
            counts, picked, dist = AK.join_positions(p2, pts, blocked, dirs, has, self._join_k, near, self._cone_width,
                                                     np.inf, *grid, *self._walls)
            nodes = ids[picked].astype(np.int32)
        else:
            counts = np.zeros(m, np.int64)
            owner, found, dists = [], [], []
            for f, (ids, pts, blocked, dirs, has, near, *grid) in enumerate(self._floors):
                rows = np.flatnonzero(floor == f)
                c, picked, dist = AK.join_positions(p2[rows], pts, blocked, dirs, has, self._join_k, near,
                                                    self._cone_width, np.inf, *grid, *self._walls)
                counts[rows] = c
                owner.append(np.repeat(rows, c))
                found.append(ids[picked])
                dists.append(dist)
            order = np.argsort(np.concatenate(owner), kind="stable")
            nodes = np.concatenate(found)[order].astype(np.int32)
            dist = np.concatenate(dists)[order]
        ptr = np.zeros(m + 1, np.int64)
        np.cumsum(counts, out=ptr[1:])
        return ptr, nodes, dist

    def _moved_inside(self, pts: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Nearest walkable points to ``pts`` (n, 2) and how far each moved (see
        :func:`~navmesh.endpoints.nearest_walkable`)."""
        nav = self.navmap
        if len(pts) == 0 or nav.line_of_sight.walkable(pts).all():
            return pts, np.zeros(len(pts))
        region = nav.walkable  # built on first use: only when a point needs moving
        if region.is_empty:
            raise NodeNotFoundError(
                f"no walkable point exists for agent_radius={nav.options.agent_radius}: the obstacles cover the level"
            )
        x0, y0, x1, y1 = nav.level.bounds.bounds
        try:
            return nearest_walkable(nav.line_of_sight, region, pts, size=max(1.0, x1 - x0, y1 - y0))
        except InvalidGeometryError as err:
            raise NodeNotFoundError(str(err)) from None

    def _join(self, p: NDArray[np.float64], strict: bool, names: Any, *, outside_ok: bool = False):
        """Positions made walkable (or checked, ``strict``) and joined: (positions, moved, (ptr,
        nodes), floor). Seeing a waypoint inside W proves a position walkable, so the shapely test
        runs only for positions that see none. A position within the endpoint tolerance of W is
        walkable (moved by at most that much, not reported); ``strict`` raises for one farther
        away, and so does a position farther than the tolerance outside the level's bounds (unless
        ``outside_ok``). ``names(i)`` names row i in errors."""
        floor = self._floor_of(p)
        ptr, nodes, dist = self._visible(p, floor)
        moved = np.zeros(len(p), bool)
        proven = ptr[1:] > ptr[:-1]  # joined waypoints are walkable ones
        if not proven.all():
            doubt = np.flatnonzero(~proven)
            bad = doubt[~self.navmap.line_of_sight.walkable(p[doubt, :2])]
            if len(bad):
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
                inside, how_far = self._moved_inside(p[bad, :2])
                far = how_far > tol
                if strict and far.any():
                    i = int(np.argmax(far))
                    raise NodeNotFoundError(
                        f"{names(int(bad[i]))}={p[bad[i]].tolist()} is not walkable for agent_radius="
                        f"{nav.options.agent_radius}: it lies inside an obstacle (inflated by the agent radius) or "
                        f"outside the eroded bounds, {how_far[i]:.6g} world units from the nearest walkable point "
                        f"{inside[i].tolist()} (pass strict=False to start from there)"
                    )
                p = p.copy()
                p[bad, :2] = inside
                moved[bad] = far
                ptr, nodes, dist = self._visible(p, floor)
        return p, moved, (ptr, nodes, dist), floor

    def _join_ends(self, s: NDArray[np.float64], g: NDArray[np.float64], strict: bool, rules: _Rules) -> _Ends:
        m = len(s)
        both = np.concatenate([s, g])

        def name(i: int) -> str:
            end = "start" if i < m else "goal"
            return end if m == 1 else f"{end}s[{i % m}]"

        both, moved, (ptr, nodes, dist_j), floor = self._join(both, strict, name)
        s, g = both[:m], both[m:]
        sxy, gxy = s[:, :2], g[:, :2]
        dist = np.sqrt(((gxy - sxy) ** 2).sum(axis=1))
        sees = (floor[:m] == floor[m:]) & LK.segments_free(sxy, gxy, *self._walls)
        direct = np.full(m, np.inf)
        if not (self._terrain or rules.zones):
            # uniform ground: every walk costs its length
            mult = np.ones(2 * m)
            costs = dist_j
            direct[sees] = dist[sees]
            kept_ptr = ptr
        else:
            terrain_mult = self._point_mult(both)
            mult = self._point_mult(both, rules.zones, terrain_mult) if rules.zones else terrain_mult
            owner = np.repeat(np.arange(2 * m), np.diff(ptr))
            wp = self._table[nodes]
            is_entry = owner < m
            costs = np.empty(len(nodes))
            rows = owner[is_entry]
            costs[is_entry] = self._walk_costs(both[rows], wp[is_entry], terrain_mult[rows], rules.zones)
            rows = owner[~is_entry]
            costs[~is_entry] = self._walk_costs(wp[~is_entry], both[rows], self._rules.mult[nodes[~is_entry]], rules.zones)
            rows = np.flatnonzero(sees)
            direct[rows] = self._walk_costs(s[rows], g[rows], terrain_mult[rows], rules.zones)
            keep = np.isfinite(costs)
            kept_ptr = np.zeros(2 * m + 1, np.int64)
            np.cumsum(np.bincount(owner[keep], minlength=2 * m), out=kept_ptr[1:])
            nodes, costs = nodes[keep], costs[keep]
        split = kept_ptr[m]
        return _Ends(
            starts=s, goals=g, start_moved=moved[:m], goal_moved=moved[m:],
            xy=np.concatenate([sxy, gxy], axis=1),
            mult=np.stack([mult[:m], mult[m:]], axis=1),
            floor=np.stack([floor[:m], floor[m:]], axis=1),
            entry_ptr=kept_ptr[: m + 1], entry_nodes=nodes[:split], entry_costs=costs[:split],
            exit_ptr=kept_ptr[m:] - split, exit_nodes=nodes[split:], exit_costs=costs[split:],
            direct=direct, bound=self._hscale * dist,
        )

    # -- workspaces and results -----------------------------------------------------------------
    def _workspace(self, ws: tuple | None, lookback: int) -> tuple:
        if ws is None:
            return AK.workspace(self._n, self.navmap.graph.n_edges, lookback)
        if len(ws[9]) < lookback:
            return (*ws[:9], np.empty(lookback, np.int64), ws[10])
        return ws

    def _set_ends(self, s: NDArray[np.float64], g: NDArray[np.float64], mult: NDArray[np.float64],
                  end_mult: NDArray[np.float64], floor: tuple[int, int] = (0, 0)) -> None:
        n = self._n
        self._xy[n] = s[:2]
        self._xy[n + 1] = g[:2]
        self._table[n] = s
        self._table[n + 1] = g
        mult[n:] = end_mult
        self._floor[n:] = floor

    def _path(self, ends: _Ends, i: int, order: NDArray[np.int64], cum: NDArray[np.float64], status: int,
              partial: bool, expansions: int, budget: int, row: int | None) -> Path:
        s, g = ends.starts[i], ends.goals[i]
        if len(order) == 0:
            where = "" if row is None else f"row {row}: "
            if status == BUDGET:
                raise SearchBudgetError(
                    f"{where}find_path from {s.tolist()} to {g.tolist()} spent its budget of {budget} expansions; "
                    "raise max_expansions or pass allow_partial=True"
                )
            raise NoPathError(f"{where}no path from {s.tolist()} to {g.tolist()}")
        n = self._n
        pts = self._table[np.minimum(order, n)]
        pts[0] = s
        if order[-1] == n + 1:
            pts[-1] = g
        return Path(order[order < n].astype(np.int32), pts, float(cum[-1]), expansions, partial,
                    bool(ends.start_moved[i]), bool(ends.goal_moved[i]))


class SlicedSearch:
    """A search spread over frames: made by :meth:`NavQuery.start_search`.

    Call :meth:`advance` with a budget of node expansions each frame until it returns True, then
    take :meth:`result`. Pausing never changes the answer: it equals the one-shot
    :meth:`NavQuery.find_path` with the same options.
    """

    def __init__(self, query: NavQuery, ends: _Ends, rules: _Rules, opts: _Options, ws: tuple) -> None:
        self._query = query
        self._ends = ends
        self._rules = rules
        self._opts = opts
        self._ws = ws
        self._result: Path | None = None
        self._error: Exception | None = None
        self._done = bool(ends.direct[0] <= ends.bound[0])
        if not self._done:
            self._put_ends()
            AK.search_begin(ws, query._xy, opts.hscale, ends.exit_nodes, ends.exit_costs)

    @property
    def finished(self) -> bool:
        """True once the search has ended (found, exhausted or out of budget)."""
        return self._done

    @property
    def expansions(self) -> int:
        """Node expansions so far."""
        return 0 if self._ws is None else int(self._ws[8][AK.ST_EXPANSIONS])

    def _put_ends(self) -> None:
        e = self._ends
        q = self._query
        q._set_ends(e.starts[0], e.goals[0], self._rules.mult, e.mult[0], (int(e.floor[0, 0]), int(e.floor[0, 1])))

    def advance(self, max_expansions: int) -> bool:
        """Run up to ``max_expansions`` (>= 1) more node expansions; return True when finished."""
        budget = check_positive_int("max_expansions", max_expansions, allow_none=False)
        if self._done:
            return True
        q, r, o, e = self._query, self._rules, self._opts, self._ends
        self._put_ends()
        indptr, indices = q._csr
        self._done = bool(AK.search_run(indptr, indices, r.weights, q._xy, r.mult, q._floor, self._ws, r.los,
                                        e.entry_nodes, e.entry_costs, o.hscale, o.budget, o.lookback, budget))
        return self._done

    def result(self) -> Path:
        """The path (as :meth:`NavQuery.find_path` returns it).

        Raises
        ------
        InvalidOptionError
            The search has not finished: call :meth:`advance` until it returns True.
        NoPathError, SearchBudgetError
            As :meth:`NavQuery.find_path`.
        """
        if not self._done:
            raise InvalidOptionError("the search has not finished; call advance() until it returns True")
        if self._result is None and self._error is None:
            q, e, o = self._query, self._ends, self._opts
            if e.direct[0] <= e.bound[0]:
                order, cum, status, partial, exp = np.array([q._n, q._n + 1]), np.array([0.0, e.direct[0]]), FOUND, False, 0
            else:
                self._put_ends()
                order, cum, status, partial = AK.search_finish(self._ws, q._xy, self._rules.mult, q._floor,
                                                               self._rules.los, o.allow_partial, o.pull, e.direct[0])
                exp = self.expansions
            try:
                self._result = q._path(e, 0, order, cum, int(status), bool(partial), exp, o.budget, None)
            except (NoPathError, SearchBudgetError) as err:
                self._error = err
            q._spare.append(self._ws)
            self._ws = None
        if self._error is not None:
            raise self._error
        return self._result


# -- module-level conveniences -----------------------------------------------------------------
_cache = threading.local()  # one query per (map, profile) and thread: a NavQuery is not thread-safe


def _query(nav: NavMap, profile: CostProfile | None) -> NavQuery:
    _check_nav(nav)
    prof = check_profile(profile)
    maps = getattr(_cache, "maps", None)
    if maps is None:
        maps = _cache.maps = weakref.WeakKeyDictionary()
    per_map = maps.setdefault(nav, {})
    if prof not in per_map:
        per_map[prof] = NavQuery(nav, prof)
    return per_map[prof]


def find_path(
    nav: NavMap,
    start: ArrayLike,
    goal: ArrayLike,
    *,
    profile: CostProfile | None = None,
    danger: Iterable[DangerZone] = (),
    refine: Refine = "any_angle",
    heuristic_weight: float = 1.0,
    max_expansions: int | None = None,
    allow_partial: bool = False,
    strict: bool = False,
    lookback: int = DEFAULT_LOOKBACK,
) -> Path:
    """The path from one position to another: :meth:`NavQuery.find_path` on a cached query.

    The query for ``(nav, profile)`` is made on first use and kept while ``nav`` lives (one per
    thread). See :meth:`NavQuery.find_path` for the options and errors.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> from navmesh.waypoints.build import build_waypoint_graph
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    >>> nav = build_waypoint_graph(level, k=8, corners=True)
    >>> path = find_path(nav, [1, 1], [9, 1])
    >>> path.points.tolist()
    [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
    >>> bool(abs(path.cost - (2 * np.hypot(3, 7) + 2)) < 1e-9)
    True
    """
    return _query(nav, profile).find_path(
        start, goal, danger=danger, refine=refine, heuristic_weight=heuristic_weight, max_expansions=max_expansions,
        allow_partial=allow_partial, strict=strict, lookback=lookback,
    )


def snap(nav: NavMap, point: ArrayLike) -> int:
    """The nearest waypoint visible from a walkable ``point``: :meth:`NavQuery.snap` with ``strict=True``.

    Parameters
    ----------
    nav : NavMap
    point : float array of shape (2,) or (3,)
        World position; give z on a level with several floors.

    Returns
    -------
    int
        Node id.

    Raises
    ------
    NodeNotFoundError
        The point is not walkable (inside an inflated obstacle or outside the bounds), or no
        waypoint is visible from it.
    InvalidGeometryError
        The point is not 2 or 3 finite numbers.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> from navmesh.waypoints.build import build_waypoint_graph
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]],
    ...                         waypoints=[[3, 1], [7, 1], [5, 9]])
    >>> nav = build_waypoint_graph(level)
    >>> snap(nav, [7.5, 1.5])      # (3, 1) is nearer in a straight line but behind the wall
    1
    >>> snap(nav, [5, 4])
    Traceback (most recent call last):
    ...
    navmesh.errors.NodeNotFoundError: point=[5.0, 4.0] is not walkable for agent_radius=0.0: ...
    """
    return _query(nav, None).snap(point, strict=True)


def smooth_path(
    nav: NavMap,
    path: Path,
    *,
    profile: CostProfile | None = None,
    danger: Iterable[DangerZone] = (),
) -> Path:
    """String-pull a path: :meth:`NavQuery.smooth_path` on a cached query.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> from navmesh.waypoints.build import build_waypoint_graph
    >>> from navmesh.search import dijkstra
    >>> nav = build_waypoint_graph(Level.rectangle(10, 10, waypoints=[[0, 0], [1, 2], [3, 3], [5, 5]]), k=1)
    >>> raw = dijkstra(nav.graph, 0, 3)
    >>> smooth_path(nav, raw).points.tolist()
    [[0.0, 0.0], [5.0, 5.0]]
    """
    return _query(nav, profile).smooth_path(path, danger=danger)
