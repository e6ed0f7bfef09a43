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
from navmesh.warmup_steps import COST, NEEDS, STEPS, probe

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
    unknown = [p for p in wanted if not isinstance(p, str) or p not in STEPS]
    if unknown or not wanted:
        raise InvalidOptionError(f"parts={_describe(wanted)} is not valid; expected one or more of {list(PARTS)}")
    return wanted


def _plan(parts: list[str]) -> list[Step]:
    """The steps of ``parts``, after a first step that compiles (or loads) one tiny kernel: a
    cold cache shows there, before any part's larger kernels are compiled in this process."""
    return [("navmesh", "kernel cache", probe)] + [(part, label, work) for part in parts for label, work in STEPS[part]]


def _plan_needs(plan: list[Step]) -> tuple[dict[int, list[int]], list[float]]:
    """For each step of ``plan``, the steps it needs (see ``NEEDS``), and every step's cost."""
    where = {label: i for i, (_, label, _) in enumerate(plan)}
    needs = {i: [where[n] for n in NEEDS.get(label, ()) if n in where] for i, (_, label, _) in enumerate(plan)}
    return {i: n for i, n in needs.items() if n}, [COST.get(label, 1.0) for _, label, _ in plan]


def _work(plan: list[Step], session: Session, worker: int, ctxs: dict[str, dict[str, Any]],
          ran: set[int], seconds: dict[str, float] | None = None) -> None:
    """Run, as ``worker`` of ``session``, the steps this worker claims until every step is
    claimed; each finished step is marked done (its kernels are in numba's cache)."""
    while (index := session.next_step(worker)) is not None:
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
    ``first``; None when there is nothing to share. When ``first`` is 1, worker 0 is the calling
    process and waits for the whole warm-up, so only the total time counts; when it is 0 (a
    loader), the parts are wanted in the order of ``parts``."""
    from navmesh.warmup_helpers import Helper, Session

    if helpers < 1 or not todo:
        return None
    needs, costs = _plan_needs(plan)
    ranks = [0 if first else (parts.index(part) if part in parts else -1) for part, _, _ in plan]
    session = Session.create(todo, needs, costs, ranks)
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
