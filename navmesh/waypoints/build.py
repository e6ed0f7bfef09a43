"""Waypoint graphs from level geometry: generated waypoints, visibility linking, terrain breakdown.

``build_waypoint_graph(level)`` turns a :class:`~navmesh.level.Level` into a
:class:`NavMap`: the :class:`~navmesh.graph.NavGraph` plus everything point queries need
(line of sight, KD-trees, per-arc terrain lengths); per-unit-type costs live in
:class:`~navmesh.waypoints.query.NavQuery`.

Linking rule
------------
1. Candidates. Each waypoint's candidates are the waypoints on the same floor (same z) in order
   of distance (ties by node id), from a scipy ``cKDTree``, within ``max_distance`` if given.
2. Visibility. A candidate pair counts when the segment between them is not blocked by the
   obstacles inflated by ``agent_radius`` and stays inside the eroded bounds
   (:class:`~navmesh.sight.LineOfSight`); each stage tests all its pairs in one bulk call,
   never in a Python loop per segment.
3. Each waypoint links to its ``k`` nearest *visible* candidates. It tests its ``k`` nearest
   first and widens the search (to 2k, 4k, ... nearest) only while it has fewer than ``k``
   visible ones, up to the cap ``max_candidates`` (default ``4 * k``): a waypoint in a small
   pocket never makes the build scan the whole map, and ``max_candidates=k`` means "the visible
   ones among the k nearest". ``k=None`` links every visible pair on a floor (within
   ``max_distance``): with corner waypoints this is the visibility graph, whose shortest paths
   are the true shortest paths.
   With ``linking="cones"`` (for generated corner graphs) a waypoint links instead to the
   nearest visible waypoint in each of ``k`` equal angular cones around it (a Yao graph, a
   spanner of the visibility graph), visiting up to ``max_candidates`` (default 300) candidates
   in order of distance and testing a candidate only while its cone is empty; a link between
   two generated corner waypoints is kept only when it is *taut*: at each end both obstacle
   edges of the corner lie on one side of the line, the only way a shortest path can bend
   there. Long straight runs then get long links instead of zigzags through local corners.
   Cones always test line of sight with the numba kernel (the same rule as shapely).
4. Links are symmetric: a visible pair gives the arcs a->b and b->a, whoever found it.
5. Manual links override: ``forbidden`` removes both arcs, ``forced`` adds both arcs (even without
   line of sight), ``one_way`` a->b adds a->b and removes b->a. Off-mesh links add their own arcs
   (cost = the link's cost) next to any walking arc.

Arc tags: tag 0 (``""``) is a plain walking arc, whose cost depends on the terrain under it; a
link with a tag or a capability requirement gets the tag name
``navmesh.tags.encode_arc_tag(tag, requires)``, which :meth:`CostProfile.arc_weights` reads.

Local updates
-------------
:meth:`NavMap.update` (and ``with_obstacle`` / ``without_obstacle`` / ``with_terrain``)
re-runs the same pipeline on the changed level but reuses every line-of-sight answer and terrain
breakdown whose segment does not meet the changed obstacles (inflated) or terrain regions. When
the waypoints and manual links are unchanged it also works row by row: only waypoints that tested
a dropped pair (or whose blocked flag changed) choose their neighbours again, and the pairs that
leave or join are spliced into the previous graph's sorted arc arrays. A build is the same splice
into an empty graph, so the result is the graph a rebuild gives.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse
import shapely
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh._kernels import anyangle as AK
from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshWarning,
    describe,
)
from navmesh.geometry import Join, ring_edges
from navmesh.sight import LineOfSight
from navmesh.graph import NavGraph
from navmesh.level import Level
from navmesh.tags import encode_arc_tag
from navmesh.terrain import TerrainLengths
from navmesh.waypoints.linking import query_candidates, visible_pairs, wall_grid_for
from navmesh.waypoints.navmap import NavMap
from navmesh.waypoints.options import (
    ARC_LINK,
    ARC_OFFMESH,
    ARC_WALK,
    BlockedPolicy,
    BuildOptions,
    Linking,
    Visibility,
)
from navmesh.waypoints.placement import (
    corner_points,
    fill_waypoints,
    free_space,
)

__all__ = ["build_waypoint_graph"]

CONE_CANDIDATES = 300  # max_candidates default with linking="cones"
MAX_CHANGED_RUN = 64  # rows an update compares directly before matching every point instead


@dataclass(frozen=True, eq=False)
class Arcs:
    """A graph's arcs in CSR order: by source, target, kind, tag."""

    src: NDArray[np.int64]
    dst: NDArray[np.int64]
    kind: NDArray[np.int8]
    tag: NDArray[np.int32]
    length: NDArray[np.float64]


class BuildCache:
    """Answers that a local update may reuse: keyed by unordered waypoint pairs of a point set.

    A build fills every field. :meth:`NavMap.update` passes a copy with the answers the
    change may affect left out: ``stale`` lists the dropped line-of-sight keys and ``zone`` the
    area where walkability may have changed, so only the waypoints they touch are looked at again.
    """

    def __init__(self, points: NDArray[np.float64], los_keys: NDArray[np.int64], los_free: NDArray[np.bool_],
                 ter_keys: NDArray[np.int64], ter_rows: scipy.sparse.csr_array, ter_names: tuple[str, ...],
                 candidates: NDArray[np.int64] | None = None, *, designer: NDArray[np.float64] | None = None,
                 blocked: NDArray[np.bool_] | None = None, chosen: NDArray[np.bool_] | None = None,
                 row_blocked: NDArray[np.bool_] | None = None, pairs: NDArray[np.int64] | None = None,
                 arcs: Arcs | None = None, links: tuple[Any, Any] | None = None,
                 trees: dict[float, tuple[cKDTree, NDArray[np.int64]]] | None = None,
                 stale: NDArray[np.int64] | None = None, zone: shapely.Geometry | None = None,
                 unique: bool = False) -> None:
        self.points = points
        self.unique = unique  # no two rows of ``points`` are equal
        # candidates of ``points``: an (n, max_candidates) nearest-first table, or pair keys (k=None)
        self.candidates = candidates
        self.los_keys = los_keys  # sorted
        self.los_free = los_free
        self.ter_keys = ter_keys  # sorted
        self.ter_rows = ter_rows
        self.ter_names = ter_names
        self.designer = designer  # the level's waypoints, and which of them are blocked
        self.blocked = blocked
        self.chosen = chosen  # which candidates each waypoint links to (k given), like ``candidates``
        self.row_blocked = row_blocked  # blocked flag per point, as the linking stage saw it
        self.pairs = pairs  # sorted keys of the linked pairs
        self.arcs = arcs  # the graph's arcs, and the manual and off-mesh links they were made with
        self.links = links
        self.trees = trees  # KD-trees per floor of ``points``
        self.stale = np.zeros(0, np.int64) if stale is None else stale
        self.zone = shapely.Polygon() if zone is None else zone



# -- building ----------------------------------------------------------------------------------
def build_waypoint_graph(
    level: Level,
    *,
    k: int | None = 8,
    max_distance: float | None = None,
    max_candidates: int | None = None,
    agent_radius: float = 0.0,
    join: Join = "mitre",
    corners: bool = False,
    fill_spacing: float | None = None,
    visibility: Visibility = "shapely",
    on_blocked_waypoint: BlockedPolicy = "warn",
    linking: Linking = "nearest",
) -> NavMap:
    """Link a level's waypoints by line of sight into a navigation graph.

    See the module notes for the linking rule, manual links and tags.

    Parameters
    ----------
    level : Level
        Bounds, obstacles, waypoints, terrain and links.
    k : int or None
        Visible neighbours each waypoint links to (nearest first), >= 1. ``None``: every visible
        waypoint on the floor within ``max_distance`` (the full visibility graph; O(n^2) pairs
        without a distance).
    max_distance : float, optional
        Only waypoints closer than this (world units, > 0) are candidates.
    max_candidates : int, optional
        The search cap: a waypoint looks for its ``k`` nearest visible waypoints among at most
        this many nearest ones (>= k; default ``4 * k``; ``k`` turns widening off). With
        ``linking="cones"``: how many nearest candidates the cone search visits (default 300).
    agent_radius : float
        Agent radius in world units, >= 0: obstacles are inflated and the bounds eroded by it, so
        a corridor exactly ``2 * agent_radius`` wide stays open.
    join : {"mitre", "round"}
        Corner shape of the inflation (see :func:`navmesh.geometry.inflate`).
    corners : bool
        Add :func:`corner_waypoints` (after the level's own waypoints; on every floor of a 3-D level).
    fill_spacing : float, optional
        Add :func:`fill_waypoints` at this spacing (world units, > 0).
    visibility : {"shapely", "kernel"}
        Line-of-sight backend: the level's bulk shapely :class:`~navmesh.sight.LineOfSight`,
        or the numba edge-grid kernel of :mod:`navmesh._kernels.los`. Same answers. The kernel
        is 5 to 10 times faster once compiled: pick it for large ``k=None`` builds (millions of
        pairs; on a 1,900-corner level about 7 s against 60 s) and frequent rebuilds; shapely
        needs no compiled code and keeps its memory within a few hundred MB on any level.
    on_blocked_waypoint : {"error", "warn", "drop"}
        Waypoints outside the walkable region for this radius (too close to an obstacle or the
        bounds): raise ``InvalidGeometryError``; keep them as nodes without automatic links and
        warn (``NavmeshWarning``); or remove them (with their links; later ids shift) and warn.
    linking : {"nearest", "cones"}
        ``"nearest"``: each waypoint's ``k`` nearest visible waypoints (the rule designers
        expect). ``"cones"``: the nearest visible waypoint in each of ``k`` angular cones, taut
        links only between generated corners (see the module notes): near-shortest paths from
        sparse corner graphs. Ignored when ``k`` is None.

    Returns
    -------
    NavMap

    Raises
    ------
    InvalidOptionError
        An option out of range.
    InvalidGeometryError
        A blocked waypoint with ``on_blocked_waypoint="error"``.

    Examples
    --------
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 2), (6, 2), (6, 10), (4, 10)]],
    ...                         waypoints=[[2, 8], [8, 8]])
    >>> nav = build_waypoint_graph(level, corners=True)
    >>> nav.n_nodes, nav.n_generated, nav.graph.neighbors(0).tolist()
    (4, 2, [2])
    """
    options = BuildOptions(
        k=k, max_distance=max_distance, max_candidates=max_candidates, agent_radius=agent_radius, join=join,
        corners=corners, fill_spacing=fill_spacing, visibility=visibility, on_blocked_waypoint=on_blocked_waypoint,
        linking=linking,
    )
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
    return assemble(level, options, None)


def _nearest_visible(cand: NDArray[np.int64], k: int, blocked: NDArray[np.bool_], los_for: Any, n: int,
                     rows: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which candidates waypoints ``rows`` link to: their ``k`` nearest visible ones.

    ``cand`` holds each waypoint's candidates nearest first (-1 padded); the answer has the
    shape of ``cand[rows]``. Columns are tested in stages (k, 2k, 4k, ... up to the table
    width) and only for waypoints that still have fewer than ``k`` visible candidates, so the
    answer is the same as testing the whole table. A row's answer depends only on the line of
    sight of the pairs it tested and on whether it is blocked.
    """
    table = cand[rows]
    blk = blocked[rows]
    rows_n, width = table.shape
    visible = np.zeros(table.shape, dtype=bool)
    active = np.arange(rows_n)
    lo, hi = 0, min(k, width)
    while hi > lo and len(active):
        block = table[active, lo:hi]
        r_idx, c_idx = np.nonzero(block >= 0)
        keys = _pair_keys(rows[active[r_idx]], block[r_idx, c_idx], n)
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
    if los.walkable_area is not None and not los.walkable_area.is_empty:
        parts.append(ring_edges([los.walkable_area], free_inside=True)[0])
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
        u, v = AK.cone_links(np.ascontiguousarray(p2[ids]), blocked[ids], np.ascontiguousarray(dirs[ids]), has[ids],
                             opts.k, width, reach, *walls)
        keys.append(_pair_keys(ids[u], ids[v], n))
    return _unique_keys(np.concatenate(keys)) if keys else np.zeros(0, np.int64)


def _unique_keys(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted unique keys (numpy 2's hash-based ``np.unique`` is ~50x slower on 10^5 int64 keys)."""
    s = np.sort(keys)
    return s[np.concatenate([[True], s[1:] != s[:-1]])] if len(s) else s


def _pair_keys(u: NDArray[np.int64], v: NDArray[np.int64], n: int) -> NDArray[np.int64]:
    a = np.minimum(u, v).astype(np.int64)
    b = np.maximum(u, v).astype(np.int64)
    return a * n + b


def _old_to_new(old_points: NDArray[np.float64], new_points: NDArray[np.float64],
                old_unique: bool = False) -> NDArray[np.int64]:
    """For each old point, the id of the first new point with the same coordinates (-1: gone).

    When the old points are duplicate-free (``old_unique``) and the two sets differ in one run
    of rows (a waypoint moved, added or removed; the points after it shifted), only that run is
    compared; otherwise every point is.
    """
    if len(old_points) == len(new_points) and np.array_equal(old_points, new_points):
        return np.arange(len(old_points), dtype=np.int64)
    if len(old_points) == 0 or len(new_points) == 0 or old_points.shape[1] != new_points.shape[1]:
        return np.full(len(old_points), -1, dtype=np.int64)
    if old_unique:
        fast = _changed_run_map(old_points, new_points)
        if fast is not None:
            return fast
    both = np.concatenate([new_points, old_points])
    _, first, inverse = np.unique(both, axis=0, return_index=True, return_inverse=True)
    owner = first[inverse.reshape(-1)][len(new_points):]  # the first row with these coordinates
    return np.where(owner < len(new_points), owner, -1).astype(np.int64)


def _changed_run_map(old: NDArray[np.float64], new: NDArray[np.float64]) -> NDArray[np.int64] | None:
    """``_old_to_new`` for duplicate-free ``old`` when the rows differ in at most
    ``MAX_CHANGED_RUN`` rows between an equal head and an equal tail; None otherwise (or when
    ``new`` has duplicates, where "first row" needs the full comparison)."""
    n_old, n_new = len(old), len(new)
    m = min(n_old, n_new)
    diff = (old[:m] != new[:m]).any(axis=1)
    head = int(np.argmax(diff)) if diff.any() else m
    rest = m - head
    back = (old[n_old - rest:] != new[n_new - rest:]).any(axis=1) if rest else np.zeros(0, bool)
    tail = rest - 1 - int(np.flatnonzero(back)[-1]) if back.any() else rest
    mid_old, mid_new = old[head:n_old - tail], new[head:n_new - tail]
    if len(mid_old) + len(mid_new) > MAX_CHANGED_RUN:
        return None
    # head and tail rows are old rows, so unique; a changed new row must match no other new row
    if len(mid_new) and ((new[None, :, :] == mid_new[:, None, :]).all(axis=2).sum(axis=1) > 1).any():
        return None
    to_new = np.empty(n_old, dtype=np.int64)
    to_new[:head] = np.arange(head)
    to_new[n_old - tail:] = np.arange(n_new - tail, n_new)
    # an old changed row can only reappear among the new changed rows (old rows are unique)
    match = (mid_old[:, None, :] == mid_new[None, :, :]).all(axis=2)
    found = match.any(axis=1)
    to_new[head:n_old - tail] = np.where(found, head + (np.argmax(match, axis=1) if len(mid_new) else 0), -1)
    return to_new


def _all_unique(points: NDArray[np.float64]) -> bool:
    """Whether no two rows of ``points`` are equal."""
    if len(points) < 2:
        return True
    s = points[np.lexsort(points.T[::-1])]
    return not (s[1:] == s[:-1]).all(axis=1).any()


def _updated_table(cache: BuildCache, to_new: NDArray[np.int64], points: NDArray[np.float64], p2: NDArray[np.float64],
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


def _remap_keys(keys: NDArray[np.int64], to_new: NDArray[np.int64],
                n_new: int) -> tuple[NDArray[np.int64], NDArray[np.bool_], bool]:
    """Re-express sorted pair keys of the old points in ids of the new points (``to_new`` from
    :func:`_old_to_new`): (keys of the pairs whose ends both survive, which survived, whether
    the new keys are still sorted: they are when ``to_new`` keeps the order of the survivors)."""
    n_old = len(to_new)
    if n_old == n_new and np.array_equal(to_new, np.arange(n_old)):
        return keys, np.ones(len(keys), dtype=bool), True
    alive = to_new[to_new >= 0]
    in_order = bool((alive[1:] > alive[:-1]).all())
    if len(keys) == 0:
        return keys, np.ones(0, dtype=bool), True
    a = to_new[keys // n_old]
    b = to_new[keys % n_old]
    ok = (a >= 0) & (b >= 0)
    return _pair_keys(a[ok], b[ok], n_new), ok, in_order


def _changed_pairs(cand: NDArray[np.int64], before: NDArray[np.bool_], after: NDArray[np.bool_], rows: NDArray[np.int64],
                   pairs: NDArray[np.int64], n: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Pairs leaving and joining the sorted ``pairs`` when the choices of waypoints ``rows`` go from
    ``before`` to ``after`` (tables like ``cand``): a pair is linked while either end chooses it."""

    def keys(table: NDArray[np.bool_]) -> NDArray[np.int64]:
        r, c = np.nonzero(table[rows])
        return _unique_keys(_pair_keys(rows[r], cand[rows[r], c], n))

    was, now = keys(before), keys(after)
    lost = was[_lookup(was, now) < 0]
    a, b = lost // n, lost % n
    still = ((cand[a] == b[:, None]) & after[a]).any(axis=1) | ((cand[b] == a[:, None]) & after[b]).any(axis=1)
    won = now[_lookup(now, was) < 0]
    return lost[~still], won[_lookup(won, pairs) < 0]


def _merge_keys(keys: NDArray[np.int64], gone: NDArray[np.int64], added: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted ``keys`` without ``gone`` (all present) and with ``added`` (sorted, all absent)."""
    kept = np.delete(keys, np.searchsorted(keys, gone))
    return np.insert(kept, np.searchsorted(kept, added), added)


def _splice_arcs(base: Arcs, gone: NDArray[np.int64], added: NDArray[np.int64], overridden: NDArray[np.int64],
                 points: NDArray[np.float64], n: int) -> Arcs:
    """``base`` without the walking arcs of the pairs ``gone`` and with those of the pairs ``added``
    (both ways, except arcs whose key a manual link overrides, sorted ``overridden``), in CSR order.

    A walking arc (kind 0) sorts first among the arcs with its ends, so it is found and inserted
    at the left end of its key's run; arrays are deleted from and inserted into, never re-sorted.
    """

    def both_ways(pairs: NDArray[np.int64]) -> NDArray[np.int64]:
        a, b = pairs // n, pairs % n
        return np.concatenate([a * n + b, b * n + a])

    key = base.src * n + base.dst
    out = both_ways(gone)
    at = np.minimum(np.searchsorted(key, out), max(len(key) - 1, 0))
    at = at[(key[at] == out) & (base.kind[at] == ARC_WALK)] if len(key) else at[:0]
    key = np.delete(key, at)
    new = np.sort(both_ways(added))
    new = new[_lookup(new, overridden) < 0]
    where = np.searchsorted(key, new)
    src, dst = new // n, new % n

    def splice(old: NDArray[Any], values: Any) -> NDArray[Any]:
        return np.insert(np.delete(old, at), where, values)

    return Arcs(
        splice(base.src, src), splice(base.dst, dst), splice(base.kind, ARC_WALK), splice(base.tag, 0),
        splice(base.length, _distances(points, src, dst)),
    )


def _distances(points: NDArray[np.float64], a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.float64]:
    """Euclidean length of each segment ``points[a[i]] -> points[b[i]]`` (the same either way round)."""
    return np.sqrt(((points[b] - points[a]) ** 2).sum(axis=1)) if len(a) else np.zeros(0)


def _lookup(keys: NDArray[np.int64], table: NDArray[np.int64]) -> NDArray[np.int64]:
    """Index of each key in the sorted ``table``, -1 when absent."""
    if len(table) == 0:
        return np.full(len(keys), -1, dtype=np.int64)
    pos = np.searchsorted(table, keys)
    pos_c = np.minimum(pos, len(table) - 1)
    return np.where(table[pos_c] == keys, pos_c, -1)


def _blocked_waypoints(los: LineOfSight, designer: NDArray[np.float64], cache: BuildCache | None) -> NDArray[np.bool_]:
    """Which of the level's waypoints lie outside W. A cache answers for waypoints it saw at the
    same coordinates outside its changed ``zone``."""
    if len(designer) == 0:
        return np.zeros(0, dtype=bool)
    if cache is None or cache.blocked is None:
        return ~los.walkable(designer[:, :2])
    if np.array_equal(cache.designer, designer):
        flags, todo = cache.blocked.copy(), np.zeros(0, np.int64)
    else:
        seen = len(cache.designer)
        if seen > len(cache.points) or not np.array_equal(cache.points[:seen], cache.designer):
            return ~los.walkable(designer[:, :2])  # the cache's waypoints were dropped by the blocked policy
        where = _old_to_new(cache.designer, designer, cache.unique)  # a prefix of unique points is unique
        known = (where >= 0) & (where < len(designer))
        flags = np.zeros(len(designer), dtype=bool)
        have = np.zeros(len(designer), dtype=bool)
        flags[where[known]] = cache.blocked[known]
        have[where[known]] = True
        todo = np.flatnonzero(~have)
    if not cache.zone.is_empty:
        near = np.flatnonzero(shapely.intersects_xy(cache.zone, designer[:, 0], designer[:, 1]))
        todo = np.union1d(todo, near)
    if len(todo):
        flags[todo] = ~los.walkable(designer[todo, :2])
    return flags


def assemble(level: Level, opts: BuildOptions, cache: BuildCache | None) -> NavMap:
    """The whole build; ``cache`` holds reusable answers (None for a fresh build)."""
    los = level.line_of_sight(agent_radius=opts.agent_radius, join=opts.join)
    free = free_space(los) if opts.fill_spacing is not None else None
    cones = opts.k is not None and opts.linking == "cones"
    corner_edges = None
    walls = wall_grid_for(los) if opts.visibility == "kernel" or cones else None

    # Waypoints: the level's, then generated ones not already present.
    designer = level.waypoints
    dim = designer.shape[1] if len(designer) else 2
    extra = np.zeros((0, 2))
    if opts.corners:
        extra = corner_points(los)
    if opts.fill_spacing is not None:
        fill = fill_waypoints(level, opts.fill_spacing, agent_radius=opts.agent_radius, join=opts.join)
        extra = np.concatenate([extra, fill])
    if dim == 3 and len(extra):
        floors_z = np.unique(designer[:, 2])
        extra = np.concatenate([np.column_stack([extra, np.full(len(extra), z)]) for z in floors_z])
    if len(extra):
        have = {tuple(r) for r in designer.tolist()}
        fresh = np.array([tuple(r) not in have for r in extra.tolist()], dtype=bool)
        _, first = np.unique(extra, axis=0, return_index=True)
        once = np.zeros(len(extra), dtype=bool)
        once[first] = True
        extra = extra[fresh & once]

    # Blocked designer waypoints (outside W for this radius).
    designer_checked = designer  # before the blocked policy may drop some
    designer_blocked = _blocked_waypoints(los, designer, cache)
    blocked_designer = np.flatnonzero(designer_blocked)
    if blocked_designer.size and opts.on_blocked_waypoint != "warn":
        level = _apply_blocked_policy(level, blocked_designer, opts)
        designer = level.waypoints
        blocked_designer = np.zeros(0, np.int64)
    elif blocked_designer.size:
        shown = ", ".join(f"waypoints[{i}]={designer[i].tolist()}" for i in blocked_designer[:5])
        warnings.warn(
            f"{blocked_designer.size} waypoints lie outside the walkable area for agent_radius={opts.agent_radius} "
            f"and get no automatic links: {shown}" + (" ..." if blocked_designer.size > 5 else ""),
            NavmeshWarning,
            stacklevel=3,
        )
    points = np.concatenate([designer, extra]) if len(extra) else np.array(designer, dtype=np.float64)
    if points.ndim != 2 or len(points) == 0:
        points = points.reshape(-1, dim)
    n = len(points)
    p2 = np.ascontiguousarray(points[:, :2])
    unique = _all_unique(points)
    to_new = None if cache is None else _old_to_new(cache.points, points, cache.unique)

    # Floors and KD-trees.
    if dim == 3 and n:
        zs, floors = np.unique(points[:, 2], return_inverse=True)
        floors = floors.reshape(-1).astype(np.int64)
    else:
        zs, floors = np.array([0.0]), np.zeros(n, dtype=np.int64)
    trees: dict[float, tuple[cKDTree, NDArray[np.int64]]] = {}
    if cache is not None and cache.trees is not None and np.array_equal(cache.points, points):
        trees = cache.trees  # the same waypoints: the same trees
    else:
        for f, z in enumerate(zs.tolist()):
            ids = np.flatnonzero(floors == f).astype(np.int64)
            trees[float(z)] = (cKDTree(p2[ids]) if len(ids) else cKDTree(np.zeros((0, 2))), ids)

    # LOS answers: reuse the cache, compute the rest in bulk.
    if cache is not None:
        los_keys, ok, in_order = _remap_keys(cache.los_keys, to_new, n)
        los_free = cache.los_free[ok]
        if not in_order:
            order = np.argsort(los_keys, kind="stable")
            los_keys, los_free = los_keys[order], los_free[order]
    else:
        los_keys, los_free = np.zeros(0, np.int64), np.zeros(0, bool)

    def los_for(keys: NDArray[np.int64]) -> NDArray[np.bool_]:
        """LOS for sorted unique keys, from the cache or computed now (and remembered)."""
        nonlocal los_keys, los_free
        at = _lookup(keys, los_keys)
        out = np.zeros(len(keys), dtype=bool)
        out[at >= 0] = los_free[at[at >= 0]]
        todo = np.flatnonzero(at < 0)
        if todo.size:
            a, b = keys[todo] // n, keys[todo] % n
            out[todo] = visible_pairs(opts.visibility, los, walls, p2[a], p2[b])
            # the new keys are sorted and absent from los_keys: inserting keeps it sorted
            where = np.searchsorted(los_keys, keys[todo])
            los_keys = np.insert(los_keys, where, keys[todo])
            los_free = np.insert(los_free, where, out[todo])
        return out

    blocked_all = np.zeros(n, dtype=bool)
    blocked_all[blocked_designer] = True
    same_points = cache is not None and cache.candidates is not None and np.array_equal(cache.points, points)
    chosen = None
    # a cache of the same waypoints and links lets the linking and the arcs change row by row
    reuse = same_points and cache.chosen is not None and cache.links == (level.links, level.offmesh_links)
    old_pairs = cache.pairs if reuse else np.zeros(0, np.int64)
    gone = np.zeros(0, np.int64)
    if opts.k is None:
        # every pair of a floor (within max_distance): the visibility graph
        if same_points:
            pair_list = cache.candidates
        else:
            chunks = []
            for z, (tree, ids) in trees.items():
                if len(ids) < 2:
                    continue
                if opts.max_distance is None:
                    iu, ju = np.triu_indices(len(ids), 1)
                else:
                    pr = tree.query_pairs(opts.max_distance, output_type="ndarray")
                    iu, ju = pr[:, 0], pr[:, 1]
                chunks.append(_pair_keys(ids[iu], ids[ju], n))
            pair_list = np.sort(np.concatenate(chunks)) if chunks else np.zeros(0, np.int64)
        candidates = pair_list
        added = pair_list[los_for(pair_list)]
    elif cones:
        candidates = None  # linked afresh each time: an update equals a rebuild by construction
        corner_edges = _corner_edges(los, p2, len(designer))
        added = _cone_pairs(points, p2, corner_edges, trees, blocked_all, los, walls, opts)
    else:
        # the k nearest visible waypoints among the max_candidates nearest, tested in stages
        cand = None
        if same_points:
            cand = cache.candidates
        elif cache is not None and cache.candidates is not None and cache.candidates.ndim == 2 and len(trees) == 1:
            cand = _updated_table(cache, to_new, points, p2, trees, opts)
        if cand is None:
            cand = np.full((n, opts.candidate_width(n)), -1, dtype=np.int64)
            for z, (tree, ids) in trees.items():
                if len(ids) < 2:
                    continue
                local = query_candidates(tree, p2[ids], opts.widened_k, opts.max_distance, self_ids=np.arange(len(ids)))
                cand[ids, : local.shape[1]] = np.where(local >= 0, ids[np.maximum(local, 0)], -1)
        candidates = cand
        rows, before = np.arange(n), np.zeros(cand.shape, dtype=bool)
        if reuse:
            # only waypoints that tested a pair whose answer was dropped, or whose blocked flag
            # changed, can link differently
            stale = cache.stale
            changed = np.flatnonzero(blocked_all != cache.row_blocked)
            rows = _unique_keys(np.concatenate([stale // n, stale % n, changed]))
            before = cache.chosen
        chosen = before.copy()
        chosen[rows] = _nearest_visible(cand, opts.k, blocked_all, los_for, n, rows)
        gone, added = _changed_pairs(cand, before, chosen, rows, old_pairs, n)

    # Arcs: automatic pairs both ways, then manual and off-mesh links (few: a Python loop is fine).
    names: dict[str, int] = {"": 0}
    remove: set[int] = set()
    x_src, x_dst, x_kind, x_name, x_cost = [], [], [], [], []
    for lk in level.links:
        remove.add(lk.a * n + lk.b)
        remove.add(lk.b * n + lk.a)
        if lk.kind == "forbidden":
            continue
        ends = [(lk.a, lk.b), (lk.b, lk.a)] if lk.kind == "forced" else [(lk.a, lk.b)]
        for a, b in ends:
            x_src.append(a)
            x_dst.append(b)
            x_kind.append(ARC_LINK)
            x_name.append(encode_arc_tag(lk.tag, lk.requires))
            x_cost.append(np.nan)
    for lk in level.offmesh_links:
        ends = [(lk.a, lk.b), (lk.b, lk.a)] if lk.bidirectional else [(lk.a, lk.b)]
        for a, b in ends:
            x_src.append(a)
            x_dst.append(b)
            x_kind.append(ARC_OFFMESH)
            x_name.append(encode_arc_tag(lk.tag, lk.requires))
            x_cost.append(lk.cost)
    for name in sorted(set(x_name) - {""}):
        names[name] = len(names)
    tag_names = tuple(names)
    if reuse:
        base = cache.arcs
    else:
        x_src_a, x_dst_a = np.asarray(x_src, np.int64), np.asarray(x_dst, np.int64)
        x_kind_a, x_tag = np.asarray(x_kind, np.int8), np.asarray([names[t] for t in x_name], np.int32)
        x_len = np.asarray(x_cost, np.float64)
        x_len[x_kind_a != ARC_OFFMESH] = _distances(points, x_src_a, x_dst_a)[x_kind_a != ARC_OFFMESH]
        order = np.lexsort((x_tag, x_kind_a, x_dst_a, x_src_a))
        base = Arcs(x_src_a[order], x_dst_a[order], x_kind_a[order], x_tag[order], x_len[order])
    overridden = np.sort(np.fromiter(remove, np.int64, count=len(remove)))
    arcs = _splice_arcs(base, gone, added, overridden, points, n)
    pairs = _merge_keys(old_pairs, gone, added)
    src_all, dst_all, kind_all, tag_ids, lengths = arcs.src, arcs.dst, arcs.kind, arcs.tag, arcs.length

    # Terrain lengths per walking arc, by unordered pair (reused from the cache when allowed).
    layer = level.terrain_layer()
    ter_names = layer.tag_names
    if len(ter_names):
        walk = kind_all != ARC_OFFMESH
        ter_keys = _unique_keys(_pair_keys(src_all[walk], dst_all[walk], n))
    else:
        ter_keys = np.zeros(0, np.int64)
    ter_rows = scipy.sparse.csr_array((len(ter_keys), len(ter_names)), dtype=np.float64)
    if len(ter_names) and len(ter_keys):
        have = np.full(len(ter_keys), -1, np.int64)
        old_rows = None
        if cache is not None and len(cache.ter_keys):
            ck, ok, in_order = _remap_keys(cache.ter_keys, to_new, n)
            srt = np.arange(len(ck)) if in_order else np.argsort(ck, kind="stable")
            ck = ck[srt]
            old_rows = _recolumn(cache.ter_rows[np.flatnonzero(ok)[srt]], cache.ter_names, ter_names)
            have = _lookup(ter_keys, ck)
        todo = np.flatnonzero(have < 0)
        parts_rows = np.empty(len(ter_keys), dtype=np.int64)
        blocks = []
        if old_rows is not None and (have >= 0).any():
            blocks.append(old_rows[have[have >= 0]])
        if todo.size:
            a, b = ter_keys[todo] // n, ter_keys[todo] % n
            blocks.append(layer.lengths(p2[a], p2[b]).lengths)
        stacked = scipy.sparse.vstack(blocks, format="csr") if len(blocks) > 1 else scipy.sparse.csr_array(blocks[0])
        reused = np.flatnonzero(have >= 0)
        parts_rows[reused] = np.arange(len(reused))
        parts_rows[todo] = len(reused) + np.arange(len(todo))
        ter_rows = scipy.sparse.csr_array(stacked[parts_rows])
    arc_rows = scipy.sparse.csr_array((len(src_all), len(ter_names)), dtype=np.float64)
    if len(ter_names) and len(src_all):
        walk = np.flatnonzero(kind_all != ARC_OFFMESH)
        pick = _lookup(_pair_keys(src_all[walk], dst_all[walk], n), ter_keys)
        sel = scipy.sparse.csr_array(
            (np.ones(len(walk)), (walk, pick)), shape=(len(src_all), len(ter_keys))
        )
        arc_rows = scipy.sparse.csr_array(sel @ ter_rows)
        arc_rows.sort_indices()

    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src_all, minlength=n), out=indptr[1:])
    graph = NavGraph(points, indptr, dst_all, lengths, tag_ids, tag_names)
    blocked_nodes = np.flatnonzero(blocked_all).astype(np.int32)
    new_cache = BuildCache(points, los_keys, los_free, ter_keys, ter_rows, ter_names, candidates,
                       designer=designer_checked, blocked=designer_blocked, chosen=chosen, row_blocked=blocked_all,
                       pairs=pairs, arcs=arcs, links=(level.links, level.offmesh_links), trees=trees, unique=unique)
    return NavMap(
        level=level, options=opts, graph=graph, n_generated=len(extra), line_of_sight=los, walkable=free,
        terrain=TerrainLengths(ter_names, arc_rows), arc_kinds=kind_all.astype(np.int8),
        blocked_waypoints=blocked_nodes, floors=floors, trees=trees, cache=new_cache, corner_edges=corner_edges,
    )


def _recolumn(rows: scipy.sparse.csr_array, old: tuple[str, ...], new: tuple[str, ...]) -> scipy.sparse.csr_array:
    if old == new:
        return scipy.sparse.csr_array(rows)
    coo = scipy.sparse.coo_array(rows)
    where = {t: j for j, t in enumerate(new)}
    col_map = np.array([where.get(t, -1) for t in old], dtype=np.int64)
    cols = col_map[coo.col] if len(coo.col) else coo.col
    keep = cols >= 0
    return scipy.sparse.csr_array((coo.data[keep], (coo.row[keep], cols[keep])), shape=(rows.shape[0], len(new)))


def _apply_blocked_policy(level: Level, blocked: NDArray[np.int64], opts: BuildOptions) -> Level:
    pts = level.waypoints
    lines = [f"waypoints[{i}]={pts[i].tolist()}" for i in blocked[:5]]
    rule = (
        f"lies outside the walkable area for agent_radius={opts.agent_radius} (inside an inflated obstacle "
        "or too close to the bounds)"
    )
    if opts.on_blocked_waypoint == "error":
        raise InvalidGeometryError(
            f"{lines[0]} {rule}; move it, or pass on_blocked_waypoint='warn' or 'drop'"
            + (f" ({len(blocked) - 1} more)" if len(blocked) > 1 else "")
        )
    keep = np.ones(len(pts), dtype=bool)
    keep[blocked] = False
    new_id = np.cumsum(keep) - 1
    links = [lk for lk in level.links if keep[lk.a] and keep[lk.b]]
    offmesh = [lk for lk in level.offmesh_links if keep[lk.a] and keep[lk.b]]
    links = [dataclasses.replace(lk, a=int(new_id[lk.a]), b=int(new_id[lk.b])) for lk in links]
    offmesh = [dataclasses.replace(lk, a=int(new_id[lk.a]), b=int(new_id[lk.b])) for lk in offmesh]
    warnings.warn(
        f"dropped {len(blocked)} waypoints that {rule}: {', '.join(lines)}" + (" ..." if len(blocked) > 5 else ""),
        NavmeshWarning,
        stacklevel=4,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        return level.replace(waypoints=pts[keep], links=tuple(links), offmesh_links=tuple(offmesh), on_bad_waypoint="warn")
