"""The per-target first-step cache gives exactly the answers of the plain forward search,
including its tie-breaking order (up, right, down, left), on random mazes (hypothesis)."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navmesh.errors import InvalidOptionError, NoPathError
from navmesh.grid import GridMap
from navmesh.grid.search import first_step, first_steps

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ORDER = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # (dcol, drow): up, right, down, left


def forward_bfs(walls: np.ndarray, wrap: str, s: int, t: int) -> int:
    """The chaser's search written out: BFS from s trying up, right, down, left; first step or -1."""
    h, w = walls.shape
    if s == t:
        return s
    first = {s: -1}
    queue = deque([s])
    while queue:
        u = queue.popleft()
        r, c = divmod(u, w)
        for dc, dr in ORDER:
            r2, c2 = r + dr, c + dc
            if wrap in ("y", "both"):
                r2 %= h
            if wrap in ("x", "both"):
                c2 %= w
            if not (0 <= r2 < h and 0 <= c2 < w) or walls[r2, c2]:
                continue
            v = r2 * w + c2
            if v in first:
                continue
            first[v] = v if u == s else first[u]
            if v == t:
                return first[v]
            queue.append(v)
    return -1


@st.composite
def mazes(draw):
    h = draw(st.integers(1, 12))
    w = draw(st.integers(1, 12))
    density = draw(st.sampled_from([0.0, 0.2, 0.35, 0.5]))
    walls = np.random.default_rng(draw(st.integers(0, 2**31 - 1))).random((h, w)) < density
    wrap = draw(st.sampled_from(["none", "x", "y", "both"]))
    return walls, wrap


def queries(data, walls: np.ndarray, n: int) -> tuple[list[int], list[int]]:
    free = np.flatnonzero(~walls.reshape(-1)).tolist()
    # Few distinct goals, so that goals repeat and the cache is used.
    goals_pool = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=3))
    starts = data.draw(st.lists(st.sampled_from(free), min_size=n, max_size=n))
    goals = data.draw(st.lists(st.sampled_from(goals_pool), min_size=n, max_size=n))
    return starts, goals


@SETTINGS
@given(mazes(), st.data())
def test_cached_first_steps_equal_the_forward_search(maze, data):
    walls, wrap = maze
    if walls.all():
        return
    grid = GridMap(walls, connectivity=4, wrap=wrap)
    uncached = GridMap(walls, connectivity=4, wrap=wrap)
    uncached.first_step_cache.max_bytes = 0
    starts, goals = queries(data, walls, 25)
    expected = [forward_bfs(walls, wrap, s, t) for s, t in zip(starts, goals)]
    for s, t, e in zip(starts, goals, expected):
        for g in (grid, uncached):
            if e < 0:
                with pytest.raises(NoPathError):
                    first_step(g, s, t)
            else:
                assert first_step(g, s, t) == e
    assert uncached.first_step_cache.builds == 0
    asked = [t for s, t in zip(starts, goals) if s != t]
    if len(set(asked)) < len(asked):
        assert grid.first_step_cache.builds > 0          # repeated goals were served from fields
    assert first_steps(grid, starts, goals).tolist() == expected
    assert first_steps(uncached, starts, goals).tolist() == expected
    fresh = GridMap(walls, connectivity=4, wrap=wrap)      # batch with an empty cache: grouped search
    assert first_steps(fresh, starts, goals).tolist() == expected


def test_cache_is_bounded_and_least_recently_used_goes_first():
    grid = GridMap(np.zeros((10, 10), dtype=bool), connectivity=4)
    cache = grid.first_step_cache
    cache.max_bytes = 2 * 4 * grid.n_cells                # room for two fields
    for t in (5, 5, 6, 6):                                 # the second ask builds the field
        first_step(grid, 0, t)
    assert len(cache) == 2 and cache.nbytes == 800
    first_step(grid, 0, 5)                                 # 5 becomes the most recent
    for _ in range(2):
        first_step(grid, 0, 7)
    assert 5 in cache and 7 in cache and 6 not in cache
    assert cache.nbytes <= cache.max_bytes
    cache.max_bytes = 0
    assert len(cache) == 0
    with pytest.raises(InvalidOptionError, match="max_bytes"):
        cache.max_bytes = -1
    with pytest.raises(InvalidOptionError, match="max_bytes"):
        cache.max_bytes = None  # type: ignore[assignment]


def test_batched_first_steps_use_and_agree_with_cached_fields():
    grid = GridMap.from_strings(["......", ".@@@@.", "......", ".@.@@.", "......"], connectivity=4)
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    starts = np.repeat(free, 3)
    goals = np.resize(free[::4], starts.size)
    before = first_steps(grid, starts, goals)
    for t in set(goals.tolist()):
        grid.first_step_cache.build(t)
    assert first_steps(grid, starts, goals).tolist() == before.tolist()
    assert first_steps(grid, grid.col_row(starts), grid.col_row(goals)).tolist() == before.tolist()
    expected = [forward_bfs(grid.blocked, "none", int(s), int(t)) for s, t in zip(starts, goals)]
    assert before.tolist() == expected
