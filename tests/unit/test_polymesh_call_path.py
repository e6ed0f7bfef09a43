"""MeshQuery.find_path's hot call (default options, (x, y) pairs of floats) answers exactly as the
checked route (any other option: here ``max_expansions``) under the endpoint policy, whatever
form the positions take; its output block is emptied and used again once none of its paths is
alive, and never while one (or a view of one) is; its Paths equal Paths made by the checked
constructor, as do the waypoint query's."""

from __future__ import annotations

import dataclasses
import gc

import numpy as np
import pytest

from navmesh.endpoints import BOUNDS_MARGIN, ENDPOINT_TOLERANCE
from navmesh.errors import InvalidGeometryError, NodeNotFoundError
from navmesh.level import Level
from navmesh.path import Path
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery

CHECKED = {"max_expansions": 10**9}  # any option off its default takes the checked route


def _wall_query() -> MeshQuery:
    return MeshQuery(build_navmesh(Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])))


def _slalom_query() -> MeshQuery:
    walls = [[(x, 0 if i % 2 else 2), (x + 1, 0 if i % 2 else 2), (x + 1, 18 if i % 2 else 20), (x, 18 if i % 2 else 20)]
             for i, x in enumerate(range(2, 40, 3))]
    return MeshQuery(build_navmesh(Level.rectangle(42, 20, obstacles=walls)))


def _same(a: Path, b: Path) -> None:
    for f in dataclasses.fields(Path):
        x, y = getattr(a, f.name), getattr(b, f.name)
        assert type(x) is type(y), f.name
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), f.name
            assert not x.flags.writeable
        else:
            assert x == y, f.name


def _forms(x: float, y: float) -> list:
    return [(x, y), [x, y], (np.float64(x), np.float64(y)), np.array([x, y]),
            np.array([[x, y]])[0], np.array([x, y, 0.0])[:2], np.array([x, 0.0, y])[::2]]


TOL = ENDPOINT_TOLERANCE * 10  # the level's size is 10


@pytest.mark.parametrize("start, moved", [
    ((1.0, 1.0), False),  # inside
    ((4.0 - 0.5 * TOL, 3.0), False),  # inside the wall by less than the tolerance: used as is
    ((4.5, 3.0), True),  # inside the wall: moved to its nearest side
    ((-0.5 * BOUNDS_MARGIN * 10, 3.0), True),  # outside the bounds, within the margin: moved
])
def test_every_form_of_an_endpoint_gets_the_checked_answer(start, moved):
    query = _wall_query()
    want = query.find_path(list(start), [9.0, 1.0], **CHECKED)
    assert want.start_moved is moved and not want.goal_moved
    for s in _forms(*start):
        _same(query.find_path(s, (9.0, 1.0)), want)
        _same(query.find_path((9.0, 1.0), s), query.find_path([9.0, 1.0], list(start), **CHECKED))
    if not moved:
        assert want.points[0] == pytest.approx(start, abs=TOL)


@pytest.mark.parametrize("start, error", [
    ((4.5, 3.0), "not walkable"),  # strict: inside the wall
    ((-2.0 * BOUNDS_MARGIN * 10, 3.0), "outside the level's bounds"),  # beyond the margin, strict or not
])
def test_strict_and_far_outside_raise_for_every_form(start, error):
    query = _wall_query()
    for s in _forms(*start):
        with pytest.raises(NodeNotFoundError, match=error):
            query.find_path(s, (9.0, 1.0), strict=True)
        with pytest.raises(NodeNotFoundError, match=error):
            query.find_path((9.0, 1.0), s, strict=True)
    if error.startswith("outside"):
        with pytest.raises(NodeNotFoundError, match=error):
            query.find_path(start, (9.0, 1.0))


@pytest.mark.parametrize("bad", [(1.0, 2.0, 3.0), (1.0,), (), ((1.0, 2.0), (3.0, 4.0)), ("1.0", 2.0),
                                 [1.0, None], np.array(1.0), np.zeros((2, 1)), np.zeros(3), np.array(["1", "2"]),
                                 np.array([1.0, np.nan])])
def test_what_is_not_a_pair_of_numbers_raises_the_checked_error(bad):
    query = _wall_query()
    with pytest.raises(InvalidGeometryError, match="start="):
        query.find_path(bad, (9.0, 1.0))
    with pytest.raises(InvalidGeometryError, match="goal="):
        query.find_path((1.0, 1.0), bad)


@pytest.mark.parametrize("start", [np.array([1.5, 1.25], np.float32), np.array([1, 1]), np.array([1.5, 1.0], object),
                                   np.array([True, True]), [np.float32(1.5), 1.25], (1, 1), (True, 1.0),
                                   (np.int64(2), np.float64(1.5))])
def test_positions_of_other_numbers_get_the_checked_answer(start):
    # float64 rows are read by tolist in the hot call: rows of other numbers must not slip through it
    query = _wall_query()
    _same(query.find_path(start, (9.0, 1.0)), query.find_path(start, (9.0, 1.0), **CHECKED))
    _same(query.find_path((9.0, 1.0), start), query.find_path((9.0, 1.0), start, **CHECKED))


def _ends(n: int, seed: int = 5) -> list:
    rng = np.random.default_rng(seed)
    return [((float(rng.uniform(0.5, 1.5)), float(rng.uniform(1, 19))), (float(rng.uniform(40.5, 41.5)), float(rng.uniform(1, 19))))
            for _ in range(n)]


def test_a_block_whose_paths_are_gone_is_emptied_and_used_again():
    query = _slalom_query()
    block = query._block
    rows, cleared = 0, 0
    for s, g in _ends(40) * 4:  # far more rows than one block holds
        path = query.find_path(s, g)
        _same(path, query.find_path(s, g, **CHECKED))
        assert path.points.base is block.pts_ro.base  # a view of the block's rows
        now = int(block.polys[0])
        cleared += now < rows
        rows = now
        del path
    assert query._block is block and cleared >= 2


@pytest.mark.parametrize("keep", ["path", "view of points", "view of nodes"])
def test_a_block_with_a_live_path_is_never_overwritten(keep):
    query = _slalom_query()
    s, g = _ends(1, seed=9)[0]
    first = query.find_path(s, g)
    want = query.find_path(s, g, **CHECKED)
    held = {"path": first, "view of points": first.points[1:], "view of nodes": first.nodes[::2]}[keep]
    block = query._block
    del first
    gc.collect()
    for a, b in _ends(40) * 4:
        query.find_path(a, b)
    assert query._block is not block  # a new block: the old one lives as long as what holds it
    expect = {"path": want, "view of points": want.points[1:], "view of nodes": want.nodes[::2]}[keep]
    if keep == "path":
        _same(held, expect)
    else:
        assert np.array_equal(held, expect) and not held.flags.writeable
    del held
    gc.collect()
    block = query._block
    for a, b in _ends(40, seed=3) * 4:
        query.find_path(a, b)
    assert query._block is block  # nothing holds the new one: it is used again


def test_fast_paths_equal_checked_constructor_paths_on_the_mesh_and_the_waypoint_graph():
    from navmesh.waypoints.build import build_waypoint_graph
    from navmesh.waypoints.query import NavQuery

    level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])
    mesh_path = MeshQuery(build_navmesh(level)).find_path((1.0, 1.0), (9.0, 1.0))
    nav_path = NavQuery(build_waypoint_graph(level, corners=True, k=None)).find_path((1.0, 1.0), (9.0, 1.0))
    for path in (mesh_path, nav_path):
        rebuilt = Path(path.nodes, path.points, path.cost, path.expansions, path.partial, path.start_moved,
                       path.goal_moved)
        _same(path, rebuilt)
        assert repr(path) == repr(rebuilt) and len(path) == len(rebuilt) and path.length == rebuilt.length
        with pytest.raises(dataclasses.FrozenInstanceError):
            path.cost = 0.0
    assert mesh_path.points.tolist() == nav_path.points.tolist() == [[1.0, 1.0], [4.0, 8.0], [6.0, 8.0], [9.0, 1.0]]
    assert mesh_path.cost == pytest.approx(nav_path.cost, rel=1e-12)
