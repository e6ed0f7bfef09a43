"""Hermite curves: through every waypoint, continuous tangents, flattened inside free space."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import navmesh
from navmesh.errors import InvalidGeometryError, InvalidOptionError
from navmesh.sight import LineOfSight
from navmesh.steering.curves import (
    arc_lengths,
    hermite_curve,
    hermite_tangents,
    point_at,
)

coords = st.floats(-50, 50, allow_nan=False)
polylines = st.lists(st.tuples(coords, coords), min_size=2, max_size=8).map(np.array).filter(
    lambda p: np.all(np.hypot(*np.diff(p, axis=0).T) > 1e-3)
)


@pytest.mark.parametrize("kind", ["catmull_rom", "centripetal"])
@given(points=polylines)
@settings(max_examples=60, deadline=None)
def test_curve_passes_through_every_waypoint_with_continuous_tangents(kind, points):
    c = hermite_curve(points, tangents=kind)
    n = len(c.points)
    pieces = np.arange(n - 1)
    np.testing.assert_allclose(c.evaluate(pieces, 0.0), c.points[:-1], atol=1e-9)
    np.testing.assert_allclose(c.evaluate(pieces, 1.0), c.points[1:], atol=1e-9)
    if n > 2:
        out = c.derivative(pieces[:-1], 1.0)
        inn = c.derivative(pieces[1:], 0.0)
        cross = out[:, 0] * inn[:, 1] - out[:, 1] * inn[:, 0]
        scale = np.hypot(*out.T) * np.hypot(*inn.T)
        assert np.all(np.abs(cross) <= 1e-9 * np.maximum(scale, 1))  # same line
        assert np.all((out * inn).sum(axis=1) >= 0)  # same direction
    samples, rows = c.sample()
    np.testing.assert_array_equal(samples[rows], c.points)  # exact waypoints in the motion polyline


def test_catmull_rom_tangents_by_hand_and_derivative_matches_finite_difference():
    p = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [5.0, 3.0]])
    start, end = hermite_tangents(p)
    np.testing.assert_allclose(start, [[2, 0], [1, 1], [1.5, 1.5]])
    np.testing.assert_allclose(end, [[1, 1], [1.5, 1.5], [3, 1]])
    c = hermite_curve(p)
    h = 1e-6
    for piece in range(3):
        for u in (0.1, 0.5, 0.9):
            fd = (c.evaluate(piece, u + h) - c.evaluate(piece, u - h)) / (2 * h)
            np.testing.assert_allclose(c.derivative(piece, u), fd, atol=1e-6)


def test_centripetal_tangents_follow_the_chord_lengths():
    # equal chords: centripetal tangent directions equal Catmull-Rom's
    p = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0]])
    cs, _ = hermite_tangents(p, "catmull_rom")
    ps, _ = hermite_tangents(p, "centripetal")
    unit = lambda v: v / np.hypot(*v.T)[:, None]
    np.testing.assert_allclose(unit(cs), unit(ps), atol=1e-12)


def test_flattening_keeps_a_curve_off_a_wall_corner():
    # a path hugging two corners of a wall: the raw Catmull-Rom pieces swing into the wall
    wall = shapely.box(0, 0, 4, 4)
    los = LineOfSight([wall], shapely.box(-10, -10, 10, 10))
    pts = np.array([[-1.0, -6.0], [0.0, 0.0], [0.0, 4.0], [1.0, 9.0]])
    raw = hermite_curve(pts)
    s_raw, _ = raw.sample()
    assert los.inside_obstacle(s_raw).any()  # the problem exists
    flat = hermite_curve(pts, line_of_sight=los)
    assert flat.flatness[1] < 1  # the piece along the wall was flattened
    samples, rows = flat.sample()
    assert not los.inside_obstacle(samples).any()
    assert not los.blocked(samples[:-1], samples[1:]).any()
    np.testing.assert_array_equal(samples[rows], pts)


def _random_level(seed: int):
    rng = np.random.default_rng(seed)
    boxes = []
    for _ in range(int(rng.integers(3, 9))):
        x, y = rng.uniform(2, 36, 2)
        w, h = rng.uniform(1, 8, 2)
        boxes.append(shapely.box(x, y, min(x + w, 38), min(y + h, 38)))
    return navmesh.Level.rectangle(40, 40, obstacles=boxes), rng


@pytest.mark.parametrize("kind", ["catmull_rom", "centripetal"])
@given(seed=st.integers(0, 10_000), radius=st.sampled_from([0.0, 0.5, 1.0]))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_sampled_curve_point_in_an_inflated_obstacle_on_random_levels(kind, seed, radius):
    level, rng = _random_level(seed)
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=radius)
    los = level.line_of_sight(agent_radius=radius)  # independent: shapely, inflated by the radius
    query = navmesh.NavQuery(nav)
    for _ in range(4):
        a, b = rng.uniform(0, 40, (2, 2))
        try:
            path = query.find_path(a, b)
        except navmesh.NavmeshError:
            continue
        curve = hermite_curve(path.points, tangents=kind, line_of_sight=nav.line_of_sight)
        samples, rows = curve.sample()
        # Each piece is checked where the path's own straight leg is walkable by shapely: a leg
        # that runs exactly along a mitre bevel can come out of find_path "blocked" by rounding
        # (reported), and a fully flattened piece can be no better than its leg.
        legs_ok = ~los.blocked(path.points[:-1], path.points[1:])
        s = curve.samples_per_piece
        for i in np.flatnonzero(legs_ok):
            piece = samples[rows[i] : rows[i] + s + 1]
            assert not los.inside_obstacle(piece).any()
            assert los.walkable(piece).all()
            assert not los.blocked(piece[:-1], piece[1:]).any()


def test_point_at_and_arc_lengths_by_hand():
    line = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 4.0]])
    cum = arc_lengths(line)
    np.testing.assert_allclose(cum, [0, 3, 7])
    assert point_at(line, cum, 1.5)[0].tolist() == [1.5, 0.0]
    assert point_at(line, cum, 99)[0].tolist() == [3.0, 4.0]
    assert point_at(line, cum, -1)[0].tolist() == [0.0, 0.0]


def test_bad_input_is_rejected():
    with pytest.raises(InvalidGeometryError):
        hermite_curve([[0, 0], [np.nan, 1]])
    with pytest.raises(InvalidOptionError):
        hermite_curve([[0, 0], [1, 1]], tangents="bezier")
    with pytest.raises(InvalidOptionError):
        hermite_curve([[0, 0], [1, 1]], samples_per_piece=1)
