"""Polyanya on built meshes equals an independent exact oracle: the k=None corner waypoint graph.

The visibility graph of the corners (``build_waypoint_graph(level, corners=True, k=None)``) has
the true Euclidean shortest paths; the mesh must give the same lengths (relative 1e-6) on random
levels with touching obstacles, pinches, holes, slanted walls and agent radii, and its paths must
stay out of the inflated obstacles.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navmesh.level import Level
from navmesh.terrain import TerrainRegion
from navmesh.polymesh.build import build_navmesh, free_space
from navmesh.polymesh.query import MeshQuery
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.query import NavQuery

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mesh_oracle import check_against_visibility_graph  # noqa: E402


@st.composite
def levels(draw):
    size = 20.0
    obstacles = []
    n = draw(st.integers(1, 6))
    for _ in range(n):
        kind = draw(st.sampled_from(["box", "tri", "ring", "touch"]))
        x = draw(st.integers(1, 16))
        y = draw(st.integers(1, 16))
        w = draw(st.integers(1, 4))
        h = draw(st.integers(1, 4))
        if kind == "box":
            obstacles.append(shapely.box(x, y, min(x + w, 19), min(y + h, 19)))
        elif kind == "tri":  # slanted walls
            dx = draw(st.floats(0.3, 3.0))
            obstacles.append(shapely.Polygon([(x, y), (min(x + w + dx, 19.5), y + 0.5), (x + 0.7, min(y + h, 19))]))
        elif kind == "ring":  # an obstacle with a hole
            outer = shapely.box(x, y, min(x + 3, 19), min(y + 3, 19))
            obstacles.append(outer.difference(shapely.box(x + 1, y + 1, x + 2, y + 2)))
        else:  # two boxes touching at a corner: a pinch
            obstacles.append(shapely.box(x, y, x + 1, y + 1))
            obstacles.append(shapely.box(x + 1, y + 1, min(x + 2, 19.5), min(y + 2, 19.5)))
    obstacles = [o for o in obstacles if o.is_valid and o.area > 0]
    radius = draw(st.sampled_from([0.0, 0.0, 0.25, 0.6]))
    # terrain regions split the mesh along their outlines; with uniform costs the paths must not change
    terrain = []
    for i in range(draw(st.integers(0, 2))):
        cx, cy = draw(st.floats(2, 18)), draw(st.floats(2, 18))
        terrain.append(TerrainRegion(shapely.Polygon([(cx - 3, cy - 1), (cx + 2.5, cy - 2), (cx + 1, cy + 3.3)]),
                                     ["mud", "sand"][i]))
    return Level((0, 0, size, size), obstacles=obstacles, terrain=terrain), radius


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels(), st.randoms(use_true_random=False))
def test_polyanya_lengths_equal_the_visibility_graph(case, rnd):
    level, r = case
    mesh = build_navmesh(level, agent_radius=r)
    free = free_space(level, agent_radius=r)
    assert abs(mesh.areas().sum() - free.area) <= 1e-9 * max(free.area, 1)
    # every polygon lies in one terrain class: its centre's tag is its tag
    layer = level.terrain_layer()
    centres = np.array([mesh.polygon_points(p).mean(axis=0) for p in range(mesh.n_polygons)])
    if len(centres):
        assert [mesh.tag_names[t] for t in mesh.tags] == [t or "" for t in layer.tag_at(centres).tolist()]
    query = MeshQuery(mesh)
    nav = build_waypoint_graph(level, corners=True, k=None, agent_radius=r)
    oracle = NavQuery(nav)
    for _ in range(12):
        s = query.random_point(rnd.randrange(2**32))
        g = query.random_point(rnd.randrange(2**32))
        got = check_against_visibility_graph(query, oracle, s, g)
        if got is None:
            continue
        assert np.allclose(got.points[[0, -1]], [s, g])
        # the path stays in the free space (up to rounding at walls and corners)
        line = shapely.LineString(got.points) if len(got.points) > 1 and got.cost > 0 else None
        if line is not None:
            assert shapely.difference(line, free.buffer(1e-7)).length <= 1e-9
