"""Path made the fast way (``Path._trusted``, used by MeshQuery.find_path's default call) behaves
like a Path made through its checked constructor: same values, frozen, read-only arrays, usable
with dataclasses.replace and pickle; and the default-options call of MeshQuery.find_path answers
exactly as the checked route through the same kernel (any other option takes that route)."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from navmesh.level import Level
from navmesh.path import Path
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery


def _wall_level() -> Level:
    return Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)], [(1, 8.5), (3, 8.5), (3, 9.5), (1, 9.5)]])


def test_trusted_path_equals_checked_path():
    nodes, points = np.array([3, 1], np.int32), np.array([[0.0, 0.0], [3.0, 4.0]])
    fast = Path._trusted(nodes.copy(), points.copy(), 5.0, 7, True, False, True)
    slow = Path(nodes, points, 5, 7, True, False, True)
    for f in dataclasses.fields(Path):
        a, b = getattr(fast, f.name), getattr(slow, f.name)
        assert np.array_equal(a, b) and type(a) is type(b), f.name
    assert fast.length == 5.0 and len(fast) == 2 and repr(fast) == repr(slow)
    assert not fast.nodes.flags.writeable and not fast.points.flags.writeable
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.cost = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.extra = 1
    moved = dataclasses.replace(fast, points=[[1, 1], [1, 2]])
    assert moved.points.dtype == np.float64 and moved.length == 1.0 and moved.expansions == 7
    back = pickle.loads(pickle.dumps(fast))
    assert np.array_equal(back.points, fast.points) and back.goal_moved and back.cost == 5.0


def test_checked_constructor_still_converts():
    p = Path([1, 2], [[0, 0], [1, 1]], 2)
    assert p.nodes.dtype == np.int32 and p.points.dtype == np.float64 and isinstance(p.cost, float)
    assert not p.nodes.flags.writeable and not p.points.flags.writeable
    assert p.expansions == 0 and not p.partial and not p.start_moved and not p.goal_moved


@pytest.mark.parametrize(("start", "goal"), [((1, 1), (9, 1)), ((0.5, 9), (9.5, 9.9)), ((5, 9), (5, 9)),
                                             ((2, 2), (2.5, 2.5)), ((9, 1), (2, 9.75))])
def test_default_call_equals_checked_route(start, goal):
    query = MeshQuery(build_navmesh(_wall_level()))
    fast = query.find_path(start, goal)
    slow = query.find_path(start, goal, max_expansions=10**9)  # a budget: the checked route
    assert np.array_equal(fast.points, slow.points) and np.array_equal(fast.nodes, slow.nodes)
    assert fast.cost == slow.cost and fast.expansions == slow.expansions
    assert fast.nodes.dtype == np.int32 and fast.points.dtype == np.float64 and fast.points.shape[1] == 2
    assert not fast.nodes.flags.writeable and not fast.points.flags.writeable
    assert fast.points[0].tolist() == list(map(float, start)) and fast.points[-1].tolist() == list(map(float, goal))
    # the returned arrays are the path's own: the next query does not change them
    before = fast.points.copy()
    query.find_path((9.5, 0.5), (0.5, 0.5))
    assert np.array_equal(fast.points, before)


def test_default_call_around_the_wall_is_the_hand_computed_length():
    path = MeshQuery(build_navmesh(_wall_level())).find_path((1, 1), (9, 1))
    expected = np.hypot(3, 7) + 2 + np.hypot(3, 7)  # (1,1) -> (4,8) -> (6,8) -> (9,1)
    assert path.cost == pytest.approx(expected, rel=1e-12)
    assert path.points.tolist() == [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
