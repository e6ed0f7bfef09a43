"""Polyanya on staircase walls (grid maps taken as polygons) equals the exact oracle, endpoints in
the small dead-end triangles along the stairs included.

Staircase walls leave big live polygons with many edges to walls and to small dead-end notch
triangles; an expansion in a live polygon steps over those edges (the mesh's skip section),
except in a live polygon next to a dead-end branch that this search may enter (a start or a goal
inside it). These levels put endpoints in every kind of polygon, so both ways are taken; the
oracle is the k=None corner waypoint graph, as in :mod:`test_polymesh_oracle`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import shapely

from navmesh._kernels import polyanya as PK
from navmesh.level import Level
from navmesh.polymesh.build import build_navmesh
from navmesh.polymesh.query import MeshQuery
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mesh_oracle import check_against_visibility_graph  # noqa: E402


def staircase_level(seed: int, size: int = 16) -> Level:
    """Blocked grid cells: two diagonal staircase bands (one each way) and a few random cells."""
    rng = np.random.default_rng(seed)
    blocked = np.zeros((size, size), bool)
    shift = int(rng.integers(-3, 4))
    for i in range(2, size - 2):
        j = i + shift
        if 0 <= j < size and rng.random() < 0.9:  # a gap now and then
            blocked[i, j] = True
        k = size - 1 - i - shift // 2
        if 0 <= k < size and rng.random() < 0.9:
            blocked[i, k] = True
    blocked |= rng.random((size, size)) < 0.06
    cells = [shapely.box(x, y, x + 1, y + 1) for y, x in zip(*np.nonzero(blocked))]
    return Level((0, 0, size, size), obstacles=[shapely.union_all(cells)] if cells else [])


def _sections(query: MeshQuery) -> dict[str, np.ndarray]:
    mi = query._mi
    names = {"indptr": PK.M_INDPTR, "nbr": PK.M_NBR, "open": PK.M_OPEN, "dead": PK.M_DEAD, "skip": PK.M_SKIP}
    return {name: mi[mi[k]:mi[k + 1]] for name, k in names.items()}


@pytest.mark.parametrize("seed", range(6))
def test_the_skip_section_is_each_slots_next_edge_to_a_live_polygon(seed):
    query = MeshQuery(build_navmesh(staircase_level(seed)))
    sec = _sections(query)
    indptr, nbr, dead, skip = sec["indptr"], sec["nbr"], sec["dead"], sec["skip"]
    assert dead.any() and not dead.all()  # both kinds of polygon are there
    for p in range(len(indptr) - 1):
        lo, hi = int(indptr[p]), int(indptr[p + 1])
        for e in range(lo, hi):
            want = -1
            for k in range(1, hi - lo + 1):  # brute force: walk round the polygon from the slot after e
                f = lo + (e - lo + k) % (hi - lo)
                if nbr[f] >= 0 and sec["open"][nbr[f]] and not dead[nbr[f]]:
                    want = f
                    break
            assert skip[e] == want, (p, e)


@pytest.mark.parametrize("seed", range(6))
def test_staircase_paths_equal_the_visibility_graph(seed):
    level = staircase_level(seed)
    mesh = build_navmesh(level)
    query = MeshQuery(mesh)
    oracle = NavQuery(build_waypoint_graph(level, corners=True, k=None))
    dead = _sections(query)["dead"]
    # endpoints: the centre of every dead-end polygon, of every live polygon and a vertex-near point
    centres = np.array([mesh.polygon_points(p).mean(axis=0) for p in range(mesh.n_polygons)])
    rng = np.random.default_rng(seed)
    dead_ids = np.flatnonzero(dead)
    live_ids = np.flatnonzero(dead == 0)
    pairs = [(centres[rng.choice(dead_ids)], centres[rng.choice(a)]) for a in (dead_ids, live_ids) for _ in range(15)]
    pairs += [(centres[rng.choice(live_ids)], centres[rng.choice(live_ids)]) for _ in range(10)]
    compared = 0
    for s, g in pairs:
        for a, b in ((s, g), (g, s)):
            compared += check_against_visibility_graph(query, oracle, a, b) is not None
    assert compared >= 20


def test_a_ray_grazing_a_corner_still_turns_at_the_next_corner():
    # found by a staircase level: the path from s grazes corner (7, 9) on its way to corner
    # (3, 10), which the ray through (7, 9) meets with an orientation of -1.8e-15 instead of 0; the
    # interval's end then lay a hair off (3, 10) and the search could not turn there (9.3007, the
    # way back 8.8155): an end within T_SNAP of a vertex is the vertex
    level = staircase_level(4)
    query = MeshQuery(build_navmesh(level))
    oracle = NavQuery(build_waypoint_graph(level, corners=True, k=None))
    s, g = (9.666666666666666, 8.333333333333334), (2.0, 11.666666666666666)
    want = oracle.find_path(s, g, refine="none", strict=True).cost
    assert want == pytest.approx(8.815493340977866, rel=1e-12)
    assert query.find_path(s, g).cost == pytest.approx(want, rel=1e-9)
    assert query.find_path(g, s).cost == pytest.approx(want, rel=1e-9)
