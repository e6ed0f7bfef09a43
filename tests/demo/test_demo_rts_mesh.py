"""The RTS view on the navigation mesh (key N), driven in the session's real window under Xvfb."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from demo_drive import arcade, blend, blue, click, close_to, frame, pixel, make_rts, run, screen

from demo_game.levels.generate import BRIDGE_GATE
from demo_game.units import INFANTRY, SCOUT, TANK
from demo_game.views.rts import HELP, MESH_EDGE, MESH_FILL

import navmesh

RIGHT = arcade.MOUSE_BUTTON_RIGHT




def test_n_routes_the_units_on_the_mesh_and_they_complete_an_order(window: Any, screenshot_dir: Any) -> None:
    view = make_rts(window, seed=3)
    assert any(key == "N" for key, _ in HELP)
    view.on_key_press(arcade.key.N, 0)
    assert view.on_mesh and view.army.mesh is view.mesh
    assert view.army.motion == "straight"  # the crowd has no mesh mode
    mesh = view.mesh
    assert mesh.level.obstacles == view.army.navmap.level.obstacles
    ids = np.concatenate([blue(view, INFANTRY), blue(view, TANK), blue(view, SCOUT)])
    view.select(ids)
    view.camera.zoom = 0.45
    view.camera.position = (1000.0, 1000.0)
    goal = np.array([1450.0, 960.0])
    click(view, screen(view, goal), RIGHT)
    assert view.army.busy[ids].all()
    corners = {tuple(v) for v in mesh.vertices.tolist()}
    for i in ids.tolist():
        path = view.army.path_of(i)
        # mesh paths turn only at mesh vertices (the waypoint graph's turns are its waypoints)
        assert all(tuple(p) in corners for p in path.points[1:-1].tolist()), f"unit {i} is not on a mesh path"
        query = navmesh.MeshQuery(mesh, view.army.kind_of(i).profile)
        if query.polygon_at(path.points[0]) >= 0:
            assert path.cost == query.find_path(path.points[0], path.points[-1]).cost
    run(view, 120)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_rts_mesh.png")
    frames = run(view, 3600, until=lambda: not view.army.moving[ids].any())
    assert frames < 3600, "the units did not complete the order on the mesh"
    assert np.hypot(*(view.army.positions[ids] - goal).T).max() < 200
    assert not view.army.busy[ids].any()
    # and back to the waypoint graph
    view.on_key_press(arcade.key.N, 0)
    assert not view.on_mesh and view.army.mesh is None


def test_the_mesh_overlay_is_drawn_only_on_the_mesh(window: Any) -> None:
    view = make_rts(window, seed=0)
    view.camera.zoom = 1.0
    view.camera.position = (1000.0, 300.0)  # open ground, no units
    before = frame(window, view)
    view.on_key_press(arcade.key.N, 0)
    mesh = view.mesh
    on = frame(window, view)
    # a long inner edge on screen, in plain ground, and the middle of its polygon
    w, h = window.get_size()
    nxt = np.arange(1, len(mesh.indices) + 1)
    nxt[mesh.indptr[1:] - 1] = mesh.indptr[:-1]
    a, b = mesh.vertices[mesh.indices], mesh.vertices[mesh.indices[nxt]]
    mid = (a + b) / 2
    px = np.array([screen(view, m) for m in mid])
    ok = (mesh.neighbours >= 0) & (mesh.tags[mesh.polygon_of] == 0) & (np.hypot(*(b - a).T) > 60)
    ok &= (px[:, 0] > 20) & (px[:, 0] < w - 300) & (px[:, 1] > 20) & (px[:, 1] < h - 80)
    e = int(np.flatnonzero(ok)[0])
    x, y = px[e]
    # polymesh_shapes draws an inner edge once from each of its two polygons
    twice = blend(MESH_EDGE, blend(MESH_EDGE, blend(MESH_FILL, pixel(before, x, y))))
    assert close_to(pixel(on, x, y), twice, tol=8)
    p = int(mesh.polygon_of[e])
    inside = shapely.Polygon(mesh.polygon_points(p)).representative_point()
    cx, cy = screen(view, inside.coords[0])
    if 0 < cx < w - 300 and 80 < cy < h - 80:
        assert close_to(pixel(on, cx, cy), blend(MESH_FILL, pixel(before, cx, cy)))
    view.on_key_press(arcade.key.N, 0)
    off = frame(window, view)
    assert pixel(off, x, y) == pixel(before, x, y)


def test_the_bridge_updates_the_mesh_locally_and_mesh_units_re_plan(window: Any) -> None:
    view = make_rts(window, seed=0)
    view.on_key_press(arcade.key.N, 0)
    infantry = blue(view, INFANTRY)
    view.select(infantry)
    goal = np.array([2450.0, 1420.0])
    view.order(goal)
    run(view, 200)
    gate = shapely.box(*BRIDGE_GATE)
    crossing = [i for i in infantry.tolist() if shapely.LineString(view.army.route_of(i)).intersects(gate)]
    assert crossing, "some infantry should head for the bridge"
    old = view.mesh
    view.on_key_press(arcade.key.B, 0)
    assert view.army.mesh is view.mesh and view.mesh is not old
    assert len(view.mesh.level.obstacles) == len(old.level.obstacles) + 1
    assert set(view.replanned) >= set(crossing)
    for i in crossing:
        assert not shapely.LineString(view.army.route_of(i)).intersects(gate), f"unit {i} still plans over the bridge"
    # M keeps to the motions that can use the mesh
    for expected in ("hermite", "straight"):
        view.on_key_press(arcade.key.M, 0)
        assert view.army.motion == expected
    view.on_key_press(arcade.key.B, 0)
    assert len(view.mesh.level.obstacles) == len(old.level.obstacles)
    assert abs(view.mesh.areas().sum() - old.areas().sum()) <= 1e-9 * old.areas().sum()
