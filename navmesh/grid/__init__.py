"""Tile maps: `GridMap` (the map), grid searches and the maze first-step search, flow fields."""

from navmesh.grid.flowfield import FlowField
from navmesh.grid.map import DIRECTION_NAMES, GridMap
from navmesh.grid.search import (
    first_step,
    first_steps,
    grid_astar,
    grid_dijkstra,
    jump_point_search,
)

__all__ = [
    "DIRECTION_NAMES",
    "FlowField",
    "GridMap",
    "first_step",
    "first_steps",
    "grid_astar",
    "grid_dijkstra",
    "jump_point_search",
]
