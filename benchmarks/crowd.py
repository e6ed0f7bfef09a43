"""Crowd benchmark: ``Crowd.update`` per frame next to a plain Python loop and pynavmesh's RVO crowd.

Run with ``python -m benchmarks.crowd`` from the project root (``--quick`` for a short run).

1. Real level: the Moving AI ``arena`` map (tests/data/movingai) with 4-unit cells, as a Level
   whose obstacles are the blocked cells, and its NavMap (corner waypoints, agent radius 0.3).
   500, 2,000 and 10,000 units (radius 0.3, speed 12 units/s) stand on random free points and
   get four group orders (one goal per quarter of the units). Timed: every ``Crowd.update`` of
   1/30 s over the frames after the orders (route searches included, budgeted per update:
   their frames are the slowest, reported as "max"); median per frame.
2. Open plane (no obstacles, 400 x 400 units), the same units ordered to the centre, three
   contestants on the same scene in the same run, frame by frame in turn so machine load falls
   on all of them:

   - navmesh ``Crowd`` on a NavMap of the empty level (steering, separation by spatial hash,
     wall test: the level's bounds).
   - a plain Python per-unit loop doing the same work (steer to the goal, separation from
     neighbours found in a dict spatial hash, clamp to the bounds): what a user writes first.
   - pynavmesh (``pathfinder.PathFinder`` with no mesh: pure-Python Recast/Detour port; its crowd
     is RVO2 with a KD-tree, ``max_neighbors=5``). RVO solves a linear program per agent, more
     work than our separation, but it is the Python peer a user would find. It is slow, so it
     runs fewer frames at 10,000 units.

3. Generated cave: a 256 x 256 cellular-automaton cave (45 % rock, five smoothing passes, the
   largest open region kept; the shape of Moving AI's den520d-sized maps) taken as polygons (its
   blocked cells merged into rectangles), corner waypoints k=8, agent radius 0.3. 2,000 units on
   random free points, eight groups of 250, each to its own random goal; 600 updates of 1/30 s
   (20 s). Reported: the first update (compiles nothing: the kernels were loaded before), the
   median and the 90th percentile per update, and the mean distance of the units to their
   group's goal at the start and after 20 s (the groups should at least halve it), with the
   ratio of the cave median to the arena median at 2,000 units of the same run. Peers on the
   same input in the same run, each timed in its own loop, set up as their users would:

   - pyrvo (C++ RVO2 / ORCA bindings): the level's obstacle polygons, one agent per unit, per
     frame the preferred velocities toward the goals set from Python, then ``do_step`` (ORCA
     plans no routes: its agents go straight at their goals, so it does less than the Crowd).
   - pynavmesh's crowd (``pathfinder.PathFinder``: pure Python Recast/Detour path search and
     RVO2) on navmesh's PolyMesh of the level given as vertices and polygons; a few frames
     only (it is slow). Where a peer cannot run, the output says why.

Times: median wall time per update, and in brackets the median CPU time of the calling thread
(``time.thread_time``), which a busy shared machine inflates much less. Ratios are peer median /
navmesh median on wall time (> 1: navmesh is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path as FilePath
from typing import Any

import numpy as np
import shapely

import navmesh
from navmesh.steering import Crowd, Walls
from navmesh.steering.walls import level_geometry

ARENA = FilePath(__file__).resolve().parents[1] / "tests" / "data" / "movingai" / "arena.map"
RADIUS, SPEED, DT = 0.3, 12.0, 1 / 30


def arena_nav() -> navmesh.NavMap:
    grid = navmesh.GridMap.from_movingai(ARENA, cell_size=4.0)
    obstacles, _ = level_geometry(grid)
    level = navmesh.Level.rectangle(grid.width * 4.0, grid.height * 4.0, obstacles=obstacles)
    return navmesh.build_waypoint_graph(level, corners=True, agent_radius=RADIUS)


def free_points(walls: Walls, n: int, lo: float, hi: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros((0, 2))
    while len(out) < n:
        p = rng.uniform(lo, hi, (2 * n, 2))
        out = np.concatenate([out, p[walls.walkable(p, 0)]])
    return out[:n]


def cave_blocked(size: int = 256, seed: int = 0) -> np.ndarray:
    """A cave: random 45 % rock, five passes of the 4-5 rule, the largest open region kept."""
    from scipy import ndimage

    rng = np.random.default_rng(seed)
    wall = rng.random((size, size)) < 0.45
    for _ in range(5):
        wall = ndimage.convolve(wall.astype(int), np.ones((3, 3), int), mode="constant", cval=1) >= 5
    label, count = ndimage.label(~wall)
    sizes = ndimage.sum(~wall, label, range(1, count + 1))
    return label != 1 + int(np.argmax(sizes))


def cave_input() -> tuple[navmesh.Level, navmesh.NavMap, np.ndarray, np.ndarray]:
    """The cave level, its NavMap (corners, k=8), 2,000 unit start points and 8 goals."""
    grid = navmesh.GridMap(cave_blocked())
    obstacles, _ = level_geometry(grid)
    level = navmesh.Level.rectangle(grid.width, grid.height, obstacles=obstacles)
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=RADIUS, k=8)
    pts = free_points(Walls(nav, [RADIUS]), 2008, 0, grid.width, 7)
    return level, nav, pts[:2000], pts[2000:]


def _timed(step: Any, frames: int) -> tuple[np.ndarray, np.ndarray]:
    """Wall and CPU ms of ``frames`` calls of ``step``."""
    times, cpu = [], []
    for _ in range(frames):
        t, c = time.perf_counter(), time.thread_time()
        step()
        cpu.append(time.thread_time() - c)
        times.append(time.perf_counter() - t)
    return np.asarray(times) * 1e3, np.asarray(cpu) * 1e3


def _distances(pos: np.ndarray, groups: list[np.ndarray], goals: np.ndarray) -> float:
    return float(np.mean([np.hypot(*(pos[g] - goals[k]).T).mean() for k, g in enumerate(groups)]))


def cave_level(frames: int, cave: tuple[Any, ...]) -> dict[str, float]:
    """navmesh's Crowd on the cave: first, median and p90 ms per update, the mean distance to
    the goals before / after, the shares arrived (on their slots / settled near them)."""
    level, nav, starts, goals = cave
    crowd = Crowd(nav)
    ids = crowd.add(starts, radius=RADIUS, speed=SPEED)
    groups = np.array_split(ids, 8)
    for k, g in enumerate(groups):
        crowd.move_to(g, goals[k])
    before = _distances(crowd.positions, groups, goals)
    ms, cms = _timed(lambda: crowd.update(DT), frames)
    return {"nodes": nav.graph.n_nodes, "first": ms[0], "first_cpu": cms[0], "median": float(np.median(ms)),
            "median_cpu": float(np.median(cms)), "p90": float(np.percentile(ms, 90)),
            "before": before, "after": _distances(crowd.positions, groups, goals),
            "arrived": float(crowd.arrived[ids].mean()), "settled": float(crowd.settled[ids].mean())}


def cave_pyrvo(frames: int, cave: tuple[Any, ...]) -> dict[str, float] | str:
    """pyrvo (C++ RVO2/ORCA bindings) on the cave, set up as its examples do: the level's
    obstacles as polygons (counter-clockwise), one agent per unit, and per frame each agent's
    preferred velocity toward its group's goal (ORCA has no route planning: straight at the
    goal, slowing within a unit of it), then ``do_step``. Timed: the per-frame Python loop
    (read positions, set preferred velocities) and ``do_step``."""
    try:
        import pyrvo
    except ImportError as exc:
        return f"not run: {exc}"
    level, _, starts, goals = cave
    sim = pyrvo.RVOSimulator(DT, 4 * RADIUS, 10, 1.0, 1.0, RADIUS, SPEED)
    for obstacle in level.obstacles:
        ring = shapely.geometry.polygon.orient(obstacle, 1.0).exterior.coords[:-1]
        sim.add_obstacle([(float(x), float(y)) for x, y in ring])
    sim.process_obstacles()
    for x, y in starts:
        sim.add_agent((float(x), float(y)))
    goal_of = np.repeat(goals, [len(g) for g in np.array_split(np.arange(len(starts)), 8)], axis=0)
    n = len(starts)

    def positions() -> np.ndarray:
        return np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])

    def step() -> None:
        to = goal_of - positions()
        d = np.maximum(np.hypot(*to.T), 1e-9)
        pref = to / d[:, None] * (SPEED * np.minimum(d, 1.0))[:, None]
        for i, (vx, vy) in enumerate(pref.tolist()):
            sim.set_agent_pref_velocity(i, (vx, vy))
        sim.do_step()

    groups = np.array_split(np.arange(n), 8)
    before = _distances(positions(), groups, goals)
    ms, cms = _timed(step, frames)
    return {"median": float(np.median(ms)), "median_cpu": float(np.median(cms)), "first": ms[0],
            "before": before, "after": _distances(positions(), groups, goals)}


def cave_pynavmesh(frames: int, cave: tuple[Any, ...]) -> dict[str, float] | str:
    """pynavmesh (``pathfinder.PathFinder``, pure Python Recast/Detour + RVO2) on the cave: its
    navigation mesh is navmesh's :func:`~navmesh.build_navmesh` of the level (radius 0) given as
    vertices and polygons, the agents added and sent to their goals (one path search each, as
    its README does), then ``update()`` per frame (its own RVO crowd)."""
    try:
        from pathfinder import PathFinder
    except ImportError as exc:
        return f"not run: {exc}"
    level, _, starts, goals = cave
    mesh = navmesh.build_navmesh(level)
    vertices = [(float(x), 0.0, float(y)) for x, y in mesh.vertices[:, :2]]
    polygons = [mesh.polygon(p).tolist() for p in range(mesh.n_polygons)]
    t = time.perf_counter()
    try:
        pf = PathFinder(vertices, polygons, neighbor_dist=4 * RADIUS, max_neighbors=10, max_speed=SPEED,
                        agent_radius=RADIUS, update_path_find=1e9)
    except Exception as exc:  # noqa: BLE001 - a peer's failure is reported, not raised
        return (f"could not load the cave's mesh ({mesh.n_polygons} polygons): {type(exc).__name__}: {exc} "
                "(its NavmeshNode divides by the normal of every three consecutive vertices, so a polygon with "
                "collinear vertices fails; fanned into triangles round their centroids instead, its recursive "
                "polygon grouping passes Python's recursion limit, and with the limit raised it had not finished "
                "loading after 10 minutes, 2026-11-26)")
    setup = time.perf_counter() - t
    n = len(starts)
    agents = [pf.add_agent((float(x), 0.0, float(y)), RADIUS, SPEED) for x, y in starts]
    if min(agents) < 0:
        return f"could not place {sum(a < 0 for a in agents)} of {n} agents on the cave's mesh"
    goal_of = np.repeat(goals, [len(g) for g in np.array_split(np.arange(n), 8)], axis=0)
    t = time.perf_counter()
    for a, (gx, gy) in zip(agents, goal_of.tolist()):
        pf.set_agent_destination(a, (gx, 0.0, gy))
    paths = time.perf_counter() - t
    pf.update_time()
    ms, cms = _timed(pf.update, frames)
    return {"median": float(np.median(ms)), "median_cpu": float(np.median(cms)), "first": ms[0],
            "setup_s": setup, "paths_s": paths}


def real_level(nav: navmesh.NavMap, n: int, frames: int) -> tuple[float, float, float, float]:
    """Median wall and CPU ms per update, max wall ms, and the share of units that arrived."""
    crowd = Crowd(nav)
    crowd.add([[10.0, 10.0]], radius=RADIUS, speed=SPEED)  # builds the walls
    ids = np.concatenate([[0], crowd.add(free_points(crowd.walls, n - 1, 4, 192, n), radius=RADIUS, speed=SPEED)])
    goals = [[40.0, 40.0], [156.0, 40.0], [40.0, 156.0], [156.0, 156.0]]
    for k, part in enumerate(np.array_split(ids, 4)):
        crowd.move_to(part, goals[k])
    times, cpu = [], []
    for _ in range(frames):
        t, c = time.perf_counter(), time.thread_time()
        crowd.update(DT)
        cpu.append(time.thread_time() - c)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3, statistics.median(cpu) * 1e3, max(times) * 1e3, float(crowd.arrived.mean())


class PythonLoop:
    """The plain per-unit loop: steer to the goal, separation via a dict spatial hash."""

    def __init__(self, pos: np.ndarray, goal: np.ndarray, size: float) -> None:
        self.pos = [list(p) for p in pos.tolist()]
        self.goal = goal.tolist()
        self.size = size

    def update(self, dt: float) -> None:
        cell = 2 * RADIUS
        buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, (x, y) in enumerate(self.pos):
            buckets[(int(x // cell), int(y // cell))].append(i)
        gx, gy = self.goal
        new = []
        for i, (x, y) in enumerate(self.pos):
            dx, dy = gx - x, gy - y
            d = (dx * dx + dy * dy) ** 0.5
            vx, vy = (dx / d * SPEED, dy / d * SPEED) if d > 1e-9 else (0.0, 0.0)
            cx, cy = int(x // cell), int(y // cell)
            for ox in (-1, 0, 1):
                for oy in (-1, 0, 1):
                    for j in buckets.get((cx + ox, cy + oy), ()):
                        if j == i:
                            continue
                        ex, ey = x - self.pos[j][0], y - self.pos[j][1]
                        dd = (ex * ex + ey * ey) ** 0.5
                        if 0 < dd < 2 * RADIUS:
                            w = (2 * RADIUS - dd) / (2 * RADIUS) * 2 * SPEED
                            vx += ex / dd * w
                            vy += ey / dd * w
            nx = min(max(x + vx * dt, RADIUS), self.size - RADIUS)
            ny = min(max(y + vy * dt, RADIUS), self.size - RADIUS)
            new.append([nx, ny])
        self.pos = new


def open_plane(n: int, frames: int, rvo_frames: int) -> dict[str, tuple[float, float]]:
    size = 400.0
    level = navmesh.Level.rectangle(size, size)
    nav = navmesh.build_waypoint_graph(level)
    rng = np.random.default_rng(n)
    side = min(size - 4, np.sqrt(n) * 3 * RADIUS * 2)
    pos = rng.uniform(2, 2 + side, (n, 2))
    goal = np.array([size / 2, size / 2])
    crowd = Crowd(nav)
    ids = crowd.add(pos, radius=RADIUS, speed=SPEED)
    crowd.move_to(ids, goal)
    crowd.update(DT)  # the order's route search
    loop = PythonLoop(pos, goal, size)
    runs = {"navmesh Crowd": lambda: crowd.update(DT), "Python loop": lambda: loop.update(DT)}
    try:
        from pathfinder import PathFinder

        pf = PathFinder(max_speed=SPEED, agent_radius=RADIUS, neighbor_dist=4 * RADIUS, max_neighbors=5,
                        update_path_find=1e9)
        agents = [pf.add_agent((float(x), 0.0, float(y)), RADIUS, SPEED) for x, y in pos]
        for a in agents:
            pf.set_agent_destination(a, (float(goal[0]), 0.0, float(goal[1])))
        pf.update_time()
        runs["pynavmesh RVO"] = pf.update
    except ImportError:
        pass
    times: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    for f in range(frames):
        for name, run in runs.items():
            if name == "pynavmesh RVO" and f >= rvo_frames:
                continue
            if name == "Python loop" and f >= max(rvo_frames, 5):
                continue
            t, c = time.perf_counter(), time.thread_time()
            run()
            cpu[name].append(time.thread_time() - c)
            times[name].append(time.perf_counter() - t)
    return {k: (statistics.median(v) * 1e3, statistics.median(cpu[k]) * 1e3) for k, v in times.items() if v}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames and no 10,000-unit peers")
    parser.add_argument("--cave-only", action="store_true", help="only the generated cave and its peers")
    args = parser.parse_args()
    sizes = (500, 2000, 10000)
    frames = 30 if args.quick else 90
    nav = arena_nav()
    warm = Crowd(nav)
    ids = warm.add(free_points(Walls(nav, [RADIUS]), 8, 4, 20, 0), radius=RADIUS, speed=SPEED)
    warm.move_to(ids[:2], [40.0, 40.0])  # own paths
    warm.move_to(ids[2:], [60.0, 40.0])  # a shared tree
    for _ in range(3):
        warm.update(DT)  # compile / load the numba cache outside the timings
    print(f"machine load (1, 5, 15 min): {os.getloadavg()} on {os.cpu_count()} cores")
    print(f"Real level: Moving AI arena, 4-unit cells, {nav!r}")
    print(f"{'units':>7} {'median ms':>10} {'cpu ms':>8} {'max ms':>8} {'arrived':>8}")
    arena_2000 = 0.0
    for n in () if args.cave_only else sizes:
        med, med_cpu, worst, arrived = real_level(nav, n, frames * 3)
        arena_2000 = med if n == 2000 else arena_2000
        print(f"{n:>7} {med:>10.3f} {med_cpu:>8.3f} {worst:>8.2f} {arrived:>8.0%}")
    print()
    cave = cave_input()
    frames_cave = 200 if args.quick else 600
    ours = cave_level(frames_cave, cave)
    print(f"Generated 256 x 256 cave as polygons ({ours['nodes']} corner waypoints, k=8), 2,000 units in 8 groups:")
    vs_arena = f" (x{ours['median'] / arena_2000:.1f} the arena median at 2,000 units)" if arena_2000 else ""
    print(f"  first update {ours['first']:.1f} ms (cpu {ours['first_cpu']:.1f}), median {ours['median']:.3f} ms "
          f"(cpu {ours['median_cpu']:.3f}), p90 {ours['p90']:.2f} ms{vs_arena}")
    print(f"  mean distance to the goals {ours['before']:.1f} -> {ours['after']:.1f} "
          f"({ours['after'] / ours['before']:.0%}) after {frames_cave * DT:.0f} s, arrived {ours['arrived']:.1%} "
          f"({ours['settled']:.1%} settled near their slots)")
    rvo = cave_pyrvo(frames_cave, cave)
    if isinstance(rvo, str):
        print(f"  pyrvo ORCA: {rvo}")
    else:
        print(f"  pyrvo ORCA (C++, straight at the goals, no routes): median {rvo['median']:.3f} ms "
              f"(cpu {rvo['median_cpu']:.3f}), ratio pyrvo / navmesh x{rvo['median'] / ours['median']:.2f} wall, "
              f"x{rvo['median_cpu'] / ours['median_cpu']:.2f} cpu; mean distance {rvo['before']:.1f} -> {rvo['after']:.1f}")
    nm = cave_pynavmesh(3 if args.quick else 10, cave)
    if isinstance(nm, str):
        print(f"  pynavmesh crowd: {nm}")
    else:
        print(f"  pynavmesh crowd (pure Python, {nm['setup_s']:.1f} s to load the mesh, {nm['paths_s']:.1f} s for "
              f"2,000 paths): median {nm['median']:.1f} ms (cpu {nm['median_cpu']:.1f}), ratio pynavmesh / navmesh "
              f"x{nm['median'] / ours['median']:,.0f} wall, x{nm['median_cpu'] / ours['median_cpu']:,.0f} cpu")
    if args.cave_only:
        return
    print("Open plane 400 x 400, all units to the centre: median wall ms per update (cpu ms),")
    print("ratio = peer / navmesh on wall time")
    for n in sizes:
        rvo_frames = 3 if n >= 10000 else (5 if n >= 2000 else 10)
        if args.quick and n >= 10000:
            rvo_frames = 0
        res = open_plane(n, frames, rvo_frames)
        ours = res["navmesh Crowd"][0]
        line = f"{n:>7} units: navmesh Crowd {ours:7.3f} ({res['navmesh Crowd'][1]:.3f})"
        for name in ("Python loop", "pynavmesh RVO"):
            if name in res:
                wall, c = res[name]
                line += f" | {name} {wall:8.1f} ({c:.1f}) x{wall / ours:,.0f}"
        print(line)


if __name__ == "__main__":
    main()
