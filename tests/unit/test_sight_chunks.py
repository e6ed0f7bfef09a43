"""The shapely line-of-sight backend in small memory: chunks, slices and the wall grid.

A tiny ``navmesh.sight.MEMORY_BUDGET`` cuts a build's segments into many chunks, each chunk's
pieces into many batches and their candidate pairs into many slices; the graph must equal the
numba kernel backend's, which has no chunks. The grid's pairs are checked against all pairs of
boxes compared directly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import shapely

import navmesh.sight as sight
from navmesh._kernels import los as LK
from navmesh.level import Level
from navmesh.sight import LineOfSight
from navmesh.sight_grid import BoxGrid
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from random_levels import random_level  # noqa: E402


def _level() -> Level:
    """The shared random level, with a wall on the bounds outline (a seam)."""
    return random_level(11, 24, margin=8, spread=5, size=(1, 7), extra=[shapely.box(0, 60, 3, 70)])


def _same_graph(a, b) -> None:
    for name in ("points", "indptr", "indices", "lengths"):
        np.testing.assert_array_equal(getattr(a.graph, name), getattr(b.graph, name))


@pytest.mark.parametrize("radius", [0.0, 0.6])
@pytest.mark.parametrize("k", [None, 8])
def test_tiny_memory_budget_gives_the_kernel_graph(monkeypatch, radius, k):
    level = _level()
    kernel = build_waypoint_graph(level, k=k, corners=True, agent_radius=radius, visibility="kernel")
    budget = 20 * sight.BYTES_PER_SEGMENT  # 20 segments per chunk, a few pairs per slice
    monkeypatch.setattr(sight, "MEMORY_BUDGET", budget)
    n = kernel.n_nodes
    assert n * (n - 1) // 2 > 10 * (budget // sight.BYTES_PER_SEGMENT)  # k=None: more than ten chunks
    assert budget // sight._BYTES_PER_PAIR < 100 and budget // sight._BYTES_PER_PIECE < 20
    small = build_waypoint_graph(level, k=k, corners=True, agent_radius=radius, visibility="shapely")
    _same_graph(small, kernel)
    assert kernel.graph.n_edges > 2 * n  # a graph with many links, not an empty one
    if radius == 0:
        assert len(small.line_of_sight.pinch_points) and len(small.line_of_sight.seams)  # gaps are judged too


def test_tiny_budget_answers_equal_the_default_and_the_kernel(monkeypatch):
    level = _level()
    los = LineOfSight(level.obstacles, shapely.box(0, 0, 100, 100))
    corners = np.unique(los.edges[:, :2], axis=0)
    i, j = np.triu_indices(len(corners), 1)
    a, b = corners[i], corners[j]
    ok = los.walkable(a) & los.walkable(b)
    a, b = a[ok], b[ok]
    default = los.blocked(a, b)
    monkeypatch.setattr(sight, "MEMORY_BUDGET", 1)  # one piece per batch, one pair per slice
    np.testing.assert_array_equal(los.blocked(a[::40], b[::40]), default[::40])
    kernel = ~LK.segments_free(np.ascontiguousarray(a), np.ascontiguousarray(b), *wall_grid_for(los))
    np.testing.assert_array_equal(default, kernel)
    assert 0.05 < default.mean() < 0.95


def test_far_segments_read_their_boxes_cells():
    """Segments whose coordinates dwarf the walls' (no bounds) do not trust the walk."""
    los = LineOfSight([shapely.box(0, 0, 1, 1), shapely.box(2, 0, 3, 1)])
    far = 1e12
    a = np.array([[-far, 0.5], [-far, 1.0], [0.5, -far], [-far, -far], [-far, 0.5]])
    b = np.array([[far, 0.5], [far, 1.0], [0.5, far], [far, far], [-1.0, 0.5]])
    kernel = ~LK.segments_free(a, b, *wall_grid_for(los))
    np.testing.assert_array_equal(los.blocked(a, b), kernel)
    assert los.blocked(a, b).tolist() == [True, False, True, True, False]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grid_pairs_are_the_overlapping_boxes(seed):
    rng = np.random.default_rng(seed)
    lo = rng.uniform(0, 100, (300, 2))
    hi = lo + rng.exponential(4, (300, 2)) * (rng.random((300, 1)) < 0.9) + rng.uniform(0, 60, (300, 2)) * (rng.random((300, 1)) < 0.05)
    grid = BoxGrid(lo, hi, 7.0)
    plo = rng.uniform(-10, 110, (400, 2))
    phi = plo + rng.exponential(5, (400, 2))
    plo[:20] = lo[:20]  # boxes sharing a side or a corner exactly
    phi[:20] = lo[:20] + 1
    pairs = [np.c_[p, w] for p, w in grid.pairs(grid.cells(plo), grid.cells(phi), plo, phi, budget=97)]
    found = np.concatenate(pairs)
    assert len(found) == len(np.unique(found, axis=0))  # each pair once
    want = np.argwhere((lo[None, :, 0] <= phi[:, None, 0]) & (plo[:, None, 0] <= hi[None, :, 0])
                       & (lo[None, :, 1] <= phi[:, None, 1]) & (plo[:, None, 1] <= hi[None, :, 1]))
    np.testing.assert_array_equal(np.unique(found, axis=0), want)
    assert len(pairs) > 5 and len(want) > 100
