"""Compile the navigation kernels at load time instead of in the first frame.

navmesh's searches run as numba kernels. The first call of each kernel in a fresh installation
compiles it (seconds); numba then caches the machine code on disk, so later program starts only
load it (a fraction of a second, still a visible hitch in a game's first ``on_update``). Call
:func:`warm_up` once while the game loads, behind a loading screen, with the parts the game uses.

The first real compilation in a process (a cache miss, not a cache load) also logs the one-time
notice "compiling navigation kernels, once ..." on the ``navmesh`` logger at WARNING level, so a
program that seems to hang on its first search says why. Nothing is printed by the library itself:
with no logging configured, Python shows warnings on stderr.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Iterable

import numpy as np
from numba.core import event

from navmesh._checks import describe
from navmesh.errors import InvalidOptionError

__all__ = ["warm_up", "PARTS"]

logger = logging.getLogger("navmesh")

PARTS: tuple[str, ...] = ("waypoints", "grid", "jps", "flowfield", "steering", "mesh")
"""What :func:`warm_up` can compile, each only when asked: waypoint graphs and their queries
(``NavQuery``), grid A* and the maze first-step search, Jump Point Search, flow fields, path
followers and crowds, navigation meshes (build and Polyanya queries)."""

COMPILE_NOTICE = (
    "compiling navigation kernels, once: the first search in a new installation takes a few "
    "seconds; later runs load them from numba's cache (call navmesh.warm_up() while the game loads)"
)


def _waypoints() -> None:
    from navmesh.level import Level
    from navmesh.search import astar
    from navmesh.terrain import CostProfile, TerrainRegion
    from navmesh.waypoints.build import build_waypoint_graph
    from navmesh.waypoints.query import NavQuery

    swamp = TerrainRegion([(0, 0), (4, 0), (4, 3), (0, 3)], "swamp")
    level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]], terrain=[swamp])
    nav = build_waypoint_graph(level, corners=True, agent_radius=0.25)
    for profile in (None, CostProfile("warm", multipliers={"swamp": 2.0})):
        query = NavQuery(nav, profile)
        for refine in ("any_angle", "smooth", "none"):
            query.find_path((1, 1), (11, 9), refine=refine)
        query.find_paths([(1, 1), (2, 9)], [(11, 9), (11, 1)])
        search = query.start_search((1, 1), (11, 9))
        while not search.advance(4):
            pass
        search.result()
    astar(nav.graph, 0, nav.n_nodes - 1)


def _grid() -> None:
    from navmesh.grid import GridMap, first_step, grid_astar

    grid = _small_grid()
    goal = grid.cell_id(5, 2)
    grid_astar(grid, 0, goal)
    first_step(grid, 0, goal)
    grid_astar(GridMap(np.array([[1.0, 2.0, 1.0], [1.0, np.inf, 1.0], [1.0, 3.0, 1.0]])), 0, 8)


def _jps() -> None:
    from navmesh.grid import jump_point_search

    grid = _small_grid()
    jump_point_search(grid, 0, grid.cell_id(5, 2))


def _flowfield() -> None:
    from navmesh.grid import FlowField

    grid = _small_grid()
    field = FlowField(grid, grid.cell_id(5, 2))
    field.path_from(0)
    field.next_cell(np.array([0, 1]))


def _small_grid() -> Any:
    from navmesh.grid import GridMap

    return GridMap.from_strings(["......", ".####.", "......"])


def _steering() -> None:
    from navmesh.level import Level
    from navmesh.steering import Crowd, PathFollower
    from navmesh.waypoints.build import build_waypoint_graph

    level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]])
    nav = build_waypoint_graph(level, corners=True, agent_radius=0.25)
    for mode in ("straight", "hermite"):
        follower = PathFollower([[1, 1], [4, 9], [11, 9]], 5.0, mode=mode, navmap=nav, radius=0.25)
        follower.update(0.1)
        follower.chase((11, 1))
        follower.update(0.1)
    for world in (nav, _small_grid()):
        crowd = Crowd(world)
        ids = crowd.add([[0.5, 0.5], [0.5, 1.5]], radius=0.2, speed=4.0)
        crowd.move_to(ids, [5.5, 2.5])
        for _ in range(3):
            crowd.update(1 / 60)


def _mesh() -> None:
    from navmesh.level import Level
    from navmesh.polymesh.build import build_navmesh
    from navmesh.polymesh.query import MeshQuery

    level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]])
    query = MeshQuery(build_navmesh(level, agent_radius=0.25))
    query.find_path((1, 1), (11, 9))
    query.find_path((1, 1), (2, 2))
    query.raycast((1, 1), (11, 1))


_WORK: dict[str, Callable[[], None]] = {
    "waypoints": _waypoints, "grid": _grid, "jps": _jps, "flowfield": _flowfield, "steering": _steering,
    "mesh": _mesh,
}


def warm_up(
    parts: Iterable[str] = PARTS,
    *,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, float]:
    """Compile (or load from numba's cache) the kernels of the given parts, now.

    Each part runs a few tiny representative calls through the public API, so exactly the kernel
    specialisations a game's own calls need are compiled. Call it once at load time; afterwards
    the first search of each kind costs what every later one does.

    Parameters
    ----------
    parts : iterable of {"waypoints", "grid", "jps", "flowfield", "steering", "mesh"}
        What the game uses (default: all); name only those to compile only their kernels.
        ``"steering"`` includes waypoint graphs and grids as far as followers and crowds use them.
    progress : callable(part, done, total), optional
        Called before each part (``done`` parts finished of ``total``) and once at the end with
        ``part=""`` and ``done == total``; for a loading screen. Progress is also logged on the
        ``navmesh`` logger at INFO level.

    Returns
    -------
    dict of str to float
        Seconds spent on each part (a few seconds on a fresh installation, well under one
        second when the cache is warm).

    Raises
    ------
    InvalidOptionError
        An unknown part, or ``progress`` is not callable.

    Examples
    --------
    >>> seconds = warm_up(["grid"])
    >>> sorted(seconds)
    ['grid']
    """
    if isinstance(parts, str):
        parts = (parts,)
    wanted = list(dict.fromkeys(parts))
    unknown = [p for p in wanted if p not in _WORK]
    if unknown or not wanted:
        raise InvalidOptionError(f"parts={describe(wanted)} is not valid; expected one or more of {list(PARTS)}")
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress={describe(progress)} is not valid; expected a callable or None")
    seconds: dict[str, float] = {}
    for done, part in enumerate(wanted):
        logger.info("navmesh warm-up: %s (%d of %d)", part, done + 1, len(wanted))
        if progress is not None:
            progress(part, done, len(wanted))
        t0 = time.perf_counter()
        _WORK[part]()
        seconds[part] = time.perf_counter() - t0
    logger.info("navmesh warm-up done in %.2f s", sum(seconds.values()))
    if progress is not None:
        progress("", len(wanted), len(wanted))
    return seconds


class _CompileNotice(event.Listener):
    """Logs :data:`COMPILE_NOTICE` the first time numba really compiles a navmesh kernel."""

    def __init__(self) -> None:
        self.told = False

    def on_start(self, ev: event.Event) -> None:
        if self.told:
            return
        dispatcher = (ev.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if module.startswith("navmesh."):
            self.told = True
            logger.warning(COMPILE_NOTICE)

    def on_end(self, ev: event.Event) -> None:
        pass


_notice = _CompileNotice()
event.register("numba:compile", _notice)
