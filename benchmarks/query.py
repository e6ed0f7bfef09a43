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
"""

from __future__ import annotations

import argparse
import json
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


def per_query_median(fn, pairs, runs: int) -> float:
    """Median over runs of the median per-query seconds."""
    out = []
    for _ in range(runs):
        times = []
        for s, g in pairs:
            t = time.perf_counter()
            fn(s, g)
            times.append(time.perf_counter() - t)
        out.append(median(times))
    return median(out)


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
            t_module = per_query_median(lambda s, g, nav=nav: find_path(nav, s, g), pairs, runs)
            line = (f"  {name:<8} {linking:<8} ({nav.n_nodes} corners, {nav.graph.n_edges} arcs): "
                    f"NavQuery.find_path {1e3 * t_query:.3f} ms, module find_path {1e3 * t_module:.3f} ms")
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
    blocked = np.random.default_rng(1).random((256, 256)) < 0.08
    grid = grid_level(blocked)
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


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="timing runs (medians are printed)")
    ap.add_argument("--baseline", default="main", help="git ref whose module-level find_path is timed too ('' skips)")
    ap.add_argument("--maps", nargs="+", default=["arena", "lak303d", "Berlin_0_256"], help="maps for the quality table")
    args = ap.parse_args(argv)
    NavQuery(build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]]), linking="cones")).find_path([1, 2], [3, 2])
    latency(["arena", "lak303d"], args.runs, args.baseline)
    group_orders(args.runs)
    quality(args.maps)
    builds(max(1, args.runs // 2))


if __name__ == "__main__":
    main()
