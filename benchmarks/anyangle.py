"""Any-angle path quality: how close k=8 waypoint graphs come to the true shortest paths.

Run: ``python -m benchmarks.anyangle [--runs 3] [--queries 200] [--maps arena lak303d Berlin_0_256]``.

The blocked cells of Moving AI maps (``../shared/data/movingai/``) become obstacles (cell (x, y) is
the square [x, x+1] x [y, y+1], y downward) and the map rectangle is the bounds. Exact any-angle
lengths come from the unlimited-k visibility graph of the corner waypoints (``k=None``); on arena
that graph is first checked against the published Polyanya lengths
(``../shared/data/anyangle/arena.expected.csv``, tolerance 1e-3). Then k=8 graphs (corner
waypoints only, and corners plus a fill of open areas) answer the same queries with
``refine="none"``, ``"smooth"`` and ``"any_angle"``; the table shows the mean and worst ratio of
their cost to the exact length over the queries they solve (a sparse graph may split into islands:
unsolved queries are counted), and the time per query (median over runs of the mean).

Queries: arena uses the 160 published lattice-point queries; the other maps use a fixed random
sample of their ``.scen`` queries, from the centre of the start cell to the centre of the goal cell.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from statistics import median

import numpy as np

from benchmarks.timing import machine_line
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.errors import NoPathError
from navmesh.geometry import cell_rectangles
from navmesh.level import Level
from navmesh.io.movingai import read_map, read_scenarios
from navmesh.waypoints.query import find_path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
LOCAL = ROOT / "tests" / "data" / "anyangle"


def grid_level(blocked: np.ndarray) -> Level:
    """A level whose obstacles are the blocked cells and whose bounds are the map rectangle."""
    return Level((0, 0, blocked.shape[1], blocked.shape[0]), obstacles=cell_rectangles(blocked))


def map_blocked(name: str) -> np.ndarray:
    for folder in (SHARED / "movingai", LOCAL):
        path = folder / f"{name}.map"
        if path.exists():
            return ~np.isin(read_map(path).chars, list(".GS"))
    raise FileNotFoundError(f"{name}.map not found in {SHARED / 'movingai'} or {LOCAL}")


def queries_for(name: str, n: int, seed: int = 7) -> tuple[list[tuple], np.ndarray | None]:
    """(start, goal) pairs, and the published lengths where there are any (arena)."""
    if name == "arena":
        for folder in (SHARED / "anyangle", LOCAL):
            path = folder / "arena.expected.csv"
            if path.exists():
                rows = list(csv.DictReader(path.open()))
                pairs = [((float(r["start_x"]), float(r["start_y"])), (float(r["goal_x"]), float(r["goal_y"]))) for r in rows]
                return pairs, np.array([float(r["expected_euclidean_length"]) for r in rows])
    scen = read_scenarios(SHARED / "movingai" / f"{name}.map.scen")
    pick = np.random.default_rng(seed).choice(len(scen), size=min(n, len(scen)), replace=False)
    pairs = [(tuple(scen.starts[i] + 0.5), tuple(scen.goals[i] + 0.5)) for i in np.sort(pick)]
    return pairs, None


def timed(fn, runs: int):
    """(result of the last run, median seconds over runs)."""
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, median(times)


def cost_or_inf(nav, s, g, refine: str) -> float:
    try:
        return find_path(nav, s, g, refine=refine).cost
    except NoPathError:
        return float("inf")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="timing runs (median is printed)")
    ap.add_argument("--queries", type=int, default=200, help="queries per map (arena: all 160)")
    ap.add_argument("--maps", nargs="+", default=["arena", "lak303d", "Berlin_0_256"])
    ap.add_argument("--fill", type=float, default=4.0, help="fill spacing in cells for the corners+fill graphs")
    args = ap.parse_args(argv)
    print(machine_line())

    find_path(build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]])), [1, 2], [3, 2])  # compile
    for name in args.maps:
        blocked = map_blocked(name)
        level, t_level = timed(lambda: grid_level(blocked), 1)
        pairs, published = queries_for(name, args.queries)
        exact_nav, t_exact = timed(lambda: build_waypoint_graph(level, k=None, corners=True, visibility="kernel"), 1)
        exact = np.array([find_path(exact_nav, s, g, refine="none").cost for s, g in pairs])
        print(f"\n== {name} ({blocked.shape[1]}x{blocked.shape[0]}, {blocked.sum()} blocked cells, "
              f"{len(level.obstacles)} obstacle rectangles, level {t_level:.2f} s)")
        print(f"exact: visibility graph of {exact_nav.n_nodes} corners, {exact_nav.graph.n_edges} arcs, "
              f"built in {t_exact:.2f} s (k=None, kernel visibility); {len(pairs)} queries")
        if published is not None:
            err = np.abs(exact - published)
            print(f"  check against published Polyanya lengths: max |diff| = {err.max():.2e} "
                  f"({(err <= 1e-3).sum()}/{len(err)} within 1e-3)")
        print(f"  {'graph':<22} {'nodes':>6} {'build s':>8} {'refine':<10} {'mean':>8} {'worst':>8} {'ms/query':>9}")
        for label, opts in (("k=8 corners", dict(corners=True)), (f"k=8 corners+fill {args.fill:g}", dict(corners=True, fill_spacing=args.fill))):
            nav, t_build = timed(lambda: build_waypoint_graph(level, k=8, **opts), args.runs)
            for refine in ("none", "smooth", "any_angle"):
                def run():
                    return np.array([cost_or_inf(nav, s, g, refine) for s, g in pairs])

                costs, t = timed(run, args.runs)
                solved = np.isfinite(costs)
                ratio = costs[solved] / exact[solved]
                missed = f"  ({(~solved).sum()} unsolved: the sparse graph splits into islands)" if (~solved).any() else ""
                print(f"  {label:<22} {nav.n_nodes:>6} {t_build:>8.2f} {refine:<10} {ratio.mean():>8.4f} "
                      f"{ratio.max():>8.4f} {1e3 * t / len(pairs):>9.2f}{missed}")


if __name__ == "__main__":
    main()
