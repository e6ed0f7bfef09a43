"""Route planning for a crowd: route trees toward a goal, flow-field routes, units joining them,
and units' own routes from a path, on a NavMap or a GridMap.

A :class:`RoutePlanner` answers for one map and the crowd's :class:`~navmesh.steering.Walls`:
:meth:`RoutePlanner.tree` is one search from the goal over the waypoint graph (every node's cost
to the goal and next hop), :meth:`RoutePlanner.flow` the same from a
:class:`~navmesh.grid.FlowField`; :meth:`RoutePlanner.enter` gives each unit its first row (the
cheapest route row in sight). What depends only on the map and the unit type (the reversed
graph, terrain at every node, nodes moved out of the unit's walls) is computed once, by
:meth:`RoutePlanner.prepare` when a unit type joins, so an order costs one search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh._kernels import graph as GK
from navmesh.errors import NodeNotFoundError
from navmesh.grid import FlowField, GridMap
from navmesh.path import Path
from navmesh.search import frozen
from navmesh.polymesh.mesh import PolyMesh
from navmesh.steering.routes import RouteBlock
from navmesh.steering.walls import Walls
from navmesh.terrain import CostProfile
from navmesh.waypoints.query import NavQuery

__all__ = ["RoutePlanner"]

_NO_NODES = np.empty(0, np.int32)
_NO_COSTS = np.empty(0)


class RoutePlanner:
    """Route trees, joins and own routes for the units of a crowd on ``navmap_or_grid``.

    Parameters
    ----------
    navmap_or_grid : NavMap or GridMap

    Attributes
    ----------
    map : NavMap or GridMap
    grid : bool
        Whether the map is a GridMap.
    mesh : bool
        Whether the map is a PolyMesh (every unit then plans its own exact path: no route trees).
    walls : Walls or None
        The crowd's walls (set by the crowd whenever it rebuilds them).
    """

    def __init__(self, navmap_or_grid: Any) -> None:
        self.map = navmap_or_grid
        self.grid = isinstance(navmap_or_grid, GridMap)
        self.mesh = isinstance(navmap_or_grid, PolyMesh)
        self.walls: Walls | None = None
        self._cache: dict[Any, Any] = {}
        self._queries: dict[CostProfile | None, NavQuery] = {}

    def prepare(self, profile: CostProfile | None, cls: int) -> None:
        """Compute once what a tree for this unit type reads (NavMap only): the reversed graph
        under ``profile``, the terrain multiplier at every node, the nodes moved out of the walls
        of class ``cls``, the nodes' KD-tree."""
        if self.grid or self.mesh or self.map.graph.n_nodes == 0:
            return
        self._reversed(profile)
        self._node_mults(profile)
        self._nodes_for(cls)
        self.node_tree()

    def query(self, profile: CostProfile | None) -> NavQuery:
        """The NavQuery of a unit type (one per profile, reused)."""
        if profile not in self._queries:
            self._queries[profile] = NavQuery(self.map, profile)
        return self._queries[profile]

    def slot_mults(self, slots: NDArray[np.float64], profile: CostProfile | None) -> NDArray[np.float64]:
        """The unit type's terrain multiplier at ``slots`` (m, 2); 0 on grids (no cost test)."""
        if self.grid:
            return np.zeros(len(slots))
        if self.mesh:
            return np.ones(len(slots))
        return np.asarray(self.map.point_multipliers(slots, profile), np.float64)

    def own_route(
        self, start: NDArray[np.float64], path: Path | None, slot: NDArray[np.float64], profile: CostProfile | None, cls: int
    ) -> RouteBlock:
        """A unit's own route from ``start`` along ``path`` (None: straight) to ``slot``: its
        points moved out of the unit's walls, with detours where a leg is not walkable."""
        pts = path.points[1:, :2] if path is not None else slot[None]
        if len(pts) == 0:
            pts = slot[None]
        pts = self.standable(np.ascontiguousarray(pts), cls)
        pts = self.detour(start, pts, cls)
        nxt = np.append(np.arange(1, len(pts)), -1).astype(np.int64)
        if self.mesh:  # uniform costs: a leg costs its length
            legs = np.hypot(*(pts[1:] - pts[:-1]).T)
            mult = np.ones(len(pts))
        else:
            legs = self.map.straight_costs(pts[:-1], pts[1:], profile)
            mult = self.map.point_multipliers(pts, profile)
        rest = np.append(np.cumsum(legs[::-1])[::-1], 0.0)
        return RouteBlock(pts, nxt, rest, slot, mult, path)

    def _reversed(self, profile: CostProfile | None) -> tuple[NDArray[np.int64], NDArray[np.int32], NDArray[np.float64]]:
        """The graph's open arcs reversed, as CSR arrays (once per unit type): a search from the
        goal over them gives every node its cost to the goal and its next hop toward it."""
        key = ("reversed", profile)
        if key not in self._cache:
            graph = self.map.graph
            n = graph.n_nodes
            w = np.asarray(self.map.weights(profile).values, dtype=np.float64)
            src = np.repeat(np.arange(n, dtype=np.int32), np.diff(graph.indptr))
            keep = np.flatnonzero(np.isfinite(w))
            order = keep[np.argsort(graph.indices[keep], kind="stable")]
            indptr = np.zeros(n + 1, graph.indptr.dtype)
            np.cumsum(np.bincount(graph.indices[keep], minlength=n), out=indptr[1:])
            self._cache[key] = (indptr, np.ascontiguousarray(src[order]), np.ascontiguousarray(w[order]))
        return self._cache[key]

    def _node_mults(self, profile: CostProfile | None) -> NDArray[np.float64]:
        """The terrain multiplier under every node (once per unit type)."""
        key = ("mult", profile)
        if key not in self._cache:
            pts = np.ascontiguousarray(self.map.graph.points[:, :2])
            self._cache[key] = np.asarray(self.map.point_multipliers(pts, profile), np.float64)
        return self._cache[key]

    def _nodes_for(self, cls: int) -> NDArray[np.float64]:
        """The nodes moved out of class ``cls``'s walls (once per class)."""
        key = ("nodes", cls)
        if key not in self._cache:
            self._cache[key] = self.standable(np.ascontiguousarray(self.map.graph.points[:, :2]), cls)
        return self._cache[key]

    def flow(self, goal: NDArray[np.float64]) -> RouteBlock:
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
        return RouteBlock(np.concatenate([grid.cell_center(allc), goal[None]]), nxt, dist, goal, np.zeros(len(nxt)))

    def tree(self, goal: NDArray[np.float64], profile: CostProfile | None, cls: int) -> RouteBlock:
        """Reversed Dijkstra from the goal over the graph: every node's next hop and cost to it."""
        graph = self.map.graph
        n = graph.n_nodes
        pts = np.ascontiguousarray(graph.points[:, :2])
        if n == 0:
            return RouteBlock(goal[None].copy(), np.full(1, -1, np.int64), np.zeros(1), goal, self.map.point_multipliers(goal[None], profile))
        gd, gi = self.node_tree().query(goal[None], k=min(16, n))
        gi, gd = np.atleast_1d(gi[0]), np.atleast_1d(gd[0])
        vis = self.walls.sees(np.repeat(goal[None], len(gi), axis=0), pts[gi], cls)
        exits, exit_cost = gi[vis], gd[vis]
        indptr, indices, weights = self._reversed(profile)
        # read-only costs, as navmesh.search passes them: one compiled specialisation of the kernel
        dist, parent, origin = GK.best_first(
            frozen(indptr), frozen(indices), frozen(weights), graph.points,
            exits.astype(np.int32), frozen(exit_cost.astype(np.float64)), _NO_NODES, frozen(_NO_COSTS),
            frozen(np.zeros(graph.dim)),
            GK.H_ZERO, 0.0, np.inf, 0, False, _NO_NODES, _NO_NODES, _NO_NODES, _NO_NODES,
        )[:3]
        # route rows: the graph nodes, then the goal itself (row n), then each unit's slot
        nxt = np.full(n + 1, -1, np.int64)
        nxt[:n] = np.where(parent >= 0, parent, np.where(origin >= 0, n, -1))
        dist = np.append(dist, 0.0)
        xy = np.concatenate([self._nodes_for(cls), goal[None]])
        mult = np.append(self._node_mults(profile), self.map.point_multipliers(goal[None], profile))
        return RouteBlock(xy, nxt, dist, goal, mult)

    def detour(self, start: NDArray[np.float64], pts: NDArray[np.float64], cls: int, depth: int = 3) -> NDArray[np.float64]:
        """A unit's own route ``pts`` from ``start`` with points added where a leg is not
        walkable for the unit's body (a route along a ford's outline, planned for a centre):
        the leg's midpoint moved to the nearest free point, up to ``depth`` halvings, so the
        unit slides round the corner the right way."""
        for _ in range(depth):
            full = np.concatenate([start[None], pts])
            ok = self.walls.sees(full[:-1], full[1:], cls)
            if ok.all():
                break
            bad = np.flatnonzero(~ok)
            mids = self.walls.nearest_free(0.5 * (full[bad] + full[bad + 1]), cls)
            pts = np.insert(pts, bad, mids, axis=0)
        return pts

    def standable(self, pts: NDArray[np.float64], cls: int) -> NDArray[np.float64]:
        """Route points moved out of class ``cls``'s walls (to the nearest free point)."""
        inside = np.flatnonzero(self.walls.status(pts, cls) < 0)
        if inside.size == 0:
            return pts
        out = pts.copy()
        out[inside] = self.walls.nearest_free(pts[inside], cls)
        return out

    def node_tree(self) -> cKDTree:
        """KD-tree of the graph's nodes (built once)."""
        if "nodes" not in self._cache:
            self._cache["nodes"] = cKDTree(np.asarray(self.map.graph.points[:, :2]))
        return self._cache["nodes"]

    def enter(self, block: RouteBlock, pos: NDArray[np.float64], cls: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """First route row and route cost for units at ``pos``: straight to the goal row when it
        is in sight, else the visible one of the nearest rows with the cheapest route."""
        m = len(pos)
        goal_row = len(block.xy) - 1
        if self.grid:
            cells = np.asarray(self.map.cell_at(pos), np.int64).reshape(m)
            cost = block.dist[cells]
            return np.where(np.isfinite(cost), block.nxt[cells], -1), cost
        kk = min(8, goal_row)
        if kk == 0:  # a graph without nodes: straight to the goal when in sight
            direct = self.walls.sees(pos, np.repeat(block.goal[None], m, axis=0), cls)
            return np.where(direct, goal_row, -1).astype(np.int64), np.hypot(*(pos - block.goal).T)
        ed, ei = self.node_tree().query(pos, k=kk)
        ed, ei = ed.reshape(m, kk), ei.reshape(m, kk)
        # a shortcut lies in one terrain class: its cost is its length times the row's multiplier
        first, cost = self._cheapest_in_sight(block, pos, ed, ei, cls, self.walls.barrier_class)
        # a unit standing inside a terrain region may have to cross its outline to join
        none = np.flatnonzero(first < 0)
        if none.size:
            first[none], cost[none] = self._cheapest_in_sight(block, pos[none], ed[none], ei[none], cls, -1)
        none = np.flatnonzero(first < 0)
        if none.size and goal_row > kk:
            # none of the nearest rows in sight (behind a thin wall): look further
            wide = min(64, goal_row)
            wd, wi = self.node_tree().query(pos[none], k=wide)
            first[none], cost[none] = self._cheapest_in_sight(block, pos[none], wd.reshape(-1, wide), wi.reshape(-1, wide), cls, -1)
        straight = np.hypot(*(pos - block.goal).T) * block.mult[goal_row]
        maybe = np.flatnonzero(straight <= cost)
        direct = maybe[self.walls.shortcut(pos[maybe], np.repeat(block.goal[None], len(maybe), axis=0), cls)]
        first[direct] = goal_row
        cost[direct] = straight[direct]
        return first, cost

    def _cheapest_in_sight(
        self, block: RouteBlock, pos: NDArray[np.float64], ed: NDArray[np.float64], ei: NDArray[np.int64], cls: int, barrier: int
    ) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """Among candidate rows ``ei`` (m, k) at distances ``ed``: the one in sight with the
        cheapest route (-1 and inf where none is)."""
        total = ed * block.mult[ei] + block.dist[ei]
        order = np.argsort(total, axis=1, kind="stable")
        total = np.take_along_axis(total, order, axis=1)
        rows = np.take_along_axis(ei, order, axis=1).astype(np.int64)
        pick = self.walls.first_in_sight(pos, block.xy, rows, total, cls, barrier)
        r = np.arange(len(pos))
        ok = pick >= 0
        first = np.where(ok, rows[r, np.maximum(pick, 0)], -1)
        cost = np.where(ok, total[r, np.maximum(pick, 0)], np.inf)
        return first, cost

    def estimate(self, block: RouteBlock, pos: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """Cheap first row and route cost per unit (nearest row, no visibility test)."""
        if self.grid:
            cells = np.asarray(self.map.cell_at(pos), np.int64).reshape(len(pos))
            cost = block.dist[cells]
            return np.where(np.isfinite(cost), block.nxt[cells], -1), cost
        if len(block.xy) == 1:
            return np.zeros(len(pos), np.int64), np.hypot(*(pos - block.goal).T)
        d, near = self.node_tree().query(pos)
        return near.astype(np.int64), d + block.dist[near]
