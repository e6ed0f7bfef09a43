"""``GridMap.find_path`` picks its search from the map's jump table (``JumpTable.method``): A* on
open maps sprinkled with a few small obstacles, JPS+ on maps of rooms; every search returns the
optimal cost of an independent shortest-path solver (scipy.sparse.csgraph)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from navmesh.grid import GridMap
from navmesh.grid.preprocess import STOP_SHARE
from navmesh.grid.search import find_path, grid_astar, grid_dijkstra, jps_plus, jump_point_search

SQRT2 = 2.0**0.5


def random_walls(size: int, density: float, seed: int) -> np.ndarray:
    """Each cell a wall with probability ``density`` (Moving AI's random maps)."""
    return np.random.default_rng(seed).random((size, size)) < density


def room_walls(size: int, room: int, seed: int) -> np.ndarray:
    """Square rooms of ``room`` cells, one-cell walls, one door in each wall between two rooms."""
    rng = np.random.default_rng(seed)
    walls = np.zeros((size, size), dtype=bool)
    walls[room :: room + 1, :] = True
    walls[:, room :: room + 1] = True
    for line in range(room, size, room + 1):
        for first in range(0, size, room + 1):
            door = first + int(rng.integers(0, min(room, size - first)))
            walls[line, door] = False
            walls[door, line] = False
    return walls


def octile_distances(walls: np.ndarray, sources: list[int]) -> np.ndarray:
    """Shortest octile costs from ``sources`` by scipy's Dijkstra over the explicit step graph
    (8 neighbours, diagonal sqrt 2 and only with both side cells free)."""
    h, w = walls.shape
    rows, cols, weights = [], [], []
    for r in range(h):
        for c in range(w):
            if walls[r, c]:
                continue
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)):
                nr, nc = r + dr, c + dc
                if not (0 <= nr < h and 0 <= nc < w) or walls[nr, nc]:
                    continue
                if dr and dc and (walls[r, nc] or walls[nr, c]):
                    continue
                rows.append(r * w + c)
                cols.append(nr * w + nc)
                weights.append(SQRT2 if dr and dc else 1.0)
    graph = sp.csr_matrix((weights, (rows, cols)), shape=(h * w, h * w))
    return csgraph.dijkstra(graph, indices=sources)


SCATTERED = random_walls(128, 0.03, 3)
ROOMS = room_walls(128, 8, 4)


def test_an_open_map_sprinkled_with_obstacles_gets_astar():
    table = GridMap(SCATTERED).preprocess()
    assert table.stop_share >= STOP_SHARE
    assert table.method == "astar"


def test_a_map_of_rooms_gets_jps_plus():
    table = GridMap(ROOMS).preprocess()
    assert table.stop_share < STOP_SHARE
    assert table.method == "jps_plus"


def stop_share_by_definition(walls: np.ndarray, table: np.ndarray) -> float:
    """Per passable cell and diagonal direction: legal step (both side cells and the cell ahead
    passable, inside the map) whose table entry is 0; the count over four per passable cell."""
    h, w = walls.shape

    def free(c: int, r: int) -> bool:
        return 0 <= c < w and 0 <= r < h and not walls[r, c]

    stops = 0
    for r in range(h):
        for c in range(w):
            if walls[r, c]:
                continue
            v = (r + 1) * (w + 2) + c + 1
            for d, (dc, dr) in enumerate(((1, -1), (1, 1), (-1, 1), (-1, -1)), start=4):
                if free(c + dc, r) and free(c, r + dr) and free(c + dc, r + dr) and table[v, d] == 0:
                    stops += 1
    return stops / (4 * int((~walls).sum()))


@pytest.mark.parametrize("walls", [SCATTERED, ROOMS, np.zeros((3, 4), dtype=bool)], ids=["scattered", "rooms", "open"])
def test_stop_share_matches_its_definition(walls):
    table = GridMap(walls).preprocess()
    assert table.stop_share == pytest.approx(stop_share_by_definition(walls, table.table), abs=1e-15)


def test_a_one_cell_maze_has_no_diagonal_step_and_gets_jps_plus():
    # rows of corridors joined at alternate ends: no cell has a legal diagonal step
    maze = GridMap.from_strings(["......", "#####.", "......", ".#####", "......"])
    table = maze.preprocess()
    assert table.stop_share == 0.0
    assert table.method == "jps_plus"


def test_with_cells_measures_the_changed_map():
    grid = GridMap(ROOMS)
    grid.preprocess()
    # pulling the room walls down and scattering small obstacles instead
    scatter = SCATTERED.reshape(-1)
    changed = grid.with_cells(np.arange(scatter.size), np.where(scatter, np.inf, 1.0))
    assert changed.preprocessed is not None  # the table was updated, not rebuilt
    assert changed.preprocessed.method == "astar"
    assert changed.preprocessed.stop_share == GridMap(changed.costs).preprocess().stop_share


@pytest.mark.parametrize("walls", [SCATTERED, ROOMS], ids=["scattered", "rooms"])
def test_every_search_returns_the_csgraph_optimum(walls):
    grid = GridMap(walls)
    free = np.flatnonzero(~walls.reshape(-1))
    rng = np.random.default_rng(7)
    starts = rng.choice(free, 6, replace=False).tolist()
    dist = octile_distances(walls, starts)
    chosen = {"astar": grid_astar, "jps_plus": jps_plus}[grid.preprocess().method]
    checked = 0
    for i, s in enumerate(starts):
        goals = rng.choice(free[np.isfinite(dist[i, free])], 5, replace=False).tolist()
        for t in goals:
            for search in (grid_astar, grid_dijkstra, jump_point_search, jps_plus, find_path):
                assert search(grid, s, t).cost == pytest.approx(dist[i, t], rel=1e-12, abs=1e-12), search.__name__
            # find_path runs the search the table names (the same cells expanded)
            assert find_path(grid, s, t).expansions == chosen(grid, s, t).expansions
            checked += 1
    assert checked == 30
