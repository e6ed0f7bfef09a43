"""Point-to-point queries on a :class:`~navmesh.waypoints.build.NavMap`: snapping, paths, smoothing.

A position joins the graph by the same rule as a waypoint (its visible candidates among the
``k`` nearest waypoints, widened up to ``max_candidates`` when none is visible), each at the cost
of walking straight there under the unit's :class:`~navmesh.terrain.CostProfile`. The start and
goal positions are part of the returned :class:`~navmesh.path.Path`'s points.

Refinement (``refine=``)
------------------------
- ``"none"``: the cheapest path through the graph (:func:`navmesh.search.astar_multi`).
- ``"smooth"``: that path, string-pulled afterwards (:func:`smooth_path`).
- ``"any_angle"``: a Theta*-style search: a node reached from ``u`` takes ``u``'s parent as its
  own parent when the straight walk from there is allowed and costs no more, and every expanded
  node tries the straight walk to the goal; then string-pulled. A sparse graph (``k=8``) then
  gives paths close to the true shortest ones when it covers open areas (see
  ``benchmarks/anyangle.py``: corner plus fill waypoints land within about 1%).

A straight shortcut is *allowed* when it has line of sight (the same rule as the build) and
touches no terrain region boundary, manual / gated / off-mesh link segment or danger-zone
square, and its ends are on one floor. So a shortcut lies inside one terrain class and its cost
is exact (length x that class's multiplier); shortcuts never cross terrain edges, never bypass a
link the designer drew, and never change the cost rules. Refinement never raises a path's cost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Literal

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import as_float_array, check_nonneg_float, check_option, check_positive_int
from navmesh._kernels import anyangle as AK
from navmesh._kernels.status import BUDGET, FOUND
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    NoPathError,
    SearchBudgetError,
    describe,
)
from navmesh.path import Path
from navmesh.search import astar_multi
from navmesh.terrain import CostProfile, DangerZone
from navmesh.waypoints.navmap import NavMap, check_danger, check_profile

__all__ = ["REFINES", "NavQuery", "Refine", "find_path", "smooth_path", "snap"]

Refine = Literal["none", "smooth", "any_angle"]
REFINES: tuple[str, ...] = ("none", "smooth", "any_angle")
DEFAULT_LOOKBACK = 1


def _check_nav(nav: NavMap) -> NavMap:
    if not isinstance(nav, NavMap):
        raise InvalidOptionError(f"nav={describe(nav)} is not a NavMap (see build_waypoint_graph)")
    return nav


def _walkable_position(nav: NavMap, name: str, point: ArrayLike) -> NDArray[np.float64]:
    p = nav.position(point)
    if not nav.line_of_sight.walkable(p[None, :2])[0]:
        raise NodeNotFoundError(
            f"{name}={p.tolist()} is not walkable for agent_radius={nav.options.agent_radius}: it lies inside "
            "an obstacle (inflated by the agent radius) or outside the bounds"
        )
    return p


def snap(nav: NavMap, point: ArrayLike) -> int:
    """The nearest waypoint visible from ``point``.

    Candidates are the position's candidates by the linking rule (see
    :meth:`NavMap.visible_waypoints`).

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
    _check_nav(nav)
    p = _walkable_position(nav, "point", point)
    vis = nav.visible_waypoints(p)
    if len(vis) == 0:
        raise NodeNotFoundError(f"point={p.tolist()}: no waypoint is visible from it (within the candidate rule)")
    return int(vis[0])


def _arc_costs(nav: NavMap, weights: NDArray[np.float64], nodes: NDArray[np.int32]) -> NDArray[np.float64]:
    """Cheapest arc weight between consecutive nodes (inf when there is no arc)."""
    g = nav.graph
    out = np.full(max(len(nodes) - 1, 0), np.inf)
    for i in range(len(nodes) - 1):
        lo, hi = g.indptr[nodes[i]], g.indptr[nodes[i] + 1]
        hit = np.flatnonzero(g.indices[lo:hi] == nodes[i + 1])
        if hit.size:
            out[i] = weights[lo + hit].min()
    return out


class _Query:
    """Per-query arrays for the kernels: graph nodes plus the start (row n) and goal (row n + 1)."""

    def __init__(self, nav: NavMap, s: NDArray[np.float64], g: NDArray[np.float64],
                 profile: CostProfile, danger: tuple[DangerZone, ...]) -> None:
        n = nav.n_nodes
        self.nav = nav
        self.n = n
        pts = nav.points
        self.xy = np.ascontiguousarray(np.concatenate([pts[:, :2], s[None, :2], g[None, :2]]))
        ends = np.stack([s, g])
        end_floor = [nav.floor_index(s), nav.floor_index(g)]
        self.floor = np.concatenate([nav.floor_ids(), np.asarray(end_floor, np.int64)])
        mult = np.concatenate([nav.node_multipliers(profile), nav.point_multipliers(ends, profile)])
        if danger:
            # no shortcut may start inside a danger square: its cost there is not uniform
            for z in danger:
                (cx, cy), r = z.centre, z.radius
                inside = (np.abs(self.xy[:, 0] - cx) <= r) & (np.abs(self.xy[:, 1] - cy) <= r)
                mult = np.where(inside, np.inf, mult)
        self.mult = np.ascontiguousarray(mult)
        self.walls = nav.walls
        bg = nav.barrier_grid(danger)
        self.barriers = (bg.edges, bg.grid, bg.cell_ptr, bg.cell_items)

    def pull(self, order: NDArray[np.int64], cum: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        keep, cost = AK.string_pull(
            np.ascontiguousarray(order, dtype=np.int64), self.xy, self.mult, self.floor,
            np.ascontiguousarray(cum, dtype=np.float64), *self.walls, *self.barriers,
        )
        return order[keep], cost


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
    lookback: int = DEFAULT_LOOKBACK,
) -> Path:
    """The path from one position to another for a unit of the given profile.

    Both positions join the graph through their visible waypoints (the linking rule), at the
    straight-walk cost under ``profile``. When the goal is in sight of the start, the straight
    walk is a candidate too, and it is returned whenever the search finds nothing cheaper,
    nothing at all, or runs out of budget. See the module notes for ``refine``.

    Parameters
    ----------
    nav : NavMap
    start, goal : float arrays of shape (2,) or (3,)
        World positions (give z on a level with several floors); both must be walkable.
    profile : CostProfile, optional
        Terrain multipliers, forbidden tags and capabilities. Default: everything x1, gated
        arcs closed.
    danger : iterable of DangerZone
        Runtime extra costs (not cached).
    refine : {"none", "smooth", "any_angle"}
        How much to straighten the path (default ``"any_angle"``).
    heuristic_weight : float
        Factor >= 1 on the A* heuristic (``refine="none"`` or ``"smooth"``; above 1 the result
        may cost up to that factor times the optimum).
    max_expansions : int, optional
        Search budget (>= 1 node expansions).
    allow_partial : bool
        When the goal cannot be reached (or the budget runs out), return the path to the reached
        waypoint nearest the goal (``partial=True``; just the start before any waypoint was
        reached) instead of raising.
    lookback : int
        ``refine="any_angle"`` only: how many ancestors (>= 1) a node may take as its parent; 1 is
        Theta* (the parent's parent). Larger values find a few more shortcuts at the price of
        more line-of-sight tests.

    Returns
    -------
    Path
        ``points`` runs from ``start`` exactly to ``goal`` (a partial path ends at its last
        waypoint); ``nodes`` are the graph waypoints on the way; ``cost`` is the total cost
        under the profile, entry and exit walks included.

    Raises
    ------
    NodeNotFoundError
        ``start`` or ``goal`` is not walkable, or no waypoint is visible from ``start``.
    NoPathError
        The goal cannot be reached (and ``allow_partial`` is False).
    SearchBudgetError
        The budget ran out (and ``allow_partial`` is False).

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
    _check_nav(nav)
    prof = check_profile(profile)
    zones = check_danger(danger)
    check_option("refine", refine, REFINES)
    hw = check_nonneg_float("heuristic_weight", heuristic_weight, allow_none=False)
    if hw < 1.0:
        raise InvalidOptionError(f"heuristic_weight={heuristic_weight!r} is not valid; expected a number >= 1")
    budget = check_positive_int("max_expansions", max_expansions)
    lookback = check_positive_int("lookback", lookback, allow_none=False)
    if not isinstance(allow_partial, (bool, np.bool_)):
        raise InvalidOptionError(f"allow_partial={describe(allow_partial)} is not valid; expected True or False")
    s = _walkable_position(nav, "start", start)
    g = _walkable_position(nav, "goal", goal)
    pts = nav.points

    direct = np.inf
    if _same_floor(s, g) and nav.visible(s[None, :2], g[None, :2])[0]:
        direct = float(nav.straight_costs(s[None], g[None], prof, danger=zones)[0])
    entries = nav.visible_waypoints(s)
    entry_costs = nav.straight_costs(np.repeat(s[None], len(entries), axis=0), pts[entries], prof, danger=zones)
    ok = np.isfinite(entry_costs)
    entries, entry_costs = entries[ok], entry_costs[ok]
    exits = nav.visible_waypoints(g)
    exit_costs = nav.straight_costs(pts[exits], np.repeat(g[None], len(exits), axis=0), prof, danger=zones)
    ok = np.isfinite(exit_costs)
    exits, exit_costs = exits[ok], exit_costs[ok]

    def straight() -> Path:
        return Path(np.zeros(0, np.int32), np.stack([s, g]), direct)

    if len(entries) == 0:
        if np.isfinite(direct):
            return straight()
        raise NodeNotFoundError(f"start={s.tolist()}: no waypoint is visible from it, and the goal is not in sight")
    if len(exits) == 0 and np.isfinite(direct):
        return straight()

    weights = nav.weights(prof, danger=zones)
    q = _Query(nav, s, g, prof, zones) if refine != "none" else None
    try:
        if refine == "any_angle":
            path = _theta(nav, q, s, g, weights.values, entries, entry_costs, exits, exit_costs,
                          _hscale(weights, prof, pts, exits, exit_costs, g), budget, allow_partial, lookback)
        else:
            path = _graph_search(nav, s, g, weights, entries, entry_costs, exits, exit_costs, hw, budget,
                                 allow_partial)
            if refine == "smooth":
                path = _pull_path(q, path, s, g, entries, entry_costs, exits, exit_costs, weights.values)
    except (NoPathError, SearchBudgetError):
        if np.isfinite(direct):
            return straight()
        raise
    if np.isfinite(direct) and (path.partial or direct <= path.cost):
        return straight()
    return path


def _same_floor(s: NDArray[np.float64], g: NDArray[np.float64]) -> bool:
    return len(s) < 3 or len(g) < 3 or s[2] == g[2]


def _hscale(weights, prof: CostProfile, pts, exits, exit_costs, g) -> float:
    """A heuristic scale that never overestimates, exit walks included."""
    scale = min(weights.heuristic_scale("euclidean"), prof.min_multiplier())
    d = np.sqrt(((pts[exits, :2] - g[:2]) ** 2).sum(axis=1))
    pos = d > 0
    if pos.any():
        scale = min(scale, float((exit_costs[pos] / d[pos]).min()))
    return max(scale, 0.0)


def _graph_search(nav, s, g, weights, entries, entry_costs, exits, exit_costs, hw, budget, allow_partial) -> Path:
    pts = nav.points
    if len(exits) == 0:
        raise NoPathError(f"no path from {s.tolist()} to {g.tolist()}: no waypoint is visible from the goal")
    d = np.sqrt(((pts[exits, :2] - g[:2]) ** 2).sum(axis=1))
    scale = weights.heuristic_scale("euclidean")
    admissible = bool(np.all(exit_costs >= scale * d * (1 - 1e-12)))
    try:
        found = astar_multi(
            nav.graph, entries, exits, source_costs=entry_costs, goal_costs=exit_costs,
            goal_point=g[: pts.shape[1]], weights=weights, heuristic="euclidean" if admissible else "zero",
            heuristic_weight=hw, max_expansions=budget, allow_partial=allow_partial,
        )
    except NoPathError:
        raise NoPathError(f"no path from {s.tolist()} to {g.tolist()}") from None
    except SearchBudgetError:
        raise SearchBudgetError(
            f"find_path from {s.tolist()} to {g.tolist()} spent its budget of {budget} expansions; "
            "raise max_expansions or pass allow_partial=True"
        ) from None
    tail = [] if found.partial else [g]
    points = np.concatenate([s[None], pts[found.nodes], np.asarray(tail).reshape(-1, pts.shape[1])])
    return Path(found.nodes, points, found.cost, found.expansions, found.partial)


def _theta(nav, q, s, g, wvals, entries, entry_costs, exits, exit_costs, hscale, budget, allow_partial,
           lookback) -> Path:
    graph = nav.graph
    n = graph.n_nodes
    exit_arr = np.full(n, np.inf)
    np.minimum.at(exit_arr, exits, exit_costs)
    cost, parent, status, expansions, nearest = AK.theta_star(
        graph.indptr, graph.indices, np.ascontiguousarray(wvals), q.xy, q.mult, q.floor,
        entries.astype(np.int32), np.ascontiguousarray(entry_costs, dtype=np.float64), exit_arr,
        hscale, budget or 0, lookback, *q.walls, *q.barriers,
    )
    end = n + 1
    partial = False
    if status != FOUND:
        if allow_partial:
            # the reached waypoint nearest the goal; before any was reached, the start itself
            end, partial = (nearest if nearest >= 0 else n), True
        elif status == BUDGET:
            raise SearchBudgetError(
                f"find_path from {s.tolist()} to {g.tolist()} spent its budget of {expansions} expansions; "
                "raise max_expansions or pass allow_partial=True"
            )
        else:
            raise NoPathError(f"no path from {s.tolist()} to {g.tolist()}")
    chain = [end]
    while parent[chain[-1]] >= 0:
        chain.append(int(parent[chain[-1]]))
    order = np.asarray(chain[::-1], dtype=np.int64)
    order, cum = q.pull(order, cost[order])
    nodes = order[(order < n)].astype(np.int32)
    return Path(nodes, _rows(nav, q, order, s, g), float(cum[-1]), int(expansions), partial)


def _rows(nav: NavMap, q: _Query, order: NDArray[np.int64], s, g) -> NDArray[np.float64]:
    table = np.concatenate([nav.points, s[None], g[None]])
    return table[order]


def _pull_path(q: _Query, path: Path, s, g, entries, entry_costs, exits, exit_costs, wvals) -> Path:
    """String-pull a graph path that starts at the start position (and ends at the goal)."""
    n = q.n
    nodes = path.nodes
    steps = [float(entry_costs[np.flatnonzero(entries == nodes[0])].min())]
    steps += _arc_costs(q.nav, wvals, nodes).tolist()
    order = [n, *nodes.tolist()]
    if not path.partial:
        steps.append(float(exit_costs[np.flatnonzero(exits == nodes[-1])].min()))
        order.append(n + 1)
    cum = np.concatenate([[0.0], np.cumsum(steps)])
    kept, cost = q.pull(np.asarray(order, dtype=np.int64), cum)
    return Path(kept[kept < n].astype(np.int32), _rows(q.nav, q, kept, s, g), float(cost[-1]), path.expansions,
                path.partial)


def smooth_path(
    nav: NavMap,
    path: Path,
    *,
    profile: CostProfile | None = None,
    danger: Iterable[DangerZone] = (),
) -> Path:
    """String-pull a path: drop points while a straight shortcut is allowed and costs no more.

    From each kept point the path jumps to the farthest later point that can be reached by an
    allowed straight shortcut (see the module notes) costing no more than the path it replaces.

    Parameters
    ----------
    nav : NavMap
    path : Path
        From :func:`find_path` (points = start, waypoints, goal), or a plain graph path whose
        points are ``nav.points[path.nodes]``.
    profile, danger
        The cost rules the path was found with.

    Returns
    -------
    Path
        Same ends, a subset of the points, ``cost`` <= the input path's cost under the profile.

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
    _check_nav(nav)
    prof = check_profile(profile)
    zones = check_danger(danger)
    if not isinstance(path, Path):
        raise InvalidOptionError(f"path={describe(path)} is not a Path")
    nodes = path.nodes
    k = len(path.points)
    if k < 3:
        return path
    pts = nav.points
    if len(nodes) and (nodes.min() < 0 or nodes.max() >= nav.n_nodes):
        raise NodeNotFoundError(f"path.nodes hold ids outside 0..{nav.n_nodes - 1}; the path is not from this graph")
    if k == len(nodes):
        lead, tail = 0, 0
    elif k == len(nodes) + 1:
        lead, tail = 1, 0
    elif k == len(nodes) + 2:
        lead, tail = 1, 1
    else:
        raise InvalidOptionError(
            f"path has {k} points and {len(nodes)} nodes; expected the nodes' points, optionally with the start "
            "and goal positions around them"
        )
    s = nav.position(path.points[0])
    g = nav.position(path.points[-1])
    q = _Query(nav, s, g, prof, zones)
    order = np.concatenate([[q.n] if lead else [], nodes, [q.n + 1] if tail else []]).astype(np.int64)
    rows = np.concatenate([pts, s[None], g[None]])[order]
    arcs = _arc_costs(nav, nav.weights(prof, danger=zones).values, nodes)
    straight = nav.straight_costs(rows[:-1], rows[1:], prof, danger=zones)
    steps = straight.copy()
    steps[lead : lead + len(arcs)] = np.where(np.isfinite(arcs), arcs, straight[lead : lead + len(arcs)])
    cum = np.concatenate([[0.0], np.cumsum(steps)])
    kept, cost = q.pull(order, cum)
    table = np.concatenate([pts, s[None], g[None]])
    return Path(kept[kept < q.n].astype(np.int32), table[kept], float(cost[-1]), path.expansions, path.partial)


class NavQuery:
    """Path queries on one :class:`NavMap` for one unit type (Detour's query plus its filter).

    Everything that depends only on the map and the profile (arc weights, node multipliers, the
    heuristic scale) is computed once here; make one query object per unit type and reuse it for
    every unit of that type. Queries never change the map, so any number of ``NavQuery`` objects
    (other profiles, other threads) can share one NavMap; one object is not thread-safe.

    Parameters
    ----------
    navmap : NavMap
        The build output (:func:`~navmesh.waypoints.build.build_waypoint_graph`).
    profile : CostProfile, optional
        Terrain multipliers, forbidden tags and capabilities. Default: everything x1.

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

    def __init__(self, navmap: NavMap, profile: CostProfile | None = None) -> None:
        self.navmap = _check_nav(navmap)
        self.profile = check_profile(profile)
        navmap.weights(self.profile)  # validate and cache now, not in the first frame

    def __repr__(self) -> str:
        return f"NavQuery({self.navmap!r}, profile={self.profile.name!r})"

    def nearest_walkable(self, points: ArrayLike) -> NDArray[np.float64]:
        """The nearest position where the unit's centre may stand, for each point.

        Walkable points are returned unchanged; others (inside an obstacle inflated by the agent
        radius, or outside the bounds) move to the nearest point of the walkable region.

        Parameters
        ----------
        points : float array of shape (n, 2), (n, 3), (2,) or (3,)

        Returns
        -------
        float array of the same shape

        Raises
        ------
        NodeNotFoundError
            The level has no walkable region at all for this agent radius.
        """
        nav = self.navmap
        rows = as_float_array("points", points, InvalidGeometryError)
        single = rows.ndim == 1
        rows = np.atleast_2d(rows)
        pts = np.array([nav.position(p) for p in rows])
        if len(pts) == 0:
            return pts
        bad = np.flatnonzero(~nav.line_of_sight.walkable(pts[:, :2]))
        if len(bad):
            region = nav.walkable
            if region.is_empty:
                raise NodeNotFoundError(
                    f"no walkable point exists for agent_radius={nav.options.agent_radius}: the obstacles cover the level"
                )
            pts[bad, :2] = _nearest_inside(nav, region, pts[bad, :2])
        return pts[0] if single else pts

    def _endpoint(self, name: str, point: ArrayLike, strict: bool) -> tuple[NDArray[np.float64], bool]:
        if strict:
            return _walkable_position(self.navmap, name, point), False
        p = self.navmap.position(point)
        q = self.nearest_walkable(p)
        return q, bool(np.any(q != p))

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
    ) -> Path:
        """The path from ``start`` to ``goal`` for this unit type.

        Same options and results as :func:`find_path`, plus tolerant endpoints: unless
        ``strict=True``, a start or goal that is not walkable (inside an obstacle inflated by the
        agent radius, or outside the bounds) moves to the nearest walkable point first, and the
        path says so (``start_moved`` / ``goal_moved``).

        Raises
        ------
        NodeNotFoundError
            ``strict=True`` and an endpoint is not walkable.
        NoPathError, SearchBudgetError
            As :func:`find_path`.
        """
        s, s_moved = self._endpoint("start", start, strict)
        g, g_moved = self._endpoint("goal", goal, strict)
        path = find_path(self.navmap, s, g, profile=self.profile, danger=danger, refine=refine,
                         heuristic_weight=heuristic_weight, max_expansions=max_expansions,
                         allow_partial=allow_partial)
        if s_moved or g_moved:
            path = dataclasses.replace(path, start_moved=s_moved, goal_moved=g_moved)
        return path

    def find_paths(self, starts: ArrayLike, goals: ArrayLike, **options: Any) -> list[Path]:
        """One path per row: ``starts[i]`` to ``goals[i]`` (a goal of shape (2,) is shared by all).

        Takes the options of :meth:`find_path`; ``allow_partial=True`` is usual for group orders
        so one blocked unit does not fail the whole order.
        """
        s = np.atleast_2d(as_float_array("starts", starts, InvalidGeometryError))
        g = as_float_array("goals", goals, InvalidGeometryError)
        g = np.broadcast_to(g, s.shape) if g.ndim == 1 else np.atleast_2d(g)
        if len(g) != len(s):
            raise InvalidOptionError(f"starts has {len(s)} rows but goals has {len(g)}; expected equal counts or one goal")
        return [self.find_path(a, b, **options) for a, b in zip(s, g)]

    def snap(self, point: ArrayLike) -> int:
        """The nearest waypoint visible from ``point`` (moved to the nearest walkable point first)."""
        return snap(self.navmap, self.nearest_walkable(point))

    def smooth_path(self, path: Path, *, danger: Iterable[DangerZone] = ()) -> Path:
        """``path`` string-pulled under this unit type's costs (see :func:`smooth_path`)."""
        return smooth_path(self.navmap, path, profile=self.profile, danger=danger)


def _nearest_inside(nav: NavMap, region: Any, pts: NDArray[np.float64]) -> NDArray[np.float64]:
    """Nearest points of ``region`` to ``pts``, nudged inward until the line of sight agrees."""
    boundary = shapely.boundary(region) if region.geom_type != "GeometryCollection" else region
    near = shapely.get_coordinates(shapely.shortest_line(shapely.points(pts), boundary))[1::2]
    out = near.copy()
    away = near - pts
    norm = np.hypot(away[:, 0], away[:, 1])
    away /= np.where(norm > 0, norm, 1.0)[:, None]
    scale = max(1.0, float(np.abs(np.asarray(region.bounds)).max()))
    ok = nav.line_of_sight.walkable(out)
    for eps in scale * np.array([1e-12, 1e-9, 1e-6]):
        if ok.all():
            break
        out[~ok] = near[~ok] + away[~ok] * eps
        ok = nav.line_of_sight.walkable(out)
    if not ok.all():
        raise NodeNotFoundError(f"point={pts[~ok][0].tolist()}: no walkable point found near it")
    return out
