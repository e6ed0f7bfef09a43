"""Cat and mouse: the cat's first-step search catches a mouse that stands still, by a shortest way."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse
import scipy.sparse.csgraph
from demo_drive import arcade, frame, pixel, run

from demo_game.views.maze import CAT_STEP, COLS, ROWS, MazeView, make_maze


def maze_hops(rows: list[str], a: tuple[int, int], b: tuple[int, int]) -> int:
    """Fewest 4-connected steps between two (col, row) cells of a maze, by scipy (independent)."""
    free = np.array([[ch == "." for ch in row] for row in rows])
    h, w = free.shape
    ids = np.arange(h * w).reshape(h, w)
    pairs = [(ids[:, :-1][free[:, :-1] & free[:, 1:]], ids[:, 1:][free[:, :-1] & free[:, 1:]]),
             (ids[:-1, :][free[:-1, :] & free[1:, :]], ids[1:, :][free[:-1, :] & free[1:, :]])]
    u = np.concatenate([p[0] for p in pairs])
    v = np.concatenate([p[1] for p in pairs])
    m = scipy.sparse.coo_array((np.ones(len(u)), (u, v)), shape=(h * w, h * w))
    d = scipy.sparse.csgraph.shortest_path(m.tocsr(), directed=False, unweighted=True, indices=ids[a[1], a[0]])
    return int(d[ids[b[1], b[0]]])


def test_the_maze_is_connected_and_has_loops() -> None:
    rows = make_maze(COLS, ROWS, seed=4)
    free = np.array([[ch == "." for ch in row] for row in rows])
    cells = np.argwhere(free)
    reach = [maze_hops(rows, (1, 1), (int(c), int(r))) for r, c in cells]
    assert max(reach) < 10**6  # every floor cell is reachable from the corner
    edges = sum(free[r, c] and free[r, c + 1] for r in range(ROWS) for c in range(COLS - 1)) + sum(
        free[r, c] and free[r + 1, c] for r in range(ROWS - 1) for c in range(COLS))
    assert edges > len(cells) - 1  # more corridors than a tree: there are loops to run around


def test_the_cat_catches_a_mouse_that_stands_still(window: Any) -> None:
    view = MazeView(window, seed=2)
    window.show_view(view)
    rows = make_maze(COLS, ROWS, seed=2)
    mouse = view.mouse
    mc, mr = (int(v) for v in view.grid.col_row(view.mouse))
    cc, cr = (int(v) for v in view.grid.col_row(view.cat))
    hops = maze_hops(rows, (cc, cr), (mc, mr))
    assert hops > 20
    run(view, int(3 * hops * CAT_STEP * 60), until=lambda: view.caught > 0)  # 1/60 s updates: a cat step every 0.16 s
    assert view.caught == 1 and view.mouse == mouse
    assert view.cat_steps == hops  # one cell per step, along a shortest way


def test_the_mouse_runs_along_corridors_and_not_through_walls(window: Any) -> None:
    view = MazeView(window, seed=2)
    window.show_view(view)
    col, row = (int(v) for v in view.grid.col_row(view.mouse))
    assert (col, row) == (1, ROWS - 2)
    view.on_key_press(arcade.key.DOWN, 0)  # the outer wall
    view.on_key_release(arcade.key.DOWN, 0)
    view.on_key_press(arcade.key.LEFT, 0)
    view.on_key_release(arcade.key.LEFT, 0)
    assert tuple(int(v) for v in view.grid.col_row(view.mouse)) == (1, ROWS - 2)
    free_dir = arcade.key.UP if not view.grid.blocked[ROWS - 3, 1] else arcade.key.RIGHT
    view.on_key_press(free_dir, 0)
    run(view, 30)  # held for half a second: a few more cells, never into a wall
    view.on_key_release(free_dir, 0)
    c, r = (int(v) for v in view.grid.col_row(view.mouse))
    assert (c, r) != (1, ROWS - 2) and not view.grid.blocked[r, c]


def test_screenshot_shows_the_maze_cat_and_mouse(window: Any, screenshot_dir: Any) -> None:
    view = MazeView(window, seed=2)
    view.on_key_press(arcade.key.P, 0)
    image = frame(window, view)
    image.save(screenshot_dir / "demo_maze.png")
    wall = view.grid.cell_center(view.grid.cell_id(0, 0))
    x, y = view.camera.project((float(wall[0]), float(wall[1])))[:2]
    assert pixel(image, x, y) == (70, 76, 98)
    cat = view.grid.cell_center(view.cat)
    x, y = view.camera.project((float(cat[0]), float(cat[1]) - 8.0))[:2]  # the cat's orange body
    r, g, b = pixel(image, x, y)
    assert r > 200 and 120 < g < 180 and b < 90
