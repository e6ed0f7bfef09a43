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
"""

from __future__ import annotations

import argparse
import time
import warnings
from statistics import median

import numpy as np
import shapely
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
    args = ap.parse_args(argv)
    print(machine_line())
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


if __name__ == "__main__":
    main()
