"""Group orders of a crowd and the queue of route work they cause, run within per-update budgets.

An order (:class:`Order`) is a set of units, a goal and their slots; per unit type it gets one
route tree (:meth:`~navmesh.steering.planner.RoutePlanner.tree`, or a flow field on a GridMap)
that its units join, and units that a tree cannot serve (small groups, units pushed off their
route, units stuck in a jam) get paths of their own from sliced searches
(:meth:`~navmesh.NavQuery.start_search`). :class:`Orders` keeps the orders and the queue of that
work; :meth:`Orders.service` runs as much of it as one update's budgets allow.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh.errors import NavmeshError
from navmesh.path import Path
from navmesh.steering.formation import fill_order
from navmesh.steering.planner import RoutePlanner
from navmesh.steering.routes import RouteBlock, RouteTable
from navmesh.steering.units import UnitArrays
from navmesh.terrain import CostProfile

__all__ = ["Order", "Orders"]


@dataclass
class Order:
    """A group order: its units, goal, and (once computed) route blocks per unit type
    (``(profile index, class)``) and per unit with its own route (``(profile index, class, unit)``)."""

    ids: NDArray[np.int64]
    goal: NDArray[np.float64]
    blocks: dict[Any, RouteBlock]


class Orders:
    """The orders of a crowd and their pending route work.

    Parameters
    ----------
    units : UnitArrays
        The crowd's storage (read and written: slots, current rows, progress flags).
    routes : RouteTable
        Where route blocks are packed for the kernel.
    planner : RoutePlanner
    profiles : list of CostProfile or None
        The crowd's unit types (a unit's ``prof`` indexes it); the crowd appends to it.
    """

    def __init__(self, units: UnitArrays, routes: RouteTable, planner: RoutePlanner, profiles: list[CostProfile | None]) -> None:
        self.units = units
        self.routes = routes
        self.planner = planner
        self.profiles = profiles
        self.orders: dict[int, Order] = {}
        self._next_id = 0
        self._pending: deque[tuple[Any, ...]] = deque()
        self._active: tuple[int, Any, int, Any] | None = None
        self._planning: set[tuple[int, int]] = set()
        self._expansions = 1
        self._shared_min = 1

    def create(self, u: NDArray[np.int64], goal: NDArray[np.float64], slots: NDArray[np.float64]) -> int:
        """A new order for units ``u`` (already released) toward ``goal`` with their ``slots``;
        its route trees are queued. Returns the order id."""
        oid = self._next_id
        self._next_id += 1
        self.orders[oid] = Order(u, goal.copy(), {})
        a = self.units.arrays
        a["order"][u] = oid
        a["slot"][u] = slots
        a["moving"][u] = False
        a["arrived"][u] = False
        a["cur"][u] = -1
        self.units.new_goal(u)
        a["tries"][u] = 0
        self.slot_mults(u)
        self._queue_searches(oid, u)
        return oid

    def _queue_searches(self, oid: int, u: NDArray[np.int64]) -> None:
        a = self.units.arrays
        for key in sorted(set(zip(a["prof"][u].tolist(), a["cls"][u].tolist()))):
            self._pending.append(("search", oid, key))

    def reset(self) -> None:
        """The map changed: every order searches its routes again (its units wait)."""
        a = self.units.arrays
        self._pending.clear()
        self._active = None
        self._planning.clear()
        for oid, order in self.orders.items():
            order.blocks.clear()
            ids = order.ids[a["order"][order.ids] == oid]
            a["cur"][ids] = -1
            a["moving"][ids] = False
            self.units.new_goal(ids)
            self.slot_mults(ids)
            self._queue_searches(oid, ids)
        self.routes.dirty = True
        self.rebuild_routes()

    def blocks(self) -> Iterator[tuple[Any, RouteBlock]]:
        """Every live route block with its route-table key ``(order id, block key)``."""
        for oid, order in self.orders.items():
            for key, block in order.blocks.items():
                yield (oid, key), block

    def rebuild_routes(self) -> None:
        """Repack the route table when orders ended or changed."""
        self.routes.rebuild(self.blocks(), self.units.arrays["cur"][: self.units.n])

    def planned_path(self, u: int) -> Path | None:
        """The path of unit ``u``'s own route in its latest order, or None."""
        a = self.units.arrays
        order = self.orders.get(int(a["order"][u]))
        if order is None:
            return None
        block = order.blocks.get((int(a["prof"][u]), int(a["cls"][u]), u))
        return None if block is None else block.path

    def release(self, u: NDArray[np.int64]) -> None:
        """Take units out of their orders; drop orders nobody follows any more."""
        a = self.units.arrays
        old = set(a["order"][u].tolist()) - {-1}
        a["order"][u] = -1
        a["cur"][u] = -1
        for oid in old:
            order = self.orders[oid]
            if not (a["order"][order.ids] == oid).any():
                del self.orders[oid]
                self.routes.dirty = True

    def _members(self, oid: int, key: tuple[int, int]) -> NDArray[np.int64]:
        order = self.orders.get(oid)
        if order is None:
            return np.zeros(0, np.int64)
        a = self.units.arrays
        ids = order.ids
        return ids[(a["order"][ids] == oid) & (a["prof"][ids] == key[0]) & (a["cls"][ids] == key[1])]

    def slot_mults(self, u: NDArray[np.int64]) -> None:
        """Each unit type's terrain multiplier at the slots of units ``u`` (0 on grids)."""
        a = self.units.arrays
        if self.planner.grid:
            a["slot_mult"][u] = 0.0
            return
        if self.planner.mesh:  # uniform costs
            a["slot_mult"][u] = 1.0
            return
        for prof_i in np.unique(a["prof"][u]).tolist():
            sel = u[a["prof"][u] == prof_i]
            a["slot_mult"][sel] = self.planner.map.point_multipliers(a["slot"][sel], self.profiles[prof_i])

    def _search(self, oid: int, key: tuple[int, int], budget: int) -> int | None:
        """The route tree of one unit type of an order; slots handed out in arrival order
        (estimated from the nearest route row); the units then wait for :meth:`_join`. Small
        groups (or trees larger than the budget) get sliced searches queued instead. Returns
        the expansions charged, or None when the tree must wait for a fresh budget."""
        members = self._members(oid, key)
        if members.size == 0:
            return 0
        order = self.orders[oid]
        a = self.units.arrays
        prof_i, cls = key
        pos = a["positions"][members]
        if not self.planner.grid and (self.planner.mesh or len(members) < self._shared_min or self.planner.map.graph.n_nodes > self._expansions):
            for u in reversed(members.tolist()):
                self._queue_plan(oid, key, u, front=True)
            return 0
        work = self.planner.map.n_cells if self.planner.grid else self.planner.map.graph.n_nodes
        if work > budget and (not self.planner.grid or budget < self._expansions):
            return None
        if self.planner.grid:
            block = self.planner.flow(order.goal)
        else:
            block = self.planner.tree(order.goal, self.profiles[prof_i], cls)
        order.blocks[key] = block
        first, cost = self.planner.estimate(block, pos)
        a["slot"][members] = fill_order(a["slot"][members], order.goal, pos, block, first, cost)
        self.routes.dirty = True
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

    def _plan_step(self, oid: int, key: tuple[int, int], u: int, budget: int) -> int:
        """Advance unit ``u``'s sliced search by at most ``budget`` (>= 1) expansions; once it
        finishes the unit follows the path (or, unreachable, walks straight for its slot, sliding
        along walls). Returns the expansions spent; ``self._active`` is None when done."""
        a = self.units.arrays
        if self._active is None or self._active[:3] != (oid, key, u):
            try:
                query = self.planner.query(self.profiles[key[0]])
                search = query.start_search(a["positions"][u].copy(), a["slot"][u].copy(), allow_partial=True)
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
        if a["order"][u] != oid or oid not in self.orders:
            return spent
        slot = a["slot"][u].copy()
        path = None
        try:
            path = search.result() if search is not None else None
        except NavmeshError:
            pass
        prof_i, cls = key
        if path is not None and path.partial and len(path.points):
            # the slot cannot be reached: the unit's slot becomes the end of the partial path
            slot = self.planner.walls.nearest_free(path.points[-1:, :2], cls)[0]
            a["slot"][u] = slot
            self.slot_mults(np.array([u]))
        block = self.planner.own_route(a["positions"][u].copy(), path, slot, self.profiles[prof_i], cls)
        self.orders[oid].blocks[(prof_i, cls, u)] = block
        self.routes.append((oid, (prof_i, cls, u)), block, a["cur"][: self.units.n], self.blocks())
        a["cur"][u] = self.routes.base[(oid, (prof_i, cls, u))]
        a["moving"][u] = True
        self.units.restart(np.array([u]))
        return spent

    def _join(self, oid: int, key: tuple[int, int], members: NDArray[np.int64]) -> None:
        """Units of an order join its route tree (visibility tests: the per-unit part)."""
        a = self.units.arrays
        members = members[a["order"][members] == oid]
        order = self.orders.get(oid)
        if members.size == 0 or order is None:
            return
        self.rebuild_routes()
        first, _ = self.planner.enter(order.blocks[key], a["positions"][members], key[1])
        base = self.routes.base[(oid, key)]
        a["cur"][members] = np.where(first >= 0, first + base, -1)
        a["moving"][members] = True
        self.units.restart(members)
        if not self.planner.grid:  # no route point in sight: a path of their own from where they stand
            for v in members[first < 0].tolist():
                self._queue_plan(oid, key, v)

    def service(self, searches: int, expansions: int, joins: int, shared_min: int) -> int:
        """Run pending route work within one update's budgets: ``searches`` route trees,
        ``expansions`` node expansions, ``joins`` units joining trees; orders with fewer than
        ``shared_min`` units of a type plan one path per unit. Returns the expansions spent."""
        self._expansions, self._shared_min = expansions, shared_min
        budget = expansions
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
        return expansions - budget

    def reenter(self, lost: NDArray[np.int64]) -> None:
        """Units that lost sight of their route point (pushed off their route) join the route
        tree again from where they stand; those that lost sight of their slot, or reached the
        route's end without seeing it, get a path of their own to it (NavMap)."""
        a = self.units.arrays
        if not self.planner.grid:
            cur = a["cur"][lost]
            to_slot = (cur < 0) | (self.routes.next[np.maximum(cur, 0)] < 0)
            self.replan(lost[to_slot])
            lost = lost[~to_slot]
        if lost.size == 0:
            return
        # one group per (order, profile, class): sort by one combined key
        o, p, c = a["order"][lost], a["prof"][lost], a["cls"][lost]
        key = (o * (int(p.max()) + 1) + p) * (int(c.max()) + 1) + c
        lost, key = lost[np.argsort(key, kind="stable")], np.sort(key, kind="stable")
        cuts = np.flatnonzero(np.diff(key)) + 1
        for u in np.split(lost, cuts):
            oid, prof_i, cls = int(a["order"][u[0]]), int(a["prof"][u[0]]), int(a["cls"][u[0]])
            order = self.orders.get(oid)
            if order is None:
                continue
            block = order.blocks.get((prof_i, cls))
            if block is None:
                for v in u.tolist():
                    if (prof_i, cls, v) in order.blocks:
                        self._queue_plan(oid, (prof_i, cls), v)
                continue
            own = np.array([(prof_i, cls, v) in order.blocks for v in u.tolist()], dtype=bool)
            for v in u[own].tolist():
                self._queue_plan(oid, (prof_i, cls), v)
            u = u[~own]
            first, _ = self.planner.enter(block, a["positions"][u], cls)
            base = self.routes.base[(oid, (prof_i, cls))]
            keep = first >= 0
            a["cur"][u[keep]] = first[keep] + base
            self.units.restart(u[keep])
            if not self.planner.grid:
                for v in u[~keep].tolist():
                    self._queue_plan(oid, (prof_i, cls), v)

    def replan(self, u: NDArray[np.int64]) -> None:
        """Units that made no progress along their routes: a path of their own each, from where
        they stand (NavMap); on a GridMap they join the flow field again."""
        a = self.units.arrays
        u = u[a["order"][u] >= 0]
        if self.planner.grid:
            a["lost"][u] = True
            return
        for v in u.tolist():
            self._queue_plan(int(a["order"][v]), (int(a["prof"][v]), int(a["cls"][v])), v)

    def swap_slots(self, stuck: NDArray[np.int64]) -> NDArray[np.int64]:
        """Stuck units trade slots with a touching unit of the same order and type when that
        brings both closer, or leaves them as far (two units meeting head-on in a corridor one
        unit wide each take the slot on their own side; a unit standing in a corridor in the way
        of one behind it moves on to that one's slot). Returns the stuck units and partners."""
        a = self.units.arrays
        n = self.units.n
        pos = a["positions"][:n]
        out = [stuck]
        tree = cKDTree(pos)
        for u in stuck.tolist():
            oid = a["order"][u]
            if oid < 0:
                continue
            near = np.asarray(tree.query_ball_point(pos[u], 2.5 * a["radii"][u]), np.int64)
            near = near[
                (near != u) & (a["order"][near] == oid) & (a["cls"][near] == a["cls"][u])
                & (a["prof"][near] == a["prof"][u]) & a["alive"][near] & ~a["settled"][near]
            ]
            if near.size == 0:
                continue
            su, sv = a["slot"][u].copy(), a["slot"][near]
            now = np.hypot(*(pos[u] - su)) + np.hypot(*(pos[near] - sv).T)
            swapped = np.hypot(*(pos[u] - sv).T) + np.hypot(*(pos[near] - su).T)
            k = int(np.argmin(swapped - now))
            if swapped[k] < now[k] + a["radii"][u]:
                v = int(near[k])
                a["slot"][u], a["slot"][v] = a["slot"][v].copy(), su
                if a["arrived"][v]:
                    # it had finished: its order's watch starts again for the new slot (only
                    # then, so two stuck units trading slots back and forth still give up)
                    self.units.new_goal(np.array([v]))
                a["arrived"][v] = False
                self.slot_mults(np.array([u, v]))
                out.append(np.array([v]))
        return np.unique(np.concatenate(out))
