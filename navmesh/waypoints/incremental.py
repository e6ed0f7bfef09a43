"""Local updates: the cached answers of a build, keyed by waypoint pairs, and which of them a level
change leaves valid.

A build keeps its answers in a :class:`BuildCache`: line of sight and terrain breakdowns keyed by
unordered pair keys ``min(u, v) * n + max(u, v)`` of its point set, the candidate tables, the
linking choices and the sorted arcs. The key algebra here re-expresses those keys when the point
set changes (:func:`old_to_new`, :func:`remap_keys`), splices linked pairs and arcs
(:func:`changed_pairs`, :func:`merge_keys`, :func:`splice_arcs`), and :func:`kept_cache` drops the
answers a level change may affect. :class:`PairAnswers` serves line-of-sight answers from the cache
and computes the rest in bulk; :class:`AllPairAnswers` does the same for the all-pairs (``k=None``)
enumeration, whose cache keeps only the visible pairs. The build (:mod:`navmesh.waypoints.build`) runs the same pipeline
with or without a cache, so an update equals a rebuild.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse
import shapely
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh.geometry import inflate
from navmesh.sight import LineOfSight
from navmesh.level import Level
from navmesh.waypoints.options import ARC_WALK

MAX_CHANGED_RUN = 64  # rows an update compares directly before matching every point instead
#: Pair keys handled at a time by :class:`PairAnswers` and the all-pairs linking (2 MB per int64
#: array of a block, about 30 MB of temporaries in all), so a build's temporaries stay bounded
#: whatever the number of pairs (a 2,300-corner k=None build was no faster with 4x larger blocks).
PAIR_BLOCK = 1 << 18


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
                 unique: bool = False, all_pairs: bool = False) -> None:
        self.points = points
        self.unique = unique  # no two rows of ``points`` are equal
        # candidates of ``points``: an (n, max_candidates) nearest-first table, or pair keys (k=None)
        self.candidates = candidates
        self.los_keys = los_keys  # sorted
        self.los_free = los_free
        # a k=None build keeps only the visible pairs (``los_free`` all True): every other pair of
        # the all-pairs enumeration whose ends were open (``row_blocked`` False) was tested blocked
        self.all_pairs = all_pairs
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


def unique_keys(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted unique keys (numpy 2's hash-based ``np.unique`` is ~50x slower on 10^5 int64 keys)."""
    s = np.sort(keys)
    return s[np.concatenate([[True], s[1:] != s[:-1]])] if len(s) else s


def pair_keys(u: NDArray[np.int64], v: NDArray[np.int64], n: int) -> NDArray[np.int64]:
    a = np.minimum(u, v).astype(np.int64)
    b = np.maximum(u, v).astype(np.int64)
    return a * n + b


def old_to_new(old_points: NDArray[np.float64], new_points: NDArray[np.float64],
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
        fast = changed_run_map(old_points, new_points)
        if fast is not None:
            return fast
    both = np.concatenate([new_points, old_points])
    _, first, inverse = np.unique(both, axis=0, return_index=True, return_inverse=True)
    owner = first[inverse.reshape(-1)][len(new_points):]  # the first row with these coordinates
    return np.where(owner < len(new_points), owner, -1).astype(np.int64)


def changed_run_map(old: NDArray[np.float64], new: NDArray[np.float64]) -> NDArray[np.int64] | None:
    """``old_to_new`` for duplicate-free ``old`` when the rows differ in at most
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


def all_unique(points: NDArray[np.float64]) -> bool:
    """Whether no two rows of ``points`` are equal."""
    if len(points) < 2:
        return True
    s = points[np.lexsort(points.T[::-1])]
    return not (s[1:] == s[:-1]).all(axis=1).any()


def remap_keys(keys: NDArray[np.int64], to_new: NDArray[np.int64],
                n_new: int) -> tuple[NDArray[np.int64], NDArray[np.bool_], bool]:
    """Re-express sorted pair keys of the old points in ids of the new points (``to_new`` from
    :func:`old_to_new`): (keys of the pairs whose ends both survive, which survived, whether
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
    return pair_keys(a[ok], b[ok], n_new), ok, in_order


def changed_pairs(cand: NDArray[np.int64], before: NDArray[np.bool_], after: NDArray[np.bool_], rows: NDArray[np.int64],
                   pairs: NDArray[np.int64], n: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Pairs leaving and joining the sorted ``pairs`` when the choices of waypoints ``rows`` go from
    ``before`` to ``after`` (tables like ``cand``): a pair is linked while either end chooses it."""

    def keys(table: NDArray[np.bool_]) -> NDArray[np.int64]:
        r, c = np.nonzero(table[rows])
        return unique_keys(pair_keys(rows[r], cand[rows[r], c], n))

    was, now = keys(before), keys(after)
    lost = was[lookup(was, now) < 0]
    a, b = lost // n, lost % n
    still = ((cand[a] == b[:, None]) & after[a]).any(axis=1) | ((cand[b] == a[:, None]) & after[b]).any(axis=1)
    won = now[lookup(now, was) < 0]
    return lost[~still], won[lookup(won, pairs) < 0]


def merge_keys(keys: NDArray[np.int64], gone: NDArray[np.int64], added: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted ``keys`` without ``gone`` (all present) and with ``added`` (sorted, all absent)."""
    kept = np.delete(keys, np.searchsorted(keys, gone))
    return np.insert(kept, np.searchsorted(kept, added), added)


def splice_arcs(base: Arcs, gone: NDArray[np.int64], added: NDArray[np.int64], overridden: NDArray[np.int64],
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
    new = new[lookup(new, overridden) < 0]
    where = np.searchsorted(key, new)
    src, dst = new // n, new % n

    def splice(old: NDArray[Any], values: Any) -> NDArray[Any]:
        return np.insert(np.delete(old, at), where, values)

    return Arcs(
        splice(base.src, src), splice(base.dst, dst), splice(base.kind, ARC_WALK), splice(base.tag, 0),
        splice(base.length, distances(points, src, dst)),
    )


def distances(points: NDArray[np.float64], a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.float64]:
    """Euclidean length of each segment ``points[a[i]] -> points[b[i]]`` (the same either way round)."""
    return np.sqrt(((points[b] - points[a]) ** 2).sum(axis=1)) if len(a) else np.zeros(0)


def lookup(keys: NDArray[np.int64], table: NDArray[np.int64]) -> NDArray[np.int64]:
    """Index of each key in the sorted ``table``, -1 when absent."""
    if len(table) == 0:
        return np.full(len(keys), -1, dtype=np.int64)
    pos = np.searchsorted(table, keys)
    pos_c = np.minimum(pos, len(table) - 1)
    return np.where(table[pos_c] == keys, pos_c, -1)


def blocked_flags(los: LineOfSight, designer: NDArray[np.float64], cache: BuildCache | None) -> NDArray[np.bool_]:
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
        where = old_to_new(cache.designer, designer, cache.unique)  # a prefix of unique points is unique
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


def recolumn(rows: scipy.sparse.csr_array, old: tuple[str, ...], new: tuple[str, ...]) -> scipy.sparse.csr_array:
    if old == new:
        return scipy.sparse.csr_array(rows)
    coo = scipy.sparse.coo_array(rows)
    where = {t: j for j, t in enumerate(new)}
    col_map = np.array([where.get(t, -1) for t in old], dtype=np.int64)
    cols = col_map[coo.col] if len(coo.col) else coo.col
    keep = cols >= 0
    return scipy.sparse.csr_array((coo.data[keep], (coo.row[keep], cols[keep])), shape=(rows.shape[0], len(new)))


def multiset_diff(old: Sequence[Any], new: Sequence[Any], key: Any) -> list[Any]:
    """Items in exactly one of the two sequences (counting repeats), compared by ``key``.

    Objects present in both by identity are matched first, so an unchanged level costs no keys.
    """
    ids_new = Counter(id(x) for x in new)
    ids_old = Counter(id(x) for x in old)
    rest_old = []
    for x in old:
        if ids_new.get(id(x), 0) > 0:
            ids_new[id(x)] -= 1
        else:
            rest_old.append(x)
    rest_new = []
    for x in new:
        if ids_old.get(id(x), 0) > 0:
            ids_old[id(x)] -= 1
        else:
            rest_new.append(x)
    a = Counter(key(x) for x in rest_old)
    b = Counter(key(x) for x in rest_new)
    out = []
    for items, mine, other in ((rest_old, a, b), (rest_new, b, a)):
        extra = mine - other
        for x in items:
            k = key(x)
            if extra.get(k, 0) > 0:
                out.append(x)
                extra[k] -= 1
    return out


def segments_meet(points: NDArray[np.float64], keys: NDArray[np.int64], zone: shapely.Geometry) -> NDArray[np.bool_]:
    """Which cached pair segments meet ``zone`` (closed sets: touching counts)."""
    out = np.zeros(len(keys), dtype=bool)
    if len(keys) == 0 or zone.is_empty:
        return out
    n = len(points)
    ka = keys // n
    kb = keys - ka * n
    x0, y0, x1, y1 = zone.bounds
    # bounding boxes first, x then y, on 1-D gathers (this runs over every cached pair)
    xa, xb = points[ka, 0], points[kb, 0]
    idx = np.flatnonzero((np.minimum(xa, xb) <= x1) & (np.maximum(xa, xb) >= x0))
    ya, yb = points[ka[idx], 1], points[kb[idx], 1]
    idx = idx[(np.minimum(ya, yb) <= y1) & (np.maximum(ya, yb) >= y0)]
    if idx.size:
        shapely.prepare(zone)
        lines = shapely.linestrings(np.stack([points[ka[idx], :2], points[kb[idx], :2]], axis=1))
        out[idx] = shapely.intersects(zone, lines)
    return out


def kept_cache(old: Level, cache: BuildCache, agent_radius: float, join: str, level: Level) -> BuildCache | None:
    """The part of a build's ``cache`` (made for level ``old``) that stays valid for ``level``:
    line-of-sight answers of segments that meet no added or removed obstacle (inflated by
    ``agent_radius`` with ``join``), terrain breakdowns of segments that meet no changed region
    (or a region overlapping one). None when nothing can be reused (the bounds changed)."""
    if not shapely.equals_exact(old.bounds, level.bounds, 0.0):
        return None
    changed_obstacles = multiset_diff(old.obstacles, level.obstacles, lambda p: p.wkb)
    keep_los = np.ones(len(cache.los_keys), dtype=bool)
    moved = shapely.Polygon()  # where walkability may have changed
    if changed_obstacles:
        grown = inflate(changed_obstacles, agent_radius, join=join)
        moved = shapely.union_all(np.asarray(grown, dtype=object))
        keep_los = ~segments_meet(cache.points, cache.los_keys, moved)
    changed_regions = multiset_diff(old.terrain, level.terrain, lambda r: (r.tag, r.polygon.wkb))
    keep_ter = np.ones(len(cache.ter_keys), dtype=bool)
    if changed_regions:
        polys = [r.polygon for r in changed_regions]
        every = np.asarray([r.polygon for r in (*old.terrain, *level.terrain)], dtype=object)
        touching = shapely.intersects(every, shapely.union_all(np.asarray(polys, dtype=object)))
        zone = shapely.union_all(every[touching])  # regions whose painter's cover may change too
        keep_ter = ~segments_meet(cache.points, cache.ter_keys, zone)
    kept = BuildCache(
        cache.points, cache.los_keys[keep_los], cache.los_free[keep_los],
        cache.ter_keys[keep_ter], cache.ter_rows[np.flatnonzero(keep_ter)], cache.ter_names, cache.candidates,
        designer=cache.designer, blocked=cache.blocked, chosen=cache.chosen, row_blocked=cache.row_blocked,
        pairs=cache.pairs, arcs=cache.arcs, links=cache.links, trees=cache.trees,
        stale=cache.los_keys[~keep_los], zone=moved, unique=cache.unique, all_pairs=cache.all_pairs,
    )
    return kept


class PairAnswers:
    """Line-of-sight answers for sorted unique pair keys of ``n`` points: from the cache's sorted
    ``keys``/``free`` when known, otherwise computed by ``test(a, b)`` (index arrays) and
    remembered, so :attr:`keys` / :attr:`free` end as the cache of the next build.

    Keys are looked up and tested ``PAIR_BLOCK`` at a time, so the temporaries of a call (ends,
    gathered coordinates, the test's own arrays) stay bounded however many keys are asked; the
    new answers join the table in one merge per call. When the table is empty and every key is
    new, the table keeps the asked ``keys`` array itself (no copy): callers must not modify it.
    """

    def __init__(self, keys: NDArray[np.int64], free: NDArray[np.bool_], n: int,
                 test: Callable[[NDArray[np.int64], NDArray[np.int64]], NDArray[np.bool_]]) -> None:
        self.keys = keys
        self.free = free
        self._n = n
        self._test = test

    def __call__(self, keys: NDArray[np.int64]) -> NDArray[np.bool_]:
        out = np.empty(len(keys), dtype=bool)
        new = np.zeros(len(keys), dtype=bool)  # which keys were tested (a mask: no copies kept per block)
        step = max(int(PAIR_BLOCK), 1)
        for s in range(0, len(keys), step):
            block, answer = keys[s : s + step], out[s : s + step]
            at = lookup(block, self.keys)
            known = at >= 0
            answer[known] = self.free[at[known]]
            todo = np.flatnonzero(~known)
            if todo.size:
                fresh = block[todo]
                answer[todo] = self._test(fresh // self._n, fresh % self._n)
                new[s + todo] = True
        if not new.any():
            return out
        if len(self.keys) == 0 and new.all():
            self.keys, self.free = keys, out.copy()
            return out
        fresh = keys[new]
        # the new keys are sorted and absent from the table: inserting keeps it sorted
        where = np.searchsorted(self.keys, fresh)
        self.keys = np.insert(self.keys, where, fresh)
        self.free = np.insert(self.free, where, out[new])
        return out


class AllPairAnswers:
    """Line-of-sight answers for the blocks of an all-pairs (``k=None``) build, remembering nothing.

    The cache of an earlier all-pairs build (:attr:`BuildCache.all_pairs`) keeps only its
    ``visible`` pair keys (re-expressed in this point set's ids, sorted); every other pair whose
    two ends were open in it was tested blocked. So a pair is known when both ends are points of
    that build that were open there (``known_ends``) and its segment meets no changed ``zone``:
    visible when its key is in ``visible``. Other pairs are computed by ``test(a, b)`` (index
    arrays); :attr:`tested` counts them.
    """

    def __init__(self, visible: NDArray[np.int64], known_ends: NDArray[np.bool_], points: NDArray[np.float64],
                 zone: shapely.Geometry, n: int,
                 test: Callable[[NDArray[np.int64], NDArray[np.int64]], NDArray[np.bool_]]) -> None:
        self._visible = visible
        self._known_ends = known_ends
        self._points = points
        self._zone = zone
        self._n = n
        self._test = test
        self.tested = 0

    @classmethod
    def fresh(cls, n: int, test: Callable[[NDArray[np.int64], NDArray[np.int64]], NDArray[np.bool_]]) -> AllPairAnswers:
        """Answers that know nothing: every pair is tested."""
        return cls(np.zeros(0, np.int64), np.zeros(n, dtype=bool), np.zeros((n, 2)), shapely.Polygon(), n, test)

    def __call__(self, keys: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Whether each of the sorted unique ``keys`` (one block) is visible."""
        a, b = keys // self._n, keys % self._n
        known = self._known_ends[a] & self._known_ends[b]
        if not self._zone.is_empty and known.any():
            at = np.flatnonzero(known)
            known[at[segments_meet(self._points, keys[at], self._zone)]] = False
        out = np.empty(len(keys), dtype=bool)
        out[known] = lookup(keys[known], self._visible) >= 0
        todo = np.flatnonzero(~known)
        if todo.size:
            out[todo] = self._test(a[todo], b[todo])
            self.tested += int(todo.size)
        return out
