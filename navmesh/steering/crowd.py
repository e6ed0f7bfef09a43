"""Many units at once: group orders, shared routes, separation and wall sliding in one kernel.

A :class:`Crowd` keeps every unit's state in flat numpy arrays indexed by unit id. A group order
(:meth:`Crowd.move_to`) spreads formation slots over the free space around the goal and computes
one route tree toward the goal per unit type (a reversed Dijkstra over the NavMap's graph, or a
:class:`~navmesh.flowfield.FlowField` on a GridMap) that every unit of the group reads: cheaper
than one search per unit as soon as a group has more than a handful of units. Route requests wait
in a queue and at most ``searches_per_update`` of them run per :meth:`Crowd.update`, so a large
order never freezes a frame. The per-frame motion is one compiled call
(:func:`navmesh.steering.kernels.crowd_step`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from navmesh._checks import check_positive_int
from navmesh.errors import InvalidGeometryError, InvalidOptionError, NodeNotFoundError, describe
from navmesh.grid import FlowField
from navmesh.grid import GridMap
from navmesh.path import Path
from navmesh.steering import kernels as K
from navmesh.steering.walls import Walls, level_geometry
from navmesh.terrain import CostProfile

__all__ = ["Crowd", "formation_slots"]

_EMPTY_XY = np.zeros((0, 2))


def formation_slots(walls: Walls, cls: int, goal: ArrayLike, count: int, spacing: float) -> NDArray[np.float64]:
    """``count`` standing places around ``goal``, nearest first, on a hexagonal lattice.

    Slots are lattice points (pitch ``spacing``) where a unit of class ``cls`` may stand and that
    connect to the goal through free lattice steps, so no slot lies behind a wall. No two slots are
    closer than ``spacing``.

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

    Returns
    -------
    float array of shape (count, 2)

    Raises
    ------
    NodeNotFoundError
        The free space connected to the goal has fewer than ``count`` lattice points.
    """
    g = walls.nearest_free(np.asarray(goal, dtype=np.float64)[None, :2], cls)[0]
    ring = int(np.ceil(np.sqrt(count / 2.5))) + 2
    area = sum(f.area for f in walls.free[cls : cls + 1])
    limit = int(np.sqrt(area) / spacing) + 2
    while True:
        i, j = np.meshgrid(np.arange(-ring, ring + 1), np.arange(-ring, ring + 1), indexing="ij")
        i, j = i.ravel(), j.ravel()
        pts = g + spacing * np.column_stack([i + 0.5 * j, j * np.sqrt(3) / 2])
        ok = walls.walkable(pts, cls)
        order = np.argsort(np.hypot(*(pts - g).T), kind="stable")
        idx = {(a, b): k for k, (a, b) in enumerate(zip(i.tolist(), j.tolist()))}
        reached = np.zeros(len(pts), bool)
        start = int(order[0])
        if ok[start]:
            reached[start] = True
            frontier = [start]
            steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
            while frontier:
                a_list, b_list = [], []
                for k in frontier:
                    for di, dj in steps:
                        m = idx.get((i[k] + di, j[k] + dj))
                        if m is not None and ok[m] and not reached[m]:
                            a_list.append(k)
                            b_list.append(m)
                frontier = []
                if a_list:
                    vis = walls.visible(pts[a_list], pts[b_list], cls)
                    for m, v in zip(b_list, vis.tolist()):
                        if v and not reached[m]:
                            reached[m] = True
                            frontier.append(m)
        # the goal itself first, then lattice points by distance
        found = [p for p in order.tolist() if reached[p]]
        if len(found) >= count:
            out = pts[found[:count]].copy()
            out[0] = g
            return out
        if ring > limit:
            raise NodeNotFoundError(
                f"only {len(found)} formation slots of spacing {spacing} fit around goal={g.tolist()}; {count} needed"
            )
        ring *= 2


@dataclass
class _Block:
    """One route tree toward a goal: row positions, next row (-1: then the unit's slot), and the
    route cost from each row to the goal. The last row is the goal (grids: its cell centre)."""

    xy: NDArray[np.float64]
    nxt: NDArray[np.int64]
    dist: NDArray[np.float64]
    goal: NDArray[np.float64]


@dataclass
class _Order:
    """A group order: its units, goal, slots, and (once computed) route blocks per unit type."""

    ids: NDArray[np.int64]
    goal: NDArray[np.float64]
    blocks: dict[Any, _Block]


class Crowd:
    """Units moving together on a NavMap or a GridMap.

    Parameters
    ----------
    navmap_or_grid : NavMap or GridMap
        The map. On a NavMap, routes follow its waypoint graph under each unit's
        :class:`~navmesh.terrain.CostProfile`; on a GridMap they follow a
        :class:`~navmesh.flowfield.FlowField` (blocked cells are walls; profiles do not apply,
        the grid's own cell costs do). Walls for the motion are the level's obstacles (or
        blocked cells) inflated by each unit's radius.
    searches_per_update : int
        Route searches (one per unit type of an order) run per :meth:`update`, >= 1; the others
        wait for the next updates. Default 4.
    separation : float
        Strength of the push between overlapping units, >= 0 (1 = a unit overlapping its
        neighbour by its full radius is pushed at its own speed). Default 2.
    formation_spacing : float
        Distance between formation slots in unit radii, >= 2. Default 2.2.

    Attributes (arrays indexed by unit id; removed units keep their row, ``alive`` False)
    ----------
    positions : float array (n, 2)
        Unit centres, world units. Never inside an obstacle inflated by the unit's radius.
    velocities : float array (n, 2)
        Velocity over the last update, units per second.
    headings : float array (n,)
        Direction of travel in radians (counter-clockwise from +x); kept while standing.
    arrived : bool array (n,)
        True once the unit stands on its slot of its latest order.
    alive : bool array (n,)
        False for removed units.
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
        separation: float = 2.0,
        formation_spacing: float = 2.2,
    ) -> None:
        level_geometry(navmap_or_grid)  # validates the map type
        self.map = navmap_or_grid
        self._grid = isinstance(navmap_or_grid, GridMap)
        self.searches_per_update = check_positive_int("searches_per_update", searches_per_update, allow_none=False)
        self.separation = _check_float("separation", separation, 0.0)
        self.formation_spacing = _check_float("formation_spacing", formation_spacing, 2.0)
        self._n = 0
        self._cap = 0
        self._arrays: dict[str, NDArray] = {}
        self._alloc(16)
        self._profiles: list[CostProfile | None] = []
        self._profile_of = np.zeros(0, np.int64)
        self._radii_classes: list[float] = []
        self._walls: Walls | None = None
        self._orders: dict[int, _Order] = {}
        self._order_of = np.zeros(0, np.int64)
        self._pending: deque[tuple[int, Any]] = deque()
        self._route_xy = _EMPTY_XY
        self._route_next = np.zeros(0, np.int64)
        self._route_base: dict[tuple[int, Any], int] = {}
        self._routes_dirty = False
        self._next_order = 0
        self._frame = 0
        self._tree_cache: dict[Any, Any] = {}

    # -- storage ----------------------------------------------------------------------------
    _FIELDS = {
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
        "_slot": (np.float64, (2,)),
        "_prof": (np.int64, ()),
        "_order": (np.int64, ()),
    }

    def _alloc(self, cap: int) -> None:
        new = {}
        for name, (dt, shape) in self._FIELDS.items():
            arr = np.zeros((cap, *shape), dtype=dt)
            if name in self._arrays:
                arr[: self._n] = self._arrays[name][: self._n]
            elif name in ("_cur", "_order"):
                arr[:] = -1
            new[name] = arr
        for name in ("_cur", "_order"):
            new[name][self._n :] = -1
        self._arrays = new
        self._cap = cap

    def __getattr__(self, name: str) -> NDArray:
        arrays = self.__dict__.get("_arrays")
        if arrays is not None and name in arrays:
            return arrays[name][: self.__dict__["_n"]]
        raise AttributeError(name)

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
            Where they stand (world units). A position inside an obstacle inflated by ``radius``
            (or outside the bounds) is moved to the nearest free point.
        radius : float
            Unit radius in world units, >= 0. On a NavMap built with ``agent_radius`` r, units
            with radius > r may find its graph's gaps too narrow and wait against walls.
        speed : float
            Top speed in world units per second, > 0.
        profile : CostProfile, optional
            Terrain costs of the unit type (NavMap routes only).

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
        p = np.asarray(positions, dtype=np.float64)
        if p.ndim == 1:
            p = p[None, :]
        if p.ndim != 2 or p.shape[1] != 2 or not np.isfinite(p).all():
            raise InvalidGeometryError(f"positions has shape {p.shape}; expected finite (m, 2) world positions")
        r = _check_float("radius", radius, 0.0)
        v = _check_float("speed", speed, 0.0, strict=True)
        if profile is not None and not isinstance(profile, CostProfile):
            raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
        if r not in self._radii_classes:
            self._radii_classes.append(r)
            self._walls = Walls(self.map, self._radii_classes)
        cls = self._radii_classes.index(r)
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
        a["_slot"][ids] = a["positions"][ids]
        a["_prof"][ids] = self._profiles.index(profile)
        a["_order"][ids] = -1
        self._n += m
        return ids

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
        u = np.atleast_1d(np.asarray(ids))
        if u.ndim != 1 or (u.size and not np.issubdtype(u.dtype, np.integer)):
            raise NodeNotFoundError(f"ids={describe(ids)} must be a unit id or a 1-D array of unit ids")
        if u.size and (u.min() < 0 or u.max() >= self._n):
            raise NodeNotFoundError(f"ids holds {int(u.max() if u.max() >= self._n else u.min())}; unit ids run 0..{self._n - 1}")
        return u.astype(np.int64)

    # -- orders -----------------------------------------------------------------------------
    def move_to(self, ids: ArrayLike, goal: ArrayLike) -> None:
        """Order units to a goal as a group.

        Each unit gets a formation slot around ``goal`` (slots are at least two radii apart,
        on free space connected to the goal); the units closest to the goal take the inner
        slots. Routes are computed during the next updates (at most ``searches_per_update``
        route searches per update); until then the units keep still.

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
        g = np.asarray(goal, dtype=np.float64).ravel()
        if g.shape != (2,) or not np.isfinite(g).all():
            raise InvalidGeometryError(f"goal={describe(goal)} is not two finite numbers")
        if u.size == 0:
            return
        u = np.unique(u)
        self._release(u)
        a = self._arrays
        cls_big = int(a["_cls"][u][np.argmax(a["radii"][u])])
        spacing = self.formation_spacing * max(float(a["radii"][u].max()), 1e-9)
        slots = formation_slots(self._walls, cls_big, g, len(u), spacing)
        # nearest units take the inner slots
        d = np.hypot(*(a["positions"][u] - slots[0]).T)
        slot_of = np.empty((len(u), 2))
        slot_of[np.argsort(d, kind="stable")] = slots
        # a slot must be free for each unit's own radius class too
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
        for key in sorted(set(zip(a["_prof"][u].tolist(), a["_cls"][u].tolist()))):
            self._pending.append((oid, key))

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

    def _run_search(self, oid: int, key: tuple[int, int]) -> None:
        order = self._orders.get(oid)
        if order is None:
            return
        a = self._arrays
        prof_i, cls = key
        ids = order.ids
        members = ids[(a["_order"][ids] == oid) & (a["_prof"][ids] == prof_i) & (a["_cls"][ids] == cls)]
        if members.size == 0:
            return
        pos = a["positions"][members]
        if self._grid:
            block = self._flow_block(order.goal)
        else:
            block = self._tree_block(order.goal, self._profiles[prof_i], cls)
        order.blocks[key] = block
        first, cost = self._enter(block, pos, cls)
        a["_slot"][members] = _fill_order(a["_slot"][members], order.goal, pos, block, first, cost)
        self._routes_dirty = True
        self._rebuild_routes()
        base = self._route_base[(oid, key)]
        a["_cur"][members] = np.where(first >= 0, first + base, -1)
        a["_moving"][members] = True

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
        return _Block(np.concatenate([grid.cell_center(allc), goal[None]]), nxt, dist, goal)

    def _tree_block(self, goal: NDArray[np.float64], profile: CostProfile | None, cls: int) -> _Block:
        """Reversed Dijkstra from the goal over the graph: every node's next hop and cost to it."""
        graph = self.map.graph
        n = graph.n_nodes
        pts = np.ascontiguousarray(graph.points[:, :2])
        w = np.asarray(self.map.weights(profile).values, dtype=np.float64)
        gd, gi = self._node_tree().query(goal[None], k=min(16, n))
        gi, gd = np.atleast_1d(gi[0]), np.atleast_1d(gd[0])
        vis = self._walls.sees(np.repeat(goal[None], len(gi), axis=0), pts[gi], cls)
        exits, exit_cost = gi[vis], gd[vis]
        src = np.repeat(np.arange(n), np.diff(graph.indptr))
        keep = np.isfinite(w)
        # reversed arcs plus the goal as node n, so dist[u] is the cost from u to the goal
        rows = np.concatenate([graph.indices[keep], np.full(len(exits), n)])
        cols = np.concatenate([src[keep], exits])
        vals = np.maximum(np.concatenate([w[keep], exit_cost]), 1e-12)
        rev = scipy.sparse.csr_array((vals, (rows, cols)), shape=(n + 1, n + 1))
        dist, pred = scipy.sparse.csgraph.dijkstra(rev, indices=n, return_predecessors=True)
        # route rows: the graph nodes, then the goal itself (row n), then each unit's slot
        nxt = np.where(pred >= 0, pred, -1).astype(np.int64)
        nxt[n] = -1
        return _Block(np.concatenate([pts, goal[None]]), nxt, dist, goal)

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
        ed, ei = self._node_tree().query(pos, k=kk)
        ed, ei = ed.reshape(m, kk), ei.reshape(m, kk)
        a, b = np.repeat(pos, kk, axis=0), block.xy[ei.ravel()]
        vis = self._walls.shortcut(a, b, cls).reshape(m, kk)
        # a unit standing inside a terrain region may have to cross its outline to join
        none = np.flatnonzero(~vis.any(axis=1))
        if none.size:
            vis[none] = self._walls.sees(np.repeat(pos[none], kk, axis=0), block.xy[ei[none].ravel()], cls).reshape(-1, kk)
        total = np.where(vis, ed + block.dist[ei], np.inf)
        best = np.argmin(total, axis=1)
        rows = np.arange(m)
        first = ei[rows, best].astype(np.int64)
        cost = total[rows, best]
        first[~np.isfinite(cost)] = -1
        direct = self._walls.shortcut(pos, np.repeat(block.goal[None], m, axis=0), cls)
        first[direct] = goal_row
        cost[direct] = np.hypot(*(pos[direct] - block.goal).T)
        return first, cost

    def _reenter(self, lost: NDArray[np.int64]) -> None:
        """Units that lost sight of their route point (pushed off their route) join the route
        tree again from where they stand."""
        a = self._arrays
        keys = np.stack([a["_order"][lost], a["_prof"][lost], a["_cls"][lost]], axis=1)
        for oid, prof_i, cls in np.unique(keys, axis=0).tolist():
            order = self._orders.get(oid)
            block = order.blocks.get((prof_i, cls)) if order is not None else None
            if block is None:
                continue
            u = lost[(keys == (oid, prof_i, cls)).all(axis=1)]
            first, _ = self._enter(block, a["positions"][u], cls)
            base = self._route_base[(oid, (prof_i, cls))]
            keep = first >= 0
            a["_cur"][u[keep]] = first[keep] + base

    def _rebuild_routes(self) -> None:
        if not self._routes_dirty:
            return
        xy, nxt, base = [_EMPTY_XY], [np.zeros(0, np.int64)], {}
        off = 0
        old_base = self._route_base
        remap = np.full(len(self._route_xy), -1, np.int64)
        for oid, order in self._orders.items():
            for key, block in order.blocks.items():
                bxy, bnxt = block.xy, block.nxt
                base[(oid, key)] = off
                if (oid, key) in old_base:
                    ob = old_base[(oid, key)]
                    remap[ob : ob + len(bxy)] = np.arange(off, off + len(bxy))
                xy.append(bxy)
                nxt.append(np.where(bnxt >= 0, bnxt + off, -1))
                off += len(bxy)
        a = self._arrays
        cur = a["_cur"][: self._n]
        has = cur >= 0
        cur[has] = remap[cur[has]] if len(remap) else -1
        self._route_xy = np.ascontiguousarray(np.concatenate(xy))
        self._route_next = np.ascontiguousarray(np.concatenate(nxt))
        self._route_base = base
        self._routes_dirty = False

    # -- motion -----------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Advance the crowd by ``dt`` seconds (> 0): pending route searches within the budget,
        then one compiled step for every unit."""
        t = _check_float("dt", dt, 0.0, strict=True)
        for _ in range(min(self.searches_per_update, len(self._pending))):
            self._run_search(*self._pending.popleft())
        self._rebuild_routes()
        if self._n == 0:
            return
        a = self._arrays
        n = self._n
        lost = np.flatnonzero(a["_lost"][:n])
        if lost.size:
            a["_lost"][lost] = False
            self._reenter(lost)
        K.crowd_step(
            t, self._frame, a["positions"][:n], a["velocities"][:n], a["headings"][:n], a["radii"][:n],
            a["speeds"][:n], a["_cls"][:n], a["alive"][:n], a["_moving"][:n], a["arrived"][:n], a["_cur"][:n],
            a["_lost"][:n], a["_slot"][:n], self._route_xy, self._route_next, self.separation,
            self._walls.barrier_class, *self._walls.arrays,
        )
        self._frame += 1

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
            while c >= 0 and seen < len(self._route_xy):
                pts.append(self._route_xy[c])
                nodes.append(c)
                c = int(self._route_next[c])
                seen += 1
            pts.append(a["_slot"][u].copy())
        p = np.asarray(pts)
        length = float(np.hypot(*np.diff(p, axis=0).T).sum()) if len(p) > 1 else 0.0
        return Path(np.asarray(nodes, np.int32), p, length)

    @property
    def walls(self) -> Walls | None:
        """The wall arrays per radius class (None before the first unit is added)."""
        return self._walls


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
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{name}={describe(value)} is not a number") from None
    if not np.isfinite(v) or v < low or (strict and v == low):
        rule = f"> {low}" if strict else f">= {low}"
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a finite number {rule}")
    return v
