"""Graph search benchmark: navmesh A* and Dijkstra next to networkx, a plain heapq A*, scipy's
csgraph Dijkstra and the C++ anchor, on the 10,000-node k-nearest-neighbour graph.

Run: ``python -m benchmarks.search [--runs 3]``. Every library answers the same 200 queries in its
own loop; inputs are prepared before timing; the figure per library is the median over runs of the
median time per query. Costs are checked against each other before anything is printed.
"""

from __future__ import annotations

import argparse
import heapq
import math
import re
import subprocess
import sys
import time
from statistics import median

import networkx as nx
from scipy.sparse import csgraph

from benchmarks.timing import machine_line
import navmesh
from benchmarks.knn_graph import ANCHOR_DIR, load


def per_query_median(run_one, queries) -> float:
    """Median seconds per query of ``run_one(s, t)`` over all queries."""
    times = []
    for s, t in queries:
        start = time.perf_counter()
        run_one(s, t)
        times.append(time.perf_counter() - start)
    return median(times)


def heapq_astar(adjacency, coords, s, t):
    """A plain Python A* as a careful Python programmer would write it."""
    tx, ty = coords[t]
    g = {s: 0.0}
    closed = set()
    heap = [(0.0, s)]
    while heap:
        _, u = heapq.heappop(heap)
        if u == t:
            return g[u]
        if u in closed:
            continue
        closed.add(u)
        gu = g[u]
        for v, w in adjacency[u]:
            ng = gu + w
            if ng < g.get(v, math.inf):
                g[v] = ng
                x, y = coords[v]
                heapq.heappush(heap, (ng + math.hypot(x - tx, y - ty), v))
    return math.inf


def cpp_anchor() -> float | None:
    """Median microseconds per query of the C++ anchor, or None when it is not available."""
    script = ANCHOR_DIR / "run.sh"
    if not script.exists():
        return None
    out = subprocess.run(["bash", str(script)], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"median_us=([\d.]+)", out).group(1))


def startup_first_call_ms() -> float:
    """Time of the first A* call in a fresh process (numba's on-disk cache makes it small)."""
    code = (
        "import time, numpy as np, navmesh\n"
        "g = navmesh.NavGraph.from_edges(np.random.rand(50, 2), [(i, i + 1) for i in range(49)])\n"
        "t = time.perf_counter(); navmesh.astar(g, 0, 49); print((time.perf_counter() - t) * 1e3)\n"
    )
    run = lambda: float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    run()  # make sure the cache is populated
    return run()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="repetitions; the median is reported")
    args = parser.parse_args(argv)
    print(machine_line())

    points, matrix, queries = load()
    queries = [(int(s), int(t)) for s, t in queries]
    graph = navmesh.NavGraph.from_scipy(points, matrix)
    weights = graph.default_weights
    coords = [tuple(p) for p in points.tolist()]
    adjacency = [[] for _ in range(graph.n_nodes)]
    nxg = nx.Graph()
    coo = matrix.tocoo()
    for u, v, w in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()):
        adjacency[u].append((v, w))
        nxg.add_edge(u, v, weight=w)
    truth = {q: navmesh.dijkstra(graph, *q).cost for q in queries}

    def nx_heuristic(u, v):
        return math.dist(coords[u], coords[v])

    contenders = {
        "navmesh astar": lambda s, t: navmesh.astar(graph, s, t, weights=weights),
        "navmesh dijkstra": lambda s, t: navmesh.dijkstra(graph, s, t, weights=weights),
        "networkx astar_path": lambda s, t: nx.astar_path(nxg, s, t, heuristic=nx_heuristic, weight="weight"),
        "python heapq astar": lambda s, t: heapq_astar(adjacency, coords, s, t),
        "scipy dijkstra (limit)": lambda s, t: csgraph.dijkstra(matrix, indices=s, limit=truth[(s, t)] * (1 + 1e-9)),
    }
    # Every contender must agree on the answers before its speed means anything.
    for s, t in queries[:20]:
        assert abs(navmesh.astar(graph, s, t).cost - truth[(s, t)]) < 1e-6
        assert abs(heapq_astar(adjacency, coords, s, t) - truth[(s, t)]) < 1e-6
        assert abs(nx.astar_path_length(nxg, s, t, heuristic=nx_heuristic) - truth[(s, t)]) < 1e-6
        assert abs(csgraph.dijkstra(matrix, indices=s, limit=truth[(s, t)] * (1 + 1e-9))[t] - truth[(s, t)]) < 1e-6
    for fn in contenders.values():  # warm-up (JIT, caches)
        fn(*queries[0])

    results = {name: median(per_query_median(fn, queries) for _ in range(args.runs)) for name, fn in contenders.items()}
    cpp = cpp_anchor()
    ours = results["navmesh astar"]
    print(f"k-NN graph: {graph.n_nodes} nodes, {graph.n_edges} arcs, {len(queries)} queries, {args.runs} runs")
    print(f"{'contender':28s} {'median us/query':>16s} {'vs navmesh astar':>18s}")
    for name, sec in results.items():
        print(f"{name:28s} {sec * 1e6:16.1f} {sec / ours:17.2f}x")
    if cpp is not None:
        print(f"{'C++ anchor (run.sh)':28s} {cpp:16.1f} {cpp * 1e-6 / ours:17.2f}x")
        print(f"navmesh astar / C++ anchor = {ours / (cpp * 1e-6):.2f} (target <= 1.5)")
    print(f"navmesh astar / scipy single-source dijkstra = {ours / results['scipy dijkstra (limit)']:.3f} (target < 1)")
    print(f"first A* call in a fresh process (numba cache warm): {startup_first_call_ms():.1f} ms")


if __name__ == "__main__":
    main()
