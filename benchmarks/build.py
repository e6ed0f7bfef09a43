"""Waypoint-graph build benchmark: build time, bulk visibility vs a per-segment loop, local updates.

Run: ``python -m benchmarks.build [--runs 3]``. Every figure is the median over ``--runs`` runs;
inputs (levels, segment arrays) are made before timing.

1. A 10,000-waypoint level with 500 rectangular obstacles (2040 x 2040 world units), k=8:
   build time with the shapely backend (``LineOfSight.blocked``, one bulk call per stage) and the
   numba kernel backend; then the visibility test alone on the build's k-nearest candidate
   segments, in bulk and in a Python loop calling ``LineOfSight.blocked`` one segment at a time
   (the loop is timed on a subset and scaled; the ratio is the speed-up of the bulk call).
2. A jagged grid map (random 256 x 256 cells, 8% blocked, ~17,000 corner waypoints), k=8 corners.
3. Local update vs rebuild: a door (obstacle) closes and opens again; ``NavMap.update``
   against ``build_waypoint_graph`` on the same new level (its LineOfSight made beforehand); the
   two graphs are checked equal. Then the whole door operation, ``with_obstacle`` (new Level:
   validation and LineOfSight, plus the update), against a new Level plus a rebuild.
4. The two line-of-sight backends on big levels (``--backends``; only this part with
   ``--backends-only``): a 1,600-crate level (6,400 corners), an RTS-like level (rotated rectangles
   and convex polygons on a 4096 x 4096 field, about 2,000 corners) and arena's corners, each with
   ``k=8`` and ``k=None`` corner builds (``--levels``, ``--k``, ``--backend`` choose). ``--levels jagged
   --k None --backend kernel`` is the all-pairs build of part 2's ~17,000-corner jagged map (133
   million pairs); ``jagged128`` / ``jagged96`` are smaller jagged maps the shapely backend finishes
   in minutes. Every (level, k, backend) runs in a fresh subprocess
   (``--one``) that builds the level, loads the kernels with a tiny build, then times the build;
   its peak memory is the process's high-water mark (``VmHWM`` of ``/proc/self/status``, or
   ``ru_maxrss``: what the OS saw, GEOS and numpy included, level and imports too), beside
   tracemalloc's peak during one more, untimed build (tracing slows numpy-heavy code most).
   Backends of one level and k run one after the other, so their time ratio compares runs under
   the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc
import warnings
from statistics import median

import numpy as np
import shapely
import shapely.affinity
from scipy.spatial import cKDTree

from benchmarks.timing import machine_line
from benchmarks.anyangle import grid_level
from navmesh._kernels import los as LK
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for as _wall_grid
from navmesh.errors import NavmeshWarning
from navmesh.level import Level

warnings.simplefilter("ignore", NavmeshWarning)


def timed(fn, runs: int):
    """(result of the last run, median seconds over runs)."""
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, median(times)


def random_level(n_waypoints: int = 10_000, n_obstacles: int = 500, seed: int = 3) -> Level:
    rng = np.random.default_rng(seed)
    corner = rng.uniform(0, 2000, (n_obstacles, 2))
    size = rng.uniform(5, 40, (n_obstacles, 2))
    obstacles = list(shapely.box(corner[:, 0], corner[:, 1], corner[:, 0] + size[:, 0], corner[:, 1] + size[:, 1]))
    blocked = shapely.union_all(obstacles)
    pts = rng.uniform(0, 2040, (2 * n_waypoints, 2))
    pts = pts[~shapely.intersects_xy(blocked, pts[:, 0], pts[:, 1])][:n_waypoints]
    return Level.rectangle(2040, 2040, obstacles=obstacles, waypoints=pts)


def crate_level(n_side: int = 40, field: float = 4096.0, seed: int = 5) -> Level:
    """``n_side**2`` apart axis-aligned crates on a square field, one per grid cell (4 corners each)."""
    rng = np.random.default_rng(seed)
    cell = field / n_side
    i, j = np.meshgrid(np.arange(n_side), np.arange(n_side))
    size = rng.uniform(0.2, 0.45, (n_side * n_side, 2)) * cell
    lo = np.c_[i.ravel(), j.ravel()] * cell + rng.uniform(0.05, 0.5, (n_side * n_side, 2)) * cell
    boxes = shapely.box(lo[:, 0], lo[:, 1], lo[:, 0] + size[:, 0], lo[:, 1] + size[:, 1])
    return Level((0, 0, field, field), obstacles=list(boxes))


def rts_level(n_rect: int = 420, n_poly: int = 210, field: float = 4096.0, seed: int = 11) -> Level:
    """Rotated rectangles and convex polygons, overlapping at random, on a square field (an RTS map's
    rocks and buildings): about 2,000 corners."""
    rng = np.random.default_rng(seed)
    obstacles = []
    for _ in range(n_rect):
        c = rng.uniform(100, field - 100, 2)
        w, h = rng.uniform(20, 160, 2)
        box = shapely.box(c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)
        obstacles.append(shapely.affinity.rotate(box, rng.uniform(0, 180), origin="centroid"))
    for _ in range(n_poly):
        c = rng.uniform(100, field - 100, 2)
        angle = np.sort(rng.uniform(0, 2 * np.pi, rng.integers(5, 9)))
        radius = rng.uniform(20, 90, len(angle))
        obstacles.append(shapely.Polygon(np.c_[c[0] + radius * np.cos(angle), c[1] + radius * np.sin(angle)]).convex_hull)
    return Level((0, 0, field, field), obstacles=obstacles)


def arena_level() -> Level:
    from benchmarks.anyangle import map_blocked
    return grid_level(map_blocked("arena"))


def jagged_level(side: int = 256, seed: int = 1) -> Level:
    """The jagged grid map of part 2 (random ``side`` x ``side`` cells, 8% blocked): about 17,000
    corners at ``side=256``; smaller sides give the same kind of level with fewer corners."""
    return grid_level(np.random.default_rng(seed).random((side, side)) < 0.08)


BIG_LEVELS = {"crates": crate_level, "rts": rts_level, "arena": arena_level, "jagged": jagged_level,
              "jagged128": lambda: jagged_level(128), "jagged96": lambda: jagged_level(96)}


def _status_mb(field: str) -> float | None:
    """A memory line of /proc/self/status (``VmHWM``, ``VmRSS``) in MB; None where /proc is missing."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def peak_mb() -> float:
    """This process's peak resident memory in MB (VmHWM; ru_maxrss where /proc is missing)."""
    peak = _status_mb("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one_build(level_name: str, k: int | None, backend: str, runs: int) -> dict:
    """Build ``level_name``'s corner graph ``runs`` times with one backend (run in a fresh process).

    Memory: ``peak_mb`` is the process's high-water mark (imports, level and build together);
    ``base_mb`` the resident memory just before the builds; ``traced_mb`` the peak of the
    allocations tracemalloc sees during the builds (numpy arrays and Python objects, not GEOS).
    """
    level = BIG_LEVELS[level_name]()
    build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]]), visibility="kernel")  # load kernels
    level.line_of_sight()  # made once per level, outside the timing (the Level caches it)
    base = rss_mb()
    cpu = time.process_time()
    nav, t = timed(lambda: build_waypoint_graph(level, k=k, corners=True, visibility=backend), runs)
    cpu = (time.process_time() - cpu) / runs
    # one more build for tracemalloc's peak, untimed: tracing every allocation slows the build, and
    # the numpy-heavy shapely backend far more than the kernel (about 30% on the crates level)
    tracemalloc.start()
    build_waypoint_graph(level, k=k, corners=True, visibility=backend)
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return {"seconds": t, "peak_mb": peak_mb(), "base_mb": base, "traced_mb": traced, "nodes": nav.n_nodes,
            "arcs": int(nav.graph.n_edges), "cpu_s": cpu}


def rss_mb() -> float:
    """This process's resident memory now, in MB (VmRSS; 0 where /proc is missing)."""
    return _status_mb("VmRSS") or 0.0


def backends(levels: list[str], ks: list[int | None], runs: int, which: tuple[str, ...] = ("kernel", "shapely")) -> None:
    print("\n== 4. line-of-sight backends on big levels (corner waypoints; one fresh process per backend)")
    print("  peak MB: the process's high-water mark (VmHWM: imports, level and build); traced MB: tracemalloc's peak"
          " during one more, untimed build (numpy and Python, not GEOS)")
    print("  build s: median wall time of a build; cpu s: its CPU time (single-threaded: steadier than wall time under load)")
    print(f"  {'level':<9} {'k':>4} {'corners':>7} {'arcs':>9} {'backend':>7} {'build s':>8} {'cpu s':>7} {'peak MB':>8} "
          f"{'traced MB':>9}  load before / after")
    for name in levels:
        for k in ks:
            found, load = {}, [os.getloadavg()[0]]
            for backend in which:
                cmd = [sys.executable, "-m", "benchmarks.build", "--one", name, str(k), backend, "--runs", str(runs)]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                found[backend] = r = json.loads(out.strip().splitlines()[-1])
                load.append(os.getloadavg()[0])
                print(f"  {name:<9} {str(k):>4} {r['nodes']:>7} {r['arcs']:>9} {backend:>7} {r['seconds']:>8.2f} "
                      f"{r['cpu_s']:>7.1f} {r['peak_mb']:>8.0f} {r['traced_mb']:>9.0f}  {load[-2]:.1f} / {load[-1]:.1f}",
                      flush=True)
            if len(found) == 2:
                kern, shp = found["kernel"], found["shapely"]
                print(f"  {name:<9} {str(k):>4} shapely / kernel build: {shp['seconds'] / kern['seconds']:.1f}x wall time, "
                      f"{shp['cpu_s'] / kern['cpu_s']:.1f}x CPU time"
                      f"{'' if kern['arcs'] == shp['arcs'] else '  ARCS DIFFER'}")


def same_graph(a, b) -> bool:
    return all(np.array_equal(getattr(a.graph, n), getattr(b.graph, n)) for n in ("points", "indptr", "indices", "lengths", "tags"))


def update_vs_rebuild(nav, door, runs: int, label: str) -> None:
    closed_level = nav.level.replace(obstacles=(*nav.level.obstacles, door), on_bad_waypoint="warn")
    closed_level.line_of_sight(agent_radius=nav.options.agent_radius)  # both start from the new level
    opts = dict(k=nav.options.k, corners=nav.options.corners, visibility=nav.options.visibility)
    closed, t_update = timed(lambda: nav.update(closed_level), runs)
    rebuilt, t_build = timed(lambda: build_waypoint_graph(closed_level, **opts), runs)
    reopened, t_reopen = timed(lambda: closed.update(nav.level), runs)
    print(f"  {label}: close door: update {t_update:.3f} s, rebuild {t_build:.3f} s -> {t_build / t_update:.1f}x faster "
          f"(graphs equal: {same_graph(closed, rebuilt)}); open again: update {t_reopen:.3f} s "
          f"(equal to the original: {same_graph(reopened, nav)})")
    # the whole door operation: the new Level (validation and its LineOfSight) plus the update,
    # against making that Level from scratch and building
    fresh = lambda: build_waypoint_graph(Level(nav.level.bounds, obstacles=closed_level.obstacles,
                                               waypoints=nav.level.waypoints, on_bad_waypoint="warn"), **opts)
    _, t_with = timed(lambda: nav.with_obstacle(door), runs)
    _, t_fresh = timed(fresh, runs)
    print(f"  {label}: nav.with_obstacle(door) {t_with:.3f} s (new Level + update), new Level + rebuild {t_fresh:.3f} s "
          f"-> {t_fresh / t_with:.1f}x faster")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--loop-sample", type=int, default=3000, help="segments timed in the per-segment loop")
    ap.add_argument("--backends", action="store_true", help="also part 4: both backends on big levels")
    ap.add_argument("--backends-only", action="store_true", help="only part 4")
    ap.add_argument("--levels", nargs="+", default=list(BIG_LEVELS), choices=list(BIG_LEVELS), help="part 4's levels")
    ap.add_argument("--k", nargs="+", default=["8", "None"], help="part 4's k values (None: all pairs)")
    ap.add_argument("--backend", nargs="+", default=["kernel", "shapely"], choices=["kernel", "shapely"],
                    help="part 4's backends (both: their time ratio is printed)")
    ap.add_argument("--one", nargs=3, metavar=("LEVEL", "K", "BACKEND"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        name, k, backend = args.one
        print(json.dumps(one_build(name, None if k == "None" else int(k), backend, args.runs)))
        return
    print(machine_line())
    if args.backends_only:
        backends(args.levels, [None if k == "None" else int(k) for k in args.k], args.runs, tuple(args.backend))
        return
    build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]]), visibility="kernel")  # compile

    print("== 1. 10,000 waypoints, 500 obstacles, k=8")
    level, t_level = timed(random_level, 1)
    los = level.line_of_sight()
    print(f"  level: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles "
          f"(Level {t_level:.2f} s incl. its LineOfSight)")
    for vis in ("shapely", "kernel"):
        nav, t = timed(lambda: build_waypoint_graph(level, k=8, visibility=vis), args.runs)
        print(f"  build k=8 ({vis:>7} visibility): {t:.3f} s -> {nav.graph.n_edges} arcs")
    pts = level.waypoints
    _, idx = cKDTree(pts).query(pts, k=9)
    pairs = np.unique(np.sort(np.column_stack([np.repeat(np.arange(len(pts)), 8), idx[:, 1:].ravel()]), axis=1), axis=0)
    a, b = pts[pairs[:, 0]], pts[pairs[:, 1]]
    bulk, t_bulk = timed(lambda: los.blocked(a, b), args.runs)
    sample = np.random.default_rng(0).choice(len(a), size=min(args.loop_sample, len(a)), replace=False)

    def loop():
        return np.array([los.blocked(a[i : i + 1], b[i : i + 1])[0] for i in sample])

    looped, t_loop = timed(loop, args.runs)
    assert (looped == bulk[sample]).all()
    t_loop_all = t_loop * len(a) / len(sample)
    walls = _wall_grid(los)
    kern, t_kernel = timed(lambda: ~LK.segments_free(a, b, *walls), args.runs)
    assert (kern == bulk).all()
    print(f"  visibility of the {len(a)} candidate segments: bulk LineOfSight.blocked {t_bulk:.3f} s; "
          f"per-segment loop {t_loop_all:.2f} s (scaled from {len(sample)}) -> bulk is {t_loop_all / t_bulk:.1f}x faster; "
          f"numba kernel {t_kernel:.4f} s ({t_bulk / t_kernel:.0f}x faster than bulk shapely)")

    print("\n== 2. jagged grid map (random 256 x 256, 8% blocked), k=8 corner waypoints")
    blocked = np.random.default_rng(1).random((256, 256)) < 0.08
    grid, t_grid = timed(lambda: grid_level(blocked), 1)
    _, t_gridlos = timed(lambda: grid.line_of_sight(), 1)
    print(f"  level: {len(grid.obstacles)} obstacle rectangles ({t_grid:.2f} s), its LineOfSight {t_gridlos:.2f} s (once)")
    for vis in ("kernel", "shapely"):
        nav_g, t = timed(lambda: build_waypoint_graph(grid, k=8, corners=True, visibility=vis), 1 if vis == "shapely" else args.runs)
        print(f"  build k=8 corners ({vis:>7} visibility): {t:.2f} s -> {nav_g.n_nodes} corner waypoints, {nav_g.graph.n_edges} arcs")

    print("\n== 3. local update vs rebuild (door = a new obstacle)")
    for vis in ("shapely", "kernel"):
        nav = build_waypoint_graph(level, k=8, visibility=vis)
        update_vs_rebuild(nav, shapely.box(1000, 1000, 1030, 1060), args.runs, f"10k level, {vis}")
    nav_g = build_waypoint_graph(grid, k=8, corners=True, visibility="kernel")
    update_vs_rebuild(nav_g, shapely.box(120, 120, 124, 126), args.runs, "jagged map, corners, kernel")
    if args.backends:
        backends(args.levels, [None if k == "None" else int(k) for k in args.k], args.runs, tuple(args.backend))


if __name__ == "__main__":
    main()
