"""All-pairs (``k=None``) builds hold the answer, not the pairs (issue 21).

The pair keys are made, tested and dropped ``PAIR_BLOCK`` at a time; the cache keeps only the
visible pairs, and an update asks again only the pairs whose answer a change may affect. Checked
here: tracemalloc peaks of builds of two sizes against a bound made of the block size, the visible
pairs and the waypoints (9 bytes per pair, what the old cache held, would exceed it); the graph
against every pair listed independently and judged by ``LineOfSight.blocked``; the pairs an
update tests against the pairs a change touches, listed independently with shapely.
"""

from __future__ import annotations

import sys
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from random_levels import random_level  # noqa: E402

import navmesh.waypoints.build as build_module  # noqa: E402
import navmesh.waypoints.incremental as incremental  # noqa: E402
from navmesh.errors import NavmeshWarning  # noqa: E402
from navmesh.level import Level  # noqa: E402
from navmesh.waypoints.build import build_waypoint_graph  # noqa: E402
from navmesh.waypoints.incremental import AllPairAnswers  # noqa: E402

BLOCK = 4096
GRAPH_FIELDS = ("points", "indptr", "indices", "lengths", "tags")


def _crowded(n_shapes: int) -> Level:
    """Many small obstacles: many corners, few of whose pairs see each other."""
    return random_level(5, n_shapes, margin=2, spread=1.5, size=(0.5, 2.0))


def _linked_pairs(nav) -> set[tuple[int, int]]:
    return {(u, int(v)) for u in range(nav.n_nodes) for v in nav.graph.neighbors(u) if u < v}


def _assert_same_graph(a, b) -> None:
    for name in GRAPH_FIELDS:
        np.testing.assert_array_equal(getattr(a.graph, name), getattr(b.graph, name), err_msg=name)


def test_peak_memory_follows_the_visible_pairs_not_all_pairs(monkeypatch):
    build_waypoint_graph(Level.rectangle(4, 4, waypoints=[[1, 1], [3, 3]]), k=None, visibility="kernel")  # compile
    monkeypatch.setattr(incremental, "PAIR_BLOCK", BLOCK)
    link_peak = {}
    real_link = build_module.link

    def measured_link(*args, **kwargs):
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        out = real_link(*args, **kwargs)
        link_peak["bytes"] = tracemalloc.get_traced_memory()[1] - before
        return out

    monkeypatch.setattr(build_module, "link", measured_link)
    seen = []
    for n_shapes in (150, 300):
        level = _crowded(n_shapes)
        level.line_of_sight()  # the level's own cache, outside the measurement
        tracemalloc.start()
        try:
            nav = build_waypoint_graph(level, k=None, corners=True, visibility="kernel")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        n, visible = nav.n_nodes, nav.graph.n_edges // 2
        pairs = n * (n - 1) // 2
        # the linking stage: block temporaries, the visible keys (and their parts once), per-point flags
        link_bound = 160 * BLOCK + 24 * visible + 64 * n
        assert link_peak["bytes"] <= link_bound, (n_shapes, link_peak["bytes"], link_bound)
        # the whole build: the same, plus the graph and its cached arcs (both ways) and the KD-tree
        build_bound = 160 * BLOCK + 110 * 2 * visible + 1024 * n
        assert peak <= build_bound, (n_shapes, peak, build_bound)
        seen.append((n, pairs, visible))
    (n1, pairs1, _), (n2, pairs2, visible2) = seen
    assert n2 > 1.8 * n1 and pairs2 > 3 * pairs1  # the pairs grow much faster than the points
    assert 9 * pairs2 > 160 * BLOCK + 24 * visible2 + 64 * n2  # a cache of every pair would not fit
    assert visible2 < pairs2 / 5  # a crowded level: most pairs are blocked


@pytest.mark.parametrize("max_distance", [None, 30.0])
@pytest.mark.parametrize("visibility", ["kernel", "shapely"])
def test_all_pairs_graph_is_every_visible_pair(monkeypatch, max_distance, visibility):
    pts = [[2, 2], [42, 42], [98, 3], [5, 95], [60, 61]]  # (42, 42) lies inside a box: blocked
    level = random_level(8, 14, margin=10, spread=6, size=(2, 9), waypoints=pts)
    monkeypatch.setattr(incremental, "PAIR_BLOCK", 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        nav = build_waypoint_graph(level, k=None, corners=True, max_distance=max_distance, visibility=visibility)
    p = nav.points
    los = nav.line_of_sight
    u, v = np.triu_indices(len(p), 1)
    ok = los.walkable(p[u]) & los.walkable(p[v])
    if max_distance is not None:
        ok &= np.hypot(*(p[u] - p[v]).T) <= max_distance
    u, v = u[ok], v[ok]
    seen = ~los.blocked(p[u], p[v])
    want = set(zip(u[seen].tolist(), v[seen].tolist()))
    assert _linked_pairs(nav) == want
    assert 20 < len(want) < len(u)  # some pairs see each other, some do not
    assert len(nav.blocked_waypoints) == 1


def test_all_pair_answers_test_only_unknown_pairs(monkeypatch):
    rng = np.random.default_rng(4)
    n = 40
    points = rng.uniform(0, 100, (n, 2))
    rule = lambda a, b: (a * 5 + b * 3) % 7 < 3  # noqa: E731  an answer per pair, known in closed form
    asked = []

    def test(a, b):
        asked.append(a * n + b)
        return rule(a, b)

    keys = np.array([a * n + b for a in range(n) for b in range(a + 1, n)], dtype=np.int64)
    visible = keys[~rule(keys // n, keys % n)]  # cached answers are served as they are: the opposite
    known_ends = rng.random(n) < 0.9
    zone = shapely.box(45, 45, 55, 55)
    answers = AllPairAnswers(visible, known_ends, points, zone, n, test)
    got = np.concatenate([answers(keys[s : s + 50]) for s in range(0, len(keys), 50)])
    a, b = keys // n, keys % n
    lines = shapely.linestrings(np.stack([points[a], points[b]], axis=1))
    unknown = ~(known_ends[a] & known_ends[b]) | shapely.intersects(zone, lines)
    np.testing.assert_array_equal(got, np.where(unknown, rule(a, b), ~rule(a, b)))
    np.testing.assert_array_equal(np.concatenate(asked), keys[unknown])  # each unknown key once, in order
    assert answers.tested == unknown.sum() and 0 < unknown.sum() < len(keys) / 2
    fresh = AllPairAnswers.fresh(n, rule)
    np.testing.assert_array_equal(fresh(keys), rule(a, b))
    assert fresh.tested == len(keys)


def _counting(monkeypatch) -> list[int]:
    """Count the segments the build's line-of-sight backend is asked about."""
    counts = []
    real = build_module.visible_pairs

    def counted(mode, los, walls, a, b):
        counts.append(len(a))
        return real(mode, los, walls, a, b)

    monkeypatch.setattr(build_module, "visible_pairs", counted)
    return counts


@pytest.mark.parametrize("visibility", ["kernel", "shapely"])
def test_update_tests_only_the_pairs_a_change_touches(monkeypatch, visibility):
    pts = [[2, 2], [42, 42], [98, 3], [5, 95], [60, 61]]
    level = random_level(8, 14, margin=10, spread=6, size=(2, 9), waypoints=pts)
    monkeypatch.setattr(incremental, "PAIR_BLOCK", 64)
    kw = dict(k=None, corners=True, visibility=visibility)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        nav = build_waypoint_graph(level, **kw)
        door = shapely.box(70, 20, 72, 34)
        changes = [
            level.replace(obstacles=(*level.obstacles, door), on_bad_waypoint="warn"),  # a door closes
            level.replace(waypoints=[*pts, [50, 97]], on_bad_waypoint="warn"),  # a waypoint added
            level.replace(waypoints=[*pts[:-1], [63, 60]], on_bad_waypoint="warn"),  # a waypoint moved
        ]
        for changed in changes:
            rebuilt = build_waypoint_graph(changed, **kw)
            counts = _counting(monkeypatch)
            updated = nav.update(changed)
            monkeypatch.undo()
            monkeypatch.setattr(incremental, "PAIR_BLOCK", 64)
            _assert_same_graph(updated, rebuilt)
            np.testing.assert_array_equal(updated.build_cache.los_keys, rebuilt.build_cache.los_keys)
            # independently: the open pairs of the new points with an end the old build did not
            # have open, or whose segment meets the added door
            old = {tuple(q): i for i, q in enumerate(nav.points.tolist())}
            was_open = np.array([tuple(q) in old and old[tuple(q)] not in set(nav.blocked_waypoints.tolist())
                                 for q in updated.points.tolist()])
            p, los = updated.points, updated.line_of_sight
            u, v = np.triu_indices(len(p), 1)
            keep = los.walkable(p[u]) & los.walkable(p[v])
            u, v = u[keep], v[keep]
            touched = ~(was_open[u] & was_open[v])
            if changed is changes[0]:
                touched |= shapely.intersects(door, shapely.linestrings(np.stack([p[u], p[v]], axis=1)))
            assert sum(counts) == touched.sum()
            assert 0 < touched.sum() < len(u) / 4
        # and back: the update of an update equals the first build
        again = nav.update(changes[0]).update(level)
        _assert_same_graph(again, nav)
