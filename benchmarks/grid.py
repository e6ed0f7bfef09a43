"""Grid search benchmark: navmesh octile A* and JPS next to pyastar2d, `pathfinding` and arcade.

Run with ``python -m benchmarks.grid`` from the project root. Uses the Moving AI maps in
``../shared/data/movingai`` (maze512-1-0, lak303d, Berlin_0_256) and their scenario files.

Method: for every map the same queries (spread evenly over the scenario file, so every length
bucket is represented) are prepared before timing; each library then runs all of them in its own
loop. The loops take turns, round after round (so load from other processes on a shared machine
falls on all of them), and the median loop time is reported per query. Ratios are peer time over
navmesh A* time on the very same queries (> 1: navmesh is faster).

The peers do not all solve the same problem:

- ``pathfinding`` (pure Python) with ``DiagonalMovement.only_when_no_obstacle``: the same rule
  (8 neighbours, diagonal sqrt 2, no corner cutting) and the same optimal lengths. It needs
  ``grid.cleanup()`` after each search (O(cells)); that is timed too. Slow, so it gets a subset.
- ``pyastar2d`` (C++) with ``allow_diagonal=True``: cuts corners and charges a diagonal step the
  same as a straight one (the entered cell's weight), with a Chebyshev heuristic. Its paths are
  shorter in steps and its problem is easier; it also checks and copies the whole weight array on
  every call.
- tcod (libtcod's A*, C) as its users set it up: ``tcod.path.AStar(cost, diagonal=1.41)`` made
  once per map (the passable flags as costs), then ``get_path`` per query. Like pyastar2d it cuts
  corners (a diagonal step between two walls is allowed); a diagonal step costs 1.41.
- arcade's ``astar_calculate_path``: cuts corners, diagonal cost 1.42, re-sorts its open set at
  every step and gives up (returns None) after 500 expansions, so it only gets the short queries
  and the number it actually solved is printed.

Then a flow field over the 512x512 maze: time to build one field, and the time for 1,000 units to
look their step up in one call (from cell ids and from world positions).

Last, the speed-limit comparison of issue 13: ``GridMap.find_path`` (JPS+ over the precomputed
jump table, or A* where the table's diagonal reach says JPS barely jumps; see
navmesh.grid.preprocess) next to pyastar2d on the 40 longest queries of a random-obstacle map
(generated like Moving AI's random512-10-*), a room map (generated like Moving AI's 8room)
and a city (Berlin_0_256; room-32-32-4 too when present), with the preprocessing time and memory
of each map and every answer checked against the published optimum (Berlin, room-32-32-4) or
grid A* (generated maps) and plain JPS. ``--only-speed-limit`` runs just that part.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any
from pathlib import Path as FilePath

import numpy as np

from benchmarks.timing import machine_line, stable_times
from navmesh.grid import GridMap
from navmesh.grid.flowfield import FlowField
from navmesh.grid.search import grid_astar, jps_plus, jump_point_search
from navmesh.io.movingai import read_scenarios

DATA = FilePath(__file__).resolve().parents[1].parent / "shared" / "data" / "movingai"
MAPS = ("maze512-1-0", "lak303d", "Berlin_0_256")


def median_time(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``run()`` over ``repeats`` runs, after one untimed warm-up run."""
    return median_times({"run": run}, repeats)["run"]


def median_times(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median wall time of each loop, after one untimed warm-up round: at least ``repeats``
    rounds, more until the medians settle (see :mod:`benchmarks.timing`).

    Every round runs each library's loop once, in turn, so a busy spell on a shared machine
    hits all of them rather than whichever happened to be running.
    """
    return stable_times(runs, min_rounds=repeats, max_rounds=max(4 * repeats, 12), max_seconds=120.0).median


def spread(n_total: int, k: int) -> np.ndarray:
    """``k`` indices spread evenly over ``range(n_total)``."""
    return np.unique(np.linspace(0, n_total - 1, min(k, n_total)).round().astype(int))


def row(label: str, seconds: float, n: int, base: float | None, note: str = "") -> str:
    per = seconds / max(n, 1) * 1e3
    ratio = "" if base is None else f"{seconds / base:8.2f}x"
    return f"  {label:<34} {n:6d} q  {per:10.3f} ms/q  {ratio:>9}  {note}"


def bench_map(name: str, n_queries: int, n_slow: int, repeats: int) -> None:
    grid = GridMap.from_movingai(DATA / f"{name}.map")
    scen = read_scenarios(DATA / f"{name}.map.scen")
    pick = spread(len(scen), n_queries)
    starts = scen.start_cells(grid.width)[pick].tolist()
    goals = scen.goal_cells(grid.width)[pick].tolist()
    optimal = scen.optimal[pick]
    pairs = list(zip(starts, goals))
    print(f"\n{name} ({grid.height}x{grid.width}), {len(pairs)} scenario queries; ratio = peer time / navmesh A* time")

    def run_ours(search, qs: Sequence[tuple[int, int]]) -> Callable[[], list[float]]:
        return lambda: [search(grid, s, t).cost for s, t in qs]

    costs = np.array(run_ours(grid_astar, pairs)())
    wrong = int(np.sum(np.abs(costs - optimal) > 0.0051 + 1e-5 * optimal))
    runs: dict[str, Callable[[], object]] = {
        "astar": run_ours(grid_astar, pairs),
        "jps": run_ours(jump_point_search, pairs),
    }
    try:
        import pyastar2d
    except ImportError:
        pyastar2d = None
    else:
        weights = np.where(grid.blocked, np.inf, 1.0).astype(np.float32)
        w = grid.width
        rc = [(divmod(s, w), divmod(t, w)) for s, t in pairs]

        def run_pyastar() -> None:
            for a, b in rc:
                pyastar2d.astar_path(weights, a, b, allow_diagonal=True)

        runs["pyastar2d"] = run_pyastar
    tcod_astar = tcod_runner(grid, pairs)
    if tcod_astar is not None:
        runs["tcod"] = tcod_astar
    t = median_times(runs, repeats)
    t_astar = t["astar"]
    print(row("navmesh grid_astar", t_astar, len(pairs), t_astar, f"{wrong} lengths off the published optimum"))
    print(row("navmesh jump_point_search", t["jps"], len(pairs), t_astar, "same optimal lengths"))
    if pyastar2d is None:
        print("  pyastar2d: not installed")
    else:
        print(row("pyastar2d (C++)", t["pyastar2d"], len(pairs), t_astar, "cuts corners, diagonal = straight cost"))
    if tcod_astar is None:
        print("  tcod: not installed")
    else:
        print(row("tcod AStar (libtcod, C)", t["tcod"], len(pairs), t_astar, "cuts corners, diagonal 1.41"))

    slow_pairs = [pairs[i] for i in spread(len(pairs), n_slow)]
    try:
        from pathfinding.core.diagonal_movement import DiagonalMovement
        from pathfinding.core.grid import Grid
        from pathfinding.finder.a_star import AStarFinder
    except ImportError:
        print("  pathfinding: not installed")
    else:
        pf_grid = Grid(matrix=(~grid.blocked).astype(int).tolist())
        finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)
        w = grid.width
        xy = [((s % w, s // w), (t % w, t // w)) for s, t in slow_pairs]

        def run_pathfinding() -> None:
            for (sx, sy), (gx, gy) in xy:
                finder.find_path(pf_grid.node(sx, sy), pf_grid.node(gx, gy), pf_grid)
                pf_grid.cleanup()

        t = median_times({"astar": run_ours(grid_astar, slow_pairs), "pf": run_pathfinding}, max(1, repeats // 3))
        print(row("navmesh grid_astar (same subset)", t["astar"], len(slow_pairs), t["astar"]))
        print(row("pathfinding (pure Python)", t["pf"], len(slow_pairs), t["astar"], "same rule, incl. cleanup()"))

    near = np.flatnonzero(scen.optimal <= 12.0)
    near = near[spread(len(near), max(2 * n_slow, 20))] if len(near) else np.arange(min(n_slow, len(scen)))
    short = list(zip(scen.start_cells(grid.width)[near].tolist(), scen.goal_cells(grid.width)[near].tolist()))
    try:
        from arcade.paths import AStarBarrierList, astar_calculate_path
    except ImportError:
        print("  arcade: not installed")
    else:
        # Built without sprites: the barrier list is the blocked cells, the grid size 1, so arcade
        # searches exactly our cells (its y axis = our rows; orientation does not matter here).
        barriers = AStarBarrierList.__new__(AStarBarrierList)
        barriers.grid_size = 1
        barriers.left, barriers.right = 0, grid.width - 1
        barriers.bottom, barriers.top = 0, grid.height - 1
        rows, cols = np.nonzero(grid.blocked)
        barriers.barrier_list = sorted(zip(cols.tolist(), rows.tolist()))
        w = grid.width
        xy = [((s % w, s // w), (t % w, t // w)) for s, t in short]
        solved = sum(astar_calculate_path(a, b, barriers) is not None for a, b in xy)

        def run_arcade() -> None:
            for a, b in xy:
                astar_calculate_path(a, b, barriers, diagonal_movement=True)

        t = median_times({"astar": run_ours(grid_astar, short), "arcade": run_arcade}, max(1, repeats // 3))
        print(row("navmesh grid_astar (short queries)", t["astar"], len(short), t["astar"]))
        print(row("arcade astar_calculate_path", t["arcade"], len(short), t["astar"],
                  f"solved {solved}/{len(short)}; cuts corners, 500-expansion cap"))


def random_map(size: int = 512, density: float = 0.10, seed: int = 10) -> np.ndarray:
    """Walls of a random-obstacle map the way Moving AI's random512-10-* were made: each cell is a
    wall with probability ``density``, independently."""
    return np.random.default_rng(seed).random((size, size)) < density


def room_map(size: int = 512, room: int = 8, seed: int = 8) -> np.ndarray:
    """Walls of a Moving AI style room map ("8room"): square rooms of ``room`` cells separated by
    one-cell walls, each wall between two neighbouring rooms opened by a one-cell door at a random
    place."""
    rng = np.random.default_rng(seed)
    walls = np.zeros((size, size), dtype=bool)
    pitch = room + 1
    walls[room::pitch, :] = True
    walls[:, room::pitch] = True
    for line in range(room, size, pitch):
        for start in range(0, size, pitch):
            door = start + int(rng.integers(0, min(room, size - start)))
            walls[line, door] = False
            walls[door, line] = False
    return walls


def longest_pairs(grid: GridMap, n_pairs: int, n_keep: int, seed: int) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The ``n_keep`` longest of ``n_pairs`` random connected (start, goal) pairs and their A* costs."""
    rng = np.random.default_rng(seed)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    field = FlowField(grid, int(free[len(free) // 2]))
    reach = free[np.isfinite(field.distance.reshape(-1)[free])]
    found = []
    for s, t in rng.choice(reach, (n_pairs, 2)).tolist():
        found.append((grid_astar(grid, s, t).cost, s, t))
    found.sort(reverse=True)
    keep = found[:n_keep]
    return [(s, t) for _, s, t in keep], np.array([c for c, _, _ in keep])


def tcod_runner(grid: GridMap, pairs: Sequence[tuple[int, int]]) -> Callable[[], object] | None:
    """A loop of tcod's A* over ``pairs`` as its users write it (the pathfinder made once per map,
    ``get_path`` per query), or None when tcod is not installed."""
    try:
        import tcod.path
    except ImportError:
        return None
    astar = tcod.path.AStar((~grid.blocked).astype(np.int8), diagonal=1.41)  # indexed [row, col]
    w = grid.width
    rc = [(*divmod(s, w), *divmod(t, w)) for s, t in pairs]
    return lambda: [astar.get_path(*q) for q in rc]


def speed_limit_runs(grid: GridMap, pairs: list[tuple[int, int]], pyastar2d: Any) -> dict[str, Callable[[], object]]:
    """One loop per search over ``pairs``: find_path, jps_plus, jump_point_search, grid_astar,
    pyastar2d and (when installed) tcod."""
    weights = np.where(grid.blocked, np.inf, 1.0).astype(np.float32)
    w = grid.width
    rc = [(divmod(s, w), divmod(t, w)) for s, t in pairs]

    def loop(search: Callable[..., object]) -> Callable[[], object]:
        return lambda: [search(grid, s, t) for s, t in pairs]

    runs: dict[str, Callable[[], object]] = {
        "find_path": lambda: [grid.find_path(s, t) for s, t in pairs],
        "jps+": loop(jps_plus),
        "jps": loop(jump_point_search),
        "astar": loop(grid_astar),
        "pyastar2d": lambda: [pyastar2d.astar_path(weights, a, b, allow_diagonal=True) for a, b in rc],
    }
    tcod_astar = tcod_runner(grid, pairs)
    if tcod_astar is not None:
        runs["tcod"] = tcod_astar
    return runs


def bench_speed_limit(repeats: int, n_longest: int) -> None:
    """Issue 13: ``GridMap.find_path`` (the preprocessed search) against pyastar2d on a random,
    a room and a city map; preprocessing time and memory; every answer checked."""
    try:
        import pyastar2d
    except ImportError:
        print("\npyastar2d is not installed: speed-limit comparison skipped")
        return
    maps: list[tuple[str, GridMap, list[tuple[int, int]], np.ndarray]] = []
    rnd = GridMap(random_map())
    maps.append(("random512-10 (generated)", rnd, *longest_pairs(rnd, 400, n_longest, 1)))
    rooms = GridMap(room_map())
    maps.append(("8room-style 512 (generated)", rooms, *longest_pairs(rooms, 400, n_longest, 2)))
    for name, scen_file in (("Berlin_0_256", "Berlin_0_256.map.scen"), ("room-32-32-4", "room-32-32-4-random-1.scen")):
        if (DATA / scen_file).exists():
            g = GridMap.from_movingai(DATA / f"{name}.map")
            scen = read_scenarios(DATA / scen_file)
            pick = np.argsort(-scen.optimal, kind="stable")[:n_longest]
            pairs = list(zip(scen.start_cells(g.width)[pick].tolist(), scen.goal_cells(g.width)[pick].tolist()))
            maps.append((name, g, pairs, scen.optimal[pick]))
    print(f"\nSpeed limit (issue 13): the {n_longest} longest queries per map, median of {repeats} rounds;"
          " ratio = time / pyastar2d time (<= 1: faster); tcod = tcod AStar's ratio")
    print(f"  {'map':<28} {'preprocess':>11} {'memory':>9}  {'find_path':>9} {'jps+':>7} {'jps':>7} {'A*':>7}"
          f"  {'pyastar2d ms/q':>14}  {'tcod':>7}  {'method':<9} answers")
    for name, grid, pairs, optimal in maps:
        fresh = GridMap(grid.costs)
        t0 = time.perf_counter()
        table = fresh.preprocess()
        build = time.perf_counter() - t0
        grid.preprocess()
        costs = np.array([grid.find_path(s, t).cost for s, t in pairs])
        plain = np.array([jump_point_search(grid, s, t).cost for s, t in pairs])
        wrong = int(np.sum(np.abs(costs - optimal) > 1e-5 * np.maximum(optimal, 1) + 5.1e-3 * (optimal > 0)))
        wrong += int(np.sum(np.abs(plain - costs) > 1e-9 * np.maximum(costs, 1)))
        t = median_times(speed_limit_runs(grid, pairs, pyastar2d), repeats)
        base = t["pyastar2d"]
        tcod_ratio = f"{t['tcod'] / base:6.2f}x" if "tcod" in t else "-"
        method = {"jps_plus": "jps+", "astar": "A*"}[grid.preprocess().method]
        print(f"  {name:<28} {build * 1e3:8.1f} ms {table.nbytes / 2**20:6.1f} MiB  "
              f"{t['find_path'] / base:8.2f}x {t['jps+'] / base:6.2f}x {t['jps'] / base:6.2f}x {t['astar'] / base:6.2f}x"
              f"  {base / len(pairs) * 1e3:14.3f}  {tcod_ratio:>7}  {method:<9} {len(pairs) - wrong}/{len(pairs)} optimal")


def bench_flow_field(repeats: int) -> None:
    grid = GridMap.from_movingai(DATA / "maze512-1-0.map")
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    rng = np.random.default_rng(512)
    goal = int(free[len(free) // 2])
    t_field = median_time(lambda: FlowField(grid, goal), repeats)
    field = FlowField(grid, goal)
    units = rng.choice(free, 1000)
    points = grid.cell_center(units) + rng.uniform(-0.45, 0.45, (1000, 2)) * grid.cell_size
    t_cells = median_time(lambda: field.direction_at(units), 200 * repeats)
    t_points = median_time(lambda: field.direction_at_points(points), 200 * repeats)
    reached = int(np.isfinite(field.distance).sum())
    print(f"\nflow field over maze512-1-0 (512x512, {reached} cells reached from one goal)")
    print(f"  build one field                  {t_field * 1e3:10.2f} ms")
    for label, t in (("direction_at(cells)", t_cells), ("direction_at_points", t_points)):
        print(f"  1,000 units, {label:<19} {t * 1e6:10.1f} us per call  ({t * 1e9 / 1000:.0f} ns per unit)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=200, help="scenario queries per map (default 200)")
    parser.add_argument("--slow-queries", type=int, default=12, help="queries for the pure-Python peers")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per library (median reported)")
    parser.add_argument("--longest", type=int, default=40, help="longest queries per map in the speed-limit part")
    parser.add_argument("--only-speed-limit", action="store_true", help="run only the issue-13 comparison")
    args = parser.parse_args(argv)
    print(machine_line())
    if args.only_speed_limit:
        bench_speed_limit(args.repeats, args.longest)
        return 0
    if not DATA.exists():
        print(f"{DATA} is absent: nothing to benchmark")
        return 0
    print(f"Grid search benchmark (median of {args.repeats} runs; Python {sys.version.split()[0]})")
    for name in MAPS:
        bench_map(name, args.queries, args.slow_queries, args.repeats)
    bench_flow_field(args.repeats)
    bench_speed_limit(args.repeats, args.longest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
