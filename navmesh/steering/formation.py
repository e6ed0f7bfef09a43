"""Formation slots: where the units of a group order stand, and which unit takes which slot.

:func:`formation_slots` spreads standing places over the free space around a goal (a hexagonal
lattice, connected to the goal, clear of places other units hold); :func:`fill_order` hands the
slots deepest along the group's arrival direction to the units that arrive first.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from navmesh.errors import NodeNotFoundError
from navmesh.steering.routes import RouteBlock
from navmesh.steering.walls import Walls

__all__ = ["fill_order", "formation_slots"]


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


def fill_order(
    slots: NDArray[np.float64],
    goal: NDArray[np.float64],
    pos: NDArray[np.float64],
    block: RouteBlock,
    first: NDArray[np.int64],
    cost: NDArray[np.float64],
) -> NDArray[np.float64]:
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
