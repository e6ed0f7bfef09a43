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
route itself may not be the cheapest one. Forbidden tags close their polygons either way: on a
mesh built for a radius, every polygon from which the unit's body would touch a forbidden tag
(``PolyMesh.body_tags``), so the whole body stays out of that terrain, not only its centre.

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

import math
from typing import Any

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph
import shapely
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COORDINATE, as_float_array
from navmesh._kernels import polyanya as PK
from navmesh._kernels.status import BUDGET, FOUND
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError, NoPathError, SearchBudgetError, describe
from navmesh.endpoints import BOUNDS_MARGIN, ENDPOINT_TOLERANCE, level_size
from navmesh.path import Path
from navmesh.polymesh.corridor import corridor_search, funnel
from navmesh.polymesh.locate import bucket_grid
from navmesh.polymesh.mesh import PolyMesh, next_slots, wall_corners
from navmesh.polymesh.raycast import MeshRaycast
from navmesh.polymesh.sample import random_open_point
from navmesh.polymesh.sliced import MeshSlicedSearch, start_search
from navmesh.polymesh.walls import nearest_wall_point
from navmesh.polymesh.workspace import OutputBlock, Workspace, kernel_code, place_ends, run, traced_path
from navmesh.query_options import cached_query_options
from navmesh.terrain import CostProfile

__all__ = ["MeshQuery", "MeshRaycast"]

_EPS = 1e-10  # root pruning slack, relative to the mesh's size
_POOL = 1024  # initial search node capacity (grows on demand)
_search, _NEED_SPACE, _Path, _new, _views = PK.search, PK.NEED_SPACE, Path, object.__new__, Path._views  # bound once: find_path is hot
_SEQS, _ndarray = (tuple, list), np.ndarray  # find_path unpacks these as (x, y) itself; numpy rows by tolist
_PAIRS = (*_SEQS, _ndarray)
_FLOATS = (float, np.float64)  # numba takes both as float64
_REALS = (float, int, np.float64)  # exactly these types (bool, a subclass of int, goes the long way)


def _checked(mesh: Any, profile: Any) -> tuple[PolyMesh, CostProfile]:
    """MeshQuery's arguments, checked (profile None: everything x1)."""
    if not isinstance(mesh, PolyMesh):
        raise InvalidOptionError(f"mesh={describe(mesh)} is not a PolyMesh (see build_navmesh)")
    if profile is not None and not isinstance(profile, CostProfile):
        raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
    return mesh, CostProfile() if profile is None else profile


class MeshQuery:
    """Path queries on one :class:`PolyMesh` for one unit type.

    Parameters
    ----------
    mesh : PolyMesh
        The mesh (:func:`~navmesh.polymesh.build.build_navmesh` or a ``.mesh`` file).
    profile : CostProfile, optional
        Terrain multipliers and forbidden tags (capabilities do not apply: a mesh has no gated
        links). Default: everything x1.

    Notes
    -----
    The paths of ``find_path``'s default call are read-only views of a block of memory the query
    fills path after path (:mod:`navmesh.polymesh.workspace`): a kept path holds on to its block
    (about 20 kB) until every path of that block is gone.

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
        self.mesh, self.profile = _checked(mesh, profile)
        m = self.mesh
        grid = bucket_grid(m)
        mult = self.profile.tag_multipliers(m.tag_names)  # the one cost rule: inf where closed
        closed = np.isinf(mult)
        mult = np.where(closed, 1.0, mult)
        self._poly_mult = mult[m.tags] if m.n_polygons else np.zeros(0)
        # forbidden terrain is a wall for the body on a mesh for a radius: closed where the body may touch it
        bits = int(np.sum(np.left_shift(1, np.flatnonzero(closed).astype(np.int64))))
        self._open = ~closed[m.tags] if m.body_tags is None else (m.body_tags & bits) == 0
        used = self._poly_mult[self._open]
        self._uniform = len(used) == 0 or bool(np.all(used == used[0]))
        self._scale_cost = float(used[0]) if len(used) else 1.0
        x0, y0, x1, y1 = m.bounds
        self._eps = _EPS * max(x1 - x0, y1 - y0, abs(x0), abs(y0), abs(x1), abs(y1), 1e-300)
        r = self.mesh.agent_radius
        self._level_box = (x0 - r, y0 - r, x1 + r, y1 + r)  # the level's bounds, as far as the mesh knows
        self._tol = ENDPOINT_TOLERANCE * level_size(self._level_box)
        self._component = self._components()
        # a closed polygon is a wall for this unit: paths may turn at its corners too
        corner = m.is_corner if self._open.all() else wall_corners(m.vertices, m.indptr, m.indices, m.neighbours, self._open)
        n = m.n_polygons
        # the mesh for the kernels in one array, in the order of PK's M_* sections;
        # PK.dead_ends fills the dead-end forest's three sections and the skip section in place
        nbr = np.where(m.neighbours >= 0, m.neighbours, -1)
        nbr[nbr >= 0] = np.where(self._open[nbr[nbr >= 0]], nbr[nbr >= 0], -1)  # closed: no neighbour (PK's notes)
        self._mi = PK.pack([m.indptr, m.indices, nbr, m.twins, m.polygon_of, corner, self._open.astype(np.int64),
                            np.zeros(n), np.zeros(3 * n), np.zeros(n), grid.cell_ptr, grid.cell_polys, self._component,
                            np.zeros(len(m.indices))])
        self._params = np.concatenate([grid.grid, [self._eps]])  # PK's float parameters
        self._xy_mesh = np.concatenate([m.vertices, m.vertices[m.indices]])  # PK's xy: vertices, then per slot
        self._block = OutputBlock()
        self._code = _search  # the kernel's compiled code once numba has it (_set_hot)
        self._grow(_POOL)
        PK.dead_ends(self._mi, np.zeros(n, np.int64), np.zeros(n, np.int64))
        nxt = next_slots(m.indptr)
        self._edges = np.stack([m.vertices[m.indices], m.vertices[m.indices[nxt]]], axis=1)  # (E, 2, 2)

    def __repr__(self) -> str:
        return f"MeshQuery({self.mesh!r}, profile={self.profile.name!r})"

    # -- endpoints ----------------------------------------------------------------------------
    def _xy(self, name: str, point: ArrayLike) -> tuple[float, float]:
        """A checked position as two Python floats (numba takes them faster than numpy scalars)."""
        kind = type(point)
        if kind in _PAIRS and (point.shape == (2,) if kind is np.ndarray else len(point) == 2):  # len fails on 0-d
            # the common (x, y) of plain numbers (or a numpy row, as Python floats: they compare
            # several times faster than numpy scalars), without numpy's conversion machinery;
            # anything odd (too large, NaN, not numbers) takes the long way and its error
            x, y = point.tolist() if kind is np.ndarray else point
            if (type(x) in _REALS and type(y) in _REALS and -MAX_COORDINATE <= x <= MAX_COORDINATE
                    and -MAX_COORDINATE <= y <= MAX_COORDINATE):
                return float(x), float(y)
        p = self._point(name, point)
        return float(p[0]), float(p[1])

    def _point(self, name: str, point: ArrayLike) -> NDArray[np.float64]:
        p = as_float_array(name, point, InvalidGeometryError)
        if p.shape != (2,) or not (abs(p[0]) <= MAX_COORDINATE and abs(p[1]) <= MAX_COORDINATE):
            raise InvalidGeometryError(f"{name}={describe(point)} is not valid; expected 2 finite coordinates")
        return p

    def _kernel(self, op: int, ws: Workspace, s: Any = (0.0, 0.0), g: Any = (0.0, 0.0), n_start: int = -1,
                n_goal: int = -1, budget: int = PK.NO_BUDGET) -> tuple[int, int, int, int, int, float]:
        """One call of the Polyanya entry kernel (:func:`PK.search`), operation ``op``, on ``ws``:
        (status, at, points, polygons, expansions, length)."""
        return run(self._xy_mesh, self._mi, ws, self._block, op, s, g, n_start, n_goal, budget)

    def _where(self, x: float, y: float) -> NDArray[np.int64]:
        k = self._kernel(PK.OP_LOCATE, self._ws, (x, y))[0]
        o = self._start_at
        return self._ws.wi[o:o + k].copy()

    def polygon_at(self, point: ArrayLike) -> int:
        """The polygon containing ``point`` (one of them on a shared edge), -1 outside the mesh
        or in a forbidden polygon.

        Examples
        --------
        >>> from navmesh.polymesh.mesh import PolyMesh, next_slots
        >>> mesh = PolyMesh([[0, 0], [2, 0], [2, 1], [0, 1]], [0, 4], [0, 1, 2, 3], [-1, -1, -1, -1])
        >>> MeshQuery(mesh).polygon_at([1, 0.5]), MeshQuery(mesh).polygon_at([3, 0.5])
        (0, -1)
        """
        p = self._point("point", point)
        polys = self._where(p[0], p[1])
        return int(polys[0]) if len(polys) else -1

    def _nearest_on_mesh(self, p: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.int64]] | None:
        """The nearest point of the open mesh and its polygons, or None."""
        found = nearest_wall_point(self.mesh, self._open, self._edges, p)
        return None if found is None else self._pull_inside(found[0], found[1], (0.0, 1e-12, 1e-9, 1e-6))

    def _pull_inside(self, q: NDArray[np.float64], poly: int, steps: tuple[float, ...]
                     ) -> tuple[NDArray[np.float64], NDArray[np.int64]] | None:
        """``q`` moved towards the centre of ``poly`` by the first fraction in ``steps`` that
        lands on the open mesh (rounding may leave a point on an edge just outside), and its
        polygons; None when none does."""
        inner = self.mesh.polygon_points(poly).mean(axis=0)
        for step in steps:
            r = q + step * (inner - q)
            polys = self._where(r[0], r[1])
            if len(polys):
                return r, polys
        return None

    def _endpoint(self, name: str, p: NDArray[np.float64], strict: bool) -> tuple[NDArray[np.float64], NDArray[np.int64], bool]:
        """The endpoint policy (module notes) for the checked position ``p``: the position, its
        polygons, and whether it moved (farther than the endpoint tolerance)."""
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
        found = self._nearest_on_mesh(p)
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
        status = _NEED_SPACE  # no kernel call yet
        if max_expansions is None and allow_partial is False and strict is False and self._hot_ready:
            # a game's hot loop: (x, y) pairs of floats (or float64 rows), the kernel's default request
            # (arguments one by one: *args costs more; it finds NaN or too large values off the mesh),
            # a Path of views of its output block; anything else takes the long way and its errors
            try:
                if type(start) in _SEQS and type(goal) in _SEQS:
                    sx, sy = start
                    gx, gy = goal
                elif type(start) in _PAIRS and type(goal) in _PAIRS:  # numpy rows as Python floats (iterating
                    sx, sy = start.tolist() if type(start) is _ndarray else start  # one makes numpy scalars:
                    gx, gy = goal.tolist() if type(goal) is _ndarray else goal  # about 0.6 us a row)
                else:
                    sx = None
            except (ValueError, TypeError):  # not two pairs (TypeError: a 0-d array)
                sx = None
            if type(sx) in _FLOATS and type(sy) in _FLOATS and type(gx) in _FLOATS and type(gy) in _FLOATS:
                call, xy, mi, wi, wf, pts, polys, pts_ro, polys_ro, scale = self._hot
                status, at, n_pts, n_polys, expansions, length = call(xy, mi, wi, wf, pts, polys, sx, sy, gx, gy)
                if at >= 0:  # FOUND, in the block (``at`` is -1 otherwise): Path._views, inlined
                    path = _new(_Path)
                    fields = path.__dict__
                    fields["nodes"] = polys_ro[at:at + n_polys]
                    fields["points"] = pts_ro[at:at + n_pts]
                    fields["cost"] = length * scale
                    fields["expansions"] = expansions
                    return path
                if status == FOUND:  # the block had no room
                    return self._retraced_path(sx, sy, gx, gy, n_pts, n_polys, length, expansions)
        opts = cached_query_options("any_angle", 1.0, max_expansions, allow_partial, strict, 1)  # one set of checks
        strict, allow_partial, budget = opts.strict, opts.allow_partial, opts.max_expansions
        s, g = self._xy("start", start), self._xy("goal", goal)
        if self._uniform and status == _NEED_SPACE:  # one kernel call when both endpoints are on the open mesh
            found, status, expansions = self._polyanya(s, None, g, None, budget)
            if found is not None:
                return found
        s, g = np.array(s), np.array(g)
        s, s_polys, s_moved = self._endpoint("start", s, strict)
        g, g_polys, g_moved = self._endpoint("goal", g, strict)
        if not self._uniform:
            return self._corridor_path(s, s_polys, s_moved, g, g_polys, g_moved, allow_partial)
        if status == PK.OFF_MESH:  # an endpoint moved onto the mesh: search from there
            found, status, expansions = self._polyanya(s, s_polys, g, g_polys, budget, s_moved, g_moved)
            if found is not None:
                return found
        return self._not_found(status, expansions, s, s_polys, s_moved, g, g_moved, budget, allow_partial)

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
        m = self.mesh
        has = m.neighbours >= 0
        a, b = m.polygon_of[has], m.neighbours[has]
        both = self._open[a] & self._open[b]
        g = scipy.sparse.coo_matrix((np.ones(int(both.sum())), (a[both], b[both])), shape=(m.n_polygons,) * 2)
        label = scipy.sparse.csgraph.connected_components(g, directed=False)[1].astype(np.int64)
        label[~self._open] = -1
        return label

    def _polyanya(self, s: NDArray[np.float64], s_polys: NDArray[np.int64] | None, g: NDArray[np.float64],
                  g_polys: NDArray[np.int64] | None, budget: int | None, s_moved: bool = False,
                  g_moved: bool = False) -> tuple[Path | None, int, int]:
        """Polyanya between ``s`` and ``g`` (their polygons, or None to locate them in the
        kernel): (the path or None, the kernel's status, expansions); the status is OFF_MESH when
        an endpoint was to be located and lies off the open mesh."""
        budget = PK.NO_BUDGET if budget is None else budget
        while True:
            ws = self._ws
            n_start, n_goal = place_ends(ws, s_polys, g_polys)
            status, at, n_pts, n_polys, expansions, length = self._kernel(PK.OP_FIND, ws, s, g, n_start, n_goal, budget)
            if status != _NEED_SPACE:
                break
            self._grow(4 * self._capacity)
        if self._code is _search:  # this call may have compiled the kernel (or loaded it): bind its code
            self._set_hot()
        if status != FOUND:
            return None, status, expansions
        return self._traced_path(ws, at, n_pts, n_polys, length, expansions, s_moved, g_moved), status, expansions

    def _traced_path(self, ws: Workspace, at: int, n_pts: int, n_polys: int, length: float, expansions: int,
                     s_moved: bool, g_moved: bool) -> Path:
        """The Path of a FOUND search on ``ws`` (:func:`~navmesh.polymesh.workspace.traced_path`);
        a full output block makes way for the next one (:meth:`_next_block`)."""
        path = traced_path(ws, self._block, at, n_pts, n_polys, length * self._scale_cost, expansions, s_moved, g_moved)
        if at < 0 and 4 * max(n_pts, n_polys) <= len(self._block.polys):
            self._next_block()
        return path

    def _retraced_path(self, sx, sy, gx, gy, n_pts, n_polys, length, expansions) -> Path:
        """find_path's hot call when the output block had no room: the path traced again (OP_TRACE:
        warm compiled code; numpy's copies here, cold, cost 10-40 us) into the next block, unless
        it is longer than a quarter block (then arrays of its own)."""
        if 4 * max(n_pts, n_polys) > len(self._block.polys):
            return self._traced_path(self._ws, -1, n_pts, n_polys, length, expansions, False, False)
        self._next_block()
        call, xy, mi, wi, wf, pts, polys, pts_ro, polys_ro, scale = self._hot
        PK.request(wi, PK.OP_TRACE)
        _, at, n_pts, n_polys, expansions, length = call(xy, mi, wi, wf, pts, polys, sx, sy, gx, gy)
        return _views(polys_ro[at:at + n_polys], pts_ro[at:at + n_pts], length * scale, expansions)

    def _next_block(self) -> None:
        """After the output block filled up: the same one emptied when no path holds it any more
        (no new memory to fault in: 5-50 us), else a new one (module notes of workspace)."""
        if self._block.in_use():
            self._block = OutputBlock()
            self._set_hot()
        else:
            self._block.clear()

    def _workspace(self, capacity: int) -> Workspace:
        """A search workspace for ``capacity`` nodes on this mesh."""
        return Workspace(self.mesh.n_vertices, self.mesh.n_polygons, self._params, capacity)

    def _grow(self, capacity: int) -> None:
        """Replace the query's own workspace by one for ``capacity`` nodes."""
        self._capacity = capacity
        self._ws = self._workspace(capacity)
        self._start_at = int(self._ws.wi[1 + PK.W_START_POLYS])
        self._set_hot()

    def _set_hot(self) -> None:
        """Bind what find_path's fast path passes to the kernel (after the workspace or the output
        block changes): the kernel's compiled code itself once numba has it (:func:`kernel_code`). The
        hot call runs with uniform costs once that code is bound; until then find_path's long way
        calls numba's dispatcher (which compiles or loads the kernel) and binds it (:meth:`_polyanya`)."""
        b = self._block
        args = (self._xy_mesh, self._mi, self._ws.wi, self._ws.wf, b.pts, b.polys)
        if self._code is _search:  # looked up once: new workspaces and blocks have the same types
            self._code = kernel_code(_search, args + (0.0,) * 4)
        self._hot = (self._code, *args, b.pts_ro, b.polys_ro, self._scale_cost)
        self._hot_ready = self._uniform and self._code is not _search

    def _not_found(self, status, expansions, s, s_polys, s_moved, g, g_moved, budget, allow_partial) -> Path:
        """The answer when Polyanya ended without a path: out of budget (BUDGET) or EXHAUSTED."""
        if status == BUDGET and not allow_partial:
            raise SearchBudgetError(f"max_expansions={budget} ran out searching from {s.tolist()} to {g.tolist()}")
        if status == BUDGET:  # partial allowed: the node nearest the goal is unknown; stay put
            return Path(np.array([int(s_polys[0])]), s[None, :], 0.0, expansions, True, s_moved, g_moved)
        return self._unreachable(s, s_polys, s_moved, g, g_moved, allow_partial, budget)

    def _unreachable(self, s, s_polys, s_moved, g, g_moved, allow_partial, budget) -> Path:
        if not allow_partial:
            raise NoPathError(f"no path from {s.tolist()} to {g.tolist()} on the mesh for profile {self.profile.name!r}")
        comp = self._component
        mine = np.flatnonzero(np.isin(comp, comp[s_polys]))
        polys = self._shapes()[mine]
        goal = shapely.Point(g)
        best = int(np.argmin(shapely.distance(polys, goal)))
        near = np.asarray(shapely.shortest_line(polys[best], goal).coords[0])
        inside = self._pull_inside(near, int(mine[best]), (0.0, 1e-12, 1e-9, 1e-6, 1e-3))
        found = self.mesh.polygon_points(int(mine[best])).mean(axis=0) if inside is None else inside[0]
        path = self.find_path(s, found, max_expansions=budget, strict=True) if self._uniform else \
            self._corridor_path(s, s_polys, s_moved, found, self._where(*found), False, False)
        return Path(path.nodes, path.points, path.cost, path.expansions, True, s_moved, g_moved)

    def _shapes(self) -> NDArray[np.object_]:
        if "shapes" not in self.mesh._cache:
            self.mesh._cache["shapes"] = self.mesh.to_shapely()
        return self.mesh._cache["shapes"]

    # -- terrain: corridor + funnel -------------------------------------------------------------
    def _corridor_path(self, s, s_polys, s_moved, g, g_polys, g_moved, allow_partial) -> Path:
        common = np.intersect1d(s_polys, g_polys)
        if len(common):
            corridor = [int(common[0])]
            expansions = 0
        else:
            corridor, expansions = corridor_search(self.mesh, self._open, self._poly_mult, self._edges, s, s_polys, g, g_polys)
            if corridor is None:
                return self._unreachable(s, s_polys, s_moved, g, g_moved, allow_partial, None)
        pts = funnel(self.mesh, self._edges, s, g, corridor)
        line = shapely.LineString(pts) if len(pts) > 1 and np.any(pts[0] != pts[-1]) else None
        if line is None:
            cost = 0.0
        else:
            shapes = self._shapes()[np.unique(corridor)]
            inside = shapely.length(shapely.intersection(shapes, line))
            cost = float((inside * self._poly_mult[np.unique(corridor)]).sum())
        return Path(np.array(corridor, np.int32), pts if len(pts) > 1 else np.repeat(pts, 2, axis=0), cost,
                    expansions, False, s_moved, g_moved)

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
                found = self._nearest_on_mesh(p)
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
        s, s_polys, _ = self._endpoint("start", self._point("start", start), False)
        e = self._point("end", end)
        visited = np.empty(self.mesh.n_polygons + 1, np.int64)
        hit, t, slot, n = PK.raycast(self.mesh.vertices, self._mi, s[0], s[1], e[0], e[1], int(s_polys[0]), visited)
        point = s + t * (e - s) if hit else e.copy()
        normal = np.zeros(2)
        if hit:
            a, b = self._edges[slot]
            normal = np.array([a[1] - b[1], b[0] - a[0]]) / math.hypot(b[0] - a[0], b[1] - a[1])
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
        return random_open_point(self.mesh, self._open, gen)
