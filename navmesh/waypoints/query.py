"""Position-to-position queries on a :class:`~navmesh.waypoints.navmap.NavMap`: :class:`NavQuery`.

A ``NavQuery`` is made once per unit type (Detour's query object with its filter): it holds the
unit's validated arc weights, node multipliers, barrier grid and heuristic scale, and a reusable
search workspace, so a query allocates nothing proportional to the map. Queries never change the
map; any number of ``NavQuery`` objects (other unit types, other threads) share one NavMap, but
one ``NavQuery`` is not thread-safe: use one query object per thread. The module-level
:func:`find_path`, :func:`snap` and :func:`smooth_path` are conveniences over a cached query.

Joining positions to the graph and the endpoint policy: see :mod:`navmesh.waypoints.joins`.

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

import math
import threading
import weakref
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COORDINATE, as_float_array, check_flag
from navmesh._kernels import anyangle as AK
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError, describe
from navmesh.path import Path
from navmesh.query_options import (
    DEFAULT_LOOKBACK,
    MAX_LOOKBACK,
    REFINES,
    QueryOptions,
    Refine,
    cached_query_options,
)
from navmesh.danger import DangerZone
from navmesh.terrain import CostProfile
from navmesh.waypoints.costs import CostRules
from navmesh.waypoints.joins import JOIN_CONE_CANDIDATES, JOIN_NEAREST, Endpoints, one_point
from navmesh.waypoints.navmap import NavMap, check_profile
from navmesh.waypoints.plan import SearchPlan, path_of
from navmesh.waypoints.sliced import SlicedSearch
from navmesh.waypoints.workspaces import WorkspacePool

__all__ = ["JOIN_CONE_CANDIDATES", "JOIN_NEAREST", "MAX_LOOKBACK", "REFINES", "NavQuery", "Refine", "SlicedSearch",
           "find_path", "smooth_path", "snap"]


def _check_nav(nav: NavMap) -> NavMap:
    if not isinstance(nav, NavMap):
        raise InvalidOptionError(f"nav={describe(nav)} is not a NavMap (see build_waypoint_graph)")
    return nav


def _plain_xy(p: Any) -> tuple[float, float] | None:
    """(x, y) of a position given as two finite floats or ints within range (a list, tuple or
    float64 array of shape (2,)); None for anything else, which the general checks then read."""
    if p.__class__ is np.ndarray:
        if p.shape != (2,) or p.dtype != np.float64:
            return None
        x, y = float(p[0]), float(p[1])
    elif p.__class__ is list or p.__class__ is tuple:
        if len(p) != 2:
            return None
        x, y = p
        if not (isinstance(x, float) or x.__class__ is int) or not (isinstance(y, float) or y.__class__ is int):
            return None
        if abs(x) > MAX_COORDINATE or abs(y) > MAX_COORDINATE:
            return None
        x, y = float(x), float(y)
    else:
        return None
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > MAX_COORDINATE or abs(y) > MAX_COORDINATE:
        return None
    return x, y


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
        self._n = graph.n_nodes
        self._csr = (
            np.ascontiguousarray(graph.indptr, dtype=np.int64),
            np.ascontiguousarray(graph.indices, dtype=np.int32),
        )
        self._costs = CostRules(nav, prof)
        self._endpoints = Endpoints(nav, self._costs)
        self._pool = WorkspacePool(self._n, graph.n_edges)
        # the one-call road (see _find_fast): one floor of 2-D points, uniform ground
        self._fast = len(self._endpoints.floors) == 1 and nav.points.shape[1] == 2 and not self._costs.terrain
        # the one-call road's constant arguments (one pair, floor 0, uniform ground)
        self._joins = self._endpoints.floors[0].kernel_arrays
        # end multipliers and floors, then empty entry/exit rows (ptr, nodes, costs), direct, bound
        i, n, f = np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros(0)
        self._one_pair = (np.ones((1, 2)), np.zeros((1, 2), np.int64), i, n, f, i, n, f, f, f)

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

        Both positions join the graph as :mod:`navmesh.waypoints.joins` says. Unless ``strict=True``, a start or
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
        opts = cached_query_options(refine, heuristic_weight, max_expansions, allow_partial, strict, lookback)
        if self._fast and danger.__class__ is tuple and not danger:
            s, g = _plain_xy(start), _plain_xy(goal)
            if s is not None and g is not None:
                path = self._find_fast(s, g, opts)
                if path is not None:
                    return path
        one_point("start", start)
        one_point("goal", goal)
        return self._solve(start, goal, danger, opts)[0]

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
        opts = cached_query_options(refine, heuristic_weight, max_expansions, allow_partial, strict, lookback)
        return self._solve(starts, goals, danger, opts)

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
        opts = cached_query_options(refine, heuristic_weight, max_expansions, allow_partial, strict, lookback)
        rules = self._costs.for_danger(danger)
        s = self._endpoints.positions("start", start)
        g = self._endpoints.positions("goal", goal)
        if len(s) != 1 or len(g) != 1:
            raise InvalidGeometryError("start and goal must be one position each; use find_paths for many")
        ends = self._endpoints.join_ends(s, g, opts.strict, rules)
        plan = SearchPlan.of(opts, self._costs.hscale)
        return SlicedSearch(self._endpoints, self._pool, self._csr, ends, rules, plan, self._pool.borrow(plan.lookback))

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
        p = self._endpoints.positions("point", point)
        if len(p) != 1:
            raise InvalidGeometryError(f"point={describe(point)} is not one position")
        p, _, (ptr, nodes, _), _ = self._endpoints.join(p, check_flag("strict", strict), lambda i: "point",
                                                        outside_ok=True)
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
        pts = self._endpoints.positions("points", rows)
        if len(pts):
            pts[:, :2] = self._endpoints.moved_inside(pts[:, :2])[0]
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
        costs, ep = self._costs, self._endpoints
        rules = costs.for_danger(danger)
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
        ends = ep.positions("path.points", path.points[[0, -1]])
        order = np.concatenate([[n] if lead else [], nodes, [n + 1] if tail else []]).astype(np.int64)
        fl = ep.floor_of(ends)
        ep.set_ends(ends[0], ends[1], rules.mult, costs.point_mult(ends, rules.zones), (int(fl[0]), int(fl[1])))
        rows = ep.table[order]
        arcs = costs.arc_costs(rules.weights, nodes)
        straight = costs.walk_costs(rows[:-1], rows[1:], costs.point_mult(rows[:-1]), rules.zones)
        steps = straight.copy()
        steps[lead : lead + len(arcs)] = np.where(np.isfinite(arcs), arcs, straight[lead : lead + len(arcs)])
        cum = np.concatenate([[0.0], np.cumsum(steps)])
        kept, cost = AK.string_pull(order, ep.xy, rules.mult, ep.floor, cum, rules.los)
        return Path(kept[kept < n].astype(np.int32), ep.table[kept], float(cost[-1]), path.expansions,
                    path.partial, path.start_moved, path.goal_moved)

    # -- the two roads ----------------------------------------------------------------------------
    def _find_fast(self, s: tuple[float, float], g: tuple[float, float], opts: QueryOptions) -> Path | None:
        """One query in one compiled call (one floor, uniform ground, no danger); None when a
        position joins no waypoint (it may need moving: the general road decides)."""
        plan = SearchPlan.of(opts, self._costs.hscale)
        ep, rules = self._endpoints, self._costs.base
        sg = np.array([s, g])
        orders, cums, info = AK.solve_batch(
            *self._csr, rules.weights, ep.xy, rules.mult, ep.floor, self._pool.main(plan.lookback), rules.los,
            sg.reshape(1, 4), *self._one_pair, plan.hscale, plan.budget, plan.lookback, plan.allow_partial, plan.pull,
            0, True, True, self._joins, ep.join_k, ep.floors[0].near, ep.cone_width,
        )
        _, status, partial, expansions = info.tolist()  # one query: info is its four entries
        if status == AK.NOT_JOINED:
            return None
        return path_of(ep.table, self._n, sg[0], sg[1], orders, cums, status, bool(partial), expansions, plan.budget,
                       False, False, None)

    def _solve(self, starts: ArrayLike, goals: ArrayLike, danger: Iterable[DangerZone], opts: QueryOptions) -> list[Path]:
        """The general road: any number of pairs, any map, any rules."""
        ep = self._endpoints
        rules = self._costs.for_danger(danger)
        starts = as_float_array("starts", starts, InvalidGeometryError)
        goals = as_float_array("goals", goals, InvalidGeometryError)
        s = ep.positions("start" if starts.ndim == 1 else "starts", starts)
        g = ep.positions("goal" if goals.ndim == 1 else "goals", goals)
        if len(g) == 1 and len(s) != 1:
            g = np.repeat(g, len(s), axis=0)
        if len(g) != len(s):
            raise InvalidOptionError(f"starts has {len(s)} rows but goals has {len(g)}; expected equal counts or one goal")
        ends = ep.join_ends(s, g, opts.strict, rules)
        if len(s) == 0:
            return []
        plan = SearchPlan.of(opts, self._costs.hscale)
        ws = self._pool.main(plan.lookback)
        indptr, indices = self._csr
        orders, cums, info = AK.solve_batch(
            indptr, indices, rules.weights, ep.xy, rules.mult, ep.floor, ws, rules.los,
            ends.xy, ends.mult, ends.floor, ends.entry_ptr, ends.entry_nodes, ends.entry_costs,
            ends.exit_ptr, ends.exit_nodes, ends.exit_costs, ends.direct, ends.bound,
            plan.hscale, plan.budget, plan.lookback, plan.allow_partial, plan.pull, 0, True,
            False, self._joins, ep.join_k, ep.floors[0].near, ep.cone_width,
        )
        paths, lo = [], 0
        for i, (hi, status, partial, expansions) in enumerate(info.reshape(-1, 4).tolist()):
            paths.append(path_of(ep.table, self._n, ends.starts[i], ends.goals[i], orders[lo:hi], cums[lo:hi], status,
                                 bool(partial), expansions, plan.budget, bool(ends.start_moved[i]),
                                 bool(ends.goal_moved[i]), None if starts.ndim == 1 else i))
            lo = hi
        return paths


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
