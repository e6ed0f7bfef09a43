"""``python -m benchmarks``: run the benchmarks, or (``--quick``) a regression check for CI.

Usage::

    python -m benchmarks [NAME ...]          # the full benchmarks (as ``navmesh bench``)
    python -m benchmarks --quick             # a minute or two; exit 1 when a ratio regressed
    python -m benchmarks --quick --write-baseline   # store this run's ratios as the baseline

The quick check times small generated inputs (nothing from ``../shared``) and computes ratios
against peers measured in the same run, never absolute times: our time / the peer's time, so
lower is better. It compares each loop's fastest round (on a loaded machine a short loop is
either run through or pre-empted, so its median jumps between two values; the fastest round is
the steadiest estimate of the work itself). A ratio more than ``--factor`` (default 2) times its value in
``benchmarks/baseline.json`` fails the run. A peer that is not installed skips its ratio with a
message. The loops take turns and are repeated until their medians settle (see
:mod:`benchmarks.timing`); the machine's load is printed first.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable
from pathlib import Path as FilePath

import numpy as np

from benchmarks.timing import machine_line, stable_times

BASELINE = FilePath(__file__).resolve().parent / "baseline.json"
FULL = ("search", "grid", "fatcat", "build", "anyangle")

Ratios = dict[str, float]


def _ratio(runs: dict[str, Callable[[], object]], ours: dict[str, str], peer: str, **kw: object) -> Ratios:
    t = stable_times(runs, min_rounds=5, max_rounds=15, max_seconds=20.0, **kw)  # type: ignore[arg-type]
    best = t.best
    print(f"    ({t.note()}; ratios of the fastest rounds)")
    return {label: best[name] / best[peer] for label, name in ours.items()}


def quick_grid() -> Ratios:
    """Octile search on a generated 256 x 256 random map (10% walls), 60 long queries."""
    import pyastar2d

    from navmesh.grid import GridMap
    from navmesh.grid.flowfield import FlowField
    from navmesh.grid.search import grid_astar

    blocked = np.random.default_rng(10).random((256, 256)) < 0.10
    grid = GridMap(blocked)
    free = np.flatnonzero(~blocked.reshape(-1))
    field = FlowField(grid, int(free[len(free) // 2]))
    reach = free[np.isfinite(field.distance.reshape(-1)[free])]
    pairs = np.random.default_rng(1).choice(reach, (600, 2))
    cost = field.distance.reshape(-1)
    pairs = pairs[np.argsort(-(cost[pairs[:, 0]] + cost[pairs[:, 1]]))][:60].tolist()
    grid.preprocess()
    weights = np.where(blocked, np.inf, 1.0).astype(np.float32)
    rc = [(divmod(s, 256), divmod(t, 256)) for s, t in pairs]
    runs = {
        "find_path": lambda: [grid.find_path(s, t) for s, t in pairs],
        "astar": lambda: [grid_astar(grid, s, t) for s, t in pairs],
        "pyastar2d": lambda: [pyastar2d.astar_path(weights, a, b, allow_diagonal=True) for a, b in rc],
    }
    return _ratio(runs, {"grid find_path / pyastar2d": "find_path", "grid_astar / pyastar2d": "astar"}, "pyastar2d")


def _lattice_maze(w: int, h: int, seed: int) -> np.ndarray:
    """Walls of a FatCat-style maze: a random spanning tree over the odd/odd junctions, plus loops."""
    rng = np.random.default_rng(seed)
    walls = np.ones((h, w), dtype=bool)
    walls[1::2, 1::2] = False
    stack, seen = [(1, 1)], {(1, 1)}
    while stack:
        r, c = stack[-1]
        nxt = [(r + dr, c + dc) for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
               if 0 < r + dr < h and 0 < c + dc < w and (r + dr, c + dc) not in seen]
        if not nxt:
            stack.pop()
            continue
        nr, nc = nxt[rng.integers(len(nxt))]
        walls[(r + nr) // 2, (c + nc) // 2] = False
        seen.add((nr, nc))
        stack.append((nr, nc))
    inner = np.argwhere(walls[1:-1, 1:-1] & ((np.indices((h - 2, w - 2)).sum(axis=0) % 2) == 1)) + 1
    for r, c in inner[rng.random(len(inner)) < 0.1]:
        walls[r, c] = False
    return walls


def quick_first_step() -> Ratios:
    """One first_step call per query (warm field cache) on a 31 x 23 lattice maze."""
    import pyastar2d

    from navmesh.grid import GridMap
    from navmesh.grid.search import first_step

    walls = _lattice_maze(31, 23, 1990)
    grid = GridMap(walls, connectivity=4)
    rng = np.random.default_rng(5)
    junctions = np.flatnonzero(~walls.reshape(-1) & (np.indices(walls.shape).prod(axis=0) % 2 == 1).reshape(-1))
    free = np.flatnonzero(~walls.reshape(-1))
    pairs = list(zip(rng.choice(junctions, 20_000).tolist(), rng.choice(free[:60], 20_000).tolist()))
    weights = np.where(walls, np.inf, 1.0).astype(np.float32)
    rc = [(divmod(s, 31), divmod(t, 31)) for s, t in pairs]
    runs = {
        "first_step": lambda: [first_step(grid, s, t) for s, t in pairs],
        "pyastar2d": lambda: [pyastar2d.astar_path(weights, a, b, allow_diagonal=False) for a, b in rc],
    }
    return _ratio(runs, {"first_step single calls / pyastar2d": "first_step"}, "pyastar2d", warmup=2)


def quick_search() -> Ratios:
    """Graph A* on a generated 3,000-node k-nearest-neighbour graph, 200 queries."""
    import networkx as nx

    import navmesh
    from benchmarks.knn_graph import generate

    pts, matrix, queries = generate(n=3000, n_queries=200)
    coo = matrix.tocoo()
    keep = coo.row < coo.col
    graph = navmesh.NavGraph.from_edges(pts, np.c_[coo.row[keep], coo.col[keep]])
    nxg = nx.Graph()
    for u, v, w in zip(coo.row[keep].tolist(), coo.col[keep].tolist(), coo.data[keep].tolist()):
        nxg.add_edge(u, v, weight=w)
    xy = pts.tolist()
    h = lambda a, b: ((xy[a][0] - xy[b][0]) ** 2 + (xy[a][1] - xy[b][1]) ** 2) ** 0.5
    qs = queries.tolist()
    runs = {
        "navmesh": lambda: [navmesh.astar(graph, s, t) for s, t in qs],
        "networkx": lambda: [nx.astar_path(nxg, s, t, heuristic=h, weight="weight") for s, t in qs],
    }
    return _ratio(runs, {"graph astar / networkx astar_path": "navmesh"}, "networkx")


def quick_line_of_sight() -> Ratios:
    """Bulk line of sight, shapely backend against the numba kernel backend (our own two
    backends: the kernel is the reference speed the shapely backend must stay within 10x of)."""
    import shapely

    from navmesh._kernels import los as LK
    from navmesh.sight import LineOfSight
    from navmesh.waypoints.linking import wall_grid_for

    rng = np.random.default_rng(5)
    c = rng.uniform(0, 500, (120, 2))
    size = rng.uniform(5, 30, (120, 2))
    los = LineOfSight(list(shapely.box(c[:, 0], c[:, 1], c[:, 0] + size[:, 0], c[:, 1] + size[:, 1])),
                      shapely.box(-20, -20, 540, 540))
    corners = np.unique(los.edges[:, :2], axis=0)
    corners = corners[los.walkable(corners)]
    i, j = np.triu_indices(len(corners), 1)
    pick = rng.choice(len(i), size=min(30_000, len(i)), replace=False)
    a, b = np.ascontiguousarray(corners[i[pick]]), np.ascontiguousarray(corners[j[pick]])
    walls = wall_grid_for(los)
    if not np.array_equal(~los.blocked(a, b), LK.segments_free(a, b, *walls)):
        raise AssertionError("the two line-of-sight backends disagree")
    runs = {"shapely": lambda: los.blocked(a, b), "kernel": lambda: LK.segments_free(a, b, *walls)}
    return _ratio(runs, {"line of sight shapely / kernel (ours)": "shapely"}, "kernel")


QUICK: dict[str, Callable[[], Ratios]] = {
    "grid": quick_grid,
    "first_step": quick_first_step,
    "search": quick_search,
    "line_of_sight": quick_line_of_sight,
}


def compare(found: Ratios, baseline: Ratios, factor: float) -> tuple[list[str], list[str]]:
    """(report lines, labels that regressed): a ratio regressed when it is above ``factor`` times
    its baseline; ratios without a baseline are reported, baseline ratios not measured are
    reported as skipped."""
    lines, failed = [], []
    for label, ratio in found.items():
        base = baseline.get(label)
        verdict = "no baseline" if base is None else f"baseline {base:.3f}"
        if base is not None and ratio > factor * base:
            failed.append(label)
            verdict += f"  REGRESSED (> {factor * base:.3f})"
        lines.append(f"  {label:<44} {ratio:8.3f}   {verdict}")
    for label in sorted(baseline.keys() - found.keys()):
        lines.append(f"  {label:<44} skipped (peer missing or check failed to run)")
    return lines, failed


def run_quick(factor: float, write: bool) -> int:
    print(machine_line(), flush=True)
    baseline: Ratios = json.loads(BASELINE.read_text())["ratios"] if BASELINE.exists() else {}
    found: Ratios = {}
    for name, check in QUICK.items():
        print(f"  {name} ...", flush=True)
        try:
            ratios = check()
        except ImportError as exc:
            print(f"    skipped: a peer is not installed ({exc})")
            continue
        found.update(ratios)
    print(f"\nratio = our time / peer time in this run (lower is better); fail above {factor:g}x the baseline")
    lines, failed = compare(found, baseline, factor)
    print("\n".join(lines))
    if write:
        BASELINE.write_text(json.dumps({"machine": machine_line(), "ratios": {k: round(v, 4) for k, v in found.items()}},
                                       indent=2) + "\n")
        print(f"wrote {BASELINE}")
    if failed:
        print(f"\nQUICK BENCHMARK FAILED: {len(failed)} ratio(s) regressed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"full benchmarks to run (default all: {', '.join(FULL)})")
    ap.add_argument("--quick", action="store_true", help="the CI regression check (ratios against a stored baseline)")
    ap.add_argument("--factor", type=float, default=2.0, help="--quick fails above this many times the baseline")
    ap.add_argument("--write-baseline", action="store_true", help="--quick stores this run's ratios as the baseline")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    if args.quick:
        return run_quick(args.factor, args.write_baseline)
    import importlib

    print(machine_line(), flush=True)
    for name in args.names or FULL:
        print(f"== benchmarks.{name}", flush=True)
        status = importlib.import_module(f"benchmarks.{name}").main([])
        if status:
            return int(status)
    return 0


if __name__ == "__main__":
    sys.exit(main())
