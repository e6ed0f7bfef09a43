"""Grid paths, partial paths and first steps against scipy's Dijkstra (independent answers):
consecutive cells are neighbours and costs are least costs, for whole and partial paths."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

from navmesh.grid import GridMap, first_steps, grid_astar, jump_point_search


@pytest.mark.parametrize("seed", range(6))
def test_paths_and_partial_paths_are_whole_chains_of_steps(seed):
    rng = np.random.default_rng(seed)
    blocked = rng.random((14, 17)) < 0.25
    grid = GridMap(blocked)
    free = np.flatnonzero(~blocked.ravel())
    dist = csgraph.dijkstra(grid.to_navgraph().to_scipy())
    for s, t in rng.choice(free, (25, 2)):
        s, t = int(s), int(t)
        for search in (grid_astar, jump_point_search):
            path = search(grid, s, t, max_expansions=3, allow_partial=True)
            assert path.nodes[0] == s
            # consecutive cells are neighbours, and the path's cost is that of its steps
            steps = np.abs(np.diff(np.divmod(path.nodes, grid.width), axis=1))
            assert np.all(steps.max(axis=0) == 1)
            if not path.partial:
                assert path.nodes[-1] == t and path.cost == pytest.approx(dist[s, t])
            else:
                assert path.cost == pytest.approx(dist[s, path.nodes[-1]])


@pytest.mark.parametrize("seed", range(4))
def test_first_steps_on_a_weighted_map_lie_on_a_least_cost_path(seed):
    rng = np.random.default_rng(seed)
    blocked = rng.random((12, 15)) < 0.2
    weights = np.where(rng.random((12, 15)) < 0.3, 3.0, 1.0)
    grid = GridMap(np.where(blocked, np.inf, weights))
    free = np.flatnonzero(~blocked.ravel())
    graph = grid.to_navgraph().to_scipy()
    dist = csgraph.dijkstra(graph)
    pairs = rng.choice(free, (60, 2))
    steps = first_steps(grid, pairs[:, 0], pairs[:, 1])
    for (s, t), v in zip(pairs, steps):
        if not np.isfinite(dist[s, t]):
            assert v == -1
        elif s == t:
            assert v == s
        else:
            assert graph[s, v] > 0 and graph[s, v] + dist[v, t] == pytest.approx(dist[s, t])
