"""NavGraph construction, validation and conversion."""

from __future__ import annotations

import numpy as np
import pytest

from navmesh import InvalidCostError, InvalidGeometryError, InvalidOptionError, NavGraph, NodeNotFoundError


def square() -> NavGraph:
    return NavGraph.from_edges([[0, 0], [4, 0], [4, 3], [0, 3]], [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])


def test_undirected_edges_become_two_arcs_with_euclidean_lengths():
    g = square()
    assert (g.n_nodes, g.n_edges, g.dim) == (4, 10, 2)
    assert g.lengths[g.arc(0, 2)] == 5.0 and g.lengths[g.arc(2, 0)] == 5.0
    assert g.lengths[g.arc(0, 1)] == 4.0
    assert sorted(g.neighbors(0).tolist()) == [1, 2, 3]


def test_directed_edges_stay_one_way():
    g = NavGraph.from_edges([[0, 0], [1, 0]], [(0, 1)], directed=True)
    assert g.arc(0, 1) == 0 and g.arc(1, 0) == -1
    assert g.out_degree().tolist() == [1, 0] and g.in_degree().tolist() == [0, 1]


def test_three_dimensional_points_give_3d_lengths():
    g = NavGraph.from_edges([[0, 0, 0], [1, 2, 2]], [(0, 1)])
    assert g.dim == 3 and g.lengths.tolist() == [3.0, 3.0]


def test_arrays_are_read_only_and_copy_is_free():
    g = square()
    for arr in (g.points, g.indptr, g.indices, g.lengths, g.tags, g.arc_sources):
        with pytest.raises(ValueError):
            arr[0] = 0
    assert g.copy() is g


def test_to_scipy_keeps_cheapest_parallel_arc_and_drops_closed_arcs():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (0, 1), (1, 2)], lengths=[5.0, 2.0, 1.0], directed=True)
    w = g.lengths.copy()
    w[g.arc(1, 2)] = np.inf
    m = g.to_scipy(w).toarray()
    assert m[0, 1] == 2.0 and m[1, 2] == 0.0 and g.to_scipy().toarray()[1, 2] == 1.0


def test_from_scipy_round_trip():
    g = square()
    again = NavGraph.from_scipy(g.points, g.to_scipy())
    np.testing.assert_array_equal(again.to_scipy().toarray(), g.to_scipy().toarray())


def test_tags_are_kept_per_arc():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)], tags=[0, 1], tag_names=("", "road"))
    assert g.tags[g.arc(1, 2)] == 1 and g.tags[g.arc(2, 1)] == 1 and g.tags[g.arc(0, 1)] == 0


@pytest.mark.parametrize(
    "points, edges, error, words",
    [
        ([[0, 0], [np.nan, 1]], [(0, 1)], InvalidGeometryError, "points[1]"),
        ([[0, 0, 0, 0]], [], InvalidGeometryError, "shape"),
        ([[0, 0], [1, 1]], [(0, 2)], NodeNotFoundError, "node 2"),
        ([[0, 0], [1, 1]], [(0, 1, 2)], InvalidGeometryError, "edges"),
    ],
)
def test_bad_construction_names_the_problem(points, edges, error, words):
    with pytest.raises(error, match=words.replace("[", r"\[")):
        NavGraph.from_edges(points, edges)


def test_bad_tags_are_rejected():
    with pytest.raises(InvalidOptionError, match="tag"):
        NavGraph.from_edges([[0, 0], [1, 0]], [(0, 1)], tags=[3], tag_names=("", "road"))


@pytest.mark.parametrize("bad", [[1.0, np.nan], [1.0, -1.0], [1.0], [1.0, -np.inf]])
def test_weights_reject_nan_negative_and_wrong_length(bad):
    g = NavGraph.from_edges([[0, 0], [1, 0]], [(0, 1)])
    with pytest.raises(InvalidCostError, match="weights"):
        g.weights(bad)


def test_negative_weights_only_on_request():
    g = NavGraph.from_edges([[0, 0], [1, 0]], [(0, 1)])
    w = g.weights([1.0, -1.0], allow_negative=True)
    assert w.has_negative


def test_heuristic_scale_follows_cheapest_arc_ratio():
    g = NavGraph.from_edges([[0, 0], [10, 0], [10, 10]], [(0, 1), (1, 2)])
    road = g.lengths.copy()
    road[g.arc(0, 1)] = road[g.arc(1, 0)] = 5.0  # a road at half cost
    w = g.weights(road)
    assert w.heuristic_scale("euclidean") == 0.5
    assert g.default_weights.heuristic_scale("euclidean") == 1.0
    assert g.default_weights.heuristic_scale("zero") == 0.0
    with pytest.raises(InvalidOptionError, match="heuristic='bogus'"):
        w.heuristic_scale("bogus")
