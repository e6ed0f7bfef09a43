"""Tests of navmesh.level: the Level model, its validation and its JSON files."""

from __future__ import annotations

import json
import math
import os
import re
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import shapely

from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    LevelFormatError,
    NavmeshWarning,
    NodeNotFoundError,
)
from navmesh.io.level_json import level_from_data, level_to_data, load_level, save_level
from navmesh.level import Level, Link, OffMeshLink
from navmesh.terrain import TerrainRegion

ROOT = Path(__file__).resolve().parents[2]

WALL = [(40, 0), (60, 0), (60, 30), (40, 30)]


def simple(**kw):
    kw.setdefault("obstacles", [WALL])
    return Level.rectangle(100, 50, **kw)


def full_level():
    """A level that uses every feature, with floats that do not print short."""
    return Level(
        shapely.Polygon(
            [(0, 0), (100.1, 0), (100.1, 50 / 3), (100.1, 50.000000000000007), (0, 50)],
            [[(80, 40), (85, 40), (85, 45)]],
        ),
        obstacles=[
            WALL,
            [[(10, 20), (30, 20), (30, 40), (10, 40)], [(15, 25), (20, 25), (20, 30), (15, 30)]],
        ],
        waypoints=[[5.0, 5.0, 0.0], [95.0, 5.0, 0.0], [0.1 + 0.2, 45.0, 1.0], [50.0, 40.0, 1e-300], [17.5, 27.5, 2.0]],
        terrain=[TerrainRegion(shapely.box(0, 0, 20, 10), "swamp"), TerrainRegion([(1 / 3, 1), (9, 1), (9, 9)], "road")],
        links=[Link(0, 1, "forced", tag="bridge"), Link(1, 2, "one_way", requires="wading_boots"), Link(2, 3, "forbidden")],
        offmesh_links=[OffMeshLink(3, 4, 2.5, "ladder", bidirectional=True, requires="climbing"), OffMeshLink(0, 4, 0.1, "")],
    )


# -- construction ----------------------------------------------------------------------------
class TestLevel:
    def test_basic(self):
        level = simple(waypoints=[[10, 10], [90, 10]])
        assert level.bounds.bounds == (0.0, 0.0, 100.0, 50.0)
        assert isinstance(level.obstacles, tuple) and isinstance(level.obstacles[0], shapely.Polygon)
        assert level.waypoints.dtype == np.float64 and level.waypoints.shape == (2, 2)
        assert level.n_waypoints == 2

    def test_defaults(self):
        level = Level((0, 0, 1, 1))
        assert level.obstacles == () and level.terrain == () and level.links == () and level.offmesh_links == ()
        assert level.waypoints.shape == (0, 2)

    def test_waypoints_read_only_and_copied(self):
        pts = np.array([[10.0, 10.0]])
        level = simple(waypoints=pts)
        pts[0, 0] = 99.0
        assert level.waypoints[0, 0] == 10.0
        with pytest.raises(ValueError):
            level.waypoints[0, 0] = 1.0

    def test_frozen(self):
        level = simple()
        with pytest.raises(AttributeError):
            level.obstacles = ()

    def test_keyword_only(self):
        with pytest.raises(TypeError):
            Level((0, 0, 1, 1), [WALL])  # type: ignore[misc]

    def test_three_d_waypoints(self):
        level = simple(waypoints=[[10, 10, 0], [10, 10, 1]])  # same xy on two floors: not a duplicate
        assert level.waypoints.shape == (2, 3)

    def test_tags(self):
        assert full_level().tags == {"swamp", "road", "bridge", "ladder"}

    def test_equality_is_exact(self):
        assert full_level() == full_level()
        assert simple(waypoints=[[10, 10]]) != simple(waypoints=[[10, 10.000000000000002]])

    def test_replace_revalidates(self):
        level = simple(waypoints=[[10, 10]])
        assert level.replace(waypoints=[[10, 10], [90, 10]]).n_waypoints == 2
        with pytest.raises(InvalidGeometryError, match="inside obstacles"):
            level.replace(waypoints=[[50, 10]])

    def test_terrain_pairs_accepted(self):
        level = simple(terrain=[(shapely.box(0, 0, 5, 5), "swamp")])
        assert level.terrain[0] == TerrainRegion(shapely.box(0, 0, 5, 5), "swamp")

    def test_link_tuples_accepted(self):
        level = simple(waypoints=[[10, 10], [90, 10]], links=[(0, 1, "forced")])
        assert level.links == (Link(0, 1, "forced"),)

    def test_line_of_sight_cached_per_radius(self):
        level = simple()
        assert level.line_of_sight() is level.line_of_sight()
        wide = level.line_of_sight(agent_radius=6.0)
        assert wide is not level.line_of_sight()
        assert level.line_of_sight().blocked([[30, 35]], [[70, 35]]).tolist() == [False]
        assert wide.blocked([[30, 35]], [[70, 35]]).tolist() == [True]

    def test_terrain_layer(self):
        level = simple(terrain=[TerrainRegion(shapely.box(0, 0, 5, 5), "swamp")])
        assert level.terrain_layer() is level.terrain_layer()
        assert level.terrain_layer().tag_names == ("swamp",)


class TestLevelErrors:
    def test_invalid_obstacle_names_index(self):
        with pytest.raises(InvalidGeometryError, match=r"obstacles\[1\] is not a valid polygon"):
            simple(obstacles=[WALL, [(0, 0), (2, 2), (2, 0), (0, 2)]])

    def test_repair_splits_obstacle(self):
        level = simple(obstacles=[[(0, 0), (2, 2), (2, 0), (0, 2)]], repair=True)
        assert len(level.obstacles) == 2

    def test_bad_bounds(self):
        with pytest.raises(InvalidGeometryError, match="bounds"):
            Level((0, 0, math.nan, 1))

    def test_single_geometry_as_obstacles(self):
        with pytest.raises(InvalidGeometryError, match="sequence of polygons"):
            simple(obstacles=shapely.box(0, 0, 1, 1))

    @pytest.mark.parametrize("policy", ["error", "warn", "drop"])
    def test_nan_waypoint_always_raises(self, policy):
        with pytest.raises(InvalidGeometryError, match=r"waypoints\[1\]=\[nan, 1.0\] is not finite"):
            simple(waypoints=[[1, 1], [math.nan, 1]], on_bad_waypoint=policy)

    def test_waypoint_wrong_shape(self):
        with pytest.raises(InvalidGeometryError, match="shape"):
            simple(waypoints=[1, 2])

    def test_waypoint_inside_obstacle(self):
        with pytest.raises(InvalidGeometryError, match=r"waypoints\[1\]=\[50.0, 10.0\] is inside obstacles\[0\]"):
            simple(waypoints=[[10, 10], [50, 10]])

    def test_waypoint_on_obstacle_edge_is_fine(self):
        assert simple(waypoints=[[40, 10], [60, 30]]).n_waypoints == 2

    def test_waypoint_on_shared_edge_of_touching_obstacles(self):
        with pytest.raises(InvalidGeometryError, match="touching obstacles"):
            Level.rectangle(10, 10, obstacles=[shapely.box(2, 2, 4, 4), shapely.box(4, 2, 6, 4)], waypoints=[[4, 3]])

    def test_waypoint_outside_bounds(self):
        with pytest.raises(InvalidGeometryError, match=r"waypoints\[0\]=\[-1.0, 10.0\] is outside the bounds"):
            simple(waypoints=[[-1, 10]])

    def test_duplicate_waypoints(self):
        with pytest.raises(InvalidGeometryError, match=r"waypoints\[2\]=\[10.0, 10.0\] is a duplicate of waypoints\[0\]"):
            simple(waypoints=[[10, 10], [20, 10], [10, 10]])

    def test_error_counts_more_bad_waypoints(self):
        with pytest.raises(InvalidGeometryError, match=r"\(2 more bad waypoints\)"):
            simple(waypoints=[[50, 10], [50, 11], [-5, 0]])

    def test_warn_keeps(self):
        with pytest.warns(NavmeshWarning, match="2 bad waypoints kept"):
            level = simple(waypoints=[[10, 10], [50, 10], [10, 10]], on_bad_waypoint="warn")
        assert level.n_waypoints == 3

    def test_drop_remaps_links(self):
        with pytest.warns(NavmeshWarning, match="dropped 2 bad waypoints and 2 links"):
            level = simple(
                waypoints=[[10, 10], [50, 10], [20, 10], [10, 10], [90, 10]],
                links=[Link(0, 2, "forced"), Link(1, 2, "forced"), Link(2, 4, "one_way", tag="bridge")],
                offmesh_links=[OffMeshLink(4, 0, 1.0, "ladder"), OffMeshLink(3, 4, 1.0, "")],
                on_bad_waypoint="drop",
            )
        assert level.waypoints.tolist() == [[10, 10], [20, 10], [90, 10]]
        assert level.links == (Link(0, 1, "forced"), Link(1, 2, "one_way", tag="bridge"))
        assert level.offmesh_links == (OffMeshLink(2, 0, 1.0, "ladder"),)

    def test_bad_policy(self):
        with pytest.raises(InvalidOptionError, match="on_bad_waypoint='skip'.*'error', 'warn', 'drop'"):
            simple(on_bad_waypoint="skip")

    def test_link_to_missing_waypoint(self):
        with pytest.raises(NodeNotFoundError, match=r"links\[0\].b=5 refers to a missing waypoint; the level has 2"):
            simple(waypoints=[[10, 10], [90, 10]], links=[Link(0, 5, "forced")])

    def test_offmesh_to_missing_waypoint(self):
        with pytest.raises(NodeNotFoundError, match=r"offmesh_links\[0\].a=7"):
            simple(waypoints=[[10, 10]], offmesh_links=[OffMeshLink(7, 0, 1.0, "")])

    def test_missing_waypoint_reported_after_drop(self):
        with pytest.warns(NavmeshWarning), pytest.raises(NodeNotFoundError, match="links"):
            simple(waypoints=[[10, 10], [50, 10]], links=[Link(0, 9, "forced")], on_bad_waypoint="drop")

    def test_conflicting_links(self):
        with pytest.raises(InvalidOptionError, match="cannot be both forbidden and linked"):
            simple(waypoints=[[10, 10], [90, 10]], links=[Link(0, 1, "forced"), Link(1, 0, "forbidden")])

    def test_bad_link_tuple(self):
        with pytest.raises(InvalidOptionError, match=r"links\[0\]"):
            simple(waypoints=[[10, 10], [90, 10]], links=[(0, 1, "sideways")])

    def test_unknown_tag(self):
        with pytest.raises(InvalidOptionError, match=r"terrain\[0\].tag='swmp' is not a known tag; known tags: 'road', 'swamp'"):
            simple(terrain=[TerrainRegion(shapely.box(0, 0, 5, 5), "swmp")], known_tags={"swamp", "road"})

    def test_unknown_offmesh_tag(self):
        with pytest.raises(InvalidOptionError, match=r"offmesh_links\[0\].tag='teleport'"):
            simple(waypoints=[[1, 1], [2, 2]], offmesh_links=[OffMeshLink(0, 1, 1.0, "teleport")], known_tags={"swamp"})

    def test_known_tags_ok(self):
        simple(terrain=[TerrainRegion(shapely.box(0, 0, 5, 5), "swamp")], known_tags=["swamp"])


class TestLinks:
    def test_same_ends(self):
        with pytest.raises(InvalidOptionError, match="two different waypoints"):
            Link(1, 1, "forced")

    @pytest.mark.parametrize("bad", [-1, 1.0, True, "0", None])
    def test_bad_index(self, bad):
        with pytest.raises(NodeNotFoundError, match="Link.a"):
            Link(bad, 1, "forced")

    def test_bad_kind(self):
        with pytest.raises(InvalidOptionError, match="'forced', 'forbidden', 'one_way'"):
            Link(0, 1, "both")

    def test_requires_on_forbidden(self):
        with pytest.raises(InvalidOptionError, match="gated passage"):
            Link(0, 1, "forbidden", requires="key")

    def test_bad_tag(self):
        with pytest.raises(InvalidOptionError, match="Link.tag"):
            Link(0, 1, "forced", tag="a|b")

    @pytest.mark.parametrize("cost", [-1.0, math.nan, math.inf, "1", True])
    def test_offmesh_bad_cost(self, cost):
        with pytest.raises(InvalidCostError, match="OffMeshLink cost"):
            OffMeshLink(0, 1, cost, "ladder")

    def test_offmesh_int_cost_becomes_float(self):
        assert OffMeshLink(0, 1, 3, "").cost == 3.0 and isinstance(OffMeshLink(0, 1, 3, "").cost, float)

    def test_offmesh_bad_bidirectional(self):
        with pytest.raises(InvalidOptionError, match="bidirectional"):
            OffMeshLink(0, 1, 1.0, "", bidirectional="yes")


# -- JSON files ------------------------------------------------------------------------------
class TestFiles:
    def test_round_trip_is_exact(self, tmp_path):
        level = full_level()
        path = tmp_path / "level.json"
        save_level(level, path)
        again = load_level(path)
        assert again == level
        assert again.waypoints.tolist() == level.waypoints.tolist()
        assert np.asarray(again.bounds.exterior.coords).tolist() == np.asarray(level.bounds.exterior.coords).tolist()
        # Saving the loaded level writes the identical bytes.
        save_level(again, tmp_path / "again.json")
        assert (tmp_path / "again.json").read_bytes() == path.read_bytes()

    def test_file_layout(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(simple(waypoints=[[10, 10]]), path)
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["schema"] == 1
        assert set(data) == {"schema", "bounds", "obstacles", "waypoints", "terrain", "links", "offmesh_links"}
        assert data["waypoints"] == [[10.0, 10.0]]

    def test_data_round_trip(self):
        level = full_level()
        assert level_from_data(json.loads(json.dumps(level_to_data(level)))) == level

    def test_backup_of_previous_file(self, tmp_path):
        path = tmp_path / "level.json"
        first, second = simple(waypoints=[[10, 10]]), simple(waypoints=[[20, 20]])
        save_level(first, path)
        assert not (tmp_path / "level.json.bak").exists()
        save_level(second, path)
        assert load_level(path) == second
        assert load_level(tmp_path / "level.json.bak") == first
        assert sorted(p.name for p in tmp_path.iterdir()) == ["level.json", "level.json.bak"]

    def test_failed_save_leaves_previous_file_intact(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(simple(waypoints=[[10, 10]]), path)
        before = path.read_bytes()
        (tmp_path / "level.json.bak").mkdir()  # the backup cannot be written over a folder
        (tmp_path / "level.json.bak" / "keep").write_text("x")
        with pytest.raises(OSError):
            save_level(simple(waypoints=[[20, 20]]), path)
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["level.json", "level.json.bak"]  # no temp files

    def test_save_into_missing_folder(self, tmp_path):
        with pytest.raises(FileNotFoundError):
            save_level(simple(), tmp_path / "nope" / "level.json")

    def test_missing_folder_error_names_the_target_not_a_temp_file(self, tmp_path):
        target = tmp_path / "nope" / "level.json"
        with pytest.raises(FileNotFoundError) as info:
            save_level(simple(), target)
        assert info.value.filename == str(target)
        assert ".tmp" not in str(info.value)

    def test_save_keeps_the_permissions_of_the_file_it_replaces(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(simple(), path)
        umask = os.umask(0o022)
        os.umask(umask)
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask  # a new file: not mkstemp's 0600
        os.chmod(path, 0o640)
        save_level(simple(waypoints=[[10, 10]]), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
        assert stat.S_IMODE((tmp_path / "level.json.bak").stat().st_mode) == 0o640
        os.chmod(path, 0o604)
        save_level(simple(), path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o604

    def test_save_writes_through_a_symlink(self, tmp_path):
        real = tmp_path / "levels" / "real.json"
        real.parent.mkdir()
        save_level(simple(), real)
        link = tmp_path / "current.json"
        link.symlink_to(real)
        save_level(simple(waypoints=[[10, 10]]), link)
        assert link.is_symlink() and link.resolve() == real.resolve()
        assert load_level(real).waypoints.tolist() == [[10.0, 10.0]]
        assert load_level(real.with_name("real.json.bak")) == simple()  # the backup sits beside the target
        assert sorted(p.name for p in tmp_path.iterdir()) == ["current.json", "levels"]

    def test_next_save_removes_temp_files_of_an_interrupted_save(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(simple(), path)
        strays = [".level.json.3f9a2b.tmp", ".level.json.bak.77aa01.tmp", ".level.json.k2j4_x9q.tmp"]
        keep = [".other.json.3f9a2b.tmp", "level.json.tmp", ".level.json.notes", ".level.json.a.b.tmp"]
        for name in strays + keep:
            (tmp_path / name).write_text("half a level")
        save_level(simple(waypoints=[[10, 10]]), path)
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["level.json", "level.json.bak", *keep])

    def test_a_save_killed_midway_leaves_the_old_file_and_the_next_save_cleans_up(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(simple(), path)
        code = (
            "import os, sys, navmesh\n"
            "os.fsync = lambda fd: os.kill(os.getpid(), 9)\n"  # die right after writing the temp file
            f"navmesh.save_level(navmesh.Level.rectangle(5, 5), {str(path)!r})\n"
        )
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        assert subprocess.run([sys.executable, "-c", code], env=env).returncode == -9
        assert load_level(path) == simple()
        assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
        save_level(simple(waypoints=[[10, 10]]), path)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["level.json", "level.json.bak"]

    def test_save_non_level(self, tmp_path):
        with pytest.raises(InvalidOptionError, match="not a Level"):
            save_level({"schema": 1}, tmp_path / "x.json")
        assert list(tmp_path.iterdir()) == []

    def test_load_missing_file(self, tmp_path):
        with pytest.raises(FileNotFoundError):
            load_level(tmp_path / "none.json")


def write(tmp_path, text, name="level.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8") if isinstance(text, str) else path.write_bytes(text)
    return path


def valid_data():
    return level_to_data(simple(waypoints=[[10, 10], [90, 10]], links=[Link(0, 1, "forced")]))


class TestCorruptFiles:

    def test_lone_surrogate_is_refused_at_load(self, tmp_path):
        data = valid_data()
        data["links"][0]["tag"] = "\ud800"
        path = write(tmp_path, json.dumps(data))  # ASCII escapes: valid JSON, not encodable text
        with pytest.raises(LevelFormatError, match=r"links\[0\]\.tag.*surrogate"):
            load_level(path)
        with pytest.raises(InvalidOptionError, match="surrogate"):
            TerrainRegion([(0, 0), (1, 0), (1, 1)], "\udcff")

    def test_deep_nesting_and_huge_numbers_are_format_errors(self, tmp_path):
        deep = write(tmp_path, '{"schema": 1, "bounds": ' + "[" * 100_000 + "]" * 100_000 + "}")
        with pytest.raises(LevelFormatError, match="nested too deeply"):
            load_level(deep)
        data = valid_data()
        data["waypoints"][0][0] = 10**400
        with pytest.raises(LevelFormatError, match=r"waypoints\[0\]\[0\].*too large"):
            load_level(write(tmp_path, json.dumps(data)))
        data["waypoints"][0][0] = 12345
        text = json.dumps(data).replace("12345", "9" * 5000)  # past Python's digit limit for int()
        with pytest.raises(LevelFormatError):
            load_level(write(tmp_path, text))

    def test_long_unknown_key_is_not_echoed_in_full(self, tmp_path):
        data = valid_data()
        data["links"][0]["k" * 1_000_000] = 1
        with pytest.raises(LevelFormatError, match="unknown field") as info:
            load_level(write(tmp_path, json.dumps(data)))
        assert len(str(info.value)) < 500
    def test_truncated(self, tmp_path):
        good = tmp_path / "good.json"
        save_level(full_level(), good)
        text = good.read_text()
        path = write(tmp_path, text[: len(text) // 2])
        with pytest.raises(LevelFormatError, match=r"level.json:\d+:\d+: not valid JSON"):
            load_level(path)

    def test_empty(self, tmp_path):
        with pytest.raises(LevelFormatError, match=r"level.json:1:1: not valid JSON"):
            load_level(write(tmp_path, ""))

    def test_not_utf8(self, tmp_path):
        with pytest.raises(LevelFormatError, match="not UTF-8"):
            load_level(write(tmp_path, b"\xff\xfe{}"))

    def test_pickle_is_not_executed(self, tmp_path):
        import pickle

        with pytest.raises(LevelFormatError):
            load_level(write(tmp_path, pickle.dumps({"schema": 1})))

    def test_top_level_not_object(self, tmp_path):
        with pytest.raises(LevelFormatError, match=r"\$: expected an object, got list"):
            load_level(write(tmp_path, "[1, 2]"))

    @pytest.mark.parametrize(
        "edit, message",
        [
            (lambda d: d.pop("schema"), r"\$: missing field 'schema'"),
            (lambda d: d.update(schema=2), "schema: version 2 is not supported; this navmesh reads schema 1"),
            (lambda d: d.update(schema="1"), "schema: version '1' is not supported"),
            (lambda d: d.update(schema=True), "schema: version True is not supported"),
            (lambda d: d.update(obstacle=[]), "obstacle: unknown field"),
            (lambda d: d["obstacles"][0]["exterior"][2].__setitem__(1, "30"), r"obstacles\[0\].exterior\[2\]\[1\]: expected a number, got '30'"),
            (lambda d: d["obstacles"][0]["exterior"].__setitem__(2, [1, 2, 3]), r"obstacles\[0\].exterior\[2\]: expected 2 coordinates, got 3"),
            (lambda d: d["obstacles"][0].pop("exterior"), r"obstacles\[0\]: missing field 'exterior'"),
            (lambda d: d.update(obstacles={}), "obstacles: expected an array, got dict"),
            (lambda d: d["waypoints"].__setitem__(1, [90, 10, 0]), r"waypoints\[1\]: expected 2 coordinates, got 3"),
            (lambda d: d["waypoints"].__setitem__(1, [50, 10]), r"waypoints\[1\]=\[50.0, 10.0\] is inside obstacles\[0\]"),
            (lambda d: d["links"][0].update(b=7), r"links\[0\].b=7 refers to a missing waypoint"),
            (lambda d: d["links"][0].update(b=1.0), r"links\[0\].b: expected an integer, got 1.0"),
            (lambda d: d["links"][0].update(kind="sideways"), r"Link.kind='sideways' is not valid"),
            (lambda d: d["links"][0].update(requires=5), r"links\[0\].requires: expected a string or null"),
            (lambda d: d.update(terrain=[{"tag": "swamp"}]), r"terrain\[0\]: missing field 'polygon'"),
            (lambda d: d.update(offmesh_links=[{"a": 0, "b": 1, "cost": -1, "tag": ""}]), r"offmesh_links\[0\]: OffMeshLink cost=-1.0"),
            (lambda d: d.update(offmesh_links=[{"a": 0, "b": 1, "cost": 1, "tag": "", "bidirectional": 1}]), r"offmesh_links\[0\].bidirectional: expected true or false"),
        ],
    )
    def test_bad_field(self, tmp_path, edit, message):
        data = valid_data()
        edit(data)
        path = write(tmp_path, json.dumps(data))
        with pytest.raises(LevelFormatError, match=message) as info:
            load_level(path)
        assert str(path) in str(info.value)

    def test_self_intersecting_obstacle_in_file(self, tmp_path):
        data = valid_data()
        data["obstacles"].append({"exterior": [[0, 0], [2, 2], [2, 0], [0, 2]], "holes": []})
        with pytest.raises(LevelFormatError, match=r"obstacles\[1\] is not a valid polygon \(Self-intersection"):
            load_level(write(tmp_path, json.dumps(data)))

    def test_nan_literal_rejected(self, tmp_path):
        text = json.dumps(valid_data()).replace("[10.0, 10.0]", "[NaN, 10.0]", 1)
        with pytest.raises(LevelFormatError, match="NaN is not allowed"):
            load_level(write(tmp_path, text))

    def test_policy_passed_through(self, tmp_path):
        data = valid_data()
        data["waypoints"].append([50, 10])
        with pytest.warns(NavmeshWarning):
            level = load_level(write(tmp_path, json.dumps(data)), on_bad_waypoint="drop")
        assert level.n_waypoints == 2

    def test_bad_policy_is_an_option_error(self, tmp_path):
        path = write(tmp_path, json.dumps(valid_data()))
        with pytest.raises(InvalidOptionError, match="on_bad_waypoint"):
            load_level(path, on_bad_waypoint="maybe")

    def test_unknown_tag_in_file(self, tmp_path):
        data = valid_data()
        data["terrain"] = [{"tag": "swmp", "polygon": {"exterior": [[0, 0], [5, 0], [5, 5]]}}]
        with pytest.raises(LevelFormatError, match=r"terrain\[0\].tag='swmp' is not a known tag"):
            load_level(write(tmp_path, json.dumps(data)), known_tags={"swamp"})

    def test_no_warnings_on_good_file(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(full_level(), path)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            load_level(path)

    def test_keeps_working_after_bak_removed(self, tmp_path):
        path = tmp_path / "level.json"
        save_level(simple(), path)
        save_level(simple(), path)
        os.remove(tmp_path / "level.json.bak")
        save_level(simple(), path)
        assert (tmp_path / "level.json.bak").exists()


# -- magnitudes ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: Level.rectangle(1e160, 1e160), r"bounds reaches .*within \+-1e\+15"),
        (lambda: Level.rectangle(10**400, 5), r"too large; coordinates must lie within \+-1e\+15"),
        (lambda: Level.rectangle(10, 10, waypoints=[[1e200, 1]]), r"waypoints\[0\].*too large"),
        (lambda: Level.rectangle(10, 10, obstacles=[[(0, 0), (1e16, 0), (0, 1)]]), r"obstacles\[0\] reaches"),
        (lambda: Level.rectangle(10, 10, terrain=[([(0, 0), (-2e15, 0), (0, 1)], "mud")]), r"terrain\[0\].polygon reaches"),
    ],
)
def test_magnitudes_the_arithmetic_cannot_carry_are_refused(make, words):
    with pytest.raises(InvalidGeometryError, match=words):
        make()


def test_largest_accepted_level_still_gives_finite_answers():
    import navmesh

    level = Level.rectangle(1e15, 1e15, waypoints=[[1, 1], [1e15 - 1, 1e15 - 1]])
    path = navmesh.find_path(navmesh.build_waypoint_graph(level), [0.5, 0.5], [1e15 - 0.5, 1e15 - 0.5])
    assert math.isfinite(path.cost) and path.cost == pytest.approx(math.sqrt(2) * 1e15)


# -- replace shares what the change leaves valid ---------------------------------------------
def _editor_level() -> Level:
    return Level.rectangle(
        20, 20, obstacles=[[(4, 4), (8, 4), (8, 8), (4, 8)], [(12, 12), (16, 12), (16, 16), (12, 16)]],
        waypoints=[[1, 1], [10, 10], [18, 2], [2, 18]], terrain=[([(0, 0), (3, 0), (3, 3), (0, 3)], "swamp")],
    )


def test_replace_shares_the_line_of_sight_when_bounds_and_obstacles_are_unchanged():
    level = _editor_level()
    los0, wide = level.line_of_sight(), level.line_of_sight(agent_radius=1.0)
    moved = level.replace(waypoints=[[1, 1], [10, 11], [18, 2], [2, 18]])
    assert moved.line_of_sight() is los0 and moved.line_of_sight(agent_radius=1.0) is wide
    assert moved.terrain_layer() is level.terrain_layer()
    later = moved.line_of_sight(agent_radius=2.0)  # built for either level, it serves both
    assert level.line_of_sight(agent_radius=2.0) is later
    # an equal obstacle list made of new objects shares too
    same = moved.replace(obstacles=[shapely.Polygon(p.exterior.coords) for p in level.obstacles])
    assert same.line_of_sight() is los0


def test_replace_builds_a_new_line_of_sight_when_an_obstacle_moves():
    level = _editor_level()
    los0 = level.line_of_sight()
    moved = level.replace(obstacles=[level.obstacles[0], shapely.affinity.translate(level.obstacles[1], 1.0, 0.0)])
    assert moved.line_of_sight() is not los0
    assert moved.line_of_sight().blocked([[11, 14]], [[19, 14]]).tolist() == [True]
    assert not moved.line_of_sight().inside_obstacle([[12.5, 14]])[0]  # left of the moved square now
    assert level.line_of_sight().inside_obstacle([[12.5, 14]])[0]
    painted = level.replace(terrain=[([(0, 0), (5, 0), (5, 3), (0, 3)], "swamp")])
    assert painted.terrain_layer() is not level.terrain_layer()
    assert painted.line_of_sight() is los0


@pytest.mark.parametrize("where, why", [((6, 6), "inside obstacles[0]"), ((25, 5), "outside the bounds")])
def test_a_waypoint_moved_onto_a_bad_spot_is_refused_with_a_shared_line_of_sight(where, why):
    level = _editor_level()
    for pts in ([[1, 1], list(where), [18, 2], [2, 18]], [[1, 1], [10, 10], [18, 2], [2, 18], list(where)],
                [list(where), [10, 10], [18, 2]]):
        with pytest.raises(InvalidGeometryError, match=rf"waypoints\[{pts.index(list(where))}\].* is {re.escape(why)}"):
            level.replace(waypoints=pts)
    with pytest.warns(NavmeshWarning, match=re.escape(why)):
        kept = level.replace(waypoints=[[1, 1], list(where), [18, 2], [2, 18]], on_bad_waypoint="warn")
    # the kept bad waypoint stays reported in a level derived from that one
    with pytest.warns(NavmeshWarning, match=rf"waypoints\[1\].* {re.escape(why)}"):
        kept.replace(waypoints=[[1, 1], list(where), [18, 3], [2, 18]], on_bad_waypoint="warn")
    dropped = kept.replace(waypoints=[[1, 1], [10, 10], [2, 18]])  # removing rows: the rest keep their answers
    assert dropped.n_waypoints == 3


def test_moving_an_obstacle_rechecks_the_waypoints_it_covers_or_leaves():
    level = _editor_level()  # waypoint 1 at (10, 10), between the squares
    onto = [level.obstacles[0], shapely.affinity.translate(level.obstacles[1], -3.0, -3.0)]  # (9..13)^2
    with pytest.raises(InvalidGeometryError, match=re.escape("waypoints[1]=[10.0, 10.0] is inside obstacles[1]")):
        level.replace(obstacles=onto)
    with pytest.warns(NavmeshWarning, match=re.escape("waypoints[1]=[10.0, 10.0] is inside obstacles[1]")):
        covered = level.replace(obstacles=onto, on_bad_waypoint="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("error", NavmeshWarning)  # moved away again: nothing is reported
        back = covered.replace(obstacles=level.obstacles, on_bad_waypoint="warn")
        added = back.replace(obstacles=[*back.obstacles, [(17, 17), (19, 17), (19, 19), (17, 19)]])
    with pytest.raises(InvalidGeometryError, match=re.escape("waypoints[0]=[1.0, 1.0] is inside obstacles[2]")):
        added.replace(obstacles=[*back.obstacles, [(0.5, 0.5), (1.5, 0.5), (1.5, 1.5), (0.5, 1.5)]])
