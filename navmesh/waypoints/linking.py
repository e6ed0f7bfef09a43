"""The linking rule's two tools: KD-tree candidate search and bulk line of sight (both backends)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh._kernels import los as LK
from navmesh.sight import LineOfSight

__all__ = ["query_candidates", "visible_pairs", "wall_grid_for"]

# Segments per bulk shapely call: bounds the per-segment arrays (~100 MB); LineOfSight.blocked
# bounds the candidate pairs it judges itself.
_LOS_CHUNK = 200_000


def visible_pairs(mode: str, los: LineOfSight, walls: LK.WallGrid | None, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    if len(a) == 0:
        return np.zeros(0, dtype=bool)
    if mode == "kernel":
        return LK.segments_free(np.ascontiguousarray(a), np.ascontiguousarray(b), *walls)
    out = np.empty(len(a), dtype=bool)
    for s in range(0, len(a), _LOS_CHUNK):
        out[s : s + _LOS_CHUNK] = ~los.blocked(a[s : s + _LOS_CHUNK], b[s : s + _LOS_CHUNK])
    return out


def wall_grid_for(los: LineOfSight) -> LK.WallGrid:
    """The line of sight's walls and gap table (pinch points with their free wedges, seams)
    bucketed for the numba kernels, which then answer exactly as ``los.blocked`` does."""
    extent = None
    if los.walkable_area is not None and not los.walkable_area.is_empty:
        extent = los.walkable_area.bounds
    return LK.wall_grid(los.edges, los.gaps, extent=extent)


def query_candidates(tree: cKDTree, pts: NDArray[np.float64], k: int | None, max_distance: float | None,
                      self_ids: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
    """Local (tree) ids of the candidates of each point, -1 padded; ``self_ids`` are excluded.

    With ``k`` the rows hold the ``k`` nearest in the canonical order (distance, then id), so
    ties are broken the same way whatever the tree's layout (a rebuild and an update agree).
    """
    n = tree.n
    if n == 0 or len(pts) == 0:
        return np.full((len(pts), 0), -1, dtype=np.int64)
    if k is None:
        if max_distance is None:
            rows = [np.arange(n)] * len(pts)
        else:
            rows = tree.query_ball_point(pts, max_distance, return_sorted=True)
        width = max((len(r) for r in rows), default=0)
        out = np.full((len(pts), width), -1, dtype=np.int64)
        for i, r in enumerate(rows):
            out[i, : len(r)] = r
        if self_ids is not None:
            out[out == self_ids[:, None]] = -1
        return out
    extra = 0 if self_ids is None else 1
    kk = min(k + extra + 1, n)  # one more than needed, to see a tie at the cut
    # cKDTree's bound is strict; nudge it so "within max_distance" includes the distance itself
    bound = np.inf if max_distance is None else np.nextafter(max_distance, np.inf)
    d, idx = tree.query(pts, k=kk, distance_upper_bound=bound)
    d = np.asarray(d, dtype=np.float64).reshape(len(pts), -1)
    idx = np.asarray(idx, dtype=np.int64).reshape(len(pts), -1)
    gone = idx >= n
    if self_ids is not None:
        gone |= idx == self_ids[:, None]
    idx[gone] = n
    d[gone] = np.inf
    order = np.lexsort((idx, d), axis=-1)
    idx = np.take_along_axis(idx, order, axis=1)
    d = np.take_along_axis(d, order, axis=1)
    if idx.shape[1] > k:
        tie = np.flatnonzero(np.isfinite(d[:, k]) & (d[:, k] == d[:, k - 1]))
        for i in tie:  # rare: the cut falls inside a group of equally distant candidates
            reach = d[i, k - 1] * (1 + 1e-9) + 1e-12  # the ball query rounds on its own
            near = np.asarray(tree.query_ball_point(pts[i], reach), dtype=np.int64)
            if self_ids is not None:
                near = near[near != self_ids[i]]
            dist = np.hypot(*(tree.data[near] - pts[i]).T)
            near = near[np.lexsort((near, dist))][:k]
            idx[i, : len(near)] = near
    out = idx[:, :k]
    out[out >= n] = -1
    return out
