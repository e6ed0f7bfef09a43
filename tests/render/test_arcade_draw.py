"""Render tests for navmesh.arcade_draw: draw into a real hidden window and read the pixels back.

The default camera maps world units 1:1 to pixels with y up, so a world point (x, y) is image
pixel (x, height - 1 - y). Each test also saves a screenshot to ``screenshots/`` for people.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from navmesh import (
    InvalidOptionError,
    NavGraph,
    NodeNotFoundError,
    Path,
    astar,
    search_trace,
)
from navmesh.grid.flowfield import FlowField
from navmesh.grid import GridMap
from navmesh.level import Level
from navmesh.terrain import TerrainRegion

arcade = pytest.importorskip("arcade")
draw = pytest.importorskip("navmesh.arcade_draw")

BG = (20, 24, 32)
TOL = 3  # 8-bit rounding of blended colours

# Opaque test colours, all different from each other and from BG.
OBSTACLE = (90, 90, 100, 255)
OUTLINE = (200, 200, 210, 255)
BOUNDS = (240, 240, 240, 255)
ARC = (40, 120, 200, 255)
NODE = (130, 200, 250, 255)
PATH = (255, 215, 0, 255)
PARTIAL = (255, 90, 60, 255)
EXPANDED = (220, 30, 60, 255)
OPEN = (60, 210, 60, 255)
TREE = (250, 250, 250, 255)
ARROW = (170, 220, 240, 255)
GOAL = (255, 200, 0, 255)
WALL = (100, 100, 120, 255)
SWAMP = (90, 140, 40, 128)
ROAD = (200, 160, 120, 160)


def render(window: Any, paint: Callable[[], None]) -> Any:
    """Clear the window, run ``paint``, and return the frame as a PIL image."""
    window.default_camera.use()
    window.clear(color=BG)
    paint()
    return arcade.get_image()


def px(image: Any, x: float, y: float) -> tuple[int, int, int]:
    """RGB of the pixel at world position (x, y)."""
    return image.getpixel((int(x), image.height - 1 - int(y)))[:3]


def blend(color: tuple[int, ...], under: tuple[int, ...] = BG) -> tuple[float, ...]:
    """What ``color`` with its alpha looks like drawn over ``under``."""
    a = color[3] / 255 if len(color) == 4 else 1.0
    return tuple(a * c + (1 - a) * u for c, u in zip(color[:3], under))


def assert_color(image: Any, x: float, y: float, expected: tuple[int, ...], what: str) -> None:
    got = px(image, x, y)
    want = blend(expected) if len(expected) == 4 and expected[3] < 255 else tuple(expected[:3])
    assert all(abs(g - w) <= TOL for g, w in zip(got, want)), f"{what} at ({x}, {y}): got {got}, expected {want}"


# -- the scene: level + graph + path ------------------------------------------------------------
RING = {  # a square obstacle with a square hole
    "exterior": [(100, 100), (300, 100), (300, 300), (100, 300)],
    "holes": [[(160, 160), (240, 160), (240, 240), (160, 240)]],
}
L_SHAPE = [(400, 100), (600, 100), (600, 160), (460, 160), (460, 300), (400, 300)]  # concave
WAYPOINTS = [(60, 60), (350, 60), (350, 350), (60, 350), (740, 60), (740, 300)]


@pytest.fixture(scope="module")
def scene() -> tuple[Level, NavGraph]:
    level = Level(
        (20, 20, 780, 580),
        obstacles=[RING, L_SHAPE],
        waypoints=WAYPOINTS,
        terrain=[
            TerrainRegion([(500, 350), (700, 350), (700, 550), (500, 550)], "swamp"),
            TerrainRegion([(600, 330), (760, 330), (760, 450), (600, 450)], "road"),  # wins the overlap
        ],
    )
    both_ways = [(0, 1), (1, 2), (2, 3), (3, 0), (1, 4), (4, 5), (5, 2)]
    arcs = both_ways + [(b, a) for a, b in both_ways] + [(3, 1)]  # 3 -> 1 is one-way
    graph = NavGraph.from_edges(WAYPOINTS, arcs, directed=True)
    return level, graph


def test_level_graph_and_path(window: Any, scene: tuple[Level, NavGraph], screenshot_dir: Any) -> None:
    level, graph = scene
    path = astar(graph, 0, 5)
    assert path.nodes.tolist() == [0, 1, 4, 5]
    static = draw.level_shapes(
        level,
        terrain_colors={"swamp": SWAMP, "road": ROAD},
        obstacle_color=OBSTACLE,
        outline_color=OUTLINE,
        bounds_color=BOUNDS,
    )
    arcs = draw.graph_shapes(graph, color=ARC, node_color=NODE, node_radius=5, line_width=2, arrow_size=14)

    def paint() -> None:
        static.draw()
        arcs.draw()
        draw.draw_path(path, color=PATH, line_width=4, point_radius=6)

    image = render(window, paint)
    image.save(screenshot_dir / "arcade_draw_scene.png")

    assert_color(image, 130, 200, OBSTACLE, "ring obstacle interior")
    assert_color(image, 200, 200, BG, "hole in the ring obstacle")
    assert_color(image, 430, 250, OBSTACLE, "L-shaped obstacle interior")
    assert_color(image, 530, 230, BG, "notch of the concave L (outside it)")
    assert_color(image, 300, 200, OUTLINE, "obstacle outline")
    assert_color(image, 20, 450, BOUNDS, "bounds outline")
    assert_color(image, 10, 10, BG, "outside the bounds")
    assert_color(image, 550, 500, SWAMP, "swamp only")
    assert_color(image, 650, 400, ROAD, "swamp under road: the later region wins, tints not mixed")
    assert_color(image, 740, 340, ROAD, "road only")
    assert_color(image, 60, 200, ARC, "arc 0-3 midpoint")
    assert_color(image, 350, 60, PATH, "path point (waypoint 1)")
    assert_color(image, 545, 60, PATH, "path segment 1-4 midpoint")
    assert_color(image, 740, 180, PATH, "path segment 4-5 midpoint")
    assert_color(image, 60, 350, NODE, "graph node 3")
    # The one-way arc 3 -> 1 has an arrowhead just before node 1; its reverse has none.
    tip = np.array(WAYPOINTS[1], float)
    unit = (tip - np.array(WAYPOINTS[3], float)) / np.hypot(290, 290)
    inside_head = tip - unit * (5 + 10)
    normal = np.array([-unit[1], unit[0]])
    assert_color(image, *(inside_head + normal * 3), ARC, "arrowhead of one-way arc 3->1 (beside the shaft)")
    tail = np.array(WAYPOINTS[3], float) + unit * (5 + 10)
    assert_color(image, *(tail + normal * 3), BG, "no arrowhead at the arc's source end")


def test_partial_path_is_dashed(window: Any, screenshot_dir: Any) -> None:
    full = Path([0, 1], [(100, 200), (700, 200)], 600.0)
    partial = Path([0, 1, 2], [(100, 500), (700, 500), (700, 300)], 800.0, partial=True)

    def paint() -> None:
        draw.draw_path(full, color=PATH, line_width=4)
        draw.draw_path(partial, color=PATH, partial_color=PARTIAL, line_width=4, point_radius=0)

    image = render(window, paint)
    image.save(screenshot_dir / "arcade_draw_partial_path.png")
    solid = [px(image, x, 200) for x in range(110, 690)]
    dashed = [px(image, x, 500) for x in range(110, 690)]
    assert all(c == PATH[:3] for c in solid), "a complete path is one solid line"
    on = sum(c == PARTIAL[:3] for c in dashed)
    off = sum(c == BG for c in dashed)
    assert on + off == len(dashed), "a partial path shows only its own colour and gaps"
    assert 0.5 < on / len(dashed) < 0.9, f"dashes cover {on} of {len(dashed)} pixels"
    dashed_down = [px(image, 700, y) for y in range(310, 490)]
    assert any(c == PARTIAL[:3] for c in dashed_down) and any(c == BG for c in dashed_down)


# -- the search trace ---------------------------------------------------------------------------
def lattice(cols: int = 5, rows: int = 4, spacing: float = 120.0, z: bool = False) -> NavGraph:
    xy = [(100 + c * spacing, 100 + r * spacing) for r in range(rows) for c in range(cols)]
    pts = [(x, y, 7.0) for x, y in xy] if z else xy
    edges = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    edges += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return NavGraph.from_edges(pts, edges)


def test_trace_frontier_by_step(window: Any, screenshot_dir: Any) -> None:
    graph = lattice()
    trace = search_trace(graph, 0, 19, algorithm="bfs")
    def at(node: int) -> np.ndarray:
        return graph.points[node, :2]

    style: dict[str, Any] = {
        "expanded_color": EXPANDED, "open_color": OPEN, "tree_color": TREE, "node_radius": 8, "line_width": 3,
    }

    image = render(window, lambda: draw.draw_trace(trace, graph, step=0, **style))
    assert_color(image, *at(0), OPEN, "start before the first expansion")
    assert_color(image, *at(1), BG, "a neighbour before the first expansion")

    image = render(window, lambda: draw.draw_trace(trace, graph, step=1, **style))
    image.save(screenshot_dir / "arcade_draw_trace_step1.png")
    assert_color(image, *at(0), EXPANDED, "start after one expansion")
    assert_color(image, *at(1), OPEN, "right neighbour, opened by the start")
    assert_color(image, *at(5), OPEN, "upper neighbour, opened by the start")
    assert_color(image, *at(2), BG, "node two arcs away, not reached yet")
    assert_color(image, *(at(0) + at(1)) / 2, TREE, "search-tree line start -> neighbour")

    image = render(window, lambda: draw.draw_trace(trace, graph, step=10**6, **style))
    image.save(screenshot_dir / "arcade_draw_trace_done.png")
    for node in trace.expanded.tolist():
        assert_color(image, *at(node), EXPANDED, f"expanded node {node} at the end")


def test_trace_and_graph_ignore_z(window: Any) -> None:
    flat, raised = lattice(), lattice(z=True)
    trace = search_trace(raised, 0, 19)
    shapes = draw.graph_shapes(raised, color=ARC, node_color=NODE, node_radius=6)

    def paint() -> None:
        shapes.draw()
        draw.draw_trace(trace, raised, step=1, expanded_color=EXPANDED, open_color=OPEN, node_radius=8)

    image = render(window, paint)
    assert_color(image, *flat.points[0], EXPANDED, "3-D start drawn at its (x, y)")
    assert_color(image, *flat.points[18], NODE, "3-D node drawn at its (x, y)")


# -- the flow field -----------------------------------------------------------------------------
FLOW_MAP = """
..........
..........
...@@@....
...@.@....
...@@@....
.........."""


def test_flow_field_arrows(window: Any, screenshot_dir: Any) -> None:
    grid = GridMap.from_strings(FLOW_MAP, cell_size=60, origin=(100, 100))
    goal = grid.cell_id(8, 1)
    field = FlowField(grid, goal)
    walls = draw.grid_shapes(grid, wall_color=WALL, line_color=(60, 60, 70, 255))

    def paint() -> None:
        walls.draw()
        draw.draw_flow_field(field, color=ARROW, goal_color=GOAL, arrow_length=0.7)

    image = render(window, paint)
    image.save(screenshot_dir / "arcade_draw_flow_field.png")
    assert_color(image, *grid.cell_center(grid.cell_id(3, 2)), WALL, "wall cell")
    assert_color(image, *grid.cell_center(goal), GOAL, "goal cell")
    assert_color(image, *grid.cell_center(grid.cell_id(4, 3)), BG, "walled-in cell has no arrow")

    # Every arrow points along its signpost: the wide head is on the side the unit should go.
    ids = np.flatnonzero(np.isfinite(field.distance.reshape(-1)) & (field.distance.reshape(-1) > 0))
    dirs = field.direction_at(ids)
    straight = ids[np.abs(dirs).sum(axis=1) == 1][[0, -1]]
    diagonal = ids[np.abs(dirs).min(axis=1) > 0][[0, -1]]
    assert len(diagonal) == 2, "the map should have diagonal signposts"
    for cell in [*straight, *diagonal]:
        c = grid.cell_center(int(cell))
        u = field.direction_at(int(cell))
        n = np.array([-u[1], u[0]])
        assert_color(image, *c, ARROW, f"shaft through the centre of cell {cell}")
        assert_color(image, *(c + u * 6 + n * 6), ARROW, f"head side of the arrow in cell {cell}")
        assert_color(image, *(c - u * 6 + n * 6), BG, f"tail side of the arrow in cell {cell}")


# -- arguments ----------------------------------------------------------------------------------
def test_bad_arguments_raise_clear_errors(window: Any, scene: tuple[Level, NavGraph]) -> None:
    level, graph = scene
    with pytest.raises(InvalidOptionError, match="obstacle_color"):
        draw.level_shapes(level, obstacle_color=(300, 0, 0))
    with pytest.raises(InvalidOptionError, match="color"):
        draw.graph_shapes(graph, color="red")
    with pytest.raises(InvalidOptionError, match="line_width"):
        draw.graph_shapes(graph, line_width=0)
    with pytest.raises(InvalidOptionError, match="graph"):
        draw.graph_shapes(level)
    trace = search_trace(graph, 0, 5)
    with pytest.raises(InvalidOptionError, match="step"):
        draw.draw_trace(trace, graph, step=-1)
    with pytest.raises(NodeNotFoundError, match="another graph|recorded on"):
        draw.draw_trace(search_trace(lattice(), 0, 19), graph)
    with pytest.raises(InvalidOptionError, match="dash"):
        draw.draw_path(astar(graph, 0, 5), dash=(0, 5))


def test_default_terrain_tints_are_the_shared_palette(window: Any, tmp_path: Any, screenshot_dir: Any) -> None:
    """level_shapes and ``navmesh render`` colour every tag from one table (navmesh.palette)."""
    from PIL import Image

    from navmesh.cli import main as navmesh_cli
    from navmesh.io.level_json import save_level
    from navmesh.palette import TERRAIN_RGB, terrain_rgb

    tags = [*TERRAIN_RGB, "goo"]  # every named tag, and one the palette picks for
    regions = [TerrainRegion([(20 + 60 * i, 100), (70 + 60 * i, 100), (70 + 60 * i, 300), (20 + 60 * i, 300)], tag)
               for i, tag in enumerate(tags)]
    level = Level.rectangle(800, 400, terrain=regions)
    static = draw.level_shapes(level, outline_width=0.0, bounds_color=BG)
    image = render(window, static.draw)
    image.save(screenshot_dir / "arcade_draw_terrain_palette.png")
    save_level(level, tmp_path / "palette.json")
    assert navmesh_cli(["render", str(tmp_path / "palette.json"), "-o", str(tmp_path / "p.png"), "--size", "816"]) == 0
    png = Image.open(tmp_path / "p.png").convert("RGB")  # 1 px per world unit plus an 8 px margin
    for i, tag in enumerate(tags):
        x, y = 45 + 60 * i, 200
        assert draw.terrain_color(tag) == (*terrain_rgb(tag), draw.TERRAIN_ALPHA)
        assert_color(image, x, y, (*terrain_rgb(tag), draw.TERRAIN_ALPHA), f"{tag} tint in the window")
        assert png.getpixel((8 + x, png.height - 1 - 8 - y)) == terrain_rgb(tag), tag


def test_terrain_colors_are_stable() -> None:
    assert draw.terrain_color("swamp") == tuple(draw.TERRAIN_COLORS["swamp"])
    assert draw.terrain_color("swamp", {"swamp": (1, 2, 3)}) == (1, 2, 3, 255)
    assert draw.terrain_color("no-such-tag") == draw.terrain_color("no-such-tag")


def test_polymesh_fills_walkable_polygons_and_draws_their_edges(window: Any, screenshot_dir: Any) -> None:
    from navmesh.polymesh.build import build_navmesh

    level = Level((0, 0, 800, 600), obstacles=[[(300, 0), (500, 0), (500, 400), (300, 400)]],
                  terrain=[TerrainRegion([(600, 400), (800, 400), (800, 600), (600, 600)], "swamp")])
    mesh = build_navmesh(level)
    fill, edge = (40, 120, 200, 255), (250, 250, 250, 255)
    shapes = draw.polymesh_shapes(mesh, fill_color=fill, edge_color=edge, line_width=3, terrain_colors={"swamp": SWAMP})
    image = render(window, shapes.draw)
    image.save(screenshot_dir / "arcade_draw_polymesh.png")
    assert_color(image, 400, 200, BG, "inside the obstacle (not walkable: no fill)")
    # an edge between two polygons (inside the window, whatever the polygons' numbering)
    slot = int(np.flatnonzero(mesh.neighbours >= 0)[0])
    p = int(mesh.polygon_of[slot])
    after = slot + 1 if slot + 1 < mesh.indptr[p + 1] else int(mesh.indptr[p])
    mid = (mesh.vertices[mesh.indices[slot]] + mesh.vertices[mesh.indices[after]]) / 2
    assert_color(image, mid[0], mid[1], edge, "a polygon edge")
    inner = [p for p in range(mesh.n_polygons) if mesh.tag_of(p) == ""]
    c = mesh.polygon_points(inner[0]).mean(axis=0)
    assert_color(image, c[0], c[1], fill, "inside a plain-ground polygon")
    assert_color(image, 700, 500, SWAMP, "inside the swamp polygon")
    with pytest.raises(InvalidOptionError):
        draw.polymesh_shapes(level)
