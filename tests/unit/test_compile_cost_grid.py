"""A partial grid path is finished by the caller (the nearest expanded cell in numpy, then the
tracing kernels), no longer inside each search kernel (compile cost). Checked against independent
answers: a brute-force nearest expanded cell, and scipy's Dijkstra for paths and first steps."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

from navmesh._kernels import grid as K
from navmesh.grid import GridMap, first_steps, grid_astar, jump_point_search


def _nearest_brute(g, stamp, closed, height, width, wrap_r, wrap_c, goal):
    gr, gc = divmod(goal, width)
    best, best_key = -1, None
    for v in range(len(stamp)):
        if stamp[v] != closed:
            continue
        dr, dc = abs(v // width - gr), abs(v % width - gc)
        if wrap_r:
            dr = min(dr, height - dr)
        if wrap_c:
            dc = min(dc, width - dc)
        key = (dr * dr + dc * dc, g[v], v)
        if best_key is None or key < best_key:
            best, best_key = v, key
    return best


@pytest.mark.parametrize("seed", range(40))
def test_nearest_expanded_matches_a_brute_force_scan(seed):
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    n = height * width
    stamp = rng.integers(4, 8, n).astype(np.int32)
    if seed % 4 == 0:
        stamp[int(rng.integers(0, n))] = 7
    g = rng.integers(0, 3, n).astype(np.float64)  # many ties in g as well as in distance
    goal = int(rng.integers(0, n))
    for wrap_r in (False, True):
        for wrap_c in (False, True):
            got = K.nearest_expanded(g, stamp, np.int32(7), height, width, wrap_r, wrap_c, goal)
            assert got == _nearest_brute(g, stamp, 7, height, width, wrap_r, wrap_c, goal)


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
