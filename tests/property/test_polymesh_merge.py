"""Mesh quality of build_navmesh: the merge into convex polygons, the straight-wall vertices it
drops and the tile seams it re-meshes, checked against independent answers.

- every polygon is convex and counter-clockwise (corners of 180 degrees allowed), and the
  polygons cover exactly the free space (shapely's area);
- the merge is maximal: no two adjacent polygons of one terrain class could be one convex
  polygon (shapely: the union equals its convex hull), the Hertel-Mehlhorn property (on
  integer grid levels, where no corner is a rounding);
- no polygon shares two edges with one neighbour, and no vertex is left on a straight wall
  run (an exactly collinear wall vertex) where the free space has no ring vertex;
- the live core (:func:`navmesh._kernels.polymerge.live_core`) equals networkx's 2-core of the
  polygon adjacency graph;
- paths equal the exact k=None corner waypoint graph on grid levels big enough to be cut into
  tiles (the re-meshed seams must not change a length).
"""

from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navmesh._kernels.polymerge import live_core
from navmesh.geometry import cell_rectangles
from navmesh.level import Level
from navmesh.polymesh.build import TILE_VERTICES, build_navmesh, drop_collinear, free_space
from navmesh.polymesh.mesh import PolyMesh
from navmesh.polymesh.query import MeshQuery
from navmesh.terrain import TerrainRegion
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mesh_oracle import check_against_visibility_graph  # noqa: E402


@st.composite
def grid_levels(draw):
    """Random blocked cells (straight wall runs with a vertex where cells meet, pinches where
    cells touch diagonally), sometimes a terrain region and a radius."""
    side = draw(st.sampled_from([12, 24, 40]))
    seed = draw(st.integers(0, 2**31))
    density = draw(st.sampled_from([0.1, 0.2, 0.3]))
    blocked = np.random.default_rng(seed).random((side, side)) < density
    terrain = []
    if draw(st.booleans()):
        cx, cy = draw(st.floats(3, side - 3)), draw(st.floats(3, side - 3))
        terrain.append(TerrainRegion(shapely.Polygon([(cx - 3, cy - 1), (cx + 2.5, cy - 2), (cx + 1, cy + 3.3)]), "mud"))
    radius = draw(st.sampled_from([0.0, 0.0, 0.0, 0.3]))
    return Level((0, 0, side, side), obstacles=cell_rectangles(blocked), terrain=terrain), radius


def _cross(o, a, b):
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def _check_convex_cover(mesh: PolyMesh, free: shapely.Geometry) -> None:
    for p in range(mesh.n_polygons):
        pts = mesh.polygon_points(p)
        turn = _cross(np.roll(pts, 1, axis=0), pts, np.roll(pts, -1, axis=0))
        scale = np.abs(pts).max() ** 2
        assert np.all(turn >= -1e-12 * scale), (p, pts.tolist())
    assert mesh.areas().sum() == pytest.approx(free.area, rel=1e-9)
    union = shapely.union_all(mesh.to_shapely())
    assert shapely.symmetric_difference(union, free).area <= 1e-9 * free.area


def _check_maximal(mesh: PolyMesh) -> None:
    shapes = mesh.to_shapely()
    cls = mesh.tags.astype(np.int64) if mesh.body_tags is None else mesh.tags * 2**40 + mesh.body_tags
    own, nbr = mesh.polygon_of.astype(np.int64), mesh.neighbours.astype(np.int64)
    for e in np.flatnonzero((nbr > own) & (cls[own] == cls[np.maximum(nbr, 0)])):
        u = shapely.union(shapes[own[e]], shapes[nbr[e]])
        hull = shapely.convex_hull(u)
        assert hull.area - u.area > 1e-12 * hull.area, (int(own[e]), int(nbr[e]))


def _check_no_seams(mesh: PolyMesh, free: shapely.Geometry) -> None:
    own, nbr = mesh.polygon_of.astype(np.int64), mesh.neighbours.astype(np.int64)
    pairs = list(zip(own[nbr >= 0].tolist(), nbr[nbr >= 0].tolist()))
    assert len(pairs) == len(set(pairs)), "two polygons share more than one edge"
    corners = shapely.get_coordinates(drop_collinear(free))
    known = set(map(tuple, corners.tolist()))
    nxt = np.arange(1, len(mesh.indices) + 1)
    nxt[mesh.indptr[1:] - 1] = mesh.indptr[:-1]
    prv = np.empty_like(nxt)
    prv[nxt] = np.arange(len(nxt))
    xy, idx = mesh.vertices, mesh.indices
    for e in np.flatnonzero((nbr < 0) & (nbr[prv] < 0)):  # a polygon corner between two wall edges
        a, v, b = xy[idx[prv[e]]], xy[idx[e]], xy[idx[nxt[e]]]
        if _cross(a, v, b) == 0 and np.dot(v - a, b - v) > 0:
            assert tuple(v.tolist()) in known, v.tolist()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_levels())
def test_the_mesh_is_a_maximal_convex_cover_without_seam_vertices(case):
    level, r = case
    mesh = build_navmesh(level, agent_radius=r)
    free = free_space(level, agent_radius=r)
    _check_convex_cover(mesh, free)
    # integer corners only: the merge's exact corner test and shapely's areas then agree (a
    # rounded terrain crossing or radius corner may turn by a hair either way)
    if not level.terrain and r == 0:  # terrain outlines and round corners make vertices of their own
        _check_maximal(mesh)
        _check_no_seams(mesh, free)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_levels())
def test_live_core_is_networkx_two_core(case):
    level, r = case
    mesh = build_navmesh(level, agent_radius=r)
    graph = nx.Graph()
    graph.add_nodes_from(range(mesh.n_polygons))
    has = mesh.neighbours >= 0
    graph.add_edges_from(zip(mesh.polygon_of[has].tolist(), mesh.neighbours[has].tolist()))
    want = np.zeros(mesh.n_polygons, bool)
    want[list(nx.k_core(graph, 2).nodes)] = True
    got = live_core(mesh.indptr.astype(np.int64), mesh.twins.astype(np.int64), mesh.polygon_of.astype(np.int64))
    assert got.tolist() == want.tolist()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid_levels(), st.randoms(use_true_random=False))
def test_paths_on_tiled_grid_levels_equal_the_visibility_graph(case, rnd):
    level, r = case
    mesh = build_navmesh(level, agent_radius=r)
    query = MeshQuery(mesh)
    oracle = NavQuery(build_waypoint_graph(level, corners=True, k=None, agent_radius=r))
    for _ in range(10):
        s = query.random_point(rnd.randrange(2**32))
        g = query.random_point(rnd.randrange(2**32))
        check_against_visibility_graph(query, oracle, s, g)


def test_a_40_cell_grid_level_is_cut_into_tiles():
    """The seam checks above see tiles: a 40 x 40 grid at 30% blocked has more free-space
    vertices than one tile takes."""
    blocked = np.random.default_rng(5).random((40, 40)) < 0.3
    free = free_space(Level((0, 0, 40, 40), obstacles=cell_rectangles(blocked)))
    assert shapely.get_num_coordinates(free) > TILE_VERTICES


def test_drop_collinear_keeps_corners_and_touches():
    # a hole touching the outline at (2, 0), a point inside its straight bottom run: it stays
    shell = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (4, 4), (0, 4), (0, 2)]
    hole = [(2, 0), (3, 1), (1, 1)]
    got = drop_collinear(shapely.Polygon(shell, [hole]))
    assert got.is_valid and got.area == pytest.approx(shapely.Polygon(shell, [hole]).area)
    assert [tuple(c) for c in got.exterior.coords] == [(0, 0), (2, 0), (4, 0), (4, 4), (0, 4), (0, 0)]
    assert len(got.interiors) == 1 and len(got.interiors[0].coords) == 4
    # a turn by a hair is a corner: kept
    bent = shapely.Polygon([(0, 0), (1, 1e-12), (2, 0), (2, 2), (0, 2)])
    assert shapely.get_num_coordinates(drop_collinear(bent)) == 6
