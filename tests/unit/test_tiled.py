"""Tests of navmesh.io.tiled: Tiled maps (via pytiled_parser) to Level."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from navmesh.errors import LevelFormatError, NavmeshWarning
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
