"""Tests of navmesh.io.tiled: Tiled maps (via pytiled_parser) to Level."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from navmesh.errors import InvalidOptionError, LevelFormatError, NavmeshWarning
from navmesh.level import Level
from navmesh.io.tiled import load_tiled_level

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "tiled" / "level_sample.tmj"


def ring(poly):
    return sorted(map(tuple, np.asarray(poly.exterior.coords)[:-1].round(9).tolist()))


# -- the shipped sample ----------------------------------------------------------------------
class TestSample:
    @pytest.fixture(scope="class")
    def level(self):
        return load_tiled_level(SAMPLE)

    def test_is_a_level(self, level):
        assert isinstance(level, Level)
        assert level.bounds.bounds == (0.0, 0.0, 640.0, 480.0)  # 20 x 15 tiles of 32 px

    def test_waypoints_are_flipped_to_y_up(self, level):
        assert level.waypoints.tolist() == [
            [32, 32], [32, 448], [608, 448], [608, 32], [320, 256], [200, 180], [400, 80]
        ]

    def test_rectangle_obstacle(self, level):
        # Tiled: x=256, y=0 (top), 32 x 288 px  ->  world y from 480 - 288 = 192 up to 480.
        assert ring(level.obstacles[0]) == sorted([(256, 480), (288, 480), (288, 192), (256, 192)])

    def test_rotated_rectangle(self, level):
        crate = level.obstacles[1]
        # 48 px square rotated 45 degrees clockwise about its top-left corner (448, 320 in Tiled).
        assert crate.area == pytest.approx(48 * 48)
        d = 48 / math.sqrt(2)
        assert ring(crate) == sorted(
            (round(x, 9), round(y, 9)) for x, y in [(448, 160), (448 + d, 160 - d), (448, 160 - 2 * d), (448 - d, 160 - d)]
        )

    def test_polygon_obstacle(self, level):
        assert ring(level.obstacles[2]) == sorted([(96, 128), (160, 144), (176, 80), (112, 64)])

    def test_terrain_tags_and_order(self, level):
        assert [r.tag for r in level.terrain] == ["swamp", "road", "water"]  # class, property, class

    def test_ellipse_is_circumscribed(self, level):
        pond = level.terrain[2].polygon
        t = np.linspace(0, 2 * math.pi, 400)
        # Tiled ellipse: x=544, y=192, 64 x 96 px  ->  centre (576, 480 - 240), semi-axes 32, 48.
        pts = shapely.points(np.column_stack([576 + 32 * np.cos(t), 240 + 48 * np.sin(t)]))
        assert shapely.covers(pond, pts).all()
        assert pond.area < math.pi * 32 * 48 * 1.05

    def test_agrees_with_arcade_reader(self, level):
        arcade = pytest.importorskip("arcade")
        tile_map = arcade.load_tilemap(SAMPLE)
        # arcade ignores rectangle rotation and places ellipses oddly, so compare the others.
        by_name = {o.name: o for o in tile_map.object_lists["obstacles"]}
        assert ring(level.obstacles[0]) == sorted(map(tuple, np.asarray(by_name["wall"].shape, float).tolist()))
        assert ring(level.obstacles[2]) == sorted(map(tuple, np.asarray(by_name["rock"].shape, float).tolist()))
        arcade_points = [tuple(map(float, o.shape)) for o in tile_map.object_lists["waypoints"]]
        assert arcade_points == [tuple(p) for p in level.waypoints.tolist()]

    def test_usable_for_line_of_sight(self, level):
        los = level.line_of_sight(agent_radius=8.0)
        assert los.blocked([[200, 300]], [[340, 300]]).tolist() == [True]  # through the wall
        assert los.blocked([[200, 100]], [[340, 100]]).tolist() == [False]  # below it


# -- hand-written maps -----------------------------------------------------------------------
def obj(id_, x, y, w=0, h=0, **extra):
    o = {"id": id_, "name": extra.pop("name", ""), "type": extra.pop("cls", ""), "x": x, "y": y,
         "width": w, "height": h, "rotation": extra.pop("rotation", 0), "visible": True}
    o.update(extra)
    return o


def group(id_, name, objects, **extra):
    g = {"draworder": "index", "id": id_, "name": name, "objects": objects, "opacity": 1,
         "type": "objectgroup", "visible": True, "x": 0, "y": 0}
    g.update(extra)
    return g


def prop(name, value, kind="string"):
    return {"name": name, "type": kind, "value": value}


def write_map(tmp_path, layers, **extra):
    data = {"compressionlevel": -1, "width": 10, "height": 5, "tilewidth": 16, "tileheight": 16, "infinite": False,
            "orientation": "orthogonal", "renderorder": "right-down", "tiledversion": "1.10.2", "tilesets": [],
            "type": "map", "version": "1.10", "nextlayerid": 9, "nextobjectid": 99, "layers": layers}
    data.update(extra)
    path = tmp_path / "map.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


class TestOwnMaps:
    def test_offsets_groups_and_properties(self, tmp_path):
        layers = [
            {"id": 1, "name": "walls", "type": "group", "offsetx": 10, "offsety": 5, "opacity": 1, "visible": True,
             "x": 0, "y": 0, "layers": [
                 group(2, "inner", [obj(1, 0, 0, 20, 10)], offsetx=5, offsety=5, properties=[prop("obstacle", True, "bool")]),
             ]},
            group(3, "decor", [
                obj(2, 100, 40, 20, 20, properties=[prop("terrain", "mud")]),
                obj(3, 0, 0, 16, 16, properties=[prop("obstacle", True, "bool")]),
                obj(4, 150, 70, point=True, properties=[prop("z", 2.0, "float")]),
                obj(5, 60, 70, point=True),
            ]),
            group(4, "swampy", [obj(6, 0, 60, 30, 20)], properties=[prop("terrain", "swamp")]),
        ]
        level = load_tiled_level(write_map(tmp_path, layers))
        # Group offset (10, 5) + layer offset (5, 5): Tiled box x 15..35, y 10..20 -> world y 60..70.
        assert ring(level.obstacles[0]) == sorted([(15, 70), (35, 70), (35, 60), (15, 60)])
        assert ring(level.obstacles[1]) == sorted([(0, 80), (16, 80), (16, 64), (0, 64)])
        assert [r.tag for r in level.terrain] == ["mud", "swamp"]
        assert level.waypoints.tolist() == [[150, 10, 2.0], [60, 10, 0.0]]

    def test_bounds_layer(self, tmp_path):
        layers = [group(1, "bounds", [obj(1, 0, 0, polygon=[{"x": 0, "y": 0}, {"x": 100, "y": 0}, {"x": 0, "y": 60}])])]
        level = load_tiled_level(write_map(tmp_path, layers))
        assert level.bounds.area == pytest.approx(3000)
        assert ring(level.bounds) == sorted([(0, 80), (100, 80), (0, 20)])

    def test_two_bounds_shapes(self, tmp_path):
        layers = [group(1, "bounds", [obj(1, 0, 0, 10, 10), obj(2, 0, 0, 20, 20)])]
        with pytest.raises(LevelFormatError, match="second shape in the bounds layer"):
            load_tiled_level(write_map(tmp_path, layers))

    def test_custom_layer_names(self, tmp_path):
        layers = [group(1, "Walls", [obj(1, 0, 0, 10, 10)]), group(2, "Ground", [obj(2, 40, 0, 10, 10, name="road")])]
        level = load_tiled_level(write_map(tmp_path, layers), obstacle_layer="Walls", terrain_layer="Ground")
        assert len(level.obstacles) == 1 and level.terrain[0].tag == "road"

    def test_unknown_objects_in_other_layers_are_ignored(self, tmp_path):
        layers = [group(1, "notes", [obj(1, 0, 0, 10, 10), obj(2, 0, 0, polyline=[{"x": 0, "y": 0}, {"x": 5, "y": 5}])])]
        level = load_tiled_level(write_map(tmp_path, layers))
        assert level.obstacles == () and level.terrain == ()

    def test_polyline_in_obstacle_layer_warns(self, tmp_path):
        layers = [group(1, "obstacles", [obj(7, 0, 0, polyline=[{"x": 0, "y": 0}, {"x": 5, "y": 5}])])]
        with pytest.warns(NavmeshWarning, match=r"layer 'obstacles' object id=7: Polyline objects are ignored"):
            load_tiled_level(write_map(tmp_path, layers))

    def test_terrain_object_without_tag(self, tmp_path):
        layers = [group(1, "terrain", [obj(3, 0, 0, 10, 10)])]
        with pytest.raises(LevelFormatError, match="layer 'terrain' object id=3: terrain object without a tag"):
            load_tiled_level(write_map(tmp_path, layers))

    def test_self_intersecting_polygon(self, tmp_path):
        bow = [{"x": 0, "y": 0}, {"x": 20, "y": 20}, {"x": 20, "y": 0}, {"x": 0, "y": 20}]
        layers = [group(1, "obstacles", [obj(4, 10, 10, polygon=bow, name="bad rock")])]
        path = write_map(tmp_path, layers)
        with pytest.raises(LevelFormatError, match=r"layer 'obstacles' object id=4 \('bad rock'\) is not a valid polygon"):
            load_tiled_level(path)
        assert len(load_tiled_level(path, repair=True).obstacles) == 2

    def test_waypoint_inside_obstacle_names_object(self, tmp_path):
        layers = [group(1, "obstacles", [obj(1, 0, 0, 40, 40)]), group(2, "points", [obj(9, 10, 10, point=True)])]
        with pytest.raises(LevelFormatError, match=r"waypoints\[0\].*inside obstacles\[0\].*layer 'points' object id=9"):
            load_tiled_level(write_map(tmp_path, layers))

    def test_bad_z(self, tmp_path):
        layers = [group(1, "points", [obj(9, 10, 10, point=True, properties=[prop("z", "high")])])]
        with pytest.raises(LevelFormatError, match="property z='high' must be a number"):
            load_tiled_level(write_map(tmp_path, layers))

    def test_isometric_rejected(self, tmp_path):
        with pytest.raises(LevelFormatError, match="orientation 'isometric' is not supported"):
            load_tiled_level(write_map(tmp_path, [], orientation="isometric"))

    def test_corrupt_file(self, tmp_path):
        text = SAMPLE.read_text(encoding="utf-8")
        path = tmp_path / "broken.tmj"
        path.write_text(text[: len(text) // 3], encoding="utf-8")
        with pytest.raises(LevelFormatError, match="broken.tmj: not a readable Tiled map"):
            load_tiled_level(path)

    def test_missing_key(self, tmp_path):
        path = write_map(tmp_path, [])
        data = json.loads(path.read_text())
        del data["tilewidth"]
        path.write_text(json.dumps(data))
        with pytest.raises(LevelFormatError, match="not a readable Tiled map"):
            load_tiled_level(path)

    def test_missing_file(self, tmp_path):
        with pytest.raises(FileNotFoundError):
            load_tiled_level(tmp_path / "none.tmj")

    def test_tmx_format(self, tmp_path):
        path = tmp_path / "map.tmx"
        path.write_text(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
            'width="10" height="5" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="3">\n'
            ' <objectgroup id="1" name="obstacles"><object id="1" x="16" y="16" width="32" height="16"/></objectgroup>\n'
            ' <objectgroup id="2" name="waypoints"><object id="2" x="100" y="60"><point/></object></objectgroup>\n'
            "</map>\n",
            encoding="utf-8",
        )
        level = load_tiled_level(path)
        assert ring(level.obstacles[0]) == sorted([(16, 64), (48, 64), (48, 48), (16, 48)])
        assert level.waypoints.tolist() == [[100, 20]]


# -- tile layers, scaling, arcade maps, nothing-navigable warning, malformed files -------------
def tile_layer(id_, name, rows, **extra):
    layer = {"id": id_, "name": name, "type": "tilelayer", "width": len(rows[0]), "height": len(rows),
             "x": 0, "y": 0, "opacity": 1, "visible": True, "data": [g for row in rows for g in row]}
    layer.update(extra)
    return layer


TILESET = {"firstgid": 1, "name": "ground", "tilewidth": 16, "tileheight": 16, "tilecount": 4, "columns": 4,
           "image": "ground.png", "imagewidth": 64, "imageheight": 16, "margin": 0, "spacing": 0,
           "tiles": [{"id": 1, "properties": [prop("terrain", "swamp")]},
                     {"id": 2, "properties": [prop("obstacle", True, "bool")]}]}

#          col 0 1 2 3 4 5 6 7 8 9
ROWS = [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0],   # row 0 = top (world y 64..80)
        [0, 1, 1, 0, 0, 0, 0, 0, 0, 0],   # two wall tiles -> one 32 x 16 box
        [0, 1, 1, 0, 0, 2, 2, 0, 0, 0],   # the wall box grows; gid 2 = swamp tiles
        [0, 0, 0, 0, 0, 0, 0, 0, 3, 0],   # gid 3 = a tile marked obstacle
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]


class TestTileLayers:
    def test_wall_layer_cells_become_rectangles(self, tmp_path):
        path = write_map(tmp_path, [tile_layer(1, "walls", ROWS)], tilesets=[TILESET])
        level = load_tiled_level(path)
        boxes = sorted(o.bounds for o in level.obstacles)
        # Every tile in the walls layer is a wall: cols 1-2 of rows 1-2 (world y 32..64), the
        # swamp tiles too (a wall layer makes every tile a wall) and the gid-3 tile.
        assert boxes == [(16.0, 32.0, 48.0, 64.0), (80.0, 32.0, 112.0, 48.0), (128.0, 16.0, 144.0, 32.0)]
        assert level.terrain == ()

    def test_terrain_and_obstacle_from_tile_properties(self, tmp_path):
        path = write_map(tmp_path, [tile_layer(1, "ground", ROWS)], tilesets=[TILESET])
        level = load_tiled_level(path)
        assert [o.bounds for o in level.obstacles] == [(128.0, 16.0, 144.0, 32.0)]  # only the obstacle tile
        assert [(r.tag, r.polygon.bounds) for r in level.terrain] == [("swamp", (80.0, 32.0, 112.0, 48.0))]

    def test_scaling_and_offset(self, tmp_path):
        path = write_map(tmp_path, [tile_layer(1, "walls", ROWS)], tilesets=[TILESET])
        level = load_tiled_level(path, scaling=2.0, offset=(100, -10))
        assert level.bounds.bounds == (100.0, -10.0, 420.0, 150.0)
        assert sorted(o.bounds for o in level.obstacles)[0] == (132.0, 54.0, 196.0, 118.0)

    def test_short_tile_layer_names_file_and_field(self, tmp_path):
        layer = tile_layer(1, "walls", ROWS)
        layer["data"] = layer["data"][:-3]
        path = write_map(tmp_path, [layer])
        with pytest.raises(LevelFormatError, match=r"map\.tmj: tile layer 'walls': field data holds 47 tiles"):
            load_tiled_level(path)

    def test_non_numeric_coordinate_names_file_and_field(self, tmp_path):
        path = write_map(tmp_path, [group(1, "obstacles", [obj(1, "abc", 0, 10, 10)])])
        with pytest.raises(LevelFormatError, match=r"map\.tmj: layer 'obstacles' object id=1: field x = 'abc'"):
            load_tiled_level(path)
        path = write_map(tmp_path, [group(1, "obstacles", [obj(1, 0, 0, polygon=[{"x": 0, "y": 0}, {"x": "1e999", "y": 0}, {"x": 0, "y": 5}])])])
        with pytest.raises(LevelFormatError, match=r"field points\[1\]\.x"):
            load_tiled_level(path)

    def test_empty_file(self, tmp_path):
        path = tmp_path / "empty.tmj"
        path.write_text("")
        with pytest.raises(LevelFormatError, match=r"empty\.tmj: the file is empty"):
            load_tiled_level(path)

    def test_nothing_navigable_warns_with_layers(self, tmp_path):
        path = write_map(tmp_path, [tile_layer(1, "Platforms", [[0] * 10] * 4 + [[1] * 10]), group(2, "notes", [])])
        with pytest.warns(NavmeshWarning, match=r"layers read: none; layers skipped: 'Platforms' \(tile layer\), "
                                                r"'notes' \(object layer\)"):
            level = load_tiled_level(path)
        assert level.obstacles == ()
        level = load_tiled_level(path, wall_layers=["Platforms"])
        assert [o.bounds for o in level.obstacles] == [(0.0, 0.0, 160.0, 16.0)]

    def test_bad_source_and_options(self, tmp_path):
        with pytest.raises(InvalidOptionError, match="source=42"):
            load_tiled_level(42)
        with pytest.raises(InvalidOptionError, match="scaling"):
            load_tiled_level(SAMPLE, scaling=0)
        with pytest.raises(InvalidOptionError, match="offset"):
            load_tiled_level(SAMPLE, offset=(1, float("nan")))
        with pytest.raises(FileNotFoundError):
            load_tiled_level(":resources:tiled_maps/no_such_map.json")


class TestArcadeMaps:
    """Bundled arcade maps, read from ``:resources:`` paths and from ``arcade.load_tilemap``."""

    def test_resource_path_matches_arcade_sprites(self):
        arcade = pytest.importorskip("arcade")
        tile_map = arcade.load_tilemap(":resources:tiled_maps/level_2.json", scaling=0.5)
        level = load_tiled_level(tile_map, wall_layers=["Platforms"])
        walls = shapely.union_all(level.obstacles)
        # Every platform sprite's centre lies inside the level's walls, at arcade's scaling.
        centres = np.array([(s.center_x, s.center_y) for s in tile_map.sprite_lists["Platforms"]])
        assert len(centres) > 20
        assert shapely.contains_xy(walls, centres[:, 0], centres[:, 1]).all()
        assert walls.area == pytest.approx(len(centres) * 64 * 64)
        assert level.bounds.bounds == (0.0, 0.0, 25 * 64.0, 20 * 64.0)
        same = load_tiled_level(":resources:tiled_maps/level_2.json", wall_layers=["Platforms"], scaling=0.5)
        assert same == level

    def test_bundled_map_without_wall_layer_warns(self):
        with pytest.warns(NavmeshWarning, match=r"layers skipped: 'Platforms' \(tile layer\)"):
            load_tiled_level(":resources:tiled_maps/level_2.json")
