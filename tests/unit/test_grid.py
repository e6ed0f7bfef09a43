"""GridMap: construction, step rules, world/cell conversion, NavGraph export, Tiled loading."""

from __future__ import annotations

import json
import pathlib
import threading

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    LevelFormatError,
    NodeNotFoundError,
    NoPathError,
)
from navmesh.grid import DIRECTION_NAMES, GridMap
from navmesh.grid.search import grid_astar

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
TILED = DATA / "tiled" / "grid_sample.tmj"
SQRT2 = 2**0.5


def dirs(grid: GridMap, col: int, row: int) -> set[str]:
    bits = int(grid.moves[row, col])
    return {name for d, name in enumerate(DIRECTION_NAMES) if bits >> d & 1}


# -- construction -------------------------------------------------------------------------------
def test_bool_cells_are_walls():
    grid = GridMap(np.array([[False, True], [False, False]]))
    assert grid.blocked.tolist() == [[False, True], [False, False]]
    assert grid.costs[0, 0] == 1.0 and grid.costs[0, 1] == np.inf
    assert grid.shape == (2, 2) and grid.n_cells == 4


def test_number_cells_are_multipliers_with_zero_and_inf_blocked():
    grid = GridMap(np.array([[1.0, 0.0, np.inf], [2.5, 0.5, 1.0]]))
    assert grid.blocked.tolist() == [[False, True, True], [False, False, False]]
    assert grid.costs[1].tolist() == [2.5, 0.5, 1.0]
    assert grid.min_multiplier == 0.5 and not grid.uniform_cost


def test_integer_cells_read_as_multipliers():
    grid = GridMap(np.array([[1, 0], [1, 1]]))
    assert grid.blocked.tolist() == [[False, True], [False, False]]
    assert grid.uniform_cost


@pytest.mark.parametrize("bad", [np.nan, -1.0, -np.inf])
def test_bad_multiplier_is_named(bad):
    cells = np.ones((3, 4))
    cells[2, 1] = bad
    with pytest.raises(InvalidCostError, match=r"cells\[2, 1\]"):
        GridMap(cells)


@pytest.mark.parametrize("cells", [np.ones(5), np.ones((2, 2, 2)), np.ones((0, 3)), [[]]])
def test_bad_shape(cells):
    with pytest.raises(InvalidGeometryError, match="shape"):
        GridMap(cells)


def test_string_cells_rejected():
    with pytest.raises(InvalidCostError, match="dtype"):
        GridMap(np.array([["a", "b"]]))


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"cell_size": 0}, InvalidOptionError, "cell_size=0"),
        ({"cell_size": float("nan")}, InvalidOptionError, "cell_size"),
        ({"cell_size": "big"}, InvalidOptionError, "cell_size='big'"),
        ({"origin": (1.0,)}, InvalidGeometryError, "origin"),
        ({"origin": (0.0, float("inf"))}, InvalidGeometryError, "origin"),
        ({"connectivity": 6}, InvalidOptionError, "connectivity=6"),
        ({"connectivity": True}, InvalidOptionError, "connectivity=True"),
        ({"diagonal": "sometimes"}, InvalidOptionError, "'never', 'no_corner_cutting', 'one_blocked', 'always'"),
        ({"wrap": "left"}, InvalidOptionError, "'none', 'x', 'y', 'both'"),
        ({"regions": np.zeros((2, 2), dtype=int)}, InvalidOptionError, "regions"),
        ({"regions": np.zeros((3, 3))}, InvalidOptionError, "regions"),
    ],
)
def test_bad_options(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        GridMap(np.zeros((3, 3), dtype=bool), **kwargs)


def test_arrays_are_read_only():
    grid = GridMap(np.zeros((3, 3), dtype=bool))
    for arr in (grid.blocked, grid.costs, grid.moves, grid.regions):
        with pytest.raises(ValueError):
            arr[0, 0] = 1


def test_from_strings_characters():
    grid = GridMap.from_strings([".GS@", "OTW#"], water="blocked")
    assert grid.blocked.tolist() == [[False, False, False, True], [True, True, True, True]]
    with pytest.raises(LevelFormatError, match="column 2"):
        GridMap.from_strings(["..", ".x"])


# -- step rules ---------------------------------------------------------------------------------
CORNER = ["..", "@."]  # from (0, 0) the diagonal to (1, 1) passes the wall at (0, 1)


@pytest.mark.parametrize(
    ("diagonal", "allowed"),
    [("never", False), ("no_corner_cutting", False), ("one_blocked", True), ("always", True)],
)
def test_diagonal_rule_one_side_blocked(diagonal, allowed):
    grid = GridMap.from_strings(CORNER, diagonal=diagonal)
    assert ("down_right" in dirs(grid, 0, 0)) is allowed
    assert ("up_left" in dirs(grid, 1, 1)) is allowed


@pytest.mark.parametrize(("diagonal", "allowed"), [("one_blocked", False), ("always", True)])
def test_diagonal_rule_both_sides_blocked(diagonal, allowed):
    grid = GridMap.from_strings([".@", "@."], diagonal=diagonal)
    assert ("down_right" in dirs(grid, 0, 0)) is allowed


def test_connectivity_4_has_no_diagonals():
    grid = GridMap.from_strings(["...", "...", "..."], connectivity=4, diagonal="always")
    assert dirs(grid, 1, 1) == {"up", "right", "down", "left"}
    grid8 = GridMap.from_strings(["...", "...", "..."])
    assert dirs(grid8, 1, 1) == set(DIRECTION_NAMES)


def test_borders_without_wrap():
    grid = GridMap.from_strings(["...", "..."])
    assert dirs(grid, 0, 0) == {"right", "down", "down_right"}


def test_wrap_x_joins_left_and_right_where_both_free():
    grid = GridMap.from_strings(["@...@", "....."], wrap="x", connectivity=4)
    assert "left" in dirs(grid, 0, 1) and "right" in dirs(grid, 4, 1)
    assert grid.cell_id(4, 1) in grid.neighbors(grid.cell_id(0, 1)).tolist()
    assert "left" not in dirs(grid, 1, 0)  # row 0: the border cells are walls, no tunnel
    assert "up" not in dirs(grid, 1, 0)  # no wrap along y


def test_wrap_y_and_both():
    grid = GridMap.from_strings(["...", "..."], wrap="y", connectivity=4)
    assert "up" in dirs(grid, 1, 0) and "left" not in dirs(grid, 0, 0)
    both = GridMap.from_strings(["...", "...", "..."], wrap="both")
    assert dirs(both, 0, 0) == set(DIRECTION_NAMES)


def test_wrap_tunnel_shortens_path():
    rows = ["@@@@@@@@", "........", "@@@@@@@@"]
    plain = GridMap.from_strings(rows, connectivity=4)
    tunnel = GridMap.from_strings(rows, wrap="x", connectivity=4)
    s, t = plain.cell_id(0, 1), plain.cell_id(7, 1)
    assert grid_astar(plain, s, t).cost == 7.0
    path = grid_astar(tunnel, s, t)
    assert path.cost == 1.0 and path.nodes.tolist() == [s, t]


def test_water_connects_only_to_water():
    grid = GridMap.from_strings(["..WW", "..WW"])
    assert "right" not in dirs(grid, 1, 0)
    assert "right" in dirs(grid, 2, 0) and "down_right" in dirs(grid, 2, 0)
    blocked = GridMap.from_strings(["..WW"], water="blocked")
    assert blocked.blocked.tolist() == [[False, False, True, True]]
    passable = GridMap.from_strings(["..WW"], water="passable")
    assert "right" in dirs(passable, 1, 0)
    with pytest.raises(InvalidOptionError, match="water"):
        GridMap.from_strings([".."], water="wet")


def test_regions_block_diagonal_sides():
    # The diagonal from (0, 0) to (1, 1) passes (1, 0) and (0, 1); one of them is region 1.
    grid = GridMap(np.zeros((2, 2), dtype=bool), regions=np.array([[0, 1], [0, 0]]))
    assert "down_right" not in dirs(grid, 0, 0)


# -- cells and world coordinates ----------------------------------------------------------------
def test_cell_ids_and_col_row():
    grid = GridMap(np.zeros((3, 5), dtype=bool))
    assert grid.cell_id(4, 2) == 14
    assert grid.cell_id([0, 4], [1, 2]).tolist() == [5, 14]
    assert grid.col_row(14).tolist() == [4, 2]
    assert grid.col_row([5, 14]).tolist() == [[0, 1], [4, 2]]
    with pytest.raises(NodeNotFoundError, match="outside"):
        grid.cell_id(5, 0)
    with pytest.raises(NodeNotFoundError, match="out of range"):
        grid.col_row(15)
    with pytest.raises(NodeNotFoundError):
        grid.cell_center(1.5)


def test_world_convention_rows_down_y_up():
    grid = GridMap(np.zeros((4, 3), dtype=bool), cell_size=10, origin=(100, 50))
    # row 0 is the top row: its centre has the largest y.
    assert grid.cell_center(grid.cell_id(0, 0)).tolist() == [105.0, 85.0]
    assert grid.cell_center(grid.cell_id(2, 3)).tolist() == [125.0, 55.0]
    assert grid.cell_at([105.0, 85.0]) == grid.cell_id(0, 0)
    assert grid.cell_at([100.0, 50.0]) == grid.cell_id(0, 3)  # bottom-left corner
    assert grid.cell_at([129.99, 89.99]) == grid.cell_id(2, 0)
    with pytest.raises(NodeNotFoundError, match="outside"):
        grid.cell_at([130.0, 60.0])
    with pytest.raises(NodeNotFoundError):
        grid.cell_at([[101.0, 51.0], [99.0, 51.0]])
    with pytest.raises(InvalidGeometryError):
        grid.cell_at([1.0, 2.0, 3.0])


def test_world_round_trip_vectorised():
    grid = GridMap(np.zeros((7, 9), dtype=bool), cell_size=2.5, origin=(-3, 4))
    ids = np.arange(grid.n_cells)
    centres = grid.cell_center(ids)
    assert centres.shape == (63, 2)
    assert grid.cell_at(centres).tolist() == ids.tolist()


def test_is_passable_and_neighbors():
    grid = GridMap.from_strings(["...", ".@.", "..."], connectivity=4)
    assert grid.is_passable(4) is False
    assert grid.is_passable([0, 4]).tolist() == [True, False]
    assert grid.neighbors(1).tolist() == [2, 0]  # right, left (down is the wall)


# -- NavGraph export ----------------------------------------------------------------------------
def test_to_navgraph_costs_use_mean_multiplier():
    grid = GridMap(np.array([[1.0, 3.0], [1.0, 1.0]]), cell_size=2.0)
    g = grid.to_navgraph()
    assert g.n_nodes == 4
    assert g.points.tolist() == grid.cell_center(np.arange(4)).tolist()
    cost = {(int(u), int(v)): w for u, v, w in zip(g.arc_sources, g.indices, g.lengths)}
    assert cost[(0, 1)] == pytest.approx(2.0 * (1 + 3) / 2)
    assert cost[(1, 0)] == cost[(0, 1)]
    assert cost[(0, 3)] == pytest.approx(2.0 * SQRT2)
    assert cost[(1, 2)] == pytest.approx(2.0 * SQRT2 * 2)


def test_to_navgraph_tags_wrap_arcs_and_skips_walls():
    grid = GridMap.from_strings(["...", "@.."], wrap="x", connectivity=4)
    g = grid.to_navgraph()
    wrapped = {(int(u), int(v)) for u, v, t in zip(g.arc_sources, g.indices, g.tags) if t == 1}
    assert wrapped == {(0, 2), (2, 0)}
    assert g.tag_names == ("", "wrap")
    assert len(g.neighbors(3)) == 0


def test_to_navgraph_matches_scipy_on_random_grid():
    rng = np.random.default_rng(4)
    cells = rng.uniform(0.5, 3.0, (12, 15))
    cells[rng.random((12, 15)) < 0.25] = np.inf
    cells[0, 0] = 1.0
    grid = GridMap(cells)
    dist = csgraph.dijkstra(grid.to_navgraph().to_scipy(), indices=0)
    for t in np.flatnonzero(np.isfinite(dist))[::7]:
        assert grid_astar(grid, 0, int(t)).cost == pytest.approx(dist[t], rel=1e-12)


# -- Tiled ----------------------------------------------------------------------------------------
WALLS = [
    "........",
    "..#.....",
    "..#..###",
    "..#.....",
    "........",
    "....#...",
]


def test_from_tiled_walls_and_costs():
    grid = GridMap.from_tiled(TILED)
    assert grid.shape == (6, 8) and grid.cell_size == 32.0
    assert grid.blocked.tolist() == [[ch == "#" for ch in row] for row in WALLS]
    assert grid.costs[0].tolist() == [0.5] * 8  # road along the top
    assert grid.costs[2, 0] == 3.0 and grid.costs[4, 3] == 3.0  # swamp
    assert grid.costs[5, 0] == 1.0


def test_from_tiled_scaling_and_options():
    grid = GridMap.from_tiled(TILED, scaling=0.5, origin=(100, -20), connectivity=4)
    assert grid.cell_size == 16.0 and grid.connectivity == 4
    assert grid.cell_center(0).tolist() == [108.0, -20 + 5.5 * 16]
    with pytest.raises(InvalidOptionError, match="scaling"):
        GridMap.from_tiled(TILED, scaling=0)


@pytest.mark.parametrize("cut", [1, 8, 17, 48])
def test_from_tiled_short_tile_layer_is_a_level_format_error(tmp_path, cut):
    """A tile layer with fewer tiles than the map's 6 x 8 (a ragged last row) names the layer and the shape."""
    data = json.loads(TILED.read_text())
    walls = next(layer for layer in data["layers"] if layer["name"] == "blocking")["layers"][0]
    walls["data"] = walls["data"][:-cut]
    (tmp_path / "short.tmj").write_text(json.dumps(data))
    (tmp_path / "grid_sample_tiles.png").write_bytes((TILED.parent / "grid_sample_tiles.png").read_bytes())
    with pytest.raises(LevelFormatError, match=rf"short\.tmj: tile layer 'walls' holds {48 - cut} tiles in \d rows; "
                                              r"expected 6 rows of 8 tiles"):
        GridMap.from_tiled(tmp_path / "short.tmj")


def test_from_tiled_matches_arcade_placement():
    arcade = pytest.importorskip("arcade")
    try:
        tile_map = arcade.load_tilemap(TILED, lazy=True)
    except Exception as exc:  # pragma: no cover - depends on the machine's graphics stack
        pytest.skip(f"arcade cannot load the tile map here: {exc}")
    grid = GridMap.from_tiled(tile_map)
    assert grid.blocked.sum() == len(tile_map.sprite_lists["walls"])
    for sprite in tile_map.sprite_lists["walls"]:
        cell = grid.cell_at(sprite.position)
        assert not grid.is_passable(cell)
        assert grid.cell_center(cell).tolist() == pytest.approx(list(sprite.position))


def _edited_map(tmp_path, edit) -> pathlib.Path:
    data = json.loads(TILED.read_text())
    edit(data)
    out = tmp_path / "edited.tmj"
    out.write_text(json.dumps(data))
    (tmp_path / "grid_sample_tiles.png").write_bytes((TILED.parent / "grid_sample_tiles.png").read_bytes())
    return out


def test_from_tiled_missing_walls_layer(tmp_path):
    path = _edited_map(tmp_path, lambda d: d["layers"][1]["layers"][0].update(name="blocks"))
    with pytest.raises(LevelFormatError, match=r"no tile layer named 'walls'.*'ground', 'blocks'"):
        GridMap.from_tiled(path)
    assert GridMap.from_tiled(path, walls_layer="blocks").blocked.sum() == 7


def test_from_tiled_bad_cost_property(tmp_path):
    def edit(d):
        d["tilesets"][0]["tiles"][0]["properties"][0].update(type="string", value="muddy")

    with pytest.raises(LevelFormatError, match="cost='muddy'"):
        GridMap.from_tiled(_edited_map(tmp_path, edit))


def test_from_tiled_rejects_other_orientations_and_bad_files(tmp_path):
    path = _edited_map(tmp_path, lambda d: d.update(orientation="isometric"))
    with pytest.raises(LevelFormatError, match="isometric"):
        GridMap.from_tiled(path)
    broken = tmp_path / "broken.tmj"
    broken.write_text("{ not json")
    with pytest.raises(LevelFormatError, match="broken.tmj"):
        GridMap.from_tiled(broken)
    with pytest.raises(FileNotFoundError):
        GridMap.from_tiled(tmp_path / "missing.tmj")
    with pytest.raises(InvalidOptionError, match="not a Tiled map"):
        GridMap.from_tiled(42)


# -- sharing ------------------------------------------------------------------------------------
def test_threads_share_one_grid():
    rng = np.random.default_rng(11)
    walls = rng.random((40, 40)) < 0.2
    walls[0, 0] = walls[-1, -1] = False
    grid = GridMap(walls)
    free = np.flatnonzero(~walls.reshape(-1))
    pairs = [tuple(int(x) for x in rng.choice(free, 2)) for _ in range(60)]

    def cost(s, t):
        try:
            return grid_astar(grid, s, t).cost
        except NoPathError:
            return None

    expected = [cost(s, t) for s, t in pairs]
    results: list[list] = [[] for _ in range(4)]

    def work(k):
        results[k] = [cost(s, t) for s, t in pairs]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all(r == expected for r in results)
    before = grid.moves.copy()
    assert (grid.moves == before).all()


def test_no_module_reads_gridmap_private_attributes():
    """Searches, flow fields and preprocessing take everything from ``grid.arrays``."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "navmesh"
    pattern = re.compile(r"\b(grid|self\.grid|g)\._[a-z]")
    offenders = [
        f"{path.relative_to(root)}:{i}"
        for path in root.rglob("*.py")
        if path.name != "map.py"
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_array_bundle_describes_the_map():
    grid = GridMap.from_strings(["..@", "...", "@.."], cell_size=2.0)
    a = grid.arrays
    assert (a.height, a.width, a.n_cells) == (3, 3, 9)
    assert a.blocked.tolist() == grid.blocked.reshape(-1).tolist()
    assert a.moves.tolist() == grid.moves.reshape(-1).tolist()
    assert a.half_cost.tolist() == [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0]
    assert a.uniform and not a.unit_steps and a.hscale == 2.0 and a.jps_problem == ""
    assert GridMap.from_strings(["..", ".."], connectivity=4).arrays.unit_steps
    assert "wrap" in GridMap.from_strings(["..", ".."], wrap="x").arrays.jps_problem
