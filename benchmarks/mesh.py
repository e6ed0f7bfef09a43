"""Navigation meshes: PolyMesh build time and exact Polyanya queries against waypoint graphs.

Run: ``python -m benchmarks.mesh [--runs 3] [--rounds 15] [--seconds 3] [--block 0.005] [--queries 200] [--maps arena lak303d Berlin_0_256
maze512-1-0] [--exact-limit 6000] [--epf-limit 500]``.

Maps are Moving AI maps taken as polygons (blocked cells -> obstacles, the map rectangle -> the
bounds; ``../shared/data/movingai``), with the queries of :mod:`benchmarks.anyangle` (arena: the
160 published lattice-point queries). Everything is prepared before timing: the level, the
mesh and its query object, the graphs and their query objects, one warm-up call each.

Timing, the same for every method (one Python call per query, validation included):

- the ``x .. of mesh`` ratio: each peer is timed against the mesh in rounds of two blocks, the
  mesh's loop over all the queries and the peer's, back to back (their order swapped every other
  round), each repeated until it has run at least ``--block`` seconds (5 ms; one pass of arena's
  160 queries takes well under a millisecond on the mesh); at least ``--rounds`` rounds, more
  until ``--seconds`` have passed. A round's ratio divides the peer's mean by the mesh's, and
  the table shows the median of the rounds' ratios (their spread beside it).
- ``mean``: the median of the method's blocks' means (seconds per query; the spread of the
  blocks beside it); the mesh's over its blocks against every peer.
- ``best x``: the ratio of the two fastest blocks (the least disturbed ones).
- ``median`` and ``p95`` over queries: the same queries timed one by one ``--runs`` times, each
  query's best (on a shared machine the scheduler's 10-20 ms pauses would otherwise swamp
  sub-millisecond queries).

Why paired rounds of short blocks (looked into for issue 19; arena: a mesh query of 2.4-2.7 us
in a quiet loop): this machine's speed, not the loops, moves the means. A pure-Python loop timed
alternately with the mesh loop slows in step with it (correlation 0.54 over 400 passes), by 2x
at times, in spells of 10-50 ms; the 4 ms stalls are scheduler ticks given to other processes
(HZ = 250). Rounds of 50 ms per method, with the medians of each method's rounds divided,
gave arena 19.3x-29.0x in four estimates of one process (one method's median from a fast
spell, the other's from a slow one); rounds of 5 ms blocks, each round's ratio taken on its
own, gave 21.8x-23.7x on the same queries in the same process, and their best blocks' ratio
23.2x-23.9x. A short block is no help to the mesh: its first pass after a peer's block is
about 24% slower (cold caches), which over the ~10 passes of a 5 ms block is about 2% more.
The loops themselves: no garbage collection runs inside a timed loop (counted with
``gc.callbacks``), and the mesh's paths reuse their output block once nobody holds it (a new
block's fresh memory cost 5-90 us every ~160 queries).

The table also shows the build time and how the lengths compare with the mesh's (``exact``: all within
1e-6 relative, with the largest relative difference; how many of a peer's paths are shorter than the
mesh's, which no valid path may be: on maps too big for the exact graph, such as maze512, this is the
check; ``ratio``: mean cost / mesh cost). Peers: the ``k=None`` corner waypoint graph
(the visibility graph: exact; built only on maps with at most ``--exact-limit`` corners, as its
build grows quadratically), the ``k=8`` cone graph with ``refine="any_angle"``, and
extremitypathfinder when it is installed (skipped cleanly otherwise; only on maps with at most
``--epf-limit`` corners, as its build and queries are slow: 1.5 s and 19 ms per query on arena).

Each map's header also gives the mesh's mean node expansions per query.

Last, the build of the jagged map of :mod:`benchmarks.query` (random 256 x 256 cells, 8% blocked,
about 17,000 corners): ``build_navmesh`` with the level's line of sight made beforehand (median,
min and max of at least 5 runs), and the line of sight itself (which a fresh level builds first; the waypoint graph
shares it).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import time
from statistics import median

import numpy as np

from benchmarks.anyangle import grid_level, map_blocked, queries_for
from benchmarks.timing import machine_line
from navmesh.errors import NoPathError
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery


def per_query_times(fn, pairs, runs: int) -> tuple[np.ndarray, list]:
    """Per-query best seconds over runs (on a shared machine the scheduler's 10-20 ms pauses
    otherwise swamp sub-millisecond queries), and the last run's results."""
    times = np.empty((runs, len(pairs)))
    out: list = [None] * len(pairs)
    for r in range(runs):
        for i, (s, g) in enumerate(pairs):
            t = time.perf_counter()
            try:
                out[i] = fn(s, g)
            except NoPathError:
                out[i] = float("inf")
            times[r, i] = time.perf_counter() - t
    return times.min(axis=0), out


def extremity_environment(level):
    """extremitypathfinder's environment of the level's largest free region (boundary + holes)."""
    from extremitypathfinder import PolygonEnvironment
    import shapely

    from navmesh.polymesh.build import free_space

    free = free_space(level)
    part = max(shapely.get_parts(free), key=lambda g: g.area)
    part = shapely.simplify(shapely.normalize(part), 0.0)
    outer = np.asarray(shapely.orient_polygons(part, exterior_cw=False).exterior.coords)[:-1]
    holes = [np.asarray(r.coords)[:-1] for r in shapely.orient_polygons(part, exterior_cw=False).interiors]
    env = PolygonEnvironment()
    env.store(outer, holes, validate=False)
    if not env.prepared:  # recent versions prepare in store()
        env.prepare()
    return env


def epf_cost(env, s, g) -> float:
    try:
        _, length = env.find_shortest_path(tuple(s), tuple(g), verify=False)
    except Exception:  # a point outside its region, or no path
        return float("inf")
    return float("inf") if length is None else float(length)


def _loop(fn, pairs) -> None:
    for s, g in pairs:
        try:
            fn(s, g)
        except NoPathError:
            pass


def _repeats(fn, pairs, block: float) -> int:
    """How many passes over ``pairs`` make ``fn``'s loop last at least ``block`` seconds."""
    t = time.perf_counter()
    _loop(fn, pairs)
    return max(1, math.ceil(block / max(time.perf_counter() - t, 1e-9)))


def paired_rounds(base, peer, pairs, rounds: int, seconds: float, block: float) -> tuple[list[float], list[float]]:
    """Seconds per query of ``base``'s and ``peer``'s loops over ``pairs``, one value each per
    round: the two blocks back to back, in swapped order every other round, each repeating its
    loop for at least ``block`` seconds; at least ``rounds`` rounds, more until ``seconds`` have
    passed, at most 20 times ``rounds`` (module notes)."""
    fns = (base, peer)
    repeats = [_repeats(fn, pairs, block) for fn in fns]
    means: tuple[list[float], list[float]] = ([], [])
    t_start = time.perf_counter()
    r = 0
    while r < rounds or (time.perf_counter() - t_start < seconds and r < 20 * rounds):
        for k in ((0, 1) if r % 2 == 0 else (1, 0)):
            t = time.perf_counter()
            for _ in range(repeats[k]):
                _loop(fns[k], pairs)
            means[k].append((time.perf_counter() - t) / (len(pairs) * repeats[k]))
        r += 1
    return means


def timed(fn, runs: int):
    best, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        best.append(time.perf_counter() - t)
    return out, median(best)


def row(name: str, build: float, times: np.ndarray, means: list[float], costs: np.ndarray, ref: np.ndarray,
        base_means: list[float]) -> str:
    """One method's line; ``means`` and ``base_means`` (the mesh's): the paired rounds' values
    (the mesh's own line: the same list twice)."""
    ok = np.isfinite(costs) & np.isfinite(ref)
    worst = float(np.max(np.abs(costs[ok] - ref[ok]) / np.maximum(ref[ok], 1.0))) if ok.any() else 0.0
    exact = worst <= 1e-6 and ok.sum() == np.isfinite(ref).sum()
    ratio = float(np.mean(costs[ok] / np.maximum(ref[ok], 1e-300))) if ok.any() else float("nan")
    # no valid path is shorter than the exact one: a peer shorter than the mesh shows a mesh error
    shorter = int(np.count_nonzero(costs[ok] < ref[ok] * (1 - 1e-9)))
    ratios = [m / b for m, b in zip(means, base_means)]
    rounds = (f"{len(means)} blocks" if means is base_means else
              f"rounds x{min(ratios):.1f}-{max(ratios):.1f}, best x{min(means) / min(base_means):.1f}, {len(ratios)} rounds")
    return (f"  {name:<22} build {build:8.3f} s  query mean {median(means) * 1e6:9.1f} us (blocks "
            f"{min(means) * 1e6:.1f}-{max(means) * 1e6:.1f})  median {np.median(times) * 1e6:9.1f} us  p95 "
            f"{np.percentile(times, 95) * 1e6:9.1f} us  x{median(ratios):7.1f} of mesh ({rounds})  "
            f"{'exact' if exact else 'NOT exact'} (max rel diff {worst:.1e}, {shorter} shorter than the mesh)  "
            f"ratio {ratio:.5f}")


def jagged_build(runs: int) -> None:
    """Build time of the jagged 256 x 256 map (module notes)."""
    blocked = np.random.default_rng(1).random((256, 256)) < 0.08
    level = grid_level(blocked)
    _, t_los = timed(level.line_of_sight, 1)
    spread = []
    for _ in range(max(runs, 5)):  # a few more runs than the maps: the spread is reported
        t = time.perf_counter()
        mesh = build_navmesh(level)
        spread.append(time.perf_counter() - t)
    print(f"jagged 256 x 256 map, 8% blocked: {int(np.count_nonzero(mesh.is_corner))} corners -> {mesh.n_polygons} "
          f"polygons; build_navmesh median {median(spread):.3f} s of {len(spread)} runs (min {min(spread):.3f}, max "
          f"{max(spread):.3f}), the level's line of sight before it {t_los:.3f} s")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="per-query timings (median, p95): best of this many runs")
    ap.add_argument("--rounds", type=int, default=15, help="paired rounds of the mesh and each peer, at least")
    ap.add_argument("--seconds", type=float, default=3.0, help="more paired rounds per peer until this much time")
    ap.add_argument("--block", type=float, default=0.005, help="seconds a method's block of a round lasts, at least")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--maps", nargs="+", default=["arena", "lak303d", "Berlin_0_256", "maze512-1-0"])
    ap.add_argument("--exact-limit", type=int, default=6000)
    ap.add_argument("--epf-limit", type=int, default=500, help="largest corner count given to extremitypathfinder")
    ap.add_argument("--no-jagged", action="store_true", help="skip the jagged-map build")
    args = ap.parse_args(argv)
    print(machine_line())
    have_epf = importlib.util.find_spec("extremitypathfinder") is not None
    if not have_epf:
        print("extremitypathfinder is not installed (pip install extremitypathfinder): skipped")
    for name in args.maps:
        try:
            blocked = map_blocked(name)
            pairs, published = queries_for(name, args.queries)
        except FileNotFoundError as exc:
            print(f"{name}: skipped ({exc})")
            continue
        fresh, t_fresh = timed(lambda: build_navmesh(grid_level(blocked)), 1)
        level = grid_level(blocked)
        level.line_of_sight()  # shared by every method: not part of the build times below
        mesh, t_mesh = timed(lambda: build_navmesh(level), args.runs)
        corners = int(np.count_nonzero(mesh.is_corner))
        query = MeshQuery(mesh)
        # every method: (name, build seconds, the call, its per-query best times, its lengths)
        methods: list[list] = [["PolyMesh (Polyanya)", t_mesh, query.find_path]]
        skipped = []
        if corners <= args.exact_limit:
            nav, t_nav = timed(lambda: build_waypoint_graph(level, corners=True, k=None, visibility="kernel"), 1)
            nq = NavQuery(nav)
            methods.append(["k=None corners (exact)", t_nav, lambda s, g: nq.find_path(s, g, refine="none")])
        else:
            skipped.append(f"k=None corners: skipped ({corners} corners > --exact-limit {args.exact_limit})")
        nav8, t8 = timed(lambda: build_waypoint_graph(level, corners=True, k=8, linking="cones", visibility="kernel"), 1)
        methods.append(["k=8 cones any_angle", t8, NavQuery(nav8).find_path])
        if have_epf and corners <= args.epf_limit:
            epf, t_epf = timed(lambda: extremity_environment(level), 1)
            methods.append(["extremitypathfinder", t_epf, lambda s, g: epf_cost(epf, s, g)])
        elif have_epf:
            skipped.append(f"extremitypathfinder: skipped ({corners} corners > --epf-limit {args.epf_limit})")
        for m in methods:
            m[2](*pairs[0])  # warm-up call
            times, res = per_query_times(m[2], pairs, args.runs)
            m += [times, np.array([p if isinstance(p, float) else p.cost for p in res], dtype=float)]
        paired = [paired_rounds(methods[0][2], m[2], pairs, args.rounds, args.seconds, args.block)
                  for m in methods[1:]]
        mesh_means = [t for base, _ in paired for t in base]
        costs = methods[0][4]
        print(f"{name}: {mesh.n_polygons} polygons, {mesh.n_vertices} vertices ({corners} corners), "
              f"{len(pairs)} queries; ratio: median of at least {args.rounds} paired rounds' ratios, median / p95: best of "
              f"{args.runs} runs per query; mesh build from a fresh level (line of sight included) {t_fresh:.3f} s")
        if published is not None:
            worst = float(np.max(np.abs(costs - published) / published))
            print(f"  mesh vs published lengths: worst relative difference {worst:.2e}")
        expansions = [query.find_path(s, g).expansions for (s, g), c in zip(pairs, costs) if math.isfinite(c)]
        print(f"  mesh: {np.mean(expansions):.1f} expansions per query (mean; a corridor step counts one)")
        for (label, build, _, times, c), (base, m) in zip(methods, [(mesh_means, mesh_means), *paired]):
            print(row(label, build, times, m, c, costs, base))
        for line in skipped:
            print(f"  {line}")
    if not args.no_jagged:
        jagged_build(args.runs)


if __name__ == "__main__":
    main()
