"""Tests of navmesh.terrain: regions, painter's rule lengths, cost profiles, danger zones."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse
import shapely

from navmesh.errors import InvalidCostError, InvalidGeometryError, InvalidOptionError
from navmesh.danger import DangerZone, add_danger, danger_lengths
from navmesh.tags import decode_arc_tag, encode_arc_tag
from navmesh.terrain import (
    CostProfile,
    TerrainLayer,
    TerrainRegion,
    terrain_lengths,
)


def box_region(x0, y0, x1, y1, tag):
    return TerrainRegion(shapely.box(x0, y0, x1, y1), tag)


# -- TerrainRegion ---------------------------------------------------------------------------
class TestTerrainRegion:
    def test_coordinates_become_polygon(self):
        reg = TerrainRegion([(0, 0), (2, 0), (2, 2)], "swamp")
        assert isinstance(reg.polygon, shapely.Polygon)
        assert reg.polygon.area == 2.0

    def test_invalid_polygon_names_region(self):
        with pytest.raises(InvalidGeometryError, match=r"TerrainRegion\('swamp'\).polygon is not a valid polygon"):
            TerrainRegion([(0, 0), (2, 2), (2, 0), (0, 2)], "swamp")

    @pytest.mark.parametrize("tag", ["", None, 3, "a|b", "requires:x"])
    def test_bad_tag(self, tag):
        with pytest.raises(InvalidOptionError, match="TerrainRegion.tag"):
            TerrainRegion(shapely.box(0, 0, 1, 1), tag)

    def test_equality_and_hash(self):
        a = box_region(0, 0, 1, 1, "road")
        b = box_region(0, 0, 1, 1, "road")
        assert a == b and hash(a) == hash(b)
        assert a != box_region(0, 0, 1, 1, "swamp")

    def test_frozen(self):
        reg = box_region(0, 0, 1, 1, "road")
        with pytest.raises(AttributeError):
            reg.tag = "swamp"


# -- lengths ---------------------------------------------------------------------------------
class TestTerrainLengths:
    def test_single_region(self):
        names, lens = terrain_lengths([[0, 0]], [[10, 0]], [box_region(2, -1, 6, 1, "swamp")])
        assert names == ("swamp",)
        assert isinstance(lens, scipy.sparse.csr_array)
        assert lens.toarray().tolist() == [[4.0]]

    def test_named_fields(self):
        res = terrain_lengths([[0, 0]], [[10, 0]], [box_region(2, -1, 6, 1, "swamp")])
        assert res.tag_names == ("swamp",)
        assert res.lengths.shape == (1, 1)

    def test_later_region_wins_overlap(self):
        regions = [box_region(0, -1, 6, 1, "swamp"), box_region(4, -1, 8, 1, "road")]
        names, lens = terrain_lengths([[-2, 0]], [[10, 0]], regions)
        assert names == ("road", "swamp")
        assert lens.toarray().tolist() == [[4.0, 4.0]]
        # Reversed order: the swamp is painted over the road.
        names, lens = terrain_lengths([[-2, 0]], [[10, 0]], regions[::-1])
        assert lens.toarray().tolist() == [[2.0, 6.0]]

    def test_same_tag_in_several_regions_is_summed(self):
        regions = [box_region(0, -1, 2, 1, "swamp"), box_region(5, -1, 6, 1, "swamp")]
        assert terrain_lengths([[-1, 0]], [[10, 0]], regions).lengths.toarray().tolist() == [[3.0]]

    def test_boundary_belongs_to_the_region(self):
        # Running exactly along the swamp's edge counts as swamp (closed regions).
        lens = terrain_lengths([[0, 1]], [[10, 1]], [box_region(2, -1, 6, 1, "swamp")]).lengths
        assert lens.toarray().tolist() == [[4.0]]

    def test_shared_edge_belongs_to_the_later_region(self):
        regions = [box_region(0, 0, 5, 5, "swamp"), box_region(5, 0, 10, 5, "road")]
        lens = terrain_lengths([[5, 1]], [[5, 4]], regions).lengths.toarray()
        assert lens.tolist() == [[3.0, 0.0]]  # columns: road, swamp

    def test_nested_regions(self):
        regions = [box_region(0, 0, 10, 10, "swamp"), box_region(4, 4, 6, 6, "road"), box_region(0, 0, 10, 10, "water")]
        names, lens = terrain_lengths([[0, 5]], [[10, 5]], regions)
        assert dict(zip(names, lens.toarray()[0])) == {"road": 0.0, "swamp": 0.0, "water": 10.0}

    def test_region_with_hole(self):
        ring = shapely.Polygon(shapely.box(0, 0, 10, 10).exterior, [shapely.box(3, 3, 7, 7).exterior])
        lens = terrain_lengths([[-5, 5]], [[15, 5]], [TerrainRegion(ring, "swamp")]).lengths
        assert lens.toarray().tolist() == [[6.0]]

    def test_zero_length_and_missing_segments(self):
        regions = [box_region(0, 0, 2, 2, "swamp")]
        lens = terrain_lengths([[1, 1], [5, 5]], [[1, 1], [9, 9]], regions).lengths
        assert lens.shape == (2, 1) and lens.nnz == 0

    def test_no_regions(self):
        res = terrain_lengths([[0, 0]], [[1, 1]], [])
        assert res.tag_names == () and res.lengths.shape == (1, 0)

    def test_many_segments_match_per_segment_computation(self):
        rng = np.random.default_rng(3)
        regions = [
            TerrainRegion(shapely.box(x, y, x + w, y + h), tag)
            for (x, y, w, h), tag in zip(rng.uniform([0, 0, 2, 2], [20, 20, 10, 10], (12, 4)), ["a", "b", "c"] * 4)
        ]
        a, b = rng.uniform(-2, 32, (300, 2)), rng.uniform(-2, 32, (300, 2))
        names, lens = TerrainLayer(regions).lengths(a, b)
        dense = lens.toarray()
        for i in range(len(a)):
            line = shapely.LineString([a[i], b[i]])
            expected = dict.fromkeys(names, 0.0)
            for j, reg in enumerate(regions):
                later = shapely.unary_union([r.polygon for r in regions[j + 1 :]]) if j + 1 < len(regions) else None
                own = reg.polygon if later is None else reg.polygon.difference(later)
                expected[reg.tag] += line.intersection(own).length
            assert dense[i] == pytest.approx([expected[t] for t in names], abs=1e-9)

    def test_tag_at_uses_painters_rule(self):
        layer = TerrainLayer([box_region(0, 0, 4, 4, "swamp"), box_region(2, 2, 6, 6, "road")])
        assert layer.tag_at([[1, 1], [3, 3], [5, 5], [9, 9], [4, 1]]).tolist() == ["swamp", "road", "road", "", "swamp"]

    def test_not_a_region(self):
        with pytest.raises(InvalidGeometryError, match=r"regions\[0\]"):
            TerrainLayer([shapely.box(0, 0, 1, 1)])

    def test_bad_segments(self):
        with pytest.raises(InvalidGeometryError, match="finite"):
            terrain_lengths([[0, math.inf]], [[1, 1]], [box_region(0, 0, 1, 1, "a")])


# -- arc tags --------------------------------------------------------------------------------
class TestArcTags:
    @pytest.mark.parametrize(
        "tag, requires, name",
        [("", None, ""), ("bridge", None, "bridge"), ("", "key", "requires:key"), ("ford", "boots", "ford|requires:boots")],
    )
    def test_round_trip(self, tag, requires, name):
        assert encode_arc_tag(tag, requires) == name
        assert decode_arc_tag(name) == (tag, frozenset() if requires is None else frozenset({requires}))

    def test_bad_names(self):
        with pytest.raises(InvalidOptionError):
            encode_arc_tag("a|b")
        with pytest.raises(InvalidOptionError, match="two surface tags"):
            decode_arc_tag("a|b")


# -- CostProfile -----------------------------------------------------------------------------
class TestCostProfile:
    def test_defaults(self):
        p = CostProfile()
        assert p.name == "default" and p.multiplier("swamp") == 1.0 and p.min_multiplier() == 1.0

    @pytest.mark.parametrize("bad", [0, -1.0, math.nan, math.inf, "2", None, True])
    def test_bad_multiplier(self, bad):
        with pytest.raises(InvalidCostError, match=r"CostProfile 'tank': multipliers\['swamp'\]"):
            CostProfile("tank", {"swamp": bad})

    def test_bad_tag_sets(self):
        with pytest.raises(InvalidOptionError, match="forbidden"):
            CostProfile("x", forbidden="water")
        with pytest.raises(InvalidOptionError, match="capabilities"):
            CostProfile("x", capabilities={""})

    def test_hashable_and_equal(self):
        a = CostProfile("tank", {"swamp": 3, "road": 0.5}, forbidden={"water"})
        b = CostProfile("tank", {"road": 0.5, "swamp": 3.0}, forbidden=frozenset({"water"}))
        assert a == b and hash(a) == hash(b)
        assert {a: 1}[b] == 1
        assert a != CostProfile("tank", {"swamp": 3})

    def test_multipliers_read_only(self):
        p = CostProfile("tank", {"swamp": 3})
        with pytest.raises(TypeError):
            p.multipliers["swamp"] = 1.0

    def test_caller_dict_is_copied(self):
        mult = {"swamp": 3.0}
        p = CostProfile("tank", mult)
        mult["swamp"] = 9.0
        assert p.multiplier("swamp") == 3.0

    def test_min_multiplier(self):
        assert CostProfile("t", {"road": 0.5, "swamp": 3}).min_multiplier() == 0.5


class TestArcWeights:
    names = ("road", "swamp", "water")

    def weights(self, profile, lengths, tl, arc_tags=None, arc_names=("",)):
        m = len(lengths)
        arc_tags = np.zeros(m, dtype=np.int32) if arc_tags is None else np.asarray(arc_tags)
        return profile.arc_weights(lengths, scipy.sparse.csr_array(np.asarray(tl, float)), self.names, arc_tags, arc_names)

    def test_plain_and_terrain(self):
        tank = CostProfile("tank", {"swamp": 3.0, "road": 0.5})
        w = self.weights(tank, [10, 10, 10], [[0, 0, 0], [0, 4, 0], [2, 4, 0]])
        assert w.tolist() == [10.0, 6 + 12.0, 1 + 4 + 12.0]

    def test_forbidden_terrain(self):
        car = CostProfile("car", forbidden={"water"})
        w = self.weights(car, [10, 10], [[0, 0, 1e-3], [0, 0, 0]])
        assert w.tolist() == [math.inf, 10.0]

    def test_rounding_noise_does_not_forbid(self):
        car = CostProfile("car", forbidden={"water"})
        assert self.weights(car, [10], [[0, 0, 1e-12]]).tolist() == [10.0]

    def test_tagged_arc_uses_its_own_surface(self):
        tank = CostProfile("tank", {"bridge": 2.0, "water": 5.0})
        # An arc tagged "bridge" over water: length x bridge multiplier, water ignored.
        w = self.weights(tank, [10, 10], [[0, 0, 10], [0, 0, 10]], [1, 0], ("", "bridge"))
        assert w.tolist() == [20.0, 50.0]

    def test_forbidden_tagged_arc(self):
        p = CostProfile("p", forbidden={"ladder"})
        assert self.weights(p, [5], [[0, 0, 0]], [1], ("", "ladder")).tolist() == [math.inf]

    def test_offmesh_cost_times_tag_multiplier(self):
        p = CostProfile("p", {"teleport": 3.0})
        assert self.weights(p, [2.5], [[0, 0, 0]], [1], ("", "teleport")).tolist() == [7.5]

    def test_capabilities(self):
        names = ("", "ford|requires:wading_boots", "requires:key")
        tl = [[0, 0, 0]] * 3
        plain = CostProfile("infantry", {"ford": 2.0})
        booted = CostProfile("infantry", {"ford": 2.0}, capabilities={"wading_boots", "key"})
        assert self.weights(plain, [1, 2, 3], tl, [0, 1, 2], names).tolist() == [1.0, math.inf, math.inf]
        assert self.weights(booted, [1, 2, 3], tl, [0, 1, 2], names).tolist() == [1.0, 4.0, 3.0]

    def test_gated_untagged_arc_keeps_terrain_cost(self):
        booted = CostProfile("p", {"swamp": 2.0}, capabilities={"key"})
        assert self.weights(booted, [10], [[0, 5, 0]], [1], ("", "requires:key")).tolist() == [15.0]

    def test_dense_terrain_lengths_accepted(self):
        p = CostProfile("p", {"swamp": 2.0})
        w = p.arc_weights([4.0], np.array([[0.0, 4.0, 0.0]]), self.names, [0], ("",))
        assert w.tolist() == [8.0]

    def test_shape_errors(self):
        p = CostProfile()
        with pytest.raises(InvalidCostError, match="terrain_lengths has shape"):
            p.arc_weights([1.0, 2.0], np.zeros((1, 3)), self.names, [0, 0], ("",))
        with pytest.raises(InvalidCostError, match="arc_tags"):
            p.arc_weights([1.0], np.zeros((1, 3)), self.names, [0.5], ("",))
        with pytest.raises(InvalidCostError, match="outside"):
            p.arc_weights([1.0], np.zeros((1, 3)), self.names, [3], ("",))
        with pytest.raises(InvalidCostError, match=r"lengths\[1\]=nan"):
            p.arc_weights([1.0, math.nan], np.zeros((2, 3)), self.names, [0, 0], ("",))

    def test_end_to_end_with_layer(self):
        layer = TerrainLayer([box_region(2, -1, 6, 1, "swamp"), box_region(4, -1, 5, 1, "road")])
        a, b = np.array([[0.0, 0.0], [0.0, 5.0]]), np.array([[10.0, 0.0], [10.0, 5.0]])
        names, tl = layer.lengths(a, b)
        tank = CostProfile("tank", {"swamp": 3.0, "road": 0.5})
        w = tank.arc_weights(np.hypot(*(b - a).T), tl, names, [0, 0], ("",))
        assert w.tolist() == [6 * 1.0 + 3 * 3.0 + 1 * 0.5, 10.0]


# -- danger ----------------------------------------------------------------------------------
class TestDanger:
    def test_lengths(self):
        lens = danger_lengths([[-10, 0], [-10, 5], [0, 0], [1, 1], [5, 0]], [[10, 0], [10, 5], [1, 0], [1, 1], [2, 0]], (0, 0), 3.0)
        assert lens == pytest.approx([6.0, 0.0, 1.0, 0.0, 1.0])

    def test_add_danger_never_lowers(self):
        w = np.array([20.0, 20.0, math.inf])
        a = [[-10, 0], [-10, 9], [-10, 0]]
        b = [[10, 0], [10, 9], [10, 0]]
        out = add_danger(w, a, b, [DangerZone((0, 0), 3.0, 2.0), DangerZone((8, 0), 1.0, 1.0)])
        assert out == pytest.approx([20 + 12 + 2, 20.0, math.inf])
        assert w.tolist() == [20.0, 20.0, math.inf]  # input untouched

    @pytest.mark.parametrize(
        "kwargs, error",
        [
            ({"centre": (0, math.nan), "radius": 1.0, "extra": 1.0}, InvalidGeometryError),
            ({"centre": (0, 0), "radius": 0.0, "extra": 1.0}, InvalidGeometryError),
            ({"centre": (0, 0), "radius": 1.0, "extra": -1.0}, InvalidCostError),
            ({"centre": (0, 0), "radius": 1.0, "extra": math.nan}, InvalidCostError),
        ],
    )
    def test_bad_zone(self, kwargs, error):
        with pytest.raises(error):
            DangerZone(**kwargs)

    def test_size_mismatch(self):
        with pytest.raises(InvalidCostError, match="2 values but there are 1 arcs"):
            add_danger([1.0, 2.0], [[0, 0]], [[1, 1]], [])
