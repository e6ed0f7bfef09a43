"""The RTS view driven by simulated mouse and key events in the session's hidden window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from demo_drive import arcade, blend, blue, click, close_to, drag, frame, pixel, make_rts, run, screen

from demo_game.levels.generate import BRIDGE_GATE, FORD
from demo_game.units import INFANTRY, TANK, UNIT_TYPES
from demo_game.views.base import PANEL
from demo_game.views.rts import (
    GRAPH_NODE,
    QUEUE_COLOR,
    RING_SCALE,
    ROUTE_COLOR,
    TERRAIN_COLORS,
    RtsView,
)

LEFT, RIGHT = arcade.MOUSE_BUTTON_LEFT, arcade.MOUSE_BUTTON_RIGHT
MOTIONS = ["straight", "hermite", "crowd"]




def box_around(view: RtsView, ids: np.ndarray, margin: float = 20.0) -> tuple[tuple[float, float], ...]:
    pts = view.army.positions[ids]
    lo, hi = pts.min(axis=0) - margin, pts.max(axis=0) + margin
    return screen(view, lo), screen(view, hi)


def region(view: RtsView, tag: str) -> shapely.Geometry:
    return shapely.union_all([r.polygon for r in view.level.terrain if r.tag == tag])


@pytest.mark.parametrize("motion", MOTIONS)
def test_box_selection_and_right_click_bring_units_to_the_goal(window: Any, motion: str) -> None:
    view = make_rts(window, seed=3, motion=motion)
    view.camera.zoom = 0.5
    view.camera.position = (700.0, 1000.0)
    infantry = blue(view, INFANTRY)
    a, b = box_around(view, infantry)
    # Only the infantry lies in the box: tanks and scouts spawn 210 units south and north of it.
    others = np.setdiff1d(np.flatnonzero(view.army.teams == 0), infantry)
    lo, hi = np.minimum(view.world_point(*a), view.world_point(*b)), np.maximum(view.world_point(*a), view.world_point(*b))
    assert not ((view.army.positions[others] >= lo) & (view.army.positions[others] <= hi)).all(axis=1).any()

    drag(view, a, b)
    assert view.selected.tolist() == infantry.tolist()
    goal = np.array([1150.0, 1560.0])
    click(view, screen(view, goal), RIGHT)
    assert view.army.busy[infantry].all()
    # The goal area: a disc around the clicked point that holds the formation (18 units).
    def spread() -> np.ndarray:
        return np.hypot(*(view.army.positions[infantry] - goal).T)

    frames = run(view, 1800, until=lambda: spread().max() < 110.0)
    assert frames < 1800, f"after 30 s of game time a unit is still {spread().max():.0f} units from the goal"
    # Nobody else moved.
    assert not view.army.busy[np.flatnonzero(view.army.teams == 1)].any()


def test_click_selects_one_unit_and_shift_click_adds(window: Any) -> None:
    view = make_rts(window, seed=0)
    tanks = blue(view, TANK)
    click(view, screen(view, view.army.positions[tanks[0]]), LEFT)
    assert view.selected.tolist() == [tanks[0]]
    click(view, screen(view, view.army.positions[tanks[1]]), LEFT, modifiers=arcade.key.MOD_SHIFT)
    assert view.selected.tolist() == sorted(tanks[:2].tolist())
    click(view, screen(view, (1200.0, 1700.0)), LEFT)  # empty ground clears the selection
    assert len(view.selected) == 0


def _walk(view: RtsView, ids: np.ndarray, frames: int) -> list[np.ndarray]:
    """Trajectories of ``ids`` over up to ``frames`` updates (until they stop)."""
    tracks = [[view.army.positions[i].copy()] for i in ids]
    for _ in range(frames):
        view.on_update(1 / 60)
        for t, i in zip(tracks, ids):
            t.append(view.army.positions[i].copy())
        if not view.army.moving[ids].any():
            break
    return [np.array(t) for t in tracks]


@pytest.mark.parametrize("motion", ["straight", "hermite", "crowd"])
def test_a_tank_ordered_across_the_swamp_takes_the_road(window: Any, motion: str) -> None:
    view = make_rts(window, seed=0, motion=motion)
    tank = blue(view, TANK)[:1]
    view.select(tank)
    start, goal = view.army.positions[tank[0]].copy(), np.array([1420.0, 760.0])
    swamp, road = region(view, "swamp"), region(view, "road")
    straight = shapely.LineString([start, goal])
    assert straight.intersection(swamp).length > 500  # the direct way is mostly swamp
    click(view, screen(view, goal), RIGHT)
    (track,) = _walk(view, tank, 3000)
    assert np.hypot(*(track[-1] - goal)) < 40
    line = shapely.LineString(track)
    assert line.intersection(swamp).length < 0.03 * line.length
    assert line.intersection(road).length > 400


@pytest.mark.parametrize("motion", ["straight", "crowd"])
def test_raising_the_bridge_replans_the_units_crossing_it(window: Any, motion: str) -> None:
    view = make_rts(window, seed=0, motion=motion)
    infantry = blue(view, INFANTRY)
    view.select(infantry)
    goal = np.array([2450.0, 1420.0])
    view.order(goal)
    run(view, 200)
    gate = shapely.box(*BRIDGE_GATE)
    crossing = [i for i in infantry.tolist() if shapely.LineString(view.army.route_of(i)).intersects(gate)]
    assert len(crossing) >= len(infantry) // 2, "the infantry should head for the bridge first"

    view.on_key_press(arcade.key.B, 0)
    assert view.bridge_raised
    assert set(view.replanned) >= set(crossing)
    run(view, 5)  # the crowd plans new routes within its search budget per update
    for i in crossing:
        route = view.army.route_of(i)
        assert len(route) >= 2, f"unit {i} has no route"
        assert not shapely.LineString(route).intersects(gate), f"unit {i} still plans over the raised bridge"
    tracks = _walk(view, infantry, 4000)
    # The crowd's separation may push a unit a little off the ford's waypoints, so "by the ford"
    # means within 60 units of it (the bridge is 900 units north).
    ford = shapely.box(*FORD).buffer(60.0)
    for i, track in zip(infantry.tolist(), tracks):
        assert np.hypot(*(track[-1] - goal)) < 130, f"unit {i} did not get there"
        if i in crossing:
            assert shapely.LineString(track).intersects(ford), f"unit {i} did not cross by the ford"
            assert not shapely.LineString(track).intersects(gate)


def test_lowering_the_bridge_again_restores_the_map(window: Any) -> None:
    view = make_rts(window, seed=0)
    before = view.army.navmap
    ends = np.array([[[1640.0, 1400.0]], [[1880.0, 1400.0]]])  # the bridge's two ends
    assert before.visible(ends[0], ends[1]).all()
    view.on_key_press(arcade.key.B, 0)
    assert not view.army.navmap.visible(ends[0], ends[1]).any()
    view.on_key_press(arcade.key.B, 0)
    after = view.army.navmap
    assert not view.bridge_raised and after.visible(ends[0], ends[1]).all()
    assert after.graph.n_nodes == before.graph.n_nodes and after.graph.n_edges == before.graph.n_edges
    assert np.array_equal(after.graph.indices, before.graph.indices)


def test_shift_right_click_queues_waypoints(window: Any) -> None:
    view = make_rts(window, seed=0)
    scout = np.flatnonzero(view.army.kinds == 2)[:1]
    view.select(scout)
    first, second = np.array([700.0, 1500.0]), np.array([1200.0, 1650.0])
    click(view, screen(view, first), RIGHT)
    click(view, screen(view, second), RIGHT, modifiers=arcade.key.MOD_SHIFT)
    assert [g.tolist() for g in view.army.queued_goals(int(scout[0]))] == [second.tolist()]
    (track,) = _walk(view, scout, 2000)
    assert np.hypot(*(track - first).T).min() < 30  # it passed the first goal
    assert np.hypot(*(track[-1] - second)) < 30


def test_queued_orders_are_drawn_as_dashed_order_markers_not_as_paths(window: Any, screenshot_dir: Any) -> None:
    """A queued order has no route yet: its line from goal to goal must not look like a path over the river."""
    view = make_rts(window, seed=0)
    scouts = blue(view, UNIT_TYPES[2])
    view.select(scouts)
    view.order((1250.0, 1500.0))
    view.order((2400.0, 1450.0), queue=True)
    run(view, 10)
    view.camera.zoom = 0.4
    view.camera.position = (1800.0, 1400.0)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_rts_queued_order.png")

    def coloured(x: float, y: float) -> bool:
        return any(close_to(pixel(image, x, y + dy), QUEUE_COLOR[:3], 60) for dy in (-1, 0, 1))

    a, b = np.array(screen(view, (1250.0, 1500.0))), np.array(screen(view, (2400.0, 1450.0)))
    # One dashed line from the group's goal to the queued goal: over the river (away from the
    # terrain labels) about half the samples show the order colour and the other half the water.
    over_water = shapely.intersection(shapely.LineString([(1250.0, 1500.0), (2400.0, 1450.0)]), region(view, "water"))
    assert over_water.length > 50
    samples = [screen(view, over_water.interpolate(d).coords[0]) for d in np.arange(0.0, over_water.length, 2.5)]
    hits = [coloured(*p) for p in samples]
    assert 0.25 <= np.mean(hits) <= 0.75, np.mean(hits)  # dashes and gaps, not a solid line
    gaps = [p for p, hit in zip(samples, hits) if not hit]
    assert sum(close_to(pixel(image, *p), TERRAIN_COLORS["water"][:3], 12) for p in gaps) >= 0.8 * len(gaps)
    # the whole line is dashed, not only over the water
    along = [coloured(*(a + t * (b - a))) for t in np.linspace(0.05, 0.95, 400)]
    assert 0.25 <= np.mean(along) <= 0.75, np.mean(along)
    # a ring marks the queued goal
    ring = [coloured(b[0] + 10 * np.cos(t), b[1] + 10 * np.sin(t)) for t in np.linspace(0, 2 * np.pi, 36, endpoint=False)]
    assert np.mean(ring) >= 0.75


def test_navmesh_render_colours_terrain_as_the_demo_does(window: Any, tmp_path: Any) -> None:
    """The bridge is brown and the ford light blue both in the demo window and in ``navmesh render``."""
    from PIL import Image

    from demo_game.levels import __file__ as levels_init
    from navmesh.cli import main as navmesh_cli

    view = make_rts(window, seed=0)
    view.camera.zoom = 0.5
    view.camera.position = (1800.0, 950.0)  # world x 1000-2600, y 350-1550 on screen
    demo = frame(window, view)
    size = 1200
    assert navmesh_cli(["render", str(Path(levels_init).parent / "valley.json"), "-o", str(tmp_path / "v.png"),
                        "--size", str(size)]) == 0
    png = Image.open(tmp_path / "v.png").convert("RGB")
    left, bottom, right, top = view.level.bounds.bounds
    scale = (size - 16) / max(right - left, top - bottom)
    tags = ("bridge", "ford", "water", "road")
    for tag in tags:
        # a point of the region in view, away from the other tags, the header, the hint and the minimap
        others = shapely.union_all([region(view, t) for t in tags if t != tag])
        inside = shapely.difference(shapely.intersection(region(view, tag), shapely.box(1000, 460, 2200, 1420)), others)
        point = shapely.buffer(inside, -8).representative_point()
        x, y = point.x, point.y
        in_demo = pixel(demo, *screen(view, (x, y)))
        in_png = png.getpixel((round(8 + (x - left) * scale), round(png.height - 8 - (y - bottom) * scale)))
        assert close_to(in_demo, TERRAIN_COLORS[tag][:3], 12), (tag, in_demo)
        assert close_to(in_png, TERRAIN_COLORS[tag][:3], 0), (tag, in_png)


def test_camera_pans_and_zooms(window: Any) -> None:
    view = make_rts(window, seed=0)
    x0, y0 = view.camera.position
    view.on_key_press(arcade.key.RIGHT, 0)
    run(view, 30)
    view.on_key_release(arcade.key.RIGHT, 0)
    assert view.camera.position[0] > x0 + 100 and view.camera.position[1] == y0
    before = view.world_point(400, 300)
    view.on_mouse_scroll(400, 300, 0, 2)
    assert view.camera.zoom > 1.2
    assert np.allclose(view.world_point(400, 300), before, atol=1e-6)  # the point under the mouse stays


def test_screenshot_shows_terrain_graph_paths_and_selection(window: Any, screenshot_dir: Any) -> None:
    view = make_rts(window, seed=0)
    view.camera.zoom = 0.5
    view.camera.position = (1300.0, 1100.0)
    tanks = blue(view, TANK)
    view.select(tanks)
    view.order((1450.0, 960.0))
    run(view, 60)
    plain = frame(window, view)
    view.on_key_press(arcade.key.G, 0)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_rts_overlays.png")

    water = screen(view, (1815.0, 900.0))
    assert close_to(pixel(image, *water), TERRAIN_COLORS["water"][:3]), pixel(image, *water)
    # A waypoint in view, away from the units: the graph overlay draws its node over the ground.
    points = view.army.navmap.graph.points
    node = points[np.argmin(np.hypot(*(points - (1000.0, 1250.0)).T))]
    at = screen(view, node)
    before, after = np.array(pixel(plain, *at)), np.array(pixel(image, *at))
    target = np.array(GRAPH_NODE[:3])
    assert np.abs(after - target).max() < 0.3 * np.abs(before - target).max(), (before, after)

    # Close up on the first tank: its selection ring (green pixels on a circle around it) and
    # its remaining route (drawn in the route colour) show.
    pos = view.army.positions
    gaps = [np.sort(np.hypot(*(pos - pos[t]).T))[1] for t in tanks]
    tank = int(tanks[int(np.argmax(gaps))])  # the one with most room around it
    view.camera.zoom = 1.0
    view.camera.position = tuple(pos[tank])
    image = frame(window, view)
    image.save(screenshot_dir / "demo_rts_selection.png")
    cx, cy = screen(view, pos[tank])
    ring = [pixel(image, cx + r * np.cos(t), cy + r * np.sin(t))
            for r in np.linspace(0.8, 0.95, 4) * RING_SCALE * TANK.radius / 2 for t in np.linspace(0, 2 * np.pi, 24)]
    assert sum(g > 180 and g > red + 60 and g > b + 60 for red, g, b in ring) >= 12
    route = view.army.route_of(tank)
    step = (route[1] - route[0]) / np.hypot(*(route[1] - route[0]))
    # sample the first leg beyond the tank's own sprite (other units may stand on parts of it)
    leg = float(np.hypot(*(route[1] - route[0])))
    on_route = [pixel(image, *screen(view, route[0] + d * step)) for d in np.arange(40.0, min(leg, 240.0), 10.0)]
    assert any(close_to(p, ROUTE_COLOR[:3], 40) for p in on_route), on_route

    # The help overlay: a dark panel over the middle of the screen.
    w, h = window.width, window.height
    tw, th = view.help_text.content_width + 40, view.help_text.content_height + 40
    corner = ((w - tw) / 2 + 6, (h - th) / 2 + 6)
    under = pixel(image, *corner)
    view.on_key_press(arcade.key.H, 0)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_rts_help.png")
    assert close_to(pixel(image, *corner), blend(PANEL, under))


def test_m_switches_motion_and_units_keep_their_orders(window: Any) -> None:
    view = make_rts(window, seed=0)
    scouts = blue(view, UNIT_TYPES[2])
    view.select(scouts)
    goal = np.array([1250.0, 1500.0])
    view.order(goal)
    run(view, 30)
    for expected in ("straight", "hermite"):
        view.on_key_press(arcade.key.M, 0)
        assert view.army.motion == expected
        assert view.army.busy[scouts].all() and np.array_equal(view.army.goals[scouts], np.repeat(goal[None], len(scouts), 0))
        run(view, 30)
    view.on_key_press(arcade.key.V, 0)
    assert view.army.variation
    curve = view.army.path_of(int(scouts[0]))
    assert curve is not None and np.allclose(curve.points[-1], view.army.route_of(int(scouts[0]))[-1])
    run(view, 1200, until=lambda: not view.army.moving[scouts].any())
    assert np.hypot(*(view.army.positions[scouts] - goal).T).max() < 80


def test_flow_overlay_draws_arrows_toward_the_last_goal(window: Any, screenshot_dir: Any) -> None:
    view = make_rts(window, seed=0)
    view.camera.zoom = 0.5
    view.camera.position = (1100.0, 1000.0)
    view.select(blue(view, INFANTRY))
    view.order((1450.0, 960.0))
    plain = np.asarray(frame(window, view).convert("RGB"), dtype=float)
    view.on_key_press(arcade.key.R, 0)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_rts_flow.png")
    arrows = np.asarray(image.convert("RGB"), dtype=float)
    field = view.flow_field
    assert field is not None and field.goals.tolist() == [int(view.flow_grid.cell_at(view.last_goal))]
    # Along each arrow (a little ahead of its cell's centre) the ground turned pale blue-white.
    grid = view.flow_grid
    cells = np.flatnonzero((field.direction_at(np.arange(grid.n_cells)) != 0).any(axis=1))
    ahead = grid.cell_center(cells) + 0.15 * grid.cell_size * field.direction_at(cells)
    xy = np.array([screen(view, p) for p in ahead])
    shown = (xy[:, 1] >= 70) & (xy[:, 1] < window.height - 70) & (xy[:, 0] >= 2) & (xy[:, 0] < window.width - 270)
    picks = np.random.default_rng(0).choice(np.flatnonzero(shown), 40, replace=False)
    lighter = 0
    for x, y in xy[picks]:
        row, col = window.height - 1 - int(y), int(x)
        patch = (slice(row - 1, row + 2), slice(col - 1, col + 2))  # the shaft is 2 pixels wide here
        lighter += (arrows[patch].sum(axis=2) - plain[patch].sum(axis=2)).max() > 60
    assert lighter >= 30
