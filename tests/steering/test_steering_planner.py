"""The crowd's route planner: route trees against scipy's Dijkstra, joins against brute force."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph

import navmesh
from navmesh.steering import Walls
from navmesh.steering.planner import RoutePlanner
from navmesh.steering.routes import RouteBlock, RouteTable

SWAMP = [(14, 2), (20, 2), (20, 9), (14, 9)]


@pytest.fixture(scope="module")
def level():
    obstacles = [[(6, 0), (8, 0), (8, 10), (6, 10)], [(12, 14), (24, 14), (24, 16), (12, 16)], [(28, 4), (30, 4), (30, 22), (28, 22)]]
    return navmesh.Level.rectangle(36, 24, obstacles=obstacles, terrain=[(SWAMP, "swamp")])


@pytest.mark.parametrize("profile", [None, navmesh.CostProfile("tank", {"swamp": 3.0})])
def test_a_route_tree_holds_scipys_costs_to_the_goal_and_follows_them(level, profile):
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.4, k=8)
    planner = RoutePlanner(nav)
    planner.walls = Walls(nav, [0.4], [profile])
    planner.prepare(profile, 0)
    goal = np.array([33.0, 12.0])
    block = planner.tree(goal, profile, 0)
    n = nav.graph.n_nodes
    # oracle: scipy on the graph's arcs plus an arc from each node in sight of the goal
    w = np.asarray(nav.weights(profile).values)
    src = np.repeat(np.arange(n), np.diff(nav.graph.indptr))
    pts = np.asarray(nav.graph.points)[:, :2]
    sees = planner.walls.sees(np.repeat(goal[None], n, axis=0), pts, 0)
    _, near = planner.node_tree().query(goal, k=16)
    exits = np.intersect1d(near, np.flatnonzero(sees))
    rows = np.concatenate([src, exits])
    cols = np.concatenate([nav.graph.indices, np.full(len(exits), n)])
    data = np.concatenate([w, np.hypot(*(pts[exits] - goal).T)])
    keep = np.isfinite(data)
    g = scipy.sparse.coo_array((np.maximum(data[keep], 1e-300), (rows[keep], cols[keep])), shape=(n + 1, n + 1)).tocsr()
    oracle = scipy.sparse.csgraph.dijkstra(g.T.tocsr(), indices=n)  # cost from every node to the goal
    np.testing.assert_allclose(block.dist[:n], oracle[:n], rtol=1e-9)
    # following next hops from any reached node adds up to its cost
    reached = np.flatnonzero(np.isfinite(block.dist[:n]))
    assert len(reached) > 0.9 * n
    arc = {}
    for a, b, c in zip(rows[keep].tolist(), cols[keep].tolist(), data[keep].tolist()):
        arc[a, b] = min(c, arc.get((a, b), np.inf))
    for u in reached.tolist():
        v = int(block.nxt[u])
        assert block.dist[u] == pytest.approx(arc[u, v] + block.dist[v], rel=1e-9, abs=1e-9)


def test_units_join_the_cheapest_route_row_in_sight(level):
    nav = navmesh.build_waypoint_graph(level, corners=True, agent_radius=0.4, k=8)
    planner = RoutePlanner(nav)
    planner.walls = Walls(nav, [0.4])
    planner.prepare(None, 0)
    goal = np.array([33.0, 12.0])
    block = planner.tree(goal, None, 0)
    rng = np.random.default_rng(3)
    pos = rng.uniform([0, 0], [27, 24], (400, 2))
    pos = pos[planner.walls.walkable(pos, 0)]
    first, cost = planner.enter(block, pos, 0)
    # brute force over the 8 nearest rows: cheapest (distance + route cost) among those in sight
    d, near = planner.node_tree().query(pos, k=8)
    for i in range(len(pos)):
        vis = planner.walls.shortcut(np.repeat(pos[i][None], 8, axis=0), block.xy[near[i]], 0)
        total = np.where(vis, d[i] + block.dist[near[i]], np.inf)
        straight = np.hypot(*(pos[i] - goal))
        if straight <= cost[i] and planner.walls.shortcut(pos[i][None], goal[None], 0)[0]:
            assert first[i] == len(block.xy) - 1
        elif np.isfinite(total).any():
            assert cost[i] == pytest.approx(total.min())
            assert total[list(near[i]).index(first[i])] == pytest.approx(total.min())


def test_the_route_table_grows_in_place_and_repacks_live_blocks():
    table = RouteTable()
    blocks = {}
    cur = np.full(3, -1, np.int64)
    for k in range(3):
        b = RouteBlock(np.full((5 + k, 2), float(k)), np.append(np.arange(1, 5 + k), -1), np.arange(5 + k, 0, -1.0), np.zeros(2), np.ones(5 + k))
        blocks[k] = b
        table.append(k, b, cur, blocks.items())
        cur[k] = table.base[k] + 1
    assert table.length == 5 + 6 + 7 and len(table.xy) >= table.length
    assert table.rows_from(table.base[2]) == list(range(table.base[2], table.base[2] + 7))
    del blocks[1]
    table.dirty = True
    table.rebuild(blocks.items(), cur)
    assert table.length == 12 and cur.tolist() == [1, -1, 6]
    assert (table.xy[cur[2]] == 2.0).all() and table.next[11] == -1
