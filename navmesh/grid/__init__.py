"""Tile maps: `GridMap` (the map), grid searches and the maze first-step search, flow fields,
JPS+ preprocessing and the per-target first-step cache."""

from navmesh.grid.flowfield import FlowField
from navmesh.grid.map import GridMap
from navmesh.grid.preprocess import JumpTable
from navmesh.grid.rules import DIRECTION_NAMES
from navmesh.grid.search import (
    find_path,
    first_step,
    first_steps,
    grid_astar,
    grid_dijkstra,
    jps_plus,
    jump_point_search,
)
from navmesh.grid.targets import TargetFieldCache

__all__ = [
    "DIRECTION_NAMES",
    "FlowField",
    "GridMap",
    "JumpTable",
    "TargetFieldCache",
    "find_path",
    "first_step",
    "first_steps",
    "grid_astar",
    "grid_dijkstra",
    "jps_plus",
    "jump_point_search",
]
