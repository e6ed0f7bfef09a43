"""Levels and tile maps from each other: a level rasterised into a :class:`~navmesh.grid.GridMap`
for one unit type, and a tile map turned into a :class:`~navmesh.level.Level`.

Rasterising follows the library's own rules, so a grid search and a waypoint search on the same
level agree on what is walkable and what costs what: a cell is a wall where an agent's centre may
not stand at the cell's centre (:meth:`Level.line_of_sight`'s ``walkable`` for the agent radius),
and otherwise costs the unit type's multiplier of the terrain there
(:meth:`CostProfile.tag_multipliers <navmesh.terrain.CostProfile.tag_multipliers>`, the painter's
rule of :mod:`navmesh.terrain`; forbidden terrain is a wall).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import shapely

from navmesh._checks import check_nonneg_float, check_option
from navmesh.errors import InvalidOptionError, describe
from navmesh.geometry import cell_rectangles
from navmesh.grid.map import GridMap
from navmesh.level import Level
from navmesh.terrain import CostProfile

__all__ = ["grid_from_level", "level_from_grid"]


def grid_from_level(
    level: Level, cell_size: float, *, profile: CostProfile | None = None, agent_radius: float = 0.0
) -> GridMap:
    """The level as a tile map of ``cell_size`` squares, for one unit type.

    The grid covers the level's bounding box from its top-left corner (row 0 is the top row):
    ``floor(width / cell_size)`` columns and ``floor(height / cell_size)`` rows. Each cell is
    judged at its centre.

    Parameters
    ----------
    level : Level
        The level.
    cell_size : float
        Side of a cell in world units, > 0.
    profile : CostProfile, optional
        The unit type: terrain multipliers become cell costs, forbidden terrain becomes walls.
        Default: every tag x1.
    agent_radius : float
        Radius of the unit in world units, >= 0: a cell whose centre lies closer than this to an
        obstacle (or the bounds' edge) is a wall.

    Returns
    -------
    GridMap
        Costs: the multiplier at each cell centre, ``inf`` for walls.

    Raises
    ------
    InvalidOptionError
        ``cell_size`` is not > 0, ``agent_radius`` is negative, or the level is smaller than one cell.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> level = Level.rectangle(4, 2, obstacles=[[(2, 0), (3, 0), (3, 1), (2, 1)]],
    ...                         terrain=[([(0, 1), (2, 1), (2, 2), (0, 2)], "swamp")])
    >>> grid_from_level(level, 1.0, profile=CostProfile("tank", {"swamp": 3.0})).costs.tolist()
    [[3.0, 3.0, 1.0, 1.0], [1.0, 1.0, inf, 1.0]]
    """
    if not isinstance(level, Level):
        raise InvalidOptionError(f"level={describe(level)} is not a Level")
    cell = check_nonneg_float("cell_size", cell_size, allow_none=False)
    if cell <= 0:
        raise InvalidOptionError(f"cell_size={describe(cell_size)} is not valid; expected a number > 0 (world units)")
    radius = check_nonneg_float("agent_radius", agent_radius, allow_none=False)
    prof = CostProfile() if profile is None else profile
    if not isinstance(prof, CostProfile):
        raise InvalidOptionError(f"profile={describe(profile)} is not a CostProfile")
    xmin, ymin, xmax, ymax = level.bounds.bounds
    cols, rows = int((xmax - xmin) // cell), int((ymax - ymin) // cell)
    if cols < 1 or rows < 1:
        raise InvalidOptionError(
            f"cell_size={cell:g} is not valid; the level ({xmax - xmin:g} x {ymax - ymin:g}) must hold at least one cell"
        )
    x, y = np.meshgrid(xmin + (np.arange(cols) + 0.5) * cell, ymax - (np.arange(rows) + 0.5) * cell)
    centres = np.column_stack([x.reshape(-1), y.reshape(-1)])
    tags = level.terrain_layer().tag_at(centres)
    costs = prof.tag_multipliers(tags.tolist())
    costs[~level.line_of_sight(agent_radius=radius).walkable(centres)] = np.inf
    return GridMap(costs.reshape(rows, cols), cell_size=cell, origin=(xmin, ymax - rows * cell))


def level_from_grid(grid: GridMap, *, waypoints: Literal["cells", "none"] = "cells") -> Level:
    """A level from a tile map: its walls as obstacle polygons, optionally a waypoint per free cell.

    Blocked cells sharing an edge merge into one obstacle (holes kept), so an editor shows walls,
    not hundreds of strips. The bounds are the grid's rectangle.

    Parameters
    ----------
    grid : GridMap
        The tile map.
    waypoints : {"cells", "none"}
        ``"cells"``: a waypoint at every free cell's centre; ``"none"``: no waypoints.

    Returns
    -------
    Level

    Examples
    --------
    >>> from navmesh.grid import GridMap
    >>> level = level_from_grid(GridMap.from_strings(["..#", "..#"]))
    >>> [p.bounds for p in level.obstacles], level.n_waypoints
    ([(2.0, 0.0, 3.0, 2.0)], 4)
    """
    if not isinstance(grid, GridMap):
        raise InvalidOptionError(f"grid={describe(grid)} is not a GridMap")
    check_option("waypoints", waypoints, ("cells", "none"))
    s = grid.cell_size
    ox, oy = grid.origin
    # simplify(0) drops the vertices left between merged boxes
    walls = shapely.simplify(shapely.union_all(cell_rectangles(grid.blocked[::-1])), 0.0)
    obstacles = [shapely.transform(p, lambda xy: xy * s + (ox, oy)) for p in shapely.get_parts(walls) if p.area > 0]
    free = np.flatnonzero(~grid.blocked.reshape(-1))
    points = grid.cell_center(free) if waypoints == "cells" else np.zeros((0, 2))
    w, h = grid.width * s, grid.height * s
    bounds = [(ox, oy), (ox + w, oy), (ox + w, oy + h), (ox, oy + h)]
    return Level(bounds, obstacles=obstacles, waypoints=points)
