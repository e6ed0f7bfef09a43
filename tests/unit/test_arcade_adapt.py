"""Tests of navmesh.arcade_adapt: levels and grids from arcade sprites and tile maps, sprites moved."""

from __future__ import annotations

import math
import re
import warnings
from decimal import Decimal

import numpy as np
import pytest
import shapely

arcade = pytest.importorskip("arcade")

import navmesh  # noqa: E402
from navmesh.arcade_adapt import (  # noqa: E402
    MAX_SPRITE_GRID_CELLS,
    follow_path,
    grid_from_sprites,
    grid_from_tilemap,
    level_from_sprites,
    level_from_tilemap,
    place_sprites,
    sprite_radius,
    walk_to,
)
from navmesh.errors import (  # noqa: E402
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshWarning,
    NodeNotFoundError,
    NoPathError,
)
from navmesh.steering import Crowd  # noqa: E402

CELL = 32


def wall_sprites(cells):
    """Wall sprites of CELL px standing on the given (col, row-from-bottom) cells."""
    walls = arcade.SpriteList()
    for col, row in cells:
        walls.append(arcade.SpriteSolidColor(CELL, CELL, center_x=(col + 0.5) * CELL, center_y=(row + 0.5) * CELL))
    return walls


# An L-shaped wall in a 6 x 5 cell room: column 2 rows 1-3 (from the bottom) and row 1 cols 3-4.
L_CELLS = [(2, 1), (2, 2), (2, 3), (3, 1), (4, 1)]


class TestLevelFromSprites:
    def test_touching_sprites_merge_into_one_obstacle(self):
        level = level_from_sprites(wall_sprites(L_CELLS), bounds=(6 * CELL, 5 * CELL))
        assert len(level.obstacles) == 1
        wall = level.obstacles[0]
        assert wall.area == pytest.approx(5 * CELL * CELL)
        expected = shapely.union_all([shapely.box(c * CELL, r * CELL, (c + 1) * CELL, (r + 1) * CELL) for c, r in L_CELLS])
        assert wall.symmetric_difference(expected).area == pytest.approx(0)
        assert level.bounds.bounds == (0.0, 0.0, 192.0, 160.0)

    def test_bounds_forms_and_default(self):
        walls = wall_sprites([(1, 1), (4, 2)])
        assert level_from_sprites(walls).bounds.bounds == (32.0, 32.0, 160.0, 96.0)  # the walls' extent
        assert level_from_sprites(walls, bounds=(-10, -20, 300, 200)).bounds.bounds == (-10.0, -20.0, 300.0, 200.0)
        assert len(level_from_sprites(walls, bounds=(200, 200)).obstacles) == 2

    def test_rotated_and_scaled_hit_boxes(self):
        sprite = arcade.SpriteSolidColor(40, 10, center_x=100, center_y=100)
        sprite.angle = 90  # now 10 wide, 40 tall
        level = level_from_sprites([sprite], bounds=(200, 200))
        assert level.obstacles[0].bounds == pytest.approx((95, 80, 105, 120))

    def test_path_goes_around_the_sprites(self):
        level = level_from_sprites(wall_sprites(L_CELLS), bounds=(6 * CELL, 5 * CELL))
        query = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True))
        path = query.find_path((16, 80), (112, 16))  # left of the wall to below its foot
        walls = level.obstacles[0]
        assert not shapely.intersects(shapely.LineString(path.points), shapely.buffer(walls, -1e-6))
        assert path.length > math.dist((16, 80), (112, 16))

    def test_bad_input(self):
        with pytest.raises(InvalidOptionError, match="walls="):
            level_from_sprites([1, 2, 3], bounds=(10, 10))
        with pytest.raises(InvalidGeometryError, match="bounds"):
            level_from_sprites(wall_sprites([(0, 0)]), bounds=(10, -5))
        with pytest.raises(InvalidGeometryError, match="bounds is needed"):
            level_from_sprites(arcade.SpriteList())

    @pytest.mark.parametrize("build", [
        lambda walls: level_from_sprites(walls, bounds=(200, 200)),
        lambda walls: grid_from_sprites(walls, CELL, bounds=(200, 200)),
    ])
    @pytest.mark.parametrize("position", [(math.nan, 10), (10, math.inf), (-math.inf, 10), (1e300, 10)])
    def test_a_wall_at_a_non_finite_position_is_named_by_index(self, build, position):
        walls = wall_sprites([(0, 0), (2, 2), (4, 4)])
        walls[2].position = position
        with pytest.raises(InvalidGeometryError, match=r"walls\[2\] at position \(.*must be finite"):
            build(walls)


class TestGridFromSprites:
    def test_sprites_on_cells_block_exactly_those_cells(self):
        grid = grid_from_sprites(wall_sprites(L_CELLS), CELL, bounds=(6 * CELL, 5 * CELL))
        expected = np.zeros((5, 6), dtype=bool)
        for col, row_up in L_CELLS:
            expected[4 - row_up, col] = True  # row 0 of the grid is the top row
        assert grid.blocked.tolist() == expected.tolist()
        assert grid.origin == (0.0, 0.0) and grid.cell_size == CELL

    def test_world_positions_are_arcade_positions(self):
        walls = wall_sprites(L_CELLS)
        grid = grid_from_sprites(walls, CELL, bounds=(6 * CELL, 5 * CELL))
        for sprite in walls:
            cell = grid.cell_at(sprite.position)
            assert not grid.is_passable(cell)
            assert grid.cell_center(cell).tolist() == list(sprite.position)

    def test_search_around_the_wall(self):
        grid = grid_from_sprites(wall_sprites(L_CELLS), CELL, bounds=(6 * CELL, 5 * CELL))
        path = navmesh.grid_astar(grid, grid.cell_at((48, 48)), grid.cell_at((112, 16)))
        # From cell (1, 1) beside the wall to (3, 0) under its foot. By hand: the diagonal down-right
        # would cut the wall's corner, so down 1 and right 2: 3 cells of 32 px.
        cells = grid.col_row(path.nodes)
        assert all(grid.is_passable(path.nodes))
        assert (np.abs(np.diff(cells, axis=0)).max(axis=1) == 1).all()
        assert path.cost == pytest.approx(3 * CELL)

    def test_agent_radius_grows_walls(self):
        walls = wall_sprites([(3, 3)])
        plain = grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL))
        assert plain.blocked.sum() == 1
        half = grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=16)
        assert half.blocked.sum() == 1  # an agent filling its cell exactly does not touch the wall
        with pytest.warns(NavmeshWarning):
            wide = grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=17)
        assert wide.blocked.sum() == 5  # the 4 edge neighbours (centres 16 px away), not the diagonals
        with pytest.warns(NavmeshWarning):
            wider = grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=23)
        assert wider.blocked.sum() == 9  # diagonal neighbours: 16 * sqrt(2) = 22.6 px from the corner

    def test_a_radius_above_half_a_cell_warns_with_the_numbers(self):
        walls = wall_sprites([(3, 3)])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=16)  # fits a cell: silent
        with pytest.warns(NavmeshWarning, match=r"agent_radius=17 is more than half the cell size \(32 / 2\).*"
                                                r"narrower than 2 x 17 = 34 .*\(4 of 48 free cells blocked\).*fit='box'"):
            grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=17)

    def test_a_unit_that_fits_a_cell_passes_a_maze_corridor(self):
        # arcade's maze_recursive.py: one-tile corridors, a player sprite taller than wide; its
        # circle (17.09 px there) closed all of them, its box fits a tile
        maze = ["#######", "#.....#", "#.###.#", "#.#...#", "#.#.###", "#.....#", "#######"]
        walls = wall_sprites([(c, len(maze) - 1 - r) for r, row in enumerate(maze) for c, ch in enumerate(row) if ch == "#"])
        player = arcade.SpriteSolidColor(22, 32, center_x=48, center_y=176)
        assert sprite_radius(player) > CELL / 2 >= sprite_radius(player, fit="box")
        with pytest.warns(NavmeshWarning, match="closes every corridor"):
            closed = grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=sprite_radius(player))
        assert closed.blocked.all()
        grid = grid_from_sprites(walls, CELL, bounds=(7 * CELL, 7 * CELL), agent_radius=sprite_radius(player, fit="box"))
        assert (~grid.blocked).sum() == sum(row.count(".") for row in maze)
        follower = walk_to(player, grid, (176, 48), speed=300.0)
        boxes = shapely.union_all([shapely.Polygon(w.hit_box.get_adjusted_points()) for w in walls])
        while not follower.done:
            follow_path(player, follower, 1 / 60)
            assert shapely.intersection(shapely.Polygon(player.hit_box.get_adjusted_points()), boxes).area <= 1e-9
        assert player.position == (176.0, 48.0)

    def test_bad_cell_size_and_radius(self):
        with pytest.raises(InvalidOptionError, match="cell_size"):
            grid_from_sprites(wall_sprites([(0, 0)]), 0)
        with pytest.raises(InvalidOptionError, match="agent_radius"):
            grid_from_sprites(wall_sprites([(0, 0)]), 32, agent_radius=-1)

    @pytest.mark.parametrize("cell_size, bounds", [(1e-9, (200, 200)), (1.0, (2049, 2048)), (1e-300, (1, 1))])
    def test_too_many_cells_is_refused_naming_the_limit(self, cell_size, bounds):
        cols, rows = math.ceil(bounds[0] / cell_size), math.ceil(bounds[1] / cell_size)
        assert cols * rows > MAX_SPRITE_GRID_CELLS == 2048 * 2048
        with pytest.raises(InvalidOptionError, match=r"cell_size=.* is too small: .* ([0-9.]+e\+\d+) cells; "
                                                     rf"grid_from_sprites supports at most {MAX_SPRITE_GRID_CELLS} cells") as err:
            grid_from_sprites(wall_sprites([(0, 0)]), cell_size, bounds=bounds)
        said = Decimal(re.search(r"([0-9.]+e\+\d+) cells", str(err.value)).group(1))
        assert abs(said / Decimal(cols * rows) - 1) < Decimal("0.01")  # the count, even beyond float range

    def test_agent_radius_up_to_the_grids_diagonal(self):
        walls = wall_sprites([(0, 0)])
        diagonal = math.hypot(3 * CELL, 4 * CELL)  # 160 px
        with pytest.warns(NavmeshWarning, match="closes every corridor"):
            grid = grid_from_sprites(walls, CELL, bounds=(3 * CELL, 4 * CELL), agent_radius=diagonal)
        assert grid.blocked.all()  # every centre is nearer than the diagonal to the corner wall
        for radius in (diagonal * (1 + 1e-9), 1e9, 1e300):
            with pytest.raises(InvalidOptionError, match=r"agent_radius=.* is larger than the whole grid \(diagonal 160"):
                grid_from_sprites(walls, CELL, bounds=(3 * CELL, 4 * CELL), agent_radius=radius)


class TestTileMaps:
    @pytest.fixture(scope="class")
    def tile_map(self):
        return arcade.load_tilemap(":resources:tiled_maps/level_2.json", scaling=0.5, offset=(10, 20))

    def test_grid_cells_under_every_wall_sprite(self, tile_map):
        grid = grid_from_tilemap(tile_map, "Platforms")
        sprites = tile_map.sprite_lists["Platforms"]
        cells = {grid.cell_at(s.position) for s in sprites}
        assert len(cells) == len(sprites) == int(grid.blocked.sum())
        assert all(grid.cell_center(grid.cell_at(s.position)).tolist() == list(s.position) for s in sprites)

    def test_level_and_grid_agree(self, tile_map):
        level = level_from_tilemap(tile_map, wall_layers=["Platforms"])
        grid = grid_from_tilemap(tile_map, "Platforms")
        centres = grid.cell_center(np.arange(grid.n_cells))
        inside = shapely.contains_xy(shapely.union_all(level.obstacles), centres[:, 0], centres[:, 1])
        assert inside.tolist() == grid.blocked.reshape(-1).tolist()
        assert level.bounds.bounds == (10.0, 20.0, 10 + 25 * 64.0, 20 + 20 * 64.0)

    def test_grid_agent_radius(self, tile_map):
        plain = grid_from_tilemap(tile_map, "Platforms")
        with pytest.warns(NavmeshWarning, match="agent_radius=40"):
            grown = grid_from_tilemap(tile_map, "Platforms", agent_radius=40)
        assert grown.blocked.sum() > plain.blocked.sum()
        assert (grown.blocked >= plain.blocked).all()

    def test_not_a_tile_map(self):
        with pytest.raises(InvalidOptionError, match="tile_map"):
            grid_from_tilemap("level.json")


def test_sprite_radius():
    sprite = arcade.SpriteSolidColor(60, 80, center_x=500, center_y=-40)
    assert sprite_radius(sprite) == pytest.approx(50.0)  # half the 60 x 80 diagonal
    assert sprite_radius(sprite, fit="box") == pytest.approx(40.0)  # half the larger side
    sprite.scale = 0.5
    assert sprite_radius(sprite) == pytest.approx(25.0)
    with pytest.raises(InvalidOptionError, match="fit='disc'"):
        sprite_radius(sprite, fit="disc")
    with pytest.raises(InvalidOptionError, match="sprite="):
        sprite_radius("unit")


class TestMovingSprites:
    def test_walk_to_and_follow_path_around_a_wall(self):
        walls = wall_sprites(L_CELLS)
        level = level_from_sprites(walls, bounds=(6 * CELL, 5 * CELL))
        unit = arcade.SpriteSolidColor(10, 10, center_x=16, center_y=80)
        nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=sprite_radius(unit))
        follower = walk_to(unit, nav, (112, 16), speed=120.0)
        grown = shapely.buffer(level.obstacles[0], sprite_radius(unit) - 1e-6)
        kinds = []
        for _ in range(600):
            kinds += [e.kind for e in follow_path(unit, follower, 1 / 60, turn=True)]
            assert not shapely.contains_xy(grown, *unit.position)
            if follower.done:
                break
        assert follower.done and kinds[-1] == "goal"
        assert unit.position == (112.0, 16.0)
        # arcade angles turn clockwise; the heading is counter-clockwise from +x.
        assert unit.angle == pytest.approx(-math.degrees(follower.heading))

    def test_walk_to_on_a_mesh_stays_in_free_space(self):
        walls = wall_sprites(L_CELLS)
        level = level_from_sprites(walls, bounds=(6 * CELL, 5 * CELL))
        unit = arcade.SpriteSolidColor(10, 10, center_x=16, center_y=80)
        mesh = navmesh.build_navmesh(level, agent_radius=sprite_radius(unit))
        grown = shapely.buffer(level.obstacles[0], sprite_radius(unit) - 1e-6)
        for where in (mesh, navmesh.MeshQuery(mesh)):
            unit.position = (16, 80)
            follower = walk_to(unit, where, (112, 16), speed=120.0)
            assert follower.navmap is mesh
            assert follower.length == pytest.approx(navmesh.MeshQuery(mesh).find_path([16, 80], [112, 16]).cost)
            for _ in range(600):
                follow_path(unit, follower, 1 / 60)
                assert not shapely.contains_xy(grown, *unit.position)
                if follower.done:
                    break
            assert follower.done and unit.position == (112.0, 16.0)

    def test_walk_to_on_a_grid(self):
        grid = grid_from_sprites(wall_sprites(L_CELLS), CELL, bounds=(6 * CELL, 5 * CELL))
        unit = arcade.SpriteSolidColor(10, 10, center_x=20, center_y=70)
        follower = walk_to(unit, grid, (110, 20), speed=200.0)
        for _ in range(300):
            follow_path(unit, follower, 1 / 60)
            assert grid.is_passable(grid.cell_at(unit.position))
        assert follower.done and unit.position == (110.0, 20.0)

    def test_a_unit_standing_in_a_wall_walks_out_continuously(self):
        # main 2c8c9c7: the first step jumped 37 px to the nearest walkable point
        walls = wall_sprites(L_CELLS)
        level = level_from_sprites(walls, bounds=(6 * CELL, 5 * CELL))
        unit = arcade.SpriteSolidColor(10, 10, center_x=80, center_y=70)  # inside the wall column
        nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=sprite_radius(unit))
        for where in (nav, navmesh.NavQuery(nav)):
            unit.position = (80, 70)
            follower = walk_to(unit, where, (170, 140), speed=120.0)
            assert follower.waypoints[0].tolist() == [80.0, 70.0]
            steps = []
            while not follower.done:
                before = np.array(unit.position)
                follow_path(unit, follower, 1 / 60)
                steps.append(np.hypot(*(np.array(unit.position) - before)))
            assert max(steps) <= 120.0 / 60 * (1 + 1e-9)
            assert unit.position == (170.0, 140.0)

    def test_walk_to_raises_what_it_documents(self):
        level = level_from_sprites(wall_sprites(L_CELLS), bounds=(6 * CELL, 5 * CELL))
        nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=4)
        unit = arcade.SpriteSolidColor(8, 8, center_x=16, center_y=16)
        with pytest.raises(NodeNotFoundError, match="outside the level's bounds"):
            walk_to(unit, nav, (-5000, 16), speed=100.0)
        with pytest.raises(InvalidGeometryError, match="goal="):
            walk_to(unit, nav, (float("nan"), 16), speed=100.0)
        islands = level_from_sprites(wall_sprites([(2, r) for r in range(5)]), bounds=(6 * CELL, 5 * CELL))
        with pytest.raises(NoPathError):
            walk_to(unit, navmesh.build_waypoint_graph(islands, corners=True), (170, 16), speed=100.0)
        with pytest.raises(NoPathError):
            walk_to(unit, grid_from_sprites(wall_sprites([(2, r) for r in range(5)]), CELL, bounds=(6 * CELL, 5 * CELL)),
                    (170.0, 16.0), speed=100.0)

    def test_a_grid_route_never_sweeps_the_hit_box_over_a_wall(self):
        # main 2c8c9c7: walk_to dropped the current cell's centre, so a re-plan from beside a wall
        # corner cut diagonally across it
        walls = wall_sprites([(2, 2)])
        boxes = shapely.union_all([shapely.Polygon(w.hit_box.get_adjusted_points()) for w in walls])
        grid = grid_from_sprites(walls, CELL, bounds=(5 * CELL, 5 * CELL))
        unit = arcade.SpriteSolidColor(28, 28)
        rng = np.random.default_rng(5)
        free = np.flatnonzero(~grid.blocked.reshape(-1))
        for _ in range(40):
            unit.position = tuple(grid.cell_center(int(rng.choice(free))) + rng.uniform(-2, 2, 2))
            if shapely.intersection(shapely.Polygon(unit.hit_box.get_adjusted_points()), boxes).area > 0:
                continue
            goal = grid.cell_center(int(rng.choice(free))) + rng.uniform(-16, 16, 2)
            follower = walk_to(unit, grid, goal, speed=400.0)
            while not follower.done:
                follow_path(unit, follower, 1 / 60)
                assert shapely.intersection(shapely.Polygon(unit.hit_box.get_adjusted_points()), boxes).area <= 1e-9

    def test_a_paused_game_calls_follow_path_with_zero(self):
        unit = arcade.SpriteSolidColor(10, 10, center_x=20, center_y=70)
        grid = grid_from_sprites(wall_sprites(L_CELLS), CELL, bounds=(6 * CELL, 5 * CELL))
        follower = walk_to(unit, grid, (110, 20), speed=200.0)
        follow_path(unit, follower, 1 / 60)
        where, s = unit.position, follower.travelled
        assert follow_path(unit, follower, 0) == () and follow_path(unit, follower, 0.0) == ()
        assert unit.position == where and follower.travelled == s and not follower.done
        with pytest.raises(InvalidOptionError, match="dt"):
            follow_path(unit, follower, -1 / 60)

    def test_place_sprites_on_a_crowd(self):
        grid = navmesh.GridMap.from_strings(["........", "..####..", "........"], cell_size=CELL)
        crowd = Crowd(grid)
        sprites = arcade.SpriteList()
        for x in (16, 48):
            sprites.append(arcade.SpriteSolidColor(10, 10, center_x=x, center_y=16))
        ids = crowd.add([s.position for s in sprites], radius=8, speed=150)
        crowd.move_to(ids, (240, 80))
        for _ in range(240):
            crowd.update(1 / 60)
            place_sprites(sprites, crowd, ids, turn=True, facing=90)
        assert [s.position for s in sprites] == [tuple(p) for p in crowd.positions[ids].tolist()]
        assert bool(crowd.arrived[ids].all())
        assert sprites[0].angle == pytest.approx(90 - math.degrees(crowd.headings[ids[0]]))
        with pytest.raises(InvalidOptionError, match="one per sprite"):
            place_sprites(sprites, crowd, ids[:1])

    @pytest.fixture()
    def crowd_of_three(self):
        crowd = Crowd(navmesh.GridMap.from_strings(["........"] * 3, cell_size=CELL))
        crowd.add([[16, 16], [80, 48], [200, 80]], radius=4)
        return crowd

    @pytest.mark.parametrize("bad, words", [
        (-1, r"ids holds -1, out of range; the crowd has unit ids 0..2"),  # not "the last unit"
        (3, r"ids holds 3, out of range"),
        (99, r"ids holds 99, out of range"),
        (1.7, r"ids=\[1.7\] is not valid; expected integer unit ids"),  # not unit 1
        (True, r"ids=\[True\] is not valid"),
        ("1", r"ids=\['1'\] is not valid"),
    ])
    def test_place_sprites_refuses_ids_that_are_not_units(self, crowd_of_three, bad, words):
        sprites = [arcade.SpriteSolidColor(4, 4, center_x=1, center_y=2)]
        with pytest.raises(NodeNotFoundError, match=words):
            place_sprites(sprites, crowd_of_three, [bad])
        assert sprites[0].position == (1, 2)  # left where it was
        place_sprites(sprites, crowd_of_three, [2])
        assert sprites[0].position == (200, 80)

    def test_place_sprites_with_no_sprites_does_nothing(self, crowd_of_three):
        place_sprites([], crowd_of_three, [])
        place_sprites(arcade.SpriteList(), crowd_of_three, np.zeros(0, np.int64))

    def test_place_sprites_refuses_a_non_crowd(self):
        with pytest.raises(InvalidOptionError, match=r"crowd='crowd' is not a navmesh.Crowd"):
            place_sprites([arcade.SpriteSolidColor(4, 4)], "crowd", [0])
