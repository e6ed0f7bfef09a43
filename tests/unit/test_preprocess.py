"""JPS+ preprocessing: the jump table against a cell-by-cell scan written from its definition,
local updates against a rebuild, the fallback after a change, and ``GridMap.find_path``."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from navmesh.errors import InvalidCostError, InvalidOptionError, NodeNotFoundError
from navmesh.grid import GridMap
from navmesh.grid.preprocess import JumpTable
from navmesh.grid.search import find_path, grid_astar, jps_plus

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# (col, row) unit step of each table direction: up, right, down, left, then the diagonals.
STEPS = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)]


def scan_table(walls: np.ndarray) -> np.ndarray:
    """The jump table written out from its definition, one cell and direction at a time."""
    h, w = walls.shape

    def free(c: int, r: int) -> bool:
        return 0 <= c < w and 0 <= r < h and not walls[r, c]

    def forced(c: int, r: int, dc: int, dr: int) -> bool:
        # A side cell that is free while the cell behind it (against the move) is a wall.
        for sc, sr in ((dr, dc), (-dr, -dc)):
            if free(c + sc, r + sr) and not free(c + sc - dc, r + sr - dr):
                return True
        return False

    def straight(c: int, r: int, dc: int, dr: int) -> int:
        k = 0
        while free(c, r):
            if forced(c, r, dc, dr):
                return k
            c, r, k = c + dc, r + dr, k + 1
        return -k

    out = np.zeros(((h + 2) * (w + 2), 8), dtype=np.int64)
    for r in range(h):
        for c in range(w):
            if walls[r, c]:
                continue
            v = (r + 1) * (w + 2) + c + 1
            for d in range(4):
                out[v, d] = straight(c, r, *STEPS[d])
            for d in range(4, 8):
                dc, dr = STEPS[d]
                cc, rr, k = c, r, 0
                while True:
                    if (free(cc + dc, rr) and straight(cc + dc, rr, dc, 0) >= 0) or (
                        free(cc, rr + dr) and straight(cc, rr + dr, 0, dr) >= 0
                    ):
                        out[v, d] = k
                        break
                    if free(cc + dc, rr) and free(cc, rr + dr) and free(cc + dc, rr + dr):
                        cc, rr, k = cc + dc, rr + dr, k + 1
                    else:
                        out[v, d] = -(k + 1)
                        break
    return out


@st.composite
def wall_maps(draw, max_side: int = 12):
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.1, 0.25, 0.4]))
    seed = draw(st.integers(0, 2**31 - 1))
    return np.random.default_rng(seed).random((h, w)) < density


def octile_reference(walls: np.ndarray) -> np.ndarray:
    """All-pairs least costs from the rules as stated (8 moves, sqrt 2 diagonals, no corner cutting)."""
    h, w = walls.shape
    rows, cols, vals = [], [], []
    for r in range(h):
        for c in range(w):
            if walls[r, c]:
                continue
            for dc, dr in STEPS:
                c2, r2 = c + dc, r + dr
                if not (0 <= c2 < w and 0 <= r2 < h) or walls[r2, c2]:
                    continue
                if dc and dr and (walls[r, c2] or walls[r2, c]):
                    continue
                rows.append(r * w + c)
                cols.append(r2 * w + c2)
                vals.append(np.sqrt(2.0) if dc and dr else 1.0)
    m = sp.csr_matrix((vals, (rows, cols)), shape=(h * w, h * w))
    return csgraph.dijkstra(m)


@SETTINGS
@given(wall_maps())
def test_jump_table_equals_the_scan_definition(walls):
    table = GridMap(walls).preprocess().table
    assert np.array_equal(table.astype(np.int64), scan_table(walls))


@SETTINGS
@given(wall_maps(), st.data())
def test_jps_plus_is_optimal(walls, data):
    grid = GridMap(walls)
    free = np.flatnonzero(~walls.reshape(-1))
    if free.size == 0:
        return
    dist = octile_reference(walls)
    for _ in range(5):
        s = int(data.draw(st.sampled_from(free.tolist())))
        t = int(data.draw(st.sampled_from(free.tolist())))
        if not np.isfinite(dist[s, t]):
            with pytest.raises(Exception, match="cannot be reached"):
                jps_plus(grid, s, t)
            continue
        got = jps_plus(grid, s, t)
        assert got.cost == pytest.approx(dist[s, t], rel=1e-12, abs=1e-12)
        assert grid.find_path(s, t).cost == pytest.approx(dist[s, t], rel=1e-12, abs=1e-12)


@SETTINGS
@given(wall_maps(max_side=16), st.data())
def test_local_update_equals_rebuild(walls, data):
    grid = GridMap(walls)
    grid.preprocess()
    n = walls.size
    k = data.draw(st.integers(1, min(4, n)))
    cells = data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True))
    values = data.draw(st.lists(st.sampled_from([1.0, np.inf]), min_size=k, max_size=k))
    changed = grid.with_cells(cells, values)
    assert changed.preprocessed is not None
    rebuilt = GridMap(changed.blocked).preprocess()
    assert changed.preprocessed == rebuilt
    assert np.array_equal(changed.preprocessed.table, scan_table(changed.blocked).astype(np.int16))


def test_door_closing_changes_the_path():
    grid = GridMap.from_strings([
        "..........",
        "....@.....",
        "....@.....",
        "....@.....",
    ])
    grid.preprocess()
    open_cost = grid.find_path((0, 3), (9, 3)).cost
    door = grid.with_cells([(4, 0)], np.inf)          # wall the gap above the wall
    with pytest.raises(Exception, match="cannot be reached"):
        door.find_path((0, 3), (9, 3))
    reopened = door.with_cells([(4, 0)], 1.0)
    assert reopened.preprocessed == grid.preprocessed
    assert reopened.find_path((0, 3), (9, 3)).cost == open_cost
    assert grid.find_path((0, 3), (9, 3)).cost == open_cost   # the old map is untouched


def test_change_to_weighted_cells_falls_back_to_astar():
    grid = GridMap.from_strings(["......", "......", "......"])
    grid.preprocess()
    swamp = grid.with_cells([(2, 0), (2, 1), (2, 2)], 5.0)
    assert swamp.preprocessed is None                  # no stale table is carried over
    path = swamp.find_path((0, 1), (5, 1))
    assert path.cost == pytest.approx(grid_astar(swamp, (0, 1), (5, 1)).cost)
    assert path.cost == pytest.approx(4.0 + 5.0)       # the swamp column costs (5 + 5) / 2 per half step
    with pytest.raises(InvalidOptionError, match="one cost multiplier"):
        swamp.preprocess()
    with pytest.raises(InvalidOptionError, match="one cost multiplier"):
        jps_plus(swamp, 0, 5)


def test_preprocess_reports_time_and_memory_and_is_cached():
    grid = GridMap(np.zeros((20, 30), dtype=bool))
    assert grid.preprocessed is None
    table = grid.preprocess()
    assert grid.preprocess() is table and grid.preprocessed is table
    assert table.nbytes == 22 * 32 * 8 * 2
    assert table.build_seconds >= 0.0
    assert "MiB" in repr(table)
    assert not table.table.flags.writeable


def test_find_path_builds_the_table_lazily_and_uses_astar_elsewhere():
    grid = GridMap.from_strings(["....", ".@..", "...."])
    assert grid.preprocessed is None
    assert round(grid.find_path(8, 3).cost, 4) == 4.4142
    assert isinstance(grid.preprocessed, JumpTable)
    four = GridMap.from_strings(["....", ".@..", "...."], connectivity=4)
    assert four.find_path(8, 3).cost == 5.0
    assert four.preprocessed is None


def test_endpoints_as_ids_cells_and_world_positions():
    grid = GridMap.from_strings(["....", ".@..", "...."], cell_size=10.0, origin=(100.0, 0.0))
    by_id = find_path(grid, 8, 3)
    by_cell = find_path(grid, (0, 2), (3, 0))
    by_world = find_path(grid, (105.0, 5.0), (135.0, 25.0))
    by_numpy = find_path(grid, np.array([0, 2]), np.array([135.0, 25.0]))
    for p in (by_cell, by_world, by_numpy):
        assert p.nodes.tolist() == by_id.nodes.tolist()
    assert grid_astar(grid, start=(0, 2), goal=(3, 0)).cost == by_id.cost
    with pytest.raises(NodeNotFoundError, match=r"start=\(col 4, row 0\) lies outside"):
        find_path(grid, (4, 0), 3)
    assert find_path(grid, (99.0, 5.0), 3).start_moved      # 1 unit outside: moved in (the endpoint policy)
    with pytest.raises(NodeNotFoundError, match="outside the grid"):
        find_path(grid, (80.0, 5.0), 3)                      # 20 units: beyond BOUNDS_MARGIN
    assert find_path(grid, 0, (1, 1)).goal_moved             # a blocked goal moves to a free cell
    with pytest.raises(NodeNotFoundError, match=r"goal=.*blocked"):
        find_path(grid, 0, (1, 1), strict=True)
    with pytest.raises(NodeNotFoundError, match="is not a cell"):
        find_path(grid, "a", 3)
    with pytest.raises(NodeNotFoundError, match="is not a cell"):
        find_path(grid, (1, 2, 3), 3)


def test_with_cells_validates():
    grid = GridMap.from_strings(["...", "..."])
    with pytest.raises(NodeNotFoundError):
        grid.with_cells([6], 1.0)
    with pytest.raises(InvalidCostError):
        grid.with_cells([0], -1.0)
    with pytest.raises(InvalidCostError):
        grid.with_cells([0], "x")


def test_multipliers_the_arithmetic_cannot_carry_are_refused():
    with pytest.raises(InvalidCostError, match=r"cells\[0, 1\]=1e\+308 is too large.*1e\+300"):
        GridMap(np.array([[1.0, 1e308]]))
    with pytest.raises(InvalidCostError, match="too large"):
        GridMap(np.array([[1.0, 1e150]]), cell_size=1e151)
    grid = GridMap(np.array([[1.0, 1e290, 1.0]]))          # big but finite costs are fine
    assert np.isfinite(grid.find_path(0, 2).cost)
