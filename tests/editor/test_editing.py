"""The real editor view under Xvfb, driven by mouse and key events: build, link, test paths, save, undo."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import navmesh
from editor.profiles import PROFILES

OBSTACLE = [(150.0, 60.0), (250.0, 60.0), (250.0, 240.0), (150.0, 240.0)]
SWAMP = [(280.0, 0.0), (360.0, 0.0), (360.0, 120.0), (280.0, 120.0)]
WAYPOINTS = [(40.0, 40.0), (40.0, 270.0), (200.0, 270.0), (320.0, 200.0), (390.0, 30.0), (200.0, 30.0)]


def type_text(view, text: str) -> None:
    view.on_text(text)
    view.press_key("RETURN")


def build_small_level(view) -> None:
    """An obstacle, waypoints and a swamp region, made with the tools."""
    view.press_key("O")
    for p in OBSTACLE:
        view.click(*p)
    view.click(*OBSTACLE[0])  # clicking the first corner closes the outline
    view.press_key("W")
    for p in WAYPOINTS:
        view.click(*p)
    view.press_key("T")
    view.press_key("_1")  # swamp
    for p in SWAMP:
        view.click(*p)
    view.press_key("RETURN")


def expected_level() -> navmesh.Level:
    return navmesh.Level.rectangle(400, 300, obstacles=[OBSTACLE], waypoints=WAYPOINTS,
                                   terrain=[(SWAMP, "swamp")])


def same_graph(a: navmesh.NavGraph, b: navmesh.NavGraph) -> bool:
    return (np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)
            and np.array_equal(a.points, b.points))


def test_build_link_test_path_save_and_reopen(make_editor, tmp_path: Path) -> None:
    view = make_editor()
    build_small_level(view)
    level = view.model.level
    assert level == expected_level()
    # auto-linked live, and the local updates gave the same graph as a fresh build
    fresh = navmesh.build_waypoint_graph(expected_level(), k=8)
    assert view.model.nav.graph.n_edges > 0
    assert same_graph(view.model.nav.graph, fresh.graph)

    # test-path tool around the obstacle for the default walker: same answer as the library
    view.press_key("P")
    start, goal = (40.0, 150.0), (270.0, 150.0)
    view.click(*start)
    view.click(*goal)
    tool = view.tools["P"]
    tool.update()
    want = navmesh.find_path(fresh, start, goal, profile=PROFILES[0])
    assert tool.path is not None and tool.path.cost == pytest.approx(want.cost, rel=1e-12)
    assert tool.trace is not None and len(tool.trace.expanded) > 0

    # hand-computed: straight across the swamp (80 of the 120 units inside it) for infantry (swamp x2)
    view.tools["P"].cancel()
    view.click(260.0, 20.0)
    view.click(380.0, 20.0)
    view.press_key("TAB")  # walker -> infantry
    tool.update()
    assert PROFILES[tool.profile].name == "infantry"
    assert tool.path.cost == pytest.approx(40.0 + 2.0 * 80.0)

    # drag the goal end: the path follows
    view.drag_to((380.0, 20.0), (380.0, 150.0))
    tool.update()
    assert tuple(tool.goal) == pytest.approx((380.0, 150.0))
    assert tool.path.points[-1].tolist() == pytest.approx([380.0, 150.0])

    # save through the Save As prompt, reopen, compare
    target = tmp_path / "small.json"
    view.press_key("S", frozenset({"ctrl"}))
    assert view.prompt is not None and view.prompt.text is not None
    view.prompt.text = ""
    type_text(view, str(target))
    assert not view.model.dirty and target.exists()
    assert navmesh.load_level(target) == level
    view.press_key("O", frozenset({"ctrl"}))
    view.prompt.text = ""
    type_text(view, str(target))
    assert view.model.level == level and view.model.level is not level
    assert view.model.path == target


def test_undo_redo_return_exact_states(make_editor) -> None:
    view = make_editor()
    states = [view.model.level]
    view.press_key("W")
    for p in [(50.0, 50.0), (300.0, 250.0), (100.0, 200.0)]:
        view.click(*p)
        states.append(view.model.level)
    view.press_key("S")
    view.drag_to((100.0, 200.0), (120.0, 150.0))  # one undo step for the whole drag
    states.append(view.model.level)
    view.press_key("O")
    for p in [(200.0, 100.0), (260.0, 100.0), (230.0, 160.0)]:
        view.click(*p)
    view.press_key("RETURN")
    states.append(view.model.level)
    view.press_key("DELETE")  # nothing selected in the obstacle tool: refused, no step
    view.press_key("PERIOD")  # agent radius 0 -> 2: a settings step
    states.append(view.model.level)
    assert view.model.settings.agent_radius == 2.0
    graphs = []
    for i in range(len(states) - 1, 0, -1):
        assert view.model.level is states[i]
        graphs.append(view.model.nav.graph)
        view.press_key("Z", frozenset({"ctrl"}))
    assert view.model.level is states[0] and not view.model.dirty
    assert view.model.settings.agent_radius == 0.0
    for i in range(1, len(states)):
        view.press_key("Y", frozenset({"ctrl"}))
        assert view.model.level is states[i]
    assert view.model.settings.agent_radius == 2.0
    rebuilt = navmesh.build_waypoint_graph(view.model.level, k=8, agent_radius=2.0)
    assert same_graph(view.model.nav.graph, rebuilt.graph)
    assert same_graph(view.model.nav.graph, graphs[0])


def test_invalid_edits_are_refused_with_a_message(make_editor) -> None:
    view = make_editor(navmesh.Level.rectangle(400, 300, obstacles=[OBSTACLE], waypoints=[(40.0, 40.0)]))
    before = view.model.level
    view.press_key("W")
    view.click(200.0, 150.0)  # inside the obstacle
    assert view.model.level is before
    assert view.message_error and "inside obstacles[0]" in view.message
    view.press_key("O")
    for p in [(20.0, 100.0), (120.0, 200.0), (120.0, 100.0), (20.0, 200.0)]:  # a bow tie
        view.click(*p)
    view.press_key("RETURN")
    assert view.model.level is before
    assert view.message_error and "not a valid polygon" in view.message
    view.press_key("ESCAPE")
    # an obstacle over an existing waypoint is refused too
    for p in [(20.0, 20.0), (60.0, 20.0), (60.0, 60.0), (20.0, 60.0)]:
        view.click(*p)
    view.press_key("RETURN")
    assert view.model.level is before and view.message_error
    assert not view.model.undo_stack


def test_reshape_move_and_delete_obstacles_vertex_by_vertex(make_editor) -> None:
    view = make_editor(navmesh.Level.rectangle(400, 300, obstacles=[OBSTACLE], waypoints=[(40.0, 40.0), (390.0, 290.0)]))
    view.press_key("O")
    view.click(200.0, 150.0)  # select the obstacle
    assert view.selection is not None and view.selection.kind == "obstacle"
    view.drag_to((250.0, 240.0), (280.0, 260.0))  # drag a corner
    assert (280.0, 260.0) in list(view.model.level.obstacles[0].exterior.coords)
    view.click(200.0, 60.0, mods=frozenset({"ctrl"}))  # insert a corner on the bottom edge
    assert len(view.model.level.obstacles[0].exterior.coords) == 6
    view.press_key("H")  # a hole
    for p in [(180.0, 120.0), (220.0, 120.0), (220.0, 180.0), (180.0, 180.0)]:
        view.click(*p)
    view.press_key("RETURN")
    assert len(view.model.level.obstacles[0].interiors) == 1
    view.drag_to((200.0, 100.0), (210.0, 110.0))  # move the whole obstacle
    assert view.model.level.obstacles[0].bounds[0] == pytest.approx(160.0)
    view.click(210.0, 110.0, button="right")  # delete it
    assert view.model.level.obstacles == ()
    assert same_graph(view.model.nav.graph, navmesh.build_waypoint_graph(view.model.level).graph)


def test_manual_gated_and_offmesh_links(make_editor) -> None:
    view = make_editor(navmesh.Level.rectangle(400, 300, obstacles=[OBSTACLE],
                                               waypoints=[(40.0, 150.0), (350.0, 150.0), (40.0, 20.0)]))
    view.press_key("L")
    view.press_key("_2")  # one-way
    view.click(40.0, 150.0)
    view.click(350.0, 150.0)
    assert view.model.level.links == (navmesh.Link(0, 1, "one_way"),)
    g = view.model.nav.graph
    assert 1 in g.neighbors(0).tolist() and 0 not in g.neighbors(1).tolist()
    view.press_key("_4")  # gated: forced, needs "wade"
    view.click(350.0, 150.0)
    view.click(40.0, 150.0)
    assert view.model.level.links == (navmesh.Link(1, 0, "forced", requires="wade"),)
    view.press_key("_5")  # off-mesh teleport
    view.click(40.0, 20.0)
    view.click(350.0, 150.0)
    (tele,) = view.model.level.offmesh_links
    assert (tele.a, tele.b, tele.cost) == (2, 1, pytest.approx(np.hypot(310.0, 130.0)))
    view.click(195.0, 85.0, button="right")  # right-click on the teleport removes it
    assert view.model.level.offmesh_links == ()


def test_generate_corners_and_fill(make_editor) -> None:
    view = make_editor(navmesh.Level.rectangle(400, 300, obstacles=[OBSTACLE]))
    view.press_key("C")
    # radius 0: the corners of the box itself, sorted by x then y
    assert view.model.level.waypoints.tolist() == [[150.0, 60.0], [150.0, 240.0], [250.0, 60.0], [250.0, 240.0]]
    view.press_key("PERIOD")  # agent radius 2: mitre corners outside the grown box (two per corner)
    view.press_key("C")
    grown = view.model.level.waypoints[4:]
    assert len(grown) == 8
    assert np.all((grown[:, 0] <= 148.0) | (grown[:, 0] >= 252.0) | (grown[:, 1] <= 58.0) | (grown[:, 1] >= 242.0))
    view.press_key("F")
    assert view.model.level.n_waypoints > 12
    assert view.model.nav.graph.n_edges > 0


def test_import_tiled_map_is_one_undoable_edit(make_editor) -> None:
    tiled = Path(__file__).resolve().parents[1] / "data" / "tiled" / "level_sample.tmj"
    view = make_editor()
    before = view.model.level
    view.press_key("I", frozenset({"ctrl"}))
    view.prompt.text = str(tiled)
    view.press_key("RETURN")
    assert view.model.level == navmesh.load_tiled_level(tiled)
    assert same_graph(view.model.nav.graph, navmesh.build_waypoint_graph(view.model.level).graph)
    view.press_key("Z", frozenset({"ctrl"}))
    assert view.model.level is before
    view.import_file(str(tiled.with_name("missing.tmj")))
    assert view.model.level is before and view.message_error


def test_grid_snap_and_link_kind_changes(make_editor) -> None:
    view = make_editor(navmesh.Level.rectangle(400, 300, waypoints=[(40.0, 150.0), (350.0, 150.0)]))
    view.press_key("G")
    view.press_key("W")
    view.click(101.0, 203.0)
    assert view.model.level.waypoints[-1].tolist() == [96.0, 208.0]  # nearest point of the 16-unit grid
    view.press_key("L")
    view.click(40.0, 150.0)
    view.click(350.0, 150.0)
    assert view.model.level.links == (navmesh.Link(0, 1, "forced"),)
    view.press_key("_3")  # the selected link becomes forbidden
    assert view.model.level.links == (navmesh.Link(0, 1, "forbidden"),)
    assert 1 not in view.model.nav.graph.neighbors(0).tolist()
    view.press_key("_5")
    view.click(40.0, 150.0)
    view.click(96.0, 208.0)
    view.press_key("B")
    assert view.model.level.offmesh_links[0].bidirectional


def test_zoom_keeps_the_point_under_the_cursor_and_pan_moves_the_view(make_editor) -> None:
    view = make_editor()
    screen = (120.0, 90.0)
    before = view.to_world(*screen)
    view.on_mouse_scroll(*screen, 0, 3)
    assert view.zoom == pytest.approx(1.15**3)
    assert view.to_world(*screen) == pytest.approx(before)
    view.press_key("LEFT")
    assert view.to_world(*screen)[0] == pytest.approx(before[0] - 60.0 / view.zoom)
    view.press_key("HOME")
    x0, y0, x1, y1 = view.model.level.bounds.bounds
    assert view.to_world(view.world_width / 2, view.window.height / 2) == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))


def test_side_panel_buttons_press_the_same_commands(make_editor) -> None:
    view = make_editor()

    def click_button(index: int) -> None:
        left, right, bottom, top, _ = view.panel.layout(draw=False)[index]
        assert left >= view.world_width  # in the panel, right of the level area
        view.on_mouse_press((left + right) / 2, (bottom + top) / 2, 1, 0)

    click_button(4)  # tools: S W O / T L P
    assert view.tool is view.tools["L"]
    click_button(7)  # k's [+] (after the six tools and k's [-])
    assert view.model.settings.k == 9
    click_button(5)
    assert view.tool is view.tools["P"]
    click_button(20)  # after tools (6), settings (8), C F G and N D F1: the tool's "Tab profile"
    assert view.tools["P"].profile == 1


def test_mesh_overlay_and_test_path_on_the_mesh(make_editor) -> None:
    view = make_editor()
    build_small_level(view)
    view.press_key("P")
    start, goal = (40.0, 150.0), (270.0, 150.0)
    view.click(*start)
    view.click(*goal)
    tool = view.tools["P"]
    tool.update()
    on_graph = tool.path
    assert tool.trace is not None
    view.press_key("M")  # mesh overlay on: the test path searches the mesh
    assert view.show_mesh
    tool.update()
    mesh = navmesh.build_navmesh(expected_level())
    want = navmesh.MeshQuery(mesh, PROFILES[0]).find_path(start, goal)
    assert tool.path is not None and tool.path.cost == pytest.approx(want.cost, rel=1e-12)
    assert tool.trace is None and "navigation mesh" in tool.status()[0]
    # the exact mesh path is never longer than the graph's (k=8, waypoints only)
    assert tool.path.length <= on_graph.length + 1e-9
    # the overlay is in the cached shapes (more shapes than without it), and the view draws
    with_mesh = len(view.level_shapes())
    view.on_draw()
    view.press_key("M")
    assert not view.show_mesh and len(view.level_shapes()) < with_mesh
    tool.update()
    assert tool.path.cost == pytest.approx(on_graph.cost, rel=1e-12)
