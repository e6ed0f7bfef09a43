"""The shapely backend's shortcuts keep the kernel backend's answers.

:class:`navmesh.sight_ends.EndCorners` judges a segment at the wall corners at its ends before
the grid walk, and :func:`navmesh.predicates.pairs_blocked` decides most (segment, wall edge)
pairs in floating point before the exact :func:`navmesh.predicates.edge_blocks`. Checked here on
seeded random levels with slanted walls, obstacles touching at a point, inflated obstacles
sharing corners (r > 0): the all-pairs corner graph of the shapely backend, walked or not, equals
the numba kernel backend's; ``pairs_blocked`` equals ``edge_blocks`` pair by pair, degenerate
pairs included; and EndCorners only ever says "blocked" where the kernel does.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import shapely

import navmesh.sight as sight
from navmesh._kernels import los as LK
from navmesh.predicates import edge_blocks, pairs_blocked
from navmesh.sight import LineOfSight
from navmesh.sight_ends import EndCorners
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from random_levels import random_level  # noqa: E402


def _level(seed: int):
    """Rotated boxes and triangles, two boxes touching at a point, a wall on the bounds outline."""
    return random_level(seed, 18, margin=10, spread=6, size=(2, 9), extra=[shapely.box(0, 40, 4, 52)])


def _same_graph(a, b) -> None:
    for name in ("points", "indptr", "indices", "lengths"):
        np.testing.assert_array_equal(getattr(a.graph, name), getattr(b.graph, name))


@pytest.mark.parametrize("walk", [True, False])
@pytest.mark.parametrize("radius", [0.0, 0.5])
@pytest.mark.parametrize("seed", [3, 8])
def test_all_pairs_graph_equals_the_kernels(monkeypatch, seed, radius, walk):
    level = _level(seed)
    kernel = build_waypoint_graph(level, k=None, corners=True, agent_radius=radius, visibility="kernel")
    if walk:  # small calls pair each segment with its whole box's walls; this forces the walk
        monkeypatch.setattr(sight, "_WHOLE_PAIRS", 0)
    shp = build_waypoint_graph(level, k=None, corners=True, agent_radius=radius, visibility="shapely")
    _same_graph(shp, kernel)
    n = kernel.n_nodes
    assert 3 * n < kernel.graph.n_edges < n * (n - 1) // 2  # many links, yet many pairs blocked


@pytest.mark.parametrize("radius", [0.0, 0.5])
def test_end_corners_only_block_what_the_kernel_blocks(radius):
    level = _level(5)
    los = LineOfSight(level.obstacles, shapely.box(0, 0, 100, 100), agent_radius=radius)
    corners = np.unique(los.edges[:, :2], axis=0)
    corners = corners[los.walkable(corners)]
    i, j = np.triu_indices(len(corners), 1)
    a, b = corners[i], corners[j]
    ends = EndCorners(los.edges).blocked(a, b)
    free = LK.segments_free(a, b, *wall_grid_for(los))
    assert not (ends & free).any()
    # about a quarter to a half of corner-to-corner segments leave or reach a corner through its wall
    assert 0.2 < ends.mean() < 0.7
    # the far-end test alone: segments reversed are judged the same
    np.testing.assert_array_equal(EndCorners(los.edges).blocked(b, a), ends)


def test_end_corners_equal_edge_blocks_of_the_edges_starting_at_the_ends():
    """The rule itself, brute force: blocked exactly where edge_blocks of some wall edge starting
    at an end (not at a pinch point) says so. The table also holds every corner a second time
    with the opposite wedge (two corners at one point), and the pinch points' rows."""
    los = LineOfSight(_level(9).obstacles, shapely.box(0, 0, 100, 100))
    e = los.edges
    assert e[:, 6].any()  # the touching boxes' pinch point
    p = e[:, 0:2]
    flipped = np.column_stack([p, 2 * p - e[:, 2:4], 2 * p - e[:, 4:6], e[:, 6]])
    edges = np.concatenate([e, flipped[::3]])
    rng = np.random.default_rng(4)
    a = edges[rng.integers(0, len(edges), 400), 0:2]
    b = np.concatenate([edges[rng.integers(0, len(edges), 200), 0:2], rng.uniform(0, 100, (200, 2))])
    ok = (a != b).any(axis=1)
    a, b = a[ok], b[ok]
    expect = np.zeros(len(a), dtype=bool)
    for k in range(len(a)):
        at = np.flatnonzero((((edges[:, 0:2] == a[k]) | (edges[:, 0:2] == b[k])).all(axis=1)) & (edges[:, 6] == 0))
        expect[k] = edge_blocks(np.repeat(a[k : k + 1], len(at), 0), np.repeat(b[k : k + 1], len(at), 0), edges[at]).any()
    got = EndCorners(edges).blocked(a, b)
    np.testing.assert_array_equal(got, expect)
    assert 0.2 < expect.mean() < 0.9


def test_pairs_blocked_equals_edge_blocks_pair_by_pair():
    los = LineOfSight(_level(7).obstacles, shapely.box(0, 0, 100, 100))
    e = los.edges
    rng = np.random.default_rng(1)
    m = 60_000
    ei = rng.integers(0, len(e), m)
    # ends: random points, wall corners, points on wall edges and on their lines, off-by-an-ulp points
    pool = np.concatenate([
        rng.uniform(0, 100, (2000, 2)),
        e[:, 0:2],
        e[:, 0:2] + 0.5 * (e[:, 2:4] - e[:, 0:2]),
        e[:, 0:2] + 2.0 * (e[:, 2:4] - e[:, 0:2]),
        np.nextafter(e[:, 0:2], np.inf),
    ])
    a = pool[rng.integers(0, len(pool), m)]
    b = pool[rng.integers(0, len(pool), m)]
    # a share of pairs with an end on the pair's own edge: its start, its end, its middle
    own = rng.integers(0, 4, m)
    a[own == 1] = e[ei[own == 1], 0:2]
    b[own == 2] = e[ei[own == 2], 2:4]
    a[own == 3] = 0.5 * (e[ei[own == 3], 0:2] + e[ei[own == 3], 2:4])
    ok = (a != b).any(axis=1)
    a, b, ei = a[ok], b[ok], ei[ok]
    exact = edge_blocks(a, b, e[ei])
    np.testing.assert_array_equal(pairs_blocked(a, b, e, ei), exact)
    assert 0.02 < exact.mean() < 0.9
    # ends_judged: only pairs whose edge starts at a segment end may differ, and those say "not blocked"
    judged = pairs_blocked(a, b, e, ei, ends_judged=True)
    at_end = (e[ei, 0:2] == a).all(axis=1) | (e[ei, 0:2] == b).all(axis=1)
    np.testing.assert_array_equal(judged[~at_end], exact[~at_end])
    assert not judged[at_end].any() and exact[at_end].any()
