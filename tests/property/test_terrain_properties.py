"""Hypothesis properties of terrain lengths, cost profiles and danger zones.

Integer coordinates on a small grid make the awkward cases common: segments running along region
edges, regions sharing edges, nested and repeated regions.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from navmesh.danger import DangerZone, add_danger, danger_lengths
from navmesh.terrain import CostProfile, TerrainLayer, TerrainRegion

TAGS = ("swamp", "road", "water")
coord = st.integers(0, 12)


@st.composite
def regions(draw, max_size=6):
    out = []
    for _ in range(draw(st.integers(0, max_size))):
        x0, x1 = sorted(draw(st.lists(coord, min_size=2, max_size=2, unique=True)))
        y0, y1 = sorted(draw(st.lists(coord, min_size=2, max_size=2, unique=True)))
        out.append(TerrainRegion(shapely.box(x0, y0, x1, y1), draw(st.sampled_from(TAGS))))
    return out


@st.composite
def segments(draw, max_size=12):
    n = draw(st.integers(1, max_size))
    # No subnormal coordinates: the shapely reference loses them (a segment from (2e-268, 1e-308)
    # to (-1, 1), outside a unit square, came out 1.414 long inside it).
    coordinate = st.floats(-1, 13, allow_nan=False, allow_subnormal=False)
    point = st.tuples(st.integers(-1, 13), st.integers(-1, 13)) | st.tuples(coordinate, coordinate)
    a = np.array(draw(st.lists(point, min_size=n, max_size=n)), dtype=np.float64)
    b = np.array(draw(st.lists(point, min_size=n, max_size=n)), dtype=np.float64)
    return a, b


multiplier = st.floats(0.05, 20.0, allow_nan=False, allow_infinity=False)
profiles = st.builds(
    lambda mult, forb: CostProfile("p", mult, forbidden=forb),
    st.dictionaries(st.sampled_from(TAGS), multiplier),
    st.frozensets(st.sampled_from(TAGS), max_size=1),
)


def reference_lengths(a, b, regs, names):
    """Per segment, per tag: len(L & union(regions[i:])) - len(L & union(regions[i+1:])).

    This is the painter's rule written directly, one segment at a time, without the layer's
    precomputed covers.
    """
    out = np.zeros((len(a), len(names)))
    polys = [r.polygon for r in regs]
    suffix = [shapely.unary_union(polys[i:]) for i in range(len(polys))] + [shapely.Polygon()]
    for s in range(len(a)):
        line = shapely.LineString([a[s], b[s]])
        if line.length == 0:
            continue
        cover = [line.intersection(u).length for u in suffix]
        for i, r in enumerate(regs):
            out[s, names.index(r.tag)] += cover[i] - cover[i + 1]
    return out


@settings(max_examples=150, deadline=None)
@given(regions(), segments())
def test_lengths_match_per_segment_reference(regs, segs):
    a, b = segs
    names, lens = TerrainLayer(regs).lengths(a, b)
    assert names == tuple(sorted({r.tag for r in regs}))
    assert lens.shape == (len(a), len(names))
    np.testing.assert_allclose(lens.toarray(), reference_lengths(a, b, regs, list(names)), atol=1e-9)


@settings(max_examples=150, deadline=None)
@given(regions(), segments())
def test_lengths_sum_to_at_most_the_segment_length(regs, segs):
    a, b = segs
    _, lens = TerrainLayer(regs).lengths(a, b)
    total = np.asarray(lens.sum(axis=1)).reshape(-1)
    seg_len = np.hypot(*(b - a).T)
    assert (lens.data >= 0).all()
    assert (total <= seg_len + 1e-9).all()


@settings(max_examples=100, deadline=None)
@given(regions(max_size=3), segments(), st.sampled_from(TAGS))
def test_covering_region_on_top_takes_the_whole_length(regs, segs, tag):
    a, b = segs
    cover = TerrainRegion(shapely.box(-2, -2, 14, 14), tag)
    names, lens = TerrainLayer([*regs, cover]).lengths(a, b)
    dense = lens.toarray()
    seg_len = np.hypot(*(b - a).T)
    np.testing.assert_allclose(dense[:, names.index(tag)], seg_len, atol=1e-9)
    np.testing.assert_allclose(dense.sum(axis=1), seg_len, atol=1e-9)


@settings(max_examples=150, deadline=None)
@given(regions(), segments(), profiles, st.sampled_from(TAGS), st.floats(1.0, 10.0))
def test_raising_a_multiplier_never_lowers_a_weight(regs, segs, profile, tag, factor):
    a, b = segs
    names, lens = TerrainLayer(regs).lengths(a, b)
    base = np.hypot(*(b - a).T)
    arc_tags = np.arange(len(a)) % 2  # half the arcs carry the tag themselves
    arc_names = ("", tag)
    before = profile.arc_weights(base, lens, names, arc_tags, arc_names)
    raised = dict(profile.multipliers)
    raised[tag] = profile.multiplier(tag) * factor
    after = CostProfile("p", raised, forbidden=profile.forbidden).arc_weights(base, lens, names, arc_tags, arc_names)
    finite = np.isfinite(before)
    assert (after[finite] >= before[finite] - 1e-9 * np.maximum(before[finite], 1)).all()
    assert np.array_equal(np.isinf(before), np.isinf(after))


@settings(max_examples=100, deadline=None)
@given(regions(), segments(), profiles)
def test_weights_are_bounded_by_the_multipliers(regs, segs, profile):
    a, b = segs
    names, lens = TerrainLayer(regs).lengths(a, b)
    base = np.hypot(*(b - a).T)
    w = profile.arc_weights(base, lens, names, np.zeros(len(a), dtype=np.int32), ("",))
    finite = np.isfinite(w)
    lo = min([1.0, *profile.multipliers.values()])
    hi = max([1.0, *profile.multipliers.values()])
    assert (w[finite] >= lo * base[finite] - 1e-9).all()
    assert (w[finite] <= hi * base[finite] + 1e-9).all()
    # Closed arcs are exactly those with length inside a forbidden tag.
    forbidden_cols = [names.index(t) for t in profile.forbidden if t in names]
    inside = lens.toarray()[:, forbidden_cols].sum(axis=1) if forbidden_cols else np.zeros(len(a))
    assert np.array_equal(~finite, inside > 1e-9 * np.maximum(base, 1.0))


@settings(max_examples=100, deadline=None)
@given(
    segments(),
    st.tuples(st.floats(-2, 14), st.floats(-2, 14)),
    st.floats(0.1, 8.0),
    st.floats(0.0, 5.0),
)
def test_danger_lengths_match_shapely_and_never_lower_weights(segs, centre, radius, extra):
    a, b = segs
    lens = danger_lengths(a, b, centre, radius)
    disc = shapely.Point(centre).buffer(radius, quad_segs=512)
    expected = np.array([shapely.LineString([p, q]).intersection(disc).length if (p != q).any() else 0.0 for p, q in zip(a, b)])
    # The 2048-gon lies inside the circle by at most radius * 1.2e-6 per unit of chord.
    np.testing.assert_allclose(lens, expected, atol=1e-3 * radius + 1e-9)
    base = np.hypot(*(b - a).T)
    raised = add_danger(base, a, b, [DangerZone(centre, radius, extra)])
    assert (raised >= base).all()
    assert raised == pytest.approx(base + extra * lens)
