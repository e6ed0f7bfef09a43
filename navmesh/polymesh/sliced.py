"""Sliced searches on a :class:`~navmesh.polymesh.mesh.PolyMesh`: a Polyanya search run a budget
of node expansions per frame (Detour's ``initSlicedFindPath`` / ``updateSlicedFindPath``).

The same interface as the waypoint graph's :class:`~navmesh.waypoints.query.SlicedSearch`:
``search = query.start_search(start, goal)``, then ``search.advance(n)`` each frame until it
returns True, then ``search.result()``, which equals ``query.find_path(start, goal)`` with the
same options (the same path, cost and expansions). The endpoints are placed when the search
starts; the search keeps its own node pool, so other queries may run between slices.

With uniform costs the search is the Polyanya kernel paused between expansions (the node about
to be expanded is kept in hand and expanded first by the next slice, so a pause changes nothing). With terrain multipliers ``find_path``
searches a corridor of polygons instead; that search is not sliced: it runs whole in the first
:meth:`MeshSlicedSearch.advance`.

This module is the companion of :mod:`navmesh.polymesh.query`: it runs on the query object's
validated arrays and endpoint rules, and hands the finished search back to it to make the path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numpy.typing import ArrayLike

from navmesh._checks import check_positive_int
from navmesh._kernels import polyanya as PK
from navmesh._kernels.status import BUDGET, FOUND
from navmesh.errors import InvalidOptionError, NoPathError, SearchBudgetError
from navmesh.path import Path
from navmesh.polymesh.workspace import place_ends
from navmesh.query_options import cached_query_options

if TYPE_CHECKING:  # the query module imports this one
    from navmesh.polymesh.query import MeshQuery

__all__ = ["MeshSlicedSearch", "start_search"]

_FIRST_CAPACITY = 1024  # search nodes; grown 4x whenever full


def start_search(
    query: MeshQuery,
    start: ArrayLike,
    goal: ArrayLike,
    *,
    max_expansions: int | None = None,
    allow_partial: bool = False,
    strict: bool = False,
) -> MeshSlicedSearch:
    """Begin a search to be spread over frames: what :meth:`MeshQuery.start_search` does.

    Takes the options of :meth:`MeshQuery.find_path`; ``max_expansions`` caps the whole search,
    as there. The endpoints are placed on the mesh now (their errors are raised now); the
    search runs only in :meth:`MeshSlicedSearch.advance`.

    Raises
    ------
    InvalidOptionError
        A bad option.
    NodeNotFoundError, InvalidGeometryError
        As :meth:`MeshQuery.find_path`, for the endpoints.

    Examples
    --------
    >>> from navmesh.level import Level
    >>> from navmesh.polymesh.build import build_navmesh
    >>> from navmesh.polymesh.query import MeshQuery
    >>> query = MeshQuery(build_navmesh(Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 8), (4, 8)]])))
    >>> search = query.start_search([1, 1], [9, 1])
    >>> while not search.advance(1):     # one expansion per frame
    ...     pass
    >>> search.result().points.tolist() == query.find_path([1, 1], [9, 1]).points.tolist()
    True
    """
    opts = cached_query_options("any_angle", 1.0, max_expansions, allow_partial, strict, 1)  # one set of checks
    strict, allow_partial, budget = opts.strict, opts.allow_partial, opts.max_expansions
    s, s_polys, s_moved = query._endpoint("start", query._point("start", start), strict)
    g, g_polys, g_moved = query._endpoint("goal", query._point("goal", goal), strict)
    return MeshSlicedSearch(query, (s, s_polys, s_moved, g, g_polys, g_moved), budget, allow_partial)


class MeshSlicedSearch:
    """A Polyanya search spread over frames: made by :func:`start_search`.

    Call :meth:`advance` with a budget of node expansions each frame until it returns True, then
    take :meth:`result`. Pausing never changes the answer: it equals
    :meth:`MeshQuery.find_path` with the same options.
    """

    def __init__(self, query: MeshQuery, ends: tuple[Any, ...], budget: int | None, allow_partial: bool) -> None:
        self._query = query
        self._ends = ends
        self._budget = budget
        self._allow_partial = allow_partial
        self._result: Path | None = None
        self._error: Exception | None = None
        self._status, self._expansions = FOUND, 0
        self._done = False
        self._ws: Any = None
        s, s_polys, _, g, g_polys, _ = ends
        comp = query._component
        if query._uniform and not set(comp[s_polys].tolist()) & set(comp[g_polys].tolist()):
            self._done = True  # apart: result() says so (or gives the partial path)
        elif query._uniform:
            self._begin(max(_FIRST_CAPACITY, query._capacity))  # as large as the query's own pool grew

    @property
    def finished(self) -> bool:
        """True once the search has ended (found, exhausted or out of budget)."""
        return self._done

    @property
    def expansions(self) -> int:
        """Node expansions so far."""
        return self._expansions

    def _begin(self, capacity: int) -> None:
        """A fresh workspace for ``capacity`` nodes and the start's nodes in it (the search state
        lives in the workspace)."""
        q = self._query
        s, s_polys, _, g, g_polys, _ = self._ends
        while True:
            self._ws = q._workspace(capacity)
            n_start, n_goal = place_ends(self._ws, s_polys, g_polys)
            status, _, _, _, self._expansions, _ = q._kernel(PK.OP_BEGIN, self._ws, s, g, n_start, n_goal,
                                                            self._cap())
            if status != PK.NEED_SPACE:
                break
            capacity *= 4
        self._capacity = capacity
        if status == FOUND:
            self._status, self._done = FOUND, True

    def _cap(self) -> int:
        return 2**62 if self._budget is None else self._budget

    def advance(self, max_expansions: int) -> bool:
        """Run up to ``max_expansions`` (>= 1) more node expansions; return True when finished."""
        step = check_positive_int("max_expansions", max_expansions, allow_none=False)
        if self._done:
            return True
        q = self._query
        if not q._uniform:  # the corridor search is not sliced (module notes)
            self._done = True
            return True
        s, _, _, g, _, _ = self._ends
        target = min(self._expansions + step, self._cap())
        while True:
            status, _, _, _, expansions, _ = q._kernel(PK.OP_RUN, self._ws, s, g, budget=target)
            if status != PK.NEED_SPACE:
                break
            # the node pool filled up mid-expansion: start over with more room (the search is
            # deterministic, so the replay reaches the same state)
            self._begin(4 * self._capacity)
        self._status, self._expansions = status, expansions
        self._done = status != BUDGET or (self._budget is not None and expansions >= self._budget)
        return self._done

    def result(self) -> Path:
        """The path (as :meth:`MeshQuery.find_path` returns it).

        Raises
        ------
        InvalidOptionError
            The search has not finished: call :meth:`advance` until it returns True.
        NoPathError, SearchBudgetError
            As :meth:`MeshQuery.find_path`.
        """
        if not self._done:
            raise InvalidOptionError("the search has not finished; call advance() until it returns True")
        if self._result is None and self._error is None:
            q = self._query
            s, s_polys, s_moved, g, g_polys, g_moved = self._ends
            try:
                if not q._uniform:
                    self._result = q._corridor_path(s, s_polys, s_moved, g, g_polys, g_moved, self._allow_partial)
                elif self._ws is None:
                    self._result = q._unreachable(s, s_polys, s_moved, g, g_moved, self._allow_partial, self._budget)
                elif self._status == FOUND:
                    _, at, n_pts, n_polys, _, length = q._kernel(PK.OP_TRACE, self._ws, s, g)
                    self._result = q._traced_path(self._ws, at, n_pts, n_polys, length, self._expansions, s_moved,
                                                  g_moved)
                else:
                    self._result = q._not_found(self._status, self._expansions, s, s_polys, s_moved, g, g_moved,
                                                self._budget, self._allow_partial)
            except (NoPathError, SearchBudgetError) as err:
                self._error = err
            self._ws = None
        if self._error is not None:
            raise self._error
        return self._result
