"""The linking stage of a build: which waypoint pairs get automatic links (see the linking rule in
:mod:`navmesh.waypoints.build`), with its tools: KD-tree candidate search and bulk line of sight
(both backends).

One blocked-waypoint policy for every linking: a waypoint outside the walkable area for the agent
radius (``NavMap.blocked_waypoints``) neither links nor is linked to automatically; only manual
and off-mesh links reach it, and positions never join it (:mod:`navmesh.waypoints.joins`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh._kernels import anyangle as AK
from navmesh._kernels import los as LK
from navmesh.geometry import ring_edges
from navmesh import sight
from navmesh.sight import LineOfSight
from navmesh.level import Level
from navmesh.waypoints import incremental
from navmesh.waypoints.incremental import AllPairAnswers, BuildCache, PairAnswers, changed_pairs, pair_keys, unique_keys
from navmesh.waypoints.options import BuildOptions

__all__ = ["CONE_CANDIDATES", "LinkChoice", "PointSet", "link", "pair_blocks", "query_candidates", "visible_pairs", "wall_grid_for"]

CONE_CANDIDATES = 300  # max_candidates default with linking="cones"

def visible_pairs(mode: str, los: LineOfSight, walls: LK.WallGrid | None, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Whether each segment ``a[i] -> b[i]`` between two linkable (walkable) waypoints is visible,
    with the build's backend (``mode``: ``"kernel"`` or ``"shapely"``; see ``visibility`` of
    :func:`~navmesh.waypoints.build.build_waypoint_graph` for which to pick). The shapely
    backend takes the segments in chunks of ``navmesh.sight.MEMORY_BUDGET //
    navmesh.sight.BYTES_PER_SEGMENT``, and :meth:`LineOfSight.blocked` bounds its candidate
    pairs by the same budget."""
    if len(a) == 0:
        return np.zeros(0, dtype=bool)
    if mode == "kernel":
        return LK.segments_free(np.ascontiguousarray(a), np.ascontiguousarray(b), *walls)
    out = np.empty(len(a), dtype=bool)
    chunk = max(sight.MEMORY_BUDGET // sight.BYTES_PER_SEGMENT, 1)
    for s in range(0, len(a), chunk):
        out[s : s + chunk] = ~los.blocked(a[s : s + chunk], b[s : s + chunk], ends_walkable=True)
    return out


def wall_grid_for(los: LineOfSight) -> LK.WallGrid:
    """The line of sight's walls and gap table (pinch points with their free wedges, seams)
    bucketed for the numba kernels, which then answer exactly as ``los.blocked`` does."""
    extent = None
    if los.eroded_bounds is not None and not los.eroded_bounds.is_empty:
        extent = los.eroded_bounds.bounds
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


@dataclass(frozen=True, eq=False)
class PointSet:
    """The build's waypoints: the level's (after the blocked policy), then generated ones."""

    level: Level  # after the blocked policy
    checked: NDArray[np.float64]  # the level's waypoints before the policy, and which were blocked
    checked_blocked: NDArray[np.bool_]
    n_designer: int
    n_generated: int
    points: NDArray[np.float64]
    p2: NDArray[np.float64]
    blocked: NDArray[np.bool_]  # per point: outside W, gets no automatic links
    floors: NDArray[np.int64]
    trees: dict[float, tuple[cKDTree, NDArray[np.int64]]]
    unique: bool
    to_new: NDArray[np.int64] | None  # the cache's point ids in this set (None: no cache)

    @property
    def n(self) -> int:
        return len(self.points)


@dataclass(frozen=True, eq=False)
class LinkChoice:
    """What the linking stage chose: pairs that leave / join the previous graph's ``old_pairs``."""

    candidates: NDArray[np.int64] | None
    chosen: NDArray[np.bool_] | None
    old_pairs: NDArray[np.int64]
    gone: NDArray[np.int64]
    added: NDArray[np.int64]
    corner_edges: tuple[NDArray[np.float64], NDArray[np.bool_]] | None
    reuse: bool


def link(ps: PointSet, answers: PairAnswers | AllPairAnswers, los: LineOfSight, walls: Any, opts: BuildOptions,
          cache: BuildCache | None) -> LinkChoice:
    """The linking rule of the module notes. A blocked waypoint gets no automatic links (it
    neither links nor is linked to), whatever the linking. ``answers`` is an
    :class:`AllPairAnswers` when ``opts.k`` is None, a :class:`PairAnswers` otherwise."""
    if opts.k is None:
        return _link_all(ps, answers, opts)
    if opts.linking == "cones":
        # linked afresh each time: an update equals a rebuild by construction
        corner_edges = _corner_edges(los, ps.p2, ps.n_designer)
        added = _cone_pairs(ps.points, ps.p2, corner_edges, ps.trees, ps.blocked, los, walls, opts)
        return LinkChoice(None, None, np.zeros(0, np.int64), np.zeros(0, np.int64), added, corner_edges, False)
    same_points = cache is not None and cache.candidates is not None and np.array_equal(cache.points, ps.points)
    return _link_nearest(ps, answers, opts, cache, same_points)


def _link_all(ps: PointSet, answers: AllPairAnswers, opts: BuildOptions) -> LinkChoice:
    """Every visible pair of a floor (within max_distance): the visibility graph.

    The pairs are made ``PAIR_BLOCK`` at a time (:func:`pair_blocks`), tested, and only the
    visible ones kept, so the build holds the answer (8 bytes per visible pair) plus temporaries
    bounded by the block size, whatever the number of pairs."""
    parts = [keys[answers(keys)] for keys in pair_blocks(ps, opts)]
    added = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    if len(ps.trees) > 1:
        added.sort()  # the floors' keys interleave
    return LinkChoice(None, None, np.zeros(0, np.int64), np.zeros(0, np.int64), added, None, False)


def pair_blocks(ps: PointSet, opts: BuildOptions) -> Iterator[NDArray[np.int64]]:
    """The keys of every pair of open (not blocked) waypoints on one floor (closer than
    ``max_distance`` if given; the rule of ``cKDTree.query_pairs``), in sorted blocks of at most
    about ``PAIR_BLOCK`` keys, floor by floor, ascending within a floor."""
    n = ps.n
    step = max(int(incremental.PAIR_BLOCK), 1)
    for tree, ids in ps.trees.values():
        if len(ids) < 2:
            continue
        if opts.max_distance is None:
            yield from _all_pairs_of(ids[~ps.blocked[ids]], n, step)
            continue
        pts = tree.data
        # each row's neighbours (itself and both orders included) size the row ranges
        reach = np.cumsum(tree.query_ball_point(pts, opts.max_distance, return_length=True))
        s = 0
        while s < len(ids):
            e = max(int(np.searchsorted(reach, (reach[s - 1] if s else 0) + step, side="right")), s + 1)
            near = cKDTree(pts[s:e]).sparse_distance_matrix(tree, opts.max_distance, output_type="ndarray")
            a, b = near["i"].astype(np.int64) + s, near["j"].astype(np.int64)
            later = b > a
            a, b = ids[a[later]], ids[b[later]]  # ids ascend: the local order is the global one
            open_ = ~(ps.blocked[a] | ps.blocked[b])
            keys = a[open_] * n + b[open_]
            keys.sort()
            yield keys
            s = e


def _all_pairs_of(ids: NDArray[np.int64], n: int, step: int) -> Iterator[NDArray[np.int64]]:
    """Keys of all pairs of the sorted ``ids`` (row by row: ``ids[r]`` with every later id), in
    blocks of whole rows of at most ``step`` keys (or one row)."""
    m = len(ids)
    if m < 2:
        return
    per_row = np.arange(m - 1, 0, -1, dtype=np.int64)  # row r pairs ids[r] with ids[r + 1:]
    ends = np.cumsum(per_row)
    r = 0
    while r < m - 1:
        done = int(ends[r - 1]) if r else 0
        e = max(int(np.searchsorted(ends, done + step, side="right")), r + 1)
        counts = per_row[r:e]
        first = np.repeat(np.arange(r, e, dtype=np.int64), counts)
        # the partner of the j-th key of row q is ids[q + 1 + j]
        start = np.repeat(ends[r:e] - counts - done, counts)
        second = np.arange(len(first), dtype=np.int64) - start + first + 1
        yield ids[first] * n + ids[second]
        r = e


def _link_nearest(ps: PointSet, answers: PairAnswers, opts: BuildOptions, cache: BuildCache | None,
                  same_points: bool) -> LinkChoice:
    """The k nearest visible waypoints among the max_candidates nearest, tested in stages."""
    n, p2 = ps.n, ps.p2
    cand = None
    if same_points:
        cand = cache.candidates
    elif cache is not None and cache.candidates is not None and cache.candidates.ndim == 2 and len(ps.trees) == 1:
        cand = updated_table(cache, ps.to_new, ps.points, p2, ps.trees, opts)
    if cand is None:
        cand = np.full((n, opts.candidate_width(n)), -1, dtype=np.int64)
        for tree, ids in ps.trees.values():
            if len(ids) < 2:
                continue
            local = query_candidates(tree, p2[ids], opts.widened_k, opts.max_distance, self_ids=np.arange(len(ids)))
            cand[ids, : local.shape[1]] = np.where(local >= 0, ids[np.maximum(local, 0)], -1)
    # a cache of the same waypoints and links lets the linking and the arcs change row by row
    reuse = same_points and cache.chosen is not None and cache.links == (ps.level.links, ps.level.offmesh_links)
    old_pairs = cache.pairs if reuse else np.zeros(0, np.int64)
    rows, before = np.arange(n), np.zeros(cand.shape, dtype=bool)
    if reuse:
        # only waypoints that tested a pair whose answer was dropped, or whose own or a
        # candidate's blocked flag changed, can link differently
        stale = cache.stale
        changed = np.flatnonzero(ps.blocked != cache.row_blocked)
        near_changed = np.flatnonzero(np.isin(cand, changed).any(axis=1)) if len(changed) else changed
        rows = unique_keys(np.concatenate([stale // n, stale % n, changed, near_changed]))
        before = cache.chosen
    chosen = before.copy()
    chosen[rows] = _nearest_visible(cand, opts.k, ps.blocked, answers, n, rows)
    gone, added = changed_pairs(cand, before, chosen, rows, old_pairs, n)
    return LinkChoice(cand, chosen, old_pairs, gone, added, None, reuse)


def _nearest_visible(cand: NDArray[np.int64], k: int, blocked: NDArray[np.bool_], los_for: Any, n: int,
                     rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which candidates waypoints ``rows`` link to: their ``k`` nearest visible ones.

    ``cand`` holds each waypoint's candidates nearest first (-1 padded); the answer has the
    shape of ``cand[rows]``. Columns are tested in stages (k, 2k, 4k, ... up to the table
    width) and only for waypoints that still have fewer than ``k`` visible candidates, so the
    answer is the same as testing the whole table. A blocked waypoint neither chooses nor is
    chosen (blocked candidates are skipped like invisible ones). A row's answer depends only on
    the line of sight of the pairs it tested and on the blocked flags of it and its candidates.
    """
    table = cand[rows]
    blk = blocked[rows]
    rows_n, width = table.shape
    visible = np.zeros(table.shape, dtype=bool)
    active = np.flatnonzero(~blk)
    lo, hi = 0, min(k, width)
    while hi > lo and len(active):
        block = table[active, lo:hi]
        r_idx, c_idx = np.nonzero((block >= 0) & ~blocked[np.maximum(block, 0)])
        keys = pair_keys(rows[active[r_idx]], block[r_idx, c_idx], n)
        uniq, inv = np.unique(keys, return_inverse=True)
        visible[active[r_idx], lo + c_idx] = los_for(uniq)[inv.reshape(-1)]
        count = visible[:, :hi].sum(axis=1)
        active = np.flatnonzero((count < k) & ~blk & (table[:, hi - 1] >= 0))
        lo, hi = hi, min(2 * hi, width)
    return visible & (np.cumsum(visible, axis=1) <= k)


def _corner_edges(los: LineOfSight, p2: NDArray[np.float64], first: int) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """For points ``p2[first:]`` that are a vertex of exactly one ring of the walkable region's
    boundary (inflated obstacles, eroded bounds): the directions of its two edges, (n, 4), and
    a flag (pinch vertices shared by rings, and every other point, get no directions)."""
    n = len(p2)
    dirs = np.zeros((n, 4))
    has = np.zeros(n, dtype=bool)
    # every ring with its polygon on the left, as the cone search expects
    parts = [ring_edges(los.inflated, free_inside=True)[0]]
    if los.eroded_bounds is not None and not los.eroded_bounds.is_empty:
        parts.append(ring_edges([los.eroded_bounds], free_inside=True)[0])
    rows = np.concatenate(parts)
    if len(rows) == 0 or first >= n:
        return dirs, has
    key = rows[:, 0] + 1j * rows[:, 1]
    order = np.argsort(key, kind="stable")
    key, rows = key[order], rows[order]
    ask = p2[first:, 0] + 1j * p2[first:, 1]
    lo = np.searchsorted(key, ask, side="left")
    hi = np.searchsorted(key, ask, side="right")
    one = np.flatnonzero(hi - lo == 1)
    r = rows[lo[one]]
    dirs[first + one] = np.column_stack([r[:, 2] - r[:, 0], r[:, 3] - r[:, 1], r[:, 4] - r[:, 0], r[:, 5] - r[:, 1]])
    has[first + one] = True
    return dirs, has


def cone_candidates(opts: BuildOptions) -> int:
    """How many candidates a cone search visits at most (``max_candidates``, default 300)."""
    return opts.max_candidates if opts.max_candidates is not None else CONE_CANDIDATES


def _cone_pairs(points: NDArray[np.float64], p2: NDArray[np.float64],
                corner_edges: tuple[NDArray[np.float64], NDArray[np.bool_]],
                trees: dict[float, tuple[cKDTree, NDArray[np.int64]]], blocked: NDArray[np.bool_],
                los: LineOfSight, walls: Any, opts: BuildOptions) -> NDArray[np.int64]:
    """Sorted unique pair keys of the cone linking (see the module notes), floor by floor."""
    n = len(points)
    dirs, has = corner_edges
    width = cone_candidates(opts)
    reach = np.inf if opts.max_distance is None else opts.max_distance
    keys = []
    for tree, ids in trees.values():
        if len(ids) < 2:
            continue
        pts = np.ascontiguousarray(p2[ids])
        m = len(ids)
        own = np.arange(m, dtype=np.int64)
        scratch = (np.zeros(max(opts.k, 1), bool), np.empty(m), np.empty(m, np.int64), np.empty(m), np.empty(m, np.int64))
        counts, v, _ = AK.join_positions(pts.reshape(-1), own, pts, blocked[ids], np.ascontiguousarray(dirs[ids]), has[ids], opts.k,
                                         0, width, reach, *AK.bucket_grid(pts)[:3], *scratch, *walls)
        keys.append(pair_keys(ids[np.repeat(own, counts)], ids[v], n))
    return unique_keys(np.concatenate(keys)) if keys else np.zeros(0, np.int64)


def updated_table(cache: BuildCache, to_new: NDArray[np.int64], points: NDArray[np.float64], p2: NDArray[np.float64],
                   trees: dict[float, tuple[cKDTree, NDArray[np.int64]]], opts: BuildOptions) -> NDArray[np.int64] | None:
    """The nearest-candidate table of ``points``, re-querying only waypoints whose candidates a
    change of the point set can affect: new waypoints, waypoints that lost a candidate, and
    waypoints with a new waypoint no farther than their farthest candidate. The rest keep their
    rows (renumbered): with the canonical (distance, id) order those rows are what a query gives."""
    n = len(points)
    old = cache.candidates
    width = old.shape[1]
    if width != opts.candidate_width(n):
        return None  # the table's width follows the number of waypoints: query all rows again
    from_old = np.full(n, -1, dtype=np.int64)
    from_old[to_new[to_new >= 0]] = np.flatnonzero(to_new >= 0)
    common = np.flatnonzero(from_old >= 0)
    added = np.flatnonzero(from_old < 0)
    rows = old[from_old[common]]
    valid = rows >= 0
    mapped = np.where(valid, to_new[np.where(valid, rows, 0)], -1)
    redo = (valid & (mapped < 0)).any(axis=1)
    if len(added):
        full_row = mapped[:, -1] >= 0
        reach = np.full(len(common), np.inf if opts.max_distance is None else opts.max_distance)
        far = p2[np.where(full_row, mapped[:, -1], 0)]
        reach[full_row] = np.hypot(*(far[full_row] - p2[common[full_row]]).T)
        nearest_new = cKDTree(p2[added]).query(p2[common])[0]
        redo |= nearest_new <= reach * (1 + 1e-9) + 1e-12
    table = np.full((n, width), -1, dtype=np.int64)
    table[common[~redo]] = mapped[~redo]
    again = np.concatenate([common[redo], added])
    (tree, ids), = trees.values()
    if len(again) and len(ids) >= 2:
        local = query_candidates(tree, p2[again], width, opts.max_distance, self_ids=again)
        table[again, : local.shape[1]] = local
    return table
