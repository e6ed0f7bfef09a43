"""navmesh.level_grid: a level rasterised for one unit type, and a tile map turned into a level."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navmesh.errors import InvalidOptionError
from navmesh.grid import GridMap
from navmesh.level import Level
from navmesh.level_grid import grid_from_level, level_from_grid
from navmesh.terrain import CostProfile

INF = math.inf


def _level() -> Level:
    # 6 x 4 world units; a 1 x 1 block at (4..5, 0..1); swamp over the top-left 2 x 2, water
    # at (2..3, 2..4), a road painted over the swamp's right column (painter's rule: it wins)
    return Level.rectangle(
        6, 4,
        obstacles=[[(4, 0), (5, 0), (5, 1), (4, 1)]],
        terrain=[([(0, 2), (2, 2), (2, 4), (0, 4)], "swamp"), ([(2, 2), (3, 2), (3, 4), (2, 4)], "water"),
                 ([(1, 2), (2, 2), (2, 4), (1, 4)], "road")],
    )


def test_cells_cost_the_profile_multiplier_at_their_centre():
    tank = CostProfile("tank", {"swamp": 3.0, "road": 0.5}, forbidden={"water"})
    grid = grid_from_level(_level(), 1.0, profile=tank)
    assert grid.origin == (0.0, 0.0)
    assert grid.costs.tolist() == [          # row 0 is the top row (y from 3 to 4)
        [3.0, 0.5, INF, 1.0, 1.0, 1.0],
        [3.0, 0.5, INF, 1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0, INF, 1.0],      # the block
    ]


def test_default_profile_and_agent_radius():
    grid = grid_from_level(_level(), 1.0, agent_radius=0.6)
    costs = grid.costs
    # cell centres lie 0.5 from the bounds' edge: a radius of 0.6 walls the whole rim in
    assert np.isinf(costs[[0, -1], :]).all() and np.isinf(costs[:, [0, -1]]).all()
    # (4.5, 1.5) is 0.5 above the block's top edge: a wall; (3.5, 1.5) is 0.707 from its corner
    # (4, 1), farther than the radius: free
    assert costs[2, 1:5].tolist() == [1.0, 1.0, 1.0, INF]
    assert costs[1, 1:5].tolist() == [1.0, 1.0, 1.0, 1.0]   # every tag x1, nothing forbidden


def test_partial_cells_are_dropped():
    grid = grid_from_level(_level(), 4.0)
    assert (grid.height, grid.width) == (1, 1) and grid.origin == (0.0, 0.0)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, "1"])
def test_bad_cell_size_is_an_error(bad):
    with pytest.raises(InvalidOptionError, match="cell_size"):
        grid_from_level(_level(), bad)


def test_a_level_smaller_than_one_cell_is_an_error():
    with pytest.raises(InvalidOptionError, match="at least one cell"):
        grid_from_level(_level(), 10.0)


def test_level_from_grid_merges_walls_and_puts_waypoints_at_free_cells():
    grid = GridMap.from_strings(["#..", "#.#", "..."], cell_size=2.0)
    level = level_from_grid(grid)
    assert level.bounds.bounds == (0.0, 0.0, 6.0, 6.0)
    assert sorted(p.bounds for p in level.obstacles) == [(0.0, 2.0, 2.0, 6.0), (4.0, 2.0, 6.0, 4.0)]
    assert level.n_waypoints == 6
    assert sorted(map(tuple, np.asarray(level.waypoints)[:, :2].tolist())) == sorted(
        map(tuple, grid.cell_center(np.flatnonzero(~grid.blocked.reshape(-1))).tolist()))
    assert level_from_grid(grid, waypoints="none").n_waypoints == 0
    with pytest.raises(InvalidOptionError, match="waypoints"):
        level_from_grid(grid, waypoints="all")


def test_round_trip_keeps_the_walls():
    grid = GridMap.from_strings(["..#.", ".##.", "...."])
    again = grid_from_level(level_from_grid(grid, waypoints="none"), 1.0)
    assert again.blocked.tolist() == grid.blocked.tolist()
