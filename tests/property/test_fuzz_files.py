"""Fuzzing the file readers: mutated level JSON, Moving AI map and scenario files, Tiled maps.

Valid files are mutated at the byte level (flip, insert, delete, truncate, repeat) and at the
structure level (a JSON value replaced by a bad one: huge or negative numbers, deep nesting, a lone
surrogate, a wrong type; a Moving AI header or field replaced). Every reader must either load the
file or raise :class:`~navmesh.errors.LevelFormatError` with a short message; a level that loads
must also save and load again unchanged (what the reader accepts the writer can encode).
"""

from __future__ import annotations

import json
import pathlib
import shutil
import tempfile
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import navmesh
from navmesh.errors import LevelFormatError
from navmesh.io.movingai import read_map, read_scenarios

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
FOLDER = pathlib.Path(tempfile.mkdtemp())
MAX_MESSAGE = 2_000
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LEVEL = navmesh.Level.rectangle(
    40, 20,
    obstacles=[[(10, 0), (12, 0), (12, 12), (10, 12)], [(20, 5), (30, 5), (30, 8), (20, 8)]],
    waypoints=[[2, 2], [38, 2], [15, 18], [25, 15]],
    terrain=[navmesh.TerrainRegion([(0, 0), (8, 0), (8, 8), (0, 8)], "swamp")],
    links=[navmesh.Link(0, 2, "one_way", tag="bridge"), navmesh.Link(1, 3, "forced", requires="key")],
    offmesh_links=[navmesh.OffMeshLink(0, 1, 3.5, "teleport", bidirectional=True, requires="rune")],
)
navmesh.save_level(LEVEL, FOLDER / "valid.json")
LEVEL_BYTES = (FOLDER / "valid.json").read_bytes()
MAP_BYTES = (DATA / "movingai" / "empty-8-8.map").read_bytes()
SCEN_BYTES = (DATA / "movingai" / "empty-8-8-random-1.scen").read_bytes()[:600]


@st.composite
def byte_mutations(draw, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "repeat", "replace"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            odd = st.sampled_from([b"\xff\xfe", b"\x00", b"\r\n", b"9" * 30, b"[" * 50])
            data[i:i] = draw(st.binary(min_size=1, max_size=8) | odd)
        elif kind == "delete":
            del data[i : i + draw(st.integers(1, 16))]
        elif kind == "truncate":
            del data[i:]
        elif kind == "repeat":
            j = draw(st.integers(i, min(len(data), i + 40)))
            data[j:j] = data[i:j] * draw(st.integers(1, 3))
        elif kind == "replace" and data:
            data[i] = draw(st.sampled_from(b"0123456789-.eE[]{},:\" \t\nabz@#"))
    return bytes(data)


BAD_JSON_VALUES = [
    None, True, -1, 0, 2**31, 2**63, 10**30, -(10**30), 1e308, -1e308, 1e200, 5e-324, "", "\ud800", "a|b",
    "requires:x", "x" * 5000, [], {}, [[]], [[[[[[[[[[]]]]]]]]]], {"x": 1}, [1, 2, 3], [None, None],
]


BAD_TEXT = ["\ud800", "a\udfffb", "", "a|b", "requires:x", "x" * 5000, "\x00", 5, None, ["swamp"]]


def walk(node, path=()):
    """Every (path, value) in a parsed JSON tree."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


@st.composite
def json_mutations(draw) -> bytes:
    tree = json.loads(LEVEL_BYTES)
    spots = [p for p, _ in walk(tree) if p]
    spots += [p for p, v in walk(tree) if p and isinstance(v, str)] * 20  # text fields are few: favour them
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from(spots))
        parent = tree
        try:
            for step in where[:-1]:
                parent = parent[step]
            kind = draw(st.sampled_from(["set", "set", "drop", "add"]))
            if kind == "set":
                text_field = isinstance(parent[where[-1]], str)
                parent[where[-1]] = draw(st.sampled_from(BAD_TEXT if text_field else BAD_JSON_VALUES))
            elif kind == "drop":
                del parent[where[-1]]
            elif isinstance(parent, dict):
                parent[draw(st.sampled_from(["extra", "x" * 100_000, "holes"]))] = draw(st.sampled_from(BAD_JSON_VALUES))
            elif isinstance(parent, list):
                parent.append(draw(st.sampled_from(BAD_JSON_VALUES)))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced this spot
    text = json.dumps(tree, ensure_ascii=True)
    rarely = st.sampled_from([False, False, False, True])
    if draw(rarely):
        text = text.replace("[]", "[" * 100_000 + "]" * 100_000, 1)  # deep nesting
    if draw(rarely):
        text = text.replace("3.5", draw(st.sampled_from(["NaN", "Infinity", "1" * 5000, "1" * 400, "-0", "1e999"])), 1)
    return text.encode("utf-8", "surrogatepass")


def check_reader(read, data: bytes, suffix: str) -> object | None:
    path = FOLDER / f"fuzz{suffix}"
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return read(path)
        except LevelFormatError as exc:
            assert len(str(exc)) < MAX_MESSAGE, f"message of {len(str(exc))} characters"
            assert str(path) in str(exc), "the message names the file"
            return None


def check_level(data: bytes) -> None:
    level = check_reader(navmesh.load_level, data, ".json")
    if level is not None:
        navmesh.save_level(level, FOLDER / "again.json")
        assert navmesh.load_level(FOLDER / "again.json") == level


@FUZZ
@given(byte_mutations(LEVEL_BYTES))
def test_level_json_bytes(data):
    check_level(data)


@FUZZ
@given(json_mutations())
def test_level_json_values(data):
    check_level(data)


@FUZZ
@given(byte_mutations(MAP_BYTES))
def test_movingai_map_bytes(data):
    check_reader(read_map, data, ".map")


@FUZZ
@given(byte_mutations(SCEN_BYTES))
def test_movingai_scenario_bytes(data):
    check_reader(read_scenarios, data, ".scen")


HEADER_VALUES = ["0", "-1", "8", "9", "4294967297", "1" * 400, "\xb2", "8.0", "0x8", "1_0", "", "octile", "tile"]


@FUZZ
@given(st.integers(0, 3), st.sampled_from(HEADER_VALUES), st.booleans())
def test_movingai_map_headers(line, value, keep_key):
    lines = MAP_BYTES.decode("latin-1").split("\n")
    key = lines[line].split()[0] if lines[line].split() else ""
    lines[line] = f"{key} {value}" if keep_key else value
    check_reader(read_map, "\n".join(lines).encode("latin-1"), ".map")


@FUZZ
@given(st.integers(0, 8), st.sampled_from(HEADER_VALUES + ["2147483648", "-2147483649", "1e3", "nan", "inf"]))
def test_movingai_scenario_fields(field, value):
    lines = SCEN_BYTES.decode("latin-1").split("\n")
    parts = lines[1].split("\t")
    parts[field] = value
    lines[1] = "\t".join(parts)
    scen = check_reader(read_scenarios, "\n".join(lines).encode("latin-1"), ".scen")
    if scen is not None:  # whatever loads is a consistent set of queries, nothing wrapped
        assert (scen.map_widths >= 1).all() and (scen.map_heights >= 1).all()
        for cells in (scen.starts, scen.goals):
            assert (cells >= 0).all()
            assert (cells[:, 0] < scen.map_widths).all() and (cells[:, 1] < scen.map_heights).all()


def test_wrapping_width_is_refused():
    """A width of 2**32 + 1 must not wrap to 1 in int32."""
    lines = SCEN_BYTES.decode("latin-1").split("\n")
    parts = lines[1].split("\t")
    parts[2] = str(2**32 + 1)
    lines[1] = "\t".join(parts)
    (FOLDER / "wrap.scen").write_text("\n".join(lines), encoding="latin-1")
    with pytest.raises(LevelFormatError, match="int32"):
        read_scenarios(FOLDER / "wrap.scen")


TILED = DATA / "tiled" / "level_sample.tmj"


def test_empty_tiled_file_is_refused():
    (FOLDER / "empty.tmj").write_bytes(b"")
    with pytest.raises(LevelFormatError, match="empty.tmj"):
        navmesh.load_tiled_level(FOLDER / "empty.tmj")


@FUZZ
@given(byte_mutations(TILED.read_bytes() if TILED.exists() else b"{}"))
def test_tiled_bytes(data):
    if not TILED.exists():
        pytest.skip("tests/data/tiled/level_sample.tmj is absent")
    shutil.copy(DATA / "tiled" / "grid_sample_tiles.png", FOLDER / "grid_sample_tiles.png")
    check_reader(navmesh.load_tiled_level, data, ".tmj")
