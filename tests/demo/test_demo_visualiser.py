"""The search visualiser: every algorithm animates to its end and shows the library's answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph
from demo_drive import arcade, click, frame, pixel, run, screen

import navmesh
from demo_game.views.visualiser import (
    ALGORITHMS,
    GOAL_COLOR,
    START_COLOR,
    VisualiserView,
)

KEYS = (arcade.key.KEY_1, arcade.key.KEY_2, arcade.key.KEY_3, arcade.key.KEY_4, arcade.key.KEY_5)


@pytest.fixture(scope="module")
def view(window: Any) -> VisualiserView:
    v = VisualiserView(window)
    window.show_view(v)
    return v


def csgraph(graph: navmesh.NavGraph, weights: np.ndarray) -> scipy.sparse.csr_array:
    """The graph's finite-weight arcs as a scipy matrix (the cheapest of parallel arcs)."""
    src = np.repeat(np.arange(graph.n_nodes), np.diff(graph.indptr))
    ok = np.isfinite(weights)
    key = src[ok].astype(np.int64) * graph.n_nodes + graph.indices[ok]
    order = np.lexsort((weights[ok], key))
    first = np.unique(key[order], return_index=True)[1]
    pick = order[first]
    return scipy.sparse.csr_array((weights[ok][pick], (src[ok][pick], graph.indices[ok][pick])),
                                  shape=(graph.n_nodes,) * 2)


def test_clicks_set_start_and_goal_at_the_nearest_visible_waypoint(view: VisualiserView) -> None:
    start, goal = np.array([420.0, 300.0]), np.array([2900.0, 1750.0])
    click(view, screen(view, start), arcade.MOUSE_BUTTON_LEFT)
    click(view, screen(view, goal), arcade.MOUSE_BUTTON_RIGHT)
    pts = view.graph.points
    for node, p in ((view.start, start), (view.goal, goal)):
        seen = view.navmap.visible(np.repeat(p[None], len(pts), axis=0), pts)
        d = np.hypot(*(pts - p).T)
        assert d[node] == pytest.approx(d[seen].min(), abs=1e-9)


@pytest.mark.parametrize("index", range(len(ALGORITHMS)))
def test_every_algorithm_runs_to_completion_with_the_librarys_cost(view: VisualiserView, index: int) -> None:
    name = ALGORITHMS[index]
    view.set_endpoints((260.0, 700.0), (2750.0, 1050.0))
    view.on_key_press(KEYS[index], 0)
    assert view.algorithm == name and view.step_pos == 0
    view.speed = 60.0  # the view is shared: start from the default speed
    for _ in range(4):
        view.on_key_press(arcade.key.UP, 0)  # 16x faster
    frames = run(view, 5000, until=lambda: view.finished)
    # 16 steps a frame: the animation runs through the whole trace, it does not jump to the end
    assert view.finished and len(view.result.trace.expanded) // 16 <= frames < 5000
    r = view.result
    g, s, t, w = view.graph, view.start, view.goal, view.weights
    assert r.path is not None and r.path.nodes[0] == s and r.path.nodes[-1] == t
    assert view.step_pos == len(r.trace.expanded) == r.expansions > 1  # animated, not shown at once
    assert r.trace.path is r.path
    if name != "bellman_ford":
        assert r.trace.expanded[-1] == t  # the goal is the last node taken off the open list (or stepped onto)
    # Independent answer: scipy's Dijkstra on the same arc weights (and hop counts for BFS).
    weights = np.asarray(w.values, dtype=float)
    dist = scipy.sparse.csgraph.dijkstra(csgraph(g, weights), indices=s)[t]
    hops = scipy.sparse.csgraph.shortest_path(csgraph(g, np.ones(g.n_edges)), indices=s, unweighted=True)[t]
    if name in ("astar", "dijkstra", "bellman_ford"):
        assert r.cost == pytest.approx(dist, rel=1e-9)
        assert r.cost == pytest.approx(navmesh.dijkstra(g, s, t, weights=w).cost, rel=1e-12)
    elif name == "bfs":
        assert r.hops == hops == navmesh.bfs(g, s, t).cost
        assert r.cost >= dist - 1e-9
    else:
        library = navmesh.dfs(g, s, t, weights=w)
        assert r.cost == library.cost and r.path.nodes.tolist() == library.nodes.tolist()
        assert r.expansions == library.expansions  # DFS steps onto one node per animation step
        assert r.cost >= dist - 1e-9
    if name == "bellman_ford":
        tree = navmesh.bellman_ford(g, s, weights=w)
        assert r.cost == tree.cost[t] and r.path.nodes.tolist() == tree.path_to(t).nodes.tolist()
        assert set(r.trace.expanded.tolist()) == set(np.flatnonzero(np.isfinite(tree.cost)).tolist())
    arcs = [g.arc(int(a), int(b)) for a, b in zip(r.path.nodes[:-1], r.path.nodes[1:])]
    assert min(arcs) >= 0  # every step of the path is an arc of the graph


def test_pause_single_step_and_screenshot(window: Any, screenshot_dir: Any) -> None:
    view = VisualiserView(window)
    window.show_view(view)
    view.on_key_press(arcade.key.KEY_3, 0)  # Dijkstra
    view.on_key_press(arcade.key.SPACE, 0)
    run(view, 30)
    assert view.paused and view.step_pos == 0
    view.on_key_press(arcade.key.N, 0)
    view.on_key_press(arcade.key.N, 0)
    assert view.step_pos == 2
    view.on_key_press(arcade.key.SPACE, 0)
    run(view, 120)  # 2 s at 60 expansions per second
    assert view.step_pos == pytest.approx(122, abs=1)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_visualiser.png")
    pts = view.graph.points
    for node, color in ((view.start, START_COLOR), (view.goal, GOAL_COLOR)):
        assert pixel(image, *screen(view, pts[node])) == color[:3]


def test_the_searched_graph_is_the_infantrys_open_arcs_with_their_weights(view: VisualiserView) -> None:
    full = view.navmap.graph
    w = np.asarray(view.navmap.weights(view.query.profile).values)
    g, sub = view.graph, np.asarray(view.weights.values)
    assert g.n_edges == int(np.isfinite(w).sum())
    src = np.repeat(np.arange(g.n_nodes), np.diff(g.indptr))
    for k in np.random.default_rng(0).choice(g.n_edges, 200, replace=False):
        assert sub[k] == w[full.arc(int(src[k]), int(g.indices[k]))]


@pytest.mark.parametrize("name", ["dfs", "bellman_ford"])
def test_dfs_and_bellman_ford_grow_step_by_step_on_screen(window: Any, screenshot_dir: Any, name: str) -> None:
    view = VisualiserView(window)
    window.show_view(view)
    view.on_key_press(KEYS[ALGORITHMS.index(name)], 0)
    run(view, 60)  # 1 s at 60 steps per second
    assert view.step_pos == pytest.approx(60, abs=1) and not view.finished
    image = frame(window, view)
    image.save(screenshot_dir / f"demo_visualiser_{name}.png")
    expanded = view.result.trace.expanded.tolist()
    ends = (view.start, view.goal)
    shown, later = expanded[30], next(v for v in reversed(expanded) if v not in expanded[:80] + list(ends))
    pts = view.graph.points
    red = [pixel(image, *screen(view, pts[v])) for v in (shown, later)]
    assert red[0][0] > red[0][1] + 80  # an expanded node is drawn red
    assert not red[1][0] > red[1][1] + 80  # a node the search has not reached yet is not


def test_the_map_is_drawn_clear_of_the_title_bar_and_the_table(window: Any, screenshot_dir: Any) -> None:
    v = VisualiserView(window)
    w, h = window.width, window.height
    left, bottom, width, height = v.table_rect()
    assert left + width <= w and bottom >= 0
    x0, y0, x1, y1 = v.level.bounds.bounds
    corners = np.array([screen(v, p) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))])
    nodes = np.array([screen(v, p) for p in v.graph.points])
    for pts in (corners, nodes):
        assert (pts[:, 0] >= 0).all() and (pts[:, 0] <= w).all()
        assert (pts[:, 1] >= 0).all() and (pts[:, 1] <= h - 62).all()  # below the title bar
        in_table = (pts[:, 0] >= left) & (pts[:, 0] <= left + width) & (pts[:, 1] >= bottom) & (pts[:, 1] <= bottom + height)
        assert not in_table.any()
    # the map's whole rectangle misses the table: it is left of it or below it
    assert corners[:, 0].max() < left or corners[:, 1].max() < bottom
    frame(window, v).save(screenshot_dir / "demo_visualiser_layout.png")
