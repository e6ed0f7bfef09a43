"""Editor responsiveness: time per edit-and-relink on a 5,000-waypoint level.

Run: ``python -m benchmarks.editor [--runs 7]``. An edit in the editor is ``EditorModel.edit``:
the pure level edit (a new, validated ``Level``) plus the graph's local update
(``NavMap.update``), exactly what one mouse-drag step costs. Each figure is the median of
``--runs`` edits, each edit starting from the same level (so every run does the same work). The
peer is what a naive editor does: a new Level plus a full ``build_waypoint_graph``. The graphs are
checked equal after each kind of edit.

Edits: move one waypoint by 6 units; move one obstacle by 6 units; add one waypoint; paint one
small swamp region; move one terrain region. Target: under 50 ms for moving one waypoint or one
obstacle.
"""

from __future__ import annotations

import argparse
import time
import warnings
from statistics import median

import numpy as np

import navmesh
from benchmarks.build import random_level
from editor import edits
from editor.model import BuildSettings, EditorModel

warnings.simplefilter("ignore", navmesh.NavmeshWarning)

TARGET_MS = 50.0


def same_graph(a: navmesh.NavMap, b: navmesh.NavMap) -> bool:
    return all(np.array_equal(getattr(a.graph, n), getattr(b.graph, n)) for n in ("points", "indptr", "indices"))


def time_edit(model: EditorModel, change, *args, runs: int) -> tuple[float, float, float, float]:
    """(median ms of edit+relink, median ms of the level edit alone, median ms of a full rebuild,
    median CPU ms of edit+relink: on a loaded machine the wall time includes waiting for a core)."""
    start = model.snapshot()
    total, level_only, rebuild, cpu = [], [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        new = change(model.level, *args)
        level_only.append(time.perf_counter() - t)
        t, c = time.perf_counter(), time.process_time()
        err = model.edit(change, *args)
        total.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        assert err is None, err
        t = time.perf_counter()
        full = navmesh.build_waypoint_graph(change(start.level, *args), **model.settings.build_options())
        rebuild.append(time.perf_counter() - t)
        assert same_graph(model.nav, full), "local update differs from a rebuild"
        assert new == model.level
        model.undo()
        model.redo_stack.clear()
    return 1e3 * median(total), 1e3 * median(level_only), 1e3 * median(rebuild), 1e3 * median(cpu)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--waypoints", type=int, default=5000)
    args = p.parse_args(argv)

    level = random_level(args.waypoints, 250, seed=5)
    t = time.perf_counter()
    model = EditorModel(level, settings=BuildSettings(k=8), state_dir="/tmp/navmesh-editor-bench")
    print(f"level: {level.n_waypoints} waypoints, {len(level.obstacles)} obstacles, 2040 x 2040; "
          f"first build {1e3 * (time.perf_counter() - t):.0f} ms, {model.nav.graph.n_edges} arcs")
    mid = np.argmin(np.hypot(*(level.waypoints - 1020.0).T))
    wx, wy = level.waypoints[mid]
    swamp = [(900.0, 900.0), (980.0, 900.0), (980.0, 960.0), (900.0, 960.0)]
    with_swamp = edits.add_terrain(level, swamp, "swamp")

    cases = [
        ("move one waypoint", edits.move_waypoint, (int(mid), (wx + 6.0, wy + 6.0))),
        ("move one obstacle", edits.translate_polygon, ("obstacle", len(level.obstacles) // 2, 6.0, 6.0)),
        ("add one waypoint", edits.add_waypoints, ([(wx + 3.0, wy - 3.0)],)),
        ("paint a swamp region", edits.add_terrain, (swamp, "swamp")),
    ]
    print(f"{'edit':<24}{'edit+relink ms':>16}{'(CPU ms)':>10}{'level only ms':>15}{'full rebuild ms':>17}"
          f"{'speed-up':>10}{'  target':>9}")
    for name, change, extra in cases:
        total, level_ms, rebuild, cpu = time_edit(model, change, *extra, runs=args.runs)
        ok = "" if name not in ("move one waypoint", "move one obstacle") else ("  ok" if total < TARGET_MS else "  MISSED")
        print(f"{name:<24}{total:>16.1f}{cpu:>10.1f}{level_ms:>15.1f}{rebuild:>17.1f}{rebuild / total:>9.1f}x{ok:>9}")
    model.apply(with_swamp)
    total, level_ms, rebuild, cpu = time_edit(model, edits.translate_polygon, "terrain", 0, 6.0, 6.0, runs=args.runs)
    print(f"{'move a terrain region':<24}{total:>16.1f}{cpu:>10.1f}{level_ms:>15.1f}{rebuild:>17.1f}{rebuild / total:>9.1f}x")


if __name__ == "__main__":
    main()
