"""Quick start: build a small graph, find paths, and show what the search did."""

from __future__ import annotations

import navmesh


def main() -> None:
    points = [[0, 0], [10, 0], [20, 0], [0, 10], [10, 10], [20, 10]]
    edges = [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (1, 4), (2, 5)]
    graph = navmesh.NavGraph.from_edges(points, edges)
    print(graph)
    path = navmesh.astar(graph, 0, 5)
    print(f"A* 0 -> 5: nodes {path.nodes.tolist()}, cost {path.cost}, {path.expansions} expansions")
    trace = navmesh.search_trace(graph, 0, 5, algorithm="dijkstra")
    print(f"Dijkstra expanded {trace.expanded.tolist()} before reaching the goal")


if __name__ == "__main__":
    main()
