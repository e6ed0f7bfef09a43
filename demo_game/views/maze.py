"""Cat and mouse on a tile maze: you steer the mouse, the cat re-runs ``navmesh.first_step`` every step."""

from __future__ import annotations

import arcade
import numpy as np
from PIL import Image, ImageDraw

import navmesh
import navmesh.arcade_draw as nd

from .base import DemoView

CELL = 32.0
COLS, ROWS = 31, 21
MOUSE_STEP = 0.12  # seconds per mouse step
CAT_STEP = 0.16  # seconds per cat step
WALL_COLOR = (70, 76, 98)

HELP = [
    ("Arrows / WASD", "steer the mouse (hold to keep running)"),
    ("P", "show the cat's whole path (grid A*)"),
    ("R", "new maze"),
    ("", "The cat runs navmesh.first_step(maze, cat, mouse)"),
    ("", "before every step: one breadth-first search, only"),
    ("", "the first move is kept."),
]
DIRS = {arcade.key.UP: (0, -1), arcade.key.W: (0, -1), arcade.key.DOWN: (0, 1), arcade.key.S: (0, 1),
        arcade.key.LEFT: (-1, 0), arcade.key.A: (-1, 0), arcade.key.RIGHT: (1, 0), arcade.key.D: (1, 0)}


def make_maze(cols: int, rows: int, seed: int, loops: float = 0.08) -> list[str]:
    """A perfect maze (depth-first carving) with a fraction ``loops`` of extra openings.

    ``cols`` and ``rows`` are odd; rows of ``@`` (wall) and ``.`` (floor), top row first.
    """
    rng = np.random.default_rng(seed)
    walls = np.ones((rows, cols), dtype=bool)
    stack = [(1, 1)]
    walls[1, 1] = False
    while stack:
        r, c = stack[-1]
        nxt = [(r + dr, c + dc, dr, dc) for dr, dc in ((-2, 0), (2, 0), (0, -2), (0, 2))
               if 0 < r + dr < rows - 1 and 0 < c + dc < cols - 1 and walls[r + dr, c + dc]]
        if not nxt:
            stack.pop()
            continue
        r2, c2, dr, dc = nxt[rng.integers(len(nxt))]
        walls[r + dr // 2, c + dc // 2] = False
        walls[r2, c2] = False
        stack.append((r2, c2))
    inner = np.argwhere(walls[1:-1, 1:-1]) + 1
    # Open some walls between two floor cells in a line, giving the mouse loops to run around.
    between = [(r, c) for r, c in inner
               if (not walls[r - 1, c] and not walls[r + 1, c] and walls[r, c - 1] and walls[r, c + 1])
               or (not walls[r, c - 1] and not walls[r, c + 1] and walls[r - 1, c] and walls[r + 1, c])]
    for i in rng.permutation(len(between))[: int(loops * len(between))]:
        walls[between[i]] = False
    return ["".join("@" if w else "." for w in row) for row in walls]


def _critter(body: tuple[int, int, int], ears: bool) -> Image.Image:
    img = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if ears:
        d.polygon([(12, 20), (18, 2), (28, 16)], fill=body)
        d.polygon([(52, 20), (46, 2), (36, 16)], fill=body)
    else:
        d.ellipse((4, 4, 24, 24), fill=body)
        d.ellipse((40, 4, 60, 24), fill=body)
    d.ellipse((8, 10, 56, 58), fill=body, outline=(20, 20, 20), width=3)
    for x in (22, 42):
        d.ellipse((x - 4, 26, x + 4, 34), fill=(20, 20, 20))
    d.ellipse((28, 38, 36, 44), fill=(240, 120, 140))
    return img


class MazeView(DemoView):
    """A maze, a mouse (you) and a cat (``navmesh.first_step``)."""

    title = "Cat and mouse"

    def __init__(self, window: arcade.Window | None = None, *, seed: int = 0, scenario: bool = False,
                 **kwargs) -> None:
        super().__init__(window, help_lines=HELP, **kwargs)
        self.seed = seed
        self.camera = arcade.Camera2D()
        self.sprites = arcade.SpriteList()
        self.cat_sprite = arcade.Sprite(arcade.Texture(_critter((240, 150, 50), True), hash="navmesh-demo-cat"),
                                        scale=CELL * 0.95 / 64)
        self.mouse_sprite = arcade.Sprite(arcade.Texture(_critter((190, 190, 200), False), hash="navmesh-demo-mouse"),
                                          scale=CELL * 0.8 / 64)
        self.sprites.extend([self.mouse_sprite, self.cat_sprite])
        self.show_path = scenario
        self.new_maze(seed)

    def new_maze(self, seed: int) -> None:
        """A fresh maze; the mouse starts bottom-left, the cat top-right."""
        self.grid = navmesh.GridMap.from_strings(make_maze(COLS, ROWS, seed), cell_size=CELL, connectivity=4)
        self.walls = nd.grid_shapes(self.grid, wall_color=WALL_COLOR)
        self.mouse = self.grid.cell_id(1, ROWS - 2)
        self.cat = self.grid.cell_id(COLS - 2, 1)
        self.caught = 0
        self.cat_steps = 0
        self.heading: tuple[int, int] | None = None
        self._held: list[int] = []
        self._mouse_clock = 0.0
        self._cat_clock = 0.0
        self._fit_camera()

    def _fit_camera(self) -> None:
        w, h = self.window.width, self.window.height
        self.camera.match_window()
        size = np.array([COLS * CELL, ROWS * CELL])
        self.camera.zoom = 0.96 * min(w / size[0], (h - 70) / size[1])
        self.camera.position = (size[0] / 2, size[1] / 2 + 35 / self.camera.zoom)

    # -- game -----------------------------------------------------------------------------------
    def move_mouse(self, dx: int, dy: int) -> bool:
        """Step the mouse one cell (dy > 0 is down a row) if the cell is free."""
        col, row = (int(v) for v in self.grid.col_row(self.mouse))
        c, r = col + dx, row + dy
        if 0 <= c < COLS and 0 <= r < ROWS and not self.grid.blocked[r, c]:
            self.mouse = self.grid.cell_id(c, r)
            return True
        return False

    def cat_move(self) -> None:
        """One cat step toward the mouse: a fresh first-step search."""
        if self.cat != self.mouse:
            self.cat = navmesh.first_step(self.grid, self.cat, self.mouse)
            self.cat_steps += 1
        if self.cat == self.mouse:
            self.caught += 1
            self.cat = self.grid.cell_id(COLS - 2, 1) if self.mouse != self.grid.cell_id(COLS - 2, 1) \
                else self.grid.cell_id(1, 1)

    def step(self, dt: float) -> None:
        self._mouse_clock += dt
        if self._held and self._mouse_clock >= MOUSE_STEP:
            self._mouse_clock = 0.0
            self.move_mouse(*DIRS[self._held[-1]])
        elif not self._held:
            self._mouse_clock = min(self._mouse_clock, MOUSE_STEP)
        self._cat_clock += dt
        while self._cat_clock >= CAT_STEP:
            self._cat_clock -= CAT_STEP
            self.cat_move()

    def key(self, symbol: int, modifiers: int) -> None:
        if symbol in DIRS:
            self._held.append(symbol)
            self.move_mouse(*DIRS[symbol])
            self._mouse_clock = 0.0
        elif symbol == arcade.key.P:
            self.show_path = not self.show_path
        elif symbol == arcade.key.R:
            self.seed += 1
            self.new_maze(self.seed)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        while symbol in self._held:
            self._held.remove(symbol)

    # -- drawing --------------------------------------------------------------------------------
    def draw(self) -> None:
        self.camera.use()
        w, h = COLS * CELL, ROWS * CELL
        arcade.draw_lrbt_rectangle_filled(0, w, 0, h, (26, 30, 40))
        self.walls.draw()
        if self.show_path and self.cat != self.mouse:
            path = navmesh.grid_astar(self.grid, self.cat, self.mouse)
            nd.draw_path(path, color=(255, 150, 60, 200), line_width=4.0, point_radius=0.0)
        self.mouse_sprite.position = tuple(self.grid.cell_center(self.mouse))
        self.cat_sprite.position = tuple(self.grid.cell_center(self.cat))
        self.sprites.draw()

    def draw_hud(self) -> None:
        self.draw_header(f"caught {self.caught} times   cat steps {self.cat_steps}   "
                         "arrows: run, mouse!   P: cat's path   R: new maze")

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._fit_camera()
