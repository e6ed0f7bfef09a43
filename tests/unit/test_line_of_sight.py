"""The line-of-sight rule on drawn levels (issue 14): one regression test per example of the issue,
exact orientation tests, and the pinch-point wedges. Answers are hand-computed or come from the
exact rational oracle of ``tests/los_oracle.py``; both backends are asked every time."""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import shapely

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from los_oracle import exact_shortest, oracle_for  # noqa: E402

from navmesh._kernels import los as LK  # noqa: E402
from navmesh.errors import NodeNotFoundError, NoPathError  # noqa: E402
from navmesh.predicates import orient  # noqa: E402
from navmesh.sight import LineOfSight  # noqa: E402
from navmesh.level import Level  # noqa: E402
from navmesh.waypoints.build import build_waypoint_graph  # noqa: E402
from navmesh.waypoints.linking import wall_grid_for  # noqa: E402
from navmesh.waypoints.placement import corner_waypoints  # noqa: E402
from navmesh.waypoints.query import find_path  # noqa: E402

TRIANGLE = shapely.Polygon([(1.1, 2.3), (7.7, 3.1), (4.4, 9.9)])
CHECKERBOARD = Level((-1, -1, 3, 3), obstacles=[shapely.box(0, 0, 1, 1), shapely.box(1, 1, 2, 2)])


def both_free(los: LineOfSight, a, b) -> list[bool]:
    """Visibility from both backends, which must agree."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    shapely_free = ~los.blocked(a, b)
    kernel_free = LK.segments_free(a, b, *wall_grid_for(los))
    np.testing.assert_array_equal(shapely_free, kernel_free)
    return shapely_free.tolist()


# -- exact orientation ----------------------------------------------------------------------------
def test_orient_is_exact_where_floating_point_is_not():
    rng = np.random.default_rng(1)
    a = rng.uniform(-10, 10, (2000, 2))
    b = rng.uniform(-10, 10, (2000, 2))
    t = rng.uniform(-1, 2, (2000, 1))
    c = a + t * (b - a)  # on the line up to one rounding: the hard cases
    want = []
    for p, q, r in zip(a, b, c):
        det = (Fraction(p[0]) - Fraction(r[0])) * (Fraction(q[1]) - Fraction(r[1])) - \
              (Fraction(p[1]) - Fraction(r[1])) * (Fraction(q[0]) - Fraction(r[0]))
        want.append((det > 0) - (det < 0))
    assert orient(a, b, c).tolist() == want
    kernel = [LK.orient(*p, *q, *r) for p, q, r in zip(a, b, c)]
    assert kernel == want
    naive = np.sign((a[:, 0] - c[:, 0]) * (b[:, 1] - c[:, 1]) - (a[:, 1] - c[:, 1]) * (b[:, 0] - c[:, 0]))
    assert (naive != want).any()  # the inputs are hard enough to fool plain floating point


# -- slanted edges ---------------------------------------------------------------------------------
def test_segment_along_a_slanted_edge_is_visible():
    assert both_free(LineOfSight([TRIANGLE]), [(1.1, 2.3)], [(7.7, 3.1)]) == [True]


def test_every_edge_of_random_triangles_is_visible():
    rng = np.random.default_rng(14)
    tris = [shapely.Polygon(rng.uniform(0, 100, (3, 2))) for _ in range(300)]
    tris = [t for t in tris if t.area > 1]
    for tri in tris:
        c = shapely.get_coordinates(tri)
        los = LineOfSight([tri], shapely.box(-1, -1, 101, 101))
        assert all(both_free(los, c[:-1], c[1:]))
        # and a segment just inside the triangle from one vertex to the next edge's midpoint is not
        mid = (c[1] + c[2]) / 2
        inside = mid + 1e-6 * ((c[0] + c[1] + c[2]) / 3 - mid)
        assert both_free(los, [c[0]], [inside]) == [False]


@pytest.mark.parametrize("visibility", ["shapely", "kernel"])
@pytest.mark.parametrize("refine", ["none", "any_angle"])
def test_path_along_a_slanted_edge(visibility, refine):
    nav = build_waypoint_graph(Level((0, 0, 10, 12), obstacles=[TRIANGLE]), k=None, corners=True, visibility=visibility)
    path = find_path(nav, (1.1, 2.3), (7.7, 3.1), refine=refine)
    assert path.cost == pytest.approx(math.hypot(6.6, 0.8))  # 6.65, not 15.84 round the far corner


def test_inflated_hit_box_corners_see_each_other_along_slanted_edges():
    # arcade's default hit boxes are trimmed, non-rectangular polygons (an octagon here)
    hit_box = shapely.Polygon([(-20, -12), (-12, -20), (12, -20), (20, -12), (20, 12), (12, 20), (-12, 20), (-20, 12)])
    level = Level((-100, -100, 100, 100), obstacles=[hit_box])
    los = level.line_of_sight(agent_radius=10)
    corners = corner_waypoints(level, agent_radius=10)
    ring = shapely.get_coordinates(los.inflated[0])[:-1]
    on_ring = np.array([[np.all(c == r) for r in ring] for c in corners]).any(axis=1)
    assert on_ring.all()
    # consecutive corners of the inflated outline are joined by a wall edge: all visible
    assert all(both_free(los, ring, np.roll(ring, -1, axis=0)))
    nav = build_waypoint_graph(level, k=None, corners=True, agent_radius=10)
    edges = {tuple(sorted(map(tuple, (nav.points[u], nav.points[v]))))
             for u in range(nav.n_nodes) for v in nav.graph.neighbors(u)}
    for p, q in zip(ring, np.roll(ring, -1, axis=0)):
        assert tuple(sorted((tuple(p), tuple(q)))) in edges


# -- pinch points --------------------------------------------------------------------------------
def test_checkerboard_pinch_blocks_a_segment_missing_it_by_a_rounding_error():
    los = CHECKERBOARD.line_of_sight()
    # (0.2, 1.8)-(1.8, 0.2) in floats passes 4e-17 beside (1, 1), through the corner of the upper box
    a = [(0.2, 1.8), (0, 2), (0, 2), (2, 0), (0, 1), (1, -1)]
    b = [(1.8, 0.2), (2, 0), (1, 1), (1, 1), (2, 1), (1, 3)]
    assert both_free(los, a, b) == [False, False, True, True, False, False]


@pytest.mark.parametrize("visibility", ["shapely", "kernel"])
@pytest.mark.parametrize("refine", ["none", "any_angle"])
def test_no_path_turns_through_the_checkerboard_pinch(visibility, refine):
    nav = build_waypoint_graph(CHECKERBOARD, k=None, corners=True, visibility=visibility)
    path = find_path(nav, (0.2, 1.8), (1.8, 0.2), refine=refine)
    around = 2 * math.hypot(0.2, 0.8) + 2  # round one square: 3.649, not the straight 2.26
    assert path.cost == pytest.approx(around)
    assert not (path.points == [1.0, 1.0]).all(axis=1).any()


def test_pinch_wedges_of_a_triangle_fan():
    # three triangles meeting at the origin: three free wedges, one of them wider than a half-turn
    fan = [shapely.Polygon([(0, 0), (2, 0), (2, 1)]), shapely.Polygon([(0, 0), (0, 2), (-1, 2)]),
           shapely.Polygon([(0, 0), (-2, -1), (-1, -2)])]
    los = LineOfSight(fan, shapely.box(-5, -5, 5, 5))
    assert los.pinch_points.tolist() == [[0.0, 0.0]]
    assert los.pinch_wedges[0].tolist() == [[2, 1, 0, 2], [-1, 2, -2, -1], [-1, -2, 2, 0]]
    assert los.pinch_wide.tolist() == [-1]
    sharp = [shapely.Polygon([(0, 0), (2, 0), (2, 0.5)]), shapely.Polygon([(0, 0), (-2, 0.5), (-2, 1)])]
    los = LineOfSight(sharp, shapely.box(-5, -5, 5, 5))
    assert los.pinch_wide.tolist() == [1]  # the lower wedge, from (-2, 0.5) round to (2, 0)
    # a segment may end at the pinch point only from inside its wide wedge; never pass through it
    assert both_free(los, [(0, -3), (0, 1), (-3, 0.25), (0, 1)], [(0, 0), (0, 0), (3, 0.25), (0, -1)]) == \
        [True, False, False, False]
    assert [0.0, 0.0] in corner_waypoints(Level((-5, -5, 5, 5), obstacles=sharp)).tolist()


def test_hole_touching_its_outer_ring():
    # the triangular hole touches the outer ring at (7, 4), inside the ring's right edge
    poly = shapely.Polygon([(2, 1), (7, 1), (7, 6), (2, 6)], [[(7, 4), (3.5, 5), (3, 2)]])
    los = LineOfSight([poly], shapely.box(0, 0, 10, 10))
    assert los.pinch_points.tolist() == [[7.0, 4.0]]
    a = [(7, 2), (3, 2), (7, 4), (9, 4), (3.2, 3), (7, 8)]
    b = [(7, 4), (7, 4), (9, 4), (4, 3.8), (9, 5), (7, 0)]
    # along the outer edge to the touch point / along the hole's edge to it / out of it /
    # from outside into the hole through it / hole to outside / along the whole outer edge
    assert both_free(los, a, b) == [True, True, True, False, False, True]
    oracle = oracle_for(los)
    assert [oracle.visible(p, q) for p, q in zip(a, b)] == [True, True, True, False, False, True]


def test_seam_and_pinch_on_the_bounds_outline():
    level = Level((0, 0, 10, 10), obstacles=[shapely.box(3, 0, 5, 2), shapely.Polygon([(7, 0), (8, 1), (6, 1)])])
    los = level.line_of_sight()
    assert los.seams.tolist() == [[3.0, 0.0, 5.0, 0.0]] or los.seams.tolist() == [[5.0, 0.0, 3.0, 0.0]]
    assert los.pinch_points.tolist() == [[7.0, 0.0]]
    # along the seam / up to it / from its end / up to the pinch from either side / through it
    a = [(0, 0), (0, 0), (5, 0), (6, 0), (9, 0), (5, 0)]
    b = [(10, 0), (3, 0), (7, 0), (7, 0), (7, 0), (9, 0)]
    assert both_free(los, a, b) == [False, True, True, True, True, False]


def test_exact_answer_on_a_level_with_everything():
    obstacles = [TRIANGLE, shapely.box(0, 0, 1, 1), shapely.box(1, 1, 2, 2),
                 shapely.Polygon([(8.5, 1), (9.5, 1), (9.5, 6), (8.5, 6)], [[(9.5, 3), (9, 4), (9, 2)]])]
    level = Level((-1, -1, 11, 11), obstacles=obstacles)
    for radius in (0.0, 0.15):
        los = level.line_of_sight(agent_radius=radius)
        nav = build_waypoint_graph(level, k=None, corners=True, agent_radius=radius)
        oracle = oracle_for(los)
        vertices = np.unique(los.edges[:, :2], axis=0)
        for s, g in [((0.2, 1.8), (1.8, 0.2)), ((0.5, 9), (9.8, 0.5)), ((9.8, 3), (5, 1)), ((-0.5, 2.5), (7.7, 10))]:
            want = exact_shortest(oracle, vertices, s, g)
            assert find_path(nav, s, g).cost == pytest.approx(want, rel=1e-12)
            assert find_path(nav, s, g, refine="none").cost == pytest.approx(want, rel=1e-12)
        # the hole is a pocket whose only way out is the pinch point (9.5, 3): no way out
        assert exact_shortest(oracle, vertices, (9.2, 3), (5, 1)) == math.inf
        with pytest.raises((NodeNotFoundError, NoPathError)):
            find_path(nav, (9.2, 3), (5, 1))


# -- long segments, cut into pieces and judged in small batches (issue 21) --------------------------
def _crowded_level(seed: int) -> tuple[list[shapely.Geometry], shapely.Geometry]:
    """Sixty rotated boxes and triangles, some overlapping or touching, in a 100 x 100 room."""
    rng = np.random.default_rng(seed)
    shapes = []
    for k in range(60):
        c = rng.uniform(5, 95, 2)
        if k % 3 == 0:
            shapes.append(shapely.Polygon(c + rng.uniform(-6, 6, (3, 2))))
        else:
            w, h = rng.uniform(1, 8, 2)
            box = shapely.box(c[0], c[1], c[0] + w, c[1] + h)
            shapes.append(box if k % 3 == 1 else shapely.affinity.rotate(box, float(rng.uniform(0, 90))))
    shapes += [shapely.box(40, 40, 45, 45), shapely.box(45, 45, 50, 50)]  # a pinch point
    return [s for s in shapes if s.is_valid and s.area > 0], shapely.box(0, 0, 100, 100)


@pytest.mark.parametrize("radius", [0.0, 0.5])
@pytest.mark.parametrize("budget", [None, 37])
def test_long_segments_in_pieces_and_small_batches_agree_with_the_kernel(monkeypatch, radius, budget):
    import navmesh.sight as sight

    if budget is not None:  # a tiny pair budget: many batches, and pair slices cut mid-batch
        monkeypatch.setattr(sight, "MEMORY_BUDGET", budget * 400)
    obstacles, bounds = _crowded_level(7)
    los = LineOfSight(obstacles, bounds, agent_radius=radius)
    corners = np.unique(los.edges[:, :2], axis=0)
    rng = np.random.default_rng(3)
    i, j = np.triu_indices(len(corners), 1)
    pick = rng.choice(len(i), size=min(6000, len(i)), replace=False)
    a, b = corners[i[pick]], corners[j[pick]]
    a = np.concatenate([a, rng.uniform(0, 100, (2000, 2))])   # and random points
    b = np.concatenate([b, rng.uniform(0, 100, (2000, 2))])
    ok = los.walkable(a) & los.walkable(b)                     # the kernel trusts the ends
    a, b = a[ok], b[ok]
    assert np.hypot(*(b - a).T).max() > 5 * los._piece                      # many pieces per segment
    shapely_free = ~los.blocked(a, b)
    kernel_free = LK.segments_free(np.ascontiguousarray(a), np.ascontiguousarray(b), *wall_grid_for(los))
    np.testing.assert_array_equal(shapely_free, kernel_free)
    assert 0.05 < shapely_free.mean() < 0.95                                 # both answers occur
    one_by_one = np.array([~los.blocked(a[k : k + 1], b[k : k + 1])[0] for k in range(0, len(a), 97)])
    np.testing.assert_array_equal(one_by_one, shapely_free[::97])
