"""All-pairs (``k=None``) builds in bounded memory (issue 21): the pair keys are made, tested and
dropped ``PAIR_BLOCK`` at a time (:func:`navmesh.waypoints.linking.pair_blocks`), and
:class:`PairAnswers` (k given) looks up and tests ``PAIR_BLOCK`` keys at a time.

A tiny ``navmesh.waypoints.incremental.PAIR_BLOCK`` cuts every call into many blocks; the graph
must equal the default build's, and on a small level the arcs must equal the exact rational
line-of-sight oracle of ``tests/los_oracle.py`` asked about every pair.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from los_oracle import oracle_for  # noqa: E402
from random_levels import random_level  # noqa: E402

import navmesh.waypoints.incremental as incremental  # noqa: E402
from navmesh.errors import NavmeshWarning  # noqa: E402
from navmesh.level import Level  # noqa: E402
from navmesh.waypoints.build import build_waypoint_graph  # noqa: E402
from navmesh.waypoints.incremental import PairAnswers  # noqa: E402

GRAPH_FIELDS = ("points", "indptr", "indices", "lengths", "tags")


def _level(dim: int = 2) -> Level:
    """The shared random level with designer waypoints: one inside an obstacle (blocked: it gets
    no automatic links); with ``dim=3`` on two interleaved floors (z = 0 and 4), so the floors'
    keys interleave."""
    pts = [[2, 2], [42, 42], [98, 3], [5, 95]]  # (42, 42) lies inside a box
    if dim == 3:
        pts = [[x, y, 4.0 * (i % 2)] for i, (x, y) in enumerate(pts + [[60, 2], [2, 60]])]
    return random_level(21, 10, margin=10, spread=6, size=(2, 9), waypoints=pts)


def _build(level: Level, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)  # the blocked designer waypoint
        return build_waypoint_graph(level, k=None, corners=True, **kw)


def _assert_same_graph(a, b) -> None:
    for name in GRAPH_FIELDS:
        np.testing.assert_array_equal(getattr(a.graph, name), getattr(b.graph, name), err_msg=name)


@pytest.mark.parametrize("visibility", ["kernel", "shapely"])
@pytest.mark.parametrize("dim", [2, 3])
def test_tiny_pair_blocks_give_the_default_graph(monkeypatch, visibility, dim):
    level = _level(dim)
    default = _build(level, visibility=visibility)
    n = default.n_nodes
    assert len(default.blocked_waypoints) >= 1  # the blocked filter runs
    if dim == 3:
        assert len(np.unique(default.points[:, 2])) == 2
    monkeypatch.setattr(incremental, "PAIR_BLOCK", 7)
    assert n * (n - 1) // 2 > 50 * 7  # many blocks
    small = _build(level, visibility=visibility)
    _assert_same_graph(small, default)
    np.testing.assert_array_equal(small.build_cache.los_keys, default.build_cache.los_keys)
    np.testing.assert_array_equal(small.build_cache.los_free, default.build_cache.los_free)
    keys = small.build_cache.los_keys  # the cache keeps the visible pairs, sorted: the linked ones
    assert (keys[1:] > keys[:-1]).all() and small.build_cache.los_free.all()
    linked = np.repeat(np.arange(n), np.diff(small.graph.indptr)) * n + small.graph.indices
    np.testing.assert_array_equal(keys, linked[linked // n < linked % n])
    assert default.graph.n_edges > 4 * n  # a graph with many links, not an empty one


def test_tiny_pair_blocks_give_the_arcs_of_the_exact_oracle(monkeypatch):
    level = Level((0, 0, 20, 20), obstacles=[shapely.box(3, 3, 7, 6), shapely.Polygon([(10, 10), (15, 11), (12, 16)]),
                                               shapely.box(7, 6, 9, 9)])  # the two boxes touch at (7, 6)
    monkeypatch.setattr(incremental, "PAIR_BLOCK", 3)
    nav = _build(level, visibility="kernel")
    oracle = oracle_for(nav.line_of_sight)
    p = [tuple(map(float, q)) for q in nav.points[:, :2]]
    ok = [oracle.walkable(q) for q in p]
    want = {(u, v) for u in range(len(p)) for v in range(u + 1, len(p)) if ok[u] and ok[v] and oracle.visible(p[u], p[v])}
    got = {(u, int(v)) for u in range(nav.n_nodes) for v in nav.graph.neighbors(u) if u < v}
    assert got == want
    assert 10 < len(want) < len(p) * (len(p) - 1) // 2  # some pairs see each other, some do not


@pytest.mark.parametrize("visibility", ["kernel", "shapely"])
def test_tiny_pair_blocks_update_equals_a_rebuild(monkeypatch, visibility):
    """An update reuses part of the cache: blocks mix cached and new answers, merged into the table."""
    level = _level()
    nav = _build(level, visibility=visibility)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        moved = level.replace(obstacles=(*level.obstacles[1:], shapely.box(70, 20, 76, 30)), on_bad_waypoint="warn")
        rebuilt = _build(moved, visibility=visibility)
        monkeypatch.setattr(incremental, "PAIR_BLOCK", 5)
        updated = nav.update(moved)
    _assert_same_graph(updated, rebuilt)
    np.testing.assert_array_equal(updated.build_cache.los_keys, rebuilt.build_cache.los_keys)
    np.testing.assert_array_equal(updated.build_cache.los_free, rebuilt.build_cache.los_free)


def test_pair_answers_by_blocks_serve_the_table_and_test_only_the_rest(monkeypatch):
    n = 50
    rule = lambda a, b: (a * 7 + b * 3) % 5 < 2  # noqa: E731  an answer per pair, known in closed form
    asked = []

    def test(a, b):
        asked.append(a * n + b)
        return rule(a, b)

    rng = np.random.default_rng(3)
    all_keys = np.array([u * n + v for u in range(n) for v in range(u + 1, n)], dtype=np.int64)
    known = np.sort(rng.choice(all_keys, 300, replace=False))
    wrong = ~rule(known // n, known % n)  # cached answers are served as they are, never recomputed
    monkeypatch.setattr(incremental, "PAIR_BLOCK", 16)
    answers = PairAnswers(known.copy(), wrong.copy(), n, test)
    ask = np.sort(rng.choice(all_keys, 500, replace=False))
    got = answers(ask)
    in_table = np.isin(ask, known)
    expect = np.where(in_table, ~rule(ask // n, ask % n), rule(ask // n, ask % n))
    np.testing.assert_array_equal(got, expect)
    tested = np.concatenate(asked)
    np.testing.assert_array_equal(tested, ask[~in_table])  # each new key once, in order
    assert len(asked) > 10 and max(map(len, asked)) <= 16
    union = np.union1d(known, ask)
    np.testing.assert_array_equal(answers.keys, union)
    in_known = np.isin(union, known)
    np.testing.assert_array_equal(answers.free, np.where(in_known, ~rule(union // n, union % n), rule(union // n, union % n)))
    # a table asked only about new keys keeps its own
    other = PairAnswers(known.copy(), wrong.copy(), n, lambda a, b: rule(a, b))
    new = ask[~in_table]
    np.testing.assert_array_equal(other(new), rule(new // n, new % n))
    np.testing.assert_array_equal(other.keys, union)
    np.testing.assert_array_equal(other.free, answers.free)
    # an empty table that learns every key asked
    fresh = PairAnswers(np.zeros(0, np.int64), np.zeros(0, bool), n, lambda a, b: rule(a, b))
    np.testing.assert_array_equal(fresh(ask), rule(ask // n, ask % n))
    np.testing.assert_array_equal(fresh.keys, ask)
    np.testing.assert_array_equal(fresh.free, rule(ask // n, ask % n))
    np.testing.assert_array_equal(fresh(ask[::3]), rule(ask[::3] // n, ask[::3] % n))  # all from the table now
