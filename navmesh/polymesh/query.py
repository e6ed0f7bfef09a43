"""Queries on a :class:`~navmesh.polymesh.mesh.PolyMesh`: :class:`MeshQuery`.

``NavQuery(polymesh, profile)`` returns a ``MeshQuery`` too, so one query class serves both
kinds of map.

Costs
-----
With uniform costs (every tag the unit may enter has the same multiplier) ``find_path`` gives
the exact Euclidean shortest path with Polyanya (:mod:`navmesh._kernels.polyanya`), times that
multiplier. With different multipliers it searches a corridor of polygons (A* over polygon
adjacency, each step costing the distance between edge midpoints times the multiplier of the
polygon it crosses) and straightens it with the funnel algorithm; the cost is then the exact
cost of the returned polyline (length inside each polygon times its multiplier), though the
route itself may not be the cheapest one. Forbidden tags close their polygons either way.

Endpoints
---------
The library's one endpoint policy, the same as :class:`~navmesh.waypoints.query.NavQuery`'s
(see the notes of :mod:`navmesh.waypoints.query`): a start or goal inside the open mesh (edges
and vertices included), or within :data:`~navmesh.endpoints.ENDPOINT_TOLERANCE` (1e-9) times the
level's size of it, is used as is (moved by at most that much, not reported). One farther off
the mesh moves to the nearest point of the open mesh and the path says so (``start_moved`` /
``goal_moved``); ``strict=True`` raises :class:`~navmesh.errors.NodeNotFoundError` instead,
naming the point, how far it is and where it would move. A position farther outside the
level's bounds than :data:`~navmesh.endpoints.BOUNDS_MARGIN` (5%) of its size is an error either
way. The level's bounds are the mesh's bounds grown by its ``agent_radius`` (a mesh built with
radius r covers the bounds eroded by r).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COORDINATE, as_float_array, check_flag, check_positive_int
from navmesh._kernels import polyanya as PK
from navmesh._kernels.status import BUDGET, EXHAUSTED, FOUND
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError, NoPathError, SearchBudgetError, describe
from navmesh.endpoints import BOUNDS_MARGIN, ENDPOINT_TOLERANCE, level_size
from navmesh.path import Path
from navmesh.polymesh.locate import bucket_grid
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.sliced import MeshSlicedSearch, start_search
from navmesh.terrain import CostProfile

__all__ = ["MeshQuery", "MeshRaycast"]

_EPS = 1e-10  # root pruning slack, relative to the mesh's size
_MAX_HITS = 64  # polygons one point may touch (a vertex shared by many polygons)


@dataclass(frozen=True, eq=False)
class MeshRaycast:
    """Result of :meth:`MeshQuery.raycast` (Detour's ``raycast``).

    Attributes
    ----------
    hit : bool
        True when a wall stops the segment before ``end``.
    t : float
        Fraction of the segment walked before the wall (1.0 when nothing was hit).
    point : float64 array of shape (2,)
        Where the walk stops: the wall hit, or ``end``.
    normal : float64 array of shape (2,)
        Unit normal of the wall hit, pointing into the walkable side ((0, 0) without a hit).
    polygons : int32 array
        The polygons visited, in order.
    """

    hit: bool
    t: float
    point: NDArray[np.float64]
    normal: NDArray[np.float64]
    polygons: NDArray[np.int32]


def _check_mesh(mesh: Any) -> PolyMesh:
    if not isinstance(mesh, PolyMesh):
        raise InvalidOptionError(f"mesh={describe(mesh)} is not a PolyMesh (see build_navmesh)")
    return mesh


def _check_profile(profile: Any) -> CostProfile:
    if profile is None:
        return CostProfile()
    if not isinstance(profile, CostProfile):
        raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
    return profile


class MeshQuery:
    """Path queries on one :class:`PolyMesh` for one unit type.

    Parameters
    ----------
    mesh : PolyMesh
        The mesh (:func:`~navmesh.polymesh.build.build_navmesh` or a ``.mesh`` file).
    profile : CostProfile, optional
        Terrain multipliers and forbidden tags (capabilities do not apply: a mesh has no gated
        links). Default: everything x1.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> from navmesh.polymesh.build import build_navmesh
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    >>> query = MeshQuery(build_navmesh(level))
    >>> query.find_path([1, 1], [9, 1]).points.tolist()
    [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
    """

    def __init__(self, mesh: PolyMesh, profile: CostProfile | None = None) -> None:
        self.mesh = _check_mesh(mesh)
        self.profile = _check_profile(profile)
        m = self.mesh
        self._grid = bucket_grid(m)
        mult = np.array([self.profile.multiplier(t) for t in m.tag_names], dtype=np.float64)
        closed = np.array([t in self.profile.forbidden for t in m.tag_names], dtype=bool)
        self._poly_mult = mult[m.tags] if m.n_polygons else np.zeros(0)
        self._open = ~closed[m.tags] if m.n_polygons else np.zeros(0, bool)
        used = self._poly_mult[self._open]
        self._uniform = len(used) == 0 or bool(np.all(used == used[0]))
        self._scale_cost = float(used[0]) if len(used) else 1.0
        x0, y0, x1, y1 = m.bounds
        self._size = max(x1 - x0, y1 - y0, abs(x0), abs(y0), abs(x1), abs(y1), 1e-300)
        self._eps = _EPS * self._size
        r = self.mesh.agent_radius
        self._level_box = (x0 - r, y0 - r, x1 + r, y1 + r)  # the level's bounds, as far as the mesh knows
        self._tol = ENDPOINT_TOLERANCE * level_size(self._level_box)
        self._arrays = (
            m.vertices, m.indptr, m.indices.astype(np.int64), m.neighbours.astype(np.int64),
            m.twins.astype(np.int64), m.polygon_of.astype(np.int64), m.is_corner,
        )
        self._ws = PK.workspace(m.n_vertices, 1024)
        self._dead, self._up = PK.dead_ends(m.indptr, m.neighbours.astype(np.int64), self._open)
        self._mark = np.zeros(m.n_polygons, np.int64)
        self._stamp = 0
        self._hits = np.empty(_MAX_HITS, np.int64)
        self._component: NDArray[np.int64] | None = None

    def __repr__(self) -> str:
        return f"MeshQuery({self.mesh!r}, profile={self.profile.name!r})"

    # -- endpoints ----------------------------------------------------------------------------
    def _point(self, name: str, point: ArrayLike) -> NDArray[np.float64]:
        p = as_float_array(name, point, InvalidGeometryError)
        if p.shape != (2,) or not (abs(p[0]) <= MAX_COORDINATE and abs(p[1]) <= MAX_COORDINATE):
            raise InvalidGeometryError(f"{name}={describe(point)} is not valid; expected 2 finite coordinates")
        return p

    def _where(self, x: float, y: float) -> NDArray[np.int64]:
        g = self._grid
        xy, indptr, indices = self._arrays[0], self._arrays[1], self._arrays[2]
        k = PK.locate(x, y, xy, indptr, indices, g.cell_ptr, g.cell_polys, g.grid, self._open, self._hits)
        return self._hits[:k].copy()

    def polygon_at(self, point: ArrayLike) -> int:
        """The polygon containing ``point`` (one of them on a shared edge), -1 outside the mesh
        or in a forbidden polygon.

        Examples
        --------
        >>> from navmesh.polymesh.mesh import PolyMesh
        >>> mesh = PolyMesh([[0, 0], [2, 0], [2, 1], [0, 1]], [0, 4], [0, 1, 2, 3], [-1, -1, -1, -1])
        >>> MeshQuery(mesh).polygon_at([1, 0.5]), MeshQuery(mesh).polygon_at([3, 0.5])
        (0, -1)
        """
        p = self._point("point", point)
        polys = self._where(p[0], p[1])
        return int(polys[0]) if len(polys) else -1

    def _walls(self) -> tuple[shapely.STRtree, NDArray[np.object_], NDArray[np.int64]]:
        """Wall edges of open polygons (edges to nothing or to a closed polygon), as a tree."""
        key = ("walls", tuple(self._open.tolist()) if self.mesh.n_polygons < 64 else hash(self._open.tobytes()))
        cache = self.mesh._cache
        if key not in cache:
            m = self.mesh
            slots = np.arange(len(m.indices))
            nbr = m.neighbours
            own_open = self._open[m.polygon_of] if len(slots) else np.zeros(0, bool)
            wall = own_open & ((nbr < 0) | ~self._open[np.maximum(nbr, 0)])
            slots = slots[wall]
            nxt = np.arange(1, len(m.indices) + 1)
            nxt[m.indptr[1:] - 1] = m.indptr[:-1]
            lines = shapely.linestrings(np.stack([m.vertices[m.indices[slots]], m.vertices[m.indices[nxt[slots]]]], axis=1))
            cache[key] = (shapely.STRtree(lines), lines, slots)
        return cache[key]

    def _nearest_on_mesh(self, p: NDArray[np.float64], limit: float) -> tuple[NDArray[np.float64], NDArray[np.int64]] | None:
        """The nearest point of the open mesh within ``limit`` and its polygons, or None."""
        tree, lines, slots = self._walls()
        if not len(lines):
            return None
        pt = shapely.Point(p)
        if math.isinf(limit):
            idx = tree.query_nearest(pt, all_matches=False)
        else:
            idx = tree.query_nearest(pt, max_distance=limit, all_matches=False)
        if not len(idx):
            return None
        line = lines[int(idx[0])]
        near = np.asarray(shapely.line_interpolate_point(line, shapely.line_locate_point(line, pt)).coords[0])
        owner = int(self.mesh.polygon_of[slots[int(idx[0])]])
        inner = self.mesh.polygon_points(owner).mean(axis=0)
        for step in (0.0, 1e-12, 1e-9, 1e-6):
            q = near + step * (inner - near)
            polys = self._where(q[0], q[1])
            if len(polys):
                return q, polys
        return None

    def _endpoint(self, name: str, point: ArrayLike, strict: bool) -> tuple[NDArray[np.float64], NDArray[np.int64], bool]:
        """The endpoint policy (module notes): the position, its polygons, and whether it moved
        (farther than the endpoint tolerance)."""
        p = self._point(name, point)
        polys = self._where(p[0], p[1])
        if len(polys):
            return p, polys, False
        x0, y0, x1, y1 = self._level_box
        outside = math.hypot(max(x0 - p[0], 0.0, p[0] - x1), max(y0 - p[1], 0.0, p[1] - y1))
        margin = BOUNDS_MARGIN * level_size(self._level_box)
        if outside > margin:
            raise NodeNotFoundError(
                f"{name}={p.tolist()} lies {outside:.6g} world units outside the level's bounds "
                f"{tuple(round(v, 6) for v in self._level_box)}; a start or goal may lie at most "
                f"BOUNDS_MARGIN x the level's size = {margin:.6g} outside them"
            )
        found = self._nearest_on_mesh(p, math.inf)
        if found is None:
            raise NodeNotFoundError(f"{name}={p.tolist()}: the mesh has no walkable polygon for profile {self.profile.name!r}")
        how_far = float(np.hypot(*(found[0] - p)))
        if strict and how_far > self._tol:
            raise NodeNotFoundError(
                f"{name}={p.tolist()} is not walkable for agent_radius={self.mesh.agent_radius}: it lies off the "
                f"mesh (inside an obstacle inflated by the agent radius, outside the eroded bounds or in a forbidden "
                f"polygon), {how_far:.6g} world units from the nearest walkable point {found[0].tolist()} "
                "(pass strict=False to start from there)"
            )
        return found[0], found[1], how_far > self._tol

    # -- paths --------------------------------------------------------------------------------
    def find_path(
        self,
        start: ArrayLike,
        goal: ArrayLike,
        *,
        max_expansions: int | None = None,
        allow_partial: bool = False,
        strict: bool = False,
    ) -> Path:
        """The path from ``start`` to ``goal`` for this unit type.

        Parameters
        ----------
        start, goal : float arrays of shape (2,)
            World positions.
        max_expansions : int, optional
            Search budget (>= 1 node expansions).
        allow_partial : bool
            When the goal cannot be reached (or the budget runs out), return the path to the
            reachable point nearest the goal (``partial=True``) instead of raising.
        strict : bool
            Raise instead of moving an endpoint that is off the mesh (module notes).

        Returns
        -------
        Path
            ``points``: start, the turning points (mesh vertices), goal; ``nodes``: the polygons
            crossed, in order; ``cost``: length times multipliers; ``start_moved`` /
            ``goal_moved`` when an endpoint was moved onto the mesh.

        Raises
        ------
        NodeNotFoundError
            An endpoint lies farther outside the level's bounds than
            :data:`~navmesh.endpoints.BOUNDS_MARGIN` (5%) of the level's size; ``strict=True`` and
            an endpoint is farther than :data:`~navmesh.endpoints.ENDPOINT_TOLERANCE` times the
            level's size from the open mesh; or no polygon is open.
        NoPathError
            The goal cannot be reached (and ``allow_partial`` is False).
        SearchBudgetError
            The budget ran out (and ``allow_partial`` is False).
        InvalidGeometryError
            A position is not 2 finite numbers.

        Examples
        --------
        >>> from navmesh.level import Level
        >>> from navmesh.polymesh.build import build_navmesh
        >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
        >>> path = MeshQuery(build_navmesh(level)).find_path([1, 1], [9, 1])
        >>> round(path.cost, 6), path.start_moved
        (17.231546, False)
        """
        strict = check_flag("strict", strict)
        allow_partial = check_flag("allow_partial", allow_partial)
        budget = None if max_expansions is None else check_positive_int("max_expansions", max_expansions)
        s, s_polys, s_moved = self._endpoint("start", start, strict)
        g, g_polys, g_moved = self._endpoint("goal", goal, strict)
        if not self._uniform:
            return self._corridor_path(s, s_polys, s_moved, g, g_polys, g_moved, allow_partial)
        return self._polyanya(s, s_polys, s_moved, g, g_polys, g_moved, budget, allow_partial)

    def find_paths(
        self,
        starts: ArrayLike,
        goals: ArrayLike,
        *,
        max_expansions: int | None = None,
        allow_partial: bool = False,
        strict: bool = False,
    ) -> list[Path]:
        """One path per row, ``starts[i]`` to ``goals[i]`` (a single goal serves every row); the
        options are those of :meth:`find_path` (the same endpoint policy, ``strict`` included).

        Examples
        --------
        >>> from navmesh.level import Level
        >>> from navmesh.polymesh.build import build_navmesh
        >>> query = MeshQuery(build_navmesh(Level.rectangle(10, 10)))
        >>> [p.cost for p in query.find_paths([[0, 0], [3, 4]], [0, 1])]
        [1.0, 4.242640687119285]
        """
        s = as_float_array("starts", starts, InvalidGeometryError)
        g = as_float_array("goals", goals, InvalidGeometryError)
        s = s.reshape(-1, 2) if s.ndim == 2 or s.size == 0 else s.reshape(1, -1)
        g = g.reshape(1, -1) if g.ndim == 1 else g
        if len(g) == 1 and len(s) != 1:
            g = np.repeat(g, len(s), axis=0)
        if len(g) != len(s):
            raise InvalidOptionError(f"starts has {len(s)} rows but goals has {len(g)}; expected equal counts or one goal")
        return [self.find_path(a, b, max_expansions=max_expansions, allow_partial=allow_partial, strict=strict)
                for a, b in zip(s, g)]

    def start_search(self, start: ArrayLike, goal: ArrayLike, **options: Any) -> MeshSlicedSearch:
        """A search spread over frames: see :func:`navmesh.polymesh.sliced.start_search`."""
        return start_search(self, start, goal, **options)

    def _components(self) -> NDArray[np.int64]:
        """Connected component of each polygon through open polygons (-1 for closed ones)."""
        if self._component is None:
            import scipy.sparse
            import scipy.sparse.csgraph

            m = self.mesh
            has = (m.neighbours >= 0)
            a = m.polygon_of[has]
            b = m.neighbours[has]
            both = self._open[a] & self._open[b]
            g = scipy.sparse.coo_matrix((np.ones(int(both.sum())), (a[both], b[both])), shape=(m.n_polygons,) * 2)
            _, label = scipy.sparse.csgraph.connected_components(g, directed=False)
            label = label.astype(np.int64)
            label[~self._open] = -1
            self._component = label
        return self._component

    def _run(self, s: NDArray[np.float64], s_polys, g: NDArray[np.float64], g_polys, budget: int):
        xy, indptr, indices, nbr, twins, owner, corner = self._arrays
        while True:
            self._stamp += 1
            status, final, expansions, _ = PK.search(
                xy, indptr, indices, nbr, twins, owner, corner, self._open, self._dead, self._up, self._mark,
                s[0], s[1], g[0], g[1],
                s_polys, g_polys, self._ws, self._stamp, self._eps, budget)
            if status != PK.NEED_SPACE:
                return status, final, expansions
            self._ws = PK.workspace(self.mesh.n_vertices, 4 * len(self._ws[0]))

    def _polyanya(self, s, s_polys, s_moved, g, g_polys, g_moved, budget, allow_partial) -> Path:
        comp = self._components()
        if len(s_polys) == 1 and len(g_polys) == 1:
            apart = comp[s_polys[0]] != comp[g_polys[0]]
        else:
            apart = not set(comp[s_polys].tolist()) & set(comp[g_polys].tolist())
        if apart:
            return self._unreachable(s, s_polys, s_moved, g, g_moved, allow_partial, budget)
        status, final, expansions = self._run(s, s_polys, g, g_polys, budget if budget is not None else 2**62)
        return self._outcome(status, final, expansions, self._ws, s, s_polys, s_moved, g, g_polys, g_moved, budget,
                             allow_partial)

    def _outcome(self, status, final, expansions, ws, s, s_polys, s_moved, g, g_polys, g_moved, budget,
                 allow_partial) -> Path:
        """The path (or error) of a finished Polyanya search whose nodes are in ``ws``."""
        if status == FOUND:
            if final < 0:
                pts = np.array([s, g])
                polys = np.array([next(p for p in s_polys.tolist() if p in g_polys.tolist())])
            else:
                xy, indptr, indices, nbr, twins, owner, _ = self._arrays
                pts, polys = PK.trace_path(xy, indptr, indices, nbr, twins, owner, ws, final, s[0], s[1], g[0], g[1])
            return self._make_path(pts, polys, expansions, False, s_moved, g_moved)
        if status == BUDGET and not allow_partial:
            raise SearchBudgetError(f"max_expansions={budget} ran out searching from {s.tolist()} to {g.tolist()}")
        if status == EXHAUSTED:
            return self._unreachable(s, s_polys, s_moved, g, g_moved, allow_partial, budget)
        # budget spent, partial allowed: straight to the node nearest the goal is unknown; stay put
        return Path(np.array([int(s_polys[0])]), s[None, :], 0.0, expansions, True, s_moved, g_moved)

    def _make_path(self, pts, polys, expansions, partial, s_moved, g_moved) -> Path:
        length = PK.polyline_length(pts)
        return Path(polys, pts, length * self._scale_cost, expansions, partial, s_moved, g_moved)

    def _unreachable(self, s, s_polys, s_moved, g, g_moved, allow_partial, budget) -> Path:
        if not allow_partial:
            raise NoPathError(f"no path from {s.tolist()} to {g.tolist()} on the mesh for profile {self.profile.name!r}")
        comp = self._components()
        mine = np.flatnonzero(np.isin(comp, comp[s_polys]))
        polys = self._shapes()[mine]
        goal = shapely.Point(g)
        best = int(np.argmin(shapely.distance(polys, goal)))
        near = np.asarray(shapely.shortest_line(polys[best], goal).coords[0])
        found = self._nearest_inside(near, int(mine[best]))
        path = self.find_path(s, found, max_expansions=budget, strict=True) if self._uniform else \
            self._corridor_path(s, s_polys, s_moved, found, self._where(*found), False, False)
        return Path(path.nodes, path.points, path.cost, path.expansions, True, s_moved, g_moved)

    def _nearest_inside(self, q: NDArray[np.float64], poly: int) -> NDArray[np.float64]:
        inner = self.mesh.polygon_points(poly).mean(axis=0)
        for step in (0.0, 1e-12, 1e-9, 1e-6, 1e-3):
            r = q + step * (inner - q)
            if len(self._where(r[0], r[1])):
                return r
        return inner

    def _shapes(self) -> NDArray[np.object_]:
        if "shapes" not in self.mesh._cache:
            self.mesh._cache["shapes"] = self.mesh.to_shapely()
        return self.mesh._cache["shapes"]

    # -- terrain: corridor + funnel -------------------------------------------------------------
    def _corridor_path(self, s, s_polys, s_moved, g, g_polys, g_moved, allow_partial) -> Path:
        m = self.mesh
        common = np.intersect1d(s_polys, g_polys)
        if len(common):
            corridor = [int(common[0])]
            expansions = 0
        else:
            corridor, expansions = self._corridor(s, s_polys, g, g_polys)
            if corridor is None:
                return self._unreachable(s, s_polys, s_moved, g, g_moved, allow_partial, None)
        pts = self._funnel(s, g, corridor)
        line = shapely.LineString(pts) if len(pts) > 1 and np.any(pts[0] != pts[-1]) else None
        if line is None:
            cost = 0.0
        else:
            shapes = self._shapes()[np.unique(corridor)]
            inside = shapely.length(shapely.intersection(shapes, line))
            cost = float((inside * self._poly_mult[np.unique(corridor)]).sum())
        return Path(np.array(corridor, np.int32), pts if len(pts) > 1 else np.repeat(pts, 2, axis=0), cost,
                    expansions, False, s_moved, g_moved)

    def _corridor(self, s, s_polys, g, g_polys):
        """A* over polygon adjacency from the start polygons to a goal polygon; the sequence of
        polygons, or None."""
        m = self.mesh
        xy, indptr, indices = m.vertices, m.indptr, m.indices
        hmult = float(self._poly_mult[self._open].min())
        goals = set(g_polys.tolist())
        best: dict[int, float] = {}
        parent: dict[int, int] = {}
        pos: dict[int, NDArray[np.float64]] = {}
        heap: list[tuple[float, float, int]] = []
        for p in s_polys.tolist():
            best[p] = 0.0
            parent[p] = -1
            pos[p] = s
            heapq.heappush(heap, (hmult * float(np.hypot(*(g - s))), 0.0, p))
        expansions = 0
        while heap:
            f, cost, p = heapq.heappop(heap)
            if cost > best.get(p, math.inf):
                continue
            expansions += 1
            if p in goals:
                chain = [p]
                while parent[chain[-1]] >= 0:
                    chain.append(parent[chain[-1]])
                return chain[::-1], expansions
            here = pos[p]
            lo, hi = int(indptr[p]), int(indptr[p + 1])
            for e in range(lo, hi):
                q = int(m.neighbours[e])
                if q < 0 or not self._open[q]:
                    continue
                a = xy[indices[e]]
                b = xy[indices[e + 1 if e + 1 < hi else lo]]
                mid = (a + b) / 2
                step = float(np.hypot(*(mid - here))) * float(self._poly_mult[p])
                if q in goals:
                    step += float(np.hypot(*(g - mid))) * float(self._poly_mult[q])
                c = cost + step
                if c < best.get(q, math.inf):
                    best[q] = c
                    parent[q] = p
                    pos[q] = g if q in goals else mid
                    heapq.heappush(heap, (c + (0.0 if q in goals else hmult * float(np.hypot(*(g - mid)))), c, q))
        return None, expansions

    def _funnel(self, s: NDArray[np.float64], g: NDArray[np.float64], corridor: list[int]) -> NDArray[np.float64]:
        """String pulling through the portals between consecutive corridor polygons."""
        m = self.mesh
        portals = [(s, s)]
        for p, q in zip(corridor[:-1], corridor[1:]):
            lo, hi = int(m.indptr[p]), int(m.indptr[p + 1])
            for e in range(lo, hi):
                if m.neighbours[e] == q:
                    a = m.vertices[m.indices[e]]
                    b = m.vertices[m.indices[e + 1 if e + 1 < hi else lo]]
                    portals.append((b, a))  # (left, right) seen from inside p looking into q
                    break
        portals.append((g, g))

        def cross(o, a, b):
            return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

        out = [s]
        apex, left, right = s, portals[0][0], portals[0][1]
        ia = il = ir = 0
        i = 1
        while i < len(portals):
            pl, pr = portals[i]
            if cross(apex, right, pr) >= 0:  # right side tightens
                if np.array_equal(apex, right) or cross(apex, left, pr) < 0:
                    right, ir = pr, i
                else:
                    out.append(left)
                    apex, ia = left, il
                    left, right, il, ir = apex, apex, ia, ia
                    i = ia + 1
                    continue
            if cross(apex, left, pl) <= 0:  # left side tightens
                if np.array_equal(apex, left) or cross(apex, right, pl) > 0:
                    left, il = pl, i
                else:
                    out.append(right)
                    apex, ia = right, ir
                    left, right, il, ir = apex, apex, ia, ia
                    i = ia + 1
                    continue
            i += 1
        if not np.array_equal(out[-1], g):
            out.append(g)
        return np.array(out, dtype=np.float64)

    # -- other queries ------------------------------------------------------------------------
    def nearest_walkable(self, points: ArrayLike) -> NDArray[np.float64]:
        """The nearest point of the (open) mesh to each point; points on it come back unchanged.

        Parameters
        ----------
        points : float array of shape (n, 2) or (2,)

        Returns
        -------
        float array of the same shape

        Raises
        ------
        NodeNotFoundError
            The mesh has no open polygon.
        """
        rows = as_float_array("points", points, InvalidGeometryError)
        single = rows.ndim == 1
        pts = np.array(rows, ndmin=2, dtype=np.float64)
        if pts.ndim != 2 or pts.shape[1] != 2 or not np.isfinite(pts).all():
            raise InvalidGeometryError(f"points={describe(points)} is not valid; expected rows of 2 finite coordinates")
        out = pts.copy()
        for i, p in enumerate(pts):
            if not len(self._where(p[0], p[1])):
                found = self._nearest_on_mesh(p, math.inf)
                if found is None:
                    raise NodeNotFoundError("the mesh has no walkable polygon for this profile")
                out[i] = found[0]
        return out[0] if single else out

    def raycast(self, start: ArrayLike, end: ArrayLike) -> MeshRaycast:
        """Walk straight from ``start`` towards ``end`` until a wall (Detour's raycast).

        Parameters
        ----------
        start : float array of shape (2,)
            A point on the mesh (moved onto it like a path's start, ``strict=False``).
        end : float array of shape (2,)
            Any point.

        Returns
        -------
        MeshRaycast

        Examples
        --------
        >>> from navmesh.level import Level
        >>> from navmesh.polymesh.build import build_navmesh
        >>> query = MeshQuery(build_navmesh(Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])))
        >>> hit = query.raycast([1, 1], [9, 1])
        >>> hit.hit, hit.t, hit.point.tolist(), hit.normal.tolist()
        (True, 0.375, [4.0, 1.0], [-1.0, 0.0])
        """
        s, s_polys, _ = self._endpoint("start", start, False)
        e = self._point("end", end)
        xy, indptr, indices, nbr, twins, owner, _ = self._arrays
        hit, t, slot, visited, n = PK.raycast(xy, indptr, indices, nbr, twins, self._open, s[0], s[1], e[0], e[1],
                                              int(s_polys[0]))
        point = s + t * (e - s) if hit else e.copy()
        normal = np.zeros(2)
        if hit:
            a = xy[indices[slot]]
            p = owner[slot]
            nxt = slot + 1 if slot + 1 < indptr[p + 1] else indptr[p]
            d = xy[indices[nxt]] - a
            normal = np.array([-d[1], d[0]]) / math.hypot(d[0], d[1])
        return MeshRaycast(bool(hit), float(t), point, normal, visited[:n].astype(np.int32))

    def random_point(self, rng: np.random.Generator | int | None = None) -> NDArray[np.float64]:
        """A point drawn uniformly from the open polygons' area.

        Parameters
        ----------
        rng : numpy Generator or int seed, optional

        Raises
        ------
        NodeNotFoundError
            No open polygon.

        Examples
        --------
        >>> from navmesh.level import Level
        >>> from navmesh.polymesh.build import build_navmesh
        >>> query = MeshQuery(build_navmesh(Level.rectangle(10, 10)))
        >>> bool(query.polygon_at(query.random_point(7)) >= 0)
        True
        """
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        m = self.mesh
        areas = np.where(self._open, m.areas(), 0.0)
        total = areas.sum()
        if total <= 0:
            raise NodeNotFoundError("the mesh has no walkable polygon for this profile")
        p = int(np.searchsorted(np.cumsum(areas), gen.random() * total, side="right"))
        p = min(p, m.n_polygons - 1)
        pts = m.polygon_points(p)
        a, b, c = pts[0], pts[1:-1], pts[2:]
        tri = np.abs((b[:, 0] - a[0]) * (c[:, 1] - a[1]) - (b[:, 1] - a[1]) * (c[:, 0] - a[0]))
        k = min(int(np.searchsorted(np.cumsum(tri), gen.random() * tri.sum(), side="right")), len(tri) - 1)
        u, v = gen.random(2)
        if u + v > 1:
            u, v = 1 - u, 1 - v
        return a + u * (b[k] - a) + v * (c[k] - a)
