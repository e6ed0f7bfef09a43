"""The fast paths of the mesh build and query: the one-call Polyanya kernel (intermediate pruning,
a growing workspace, the observable part of an edge), the T-junction finder, the .mesh reader's
version differences."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from navmesh._kernels.polymerge import edge_points
from navmesh.io.mesh_file import load_mesh
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.terrain import TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

P = shapely.Polygon


def test_an_edge_leaving_the_interval_end_outward_is_not_seen_straight():
    # Found by the oracle property: the straight line from the start misses the box's corner
    # (4, 17) by a hair, so the way round the far side via (1, 14) is shorter. An edge starting
    # at the interval's right end and running right of the ray was once taken as observable,
    # giving a node an f below its real length.
    level = Level(shapely.box(0, 0, 20, 20),
                  obstacles=[P([(12, 5), (12, 6), (11, 6), (11, 5)]), P([(13, 6), (13, 7), (12, 7), (12, 6)]),
                             P([(2, 9), (4.25, 9.5), (2.7, 13)]),
                             P([(1, 14), (1, 17), (4, 17), (4, 14)], [[(3, 16), (2, 16), (2, 15), (3, 15)]])],
                  terrain=[TerrainRegion(P([(-1, 9), (4.5, 8), (3, 13.3)]), "mud")])
    s, g = (0.062439575933444735, 17.235306127295093), (12.515132440432632, 7.456933415437268)
    path = MeshQuery(build_navmesh(level)).find_path(s, g)
    by_hand = math.dist(s, (1, 14)) + math.dist((1, 14), g)
    assert path.cost == pytest.approx(by_hand, rel=1e-12)
    assert path.points.tolist() == [list(s), [1.0, 14.0], list(g)]


def _slalom() -> Level:
    # staggered walls: every path winds through many polygons and turns at many corners
    walls = [[(x, 0 if i % 2 else 2), (x + 1, 0 if i % 2 else 2), (x + 1, 18 if i % 2 else 20), (x, 18 if i % 2 else 20)]
             for i, x in enumerate(range(2, 40, 3))]
    return Level.rectangle(42, 20, obstacles=walls)


def test_a_tiny_workspace_grows_and_gives_the_same_paths():
    level = _slalom()
    mesh = build_navmesh(level)
    roomy = MeshQuery(mesh)
    cramped = MeshQuery(mesh)
    cramped._grow(2)  # far fewer nodes than one search needs: the kernel asks for more space
    oracle = NavQuery(build_waypoint_graph(level, corners=True, k=None))
    for s, g in [((1, 1), (41, 19)), ((1, 19), (41, 1)), ((22, 10), (1, 1))]:
        want = oracle.find_path(s, g, refine="none").cost
        a, b = roomy.find_path(s, g), cramped.find_path(s, g)
        assert a.cost == pytest.approx(want, rel=1e-9)
        assert np.array_equal(a.points, b.points) and np.array_equal(a.nodes, b.nodes)
    assert cramped._capacity > 2


def test_paths_do_not_share_memory_with_the_workspace():
    query = MeshQuery(build_navmesh(_slalom()))
    first = query.find_path((1, 1), (41, 19))
    kept = first.points.copy()
    query.find_path((1, 19), (22, 10))
    assert np.array_equal(first.points, kept)


def test_edge_points_match_a_brute_force_search():
    rng = np.random.default_rng(3)
    grid = rng.integers(0, 6, size=(60, 2)).astype(float)  # lattice points: many lie on segments
    xy = np.unique(grid, axis=0)
    a = rng.integers(0, len(xy), 40)
    b = rng.integers(0, len(xy), 40)
    keep = a != b
    a, b = a[keep], b[keep]
    verts = np.arange(len(xy))
    v, e, t = edge_points(xy, a, b, verts, 1e-9)
    got = sorted(zip(v.tolist(), e.tolist()))
    want = []
    for j in range(len(a)):
        p, q = xy[a[j]], xy[b[j]]
        for i in verts:
            if i in (a[j], b[j]):
                continue
            d = q - p
            tt = float(np.dot(xy[i] - p, d) / np.dot(d, d))
            cross = d[0] * (xy[i, 1] - p[1]) - d[1] * (xy[i, 0] - p[0])
            if 0 < tt < 1 and cross == 0:
                want.append((int(i), j))
    assert got == sorted(want) and len(want) > 5
    assert np.allclose(xy[a[e]] + t[:, None] * (xy[b[e]] - xy[a[e]]), xy[v])


def test_version_3_drops_untraversable_faces_and_their_negative_links(tmp_path):
    # three unit squares in a row; the middle face is not traversable, the first links to it
    # with a negative (not crossable) id, the last with a positive one
    target = tmp_path / "row.mesh"
    target.write_text(
        "mesh\n3\n8 3\n0 0\n1 0\n2 0\n3 0\n3 1\n2 1\n1 1\n0 1\n"
        "1 4 1 2 7 8 0 0 -2 0\n"
        "0 4 2 3 6 7 0 0 3 1\n"
        "1 4 3 4 5 6 0 0 0 2\n")
    mesh = load_mesh(target)
    assert mesh.n_polygons == 2
    assert mesh.neighbours.tolist() == [-1] * 8
    assert sorted(mesh.polygon_points(1).min(axis=0).tolist()) == [0.0, 2.0]


@pytest.mark.parametrize("bad", [(10**400, 1), (float("nan"), 1), (1, float("inf")), (1e16, 1.0), ("1", 2)])
def test_plain_pairs_and_their_bad_cousins(bad):
    from navmesh.errors import InvalidGeometryError

    query = MeshQuery(build_navmesh(Level.rectangle(10, 10)))
    assert query.find_path((1, 2), [3.0, np.float64(4)]).points.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(InvalidGeometryError, match="start="):
        query.find_path(bad, (5, 5))
