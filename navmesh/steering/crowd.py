"""Many units at once: group orders, shared routes, separation and wall sliding in one kernel.

A :class:`Crowd` keeps every unit's state in flat numpy arrays indexed by unit id. A group order
(:meth:`Crowd.move_to`) spreads formation slots over the free space around the goal and computes
one route tree toward the goal per unit type (a reversed Dijkstra over the NavMap's graph, or a
:class:`~navmesh.grid.FlowField` on a GridMap) that every unit of the group reads: one search
instead of one per unit. Route work waits in a queue and is budgeted per :meth:`Crowd.update`:
at most ``expansions_per_update`` node expansions of search work (sliced
:meth:`~navmesh.NavQuery.start_search` searches, resumed over as many updates as they need; a
route tree counts one expansion per graph node) and ``joins_per_update`` units joining a tree,
so a large order never freezes a frame. The per-frame motion is two compiled calls
(:func:`navmesh._kernels.crowd.crowd_steer`, then :func:`~navmesh._kernels.crowd.crowd_step`). Units cut corners of their routes only where that
does not raise their cost: a shortcut crosses no terrain boundary and costs, under the unit
type's :class:`~navmesh.terrain.CostProfile`, no more than the route it skips (so a tank keeps to
the road round a swamp even where the plain ground beside the road is in sight).

The work is shared by modules with one job each: :mod:`navmesh.steering.units` (storage),
:mod:`navmesh.steering.formation` (slots), :mod:`navmesh.steering.orders` (orders and the
budgeted route work), :mod:`navmesh.steering.planner` (route trees and joins),
:mod:`navmesh.steering.routes` (routes packed for the kernel) and :mod:`navmesh._kernels.crowd`
(the motion).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh._checks import MAX_COORDINATE, as_array, as_float_array, check_positive_int
from navmesh._kernels import crowd as CK
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError, describe
from navmesh.grid import GridMap
from navmesh.path import Path
from navmesh.polymesh.mesh import PolyMesh
from navmesh.steering.formation import formation_slots
from navmesh.steering.orders import Orders
from navmesh.steering.planner import RoutePlanner
from navmesh.steering.routes import RouteTable
from navmesh.steering.units import UnitArrays, check_float
from navmesh.steering.walls import Walls, level_geometry
from navmesh.terrain import CostProfile

__all__ = ["Crowd", "formation_slots"]


class Crowd:
    """Units moving together on a NavMap, a GridMap or a PolyMesh.

    The state arrays are indexed by unit id (removed units keep their row, with ``alive``
    False); each is a view of the crowd's storage, so read it again after :meth:`add`.

    Parameters
    ----------
    navmap_or_grid : NavMap, GridMap or PolyMesh
        The map. On a PolyMesh (from :func:`~navmesh.build_navmesh`, which keeps its level)
        every ordered unit plans its own exact path to its slot with the mesh's
        :class:`~navmesh.polymesh.query.MeshQuery` (sliced, within ``expansions_per_update``;
        planned again when the unit is pushed off it or stuck); costs are uniform, so units
        take no ``profile``, and no unit may be wider than the mesh's ``agent_radius``
        (InvalidOptionError). On a NavMap, routes follow its waypoint graph under each unit's
        :class:`~navmesh.terrain.CostProfile`; on a GridMap they follow a
        :class:`~navmesh.grid.FlowField` (blocked cells are walls; profiles do not apply,
        the grid's own cell costs do). Walls for the motion are the level's obstacles (or
        blocked cells) inflated by each unit's radius and, on a NavMap, the terrain the unit's
        profile forbids, grown by the radius too, so the body stays out of it (a lane along a
        tagged link the profile may use stays open: :func:`~navmesh.forbidden.forbidden_area`).
        Route points that lie in a unit's walls (corners for a smaller radius, routes along a
        ford's outline) are moved to the nearest point the unit may stand on.
        A grid's wrap-around is not followed.
    searches_per_update : int
        Route trees (one per unit type of an order) built per :meth:`update`, >= 1; the others
        wait for the next updates. Default 4.
    expansions_per_update : int
        Search budget of one :meth:`update` in node expansions, >= 1 (default 20,000). Per-unit
        paths are :class:`~navmesh.waypoints.query.SlicedSearch` es advanced by what is left of
        it (a search that needs more resumes in the next updates); a NavMap route tree costs one
        expansion per graph node and is built only when it fits in the budget (otherwise the
        group's units get sliced searches each). ``last_expansions`` reports the work done by the
        last update, never more than this on a NavMap. On a GridMap a flow field larger than the
        budget is built alone in one update.
    joins_per_update : int
        Units that join their order's route tree per :meth:`update` (a few line-of-sight tests
        each), >= 1; the others wait for the next updates. Default 1,000.
    shared_search_min : int
        NavMap only: an order's units of one type share one route tree when there are at least
        this many (>= 1; default 4); fewer get one sliced any-angle search each
        (:meth:`NavQuery.start_search`, equal to ``find_path``), straight to their slots (cheaper
        than searching the whole graph, and the best path).
    separation : float
        Strength of the push between overlapping units, >= 0 (1 = a unit overlapping its
        neighbour by its full radius is pushed at its own speed). Default 2.
    formation_spacing : float
        Distance between formation slots in unit radii, >= 2. Default 2.2.
    settle_time : float
        Seconds (> 0, default 1.5) a unit may go without coming closer to its target before
        the crowd acts: a unit heading for its slot then counts as arrived where it stands
        (its slot is held by others or walled off, so the group still finishes) and one on
        its route gets a path of its own planned from where it stands. Over that, a unit that
        has not lowered its route cost left (to its slot) for ``4 * settle_time`` seconds
        (``12 * settle_time`` while it touches other units: a queue that may still move on) gives
        up its slot and finishes where it stands, re-plans included: a re-plan that returns a
        route it cannot walk (a door too narrow for its body, a corridor others block for good)
        cannot keep it busy forever. Such a unit is ``arrived`` and ``settled``.

    Attributes
    ----------
    positions : float array (n, 2)
        Unit centres, world units. Never inside an obstacle inflated by the unit's radius, nor
        in terrain the unit's profile forbids. Writable (to place a unit by hand): the next
        :meth:`update` moves a written position that lies in a wall to the nearest free point
        and refuses a position that is not finite.
    velocities : float array (n, 2)
        Velocity over the last update, units per second.
    headings : float array (n,)
        Direction of travel in radians (counter-clockwise from +x); kept while standing.
    arrived : bool array (n,)
        True once the unit stands on its slot of its latest order, or, its slot in sight but
        held by others it cannot pass, stands as close as it got (``settle_time``): every
        unit of an order arrives, also when the group cannot reach all its slots (a slot it
        cannot reach at all becomes the end of its partial path), at the latest when its
        progress stops for good (``settle_time``).
    settled : bool array (n,)
        True where an arrived unit finished off its slot ("arrived near": its slot held by
        others, walled off or out of reach for its body); False on its slot or still moving.
    alive : bool array (n,)
        False for removed units.
    last_expansions : int
        Node expansions of search work done by the last :meth:`update`.
    radii, speeds : float arrays (n,)
        Per unit, world units and units per second.

    Raises
    ------
    InvalidOptionError
        ``navmap_or_grid`` is neither, or an option is out of range.

    Examples
    --------
    >>> import navmesh
    >>> from navmesh.steering import Crowd
    >>> grid = navmesh.GridMap.from_strings('''
    ... ........
    ... ..@@@@..
    ... ........''')
    >>> crowd = Crowd(grid)
    >>> ids = crowd.add([[0.5, 0.5], [0.5, 1.5]], radius=0.3, speed=4.0)
    >>> crowd.move_to(ids, [7.5, 2.5])
    >>> for _ in range(200):
    ...     crowd.update(1 / 60)
    >>> bool(crowd.arrived.all())
    True
    """

    def __init__(
        self,
        navmap_or_grid: Any,
        *,
        searches_per_update: int = 4,
        expansions_per_update: int = 20_000,
        joins_per_update: int = 1000,
        shared_search_min: int = 4,
        separation: float = 2.0,
        formation_spacing: float = 2.2,
        settle_time: float = 1.5,
    ) -> None:
        level_geometry(navmap_or_grid)  # validates the map type
        self.map = navmap_or_grid
        self._grid = isinstance(navmap_or_grid, GridMap)
        self._mesh = isinstance(navmap_or_grid, PolyMesh)
        self.searches_per_update = check_positive_int("searches_per_update", searches_per_update, allow_none=False)
        self.expansions_per_update = check_positive_int("expansions_per_update", expansions_per_update, allow_none=False)
        self.joins_per_update = check_positive_int("joins_per_update", joins_per_update, allow_none=False)
        self.shared_search_min = check_positive_int("shared_search_min", shared_search_min, allow_none=False)
        self.last_expansions = 0
        self.separation = check_float("separation", separation, 0.0)
        self.formation_spacing = check_float("formation_spacing", formation_spacing, 2.0)
        self.settle_time = check_float("settle_time", settle_time, 0.0, strict=True)
        self._units = UnitArrays()
        self._profiles: list[CostProfile | None] = []
        # wall classes: (radius, the terrain rule of the unit type; see _wall_key)
        self._classes: list[tuple[float, Any]] = []
        self._class_profiles: list[CostProfile | None] = []
        self._walls: Walls | None = None
        self._routes = RouteTable()
        self._planner = RoutePlanner(navmap_or_grid)
        self._orders = Orders(self._units, self._routes, self._planner, self._profiles)
        self._prepared: set[tuple[CostProfile | None, int]] = set()
        self._frame = 0

    # -- storage ----------------------------------------------------------------------------
    @property
    def positions(self) -> NDArray[np.float64]:
        """Unit centres (n, 2), world units; a view (writable: the next :meth:`update` moves a
        written position out of walls and raises InvalidGeometryError for one that is not
        finite; read it again after :meth:`add`)."""
        return self._units.view("positions")

    @property
    def velocities(self) -> NDArray[np.float64]:
        """Velocity over the last update (n, 2), units per second."""
        return self._units.view("velocities")

    @property
    def headings(self) -> NDArray[np.float64]:
        """Direction of travel (n,), radians counter-clockwise from +x; writable (initial facing)."""
        return self._units.view("headings")

    @property
    def arrived(self) -> NDArray[np.bool_]:
        """Whether each unit stands on the slot of its latest order (n,)."""
        return self._units.view("arrived")

    @property
    def settled(self) -> NDArray[np.bool_]:
        """Whether each arrived unit finished off its slot, where it stands ("arrived near") (n,)."""
        return self._units.view("settled")

    @property
    def alive(self) -> NDArray[np.bool_]:
        """False for removed units (n,)."""
        return self._units.view("alive")

    @property
    def radii(self) -> NDArray[np.float64]:
        """Unit radii (n,), world units."""
        return self._units.view("radii")

    @property
    def speeds(self) -> NDArray[np.float64]:
        """Top speeds (n,), units per second; writable (e.g. slower in a swamp)."""
        return self._units.view("speeds")

    def __len__(self) -> int:
        """Number of unit ids handed out (removed units included)."""
        return self._units.n

    def __repr__(self) -> str:
        kind = "GridMap" if self._grid else "PolyMesh" if self._mesh else "NavMap"
        return f"Crowd({int(self.alive.sum())} units on a {kind}, {len(self._orders.orders)} orders)"

    # -- units ------------------------------------------------------------------------------
    def add(
        self,
        positions: ArrayLike,
        *,
        radius: float = 0.5,
        speed: float = 100.0,
        profile: CostProfile | None = None,
    ) -> NDArray[np.int64]:
        """Add units of one type.

        Parameters
        ----------
        positions : float array of shape (m, 2) (or (2,) for one unit)
            Where they stand (world units). A position inside an obstacle inflated by ``radius``,
            in terrain ``profile`` forbids, or outside the bounds is moved to the nearest free point.
        radius : float
            Unit radius in world units, >= 0. On a NavMap built with ``agent_radius`` r, units
            with radius > r may find its graph's gaps too narrow and wait against walls.
        speed : float
            Top speed in world units per second, > 0.
        profile : CostProfile, optional
            Terrain costs of the unit type (NavMap only): its routes, and the terrain it
            forbids is a wall for its motion.

        Returns
        -------
        int64 array of shape (m,)
            The new unit ids (rows of the crowd's arrays), consecutive.

        Raises
        ------
        InvalidGeometryError
            ``positions`` is not finite (m, 2) numbers.
        InvalidOptionError
            ``radius``, ``speed`` or ``profile`` is invalid; on a PolyMesh also a ``profile``
            or a ``radius`` above the mesh's ``agent_radius``.
        """
        p = as_float_array("positions", positions, InvalidGeometryError)
        if p.ndim == 1:
            p = p[None, :]
        if p.ndim != 2 or p.shape[1] != 2 or not (np.abs(p) <= MAX_COORDINATE).all():
            raise InvalidGeometryError(f"positions has shape {p.shape}; expected finite (m, 2) world positions")
        r = check_float("radius", radius, 0.0)
        v = check_float("speed", speed, 0.0, strict=True)
        if profile is not None and not isinstance(profile, CostProfile):
            raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
        if self._mesh:
            self._check_mesh_unit(r, profile)
        key = (r, self._wall_key(profile))
        if key not in self._classes:
            self._classes.append(key)
            self._class_profiles.append(profile)
            self._walls = self._make_walls()
        cls = self._classes.index(key)
        if profile not in self._profiles:
            self._profiles.append(profile)
        if not self._grid and not self._mesh and (profile, cls) not in self._prepared:
            self._planner.prepare(profile, cls)  # once per unit type, so that orders cost one search
            self._prepared.add((profile, cls))
        m = len(p)
        units = self._units
        units.reserve(m)
        ids = np.arange(units.n, units.n + m)
        a = units.arrays
        a["positions"][ids] = self._walls.nearest_free(p, cls) if m else p
        a["velocities"][ids] = 0.0
        a["headings"][ids] = 0.0
        a["radii"][ids] = r
        a["speeds"][ids] = v
        a["arrived"][ids] = False
        a["alive"][ids] = True
        a["moving"][ids] = False
        a["cls"][ids] = cls
        a["cur"][ids] = -1
        units.new_goal(ids)
        a["shadow"][ids] = a["positions"][ids]
        a["slot"][ids] = a["positions"][ids]
        a["prof"][ids] = self._profiles.index(profile)
        a["order"][ids] = -1
        a["slot_mult"][ids] = 0.0
        a["min_mult"][ids] = 1.0 if profile is None else profile.min_multiplier()
        units.n += m
        return ids

    def _check_mesh_unit(self, radius: float, profile: CostProfile | None) -> None:
        """On a PolyMesh: no terrain profile (routes are the mesh query's uniform-cost exact
        paths) and no unit wider than the mesh's ``agent_radius`` (its paths may squeeze
        through gaps too narrow for it)."""
        if profile is not None:
            raise InvalidOptionError(
                f"profile={describe(profile)} is not supported on a PolyMesh crowd; "
                "a PolyMesh crowd routes by uniform costs, so profile must be None"
            )
        limit = float(self.map.agent_radius)
        if radius > limit * (1 + 1e-9) + 1e-12:
            raise InvalidOptionError(
                f"radius={radius} exceeds the PolyMesh's agent_radius={limit}; "
                "build the mesh with agent_radius >= the largest unit radius"
            )

    def _wall_key(self, profile: CostProfile | None) -> Any:
        """What of a unit type shapes its walls: the terrain it may not enter and the
        capabilities opening gated links over it (None: only obstacles, as on every GridMap)."""
        if self._grid or profile is None or not profile.forbidden:
            return None
        return profile.forbidden, profile.capabilities

    def _make_walls(self) -> Walls:
        walls = Walls(self.map, [r for r, _ in self._classes], self._class_profiles)
        self._planner.walls = walls
        self._units.arrays["wit"][:] = -1  # (edge ids of the old walls)
        return walls

    def remove(self, ids: ArrayLike) -> None:
        """Remove units: their rows stay (ids are never reused) but they stop moving and no longer
        push others.

        Raises
        ------
        NodeNotFoundError
            An id was never handed out.
        """
        u = self._check_ids(ids)
        a = self._units.arrays
        a["alive"][u] = False
        a["moving"][u] = False
        a["velocities"][u] = 0.0
        self._orders.release(u)

    def _check_ids(self, ids: ArrayLike) -> NDArray[np.int64]:
        u = np.atleast_1d(as_array("ids", ids, NodeNotFoundError))
        if u.ndim != 1 or (u.size and not np.issubdtype(u.dtype, np.integer)):
            raise NodeNotFoundError(f"ids={describe(ids)} must be a unit id or a 1-D array of unit ids")
        if u.size and (u.min() < 0 or u.max() >= self._units.n):
            raise NodeNotFoundError(f"ids holds {int(u.max() if u.max() >= self._units.n else u.min())}; unit ids run 0..{self._units.n - 1}")
        return u.astype(np.int64)

    # -- orders -----------------------------------------------------------------------------
    def move_to(self, ids: ArrayLike, goal: ArrayLike) -> None:
        """Order units to a goal as a group.

        Each unit gets a formation slot around ``goal`` (slots are at least two radii apart,
        on free space connected to the goal, and clear of the places other units stand on or
        hold for their own orders, so groups sent to one goal form up side by side); the units
        closest to the goal take the inner slots. Routes are computed during the next updates (within ``expansions_per_update``,
        ``searches_per_update`` and ``joins_per_update``); until then the units keep still.

        Parameters
        ----------
        ids : int or int array
            Unit ids from :meth:`add` (removed units are ignored).
        goal : float array of shape (2,)
            Target position in world units.

        Raises
        ------
        NodeNotFoundError
            An id is unknown, or the free space around the goal cannot hold the group.
        InvalidGeometryError
            ``goal`` is not two finite numbers.
        """
        u = self._check_ids(ids)
        u = u[self._units.arrays["alive"][u]]
        g = as_float_array("goal", goal, InvalidGeometryError).ravel()
        if g.shape != (2,) or not (np.abs(g) <= MAX_COORDINATE).all():
            raise InvalidGeometryError(f"goal={describe(goal)} is not two finite numbers")
        if u.size == 0:
            return
        u = np.unique(u)
        self._orders.release(u)
        a = self._units.arrays
        cls_big = int(a["cls"][u][np.argmax(a["radii"][u])])
        r_big = max(float(a["radii"][u].max()), 1e-9)
        spacing = self.formation_spacing * r_big
        # places held by the other units: slots of their orders, or where idle units stand
        n = self._units.n
        others = np.ones(n, bool)
        others[u] = False
        others &= a["alive"][:n]
        held = np.where((a["order"][:n] >= 0)[:, None], a["slot"][:n], a["positions"][:n])[others]
        clearance = 0.5 * self.formation_spacing * (r_big + a["radii"][:n][others])
        slots = formation_slots(self._walls, cls_big, g, len(u), spacing, taken=held, clearance=clearance)
        # nearest units take the inner slots
        d = np.hypot(*(a["positions"][u] - slots[0]).T)
        slot_of = np.empty((len(u), 2))
        slot_of[np.argsort(d, kind="stable")] = slots
        # a slot must be free for each unit's own wall class too
        for c in np.unique(a["cls"][u]):
            sel = a["cls"][u] == c
            slot_of[sel] = self._walls.nearest_free(slot_of[sel], int(c))
        self._orders.create(u, slots[0], slot_of)

    def set_map(self, navmap_or_grid: Any) -> None:
        """Switch to a changed map (a door closed, a bridge raised: a NavMap from a local update).

        Walls are rebuilt for every unit class; every order keeps its goal and slots and
        searches its routes again (budgeted, from the next :meth:`update`; its units wait until
        then). A unit the change buried inside an obstacle is moved to the nearest free point.

        Raises
        ------
        InvalidOptionError
            The new map is not a NavMap, GridMap or PolyMesh, is of another kind than before, or
            (a PolyMesh) was built for a smaller ``agent_radius`` than a unit's radius.
        """
        level_geometry(navmap_or_grid)
        if isinstance(navmap_or_grid, GridMap) != self._grid or isinstance(navmap_or_grid, PolyMesh) != self._mesh:
            raise InvalidOptionError(
                f"set_map: the new map is a {type(navmap_or_grid).__name__}; "
                "it must be of the same kind (NavMap, GridMap or PolyMesh) as the old one"
            )
        if self._mesh:
            for r, _ in self._classes:
                self._check_mesh_unit(r, None)
        self.map = navmap_or_grid
        self._planner = RoutePlanner(navmap_or_grid)
        self._orders.planner = self._planner
        if not self._classes:
            return
        self._walls = self._make_walls()
        if not self._grid and not self._mesh:
            for profile, cls in self._prepared:
                self._planner.prepare(profile, cls)
        a = self._units.arrays
        n = self._units.n
        for c in range(len(self._classes)):
            sel = np.flatnonzero(a["alive"][:n] & (a["cls"][:n] == c))
            if sel.size:
                a["positions"][sel] = self._walls.nearest_free(a["positions"][sel], c)
        a["shadow"][:n] = a["positions"][:n]
        self._orders.reset()

    # -- motion -----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance the crowd by ``dt`` seconds (>= 0): pending route searches within the budget,
        then the two compiled steps for every unit. ``dt = 0`` (a paused game) only checks positions
        written since the last update."""
        t = check_float("dt", dt, 0.0)
        self._check_written()
        if t == 0.0:
            return
        orders = self._orders
        self.last_expansions = orders.service(
            self.searches_per_update, self.expansions_per_update, self.joins_per_update, self.shared_search_min
        )
        orders.rebuild_routes()
        units = self._units
        if units.n == 0:
            return
        a = units.arrays
        n = units.n
        lost = np.flatnonzero(a["lost"][:n])
        if lost.size:
            a["lost"][lost] = False
            orders.reenter(lost)
        stuck = np.flatnonzero(a["stuck"][:n])
        if stuck.size:
            a["stuck"][stuck] = False
            a["tries"][stuck] += 1
            orders.replan(orders.swap_slots(stuck))
        routes = self._routes
        steer, step = units.kernel_views()
        walls = self._walls.arrays
        CK.crowd_steer(
            t, self._frame, *steer, routes.xy, routes.next, routes.rest, routes.mult,
            self.settle_time, self._walls.barrier_class, *walls,
        )
        CK.crowd_step(t, *step, self.separation, self.settle_time, *walls)
        a["shadow"][:n] = a["positions"][:n]
        self._frame += 1

    def _check_written(self) -> None:
        """Positions written from outside since the last update: moved out of walls, or refused
        when not finite (the unit keeps its last position)."""
        a = self._units.arrays
        n = self._units.n
        if n == 0:
            return
        pos, shadow = a["positions"][:n], a["shadow"][:n]
        if np.array_equal(pos, shadow):  # (the usual frame: nothing written)
            return
        changed = np.flatnonzero((pos != shadow).any(axis=1) & a["alive"][:n])
        if changed.size == 0:
            return
        bad = changed[~np.isfinite(pos[changed]).all(axis=1) | (np.abs(pos[changed]) > MAX_COORDINATE).any(axis=1)]
        if bad.size:
            u = int(bad[0])
            value = pos[u].tolist()
            pos[bad] = shadow[bad]
            raise InvalidGeometryError(
                f"positions[{u}]={value} is not valid; expected finite world coordinates (unit {u} keeps {pos[u].tolist()})"
            )
        for c in np.unique(a["cls"][changed]).tolist():
            sel = changed[a["cls"][changed] == c]
            pos[sel] = self._walls.nearest_free(pos[sel], int(c))
        self._units.new_goal(changed)
        shadow[changed] = pos[changed]

    def path_of(self, uid: int) -> Path:
        """The route unit ``uid`` will walk from where it stands: its position, the remaining
        route points, its slot (for drawing; ``nodes`` are route point ids). A unit without an
        order gets a one-point path at its position."""
        u = int(self._check_ids(uid)[0])
        a = self._units.arrays
        pts = [a["positions"][u].copy()]
        nodes = []
        if a["moving"][u] or a["cur"][u] >= 0:
            rows = self._routes.rows_from(int(a["cur"][u]))
            pts.extend(self._routes.xy[rows])
            nodes = rows
            if not np.array_equal(pts[-1], a["slot"][u]):
                pts.append(a["slot"][u].copy())
        p = np.asarray(pts)
        length = float(np.hypot(*np.diff(p, axis=0).T).sum()) if len(p) > 1 else 0.0
        return Path(np.asarray(nodes, np.int32), p, length)

    def planned_path(self, uid: int) -> Path | None:
        """The path the sliced search of unit ``uid`` returned for its latest order (equal to
        ``NavQuery(navmap, profile).find_path(start, slot, allow_partial=True)`` from where the
        unit stood when its search began), or None: routed by a shared tree, not planned yet, or
        its slot unreachable."""
        return self._orders.planned_path(int(self._check_ids(uid)[0]))

    @property
    def walls(self) -> Walls | None:
        """The wall arrays per unit class: radius and forbidden terrain (None before the first
        unit is added)."""
        return self._walls
