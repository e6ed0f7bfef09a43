"""Moving AI readers: map and scenario formats, line ends, versions, clear errors."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from navmesh.errors import LevelFormatError
from navmesh.grid import GridMap
from navmesh.io.movingai import read_map, read_scenarios

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "movingai"
MAP_TEXT = "type octile\nheight 3\nwidth 4\nmap\n..@.\nGST.\nWW.O\n"


def write(tmp_path: pathlib.Path, name: str, text: str, *, crlf: bool = False) -> pathlib.Path:
    path = tmp_path / name
    path.write_bytes((text.replace("\n", "\r\n") if crlf else text).encode("ascii"))
    return path


# -- .map ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("crlf", [False, True])
def test_read_map_lf_and_crlf(tmp_path, crlf):
    m = read_map(write(tmp_path, "a.map", MAP_TEXT, crlf=crlf))
    assert (m.height, m.width, m.type) == (3, 4, "octile")
    assert ["".join(row) for row in m.chars] == ["..@.", "GST.", "WW.O"]


def test_header_height_first_is_honoured(tmp_path):
    # 2 rows of 5: swapping the numbers would make the body invalid.
    m = read_map(write(tmp_path, "a.map", "type octile\nheight 2\nwidth 5\nmap\n.....\n.....\n"))
    assert (m.height, m.width) == (2, 5)
    swapped = read_map(write(tmp_path, "b.map", "type octile\nwidth 5\nheight 2\nmap\n.....\n.....\n"))
    assert (swapped.height, swapped.width) == (2, 5)


def test_trailing_blank_lines_allowed(tmp_path):
    assert read_map(write(tmp_path, "a.map", MAP_TEXT + "\n\n")).height == 3


def test_grid_from_map_file(tmp_path):
    grid = GridMap.from_movingai(write(tmp_path, "a.map", MAP_TEXT, crlf=True))
    assert grid.blocked.tolist() == [
        [False, False, True, False],
        [False, False, True, False],
        [False, False, False, True],
    ]
    # water (row 2, cols 0-1) is its own region: no step from water to ground
    assert grid.regions[2, :2].tolist() == [1, 1] and grid.regions[1, 0] == 0
    assert not grid.moves[2, 1] & (1 << 1)  # water (1, 2) -> ground (2, 2) is not allowed
    assert grid.moves[2, 0] & (1 << 1)  # water -> water is


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("height 3\nwidth 4\nmap\n....\n....\n....\n", "no 'type' line"),
        ("type octile\nheight 3\nwidth 4\n....\n", r"line 4: header line '\.\.\.\.'"),
        ("type octile\nheight x\nwidth 4\nmap\n....\n", "height 'x'"),
        ("type octile\nheight 0\nwidth 4\nmap\n", "height '0'"),
        ("type octile\nheight 3\nheight 3\nwidth 4\nmap\n", "line 3: 'height' is given twice"),
        ("type octile\nheight 3\nwidth 4\nmap\n....\n....\n", "expected 3 map rows after line 4; found 2"),
        ("type octile\nheight 2\nwidth 4\nmap\n....\n.....\n", "line 6: row has 5 characters; expected width 4"),
        ("type octile\nheight 2\nwidth 4\nmap\n....\n.x..\n", "line 6, column 2: unknown map character 'x'"),
        ("type octile\nheight 1\nwidth 4\nmap\n....\n....\n", "line 6: unexpected text after the 1 map rows"),
        ("", "no 'map' line"),
    ],
)
def test_corrupt_map_files(tmp_path, text, pattern):
    path = write(tmp_path, "bad.map", text)
    with pytest.raises(LevelFormatError, match=pattern) as info:
        read_map(path)
    assert "bad.map" in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_map(tmp_path / "none.map")


# -- .scen --------------------------------------------------------------------------------------
SCEN = (
    "version 1\n"
    "0\tmaps/dao/a.map\t4\t3\t0\t0\t1\t0\t1\n"
    "\n"
    "3 a.map 4 3 3 0 0 2 3.82842712\n"
)


@pytest.mark.parametrize("version", ["1", "1.0"])
@pytest.mark.parametrize("crlf", [False, True])
def test_read_scenarios(tmp_path, version, crlf):
    text = SCEN.replace("version 1", f"version {version}")
    scen = read_scenarios(write(tmp_path, "a.scen", text, crlf=crlf))
    assert len(scen) == 2 and scen.version == version
    assert scen.map_names == ("a.map", "a.map")
    assert scen.buckets.tolist() == [0, 3]
    assert scen.map_widths.tolist() == [4, 4] and scen.map_heights.tolist() == [3, 3]
    assert scen.starts.tolist() == [[0, 0], [3, 0]]
    assert scen.goals.tolist() == [[1, 0], [0, 2]]
    assert scen.optimal.tolist() == [1.0, 3.82842712]
    assert scen.start_cells(4).tolist() == [0, 3] and scen.goal_cells(4).tolist() == [1, 8]


def test_windows_folder_prefix(tmp_path):
    scen = read_scenarios(write(tmp_path, "a.scen", "version 1\n0 maps\\dao\\a.map 4 3 0 0 1 0 1\n"))
    assert scen.map_names == ("a.map",)


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("", "empty"),
        ("0 a.map 4 3 0 0 1 0 1\n", "line 1: expected 'version 1'"),
        ("version 2\n", "version '2' is not supported"),
        ("version one\n", "version 'one' is not supported"),
        ("version 1\n\n0 a.map 4 3 0 0 1 0\n", "line 3: 8 fields; expected 9"),
        ("version 1\n0 a.map 4 3 0 0 1.5 0 1\n", "line 2: bucket, width, height and coordinates"),
        ("version 1\n0 a.map 4 3 0 0 1 0 far\n", "line 2: optimal length 'far'"),
        ("version 1\n0 a.map 4 3 0 0 1 0 -1\n", "optimal length '-1'"),
        ("version 1\n0 a.map 4 3 4 0 1 0 1\n", r"line 2: start \(4, 0\) or goal \(1, 0\) lies outside the 4x3 map"),
    ],
)
def test_corrupt_scenario_files(tmp_path, text, pattern):
    path = write(tmp_path, "bad.scen", text)
    with pytest.raises(LevelFormatError, match=pattern) as info:
        read_scenarios(path)
    assert "bad.scen" in str(info.value)


def test_arrays_read_only(tmp_path):
    scen = read_scenarios(write(tmp_path, "a.scen", SCEN))
    with pytest.raises(ValueError):
        scen.optimal[0] = 2.0
    with pytest.raises(ValueError):
        read_map(write(tmp_path, "a.map", MAP_TEXT)).chars[0, 0] = "@"


# -- the shipped benchmark files ----------------------------------------------------------------
SHIPPED = sorted(DATA.glob("*.scen"))


@pytest.mark.parametrize("scen_path", SHIPPED, ids=lambda p: p.name)
def test_shipped_files_agree(scen_path):
    scen = read_scenarios(scen_path)
    assert len(scen) > 0
    (name,) = set(scen.map_names)
    grid = GridMap.from_movingai(DATA / name)
    assert set(scen.map_widths.tolist()) == {grid.width}
    assert set(scen.map_heights.tolist()) == {grid.height}
    assert grid.is_passable(scen.start_cells(grid.width)).all()
    assert grid.is_passable(scen.goal_cells(grid.width)).all()


def test_shipped_maps_found():
    assert {p.name for p in SHIPPED} >= {"arena.map.scen", "den312d-random-1.scen", "empty-8-8-random-1.scen"}
    assert (DATA / "LICENSE.hog2-MIT.txt").exists() and (DATA / "README.md").exists()
    assert np.all([(DATA / read_scenarios(p).map_names[0]).exists() for p in SHIPPED])
