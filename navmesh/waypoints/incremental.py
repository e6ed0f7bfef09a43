"""Local updates: which cached build answers a level change leaves valid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from navmesh.errors import InvalidOptionError, describe
from navmesh.geometry import inflate
from navmesh.level import Level
from navmesh.waypoints.build import BuildCache, assemble
from navmesh.waypoints.navmap import NavMap


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


def updated(nav: NavMap, level: Level) -> NavMap:
    """``nav`` rebuilt for a changed ``level``, reusing every cached answer the change leaves
    valid (see :meth:`NavMap.update`)."""
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
    old = nav.level
    cache = nav.build_cache
    if not shapely.equals_exact(old.bounds, level.bounds, 0.0):
        return assemble(level, nav.options, None)
    changed_obstacles = multiset_diff(old.obstacles, level.obstacles, lambda p: p.wkb)
    keep_los = np.ones(len(cache.los_keys), dtype=bool)
    moved = shapely.Polygon()  # where walkability may have changed
    if changed_obstacles:
        grown = inflate(changed_obstacles, nav.options.agent_radius, join=nav.options.join)
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
        stale=cache.los_keys[~keep_los], zone=moved, unique=cache.unique,
    )
    return assemble(level, nav.options, kept)
