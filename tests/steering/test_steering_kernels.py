"""The steering kernels: hand cases, plain Python without the JIT, numba cache."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numpy as np
import pytest
import shapely
import shapely.affinity
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import navmesh
from navmesh.steering import Walls
from navmesh._kernels import buckets as BK
from navmesh._kernels import walls as K

ROOT = Path(__file__).resolve().parents[2]

SCENE = textwrap.dedent(
    """
    import numpy as np, navmesh
    from navmesh.steering import Crowd
    grid = navmesh.GridMap.from_strings('''
    ..........
    ..@@@@@...
    ......@...
    ..........''')
    crowd = Crowd(grid)
    ids = crowd.add([[0.5, 0.5], [0.6, 1.5], [0.5, 3.5], [1.5, 2.5]], radius=0.3, speed=3.0)
    crowd.move_to(ids, [8.5, 2.5])
    for _ in range(240):
        crowd.update(1 / 30)
    print(repr(crowd.positions.round(9).tolist()), bool(crowd.arrived.all()))
    """
)


@numba.njit(cache=False)
def _sight(ax, ay, bx, by, cls, barrier, edges, grid, cell_ptr, cell_items, ref, eps, hint):
    """The kernels' sight test (only other kernels call it): (visible, edge found crossed)."""
    buf = np.empty(1, np.int64)
    seen = K.target_visible(ax, ay, bx, by, cls, barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf, hint)
    return seen, buf[0]


@numba.njit(cache=False)
def _near_runs(x, y, cs, mask, out):
    return BK.near_runs(x, y, cs, mask, out)


def _move(walls, px, py, qx, qy):
    """The kernels' safe move of a class-0 unit from p toward q (through the bulk kernel)."""
    return tuple(walls.move([[px, py]], [[qx, qy]], 0)[0])


def _walls():
    grid = navmesh.GridMap.from_strings(
        """
        ....
        .@@.
        ...."""
    )
    return Walls(grid, [0.25])


def test_safe_move_slides_along_a_wall_and_never_enters_it():
    walls = _walls()
    # the block spans x 1..3, y 1..2; inflated by 0.25: x 0.75..3.25, y 0.75..2.25
    x, y = _move(walls, 2.0, 0.5, 2.5, 1.5)  # up and right, into the wall
    assert x == pytest.approx(2.5) and y < 0.75 and y == pytest.approx(0.75, abs=1e-6)  # slid along it
    x, y = _move(walls, 2.0, 0.5, 2.0, 1.5)  # straight into it: stays out
    assert y <= 0.75 and walls.walkable([[x, y]], 0)[0]
    x, y = _move(walls, 0.3, 0.3, 0.5, 0.5)  # free step: taken whole
    assert (x, y) == (0.5, 0.5)


def test_safe_move_runs_along_a_wall_it_stands_next_to():
    # a unit a hair (2 eps) off the inflated wall x = 0.75 steps toward a point on that wall,
    # as a unit does on a route along the wall: the step crosses no edge but ends within eps
    # of it, so the unit slides along the wall instead of standing still
    walls = _walls()
    eps = walls.arrays[-1]
    x0 = 0.75 - 2.0 * eps
    assert walls.walkable([[x0, 2.0]], 0)[0]
    x, y = _move(walls, x0, 2.0, 0.75 - 0.5 * eps, 1.8)
    assert y == pytest.approx(1.8) and x < 0.75 and x == pytest.approx(0.75, abs=1e-6)
    assert walls.walkable([[x, y]], 0)[0]
    x, y = _move(walls, x0, 2.0, 0.75, 1.8)  # target exactly on the wall
    assert y == pytest.approx(1.8) and walls.walkable([[x, y]], 0)[0]


def test_segment_tests_by_hand():
    walls = _walls()
    assert walls.visible([[0.5, 0.5]], [[3.5, 0.5]], 0).tolist() == [True]  # below the block
    assert walls.visible([[0.5, 0.5]], [[3.5, 2.5]], 0).tolist() == [False]  # through it
    assert walls.visible([[0.5, 0.5]], [[2.0, 0.75]], 0).tolist() == [True]  # ending on its side
    assert walls.walkable([[2.0, 1.5], [2.0, 0.5], [-0.1, 0.5]], 0).tolist() == [False, True, False]


def test_point_hash_holds_every_active_unit_once_and_finds_every_close_pair():
    rng = np.random.default_rng(0)
    pos = np.concatenate([rng.uniform(0, 10, (400, 2)), rng.uniform(-5000, 5000, (100, 2))])
    active = np.ones(len(pos), bool)
    active[::7] = False
    cs = 0.5
    ptr, items, mask = BK.hash_points(pos, active, cs)
    assert sorted(items.tolist()) == np.flatnonzero(active).tolist()
    assert len(ptr) == mask + 2 and mask + 1 >= 2 * len(pos)
    # brute force: every active point closer than cs to a query point lies in one of its buckets
    near = np.empty(18, np.int64)
    for q in np.concatenate([rng.uniform(-1, 11, (200, 2)), rng.uniform(-40, 40, (200, 2))]):
        found, buckets = set(), []
        for r in range(_near_runs(q[0], q[1], cs, mask, near)):
            buckets += range(near[2 * r], near[2 * r + 1] + 1)
            found.update(items[ptr[near[2 * r]] : ptr[near[2 * r + 1] + 1]].tolist())
        assert len(buckets) == len(set(buckets)) == 9  # the 3 x 3 cells, no bucket twice
        close = np.flatnonzero(active & (np.hypot(*(pos - q).T) < cs))
        assert set(close.tolist()) <= found


def test_segment_buckets_list_every_cell_a_segment_passes():
    """Against dense sampling along each segment (an independent walk)."""
    rng = np.random.default_rng(1)
    seg = rng.uniform(0, 20, (60, 4))
    grid = np.array([-0.5, -0.5, 1.7, 13.0, 13.0])
    n_cells = 13 * 13
    ptr, items = BK.bucket_segments([seg[:0], seg[:40], seg], grid)  # ids: layer 1 0..39, layer 2 40..99
    assert len(ptr) == 3 * n_cells + 1 and ptr[n_cells] == 0  # layer 0 stays empty
    assert all(np.all(np.diff(items[ptr[c] : ptr[c + 1]]) > 0) for c in range(3 * n_cells))  # id order, no repeats
    for layer, first, count in ((1, 0, 40), (2, 40, 60)):
        base = layer * n_cells
        listed_all = set()
        for e, (ax, ay, bx, by) in enumerate(seg[:count]):
            t = np.linspace(0, 1, 4001)
            x, y = ax + t * (bx - ax), ay + t * (by - ay)
            cells = set((np.floor((y + 0.5) / 1.7) * 13 + np.floor((x + 0.5) / 1.7)).astype(int).tolist())
            listed = {c - base for c in range(base, base + n_cells) if first + e in items[ptr[c] : ptr[c + 1]]}
            assert cells <= listed
            listed_all |= {first + e}
        # a segment is listed only in cells of its own layer
        assert set(items[ptr[base] : ptr[base + n_cells]].tolist()) == listed_all


def test_crowd_runs_the_same_as_plain_python_without_the_jit():
    cmd = [sys.executable, "-c", SCENE]
    jit = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert jit.returncode == 0, jit.stderr
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.strip().endswith("True")
    a = np.array(eval(jit.stdout.rsplit(" ", 1)[0]))
    b = np.array(eval(plain.stdout.rsplit(" ", 1)[0]))
    np.testing.assert_allclose(a, b, atol=1e-6)


def test_second_process_loads_the_crowd_kernel_from_the_numba_cache():
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compilation without the JIT")
    code = SCENE + (
        "from navmesh._kernels import crowd as CK\n"
        "print(sum(CK.crowd_step.stats.cache_misses.values()), sum(CK.crowd_step.stats.cache_hits.values()))\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
            for _ in range(2)]
    misses, hits = map(int, runs[1].stdout.split()[-2:])
    assert (misses, hits) == (0, 1)


@given(seed=st.integers(0, 100_000), radius=st.sampled_from([0.0, 0.3, 1.0]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_safe_moves_never_end_inside_an_obstacle_on_random_levels(seed, radius):
    """Random rotated boxes and triangles, overlapping or not; random steps from free points,
    many of them into walls: every end point is walkable by shapely (independent of the kernels)."""
    rng = np.random.default_rng(seed)
    shapes = []
    for _ in range(int(rng.integers(2, 10))):
        c = rng.uniform(2, 28, 2)
        if rng.uniform() < 0.5:
            w, h = rng.uniform(0.5, 6, 2)
            box = shapely.box(-w / 2, -h / 2, w / 2, h / 2)
            shapes.append(shapely.affinity.translate(shapely.affinity.rotate(box, rng.uniform(0, 180)), *c))
        else:
            shapes.append(shapely.Polygon(c + rng.uniform(-4, 4, (3, 2))).buffer(0))
    shapes = [s for s in shapes if s.is_valid and not s.is_empty and s.geom_type == "Polygon"]
    level = navmesh.Level.rectangle(30, 30, obstacles=shapes)
    nav = navmesh.build_waypoint_graph(level, agent_radius=radius)
    walls = Walls(nav, [radius])
    los = level.line_of_sight(agent_radius=radius)
    pts = rng.uniform(0, 30, (3000, 2))
    ours = walls.walkable(pts, 0)
    assert not (ours & ~los.walkable(pts)).any()
    start = pts[ours][:300]
    for p in start:
        x, y = p
        for step in rng.normal(0, 1.5, (10, 2)):
            x, y = _move(walls, x, y, x + step[0], y + step[1])
            assert walls.walkable([[x, y]], 0)[0]
            assert los.walkable([[x, y]])[0]


def test_sight_hint_gives_the_same_answer_and_names_a_crossed_edge():
    """A hinted sight test answers as the unhinted one whatever the hint (a crossed edge, an
    edge the line misses), and the edge it reports blocked the line (against shapely)."""
    walls = _walls()
    E, G, CP, CI, R, eps = walls.arrays
    rng = np.random.default_rng(3)
    pts = rng.uniform(-0.5, 4.5, (400, 2))
    pts = pts[walls.walkable(pts, 0)]
    inner, outer = walls.free[0].buffer(-1e-6), walls.free[0].buffer(1e-6)
    blocked = 0
    for a, b in zip(pts[::2], pts[1::2]):
        plain, found = _sight(a[0], a[1], b[0], b[1], 0, -1, E, G, CP, CI, R, eps, -1)
        # against shapely's free space of the class (lines grazing a wall left out)
        line = shapely.LineString([a, b])
        if inner.contains(line):
            assert plain, (a, b)
        elif line.difference(outer).length > 1e-6:
            assert not plain, (a, b)
        if not plain:
            blocked += 1
            assert found >= 0
            assert shapely.LineString([a, b]).intersects(shapely.LineString(E[found].reshape(2, 2)))
        for hint in {found, int(rng.integers(len(E)))} - {-1}:
            seen, found = _sight(a[0], a[1], b[0], b[1], 0, -1, E, G, CP, CI, R, eps, hint)
            assert seen == plain
            if not plain:
                assert shapely.LineString([a, b]).intersects(shapely.LineString(E[found].reshape(2, 2)))
    assert blocked > 20
