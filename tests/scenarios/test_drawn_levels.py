"""Drawn levels: with ``k=None`` (the visibility graph over corner waypoints) ``find_path`` equals
the exact any-angle optimum, with and without an agent radius.

The expected lengths come from the exact rational oracle of ``tests/los_oracle.py`` (its own
segment test, a brute-force visibility graph over every wall corner, pinch points split per free
wedge, and scipy.sparse.csgraph.dijkstra). The levels: slanted walls and a rotated checkerboard,
a courtyard whose inner yard (a hole) touches the outer wall at a point, a fan of triangles, and
the platformer map bundled with arcade (``:resources:tiled_maps/map.json``) with arcade's own
trimmed hit boxes, loaded through arcade / pytiled_parser (skipped when arcade cannot load it).
"""

from __future__ import annotations

import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely import affinity

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from los_oracle import exact_shortest, oracle_for  # noqa: E402

from navmesh.errors import NavmeshWarning  # noqa: E402
from navmesh.level import Level  # noqa: E402
from navmesh.waypoints.build import build_waypoint_graph  # noqa: E402
from navmesh.waypoints.query import find_path  # noqa: E402


def _slanted() -> Level:
    walls = [affinity.rotate(shapely.box(2, 1, 3, 7), 23, origin=(2.5, 4)),
             affinity.rotate(shapely.box(5, 3, 9, 4), -37, origin=(7, 3.5)),
             shapely.Polygon([(1.1, 7.3), (4.7, 8.1), (3.4, 9.9)])]
    cells = [shapely.box(x, y, x + 1, y + 1) for x, y in [(6, 6), (7, 7), (8, 6), (6, 8)]]
    cells = [affinity.rotate(c, 31, origin=(7, 7)) for c in cells]
    return Level((0, 0, 11, 11), obstacles=walls + cells)


def _courtyard() -> Level:
    outer = [(1, 1), (9, 1), (9, 9), (1, 9)]
    yard = [(9, 5), (3, 7.5), (2.5, 2.5)]  # touches the outer wall at (9, 5)
    gate = shapely.Polygon([(4, 0.2), (5, 0.2), (4.5, 1)])  # its tip touches the wall's bottom edge
    return Level((0, 0, 10, 10), obstacles=[shapely.Polygon(outer, [yard]), gate, shapely.box(4, 4, 5, 5)])


def _fan() -> Level:
    c = np.array([5.0, 5.0])
    tris = []
    for t0, t1 in [(0.0, 0.5), (1.7, 2.2), (3.5, 3.9), (4.8, 5.6)]:
        r0, r1 = 3.0, 2.5
        tris.append(shapely.Polygon([tuple(c), tuple(c + r0 * np.array([math.cos(t0), math.sin(t0)])),
                                     tuple(c + r1 * np.array([math.cos(t1), math.sin(t1)]))]))
    return Level((0, 0, 10, 10), obstacles=tris)


LEVELS = {"slanted": _slanted, "courtyard": _courtyard, "fan": _fan}


def _check_exact(level: Level, radius: float, n_pairs: int, seed: int) -> int:
    """Compare find_path with the oracle on random walkable pairs; returns how many had a path."""
    los = level.line_of_sight(agent_radius=radius)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        navs = [build_waypoint_graph(level, k=None, corners=True, agent_radius=radius, visibility=v)
                for v in ("shapely", "kernel")]
    oracle = oracle_for(los)
    vertices = np.unique(los.edges[:, :2], axis=0)
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = level.bounds.bounds
    pts = np.column_stack([rng.uniform(x0, x1, 8 * n_pairs), rng.uniform(y0, y1, 8 * n_pairs)])
    pts = pts[los.walkable(pts)][: 2 * n_pairs]
    found = 0
    for s, g in zip(pts[::2], pts[1::2]):
        want = exact_shortest(oracle, vertices, s, g)
        for nav in navs:
            for refine in ("none", "any_angle"):
                if math.isinf(want):
                    with pytest.raises(Exception, match="no path|no waypoint"):
                        find_path(nav, s, g, refine=refine)
                    continue
                path = find_path(nav, s, g, refine=refine)
                assert path.cost == pytest.approx(want, rel=1e-9), (s.tolist(), g.tolist(), refine)
        found += math.isfinite(want)
    return found


@pytest.mark.parametrize("name", sorted(LEVELS))
@pytest.mark.parametrize("radius", [0.0, 0.2])
def test_drawn_level_paths_are_exact(name, radius):
    assert _check_exact(LEVELS[name](), radius, n_pairs=6, seed=len(name)) >= 3


def _platformer(x_max: float) -> Level:
    arcade = pytest.importorskip("arcade")
    try:
        tile_map = arcade.load_tilemap(":resources:tiled_maps/map.json", scaling=0.5)
    except Exception as exc:  # resources missing or unreadable: nothing to test against
        pytest.skip(f"arcade cannot load its platformer map: {exc}")
    hit_boxes = [shapely.Polygon(s.hit_box.get_adjusted_points()) for s in tile_map.sprite_lists["Platforms"]]
    height = tile_map.height * tile_map.tile_height * 0.5 + 200
    return Level((0, 0, x_max, height), obstacles=[h for h in hit_boxes if h.bounds[2] <= x_max])


def test_arcade_platformer_map_with_agent_radius_is_exact():
    # trimmed, non-rectangular hit boxes inflated by the unit's radius: slanted edges everywhere
    level = _platformer(900.0)
    assert len(level.obstacles) > 10
    assert _check_exact(level, 10.0, n_pairs=4, seed=3) >= 2


def test_arcade_platformer_backends_agree_on_the_whole_map():
    level = _platformer(3200.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NavmeshWarning)
        navs = [build_waypoint_graph(level, k=None, corners=True, agent_radius=10.0, visibility=v)
                for v in ("shapely", "kernel")]
    assert navs[0].graph.indices.tolist() == navs[1].graph.indices.tolist()
    assert navs[0].graph.indptr.tolist() == navs[1].graph.indptr.tolist()
