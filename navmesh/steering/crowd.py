"""Many units at once: group orders, shared routes, separation and wall sliding in one kernel.

A :class:`Crowd` keeps every unit's state in flat numpy arrays indexed by unit id. A group order
(:meth:`Crowd.move_to`) spreads formation slots over the free space around the goal and computes
one route tree toward the goal per unit type (a reversed Dijkstra over the NavMap's graph, or a
:class:`~navmesh.grid.FlowField` on a GridMap) that every unit of the group reads: one search
instead of one per unit. Route work waits in a queue and is budgeted per :meth:`Crowd.update`:
at most ``expansions_per_update`` node expansions of search work (sliced
:meth:`~navmesh.NavQuery.start_search` searches, resumed over as many updates as they need; a
route tree counts one expansion per graph node) and ``joins_per_update`` units joining a tree,
so a large order never freezes a frame. The per-frame motion is one compiled call
(:func:`navmesh._kernels.crowd.crowd_step`). Units cut corners of their routes only where that
does not raise their cost: a shortcut crosses no terrain boundary and costs, under the unit
type's :class:`~navmesh.terrain.CostProfile`, no more than the route it skips (so a tank keeps to
the road round a swamp even where the plain ground beside the road is in sight).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from navmesh._checks import MAX_COORDINATE, as_array, as_float_array, check_positive_int
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshError,
    NodeNotFoundError,
    describe,
)
from navmesh.grid import FlowField, GridMap
from navmesh.path import Path
from navmesh._kernels import graph as GK
from navmesh._kernels import crowd as CK
from navmesh._kernels import walls as K
from navmesh.steering.walls import Walls, level_geometry
from navmesh.terrain import CostProfile
from navmesh.waypoints.query import NavQuery

__all__ = ["Crowd", "formation_slots"]

_EMPTY_XY = np.zeros((0, 2))
_NO_NODES = np.empty(0, np.int32)
_NO_COSTS = np.empty(0)


def formation_slots(
    walls: Walls,
    cls: int,
    goal: ArrayLike,
    count: int,
    spacing: float,
    *,
    taken: ArrayLike | None = None,
    clearance: ArrayLike | float = 0.0,
) -> NDArray[np.float64]:
    """``count`` standing places around ``goal``, nearest first, on a hexagonal lattice.

    Slots are lattice points (pitch ``spacing``) where a unit of class ``cls`` may stand and that
    connect to the goal through free lattice steps, so no slot lies behind a wall. No two slots are
    closer than ``spacing``, and none is closer than ``clearance`` to a ``taken`` place (units
    standing there, or holding slots of other orders): a second group sent to the same goal
    forms up beside the first.

    Parameters
    ----------
    walls : Walls
    cls : int
        Radius class of the units.
    goal : float array of shape (2,)
        Centre of the formation; moved to the nearest free point if needed.
    count : int
        Number of slots, >= 1.
    spacing : float
        Distance between neighbouring slots (world units, > 0); use at least two unit radii.
    taken : float array of shape (m, 2), optional
        Places already held (world units).
    clearance : float or float array of shape (m,)
        Least distance from a slot to each taken place (world units; the sum of the two units'
        radii, or more).

    Returns
    -------
    float array of shape (count, 2)

    Raises
    ------
    NodeNotFoundError
        The free space connected to the goal has fewer than ``count`` lattice points.
    """
    g = walls.nearest_free(np.asarray(goal, dtype=np.float64)[None, :2], cls)[0]
    tree = None
    if taken is not None and len(np.atleast_2d(taken)) and np.size(taken):
        held_xy = np.asarray(taken, dtype=np.float64).reshape(-1, 2)
        held_r = np.broadcast_to(np.asarray(clearance, dtype=np.float64), (len(held_xy),))
        reach = float(held_r.max())
        if reach > 0:
            tree = cKDTree(held_xy)
            count_all = count + len(held_xy)
        else:
            count_all = count
    else:
        count_all = count
    ring = int(np.ceil(np.sqrt(count_all / 2.5))) + 2
    limit = int(np.sqrt(walls.free[cls].area) / spacing) + 2
    while True:
        side = 2 * ring + 1
        i, j = np.meshgrid(np.arange(-ring, ring + 1), np.arange(-ring, ring + 1), indexing="ij")
        i, j = i.ravel(), j.ravel()
        pts = g + spacing * np.column_stack([i + 0.5 * j, j * np.sqrt(3) / 2])
        ok = walls.walkable(pts, cls)
        centre = int(np.flatnonzero((i == 0) & (j == 0))[0])
        ok[centre] = True  # the (free) goal itself
        held = np.zeros(len(pts), bool)
        if tree is not None:
            kk = min(16, len(held_xy))
            dd, ii = tree.query(pts, k=kk, distance_upper_bound=reach)
            dd, ii = dd.reshape(len(pts), kk), ii.reshape(len(pts), kk)
            found = ii < len(held_xy)
            held = (found & (dd < held_r[np.where(found, ii, 0)])).any(axis=1)
        # lattice steps between free points that a unit can walk: one connected-components pass
        idx = np.arange(len(pts)).reshape(side, side)
        a_list, b_list = [], []
        for di, dj in ((1, 0), (0, 1), (1, -1)):
            a = idx[max(0, -di) : side - max(0, di), max(0, -dj) : side - max(0, dj)].ravel()
            b = idx[max(0, di) : side + min(0, di) or None, max(0, dj) : side + min(0, dj) or None].ravel()
            keep = ok[a] & ok[b]
            a_list.append(a[keep])
            b_list.append(b[keep])
        a, b = np.concatenate(a_list), np.concatenate(b_list)
        step_ok = walls.visible(pts[a], pts[b], cls)
        adj = scipy.sparse.coo_array((np.ones(int(step_ok.sum())), (a[step_ok], b[step_ok])), shape=(len(pts), len(pts)))
        _, label = scipy.sparse.csgraph.connected_components(adj, directed=False)
        reached = ok & (label == label[centre]) & ~held
        order = np.argsort(np.hypot(*(pts - g).T), kind="stable")
        found = order[reached[order]]
        if len(found) >= count:
            return pts[found[:count]].copy()
        if ring > limit:
            raise NodeNotFoundError(
                f"only {len(found)} formation slots of spacing {spacing} fit around goal={g.tolist()}; {count} needed"
            )
        ring *= 2


@dataclass
class _Block:
    """One route tree toward a goal: row positions, next row (-1: then the unit's slot), the
    route cost from each row to the goal, and the unit type's terrain multiplier at each row (0
    on grids: no cost test for shortcuts there). The last row is the goal (grids: its cell centre)."""

    xy: NDArray[np.float64]
    nxt: NDArray[np.int64]
    dist: NDArray[np.float64]
    goal: NDArray[np.float64]
    mult: NDArray[np.float64]
    path: Path | None = None


@dataclass
class _Order:
    """A group order: its units, goal, slots, and (once computed) route blocks per unit type."""

    ids: NDArray[np.int64]
    goal: NDArray[np.float64]
    blocks: dict[Any, _Block]


class Crowd:
    """Units moving together on a NavMap or a GridMap.

    The state arrays are indexed by unit id (removed units keep their row, with ``alive``
    False); each is a view of the crowd's storage, so read it again after :meth:`add`.

    Parameters
    ----------
    navmap_or_grid : NavMap or GridMap
        The map. On a NavMap, routes follow its waypoint graph under each unit's
        :class:`~navmesh.terrain.CostProfile`; on a GridMap they follow a
        :class:`~navmesh.grid.FlowField` (blocked cells are walls; profiles do not apply,
        the grid's own cell costs do). Walls for the motion are the level's obstacles (or
        blocked cells) inflated by each unit's radius and, on a NavMap, the terrain the unit's
        profile forbids, grown by the radius too, so the body stays out of it (a lane along a
        tagged link the profile may use stays open: :func:`~navmesh.steering.walls.forbidden_area`).
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
        its route gets a path of its own planned from where it stands.

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
        cannot reach at all becomes the end of its partial path).
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
        self.searches_per_update = check_positive_int("searches_per_update", searches_per_update, allow_none=False)
        self.expansions_per_update = check_positive_int("expansions_per_update", expansions_per_update, allow_none=False)
        self.last_expansions = 0
        self._active: tuple[int, Any, int, Any] | None = None
        self._planning: set[int] = set()
        self.joins_per_update = check_positive_int("joins_per_update", joins_per_update, allow_none=False)
        self.shared_search_min = check_positive_int("shared_search_min", shared_search_min, allow_none=False)
        self._queries: dict[CostProfile | None, NavQuery] = {}
        self.separation = _check_float("separation", separation, 0.0)
        self.formation_spacing = _check_float("formation_spacing", formation_spacing, 2.0)
        self.settle_time = _check_float("settle_time", settle_time, 0.0, strict=True)
        self._n = 0
        self._cap = 0
        self._arrays: dict[str, NDArray] = {}
        self._alloc(16)
        self._profiles: list[CostProfile | None] = []
        self._profile_of = np.zeros(0, np.int64)
        # wall classes: (radius, the terrain rule of the unit type; see _wall_key)
        self._classes: list[tuple[float, Any]] = []
        self._class_profiles: list[CostProfile | None] = []
        self._walls: Walls | None = None
        self._orders: dict[int, _Order] = {}
        self._order_of = np.zeros(0, np.int64)
        self._pending: deque[tuple[Any, ...]] = deque()
        self._route_xy = _EMPTY_XY
        self._route_len = 0
        self._route_next = np.zeros(0, np.int64)
        self._route_rest = np.zeros(0)
        self._route_mult = np.zeros(0)
        self._route_base: dict[tuple[int, Any], int] = {}
        self._route_blocks: dict[tuple[int, Any], _Block] = {}
        self._routes_dirty = False
        self._next_order = 0
        self._frame = 0
        self._tree_cache: dict[Any, Any] = {}

    # -- storage ----------------------------------------------------------------------------
    _FIELDS: ClassVar[dict[str, tuple[type, tuple[int, ...]]]] = {
        "positions": (np.float64, (2,)),
        "velocities": (np.float64, (2,)),
        "headings": (np.float64, ()),
        "radii": (np.float64, ()),
        "speeds": (np.float64, ()),
        "arrived": (np.bool_, ()),
        "alive": (np.bool_, ()),
        "_moving": (np.bool_, ()),
        "_cls": (np.int64, ()),
        "_cur": (np.int64, ()),
        "_lost": (np.bool_, ()),
        "_stuck": (np.bool_, ()),
        "_stall": (np.float64, ()),
        "_best": (np.float64, ()),
        "_settled": (np.bool_, ()),
        "_tries": (np.int64, ()),
        "_shadow": (np.float64, (2,)),
        "_slot": (np.float64, (2,)),
        "_prof": (np.int64, ()),
        "_order": (np.int64, ()),
        "_smult": (np.float64, ()),
        "_mmin": (np.float64, ()),
    }

    def _alloc(self, cap: int) -> None:
        new = {}
        for name, (dt, shape) in self._FIELDS.items():
            arr = np.zeros((cap, *shape), dtype=dt)
            if name in self._arrays:
                arr[: self._n] = self._arrays[name][: self._n]
            new[name] = arr
        for name in ("_cur", "_order"):
            new[name][self._n :] = -1
        new["_best"][self._n :] = np.inf
        self._arrays = new
        self._cap = cap

    def _view(self, name: str) -> NDArray:
        return self._arrays[name][: self._n]

    @property
    def positions(self) -> NDArray[np.float64]:
        """Unit centres (n, 2), world units; a view (writable: the next :meth:`update` moves a
        written position out of walls and raises InvalidGeometryError for one that is not
        finite; read it again after :meth:`add`)."""
        return self._view("positions")

    @property
    def velocities(self) -> NDArray[np.float64]:
        """Velocity over the last update (n, 2), units per second."""
        return self._view("velocities")

    @property
    def headings(self) -> NDArray[np.float64]:
        """Direction of travel (n,), radians counter-clockwise from +x; writable (initial facing)."""
        return self._view("headings")

    @property
    def arrived(self) -> NDArray[np.bool_]:
        """Whether each unit stands on the slot of its latest order (n,)."""
        return self._view("arrived")

    @property
    def alive(self) -> NDArray[np.bool_]:
        """False for removed units (n,)."""
        return self._view("alive")

    @property
    def radii(self) -> NDArray[np.float64]:
        """Unit radii (n,), world units."""
        return self._view("radii")

    @property
    def speeds(self) -> NDArray[np.float64]:
        """Top speeds (n,), units per second; writable (e.g. slower in a swamp)."""
        return self._view("speeds")

    def __len__(self) -> int:
        """Number of unit ids handed out (removed units included)."""
        return self._n

    def __repr__(self) -> str:
        kind = "GridMap" if self._grid else "NavMap"
        return f"Crowd({int(self.alive.sum())} units on a {kind}, {len(self._orders)} orders)"

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
            ``radius``, ``speed`` or ``profile`` is invalid.
        """
        p = as_float_array("positions", positions, InvalidGeometryError)
        if p.ndim == 1:
            p = p[None, :]
        if p.ndim != 2 or p.shape[1] != 2 or not (np.abs(p) <= MAX_COORDINATE).all():
            raise InvalidGeometryError(f"positions has shape {p.shape}; expected finite (m, 2) world positions")
        r = _check_float("radius", radius, 0.0)
        v = _check_float("speed", speed, 0.0, strict=True)
        if profile is not None and not isinstance(profile, CostProfile):
            raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
        key = (r, self._wall_key(profile))
        if key not in self._classes:
            self._classes.append(key)
            self._class_profiles.append(profile)
            self._walls = self._make_walls()
        cls = self._classes.index(key)
        if profile not in self._profiles:
            self._profiles.append(profile)
        m = len(p)
        while self._n + m > self._cap:
            self._alloc(self._cap * 2)
        ids = np.arange(self._n, self._n + m)
        a = self._arrays
        a["positions"][ids] = self._walls.nearest_free(p, cls) if m else p
        a["velocities"][ids] = 0.0
        a["headings"][ids] = 0.0
        a["radii"][ids] = r
        a["speeds"][ids] = v
        a["arrived"][ids] = False
        a["alive"][ids] = True
        a["_moving"][ids] = False
        a["_cls"][ids] = cls
        a["_cur"][ids] = -1
        self._restart(ids)
        a["_shadow"][ids] = a["positions"][ids]
        a["_slot"][ids] = a["positions"][ids]
        a["_prof"][ids] = self._profiles.index(profile)
        a["_order"][ids] = -1
        a["_smult"][ids] = 0.0
        a["_mmin"][ids] = 1.0 if profile is None else profile.min_multiplier()
        self._n += m
        return ids

    def _wall_key(self, profile: CostProfile | None) -> Any:
        """What of a unit type shapes its walls: the terrain it may not enter and the
        capabilities opening gated links over it (None: only obstacles, as on every GridMap)."""
        if self._grid or profile is None or not profile.forbidden:
            return None
        return profile.forbidden, profile.capabilities

    def _restart(self, u: NDArray[np.int64]) -> None:
        """Units ``u`` got a new target: their progress watch starts again."""
        a = self._arrays
        a["_best"][u] = np.inf
        a["_stall"][u] = 0.0
        a["_stuck"][u] = False
        a["_lost"][u] = False
        a["_settled"][u] = False

    def _make_walls(self) -> Walls:
        return Walls(self.map, [r for r, _ in self._classes], self._class_profiles)

    def remove(self, ids: ArrayLike) -> None:
        """Remove units: their rows stay (ids are never reused) but they stop moving and no longer
        push others.

        Raises
        ------
        NodeNotFoundError
            An id was never handed out.
        """
        u = self._check_ids(ids)
        a = self._arrays
        a["alive"][u] = False
        a["_moving"][u] = False
        a["velocities"][u] = 0.0
        self._release(u)

    def _check_ids(self, ids: ArrayLike) -> NDArray[np.int64]:
        u = np.atleast_1d(as_array("ids", ids, NodeNotFoundError))
        if u.ndim != 1 or (u.size and not np.issubdtype(u.dtype, np.integer)):
            raise NodeNotFoundError(f"ids={describe(ids)} must be a unit id or a 1-D array of unit ids")
        if u.size and (u.min() < 0 or u.max() >= self._n):
            raise NodeNotFoundError(f"ids holds {int(u.max() if u.max() >= self._n else u.min())}; unit ids run 0..{self._n - 1}")
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
        u = u[self._arrays["alive"][u]]
        g = as_float_array("goal", goal, InvalidGeometryError).ravel()
        if g.shape != (2,) or not (np.abs(g) <= MAX_COORDINATE).all():
            raise InvalidGeometryError(f"goal={describe(goal)} is not two finite numbers")
        if u.size == 0:
            return
        u = np.unique(u)
        self._release(u)
        a = self._arrays
        cls_big = int(a["_cls"][u][np.argmax(a["radii"][u])])
        r_big = max(float(a["radii"][u].max()), 1e-9)
        spacing = self.formation_spacing * r_big
        # places held by the other units: slots of their orders, or where idle units stand
        n = self._n
        others = np.ones(n, bool)
        others[u] = False
        others &= a["alive"][:n]
        held = np.where((a["_order"][:n] >= 0)[:, None], a["_slot"][:n], a["positions"][:n])[others]
        clearance = 0.5 * self.formation_spacing * (r_big + a["radii"][:n][others])
        slots = formation_slots(self._walls, cls_big, g, len(u), spacing, taken=held, clearance=clearance)
        # nearest units take the inner slots
        d = np.hypot(*(a["positions"][u] - slots[0]).T)
        slot_of = np.empty((len(u), 2))
        slot_of[np.argsort(d, kind="stable")] = slots
        # a slot must be free for each unit's own wall class too
        for c in np.unique(a["_cls"][u]):
            sel = a["_cls"][u] == c
            slot_of[sel] = self._walls.nearest_free(slot_of[sel], int(c))
        oid = self._next_order
        self._next_order += 1
        self._orders[oid] = _Order(u, slots[0].copy(), {})
        a["_order"][u] = oid
        a["_slot"][u] = slot_of
        a["_moving"][u] = False
        a["arrived"][u] = False
        a["_cur"][u] = -1
        self._restart(u)
        a["_tries"][u] = 0
        self._slot_mults(u)
        for key in sorted(set(zip(a["_prof"][u].tolist(), a["_cls"][u].tolist()))):
            self._pending.append(("search", oid, key))

    def _slot_mults(self, u: NDArray[np.int64]) -> None:
        """Each unit type's terrain multiplier at the slots of units ``u`` (0 on grids)."""
        a = self._arrays
        if self._grid:
            a["_smult"][u] = 0.0
            return
        for prof_i in np.unique(a["_prof"][u]).tolist():
            sel = u[a["_prof"][u] == prof_i]
            a["_smult"][sel] = self.map.point_multipliers(a["_slot"][sel], self._profiles[prof_i])

    def set_map(self, navmap_or_grid: Any) -> None:
        """Switch to a changed map (a door closed, a bridge raised: a NavMap from a local update).

        Walls are rebuilt for every unit class; every order keeps its goal and slots and
        searches its routes again (budgeted, from the next :meth:`update`; its units wait until
        then). A unit the change buried inside an obstacle is moved to the nearest free point.

        Raises
        ------
        InvalidOptionError
            The new map is neither a NavMap nor a GridMap, or of the other kind than before.
        """
        level_geometry(navmap_or_grid)
        if isinstance(navmap_or_grid, GridMap) != self._grid:
            raise InvalidOptionError("set_map: the new map must be of the same kind (NavMap or GridMap) as the old one")
        self.map = navmap_or_grid
        self._tree_cache = {}
        self._queries = {}
        if not self._classes:
            return
        self._walls = self._make_walls()
        a = self._arrays
        n = self._n
        for c in range(len(self._classes)):
            sel = np.flatnonzero(a["alive"][:n] & (a["_cls"][:n] == c))
            if sel.size:
                a["positions"][sel] = self._walls.nearest_free(a["positions"][sel], c)
        a["_shadow"][:n] = a["positions"][:n]
        self._pending.clear()
        self._active = None
        self._planning.clear()
        for oid, order in self._orders.items():
            order.blocks.clear()
            ids = order.ids[a["_order"][order.ids] == oid]
            a["_cur"][ids] = -1
            a["_moving"][ids] = False
            self._slot_mults(ids)
            for key in sorted(set(zip(a["_prof"][ids].tolist(), a["_cls"][ids].tolist()))):
                self._pending.append(("search", oid, key))
        self._routes_dirty = True
        self._rebuild_routes()

    def _release(self, u: NDArray[np.int64]) -> None:
        """Take units out of their orders; drop orders nobody follows any more."""
        a = self._arrays
        old = set(a["_order"][u].tolist()) - {-1}
        a["_order"][u] = -1
        a["_cur"][u] = -1
        for oid in old:
            order = self._orders[oid]
            if not (a["_order"][order.ids] == oid).any():
                del self._orders[oid]
                self._routes_dirty = True

    def _members(self, oid: int, key: tuple[int, int]) -> NDArray[np.int64]:
        order = self._orders.get(oid)
        if order is None:
            return np.zeros(0, np.int64)
        a = self._arrays
        ids = order.ids
        return ids[(a["_order"][ids] == oid) & (a["_prof"][ids] == key[0]) & (a["_cls"][ids] == key[1])]

    def _search(self, oid: int, key: tuple[int, int], budget: int) -> int | None:
        """The route tree of one unit type of an order; slots handed out in arrival order
        (estimated from the nearest route row); the units then wait for :meth:`_join`. Small
        groups (or trees larger than the budget) get sliced searches queued instead. Returns
        the expansions charged, or None when the tree must wait for a fresh budget."""
        members = self._members(oid, key)
        if members.size == 0:
            return 0
        order = self._orders[oid]
        a = self._arrays
        prof_i, cls = key
        pos = a["positions"][members]
        if not self._grid and (len(members) < self.shared_search_min or self.map.graph.n_nodes > self.expansions_per_update):
            for u in reversed(members.tolist()):
                self._queue_plan(oid, key, u, front=True)
            return 0
        work = self.map.n_cells if self._grid else self.map.graph.n_nodes
        if work > budget and (not self._grid or budget < self.expansions_per_update):
            return None
        if self._grid:
            block = self._flow_block(order.goal)
        else:
            block = self._tree_block(order.goal, self._profiles[prof_i], cls)
        order.blocks[key] = block
        first, cost = self._estimate(block, pos)
        a["_slot"][members] = _fill_order(a["_slot"][members], order.goal, pos, block, first, cost)
        self._routes_dirty = True
        self._pending.appendleft(("join", oid, key, members))
        return min(work, budget)

    def _queue_plan(self, oid: int, key: tuple[int, int], u: int, *, front: bool = False) -> None:
        """Queue one unit's own sliced search to its slot (once)."""
        if (oid, u) in self._planning:
            return
        self._planning.add((oid, u))
        task = ("plan", oid, key, u)
        if front:
            self._pending.appendleft(task)
        else:
            self._pending.append(task)

    def _query_for(self, prof_i: int) -> NavQuery:
        profile = self._profiles[prof_i]
        if profile not in self._queries:
            self._queries[profile] = NavQuery(self.map, profile)
        return self._queries[profile]

    def _plan_step(self, oid: int, key: tuple[int, int], u: int, budget: int) -> int:
        """Advance unit ``u``'s sliced search by at most ``budget`` (>= 1) expansions; once it
        finishes the unit follows the path (or, unreachable, walks straight for its slot, sliding
        along walls). Returns the expansions spent; ``self._active`` is None when done."""
        a = self._arrays
        if self._active is None or self._active[:3] != (oid, key, u):
            try:
                search = self._query_for(key[0]).start_search(a["positions"][u].copy(), a["_slot"][u].copy(), allow_partial=True)
            except NavmeshError:
                search = None
            self._active = (oid, key, u, search)
        search = self._active[3]
        spent = 0
        if search is not None:
            before = search.expansions
            done = search.advance(budget)
            spent = search.expansions - before
            if not done:
                return spent
        self._active = None
        self._planning.discard((oid, u))
        if a["_order"][u] != oid or oid not in self._orders:
            return spent
        slot = a["_slot"][u].copy()
        path = None
        try:
            path = search.result() if search is not None else None
        except NavmeshError:
            pass
        prof_i, cls = key
        if path is not None and path.partial and len(path.points):
            # the slot cannot be reached: the unit's slot becomes the end of the partial path
            slot = self._walls.nearest_free(path.points[-1:, :2], cls)[0]
            a["_slot"][u] = slot
            self._slot_mults(np.array([u]))
        pts = path.points[1:, :2] if path is not None else slot[None]
        if len(pts) == 0:
            pts = slot[None]
        profile = self._profiles[prof_i]
        pts = self._standable(np.ascontiguousarray(pts), cls)
        pts = self._detour(a["positions"][u].copy(), pts, cls)
        nxt = np.append(np.arange(1, len(pts)), -1).astype(np.int64)
        legs = self.map.straight_costs(pts[:-1], pts[1:], profile)
        rest = np.append(np.cumsum(legs[::-1])[::-1], 0.0)
        mult = self.map.point_multipliers(pts, profile)
        block = _Block(pts, nxt, rest, slot, mult, path)
        self._orders[oid].blocks[(prof_i, cls, u)] = block
        self._append_block((oid, (prof_i, cls, u)), block)
        a["_cur"][u] = self._route_base[(oid, (prof_i, cls, u))]
        a["_moving"][u] = True
        self._restart(np.array([u]))
        return spent

    def _join(self, oid: int, key: tuple[int, int], members: NDArray[np.int64]) -> None:
        """Units of an order join its route tree (visibility tests: the per-unit part)."""
        a = self._arrays
        members = members[a["_order"][members] == oid]
        order = self._orders.get(oid)
        if members.size == 0 or order is None:
            return
        self._rebuild_routes()
        first, _ = self._enter(order.blocks[key], a["positions"][members], key[1])
        base = self._route_base[(oid, key)]
        a["_cur"][members] = np.where(first >= 0, first + base, -1)
        a["_moving"][members] = True
        self._restart(members)
        if not self._grid:  # no route point in sight: a path of their own from where they stand
            for v in members[first < 0].tolist():
                self._queue_plan(oid, key, v)

    def _estimate(self, block: _Block, pos: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """Cheap first row and route cost per unit (nearest row, no visibility test)."""
        if self._grid:
            cells = np.asarray(self.map.cell_at(pos), np.int64).reshape(len(pos))
            cost = block.dist[cells]
            return np.where(np.isfinite(cost), block.nxt[cells], -1), cost
        if len(block.xy) == 1:
            return np.zeros(len(pos), np.int64), np.hypot(*(pos - block.goal).T)
        d, near = self._node_tree().query(pos)
        return near.astype(np.int64), d + block.dist[near]

    def _service(self) -> None:
        """Run pending route work within this update's budgets."""
        searches, joins = self.searches_per_update, self.joins_per_update
        budget = self.expansions_per_update
        while self._pending:
            task = self._pending[0]
            if task[0] == "search":
                if searches == 0:
                    break
                self._pending.popleft()
                spent = self._search(task[1], task[2], budget)
                if spent is None:
                    self._pending.appendleft(task)
                    break
                searches -= 1
                budget -= spent
            elif task[0] == "plan":
                if budget == 0:
                    break
                budget -= self._plan_step(*task[1:], budget)
                if self._active is not None:
                    break
                self._pending.popleft()
            else:
                if joins == 0:
                    break
                _, oid, key, members = self._pending.popleft()
                now, later = members[:joins], members[joins:]
                if later.size:
                    self._pending.appendleft(("join", oid, key, later))
                joins -= len(now)
                self._join(oid, key, now)
        self.last_expansions = self.expansions_per_update - budget

    def _flow_block(self, goal: NDArray[np.float64]) -> _Block:
        grid: GridMap = self.map
        cell = grid.cell_at(goal)
        if not grid.is_passable(cell):
            raise NodeNotFoundError(f"goal={goal.tolist()} lies in a blocked cell")
        field = FlowField(grid, cell)
        allc = np.arange(grid.n_cells)
        nxt = np.asarray(field.next_cell(allc), np.int64)
        # the goal cell leads to the goal row (the exact goal), which leads to the slot
        nxt = np.append(np.where(nxt == allc, grid.n_cells, nxt), -1)
        dist = np.append(np.asarray(field.distance_at(allc), np.float64).ravel(), 0.0)
        return _Block(np.concatenate([grid.cell_center(allc), goal[None]]), nxt, dist, goal, np.zeros(len(nxt)))

    def _tree_block(self, goal: NDArray[np.float64], profile: CostProfile | None, cls: int) -> _Block:
        """Reversed Dijkstra from the goal over the graph: every node's next hop and cost to it."""
        graph = self.map.graph
        n = graph.n_nodes
        pts = np.ascontiguousarray(graph.points[:, :2])
        if n == 0:
            return _Block(goal[None].copy(), np.full(1, -1, np.int64), np.zeros(1), goal, self.map.point_multipliers(goal[None], profile))
        gd, gi = self._node_tree().query(goal[None], k=min(16, n))
        gi, gd = np.atleast_1d(gi[0]), np.atleast_1d(gd[0])
        vis = self._walls.sees(np.repeat(goal[None], len(gi), axis=0), pts[gi], cls)
        exits, exit_cost = gi[vis], gd[vis]
        rkey = ("reversed", profile)
        if rkey not in self._tree_cache:
            # the reversed arcs (once per unit type): a search from the goal's exits over them
            # gives every node its cost to the goal and its next hop toward it
            w = np.asarray(self.map.weights(profile).values, dtype=np.float64)
            src = np.repeat(np.arange(n, dtype=np.int32), np.diff(graph.indptr))
            keep = np.flatnonzero(np.isfinite(w))
            order = keep[np.argsort(graph.indices[keep], kind="stable")]
            indptr = np.zeros(n + 1, graph.indptr.dtype)
            np.cumsum(np.bincount(graph.indices[keep], minlength=n), out=indptr[1:])
            self._tree_cache[rkey] = (indptr, np.ascontiguousarray(src[order]), np.ascontiguousarray(w[order]))
        indptr, indices, weights = self._tree_cache[rkey]
        dist, parent, origin = GK.best_first(
            indptr, indices, weights, graph.points,
            exits.astype(np.int32), exit_cost.astype(np.float64), _NO_NODES, _NO_COSTS, np.zeros(graph.dim),
            GK.H_ZERO, 0.0, np.inf, 0, False, _NO_NODES, _NO_NODES, _NO_NODES, _NO_NODES,
        )[:3]
        # route rows: the graph nodes, then the goal itself (row n), then each unit's slot
        nxt = np.full(n + 1, -1, np.int64)
        nxt[:n] = np.where(parent >= 0, parent, np.where(origin >= 0, n, -1))
        dist = np.append(dist, 0.0)
        key = ("nodes", cls)
        if key not in self._tree_cache:
            self._tree_cache[key] = self._standable(pts, cls)
        xy = np.concatenate([self._tree_cache[key], goal[None]])
        mkey = ("mult", profile)
        if mkey not in self._tree_cache:  # the terrain under every node: once per unit type
            self._tree_cache[mkey] = np.asarray(self.map.point_multipliers(pts, profile), np.float64)
        mult = np.append(self._tree_cache[mkey], self.map.point_multipliers(goal[None], profile))
        return _Block(xy, nxt, dist, goal, mult)

    def _detour(self, start: NDArray[np.float64], pts: NDArray[np.float64], cls: int, depth: int = 3) -> NDArray[np.float64]:
        """A unit's own route ``pts`` from ``start`` with points added where a leg is not
        walkable for the unit's body (a route along a ford's outline, planned for a centre):
        the leg's midpoint moved to the nearest free point, up to ``depth`` halvings, so the
        unit slides round the corner the right way."""
        for _ in range(depth):
            full = np.concatenate([start[None], pts])
            ok = self._walls.sees(full[:-1], full[1:], cls)
            if ok.all():
                break
            bad = np.flatnonzero(~ok)
            mids = self._walls.nearest_free(0.5 * (full[bad] + full[bad + 1]), cls)
            pts = np.insert(pts, bad, mids, axis=0)
        return pts

    def _standable(self, pts: NDArray[np.float64], cls: int) -> NDArray[np.float64]:
        """Route points moved out of class ``cls``'s walls (to the nearest free point)."""
        inside = np.flatnonzero(self._walls.status(pts, cls) < 0)
        if inside.size == 0:
            return pts
        out = pts.copy()
        out[inside] = self._walls.nearest_free(pts[inside], cls)
        return out

    def _node_tree(self) -> cKDTree:
        if "nodes" not in self._tree_cache:
            self._tree_cache["nodes"] = cKDTree(np.asarray(self.map.graph.points[:, :2]))
        return self._tree_cache["nodes"]

    def _enter(self, block: _Block, pos: NDArray[np.float64], cls: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """First route row and route cost for units at ``pos``: straight to the goal row when it
        is in sight, else the visible one of the nearest rows with the cheapest route."""
        m = len(pos)
        goal_row = len(block.xy) - 1
        if self._grid:
            cells = np.asarray(self.map.cell_at(pos), np.int64).reshape(m)
            cost = block.dist[cells]
            return np.where(np.isfinite(cost), block.nxt[cells], -1), cost
        kk = min(8, goal_row)
        if kk == 0:  # a graph without nodes: straight to the goal when in sight
            direct = self._walls.sees(pos, np.repeat(block.goal[None], m, axis=0), cls)
            return np.where(direct, goal_row, -1).astype(np.int64), np.hypot(*(pos - block.goal).T)
        ed, ei = self._node_tree().query(pos, k=kk)
        ed, ei = ed.reshape(m, kk), ei.reshape(m, kk)
        # a shortcut lies in one terrain class: its cost is its length times the row's multiplier
        first, cost = self._cheapest_in_sight(block, pos, ed, ei, cls, self._walls.barrier_class)
        # a unit standing inside a terrain region may have to cross its outline to join
        none = np.flatnonzero(first < 0)
        if none.size:
            first[none], cost[none] = self._cheapest_in_sight(block, pos[none], ed[none], ei[none], cls, -1)
        none = np.flatnonzero(first < 0)
        if none.size and goal_row > kk:
            # none of the nearest rows in sight (behind a thin wall): look further
            wide = min(64, goal_row)
            wd, wi = self._node_tree().query(pos[none], k=wide)
            first[none], cost[none] = self._cheapest_in_sight(block, pos[none], wd.reshape(-1, wide), wi.reshape(-1, wide), cls, -1)
        straight = np.hypot(*(pos - block.goal).T) * block.mult[goal_row]
        maybe = np.flatnonzero(straight <= cost)
        direct = maybe[self._walls.shortcut(pos[maybe], np.repeat(block.goal[None], len(maybe), axis=0), cls)]
        first[direct] = goal_row
        cost[direct] = straight[direct]
        return first, cost

    def _cheapest_in_sight(
        self, block: _Block, pos: NDArray[np.float64], ed: NDArray[np.float64], ei: NDArray[np.int64], cls: int, barrier: int
    ) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """Among candidate rows ``ei`` (m, k) at distances ``ed``: the one in sight with the
        cheapest route (-1 and inf where none is)."""
        total = ed * block.mult[ei] + block.dist[ei]
        order = np.argsort(total, axis=1, kind="stable")
        total = np.take_along_axis(total, order, axis=1)
        rows = np.take_along_axis(ei, order, axis=1).astype(np.int64)
        pick = K.first_in_sight(pos, block.xy, rows, total, cls, barrier, *self._walls.arrays)
        r = np.arange(len(pos))
        ok = pick >= 0
        first = np.where(ok, rows[r, np.maximum(pick, 0)], -1)
        cost = np.where(ok, total[r, np.maximum(pick, 0)], np.inf)
        return first, cost

    def _reenter(self, lost: NDArray[np.int64]) -> None:
        """Units that lost sight of their route point (pushed off their route) join the route
        tree again from where they stand; those that lost sight of their slot, or reached the
        route's end without seeing it, get a path of their own to it (NavMap)."""
        a = self._arrays
        if not self._grid:
            cur = a["_cur"][lost]
            to_slot = (cur < 0) | (self._route_next[np.maximum(cur, 0)] < 0)
            self._replan(lost[to_slot])
            lost = lost[~to_slot]
        keys = np.stack([a["_order"][lost], a["_prof"][lost], a["_cls"][lost]], axis=1)
        for oid, prof_i, cls in np.unique(keys, axis=0).tolist():
            order = self._orders.get(oid)
            if order is None:
                continue
            block = order.blocks.get((prof_i, cls))
            if block is None:
                for v in lost[(keys == (oid, prof_i, cls)).all(axis=1)].tolist():
                    if (prof_i, cls, v) in order.blocks:
                        self._queue_plan(oid, (prof_i, cls), v)
                continue
            u = lost[(keys == (oid, prof_i, cls)).all(axis=1)]
            own = np.array([(prof_i, cls, v) in order.blocks for v in u.tolist()], dtype=bool)
            for v in u[own].tolist():
                self._queue_plan(oid, (prof_i, cls), v)
            u = u[~own]
            first, _ = self._enter(block, a["positions"][u], cls)
            base = self._route_base[(oid, (prof_i, cls))]
            keep = first >= 0
            a["_cur"][u[keep]] = first[keep] + base
            self._restart(u[keep])
            if not self._grid:
                for v in u[~keep].tolist():
                    self._queue_plan(oid, (prof_i, cls), v)

    def _append_block(self, key: tuple[int, Any], block: _Block) -> None:
        """Add one unit's own route after the used rows of the route arrays, which grow by
        doubling (a block it replaces stays behind, unused, until the next full rebuild)."""
        if self._routes_dirty:
            self._rebuild_routes()
            return
        off, m = self._route_len, len(block.xy)
        if off + m > len(self._route_xy):
            cap = max(2 * len(self._route_xy), off + m, 64)
            self._route_xy = _grown(self._route_xy, cap, 0.0)
            self._route_next = _grown(self._route_next, cap, -1)
            self._route_rest = _grown(self._route_rest, cap, 0.0)
            self._route_mult = _grown(self._route_mult, cap, 0.0)
        self._route_xy[off : off + m] = block.xy
        self._route_next[off : off + m] = np.where(block.nxt >= 0, block.nxt + off, -1)
        self._route_rest[off : off + m] = block.dist
        self._route_mult[off : off + m] = block.mult
        self._route_len = off + m
        self._route_base[key] = off
        self._route_blocks[key] = block

    def _rebuild_routes(self) -> None:
        if not self._routes_dirty:
            return
        xy, nxt, base = [_EMPTY_XY], [np.zeros(0, np.int64)], {}
        rest, mult = [np.zeros(0)], [np.zeros(0)]
        off = 0
        old_base, old_blocks, blocks = self._route_base, self._route_blocks, {}
        remap = np.full(self._route_len, -1, np.int64)
        for oid, order in self._orders.items():
            for key, block in order.blocks.items():
                bxy, bnxt = block.xy, block.nxt
                base[(oid, key)] = off
                blocks[(oid, key)] = block
                if old_blocks.get((oid, key)) is block:  # a replaced block's old rows lead nowhere
                    ob = old_base[(oid, key)]
                    remap[ob : ob + len(bxy)] = np.arange(off, off + len(bxy))
                xy.append(bxy)
                rest.append(block.dist)
                mult.append(block.mult)
                nxt.append(np.where(bnxt >= 0, bnxt + off, -1))
                off += len(bxy)
        a = self._arrays
        cur = a["_cur"][: self._n]
        has = cur >= 0
        cur[has] = remap[cur[has]] if len(remap) else -1
        self._route_xy = np.ascontiguousarray(np.concatenate(xy))
        self._route_next = np.ascontiguousarray(np.concatenate(nxt))
        self._route_rest = np.ascontiguousarray(np.concatenate(rest), dtype=np.float64)
        self._route_mult = np.ascontiguousarray(np.concatenate(mult), dtype=np.float64)
        self._route_len = len(self._route_xy)
        self._route_base = base
        self._route_blocks = blocks
        self._routes_dirty = False

    # -- motion -----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance the crowd by ``dt`` seconds (>= 0): pending route searches within the budget,
        then one compiled step for every unit. ``dt = 0`` (a paused game) only checks positions
        written since the last update."""
        t = _check_float("dt", dt, 0.0)
        self._check_written()
        if t == 0.0:
            return
        self._service()
        self._rebuild_routes()
        if self._n == 0:
            return
        a = self._arrays
        n = self._n
        lost = np.flatnonzero(a["_lost"][:n])
        if lost.size:
            a["_lost"][lost] = False
            self._reenter(lost)
        stuck = np.flatnonzero(a["_stuck"][:n])
        if stuck.size:
            a["_stuck"][stuck] = False
            a["_tries"][stuck] += 1
            self._replan(self._swap_slots(stuck))
        CK.crowd_step(
            t, self._frame, a["positions"][:n], a["velocities"][:n], a["headings"][:n], a["radii"][:n],
            a["speeds"][:n], a["_cls"][:n], a["alive"][:n], a["_moving"][:n], a["arrived"][:n], a["_cur"][:n],
            a["_lost"][:n], a["_stuck"][:n], a["_stall"][:n], a["_best"][:n], a["_settled"][:n], a["_tries"][:n], a["_slot"][:n], a["_smult"][:n],
            a["_mmin"][:n], self._route_xy, self._route_next, self._route_rest, self._route_mult, self.separation,
            self.settle_time, self._walls.barrier_class, *self._walls.arrays,
        )
        a["_shadow"][:n] = a["positions"][:n]
        self._frame += 1

    def _check_written(self) -> None:
        """Positions written from outside since the last update: moved out of walls, or refused
        when not finite (the unit keeps its last position)."""
        a = self._arrays
        n = self._n
        if n == 0:
            return
        pos, shadow = a["positions"][:n], a["_shadow"][:n]
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
        for c in np.unique(a["_cls"][changed]).tolist():
            sel = changed[a["_cls"][changed] == c]
            pos[sel] = self._walls.nearest_free(pos[sel], int(c))
        self._restart(changed)
        shadow[changed] = pos[changed]

    def _swap_slots(self, stuck: NDArray[np.int64]) -> NDArray[np.int64]:
        """Stuck units trade slots with a touching unit of the same order and type when that
        brings both closer, or leaves them as far (two units meeting head-on in a corridor one
        unit wide each take the slot on their own side; a unit standing in a corridor in the way
        of one behind it moves on to that one's slot). Returns the stuck units and partners."""
        a = self._arrays
        n = self._n
        pos = a["positions"][:n]
        out = [stuck]
        tree = cKDTree(pos)
        for u in stuck.tolist():
            oid = a["_order"][u]
            if oid < 0:
                continue
            near = np.asarray(tree.query_ball_point(pos[u], 2.5 * a["radii"][u]), np.int64)
            near = near[
                (near != u) & (a["_order"][near] == oid) & (a["_cls"][near] == a["_cls"][u])
                & (a["_prof"][near] == a["_prof"][u]) & a["alive"][near] & ~a["_settled"][near]
            ]
            if near.size == 0:
                continue
            su, sv = a["_slot"][u].copy(), a["_slot"][near]
            now = np.hypot(*(pos[u] - su)) + np.hypot(*(pos[near] - sv).T)
            swapped = np.hypot(*(pos[u] - sv).T) + np.hypot(*(pos[near] - su).T)
            k = int(np.argmin(swapped - now))
            if swapped[k] < now[k] + a["radii"][u]:
                v = int(near[k])
                a["_slot"][u], a["_slot"][v] = a["_slot"][v].copy(), su
                a["arrived"][v] = False
                self._slot_mults(np.array([u, v]))
                out.append(np.array([v]))
        return np.unique(np.concatenate(out))

    def _replan(self, u: NDArray[np.int64]) -> None:
        """Units that made no progress along their routes: a path of their own each, from where
        they stand (NavMap); on a GridMap they join the flow field again."""
        a = self._arrays
        u = u[a["_order"][u] >= 0]
        if self._grid:
            a["_lost"][u] = True
            return
        for v in u.tolist():
            self._queue_plan(int(a["_order"][v]), (int(a["_prof"][v]), int(a["_cls"][v])), v)

    def path_of(self, uid: int) -> Path:
        """The route unit ``uid`` will walk from where it stands: its position, the remaining
        route points, its slot (for drawing; ``nodes`` are route point ids). A unit without an
        order gets a one-point path at its position."""
        u = int(self._check_ids(uid)[0])
        a = self._arrays
        pts = [a["positions"][u].copy()]
        nodes = []
        if a["_moving"][u] or a["_cur"][u] >= 0:
            c = int(a["_cur"][u])
            seen = 0
            while c >= 0 and seen < self._route_len:
                pts.append(self._route_xy[c])
                nodes.append(c)
                c = int(self._route_next[c])
                seen += 1
            if not np.array_equal(pts[-1], a["_slot"][u]):
                pts.append(a["_slot"][u].copy())
        p = np.asarray(pts)
        length = float(np.hypot(*np.diff(p, axis=0).T).sum()) if len(p) > 1 else 0.0
        return Path(np.asarray(nodes, np.int32), p, length)

    def planned_path(self, uid: int) -> Path | None:
        """The path the sliced search of unit ``uid`` returned for its latest order (equal to
        ``NavQuery(navmap, profile).find_path(start, slot, allow_partial=True)`` from where the
        unit stood when its search began), or None: routed by a shared tree, not planned yet, or
        its slot unreachable."""
        u = int(self._check_ids(uid)[0])
        a = self._arrays
        order = self._orders.get(int(a["_order"][u]))
        if order is None:
            return None
        block = order.blocks.get((int(a["_prof"][u]), int(a["_cls"][u]), u))
        return None if block is None else block.path

    @property
    def walls(self) -> Walls | None:
        """The wall arrays per unit class: radius and forbidden terrain (None before the first
        unit is added)."""
        return self._walls


def _grown(arr: NDArray, cap: int, fill: float) -> NDArray:
    """``arr`` copied into a new array of ``cap`` rows, the new rows set to ``fill``."""
    out = np.full((cap, *arr.shape[1:]), fill, dtype=arr.dtype)
    out[: len(arr)] = arr
    return out


def _fill_order(slots, goal, pos, block, first, cost) -> NDArray[np.float64]:
    """Give the units that arrive first the slots deepest along the direction they arrive from,
    so that later units never walk through the ones already standing."""
    lead = int(np.argmin(np.where(np.isfinite(cost), cost, np.inf)))
    last = pos[lead]
    c, steps = int(first[lead]), 0
    while c >= 0 and steps < len(block.xy):
        last, c, steps = block.xy[c], int(block.nxt[c]), steps + 1
    d = goal - last
    if np.hypot(*d) < 1e-12:
        d = goal - pos.mean(axis=0)
    norm = np.hypot(*d)
    if norm < 1e-12:
        return slots
    depth = (slots - goal) @ (d / norm)
    out = np.empty_like(slots)
    out[np.argsort(np.where(np.isfinite(cost), cost, np.inf), kind="stable")] = slots[np.argsort(-depth, kind="stable")]
    return out


def _check_float(name: str, value: Any, low: float, *, strict: bool = False) -> float:
    """``value`` as a float in ``[low, MAX_COORDINATE]`` (``(low, ...]`` when ``strict``)."""
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidOptionError(f"{name}={describe(value)} is not a number") from None
    if not np.isfinite(v) or v < low or (strict and v == low) or v > MAX_COORDINATE:
        rule = f"> {low}" if strict else f">= {low}"
        raise InvalidOptionError(
            f"{name}={describe(value)} is not valid; expected a finite number {rule} and <= {MAX_COORDINATE:g}"
        )
    return v
