"""The kernels reshaped to compile faster keep their answers: slot matching against a brute-force
search, the walls' FIRST question (merged into the bulk kernel) against the one-pair sight test,
and the grid heap's heapify (its sift-down now written out in it) against numpy's sort."""

from __future__ import annotations

import numpy as np
import pytest

import navmesh
from navmesh._kernels.polymerge import match_slots
from navmesh.steering.walls import Walls


def _brute_match(indptr: np.ndarray, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first slot (lowest number) running the other way along each slot's edge, by brute force."""
    n = len(indices)
    owner = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    nxt = np.empty(n, np.int64)
    for p in range(len(indptr) - 1):
        for e in range(indptr[p], indptr[p + 1]):
            nxt[e] = e + 1 if e + 1 < indptr[p + 1] else indptr[p]
    twins = np.full(n, -1, np.int64)
    nbr = np.full(n, -1, np.int64)
    for e in range(n):
        for f in range(n):
            if indices[f] == indices[nxt[e]] and indices[nxt[f]] == indices[e]:
                twins[e], nbr[e] = f, owner[f]
                break
    return twins, nbr


@pytest.mark.parametrize("seed", range(40))
def test_match_slots_finds_the_first_reversed_slot_like_a_brute_force_search(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 6, int(rng.integers(0, 25)))  # empty polygons and repeated edges included
    indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    indices = rng.integers(0, 7, int(indptr[-1])).astype(np.int64)
    twins, nbr = match_slots(indptr, indices, 7)
    want_twins, want_nbr = _brute_match(indptr, indices)
    np.testing.assert_array_equal(twins, want_twins)
    np.testing.assert_array_equal(nbr, want_nbr)


def test_match_slots_on_two_squares_sharing_an_edge():
    # squares 0-1-4-3 and 1-2-5-4 (counter-clockwise) share the edge 1-4
    indptr = np.array([0, 4, 8])
    indices = np.array([0, 1, 4, 3, 1, 2, 5, 4])
    twins, nbr = match_slots(indptr, indices, 6)
    assert twins.tolist() == [-1, 7, -1, -1, -1, -1, -1, 1]
    assert nbr.tolist() == [-1, 1, -1, -1, -1, -1, -1, 0]


def test_first_in_sight_picks_the_cheapest_visible_candidate():
    level = navmesh.Level.rectangle(30, 20, obstacles=[[(10, 0), (12, 0), (12, 15), (10, 15)]])
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.5)
    walls = Walls(nav, [0.5])
    targets = np.array([[25.0, 5.0], [5.0, 10.0], [25.0, 18.0], [3.0, 3.0]])
    a = np.array([[4.0, 5.0], [25.0, 10.0], [4.0, 18.0]])
    cand = np.array([[0, 2, 1, 3], [1, 3, 0, 2], [0, 1, 2, 3]], np.int64)
    cost = np.array([[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, np.inf, np.inf]])
    pick = walls.first_in_sight(a, targets, cand, cost, 0, -1)
    # the expected picks from the one-pair test, walked in cost order
    for i in range(len(a)):
        want = -1
        for j in range(cand.shape[1]):
            if not np.isfinite(cost[i, j]):
                break
            if walls.sees(a[i], targets[cand[i, j]], 0)[0]:
                want = j
                break
        assert pick[i] == want
    # and by hand (the wall x 10..12, y 0..15, inflated by 0.5): from (4, 5) the lines to (25, 5) and
    # to (25, 18) (through y 8.7..10) hit the wall, (5, 10) is in the open; from (25, 10) only (25, 5)
    # is on the same side; from (4, 18) the line to (25, 5) passes the wall at y 13..14.3, below its top
    assert pick.tolist() == [2, 2, 1]


@pytest.mark.parametrize("seed", range(20))
def test_grid_heap_heapify_restores_the_order_after_entries_are_dropped(seed):
    # the open list of the grid searches: push, drop some entries in place (as compact does),
    # heapify, then every pop returns the least key left (numpy's sort is the independent answer)
    from numba import njit

    from navmesh._kernels import grid_heap as H

    @njit
    def run(keys, drop):
        heap = np.empty(2 * len(keys))
        size = 0
        for i in range(len(keys)):
            size = H.push(heap, size, keys[i], i)
        k = 0
        for i in range(size):
            if not drop[int(heap[2 * i + 1])]:
                heap[2 * k] = heap[2 * i]
                heap[2 * k + 1] = heap[2 * i + 1]
                k += 1
        H.heapify(heap, k)
        out = np.empty(k)
        for i in range(k):
            key, _, _ = H.pop(heap, k - i)
            out[i] = key
        return out

    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 50, int(rng.integers(1, 300))).astype(np.float64)
    drop = rng.random(len(keys)) < 0.4
    np.testing.assert_array_equal(run(keys, drop), np.sort(keys[~drop]))
