"""Tests of navmesh.geometry: polygon validation, inflation, bulk line of sight."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from navmesh.errors import InvalidGeometryError, InvalidOptionError
from navmesh.geometry import (
    as_bounds,
    as_polygon,
    as_polygons,
    erode,
    inflate,
    polygon_list,
    polygon_to_data,
    segment_lengths_inside,
)
from navmesh.sight import LineOfSight

SQUARE = [(0, 0), (4, 0), (4, 4), (0, 4)]
BOW_TIE = [(0, 0), (2, 2), (2, 0), (0, 2)]


# -- as_polygon ------------------------------------------------------------------------------
class TestAsPolygon:
    def test_coordinate_list(self):
        poly = as_polygon(SQUARE)
        assert isinstance(poly, shapely.Polygon)
        assert poly.area == 16.0

    def test_closed_ring_and_numpy(self):
        assert as_polygon(np.array(SQUARE + [SQUARE[0]], dtype=float)).area == 16.0

    def test_shapely_polygon_is_returned_as_is(self):
        box = shapely.box(0, 0, 2, 3)
        assert as_polygon(box) is box

    def test_holes_as_rings(self):
        poly = as_polygon([SQUARE, [(1, 1), (2, 1), (2, 2), (1, 2)]])
        assert poly.area == 15.0
        assert len(poly.interiors) == 1

    def test_holes_as_mapping(self):
        poly = as_polygon({"exterior": SQUARE, "holes": [[(1, 1), (2, 1), (2, 2)]]})
        assert poly.area == 15.5

    def test_coordinates_kept_in_given_order(self):
        ring = [(3, 0), (0, 0), (0, 3)]  # clockwise
        poly = as_polygon(ring)
        assert np.asarray(poly.exterior.coords)[:-1].tolist() == [[3, 0], [0, 0], [0, 3]]

    def test_self_intersection_names_object_and_rule(self):
        with pytest.raises(InvalidGeometryError, match=r"obstacles\[3\] is not a valid polygon \(Self-intersection"):
            as_polygon(BOW_TIE, name="obstacles[3]")

    def test_nan_names_index(self):
        with pytest.raises(InvalidGeometryError, match=r"wall\[1\]=\[nan, 0.0\] is not finite"):
            as_polygon([(0, 0), (math.nan, 0), (1, 1)], name="wall")

    def test_inf(self):
        with pytest.raises(InvalidGeometryError, match="not finite"):
            as_polygon([(0, 0), (math.inf, 0), (1, 1)])

    @pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
    def test_nan_in_shapely_polygon(self):
        with pytest.raises(InvalidGeometryError, match="not finite"):
            as_polygon(shapely.Polygon([(0, 0), (math.nan, 0), (1, 1)]))

    @pytest.mark.parametrize(
        "coords",
        [[(0, 0), (1, 1)], [(0, 0), (1, 1), (0, 0)], [(0, 0), (0, 0), (0, 0), (0, 0)]],
    )
    def test_too_few_distinct_points(self, coords):
        with pytest.raises(InvalidGeometryError, match="distinct points"):
            as_polygon(coords, name="p")

    def test_collinear_is_degenerate(self):
        with pytest.raises(InvalidGeometryError, match="p is not a valid polygon|zero area"):
            as_polygon([(0, 0), (1, 1), (2, 2)], name="p")

    def test_wrong_shape(self):
        with pytest.raises(InvalidGeometryError, match=r"shape \(3, 3\)"):
            as_polygon(np.array([(0, 0, 0), (1, 0, 0), (1, 1, 0)]))

    def test_not_numbers(self):
        with pytest.raises(InvalidGeometryError, match="cannot be read"):
            as_polygon([("a", "b"), (1, 0), (1, 1)])

    def test_not_a_polygon_geometry(self):
        with pytest.raises(InvalidGeometryError, match="is a LineString"):
            as_polygon(shapely.LineString([(0, 0), (1, 1)]))

    def test_scalar(self):
        with pytest.raises(InvalidGeometryError, match="is not a polygon"):
            as_polygon(5)

    def test_hole_outside_shell_is_invalid(self):
        with pytest.raises(InvalidGeometryError, match="not a valid polygon"):
            as_polygon([SQUARE, [(10, 10), (11, 10), (11, 11)]])

    def test_repair_single_part(self):
        # A square with a spike back along an edge: make_valid keeps the square.
        spiky = [(0, 0), (4, 0), (4, 4), (0, 4), (0, 2), (-1, 2), (0, 2)]
        poly = as_polygon(spiky, repair=True)
        assert poly.is_valid and poly.area == pytest.approx(16.0)

    def test_repair_that_splits_raises_in_as_polygon(self):
        with pytest.raises(InvalidGeometryError, match="splits into 2 polygons"):
            as_polygon(BOW_TIE, repair=True)

    def test_as_polygons_keeps_all_parts(self):
        parts = as_polygons(BOW_TIE, repair=True)
        assert len(parts) == 2
        assert all(p.is_valid for p in parts)
        assert sum(p.area for p in parts) == pytest.approx(2.0)

    def test_as_polygons_multipolygon(self):
        mp = shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(2, 2, 3, 3)])
        assert len(as_polygons(mp)) == 2

    def test_repair_of_zero_area(self):
        with pytest.raises(InvalidGeometryError):
            as_polygons([(0, 0), (1, 1), (2, 2)], repair=True)


class TestPolygonList:
    def test_mixed_inputs(self):
        out = polygon_list([shapely.box(0, 0, 1, 1), SQUARE, shapely.MultiPolygon([shapely.box(5, 5, 6, 6)])])
        assert len(out) == 3 and all(isinstance(p, shapely.Polygon) for p in out)

    @pytest.mark.parametrize(
        "bad, message",
        [
            (shapely.Polygon(BOW_TIE), r"obstacles\[2\] is not a valid polygon"),
            (shapely.Polygon([(0, 0), (math.inf, 0), (1, 1)]), r"obstacles\[2\].exterior\[1\]=\[inf, 0.0\] is not finite"),
            (shapely.Polygon(), r"obstacles\[2\] is empty"),
            (shapely.Polygon([(0, 0, 1), (1, 0, 1), (1, 1, 1)]), r"obstacles\[2\] has z coordinates"),
        ],
    )
    @pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
    def test_bad_shapely_item_is_named(self, bad, message):
        items = [shapely.box(i, 0, i + 1, 1) for i in range(100)]
        items[2] = bad
        with pytest.raises(InvalidGeometryError, match=message):
            polygon_list(items, name="obstacles")

    def test_repair(self):
        assert len(polygon_list([shapely.Polygon(BOW_TIE)], repair=True)) == 2


class TestAsBounds:
    def test_box_tuple(self):
        assert as_bounds((0, 0, 10, 5)).bounds == (0.0, 0.0, 10.0, 5.0)

    def test_polygon(self):
        assert as_bounds(SQUARE).area == 16.0

    def test_empty_box(self):
        with pytest.raises(InvalidGeometryError, match="xmin < xmax"):
            as_bounds((0, 0, 0, 5))

    def test_nan_box(self):
        with pytest.raises(InvalidGeometryError, match="not finite"):
            as_bounds((0, 0, math.nan, 5))


def test_polygon_to_data_round_trip_is_exact():
    poly = as_polygon([[(0.1, 0.2), (5, 1 / 3), (5, 7.000000000000001), (0.1, 7)], [(1, 1.5), (1.2, 1.6), (1.1, 1.7)]])
    again = as_polygon(polygon_to_data(poly))
    assert shapely.equals_exact(poly, again, 0.0)


# -- inflate / erode -------------------------------------------------------------------------
class TestInflate:
    def test_zero_radius_returns_inputs(self):
        box = shapely.box(0, 0, 1, 1)
        assert inflate([box], 0.0)[0] is box

    @pytest.mark.parametrize("join", ["mitre", "round"])
    def test_straight_sides_are_exact(self, join):
        grown = inflate([shapely.box(0, 0, 10, 2)], 1.0, join=join)[0]
        assert grown.bounds == pytest.approx((-1, -1, 11, 3))
        # The middle of the long side is exactly radius away.
        assert grown.covers(shapely.Point(5, 3))
        assert not grown.covers(shapely.Point(5, 3.0000001))

    @pytest.mark.parametrize("join", ["mitre", "round"])
    @pytest.mark.parametrize("quad_segs", [1, 2, 3, 4, 8])
    def test_conservative_contains_exact_disc_sum(self, join, quad_segs):
        rng = np.random.default_rng(quad_segs)
        shapes = [shapely.Polygon([(0, 0), (10, 0), (1, 1)])]  # one very sharp corner
        shapes += [shapely.convex_hull(shapely.multipoints(rng.uniform(0, 10, (6, 2)))) for _ in range(30)]
        shapes += [shapely.Polygon([(0, 0), (6, 0), (6, 6), (3, 1), (0, 6)])]  # non-convex
        for poly in shapes:
            grown = inflate([poly], 1.0, join=join, quad_segs=quad_segs)[0]
            # Conservative: the grown outline keeps at least the radius from the obstacle (GEOS
            # merges offset points closer than 1e-3 * radius at nearly straight corners, which
            # cuts such a corner by ~1e-7 * radius).
            assert shapely.distance(poly, grown.exterior) >= 1.0 - 1e-6
            assert grown.covers(poly)

    def test_corridor_exactly_agent_wide_stays_open(self):
        walls = [shapely.box(0, 0, 10, 1), shapely.box(0, 3, 10, 4)]  # corridor y in [1, 3]
        grown = inflate(walls, 1.0)
        assert grown[0].touches(grown[1])
        los = LineOfSight(walls, agent_radius=1.0)
        assert los.blocked([[0, 2]], [[10, 2]]).tolist() == [False]
        assert los.blocked([[0, 2.1]], [[10, 2.1]]).tolist() == [True]

    def test_one_result_per_input_in_order(self):
        boxes = [shapely.box(i * 3, 0, i * 3 + 1, 1) for i in range(4)]
        grown = inflate(boxes, 2.0)
        assert len(grown) == 4
        assert [g.centroid.x for g in grown] == pytest.approx([0.5, 3.5, 6.5, 9.5])

    @pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf, "x"])
    def test_bad_radius(self, bad):
        with pytest.raises(InvalidOptionError, match="radius"):
            inflate([shapely.box(0, 0, 1, 1)], bad)

    def test_bad_join(self):
        with pytest.raises(InvalidOptionError, match="'mitre', 'round'"):
            inflate([shapely.box(0, 0, 1, 1)], 1.0, join="bevel")

    def test_bad_quad_segs(self):
        with pytest.raises(InvalidOptionError, match="quad_segs"):
            inflate([shapely.box(0, 0, 1, 1)], 1.0, join="round", quad_segs=0)


class TestErode:
    def test_rectangle(self):
        assert erode(shapely.box(0, 0, 10, 4), 1.0).bounds == pytest.approx((1, 1, 9, 3))

    @pytest.mark.parametrize("join", ["mitre", "round"])
    @pytest.mark.parametrize("quad_segs", [1, 4])
    def test_conservative(self, join, quad_segs):
        rng = np.random.default_rng(5)
        shapes = [shapely.Polygon([(0, 0), (10, 0), (10, 4), (4, 4), (4, 10), (0, 10)])]  # reflex corner
        shapes += [shapely.Polygon(np.column_stack([np.cos(t), np.sin(t)]) * rng.uniform(6, 12, len(t))[:, None])
                   for t in (np.sort(rng.uniform(0, 2 * np.pi, 9)) for _ in range(20))]
        for bounds in shapes:
            if not bounds.is_valid:
                continue
            shrunk = erode(bounds, 1.0, join=join, quad_segs=quad_segs)
            if shrunk.is_empty:
                continue
            # The shrunk area keeps at least the radius from the original outline everywhere.
            assert shapely.distance(bounds.exterior, shrunk.boundary) >= 1.0 - 1e-6
            assert bounds.covers(shrunk)

    def test_too_narrow_disappears(self):
        assert erode(shapely.box(0, 0, 10, 1.5), 1.0).is_empty


# -- line of sight ---------------------------------------------------------------------------
@pytest.fixture
def wall_level():
    return LineOfSight([shapely.box(4, 0, 6, 6)], shapely.box(0, 0, 10, 10))


class TestLineOfSight:
    def test_through_interior_is_blocked(self, wall_level):
        assert wall_level.blocked([[1, 3]], [[9, 3]]).tolist() == [True]

    def test_clear_segment(self, wall_level):
        assert wall_level.blocked([[1, 8]], [[9, 8]]).tolist() == [False]

    def test_along_edge_is_allowed(self, wall_level):
        assert wall_level.blocked([[4, 0], [4, 6]], [[4, 9], [6, 6]]).tolist() == [False, False]

    def test_touching_corner_is_allowed(self, wall_level):
        assert wall_level.blocked([[3, 5]], [[7, 7]]).tolist() == [True]
        assert wall_level.blocked([[2, 10]], [[6, 6]]).tolist() == [False]  # ends at the corner
        assert wall_level.blocked([[3, 9]], [[9, 3]]).tolist() == [False]  # grazes the corner (6, 6)

    def test_leaving_bounds_is_blocked(self, wall_level):
        assert wall_level.blocked([[1, 1]], [[1, 11]]).tolist() == [True]
        assert wall_level.blocked([[0, 0]], [[0, 10]]).tolist() == [False]  # along the bounds edge

    def test_non_convex_bounds(self):
        ell = shapely.Polygon([(0, 0), (10, 0), (10, 4), (4, 4), (4, 10), (0, 10)])
        los = LineOfSight([], ell)
        assert los.blocked([[2, 8], [2, 8]], [[8, 2], [4, 4]]).tolist() == [True, False]

    def test_bounds_with_hole_acts_as_obstacle(self):
        los = LineOfSight([], shapely.Polygon(shapely.box(0, 0, 10, 10).exterior, [shapely.box(4, 4, 6, 6).exterior]))
        assert los.blocked([[1, 5], [1, 4]], [[9, 5], [9, 4]]).tolist() == [True, False]

    def test_shared_edge_of_adjacent_obstacles_is_inside_the_wall(self):
        los = LineOfSight([shapely.box(0, 0, 1, 1), shapely.box(1, 0, 2, 1)])
        assert los.blocked([[1, -1]], [[1, 2]]).tolist() == [True]
        assert los.inside_obstacle([[1, 0.5]]).tolist() == [True]

    def test_checkerboard_corner(self):
        los = LineOfSight([shapely.box(0, 0, 1, 1), shapely.box(1, 1, 2, 2)], shapely.box(-1, -1, 3, 3))
        assert los.pinch_points.tolist() == [[1.0, 1.0]]
        a = [[0, 2], [0, 1], [1, 3], [0, 2], [-1, 1]]
        b = [[2, 0], [2, 1], [1, -1], [1, 1], [-1, 3]]
        # through the pinch diagonally / along both edges / straight; ending at it; elsewhere
        assert los.blocked(a, b).tolist() == [True, True, True, False, False]

    def test_obstacle_touching_bounds_edge_at_a_point(self):
        diamond = shapely.Polygon([(5, 0), (6, 1), (5, 2), (4, 1)])
        los = LineOfSight([diamond], shapely.box(0, 0, 10, 10))
        assert los.pinch_points.tolist() == [[5.0, 0.0]]
        assert los.blocked([[0, 0], [0, 0]], [[10, 0], [5, 0]]).tolist() == [True, False]

    @pytest.mark.parametrize("extra", [[], [shapely.box(3.5, 0.5, 9.2, 1.7)], [shapely.box(0, 1, 2, 3)]])
    def test_many_cells_merge_like_a_general_union(self, extra):
        # Over 64 tiles takes the coverage-union path; an overlapping box or a tile that meets
        # the others with T-junctions must fall back to the general union.
        cells = [shapely.box(x, y, x + 1, y + 1) for x in range(10) for y in range(10) if (x * 7 + y * 3) % 5]
        los = LineOfSight(cells + extra)
        assert shapely.union_all(np.asarray(los.parts)).equals(shapely.union_all(np.asarray(cells + extra)))

    def test_wall_against_the_map_edge(self):
        los = LineOfSight([shapely.box(3, 0, 5, 2), shapely.box(0, 4, 1, 6)], shapely.box(0, 0, 10, 10))
        a = [[0, 0], [0, 0], [6, 0], [0, 3], [0, 0], [4, 0]]
        b = [[10, 0], [3, 0], [10, 0], [0, 10], [0, 4], [4, 0.5]]
        # under the wall / up to it / beside it / along the left wall / up to it / into it
        assert los.blocked(a, b).tolist() == [True, False, False, True, False, True]

    def test_obstacle_against_a_bounds_hole(self):
        bounds = shapely.Polygon(shapely.box(0, 0, 10, 10).exterior, [shapely.box(4, 4, 6, 6).exterior])
        los = LineOfSight([shapely.box(6, 4, 7, 6)], bounds)
        assert los.blocked([[6, 2], [7, 2]], [[6, 8], [7, 8]]).tolist() == [True, False]

    def test_wall_against_the_map_edge_with_radius(self):
        los = LineOfSight([shapely.box(3, 0, 5, 2)], shapely.box(0, 0, 10, 10), agent_radius=0.5)
        assert los.blocked([[0.5, 0.5], [0.5, 2.5]], [[9.5, 0.5], [9.5, 2.5]]).tolist() == [True, False]

    def test_overlapping_obstacles(self):
        los = LineOfSight([shapely.box(0, 0, 2, 2), shapely.box(1, 1, 3, 3)])
        assert len(los.parts) == 1
        assert los.blocked([[-1, 1.5]], [[4, 1.5]]).tolist() == [True]

    def test_segment_inside_obstacle(self, wall_level):
        assert wall_level.blocked([[4.5, 1]], [[5.5, 2]]).tolist() == [True]

    def test_zero_length_segments(self, wall_level):
        a = [[5, 3], [1, 1], [4, 3], [11, 1]]
        assert wall_level.blocked(a, a).tolist() == [True, False, False, True]

    def test_three_columns_are_ignored(self, wall_level):
        assert wall_level.blocked([[1, 3, 0.0]], [[9, 3, 5.0]]).tolist() == [True]

    def test_empty_input(self, wall_level):
        assert wall_level.blocked(np.zeros((0, 2)), np.zeros((0, 2))).shape == (0,)

    def test_no_obstacles_no_bounds(self):
        los = LineOfSight([])
        assert los.blocked([[0, 0]], [[1e6, -1e6]]).tolist() == [False]

    def test_bad_shapes(self, wall_level):
        with pytest.raises(InvalidGeometryError, match="expected two"):
            wall_level.blocked([[0, 0]], [[1, 1], [2, 2]])
        with pytest.raises(InvalidGeometryError, match="finite"):
            wall_level.blocked([[0, math.nan]], [[1, 1]])

    def test_points(self, wall_level):
        pts = [[5, 3], [4, 3], [1, 1], [11, 1], [10, 10]]
        assert wall_level.inside_obstacle(pts).tolist() == [True, False, False, False, False]
        assert wall_level.outside_bounds(pts).tolist() == [False, False, False, True, False]
        assert wall_level.walkable(pts).tolist() == [False, True, True, False, True]

    def test_agrees_with_per_segment_shapely_loop(self):
        rng = np.random.default_rng(7)
        obstacles = [shapely.box(x, y, x + w, y + h) for x, y, w, h in rng.uniform([0, 0, 1, 1], [40, 40, 6, 6], (25, 4))]
        bounds = shapely.box(0, 0, 50, 50)
        los = LineOfSight(obstacles, bounds)
        a = rng.uniform(-5, 55, (400, 2))
        b = rng.uniform(-5, 55, (400, 2))
        free = shapely.difference(bounds, shapely.unary_union(obstacles))
        expected = [not free.covers(shapely.LineString([p, q])) for p, q in zip(a, b)]
        # Random segments almost surely avoid pinch points, so "covered by free space" is the rule.
        assert los.blocked(a, b).tolist() == expected


@pytest.mark.parametrize("radius", [0.5, 1.0])
@pytest.mark.parametrize("with_bounds", [True, False])
def test_inflated_agrees_with_per_segment_rule(radius, with_bounds):
    rng = np.random.default_rng(11)
    # Integer grid boxes: many touching and exactly 2r-wide gaps, and segments along edges.
    boxes = {(int(x), int(y)) for x, y in rng.integers(0, 12, (40, 2))}
    obstacles = [shapely.box(2 * x, 2 * y, 2 * x + 1, 2 * y + 1) for x, y in boxes]
    bounds = shapely.box(-1, -1, 25, 25) if with_bounds else None
    los = LineOfSight(obstacles, bounds, agent_radius=radius)
    grid = np.arange(-1, 26, 0.5)
    a = rng.choice(grid, (3000, 2))
    b = np.where(rng.random((3000, 1)) < 0.5, a + rng.choice([-3, -1, 1, 3], (3000, 2)), rng.choice(grid, (3000, 2)))
    expected = []
    for p, q in zip(a, b):
        if (p == q).all():
            expected.append(not bool(los.walkable(p[None])[0]))
            continue
        line = shapely.LineString([p, q])
        inside = any(o.crosses(line) or o.contains(line) for o in los.inflated)
        outside = los.eroded_bounds is not None and not los.eroded_bounds.covers(line)
        expected.append(inside or outside)
    assert los.blocked(a, b).tolist() == expected


def test_segment_lengths_inside():
    polys = [shapely.box(2, -1, 5, 1), shapely.box(4, -1, 8, 1)]
    m = segment_lengths_inside([[0, 0], [0, 5], [3, 1]], [[10, 0], [10, 5], [3, 1]], polys)
    assert m.shape == (3, 2)
    assert m.toarray().tolist() == [[3.0, 4.0], [0.0, 0.0], [0.0, 0.0]]


# -- against published any-angle answers -----------------------------------------------------
SHARED = Path(__file__).resolve().parents[1] / "data"  # arena.map and arena.expected.csv ship in tests/data


def _arena_visibility_lengths(every):
    """Shortest any-angle lengths on arena.map from a visibility graph built with LineOfSight.

    Graph-free check of the line-of-sight rule: blocked cells of the Moving AI map are the
    obstacles, the map rectangle is the bounds (y down, like the reference), nodes are every
    obstacle corner plus start and goal, and scipy's Dijkstra gives the lengths.
    """
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import dijkstra

    rows = (SHARED / "movingai" / "arena.map").read_text().splitlines()
    h, w = int(rows[1].split()[1]), int(rows[2].split()[1])
    grid = [r.rstrip("\r") for r in rows[4 : 4 + h]]
    cells = [shapely.box(x, y, x + 1, y + 1) for y, r in enumerate(grid) for x, c in enumerate(r) if c not in ".GS"]
    los = LineOfSight(cells, shapely.box(0, 0, w, h))
    corners = np.unique(
        np.concatenate([np.asarray(ring.coords)[:-1] for p in los.parts for ring in [p.exterior, *p.interiors]]), axis=0
    )
    n0 = len(corners)
    i, j = np.triu_indices(n0, 1)
    vis = los.visible(corners[i], corners[j])
    i, j = i[vis], j[vis]
    with open(SHARED / "anyangle" / "arena.expected.csv") as fh:
        queries = list(csv.DictReader(fh))[::every]
    got, expected = [], []
    for q in queries:
        ends = np.array([[float(q["start_x"]), float(q["start_y"])], [float(q["goal_x"]), float(q["goal_y"])]])
        pts = np.vstack([corners, ends])
        ii = np.r_[np.full(n0 + 1, n0), np.full(n0, n0 + 1)]
        jj = np.r_[np.arange(n0 + 1), np.arange(n0)]
        v = los.visible(pts[ii], pts[jj])
        src, dst = np.r_[i, ii[v]], np.r_[j, jj[v]]
        d = np.hypot(*(pts[src] - pts[dst]).T)
        graph = csr_array((np.r_[d, d], (np.r_[src, dst], np.r_[dst, src])), shape=(n0 + 2, n0 + 2))
        got.append(dijkstra(graph, indices=n0)[n0 + 1])
        expected.append(float(q["expected_euclidean_length"]))
    return np.array(got), np.array(expected)


@pytest.mark.parametrize("every", [pytest.param(4), pytest.param(1, marks=pytest.mark.slow)])
def test_arena_any_angle_lengths(every):
    got, expected = _arena_visibility_lengths(every)
    assert len(got) >= 40
    np.testing.assert_allclose(got, expected, atol=1e-3)
