"""FatCat benchmark: 100,000 "cat finds mouse" first-step queries, navmesh next to the seed's Java.

Run with ``python -m benchmarks.fatcat`` from the project root. Needs ``../shared/anchors/fatcat``
(maze.map, queries.txt, run.sh) and a JDK for the Java side.

The Java anchor (the seed article's breadth-first search, plain and two-step variants) is run
through ``run.sh`` in the same run, timed its own way: 10 warm-up iterations, then the median of
20, each running all 100,000 queries. navmesh answers the same queries through its public API:

- single calls: ``first_step(grid, cat, mouse)`` in a Python loop, one call per query (what a
  game does each time the mouse moves), with the map's per-goal field cache starting empty in
  every run ("cold": building the fields is timed) and already filled ("warm");
- batched: one ``first_steps(grid, cats, mice)`` call for all 100,000 queries (grouped by goal:
  one backward search per distinct goal), cache emptied before every run;
- the plain forward search (cache off), with and without ``two_step=True`` (the article's
  "every second cell" speed-up), as it was before the cache;

timed as the median of several runs after warm-up. Queries are turned into cell ids before timing. The
returned steps are turned into the article's direction codes and checksummed the way the Java
does, so the two sides are seen to give the very same answers.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path as FilePath

import numpy as np

from benchmarks.timing import machine_line, stable_times
from navmesh.grid import GridMap
from navmesh.grid.search import first_step, first_steps
from navmesh.grid.targets import DEFAULT_MAX_BYTES

ANCHOR = FilePath(__file__).resolve().parents[1].parent / "shared" / "anchors" / "fatcat"


def checksum(grid: GridMap, starts: np.ndarray, steps: np.ndarray) -> int:
    """The Java checksum: sum of direction code (UP 0, RIGHT 1, DOWN 2, LEFT 3) * (i % 7 + 1)."""
    delta = steps.astype(np.int64) - starts
    code = np.select([delta == -grid.width, delta == 1, delta == grid.width, delta == -1], [0, 1, 2, 3], -1)
    if (code < 0).any():
        raise AssertionError("a first step is not a single move up, right, down or left")
    weights = np.arange(len(starts)) % 7 + 1
    return int((code * weights).sum())


def run_java(variant: str | None) -> dict[str, tuple[float, int]]:
    """Run the anchor's run.sh; return {name: (ms per 100k, checksum)}."""
    cmd = ["bash", str(ANCHOR / "run.sh")] + ([variant] if variant else [])
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=True).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"  Java anchor did not run: {exc}")
        return {}
    found = re.findall(r"(\S+) ms_per_100k=([\d.]+) checksum=(-?\d+)", out)
    return {name: (float(ms), int(cs)) for name, ms, cs in found}


def median_ms(run: Callable[[], object], warmup: int, repeats: int, scale: float) -> float:
    """Median milliseconds (times ``scale``) of ``run()``: at least ``repeats`` runs, more until the
    median settles (see :mod:`benchmarks.timing`)."""
    t = stable_times({"run": run}, min_rounds=repeats, max_rounds=3 * repeats, warmup=warmup, max_seconds=60.0)
    return t.median["run"] * 1e3 * scale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs of the single-call loop")
    parser.add_argument("--batch-repeats", type=int, default=20, help="timed runs of the batched call")
    parser.add_argument("--java", choices=["both", "two-step", "none"], default="both")
    args = parser.parse_args(argv)
    if not (ANCHOR / "queries.txt").exists():
        print(f"{ANCHOR} is absent: nothing to benchmark")
        return 0

    print(machine_line())
    java: dict[str, tuple[float, int]] = {}
    if args.java != "none":
        print("running the Java anchor (run.sh) ...", flush=True)
        java = run_java(None if args.java == "both" else "two-step")
        print(f"  after the Java run: {machine_line()}")

    grid = GridMap.from_movingai(ANCHOR / "maze.map", connectivity=4)
    queries = np.loadtxt(ANCHOR / "queries.txt", dtype=np.int64).reshape(-1, 4)
    starts = grid.cell_id(queries[:, 0], queries[:, 1]).astype(np.int64)
    goals = grid.cell_id(queries[:, 2], queries[:, 3]).astype(np.int64)
    start_list, goal_list = starts.tolist(), goals.tolist()
    scale = 100_000 / len(queries)

    results: dict[str, tuple[float, int]] = {}
    cache = grid.first_step_cache

    def single(two: bool = False) -> list[int]:
        return [first_step(grid, s, t, two_step=two) for s, t in zip(start_list, goal_list)]

    def single_cold() -> list[int]:
        cache.clear()  # every run starts with an empty cache: building the fields is timed
        return single()

    def batched(two: bool = False) -> np.ndarray:
        cache.clear()
        return first_steps(grid, starts, goals, two_step=two)

    # Default behaviour: the per-target field cache (one backward search per distinct mouse cell).
    ms = median_ms(single_cold, 2, args.repeats, scale)
    results["navmesh first_step, single calls (cache cold)"] = (ms, checksum(grid, starts, np.array(single_cold())))
    ms = median_ms(single, 2, args.repeats, scale)
    results["navmesh first_step, single calls (cache warm)"] = (ms, checksum(grid, starts, np.array(single())))
    ms = median_ms(batched, 5, args.batch_repeats, scale)
    results["navmesh first_steps, batched (grouped by goal)"] = (ms, checksum(grid, starts, batched()))
    # The forward search alone (cache off), as before issue 13.
    cache.max_bytes = 0
    for two in (False, True):
        suffix = ", two_step" if two else ""
        ms = median_ms(lambda two=two: single(two), 1, max(1, args.repeats // 2), scale)
        results[f"navmesh first_step, no cache{suffix}"] = (ms, checksum(grid, starts, np.array(single(two))))
    cache.max_bytes = DEFAULT_MAX_BYTES
    print(f"  field cache after the runs: {len(cache)} fields, {cache.nbytes / 1024:.0f} KiB, "
          f"{cache.builds} built in total", flush=True)

    # Fixed cost of one public call without a search (start == goal): validation and dispatch.
    same = start_list[:10_000]
    overhead_us = median_ms(lambda: [first_step(grid, s, s) for s in same], 1, 5, 1.0) / len(same) * 1e3

    n_targets = len(np.unique(goals))
    print(f"\nFatCat maze {grid.width}x{grid.height}, {len(queries):,} queries over {n_targets} distinct goals; "
          "times in ms per 100,000 queries; ratio = time / Java two-step time (<= 1: faster)")
    reference = java.get("java-two-step-bfs", (None, None))[0]
    for name, (ms, cs) in list(java.items()) + list(results.items()):
        ratio = f"{ms / reference:7.3f}x Java two-step" if reference else ""
        print(f"  {name:<44} {ms:9.1f} ms   checksum {cs:<10d} {ratio}")
    print(f"  public first_step call without a search (start == goal): {overhead_us:.2f} us per call")
    print(f"  at the end: {machine_line()}")
    checks = {cs for _, cs in list(java.values()) + list(results.values())}
    print("  checksums agree" if len(checks) == 1 else f"  CHECKSUMS DIFFER: {sorted(checks)}")
    return 0 if len(checks) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
