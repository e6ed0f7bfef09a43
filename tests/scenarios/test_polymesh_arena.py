"""Polyanya on the published arena mesh and on the arena map rebuilt as a level: all 160
reference lengths (Cui, Harabor and Grastien's meshes; lengths as published, rounded to about six
digits, so compared within 1e-5 relative)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from navmesh.geometry import cell_rectangles
from navmesh.io.mesh_file import load_mesh, save_mesh
from navmesh.io.movingai import read_map
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery

DATA = Path(__file__).resolve().parents[1] / "data" / "anyangle"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "anyangle"


def _queries(folder: Path):
    rows = list(csv.DictReader((folder / "arena.expected.csv").open()))
    return [((float(r["start_x"]), float(r["start_y"])), (float(r["goal_x"]), float(r["goal_y"])),
             float(r["expected_euclidean_length"])) for r in rows]


def _check(query: MeshQuery, queries) -> None:
    assert len(queries) == 160
    got = np.array([query.find_path(s, g).cost for s, g, _ in queries])
    want = np.array([e for _, _, e in queries])
    worst = np.max(np.abs(got - want) / np.maximum(want, 1.0))
    assert worst <= 1e-5, f"largest relative difference {worst}"


def test_published_mesh_gives_every_published_length(tmp_path):
    if not (SHARED / "arena.mesh").exists():
        pytest.skip("../shared/data/anyangle/arena.mesh not found")
    mesh = load_mesh(SHARED / "arena.mesh")
    _check(MeshQuery(mesh), _queries(SHARED))
    for version in (2, 3):
        save_mesh(mesh, tmp_path / f"arena{version}.mesh", version=version)
        assert load_mesh(tmp_path / f"arena{version}.mesh") == mesh


def test_arena_map_rebuilt_as_a_level_gives_every_published_length():
    if not (DATA / "arena.map").exists():
        pytest.skip("tests/data/anyangle/arena.map not found")
    blocked = ~np.isin(read_map(DATA / "arena.map").chars, list(".GS"))
    level = Level((0, 0, blocked.shape[1], blocked.shape[0]), obstacles=cell_rectangles(blocked))
    _check(MeshQuery(build_navmesh(level)), _queries(DATA))
