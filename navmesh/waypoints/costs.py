"""The cost rules of one unit type on one NavMap: what a join, a shortcut or a straight walk costs.

:class:`CostRules` is made once per :class:`~navmesh.waypoints.query.NavQuery`: the unit's arc
weights and node multipliers, and the walls and barriers a shortcut may not cross, as the kernels
take them (:class:`Rules`). :meth:`CostRules.for_danger` gives a call's rules raised by danger
zones. A straight walk costs its length times the terrain multiplier where it starts when it
touches no terrain boundary (so it lies in one terrain class), the exact terrain breakdown
otherwise, plus any danger it crosses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from navmesh._kernels import los as LK
from navmesh.danger import DangerZone, add_danger
from navmesh.terrain import CostProfile
from navmesh.waypoints.navmap import NavMap, check_danger

__all__ = ["CostRules", "Rules"]


@dataclass(frozen=True, eq=False)
class Rules:
    """Cost rules of one call: the unit's cached arrays, or copies raised by danger zones.

    ``mult`` has n + 2 rows (the last two belong to the start and goal of the query being run);
    ``los`` is the kernels' tuple of 12 arrays: the walls (8) and the barriers (4).
    """

    zones: tuple[DangerZone, ...]
    weights: NDArray[np.float64]
    mult: NDArray[np.float64]
    los: tuple


class CostRules:
    """One unit type's cost rules on one map (see the module notes).

    Parameters
    ----------
    nav : NavMap
    profile : CostProfile
        Already checked.
    """

    def __init__(self, nav: NavMap, profile: CostProfile) -> None:
        self.navmap = nav
        self.profile = profile
        self.n_nodes = n = nav.graph.n_nodes
        self.terrain = len(nav.level.terrain) > 0
        weights = nav.weights(profile)
        self.hscale = max(min(weights.heuristic_scale("euclidean"), profile.min_multiplier()), 0.0)
        mult = np.empty(n + 2)
        mult[:n] = self.point_mult(nav.points) if n else np.zeros(0)
        self.walls = tuple(nav.walls)
        barriers = LK.wall_grid(LK.segment_edges(nav.barrier_segments(profile=profile)), extent=nav.walls_extent())
        self.base = Rules((), np.ascontiguousarray(weights.values, dtype=np.float64), mult, (*self.walls, *barriers[:4]))

    def for_danger(self, danger: object) -> Rules:
        """The rules of a call with these danger zones (the cached ones when there are none)."""
        zones = check_danger(danger)
        if not zones:
            return self.base
        nav = self.navmap
        mult = self.base.mult.copy()
        mult[: self.n_nodes] = self.point_mult(nav.points, zones, mult[: self.n_nodes])
        edges = LK.segment_edges(nav.barrier_segments(zones, profile=self.profile))
        barriers = LK.wall_grid(edges, extent=nav.walls_extent())
        return Rules(zones, nav.arc_danger(self.base.weights, zones), mult, (*self.walls, *barriers[:4]))

    def point_mult(self, points: NDArray[np.float64], zones: tuple[DangerZone, ...] = (),
                   base: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """Terrain multiplier at each point (inf in closed terrain and, with danger, in its squares:
        no shortcut may start where the cost is not uniform)."""
        if base is not None:
            mult = base.copy()
        elif self.terrain:
            mult = self.navmap.point_multipliers(points[:, :2], self.profile)
        else:
            mult = np.ones(len(points))
        for z in zones:
            (cx, cy), r = z.centre, z.radius
            inside = (np.abs(points[:, 0] - cx) <= r) & (np.abs(points[:, 1] - cy) <= r)
            mult[inside] = np.inf
        return mult

    def walk_costs(self, a: NDArray[np.float64], b: NDArray[np.float64], mult_a: NDArray[np.float64],
                   zones: tuple[DangerZone, ...]) -> NDArray[np.float64]:
        """Cost of walking straight from ``a[i]`` to ``b[i]`` (a plain arc's terrain rule).

        A segment that touches no terrain boundary lies in one class: its cost is its length
        times the terrain multiplier at ``a`` (``mult_a``, without danger); the others get the
        exact terrain breakdown."""
        length = np.sqrt(((b[:, :2] - a[:, :2]) ** 2).sum(axis=1))
        if not self.terrain:
            cost = length
        else:
            barriers = self.base.los[8:]
            mixed = LK.segments_touch(np.ascontiguousarray(a[:, :2]), np.ascontiguousarray(b[:, :2]), *barriers)
            cost = length * mult_a
            if mixed.any():
                cost[mixed] = self.navmap.straight_costs(a[mixed], b[mixed], self.profile)
        if zones:
            cost = add_danger(cost, a[:, :2], b[:, :2], zones)
        return cost

    def arc_costs(self, weights: NDArray[np.float64], nodes: NDArray[np.int32]) -> NDArray[np.float64]:
        """Cheapest arc weight between consecutive nodes (inf when there is no arc)."""
        g = self.navmap.graph
        out = np.full(max(len(nodes) - 1, 0), np.inf)
        for i in range(len(nodes) - 1):
            lo, hi = g.indptr[nodes[i]], g.indptr[nodes[i] + 1]
            hit = np.flatnonzero(g.indices[lo:hi] == nodes[i + 1])
            if hit.size:
                out[i] = weights[lo + hit].min()
        return out
