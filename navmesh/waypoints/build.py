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

import numpy as np
import scipy.sparse
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from navmesh.errors import (
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshWarning,
    describe,
)
from navmesh.geometry import Join
from navmesh.sight import LineOfSight
from navmesh.graph import NavGraph
from navmesh.level import Level
from navmesh.tags import encode_arc_tag
from navmesh.terrain import TerrainLengths
from navmesh.waypoints.incremental import (
    AllPairAnswers,
    Arcs,
    BuildCache,
    PairAnswers,
    all_unique,
    blocked_flags,
    distances,
    kept_cache,
    lookup,
    merge_keys,
    old_to_new,
    pair_keys,
    recolumn,
    remap_keys,
    splice_arcs,
    unique_keys,
)
from navmesh.waypoints.linking import LinkChoice, PointSet, link, visible_pairs, wall_grid_for
from navmesh.waypoints.navmap import NavMap
from navmesh.waypoints.options import (
    ARC_LINK,
    ARC_OFFMESH,
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
        without a distance, tested ``PAIR_BLOCK`` at a time: the build's memory follows the
        visible pairs, about 100 bytes each with the graph, not the pairs tested).
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
        Line-of-sight backend, same answers: the level's vectorised numpy
        :class:`~navmesh.sight.LineOfSight` (exact predicates over a grid of its walls), or the
        numba kernel of :mod:`navmesh._kernels.los`. Pick ``"kernel"`` for ``k=None`` builds and
        levels of more than a few thousand waypoints, and for frequent rebuilds: once compiled
        a whole corner build takes 1.5 to 2.6 times less CPU time with ``k=8`` and 5 to 8 times
        less with ``k=None`` (5.2x on a 1,945-corner RTS-like level, 8.3x on a 96x96 tile map,
        7.9x with 1,600 crates; 2026-11-27). Pick
        ``"shapely"`` (the default) when numba is unwanted or not compiled yet, for small levels
        with ``k`` given (a few hundred waypoints: tens of milliseconds), or as the reference.
        Both keep a build's temporaries bounded whatever the level (``navmesh.sight.MEMORY_BUDGET``,
        ``PAIR_BLOCK``).
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


def update(nav: NavMap, level: Level) -> NavMap:
    """``nav`` rebuilt for a changed ``level``, reusing every cached answer the change leaves
    valid (see :meth:`NavMap.update`)."""
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a navmesh Level")
    opts = nav.options
    return assemble(level, opts, kept_cache(nav.level, nav.build_cache, opts.agent_radius, opts.join, level))


def assemble(level: Level, opts: BuildOptions, cache: BuildCache | None) -> NavMap:
    """The whole build, as a pipeline of phases; ``cache`` holds reusable answers (None for a
    fresh build)."""
    los = level.line_of_sight(agent_radius=opts.agent_radius, join=opts.join)
    cones = opts.k is not None and opts.linking == "cones"
    walls = wall_grid_for(los) if opts.visibility == "kernel" or cones else None
    ps = _point_set(level, los, opts, cache)
    test = lambda a, b: visible_pairs(opts.visibility, los, walls, ps.p2[a], ps.p2[b])  # noqa: E731
    answers = _all_pair_answers(cache, ps, test) if opts.k is None else PairAnswers(*_cached_sight(cache, ps), ps.n, test)
    linking = link(ps, answers, los, walls, opts, cache)
    arcs, tag_names, pairs = _arcs(ps, linking, cache)
    ter_names, ter_keys, ter_rows, arc_rows = _terrain(ps, arcs, cache)
    n = ps.n
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(arcs.src, minlength=n), out=indptr[1:])
    graph = NavGraph(ps.points, indptr, arcs.dst, arcs.length, arcs.tag, tag_names)
    if opts.k is None:  # the visible pairs; the rest of the enumeration was tested blocked
        los_keys, los_free = linking.added, np.ones(len(linking.added), dtype=bool)
    else:
        los_keys, los_free = answers.keys, answers.free
    new_cache = BuildCache(ps.points, los_keys, los_free, ter_keys, ter_rows, ter_names, linking.candidates,
                           designer=ps.checked, blocked=ps.checked_blocked, chosen=linking.chosen,
                           row_blocked=ps.blocked, pairs=pairs, arcs=arcs,
                           links=(ps.level.links, ps.level.offmesh_links), trees=ps.trees, unique=ps.unique,
                           all_pairs=opts.k is None)
    return NavMap(
        level=ps.level, options=opts, graph=graph, n_generated=ps.n_generated, line_of_sight=los,
        walkable_region=free_space(los) if opts.fill_spacing is not None else None,
        terrain=TerrainLengths(ter_names, arc_rows), arc_kinds=arcs.kind.astype(np.int8),
        blocked_waypoints=np.flatnonzero(ps.blocked).astype(np.int32), floors=ps.floors, trees=ps.trees,
        cache=new_cache, corner_edges=linking.corner_edges, rebuild=update,
    )


# -- phase 1: the point set -----------------------------------------------------------------------
def _generated(level: Level, los: LineOfSight, opts: BuildOptions, designer: NDArray[np.float64],
               dim: int) -> NDArray[np.float64]:
    """Corner and fill waypoints (on every floor of a 3-D level) not already among ``designer``."""
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
    return extra


def _blocked_policy(level: Level, los: LineOfSight, opts: BuildOptions,
                    cache: BuildCache | None) -> tuple[Level, NDArray[np.bool_], NDArray[np.int64]]:
    """The level after ``on_blocked_waypoint``, the blocked flags of the level's waypoints before
    it, and the blocked waypoints kept (``"warn"``)."""
    designer = level.waypoints
    flags = blocked_flags(los, designer, cache)
    blocked = np.flatnonzero(flags)
    if blocked.size and opts.on_blocked_waypoint != "warn":
        return _apply_blocked_policy(level, blocked, opts), flags, np.zeros(0, np.int64)
    if blocked.size:
        shown = ", ".join(f"waypoints[{i}]={designer[i].tolist()}" for i in blocked[:5])
        warnings.warn(
            f"{blocked.size} waypoints lie outside the walkable area for agent_radius={opts.agent_radius} "
            f"and get no automatic links: {shown}" + (" ..." if blocked.size > 5 else ""),
            NavmeshWarning,
            stacklevel=5,
        )
    return level, flags, blocked


def _point_set(level: Level, los: LineOfSight, opts: BuildOptions, cache: BuildCache | None) -> PointSet:
    checked = level.waypoints
    dim = checked.shape[1] if len(checked) else 2
    extra = _generated(level, los, opts, checked, dim)
    level, checked_blocked, kept_blocked = _blocked_policy(level, los, opts, cache)
    designer = level.waypoints
    points = np.concatenate([designer, extra]) if len(extra) else np.array(designer, dtype=np.float64)
    if points.ndim != 2 or len(points) == 0:
        points = points.reshape(-1, dim)
    n = len(points)
    p2 = np.ascontiguousarray(points[:, :2])
    blocked = np.zeros(n, dtype=bool)
    blocked[kept_blocked] = True
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
    to_new = None if cache is None else old_to_new(cache.points, points, cache.unique)
    return PointSet(level, checked, checked_blocked, len(designer), len(extra), points, p2, blocked, floors, trees,
                     all_unique(points), to_new)


# -- phase 2: line of sight (linking: navmesh.waypoints.linking.link) ------------------------------
def _cached_sight(cache: BuildCache | None, ps: PointSet) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The cache's line-of-sight answers in this point set's keys (sorted)."""
    if cache is None:
        return np.zeros(0, np.int64), np.zeros(0, bool)
    keys, ok, in_order = remap_keys(cache.los_keys, ps.to_new, ps.n)
    free = cache.los_free[ok]
    if not in_order:
        order = np.argsort(keys, kind="stable")
        keys, free = keys[order], free[order]
    return keys, free


def _all_pair_answers(cache: BuildCache | None, ps: PointSet, test) -> AllPairAnswers:
    """Answers for an all-pairs build: a pair is known from an all-pairs ``cache`` when both its
    ends are points of that build that were open there (see :class:`AllPairAnswers`)."""
    if cache is None or not cache.all_pairs:
        return AllPairAnswers.fresh(ps.n, test)
    visible, _ = _cached_sight(cache, ps)
    known_ends = np.zeros(ps.n, dtype=bool)
    alive = ps.to_new >= 0
    known_ends[ps.to_new[alive]] = ~cache.row_blocked[alive]
    return AllPairAnswers(visible, known_ends, ps.points, cache.zone, ps.n, test)


# -- phase 3: arcs ----------------------------------------------------------------------------------
def _arcs(ps: PointSet, linking: LinkChoice, cache: BuildCache | None) -> tuple[Arcs, tuple[str, ...], NDArray[np.int64]]:
    """Automatic pairs both ways, then manual and off-mesh links (few: a Python loop is fine):
    (arcs in CSR order, tag names, sorted keys of the linked pairs)."""
    level, n, points = ps.level, ps.n, ps.points
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
    if linking.reuse:
        base = cache.arcs
    else:
        x_src_a, x_dst_a = np.asarray(x_src, np.int64), np.asarray(x_dst, np.int64)
        x_kind_a, x_tag = np.asarray(x_kind, np.int8), np.asarray([names[t] for t in x_name], np.int32)
        x_len = np.asarray(x_cost, np.float64)
        x_len[x_kind_a != ARC_OFFMESH] = distances(points, x_src_a, x_dst_a)[x_kind_a != ARC_OFFMESH]
        order = np.lexsort((x_tag, x_kind_a, x_dst_a, x_src_a))
        base = Arcs(x_src_a[order], x_dst_a[order], x_kind_a[order], x_tag[order], x_len[order])
    overridden = np.sort(np.fromiter(remove, np.int64, count=len(remove)))
    arcs = splice_arcs(base, linking.gone, linking.added, overridden, points, n)
    return arcs, tuple(names), merge_keys(linking.old_pairs, linking.gone, linking.added)


# -- phase 4: terrain -------------------------------------------------------------------------------
def _terrain(ps: PointSet, arcs: Arcs, cache: BuildCache | None):
    """Terrain lengths per walking arc, by unordered pair (reused from the cache when allowed):
    (tag names, sorted pair keys, their rows (csr, keys x tags), rows per arc (csr, arcs x tags))."""
    n, p2 = ps.n, ps.p2
    layer = ps.level.terrain_layer()
    ter_names = layer.tag_names
    src_all, dst_all, kind_all = arcs.src, arcs.dst, arcs.kind
    if len(ter_names):
        walk = kind_all != ARC_OFFMESH
        ter_keys = unique_keys(pair_keys(src_all[walk], dst_all[walk], n))
    else:
        ter_keys = np.zeros(0, np.int64)
    ter_rows = scipy.sparse.csr_array((len(ter_keys), len(ter_names)), dtype=np.float64)
    if len(ter_names) and len(ter_keys):
        have = np.full(len(ter_keys), -1, np.int64)
        old_rows = None
        if cache is not None and len(cache.ter_keys):
            ck, ok, in_order = remap_keys(cache.ter_keys, ps.to_new, n)
            srt = np.arange(len(ck)) if in_order else np.argsort(ck, kind="stable")
            ck = ck[srt]
            old_rows = recolumn(cache.ter_rows[np.flatnonzero(ok)[srt]], cache.ter_names, ter_names)
            have = lookup(ter_keys, ck)
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
        pick = lookup(pair_keys(src_all[walk], dst_all[walk], n), ter_keys)
        sel = scipy.sparse.csr_array(
            (np.ones(len(walk)), (walk, pick)), shape=(len(src_all), len(ter_keys))
        )
        arc_rows = scipy.sparse.csr_array(sel @ ter_rows)
        arc_rows.sort_indices()
    return ter_names, ter_keys, ter_rows, arc_rows


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
        stacklevel=6,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        return level.replace(waypoints=pts[keep], links=tuple(links), offmesh_links=tuple(offmesh), on_bad_waypoint="warn")
