"""The query kernels against brute-force answers: the joins' ring-by-ring candidate order (a
hand-written stable sort), and Theta*'s memory of refused parents across queries."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from navmesh._kernels import anyangle as AK
from navmesh.level import Level
from navmesh.waypoints.build import build_waypoint_graph
from navmesh.waypoints.linking import wall_grid_for
from navmesh.waypoints.query import NavQuery


@pytest.fixture(scope="module")
def crowded():
    """2,000 random points around four boxes: bucket rings hold far more than 16 candidates, so
    the join's sort runs its merges, and many candidates are hidden."""
    boxes = [shapely.box(20, 20, 35, 28), shapely.box(60, 50, 64, 90), shapely.box(40, 60, 55, 62),
             shapely.box(75, 10, 90, 30)]
    level = Level.rectangle(100, 100, obstacles=boxes)
    los = level.line_of_sight()
    rng = np.random.default_rng(5)
    pts = rng.uniform(0, 100, (3000, 2))
    pts = np.ascontiguousarray(pts[los.walkable(pts)][:2000])
    queries = rng.uniform(0, 100, (60, 2))
    queries = np.ascontiguousarray(queries[los.walkable(queries)])
    return los, pts, queries


@pytest.mark.parametrize("near", [1, 17, 100, 700])
def test_joins_are_the_visible_ones_among_the_nearest_in_distance_order(crowded, near):
    los, pts, queries = crowded
    m = len(pts)
    blocked = np.zeros(m, bool)
    blocked[::97] = True  # blocked points are never joined, nor counted among the nearest
    walls = wall_grid_for(los)
    scratch = (np.zeros(1, bool), np.empty(m), np.empty(m, np.int64), np.empty(m), np.empty(m, np.int64))
    free = np.full(len(queries), -1, np.int64)
    counts, picked, dist = AK.join_positions(queries.reshape(-1), free, pts, blocked, np.zeros((m, 4)), np.zeros(m, bool), 0, near,
                                             0, np.inf, *AK.bucket_grid(pts)[:3], *scratch, *walls)
    at = 0
    for q, c in zip(queries, counts):
        got, got_d = picked[at:at + c], dist[at:at + c]
        at += c
        d = np.sqrt((pts[:, 0] - q[0]) ** 2 + (pts[:, 1] - q[1]) ** 2)  # as the kernel computes it
        d[blocked] = np.inf
        nearest = np.argsort(d, kind="stable")[:near]  # random points: no ties
        seen = nearest[~los.blocked(np.repeat(q[None], len(nearest), axis=0), pts[nearest])]
        if len(seen) == 0:  # none of them visible: it searches on (every visible point, however far)
            free = np.flatnonzero(~blocked)
            seen = free[~los.blocked(np.repeat(q[None], len(free), axis=0), pts[free])]
            seen = seen[np.argsort(d[seen], kind="stable")]
        assert got.tolist() == seen.tolist()  # the same points, nearest first
        np.testing.assert_allclose(got_d, d[seen], rtol=1e-15, atol=0)  # an ulp apart without the JIT
    assert at == len(picked)


def test_a_query_object_answers_as_a_fresh_one_whatever_it_answered_before():
    """Theta* remembers per node the ancestor it refused as a parent (siblings would ask again);
    that memory must not leak into the next query, whose start row stands elsewhere."""
    blocked = np.random.default_rng(11).random((40, 40)) < 0.12
    obstacles = [shapely.box(c, r, c + 1, r + 1) for r, c in np.argwhere(blocked)]
    level = Level.rectangle(40, 40, obstacles=[shapely.union_all(obstacles)])
    nav = build_waypoint_graph(level, k=8, corners=True, linking="cones")
    free = np.argwhere(~blocked)[:, ::-1] + 0.5
    rng = np.random.default_rng(12)
    pairs = free[rng.integers(len(free), size=(40, 2))]
    used = NavQuery(nav)
    for (s, g), (s2, g2) in zip(pairs[:-1], pairs[1:]):
        used.find_path(s.tolist(), g.tolist(), allow_partial=True)
        again = used.find_path(s2.tolist(), g.tolist(), allow_partial=True)  # the goal stays, the start moves
        fresh = NavQuery(nav).find_path(s2.tolist(), g.tolist(), allow_partial=True)
        assert again.cost == fresh.cost
        np.testing.assert_array_equal(again.points, fresh.points)


def test_a_new_search_leaves_no_trace_of_the_last_search():
    """What a search writes into a workspace (costs, parents, closed marks, refused parents,
    exits) is cleared when the next search begins (a sliced search begun, no expansions) for
    exactly the nodes it touched: the workspace is then a fresh one with only the new start pushed."""
    blocked = np.random.default_rng(11).random((30, 30)) < 0.15
    obstacles = [shapely.box(c, r, c + 1, r + 1) for r, c in np.argwhere(blocked)]
    nav = build_waypoint_graph(Level.rectangle(30, 30, obstacles=[shapely.union_all(obstacles)]), k=8, corners=True,
                               linking="cones")
    query = NavQuery(nav)
    free = np.argwhere(~blocked)[:, ::-1] + 0.5
    refused_any = False
    for s, g in free[np.random.default_rng(3).integers(len(free), size=(12, 2))]:
        query.find_path(s.tolist(), g.tolist(), allow_partial=True)
        ws = query._pool.main(1)
        refused_any |= bool((ws[11] >= 0).any())
        csr = query._csr
        none_i, none_f, ptr = np.empty(0, np.int32), np.empty(0), np.zeros(2, np.int64)
        ep, base = query._endpoints, query._costs.base
        # one query that must search (straight walk inf > bound 0), begun with a slice budget < 0
        _, _, info = AK.solve_batch(*csr, base.weights, ep.xy, base.mult, ep.floor, ws, base.los,
                                    np.array([[*s, *g]]), np.ones((1, 2)), np.zeros((1, 2), np.int64), ptr, none_i,
                                    none_f, ptr, none_i, none_f, np.full(1, np.inf), np.zeros(1), 1.0, 0, 1, False,
                                    False, -1, True, False, ep.floors[0].kernel_arrays, ep.join_k, ep.floors[0].near,
                                    ep.cone_width)
        assert info[AK.INFO_STATUS] == AK.RUNNING
        fresh = AK.workspace(nav.n_nodes, nav.graph.n_edges)
        n = nav.n_nodes
        for i in (1, 2, 4, 11):  # parent, closed, exit_cost, refused
            np.testing.assert_array_equal(ws[i], fresh[i])
        np.testing.assert_array_equal(ws[0][:n], fresh[0][:n])  # g: only the start row is set
        assert ws[0][n] == 0.0 and ws[8][AK.ST_SIZE] == 1 and ws[8][AK.ST_TOUCHED] == 1
    assert refused_any  # the searches did refuse shortcuts, so the check above had work to do
