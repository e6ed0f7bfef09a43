"""Free space without holes (mazes): the mesh is one tree of polygons and a path is the funnel
through its one corridor; the lengths still equal the exact oracle (the k=None corner waypoint
graph), and the sliced search equals find_path.

The mazes are perfect mazes (a random spanning tree of cells carved out of a block), so their
free space has no hole; big ones are cut into tiles before triangulation, whose crossing cuts
leave vertices inside the free space that the build must remove for the tree to appear.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navmesh.errors import NodeNotFoundError, NoPathError, SearchBudgetError
from navmesh.geometry import cell_rectangles
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery


def maze(n: int, seed: int, corridor: int = 1) -> Level:
    """A perfect maze of n x n rooms (depth-first carving), walls one cell thick, corridors
    ``corridor`` cells wide."""
    rng = np.random.default_rng(seed)
    step = corridor + 1
    size = n * step + 1
    blocked = np.ones((size, size), bool)
    seen = np.zeros((n, n), bool)
    stack = [(0, 0)]
    seen[0, 0] = True
    blocked[1:1 + corridor, 1:1 + corridor] = False
    while stack:
        r, c = stack[-1]
        options = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= r + dr < n and 0 <= c + dc < n and not seen[r + dr, c + dc]]
        if not options:
            stack.pop()
            continue
        nr, nc = options[rng.integers(len(options))]
        seen[nr, nc] = True
        y0, x0 = 1 + min(r, nr) * step, 1 + min(c, nc) * step
        blocked[y0:y0 + corridor + (nr - r) * step * (nr > r) + (r - nr) * step * (nr < r),
                x0:x0 + corridor + (nc - c) * step * (nc > c) + (c - nc) * step * (nc < c)] = False
        stack.append((nr, nc))
    return Level((0, 0, size, size), obstacles=cell_rectangles(blocked))


def distinct_adjacencies(mesh) -> int:
    has = mesh.neighbours >= 0
    return len({(min(a, b), max(a, b)) for a, b in zip(mesh.polygon_of[has].tolist(), mesh.neighbours[has].tolist())})


def test_a_big_maze_meshes_to_one_tree_and_every_query_is_a_funnel():
    level = maze(30, seed=5)  # about 3,700 free-space vertices: cut into tiles
    mesh = build_navmesh(level)
    assert mesh.n_polygons > 300
    assert distinct_adjacencies(mesh) == mesh.n_polygons - 1  # connected and no cycle: a tree
    query = MeshQuery(mesh)
    rng = np.random.default_rng(1)
    for _ in range(20):
        s, g = query.random_point(rng), query.random_point(rng)
        search = query.start_search(s, g)
        assert search.finished  # answered when it starts: no search to run
        path = query.find_path(s, g)
        assert np.array_equal(search.result().points, path.points)
        assert path.expansions == len(path.nodes) or len(path.nodes) == 1
        # consecutive polygons of the path are neighbours: a real corridor
        for p, q in zip(path.nodes[:-1], path.nodes[1:]):
            assert q in mesh.neighbours[mesh.indptr[p]:mesh.indptr[p + 1]]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(0, 10**6), st.integers(1, 2), st.sampled_from([0.0, 0.3]),
       st.randoms(use_true_random=False))
def test_maze_lengths_equal_the_visibility_graph(n, seed, corridor, radius, rnd):
    level = maze(n, seed, corridor)
    mesh = build_navmesh(level, agent_radius=radius)
    query = MeshQuery(mesh)
    oracle = NavQuery(build_waypoint_graph(level, corners=True, k=None, agent_radius=radius))
    for _ in range(10):
        s = query.random_point(rnd.randrange(2**32))
        g = query.random_point(rnd.randrange(2**32))
        try:
            want = oracle.find_path(s, g, refine="none", strict=True)
        except (NoPathError, NodeNotFoundError):
            continue
        got = query.find_path(s, g)
        assert got.cost == pytest.approx(want.cost, rel=1e-6, abs=1e-9), (s.tolist(), g.tolist())
        assert np.allclose(got.points[[0, -1]], [s, g])


def test_budget_smaller_than_the_corridor_falls_back_to_the_search():
    query = MeshQuery(build_navmesh(maze(8, seed=2)))
    s, g = (1.5, 1.5), (15.5, 15.5)
    full = query.find_path(s, g)
    assert len(full.nodes) >= 8
    with pytest.raises(SearchBudgetError, match="max_expansions=2"):
        query.find_path(s, g, max_expansions=2)
    assert query.find_path(s, g, max_expansions=full.expansions).cost == full.cost


def test_portal_seen_edge_on_from_the_apex():
    # five polygons of the maze512-1-0 mesh (shifted by (-100, -220)): a corridor row B with two
    # openings above, the right one A, the left one a chain C-D-E. From A the funnel's apex is
    # (11, 4), and it sees the portal B-C from (10, 4) to (9, 4) edge-on along y = 4: the path
    # must pass the nearer end (10, 4) and go diagonally through (9, 5); a funnel that turned at
    # the far end came out 2 - sqrt(2) too long
    polys = [[(12, 7), (11, 7), (11, 6), (11, 4), (12, 4), (12, 5), (12, 6)],
             [(8.5, 4), (5, 4), (5, 3), (6, 3), (8.5, 3), (12, 3), (12, 4), (11, 4), (10, 4), (9, 4)],
             [(10, 4), (9, 5), (9, 4)],
             [(10, 4), (10, 6), (8.5, 6), (9, 5)],
             [(8.5, 6), (8, 6), (7, 5), (8.5, 5), (9, 5)]]
    points = sorted({p for poly in polys for p in poly})
    ids = {p: k for k, p in enumerate(points)}
    mesh = PolyMesh.from_polygons(points, np.cumsum([0] + [len(p) for p in polys]), [ids[p] for poly in polys for p in poly])
    query = MeshQuery(mesh)
    union = shapely.union_all([shapely.Polygon(p) for p in polys])
    level = Level((5, 3, 12, 7), obstacles=list(shapely.get_parts(shapely.difference(shapely.box(5, 3, 12, 7), union))))
    oracle = NavQuery(build_waypoint_graph(level, corners=True, k=None))
    s, g = (11.5, 6.5), (8.0, 5.5)
    want = oracle.find_path(s, g, refine="none").cost
    # via (11, 4), (10, 4), (9, 5)
    assert want == pytest.approx(np.hypot(0.5, 2.5) + 1 + np.sqrt(2) + np.hypot(1, 0.5), rel=1e-12)
    got = query.find_path(s, g)
    assert query.start_search(s, g).finished  # the funnel answered
    assert got.cost == pytest.approx(want, rel=1e-12)
    assert got.points.tolist() == [list(s), [11, 4], [10, 4], [9, 5], list(g)]
