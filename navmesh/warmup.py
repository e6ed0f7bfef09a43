"""Compile the navigation kernels at load time instead of in the first frame.

navmesh's searches run as numba kernels. The first call of each kernel in a fresh installation
compiles it (seconds); numba then caches the machine code on disk, so later program starts only
load it (a fraction of a second, still a visible hitch in a game's first ``on_update``). Call
:func:`warm_up` once while the game loads, with the parts the game uses, or drive
:func:`warm_up_steps` from a loading screen: one short step per frame, with the compiling done by
a helper process so that frames keep coming.

For a game whose first screen needs only some parts, :class:`KernelLoader` is the same work as
an object that says what is ready on the way: :meth:`KernelLoader.compiled` (numba's on-disk cache
holds the parts' kernels, so a first call only loads them, milliseconds) and
:meth:`KernelLoader.loaded` (their steps ran in this process). Every finished part is written
down in a small record beside numba's cache (``navmesh-parts-pyXY.json``, keyed by the kernel
sources, numba's version and the machine), so a later start knows at once which parts are
compiled without loading them.

The first real compilation in a process (a cache miss, not a cache load) also logs the one-time
notice "compiling navigation kernels, once ..." on the ``navmesh`` logger at WARNING level, so a
program that seems to hang on its first search says why (the listener is registered with the
kernels, in :mod:`navmesh._kernels`). Nothing is printed by the library itself: with no logging
configured, Python shows warnings on stderr.

Importing this module is cheap (numba is imported by the first step), so a loading screen can
make its :class:`KernelLoader` before its first frame.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from navmesh.errors import InvalidOptionError
from navmesh.warmup_record import CompiledParts

if TYPE_CHECKING:
    from navmesh.warmup_helpers import Helper, Session

__all__ = ["warm_up", "warm_up_steps", "KernelLoader", "PARTS"]

logger = logging.getLogger("navmesh")

PARTS: tuple[str, ...] = ("waypoints", "grid", "jps", "flowfield", "steering", "mesh")
"""What :func:`warm_up` can compile, each only when asked: waypoint graphs, their queries
(``NavQuery``) and the graph searches (``astar`` ... ``search_trace``); grid paths (JPS+ and A*)
and the maze first-step search; Jump Point Search without a table; flow fields; path followers
and crowds; navigation meshes (build and Polyanya queries)."""

COMPILE_NOTICE = (
    "compiling navigation kernels, once: the first search in a new installation takes a few "
    "seconds; later runs load them from numba's cache (call navmesh.warm_up() while the game loads)"
)

Step = tuple[str, str, Callable[[dict[str, Any]], None]]


# -- the representative calls, in steps ------------------------------------------------------------
# Each step is a few tiny calls through the public API, so exactly the kernel specialisations a
# game's own calls need are compiled; ``ctx`` carries what a part's earlier steps built.


def _wp_nav(ctx: dict[str, Any]) -> Any:
    """The waypoint part's graph with terrain (built once per context)."""
    if "nav" not in ctx:
        from navmesh.level import Level
        from navmesh.terrain import TerrainRegion
        from navmesh.waypoints.build import build_waypoint_graph

        swamp = TerrainRegion([(0, 0), (4, 0), (4, 3), (0, 3)], "swamp")
        level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]], terrain=[swamp])
        ctx["nav"] = build_waypoint_graph(level, corners=True, agent_radius=0.25, fill_spacing=3.0)
    return ctx["nav"]


def _wp_plain(ctx: dict[str, Any]) -> Any:
    """The waypoint part's graph on uniform ground: NavQuery's one-call road (its own kernel)."""
    if "plain" not in ctx:
        from navmesh.level import Level
        from navmesh.waypoints.build import build_waypoint_graph

        plain = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]])
        ctx["plain"] = build_waypoint_graph(plain, corners=True, agent_radius=0.25, fill_spacing=3.0)
    return ctx["plain"]


def _wp_query(ctx: dict[str, Any]) -> Any:
    """A NavQuery with a terrain profile on :func:`_wp_nav`'s graph."""
    if "query" not in ctx:
        from navmesh.terrain import CostProfile
        from navmesh.waypoints.query import NavQuery

        ctx["query"] = NavQuery(_wp_nav(ctx), CostProfile("warm", multipliers={"swamp": 2.0}))
    return ctx["query"]


def _wp_graph(ctx: dict[str, Any]) -> None:
    _wp_nav(ctx)
    _wp_plain(ctx)


def _wp_paths(ctx: dict[str, Any]) -> None:
    from navmesh.waypoints.query import NavQuery

    for query in (NavQuery(_wp_nav(ctx)), _wp_query(ctx)):
        for refine in ("any_angle", "smooth", "none"):
            query.find_path((1, 1), (11, 9), refine=refine)
    NavQuery(_wp_plain(ctx)).find_path((1, 1), (11, 9))


def _wp_joins(ctx: dict[str, Any]) -> None:
    # how a position joins the waypoints it sees: every query's first kernel, on its own
    from navmesh.waypoints.query import NavQuery

    NavQuery(_wp_nav(ctx)).snap((1, 1))


def _wp_group(ctx: dict[str, Any]) -> None:
    _wp_query(ctx).find_paths([(1, 1), (2, 9)], [(11, 9), (11, 1)])


def _wp_sliced(ctx: dict[str, Any]) -> None:
    search = _wp_query(ctx).start_search((1, 1), (11, 9))
    while not search.advance(4):
        pass
    search.result()


def _wp_graph_searches(ctx: dict[str, Any]) -> None:
    from navmesh.search import astar
    from navmesh.tracing import search_trace

    graph = _wp_nav(ctx).graph
    astar(graph, 0, graph.n_nodes - 1)
    for algorithm in ("astar", "dijkstra", "bfs", "dfs", "bellman_ford"):
        search_trace(graph, 0, graph.n_nodes - 1, algorithm=algorithm)


def _small_grid() -> Any:
    from navmesh.grid import GridMap

    return GridMap.from_strings(["......", ".####.", "......"])


def _grid_paths(ctx: dict[str, Any]) -> None:
    from navmesh.grid.search import jps_plus

    grid = _small_grid()
    grid.find_path(0, grid.cell_id(5, 2))  # A*: this small map's jump table picks it
    jps_plus(grid, 0, grid.cell_id(5, 2))  # JPS+, find_path's search on maps of rooms and open ground


def _grid_astar(ctx: dict[str, Any]) -> None:
    import numpy as np

    from navmesh.grid import GridMap, grid_astar

    grid_astar(_small_grid(), 0, 17)
    weighted = GridMap(np.array([[1.0, 2.0, 1.0], [1.0, np.inf, 1.0], [1.0, 3.0, 1.0]]))
    grid_astar(weighted, 0, 8)
    weighted.find_path(0, 8)


def _grid_first_step(ctx: dict[str, Any]) -> None:
    from navmesh.grid import GridMap, first_step

    first_step(_small_grid(), 0, 17)
    first_step(GridMap.from_strings(["......", ".####.", "......"], connectivity=4), 0, 17)


def _jps(ctx: dict[str, Any]) -> None:
    from navmesh.grid import jump_point_search

    grid = _small_grid()
    jump_point_search(grid, 0, grid.cell_id(5, 2))


def _flowfield(ctx: dict[str, Any]) -> None:
    import numpy as np

    from navmesh.grid import FlowField

    grid = _small_grid()
    field = FlowField(grid, grid.cell_id(5, 2))
    field.path_from(0)
    field.next_cell(np.array([0, 1]))


def _steer_nav(ctx: dict[str, Any]) -> Any:
    """The steering part's waypoint graph (built once per context)."""
    if "steer_nav" not in ctx:
        from navmesh.level import Level
        from navmesh.waypoints.build import build_waypoint_graph

        level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]])
        ctx["steer_nav"] = build_waypoint_graph(level, corners=True, agent_radius=0.25)
    return ctx["steer_nav"]


def _followers(ctx: dict[str, Any]) -> None:
    from navmesh.steering import PathFollower

    nav = _steer_nav(ctx)
    for mode in ("straight", "hermite"):
        follower = PathFollower([[1, 1], [4, 9], [11, 9]], 5.0, mode=mode, navmap=nav, radius=0.25)
        follower.update(0.1)
        follower.chase((11, 1))
        follower.update(0.1)


def _crowd_runs(world: Any, starts: list[list[float]], goal: list[float], shared: int) -> None:
    from navmesh.steering import Crowd

    crowd = Crowd(world, shared_search_min=shared)
    ids = crowd.add(starts, radius=0.2, speed=4.0)
    crowd.move_to(ids, goal)
    for _ in range(3):
        crowd.update(1 / 60)


def _crowds_on_grids(ctx: dict[str, Any]) -> None:
    # the crowd's own kernels (steering, walls), without the waypoint searches
    _crowd_runs(_small_grid(), [[0.5, 0.5], [0.5, 1.5]], [5.5, 2.5], 4)


def _crowds_on_graphs(ctx: dict[str, Any]) -> None:
    # the goal lies behind the wall: each unit's own sliced search, and (a group of at least
    # shared_search_min units) one route tree from the goal that the units join in sight
    for shared in (4, 2):
        _crowd_runs(_steer_nav(ctx), [[1.0, 5.0], [1.0, 6.0]], [11.0, 5.0], shared)


def _mesh(ctx: dict[str, Any]) -> None:
    from navmesh.level import Level
    from navmesh.polymesh.build import build_navmesh
    from navmesh.polymesh.query import MeshQuery
    from navmesh.terrain import CostProfile, TerrainRegion

    swamp = TerrainRegion([(0, 0), (4, 0), (4, 3), (0, 3)], "swamp")  # a build with terrain splits polygons
    level = Level.rectangle(12, 10, obstacles=[[(5, 2), (7, 2), (7, 8), (5, 8)]], terrain=[swamp])
    mesh = build_navmesh(level, agent_radius=0.25)
    query = MeshQuery(mesh)
    query.find_path((1, 1), (11, 9))
    query.find_path((1, 1), (2, 2))
    query.raycast((1, 1), (11, 1))
    MeshQuery(mesh, CostProfile("warm", multipliers={"swamp": 2.0})).find_path((1, 1), (11, 9))  # terrain corridor


_STEPS: dict[str, tuple[tuple[str, Callable[[dict[str, Any]], None]], ...]] = {
    "waypoints": (
        ("waypoint graph", _wp_graph),
        ("waypoint joins", _wp_joins),
        ("sliced paths", _wp_sliced),
        ("waypoint paths", _wp_paths),
        ("group paths", _wp_group),
        ("graph searches", _wp_graph_searches),
    ),
    "grid": (("grid paths", _grid_paths), ("grid A*", _grid_astar), ("first steps", _grid_first_step)),
    "jps": (("jump point search", _jps),),
    "flowfield": (("flow field", _flowfield),),
    "steering": (("path followers", _followers), ("crowds on graphs", _crowds_on_graphs),
                 ("crowds on grids", _crowds_on_grids)),
    "mesh": (("navigation mesh", _mesh),),
}

# Steps whose kernels call (or are) kernels that other steps compile: with several processes
# compiling, a worker takes such a step after those when another step is ready.
_NEEDS: dict[str, tuple[str, ...]] = {
    "sliced paths": ("waypoint joins",),
    "waypoint paths": ("waypoint joins",),
    "group paths": ("waypoint paths",),
    "jump point search": ("grid paths",),
    "path followers": ("waypoint paths",),
    "crowds on grids": ("flow field",),
    "crowds on graphs": ("waypoint joins", "sliced paths", "graph searches", "crowds on grids"),
}

# Cold compile CPU seconds of each step after the steps it needs (measured with
# ``python -m benchmarks.startup --kernels``; they only share the steps between processes).
_COST: dict[str, float] = {
    "kernel cache": 0.5, "waypoint graph": 0.4, "waypoint joins": 9.0, "sliced paths": 5.0, "waypoint paths": 11.0,
    "group paths": 0.2, "graph searches": 5.5, "grid paths": 8.0, "grid A*": 2.0, "first steps": 1.5,
    "jump point search": 0.2, "flow field": 2.5, "path followers": 0.5, "crowds on grids": 10.0,
    "crowds on graphs": 2.5, "navigation mesh": 20.0,
}


def _describe(value: Any) -> str:
    """``value`` for an error message (navmesh._checks' rule, imported only when one is raised)."""
    from navmesh._checks import describe

    return describe(value)


def _check_parts(parts: Any) -> list[str]:
    if isinstance(parts, str):
        parts = (parts,)
    try:
        wanted = list(dict.fromkeys(parts))
    except TypeError:
        raise InvalidOptionError(
            f"parts={_describe(parts)} is not valid; expected one or more of {list(PARTS)}"
        ) from None
    unknown = [p for p in wanted if not isinstance(p, str) or p not in _STEPS]
    if unknown or not wanted:
        raise InvalidOptionError(f"parts={_describe(wanted)} is not valid; expected one or more of {list(PARTS)}")
    return wanted


def _probe(ctx: dict[str, Any]) -> None:
    import numpy as np

    from navmesh._kernels.heap import trace_back

    trace_back(np.full(2, -1, np.int32), 1)  # every search's last step: never compiled in vain


def _plan(parts: list[str]) -> list[Step]:
    """The steps of ``parts``, after a first step that compiles (or loads) one tiny kernel: a
    cold cache shows there, before any part's larger kernels are compiled in this process."""
    return [("navmesh", "kernel cache", _probe)] + [(part, label, work) for part in parts for label, work in _STEPS[part]]


def _plan_needs(plan: list[Step]) -> tuple[dict[int, list[int]], list[float]]:
    """For each step of ``plan``, the steps it needs (see ``_NEEDS``), and every step's cost."""
    where = {label: i for i, (_, label, _) in enumerate(plan)}
    needs = {i: [where[n] for n in _NEEDS.get(label, ()) if n in where] for i, (_, label, _) in enumerate(plan)}
    return {i: n for i, n in needs.items() if n}, [_COST.get(label, 1.0) for _, label, _ in plan]


def _work(plan: list[Step], session: Session, worker: int, ctxs: dict[str, dict[str, Any]],
          ran: set[int], seconds: dict[str, float] | None = None) -> None:
    """Run, as ``worker`` of ``session``, the steps this worker claims until every step is
    claimed; each finished step is marked done (its kernels are in numba's cache)."""
    from navmesh.warmup_helpers import worker_order

    order = worker_order(session.steps, session.costs, worker, session.workers)
    while (index := session.next_step(order, worker)) is not None:
        part, _, work = plan[index]
        t0 = time.perf_counter()
        work(ctxs.setdefault(part, {}))
        if seconds is not None:
            seconds[part] = seconds.get(part, 0.0) + time.perf_counter() - t0
        ran.add(index)
        session.finish(index)


def serve(parts: str, folder: str, worker: str) -> None:
    """A helper process: work as ``worker`` (a number) in the parallel warm-up whose shared
    folder is ``folder``, over the plan of ``parts`` (comma-separated)."""
    from navmesh.warmup_helpers import Session
    from navmesh.warmup_lock import compile_locks

    session = Session(folder)
    with compile_locks(session.locks):
        _work(_plan(parts.split(",")), session, int(worker), {}, set())


def _start_session(plan: list[Step], todo: list[int], parts: list[str], helpers: int,
                   first: int) -> tuple[Session, list[Helper]] | None:
    """A parallel warm-up of the steps ``todo`` with ``helpers`` helper processes numbered from
    ``first`` (worker 0 is the calling process when ``first`` is 1); None when there is nothing
    to share."""
    from navmesh.warmup_helpers import Helper, Session

    if helpers < 1 or not todo:
        return None
    needs, costs = _plan_needs(plan)
    session = Session.create(todo, needs, costs, helpers + first)
    return session, [Helper(parts, session, k) for k in range(first, first + helpers)]


def _compile_counter() -> Any:
    """A numba event listener counting real compilations (cache misses) in this process."""
    from numba.core import event

    class CompileSeen(event.Listener):
        count = 0

        def on_start(self, ev: event.Event) -> None:
            self.count += 1

        def on_end(self, ev: event.Event) -> None:
            pass

    return CompileSeen()


# -- public API ----------------------------------------------------------------------------------------


class KernelLoader:
    """Compile (or load from numba's cache) the kernels of ``parts`` one short step at a time,
    knowing on the way which parts are ready.

    :func:`warm_up_steps` is this object as a generator. Use the object when the game should
    start before everything is loaded: show the first screen once the parts it uses are
    :meth:`compiled` (or :meth:`loaded`), then keep calling :meth:`step` between frames.

    Parameters
    ----------
    parts : iterable of {"waypoints", "grid", "jps", "flowfield", "steering", "mesh"}
        What the game uses (default: all), in the order to load them.
    background : bool
        Compile in helper processes (default), see :func:`warm_up_steps`.

    Raises
    ------
    InvalidOptionError
        An unknown part, or ``background`` is not a bool.

    Notes
    -----
    ``done`` steps of ``total`` have run in this process; ``name`` is the next step's
    (``"grid: grid paths"``, ``""`` when finished). The first step imports numba, loads (or
    compiles) one tiny kernel and reads the record of compiled parts; from the first step that
    really compiles, helper processes compile the parts not yet recorded while :meth:`step`
    returns at once. Helper processes stop when the last step is done or at :meth:`close`.

    Examples
    --------
    >>> loader = KernelLoader(["jps", "grid"])
    >>> loader.compiled(["jps"]), loader.total
    (False, 5)
    >>> while not loader.finished:
    ...     _ = loader.step()
    >>> loader.compiled(["jps"]) and loader.loaded(["jps", "grid"])
    True
    """

    def __init__(self, parts: Iterable[str] = PARTS, *, background: bool = True) -> None:
        self.parts = _check_parts(parts)
        if not isinstance(background, bool) and type(background).__name__ != "bool_":
            raise InvalidOptionError(f"background={_describe(background)} is not valid; expected True or False")
        self.background = bool(background)
        self.plan = _plan(self.parts)
        self.total = len(self.plan)
        self.done = 0
        self.closed = False
        self._ctx: dict[str, Any] = {}
        self._session: Session | None = None
        self._helpers: list[Helper] = []
        self._fallback = False  # a helper failed: this process compiles what is left
        self._record: CompiledParts | None = None
        self._recorded: set[str] = set()
        self._seen: Any = None

    @property
    def name(self) -> str:
        """The next step, as ``"part: label"`` (``""`` when every step is done)."""
        if self.done >= self.total:
            return ""
        part, label, _ = self.plan[self.done]
        return f"{part}: {label}"

    @property
    def finished(self) -> bool:
        """Whether every step has run in this process."""
        return self.done >= self.total

    def _indices(self, parts: Iterable[str]) -> list[int]:
        wanted = _check_parts(parts)
        missing = [p for p in wanted if p not in self.parts]
        if missing:
            raise InvalidOptionError(f"parts={_describe(missing)} is not valid; this loader loads {self.parts}")
        return [i for i, (part, _, _) in enumerate(self.plan) if part in wanted]

    def compiled(self, parts: Iterable[str]) -> bool:
        """Whether numba's cache holds every kernel of ``parts``: a first call then only loads
        them (milliseconds), it never compiles. Known from the first step on (False before)."""
        return self.compiled_steps(parts) == len(self._indices(parts))

    def compiled_steps(self, parts: Iterable[str]) -> int:
        """How many of the steps of ``parts`` have their kernels in numba's cache."""
        indices = self._indices(parts)
        if self.done == 0:
            return 0
        session = self._session
        return sum(1 for i in indices if i < self.done or self.plan[i][0] in self._recorded
                   or (session is not None and i in session.steps and session.is_done(i)))

    def _waiting(self, index: int) -> bool:
        """Whether step ``index`` waits for a helper process compiling it (False when it is done,
        or when its helper, or every helper, has stopped without it: this process compiles it)."""
        session = self._session
        if session is None or self._fallback or index not in session.steps or session.is_done(index):
            return False
        for helper in self._helpers:
            helper.failed()  # a failure is reported once, on the navmesh logger
        owner = session.claimed_by(index)
        helpers = {h.worker: h for h in self._helpers}
        if not any(h.running() for h in self._helpers) or (owner in helpers and not helpers[owner].running()):
            self._fallback = True
            return False
        return True

    def loaded(self, parts: Iterable[str]) -> bool:
        """Whether every step of ``parts`` has run in this process (their kernels are loaded)."""
        return all(i < self.done for i in self._indices(parts))

    def step(self) -> bool:
        """Run the next step, or, while a helper process is still compiling it, wait 2 ms and
        return. Returns True when a step was done (False when waiting or finished)."""
        if self.finished or self.closed:
            return False
        index = self.done
        part, _, work = self.plan[index]
        if self._waiting(index):
            time.sleep(0.002)  # keep a frame's worth of calls from spinning a core
            return False
        if self._seen is None:
            from numba.core import event

            self._seen = _compile_counter()
            event.register("numba:compile", self._seen)
        if index > 0 and self.plan[index - 1][0] != part:
            self._ctx.clear()
        before = self._seen.count
        if self._fallback and self._session is not None:
            from navmesh.warmup_lock import compile_locks

            with compile_locks(self._session.locks):  # helpers still alive compile beside this one
                work(self._ctx)
        else:
            work(self._ctx)
        self.done += 1
        if index == 0:
            self._record = CompiledParts(PARTS)
            self._recorded = self._record.parts()
        elif self.done == self.total or self.plan[self.done][0] != part:
            if part not in self._recorded and self._record is not None:
                self._record.add(part)
                self._recorded.add(part)
        if self.background and self._record is not None and self._record.jit and self._session is None \
                and self._seen.count > before and not self.finished:
            from navmesh.warmup_helpers import MAX_WORKERS, cores

            todo = [i for i in range(self.done, self.total) if self.plan[i][0] not in self._recorded]
            started = _start_session(self.plan, todo, self.parts, min(cores(), MAX_WORKERS, len(todo)), 0)
            if started is not None:
                self._session, self._helpers = started
        if self.finished:
            self.close()
        return True

    def close(self) -> None:
        """Stop the helper processes (a game closing early); later :meth:`step` calls do nothing."""
        if self._seen is not None:
            from numba.core import event

            event.unregister("numba:compile", self._seen)
            self._seen = None
        for helper in self._helpers:
            helper.stop()
        if self._session is not None:
            self._session.remove()
        self.closed = True


def warm_up_steps(parts: Iterable[str] = PARTS, *, background: bool = True) -> Iterator[tuple[int, int, str]]:
    """Compile (or load from numba's cache) the kernels of ``parts`` one short step at a time.

    A generator for loading screens: call ``next()`` once per frame (or iterate) and draw a
    progress bar from what it yields. The first value comes at once, before any work.
    (:class:`KernelLoader` is the same work as an object that also says which parts are ready.)

    Parameters
    ----------
    parts : iterable of {"waypoints", "grid", "jps", "flowfield", "steering", "mesh"}
        What the game uses (default: all); see :func:`warm_up`.
    background : bool
        Keep every step short (default): steps run here while they only load kernels from
        numba's cache; from the first step that really compiles, helper processes (fresh Python
        interpreters, one per core and at most four, sharing the steps so that no kernel is
        compiled twice, see :mod:`navmesh.warmup_helpers`) compile the rest
        into the cache while each ``next()`` here returns at once, and this process loads each
        step's kernels when its helper has finished it. With False
        (or when a helper cannot start or fails: logged on the ``navmesh`` logger) the steps
        compile here, and one step can take seconds.

    Yields
    ------
    (done, total, name) : tuple of (int, int, str)
        Steps finished of ``total``, and the step being worked on (``"grid: grid paths"``);
        the last value is ``(total, total, "")``. ``done`` never decreases; while the helper
        compiles, the same value is yielded again.

    Raises
    ------
    InvalidOptionError
        An unknown part, or ``background`` is not a bool (raised at the first ``next()``).

    Examples
    --------
    >>> steps = list(warm_up_steps(["jps"]))
    >>> steps[0], steps[-1]
    ((0, 2, 'navmesh: kernel cache'), (2, 2, ''))
    """
    loader = KernelLoader(parts, background=background)
    try:
        yield 0, loader.total, loader.name
        while not loader.finished:
            loader.step()
            yield loader.done, loader.total, loader.name
    finally:
        loader.close()


def warm_up(
    parts: Iterable[str] = PARTS,
    *,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, float]:
    """Compile (or load from numba's cache) the kernels of the given parts, now.

    Each part runs a few tiny representative calls through the public API, so exactly the kernel
    specialisations a game's own calls need are compiled. Call it once at load time; afterwards
    the first search of each kind costs what every later one does. Blocks this thread: for a
    loading screen that keeps drawing, drive :func:`warm_up_steps` instead.

    When parts are not compiled yet (no record of them beside numba's cache), helper processes
    (one per core beside this one, at most four processes in all) compile some of the steps
    while this process compiles the others; a kernel that two steps share is compiled once, by
    the first process to reach it, and loaded from the cache by the others
    (:mod:`navmesh.warmup_helpers`). This process then loads what the helpers compiled. A helper
    that fails is reported on the ``navmesh`` logger and its steps are compiled here.

    Parameters
    ----------
    parts : iterable of {"waypoints", "grid", "jps", "flowfield", "steering", "mesh"}
        What the game uses (default: all); name only those to compile only their kernels.
        ``"waypoints"``: graphs, ``NavQuery`` and the graph searches; ``"grid"``: ``GridMap``
        paths (JPS+ and A*) and ``first_step``; ``"jps"``: ``jump_point_search``;
        ``"flowfield"``: ``FlowField``; ``"steering"``: followers and crowds on waypoint graphs
        and grids; ``"mesh"``: ``build_navmesh`` and ``MeshQuery``.
    progress : callable(part, done, total), optional
        Called before each part (``done`` parts finished of ``total``) and once at the end with
        ``part=""`` and ``done == total``; for a loading screen. Progress is also logged on the
        ``navmesh`` logger at INFO level.

    Returns
    -------
    dict of str to float
        Seconds this process spent on each part, waiting for helper processes included (a few
        seconds on a fresh installation, well under one second when the cache is warm).

    Raises
    ------
    InvalidOptionError
        An unknown part (or ``parts`` not an iterable of names), or ``progress`` is not callable.

    Examples
    --------
    >>> seconds = warm_up(["grid"])
    >>> sorted(seconds)
    ['grid']
    """
    wanted = _check_parts(parts)
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress={_describe(progress)} is not valid; expected a callable or None")
    from navmesh.warmup_helpers import MAX_WORKERS, cores
    from navmesh.warmup_lock import compile_locks

    seconds = dict.fromkeys(wanted, 0.0)
    record = CompiledParts(PARTS)
    plan = _plan(wanted)
    recorded = record.parts()
    todo = [i for i, (part, _, _) in enumerate(plan) if i > 0 and part not in recorded]
    started = _start_session(plan, todo, wanted, min(cores(), MAX_WORKERS, len(todo)) - 1, 1) if record.jit else None
    ctxs: dict[str, dict[str, Any]] = {}
    ran: set[int] = {0}  # the probe of the kernel cache: a loader's first step, not needed here
    try:
        with compile_locks(started[0].locks) if started is not None else contextlib.nullcontext():
            for done, part in enumerate(wanted):
                logger.info("navmesh warm-up: %s (%d of %d)", part, done + 1, len(wanted))
                if progress is not None:
                    progress(part, done, len(wanted))
                if done == 0 and started is not None:  # this process is worker 0 beside the helpers
                    _work(plan, started[0], 0, ctxs, ran, seconds)
                    for helper in started[1]:
                        helper.failed()  # a failure is reported (its steps are compiled here below)
                t0 = time.perf_counter()
                for index, (step_part, _, work) in enumerate(plan):
                    if step_part == part and index not in ran:
                        work(ctxs.setdefault(part, {}))
                        ran.add(index)
                seconds[part] += time.perf_counter() - t0
                record.add(part)
    finally:
        if started is not None:
            for helper in started[1]:
                helper.failed()
                helper.stop()
            started[0].remove()
    logger.info("navmesh warm-up done in %.2f s", sum(seconds.values()))
    if progress is not None:
        progress("", len(wanted), len(wanted))
    return seconds
