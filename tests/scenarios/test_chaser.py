"""arcade's ``astar_pathfinding.py`` chaser, played for thousands of frames on random levels.

The level is built like the arcade example: wall sprites in columns three tiles apart, each tile
a wall with probability 0.7, inside a playing field with a margin. A small player walks from wall
to wall, its goals touching a wall's side (it hugs walls). The chaser is a sprite of an agent
radius between 8 and 20; every ``REPLAN`` frames it re-plans with ``walk_to`` from wherever it
stands toward where the player stands, and ``follow_path`` moves it each frame by 1/60 s; the
glue is the README's. The chaser starts inside a wall sprite. Checked every frame: no exception
at all (not even ``NoPathError``: the field is connected for every chaser), the chaser never
stalls (a frame moves it unless its route is done) and never jumps (no step longer than speed x
dt, walking out of its start wall included), and once out of that wall its hit box never
overlaps a wall sprite's hit box (shapely intersection area above 1e-9). Both a waypoint map and
a tile grid chase; each catches the player.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

arcade = pytest.importorskip("arcade")

import navmesh  # noqa: E402
from navmesh.arcade_adapt import (  # noqa: E402
    follow_path,
    grid_from_sprites,
    level_from_sprites,
    sprite_radius,
    walk_to,
)

TILE = 32  # the example's SPRITE_SIZE
COLUMNS, ROWS = 10, 15
FIELD = (-2 * TILE, -2 * TILE, 35 * TILE, 17 * TILE)  # the example's playing field (left, bottom, right, top)
FRAMES = 2400
DT = 1 / 60
REPLAN = 8  # frames between re-plans
PLAYER_SPEED, CHASER_SPEED = 150.0, 135.0
OVERLAP = 1e-9  # px^2: more than this counts as the chaser's hit box over a wall


def example_walls(rng: np.random.Generator, shift: float) -> arcade.SpriteList:
    """The example's wall sprites: columns 3 tiles apart, each tile a wall with probability 0.7,
    moved by ``shift`` px (the example's tiles straddle the grid's cells; shifted by half a tile
    they stand on cells, as a tile game's do)."""
    walls = arcade.SpriteList()
    for column in range(COLUMNS):
        for row in range(ROWS):
            if rng.integers(100) > 30:
                walls.append(arcade.SpriteSolidColor(TILE, TILE, center_x=(column + 1) * 3 * TILE + shift,
                                                     center_y=(row + 1) * TILE + shift))
    return walls


def hugging_goals(walls: arcade.SpriteList, player: arcade.Sprite) -> np.ndarray:
    """Positions where the player's hit box touches the left or right side of a wall sprite."""
    half = sprite_radius(player, fit="box")
    xy = np.array([w.position for w in walls])
    side = TILE / 2 + half
    return np.concatenate([xy - [side, 0.0], xy + [side, 0.0]])


def chase(kind: str, seed: int, frames: int = FRAMES, shift: float = TILE / 2) -> dict[str, float]:
    """Play one chase; return its figures (asserts nothing: the test does)."""
    rng = np.random.default_rng(seed)
    walls = example_walls(rng, shift)
    boxes = shapely.union_all([shapely.Polygon(w.hit_box.get_adjusted_points()) for w in walls])
    shapely.prepare(boxes)
    level = level_from_sprites(walls, bounds=FIELD)

    player = arcade.SpriteSolidColor(16, 16, center_x=5 * TILE, center_y=-TILE)
    player_nav = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True,
                                                               agent_radius=sprite_radius(player)))
    goals = hugging_goals(walls, player)

    if kind == "waypoints":
        radius = float(rng.uniform(8, 20))  # the circle round the chaser's square hit box
        side = radius * np.sqrt(2)
        chaser = arcade.SpriteSolidColor(side, side)
        where = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True, agent_radius=sprite_radius(chaser)))
    else:
        half = float(rng.uniform(8, 16))  # a hit box that fits a tile: passes one-tile corridors
        chaser = arcade.SpriteSolidColor(2 * half, 2 * half)
        where = grid_from_sprites(walls, TILE, bounds=FIELD, agent_radius=sprite_radius(chaser, fit="box"))
    chaser.position = walls[int(rng.integers(len(walls)))].position  # it starts inside a wall and walks out

    walker = walk_to(player, player_nav, goals[rng.integers(len(goals))], speed=PLAYER_SPEED)
    follower = walk_to(chaser, where, player.position, speed=CHASER_SPEED)
    stats = {"frames": 0, "overlap_frames": 0, "worst_overlap": 0.0, "stalls": 0, "catches": 0, "replans": 0,
             "first_clear_frame": -1, "max_step": 0.0}
    for frame in range(frames):
        if walker.done:
            walker = walk_to(player, player_nav, goals[rng.integers(len(goals))], speed=PLAYER_SPEED)
        follow_path(player, walker, DT)
        if frame % REPLAN == 0:
            follower = walk_to(chaser, where, player.position, speed=CHASER_SPEED)
            stats["replans"] += 1
        before = np.array(chaser.position)
        done_before = follower.done
        follow_path(chaser, follower, DT)
        moved = float(np.hypot(*(np.array(chaser.position) - before)))
        stats["max_step"] = max(stats["max_step"], moved)
        if not done_before and moved == 0.0:
            stats["stalls"] += 1
        box = shapely.Polygon(chaser.hit_box.get_adjusted_points())
        area = float(shapely.intersection(box, boxes).area)
        if area > OVERLAP:
            if stats["first_clear_frame"] >= 0:  # overlapping again after it walked out of the start wall
                stats["overlap_frames"] += 1
                stats["worst_overlap"] = max(stats["worst_overlap"], area / box.area)
        elif stats["first_clear_frame"] < 0:
            stats["first_clear_frame"] = frame
        if np.hypot(*(np.array(chaser.position) - np.array(player.position))) < 24:
            stats["catches"] += 1
        stats["frames"] += 1
    return stats


@pytest.mark.parametrize(("seed", "shift"), [(1, TILE / 2), (2, TILE / 2), (3, 0.0)])
@pytest.mark.parametrize("kind", ["waypoints", "grid"])
def test_the_chaser_never_crashes_stalls_or_clips_a_wall(kind, seed, shift):
    stats = chase(kind, seed, shift=shift)  # any exception fails the test
    assert stats["frames"] == FRAMES
    assert stats["stalls"] == 0, stats
    assert stats["max_step"] <= CHASER_SPEED * DT * (1 + 1e-9), stats  # no jump, not even out of the start wall
    assert 0 <= stats["first_clear_frame"] < 60, stats  # out of its start wall within a second
    assert stats["overlap_frames"] == 0, stats
    assert stats["catches"] > 0, stats
