"""Query-side benchmark: NavQuery latency, group orders, sliced searches, k=8 path quality, builds.

Run: ``python -m benchmarks.query [--runs 5] [--baseline main] [--maps arena lak303d Berlin_0_256]``.

1. Latency. ``NavQuery.find_path`` (any-angle) on the arena and lak303d corner levels (k=8, both
   linkings; Moving AI maps from ``../shared/data``, made as in ``benchmarks/anyangle.py``): the
   median over the queries of the per-query time (median over ``--runs`` runs), next to the
   module-level ``find_path`` of this tree (a cached query) and, in a subprocess started in the
   same run, the module-level ``find_path`` of ``--baseline`` (a git ref, exported with ``git
   archive``; ``--baseline ''`` skips it) on the same level and queries.
2. Group orders. ``find_paths`` for 500 (start, goal) pairs on arena: total time and the ratio
   of the time per pair to single ``find_path`` calls. A sliced search advanced 8 expansions at a
   time, against the one-shot search.
3. Quality. k=8 corner graphs, default refinement, both linkings: mean and worst ratio of the
   cost to the exact any-angle length (the unlimited-k visibility graph of the corners).
4. Builds. A 17,000-corner jagged map (random 256 x 256 cells, 8% blocked) at k=8 with each
   linking; 10,000 waypoints with 500 obstacles at k=8 (kernel visibility).
5. Big level latency. ``NavQuery.find_path`` on that jagged map (k=8 cones, any-angle and
   ``refine="none"``), 200 random free-cell pairs, median per query including the Python call;
   peers on the same graph between the waypoints the positions snap to: ``navmesh.astar``,
   networkx ``astar_path_length`` (Euclidean heuristic) and scipy ``csgraph.dijkstra`` (one
   source to all, its only mode); and the C++ A* anchor (``../shared/anchors/knn_graph/run.sh``,
   10,000 nodes) next to ``navmesh.astar`` on the anchor's own graph, all in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from statistics import median

import numpy as np

from benchmarks.anyangle import (
    LOCAL,
    SHARED,
    grid_level,
    map_blocked,
    queries_for,
    timed,
)
from benchmarks.build import random_level
from navmesh.errors import NavmeshWarning
from navmesh.level import Level
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery, find_path

ROOT = Path(__file__).resolve().parents[1]

warnings.simplefilter("ignore", NavmeshWarning)

_BASELINE = """
import json, sys, time
from statistics import median
import numpy as np
from benchmarks.anyangle import grid_level
from navmesh.io.movingai import read_map
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import find_path
path, runs, pairs = sys.argv[1], int(sys.argv[2]), json.loads(sys.stdin.read())
blocked = ~np.isin(read_map(path).chars, list(".GS"))
nav = build_waypoint_graph(grid_level(blocked), k=8, corners=True)
for s, g in pairs[:3]:
    find_path(nav, s, g)
per_run = []
for _ in range(runs):
    times = []
    for s, g in pairs:
        t = time.perf_counter()
        find_path(nav, s, g)
        times.append(time.perf_counter() - t)
    per_run.append(median(times))
print(json.dumps(median(per_run)))
"""


def per_query_stats(fn, pairs, runs: int, clock=time.perf_counter) -> tuple[float, float]:
    """Median over runs of the median and of the mean per-query seconds (the mean shows the
    slow tail that a median hides), on ``clock`` (wall time by default; ``time.thread_time``
    gives the CPU time, which a loaded machine disturbs far less)."""
    medians, means = [], []
    for _ in range(runs):
        times = []
        for s, g in pairs:
            t = clock()
            fn(s, g)
            times.append(clock() - t)
        medians.append(median(times))
        means.append(sum(times) / len(times))
    return median(medians), median(means)


def per_query_median(fn, pairs, runs: int) -> float:
    """Median over runs of the median per-query seconds."""
    return per_query_stats(fn, pairs, runs)[0]


def baseline_median(ref: str, name: str, pairs, runs: int) -> float | None:
    """Median per-query seconds of ``ref``'s module-level find_path (k=8 corners), in a subprocess."""
    if not ref:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "navmesh", "benchmarks"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        map_path = next(p for p in (SHARED / "movingai" / f"{name}.map", LOCAL / f"{name}.map") if p.exists())
        done = subprocess.run([sys.executable, "-c", _BASELINE, str(map_path), str(runs)], input=json.dumps(pairs),
                              capture_output=True, text=True, env={"PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"}, cwd=tmp,
                              check=False)
        if done.returncode != 0:
            print(f"  (baseline {ref} failed: {done.stderr.strip().splitlines()[-1:]})")
            return None
        return float(done.stdout.strip().splitlines()[-1])


def latency(names: list[str], runs: int, ref: str) -> None:
    print("== 1. find_path latency, k=8 corner levels, any-angle (median per query)")
    for name in names:
        level = grid_level(map_blocked(name))
        pairs, _ = queries_for(name, 200)
        pairs = [(list(map(float, s)), list(map(float, g))) for s, g in pairs]
        old = baseline_median(ref, name, pairs, runs)
        for linking in ("nearest", "cones"):
            nav = build_waypoint_graph(level, k=8, corners=True, linking=linking)
            query = NavQuery(nav)
            query.find_path(*pairs[0])
            find_path(nav, *pairs[0])
            t_query = per_query_median(query.find_path, pairs, runs)
            c_query = per_query_stats(query.find_path, pairs, runs, clock=time.thread_time)[0]
            t_module = per_query_median(lambda s, g, nav=nav: find_path(nav, s, g), pairs, runs)
            line = (f"  {name:<8} {linking:<8} ({nav.n_nodes} corners, {nav.graph.n_edges} arcs): "
                    f"NavQuery.find_path {1e3 * t_query:.3f} ms (CPU {1e3 * c_query:.3f}), "
                    f"module find_path {1e3 * t_module:.3f} ms")
            if old is not None and linking == "nearest":
                line += f"; {ref}'s find_path {1e3 * old:.3f} ms -> {old / t_query:.1f}x faster"
            print(line)


def group_orders(runs: int) -> None:
    print("\n== 2. group orders and sliced searches on arena (k=8 corners, cones, any-angle)")
    level = grid_level(map_blocked("arena"))
    nav = build_waypoint_graph(level, k=8, corners=True, linking="cones")
    query = NavQuery(nav)
    rng = np.random.default_rng(4)
    free = np.argwhere(~map_blocked("arena")) + 0.5
    pick = rng.integers(len(free), size=(500, 2))
    starts, goals = free[pick[:, 0], ::-1], free[pick[:, 1], ::-1]  # (row, col) -> (x, y)
    query.find_paths(starts[:2], goals[:2])
    group, t_group = timed(lambda: query.find_paths(starts, goals, allow_partial=True), runs)
    _, t_single = timed(lambda: [query.find_path(s, g, allow_partial=True) for s, g in zip(starts, goals)], runs)
    print(f"  find_paths, 500 pairs: {1e3 * t_group:.1f} ms in total ({1e3 * t_group / 500:.3f} ms per pair); "
          f"500 single find_path calls {1e3 * t_single:.1f} ms -> group is {t_single / t_group:.2f}x faster per pair")

    def sliced():
        out = []
        for s, g in zip(starts[:100], goals[:100]):
            search = query.start_search(s, g, allow_partial=True)
            while not search.advance(8):
                pass
            out.append(search.result())
        return out

    paths, t_sliced = timed(sliced, runs)
    _, t_one = timed(lambda: [query.find_path(s, g, allow_partial=True) for s, g in zip(starts[:100], goals[:100])], runs)
    same = all(np.array_equal(a.points, b.points) for a, b in zip(paths, group[:100]))
    print(f"  sliced search (8 expansions per advance), 100 queries: {1e3 * t_sliced:.1f} ms vs one-shot "
          f"{1e3 * t_one:.1f} ms ({t_sliced / t_one:.2f}x); same paths: {same}")


def quality(names: list[str]) -> None:
    print("\n== 3. k=8 corner graphs, default refinement: cost / exact any-angle length")
    for name in names:
        level = grid_level(map_blocked(name))
        pairs, _ = queries_for(name, 200)
        starts = np.array([s for s, _ in pairs])
        goals = np.array([g for _, g in pairs])
        exact_nav = build_waypoint_graph(level, k=None, corners=True, visibility="kernel")
        exact = np.array([p.cost for p in NavQuery(exact_nav).find_paths(starts, goals, refine="none")])
        for linking in ("nearest", "cones"):
            nav = build_waypoint_graph(level, k=8, corners=True, linking=linking)
            got = np.array([p.cost for p in NavQuery(nav).find_paths(starts, goals, allow_partial=True)])
            ratio = got / exact
            print(f"  {name:<13} {linking:<8} {len(pairs)} queries: mean {ratio.mean():.4f}, worst {ratio.max():.4f}")


def builds(runs: int) -> None:
    print("\n== 4. builds (k=8)")
    _, grid = jagged_level()
    grid.line_of_sight()  # the level's own line of sight is made once, outside the timing
    for linking in ("cones", "nearest"):
        nav, t = timed(lambda linking=linking: build_waypoint_graph(grid, k=8, corners=True, linking=linking,
                                                                    visibility="kernel"), runs)
        print(f"  jagged 256 x 256 map, {nav.n_nodes} corners, linking={linking:<8}: {t:.2f} s -> {nav.graph.n_edges} arcs")
    level = random_level()
    level.line_of_sight()
    for linking in ("nearest", "cones"):
        nav, t = timed(lambda linking=linking: build_waypoint_graph(level, k=8, linking=linking, visibility="kernel"), runs)
        print(f"  {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, linking={linking:<8}: {t:.3f} s "
              f"-> {nav.graph.n_edges} arcs")


def jagged_level():
    """The 17,000-corner jagged level of sections 4 and 5 (random 256 x 256 cells, 8% blocked)."""
    blocked = np.random.default_rng(1).random((256, 256)) < 0.08
    return blocked, grid_level(blocked)


def _cpp_anchor() -> float | None:
    """Median microseconds per query of the C++ anchor, or None when it cannot run here."""
    script = SHARED.parent / "anchors" / "knn_graph" / "run.sh"
    if not script.exists():
        return None
    done = subprocess.run(["bash", str(script)], capture_output=True, text=True, check=False)
    found = re.search(r"median_us=([0-9.]+)", done.stdout)
    return float(found.group(1)) if done.returncode == 0 and found else None


def big_level(runs: int) -> None:
    import networkx as nx
    from scipy.sparse import csgraph, csr_matrix

    from benchmarks import knn_graph
    from navmesh.graph import NavGraph
    from navmesh.search import astar

    print("\n== 5. find_path latency on the 17,000-corner jagged level (k=8 cones), median per query")
    blocked, level = jagged_level()
    nav = build_waypoint_graph(level, k=8, corners=True, linking="cones", visibility="kernel")
    query = NavQuery(nav)
    free = np.argwhere(~blocked) + 0.5
    pick = np.random.default_rng(7).integers(len(free), size=(200, 2))
    pairs = [(free[a, ::-1].tolist(), free[b, ::-1].tolist()) for a, b in pick]
    query.find_path(*pairs[0])
    t_any, t_any_mean = per_query_stats(query.find_path, pairs, runs)
    t_none, t_none_mean = per_query_stats(lambda s, g: query.find_path(s, g, refine="none"), pairs, runs)
    c_any, c_any_mean = per_query_stats(query.find_path, pairs, runs, clock=time.thread_time)
    g = nav.graph
    nodes = [(query.snap(s), query.snap(g_)) for s, g_ in pairs]
    astar(g, *nodes[0])
    t_ours = per_query_median(lambda u, v: astar(g, u, v), nodes, runs)
    matrix = csr_matrix((np.asarray(g.lengths), g.indices, g.indptr), shape=(g.n_nodes, g.n_nodes))
    t_scipy = per_query_median(lambda u, v: csgraph.dijkstra(matrix, indices=u), nodes[:50], 1)
    graph_nx = nx.from_scipy_sparse_array(matrix, create_using=nx.DiGraph)
    xy = g.points

    def h(a: int, b: int) -> float:
        return float(np.hypot(*(xy[a, :2] - xy[b, :2])))

    t_nx = per_query_median(lambda u, v: nx.astar_path_length(graph_nx, u, v, heuristic=h, weight="weight"),
                            nodes[:50], 1)
    print(f"  {nav.n_nodes} corners, {g.n_edges} arcs. NavQuery.find_path: any-angle {1e3 * t_any:.3f} ms "
          f"(mean {1e3 * t_any_mean:.3f}; CPU time median {1e3 * c_any:.3f}, mean {1e3 * c_any_mean:.3f}), "
          f"refine='none' {1e3 * t_none:.3f} ms (mean {1e3 * t_none_mean:.3f}); load average {os.getloadavg()[0]:.1f}")
    print(f"  node to node on the same graph: navmesh.astar {1e3 * t_ours:.3f} ms, networkx astar "
          f"{1e3 * t_nx:.3f} ms ({t_nx / t_any:.1f}x find_path's time), scipy csgraph.dijkstra (to all) "
          f"{1e3 * t_scipy:.3f} ms ({t_scipy / t_any:.1f}x)")
    pts, anchor_matrix, anchor_queries = knn_graph.load()
    anchor_graph = NavGraph.from_scipy(pts, anchor_matrix)
    cpp = _cpp_anchor()
    if cpp is not None:
        qs = [(int(a), int(b)) for a, b in anchor_queries]
        astar(anchor_graph, *qs[0])
        t_anchor = per_query_median(lambda u, v: astar(anchor_graph, u, v), qs, runs)
        print(f"  C++ anchor (10,000-node k-NN graph): {cpp:.0f} us per query; navmesh.astar on that graph "
              f"{1e6 * t_anchor:.0f} us -> {1e6 * t_anchor / cpp:.2f}x the C++ time")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="timing runs (medians are printed)")
    ap.add_argument("--baseline", default="main", help="git ref whose module-level find_path is timed too ('' skips)")
    ap.add_argument("--maps", nargs="+", default=["arena", "lak303d", "Berlin_0_256"], help="maps for the quality table")
    ap.add_argument("--only-latency", action="store_true", help="sections 1 (arena only) and 5 only")
    args = ap.parse_args(argv)
    if args.only_latency:
        NavQuery(build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]]), linking="cones")).find_path([1, 2], [3, 2])
        latency(["arena"], args.runs, args.baseline)
        big_level(args.runs)
        return
    NavQuery(build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]]), linking="cones")).find_path([1, 2], [3, 2])
    latency(["arena", "lak303d"], args.runs, args.baseline)
    group_orders(args.runs)
    quality(args.maps)
    builds(max(1, args.runs // 2))
    big_level(args.runs)


if __name__ == "__main__":
    main()
