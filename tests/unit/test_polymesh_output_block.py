"""Paths of MeshQuery.find_path's hot call are read-only views of the query's output block
(navmesh.polymesh.workspace): they equal the paths of the checked route, keep their values when
later queries fill the block or start a new one, cannot be written, and a path longer than a
block gets arrays of its own; the kernel's own checks send NaN and too large points to the
errors of the checked route."""

from __future__ import annotations

import dataclasses
import math
import pickle

import numpy as np
import pytest

from navmesh.errors import InvalidGeometryError
from navmesh.level import Level
from navmesh.path import Path
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.polymesh.workspace import BLOCK_ROWS, OutputBlock


def _slalom() -> Level:
    walls = [[(x, 0 if i % 2 else 2), (x + 1, 0 if i % 2 else 2), (x + 1, 18 if i % 2 else 20), (x, 18 if i % 2 else 20)]
             for i, x in enumerate(range(2, 40, 3))]
    return Level.rectangle(42, 20, obstacles=walls)


def test_views_path_equals_a_checked_path():
    block = OutputBlock(8)
    block.pts[:6] = [0.0, 0.0, 3.0, 4.0, 3.0, 5.0]
    block.polys[1:4] = [2, 5, 7]
    fast = Path._views(block.polys_ro[0:3], block.pts_ro[0:3], 6.0, 9)
    slow = Path([2, 5, 7], [[0, 0], [3, 4], [3, 5]], 6.0, 9)
    for f in dataclasses.fields(Path):
        a, b = getattr(fast, f.name), getattr(slow, f.name)
        assert np.array_equal(a, b) and type(a) is type(b), f.name
    assert fast.nodes.dtype == np.int32 and fast.points.shape == (3, 2) and fast.length == 6.0
    assert not fast.nodes.flags.writeable and not fast.points.flags.writeable
    with pytest.raises(ValueError):
        fast.points[0, 0] = 1.0
    back = pickle.loads(pickle.dumps(fast))
    assert np.array_equal(back.points, fast.points) and back.cost == 6.0 and not back.partial


def test_many_queries_fill_blocks_and_every_path_keeps_its_values():
    query = MeshQuery(build_navmesh(_slalom()))
    rng = np.random.default_rng(5)
    ends = [((float(rng.uniform(0.5, 1.5)), float(rng.uniform(1, 19))), (float(rng.uniform(40.5, 41.5)), float(rng.uniform(1, 19))))
            for _ in range(40)]
    first_block = query._block
    kept = [query.find_path(s, g) for s, g in ends * 4]  # far more rows than one block holds
    assert query._block is not first_block  # a full block was replaced
    for (s, g), path in zip(ends * 4, kept):
        again = query.find_path(s, g, max_expansions=10**9)  # the checked route: arrays of its own
        assert np.array_equal(path.points, again.points) and np.array_equal(path.nodes, again.nodes)
        assert path.cost == again.cost and path.points[0].tolist() == list(s)
        assert not path.points.flags.writeable and not path.nodes.flags.writeable
    assert sum(len(p.nodes) for p in kept) > BLOCK_ROWS


def test_a_path_longer_than_a_block_has_arrays_of_its_own():
    query = MeshQuery(build_navmesh(_slalom()))
    query._block = OutputBlock(4)  # smaller than the path: the kernel reports no room
    small = query._block
    path = query.find_path((1.0, 1.0), (41.0, 19.0))
    assert path.points.base is None or path.points.base is not small.pts
    assert not path.points.flags.writeable and len(path.nodes) > 4
    assert query._block is small  # a long path does not throw the block away
    assert path.cost == pytest.approx(query.find_path((1, 1), (41, 19), max_expansions=10**9).cost, rel=1e-12)


@pytest.mark.parametrize("bad", [(math.nan, 1.0), (1.0, math.inf), (2e15, 1.0)])
def test_bad_float_points_raise_the_checked_error(bad):
    query = MeshQuery(build_navmesh(_slalom()))
    with pytest.raises(InvalidGeometryError, match="start"):
        query.find_path(bad, (5.0, 5.0))
    with pytest.raises(InvalidGeometryError, match="goal"):
        query.find_path((1.0, 1.0), bad)
