"""Connectivity report on small hand-made graphs."""

from __future__ import annotations

import navmesh
import navmesh.connectivity
from navmesh import NavGraph


def test_islands_sinks_sources_and_unreachable():
    # 0 -> 1 -> 2 (one-way), 2 <-> 3, and an island 4 <-> 5, and a lonely node 6
    pts = [[i, 0] for i in range(7)]
    g = NavGraph.from_edges(pts, [(0, 1), (1, 2), (2, 3), (3, 2), (4, 5), (5, 4)], directed=True)
    r = navmesh.connectivity_report(g, origin=1)
    assert r.n_islands == 3
    assert r.components[0] == r.components[3] != r.components[4]
    assert r.isolated.tolist() == [6]
    assert r.sources.tolist() == [0] and r.sinks.tolist() == []
    assert r.unreachable.tolist() == [0, 4, 5, 6]
    assert r.one_way_traps.tolist() == [0, 1, 2, 3]  # 2 and 3 cannot get back to 0 or 1
    assert r.blocked.size == 0 and not r.ok
    assert len(set(r.strong_components[[2, 3]].tolist())) == 1
    assert r.strong_components[0] != r.strong_components[1]


def test_undirected_graph_has_no_traps():
    g = NavGraph.from_edges([[0, 0], [1, 0], [2, 0]], [(0, 1), (1, 2)])
    r = navmesh.connectivity_report(g)
    assert r.one_way_traps.size == 0 and r.n_islands == 1 and r.unreachable.size == 0 and r.ok
    assert navmesh.connectivity.connected_components(g).tolist() == [0, 0, 0]
