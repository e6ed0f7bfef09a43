"""The grid search kernels after issue 21's rework, against independent answers.

- the workspace's generation stamps (cost and stamp now in separate arrays): searches across the
  stamp reset give scipy's costs, which they would not if stale stamps survived the reset;
- Jump Point Search with its pruned directions listed in one place: every path is a chain of
  legal unit steps (no corner cut) whose length is scipy's distance, and JPS+ gives the very
  same cells;
- the maze breadth-first search, plain and hopping between junctions (now one loop): every
  first step is the first of up, right, down, left that lies on a shortest path, by scipy's
  breadth-first distances.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

from navmesh._kernels import grid_maze as K_M
from navmesh.grid import GridMap
from navmesh.grid.search import grid_astar, grid_dijkstra, jump_point_search
from navmesh.grid.workspace import _MAX_GEN

SQRT2 = 2**0.5


def random_grid(seed: int, shape: tuple[int, int], wall_rate: float) -> GridMap:
    rng = np.random.default_rng(seed)
    return GridMap(rng.random(shape) < wall_rate)


def scipy_costs(grid: GridMap, source: int) -> np.ndarray:
    return csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=source)


def test_searches_across_the_stamp_reset_match_scipy():
    grid = random_grid(21, (24, 31), 0.25)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    rng = np.random.default_rng(4)
    pairs = [tuple(int(x) for x in rng.choice(free, 2)) for _ in range(12)]
    truth = [scipy_costs(grid, s)[t] for s, t in pairs]
    # A Dijkstra search in generation 1 stamps most cells 2 or 3 (reached, expanded). Then the
    # pooled workspace is moved to the last generation, so giving it back resets it to
    # generation 1: a stamp that survived the reset would read as "reached" or "expanded".
    grid_dijkstra(grid, int(free[0]), int(free[-1]), allow_partial=True)
    pool = grid.arrays.workspaces
    ws = pool.borrow(grid.arrays.n_cells)
    assert ws.gen == 2
    ws.gen = _MAX_GEN - 1
    pool.give_back(ws)
    assert ws.gen == 1
    got = [grid_astar(grid, s, t, allow_partial=True).cost for s, t in pairs]
    reached = np.isfinite(truth)
    assert reached.sum() >= 6
    assert np.allclose(np.array(got)[reached], np.array(truth)[reached], rtol=1e-12, atol=0)


def _check_steps(grid: GridMap, nodes: np.ndarray) -> float:
    """Length of a cell chain, asserting every step is a legal 8-connected, no-corner-cut step."""
    free = ~grid.blocked
    total = 0.0
    for a, b in zip(nodes[:-1].tolist(), nodes[1:].tolist()):
        (ar, ac), (br, bc) = divmod(a, grid.width), divmod(b, grid.width)
        dr, dc = br - ar, bc - ac
        assert max(abs(dr), abs(dc)) == 1 and free[br, bc]
        if dr and dc:
            assert free[ar, bc] and free[br, ac], f"corner cut from {a} to {b}"
            total += SQRT2
        else:
            total += 1.0
    return total


@pytest.mark.parametrize("seed", range(4))
def test_jump_point_search_paths_are_legal_and_shortest(seed):
    grid = random_grid(100 + seed, (28, 35), (0.1, 0.2, 0.3, 0.4)[seed])
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    rng = np.random.default_rng(seed)
    checked = 0
    for s in rng.choice(free, 6).tolist():
        dist = scipy_costs(grid, s)
        for t in rng.choice(free, 8).tolist():
            if not np.isfinite(dist[t]):
                continue
            plain = jump_point_search(grid, s, t)
            assert plain.nodes[0] == s and plain.nodes[-1] == t
            assert _check_steps(grid, plain.nodes) == pytest.approx(dist[t], rel=1e-12)
            assert plain.cost == pytest.approx(dist[t], rel=1e-12)
            checked += 1
    assert checked >= 10


def _lattice(seed: int, cells_w: int = 9, cells_h: int = 7, extra: int = 12) -> np.ndarray:
    """Walls of a random lattice maze (walls on every even/even cell and the border) with loops."""
    rng = np.random.default_rng(seed)
    w, h = 2 * cells_w + 1, 2 * cells_h + 1
    walls = np.ones((h, w), dtype=bool)
    walls[1::2, 1::2] = False
    seen = np.zeros((cells_h, cells_w), dtype=bool)
    stack = [(0, 0)]
    seen[0, 0] = True
    while stack:
        cx, cy = stack[-1]
        options = [(cx + dx, cy + dy, dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= cx + dx < cells_w and 0 <= cy + dy < cells_h and not seen[cy + dy, cx + dx]]
        if not options:
            stack.pop()
            continue
        nx, ny, dx, dy = options[rng.integers(len(options))]
        seen[ny, nx] = True
        walls[2 * cy + 1 + dy, 2 * cx + 1 + dx] = False
        stack.append((nx, ny))
    opened = 0
    while opened < extra:
        x, y = int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1))
        if x % 2 != y % 2 and walls[y, x]:
            walls[y, x] = False
            opened += 1
    return walls


@pytest.mark.parametrize("seed", range(3))
def test_maze_first_steps_plain_and_hopping_follow_the_direction_rule(seed):
    walls = _lattice(seed)
    grid = GridMap(walls, connectivity=4)
    a = grid.arrays
    steps = csgraph.shortest_path(grid.to_navgraph().to_scipy(), unweighted=True)
    free = np.flatnonzero(~walls.reshape(-1))
    junctions = [int(v) for v in free if (v // grid.width) % 2 == 1 and (v % grid.width) % 2 == 1]
    rng = np.random.default_rng(seed)
    w = grid.width
    for s in rng.choice(junctions, 12).tolist():
        for t in free.tolist():
            if t == s:
                continue
            # up, right, down, left: the first neighbour one step closer to the goal
            want = next(n for n in (s - w, s + 1, s + w, s - 1) if not walls.flat[n] and steps[n, t] == steps[s, t] - 1)
            plain = K_M.first_step_bfs(a.moves, a.height, a.width, False, False, s, t)
            hop = K_M.first_step_bfs(a.moves, a.height, a.width, False, True, s, t)
            assert plain == want and hop == want, (s, t, plain, hop, want)
