"""Searches spread over frames: :class:`SlicedSearch` (made by ``NavQuery.start_search``)."""

from __future__ import annotations

import numpy as np

from navmesh._checks import check_positive_int
from navmesh._kernels import anyangle as AK
from navmesh._kernels.status import FOUND
from navmesh.errors import InvalidOptionError, NoPathError, SearchBudgetError
from navmesh.path import Path
from navmesh.waypoints.costs import Rules
from navmesh.waypoints.joins import Endpoints, Ends
from navmesh.waypoints.plan import SearchPlan, path_of
from navmesh.waypoints.workspaces import WorkspacePool

__all__ = ["SlicedSearch"]


class SlicedSearch:
    """A search spread over frames: made by :meth:`NavQuery.start_search
    <navmesh.waypoints.query.NavQuery.start_search>`.

    Call :meth:`advance` with a budget of node expansions each frame until it returns True, then
    take :meth:`result`. Pausing never changes the answer: it equals the one-shot
    ``NavQuery.find_path`` with the same options.

    Parameters
    ----------
    endpoints : Endpoints
        The query's end rows and node rows (shared with other searches of the same query: each
        call writes its own ends before it runs).
    pool : WorkspacePool
        Where ``ws`` came from and goes back to.
    csr : tuple of (indptr, indices)
        The graph's arcs as the kernels take them.
    ends, rules, plan, ws
        The joined endpoints, the call's cost rules and kernel options, a borrowed workspace.
    """

    def __init__(self, endpoints: Endpoints, pool: WorkspacePool, csr: tuple, ends: Ends, rules: Rules,
                 plan: SearchPlan, ws: tuple) -> None:
        self._endpoints = endpoints
        self._pool = pool
        self._csr = csr
        self._ends = ends
        self._rules = rules
        self._plan = plan
        self._ws: tuple | None = ws
        self._result: Path | None = None
        self._error: Exception | None = None
        self._done = bool(ends.direct[0] <= ends.bound[0])
        self._begun = False  # the search begins in the first advance() (the workspace is ours alone)
        self._answer: tuple | None = None  # (order, cum, status, partial, expansions) once the search ends

    @property
    def finished(self) -> bool:
        """True once the search has ended (found, exhausted or out of budget)."""
        return self._done

    @property
    def expansions(self) -> int:
        """Node expansions so far."""
        return int(self._ws[8][AK.ST_EXPANSIONS]) if self._begun and self._ws is not None else 0

    def advance(self, max_expansions: int) -> bool:
        """Run up to ``max_expansions`` (>= 1) more node expansions; return True when finished."""
        budget = check_positive_int("max_expansions", max_expansions, allow_none=False)
        if self._done:
            return True
        r, o, e, q = self._rules, self._plan, self._ends, self._endpoints
        indptr, indices = self._csr
        floor = q.floors[0]
        # the one-shot search's kernel, paused after ``budget`` expansions; the call in which the
        # search ends also traces and pulls its path, as find_path does
        orders, cums, info = AK.solve_batch(
            indptr, indices, r.weights, q.xy, r.mult, q.floor, self._ws, r.los, e.xy, e.mult, e.floor, e.entry_ptr,
            e.entry_nodes, e.entry_costs, e.exit_ptr, e.exit_nodes, e.exit_costs, e.direct, e.bound, o.hscale,
            o.budget, o.lookback, o.allow_partial, o.pull, budget, not self._begun, False, floor.kernel_arrays,
            q.join_k, floor.near, q.cone_width,
        )
        self._begun = True
        _, status, partial, expansions = info.tolist()  # one query: info is its four entries
        if status != AK.RUNNING:
            self._done = True
            self._answer = (orders, cums, status, bool(partial), expansions)
        return self._done

    def result(self) -> Path:
        """The path (as ``NavQuery.find_path`` returns it).

        Raises
        ------
        InvalidOptionError
            The search has not finished: call :meth:`advance` until it returns True.
        NoPathError, SearchBudgetError
            As ``NavQuery.find_path``.
        """
        if not self._done:
            raise InvalidOptionError("the search has not finished; call advance() until it returns True")
        if self._result is None and self._error is None:
            q, e, o = self._endpoints, self._ends, self._plan
            n = q.n_nodes
            order, cum, status, partial, exp = np.empty(0, np.int64), np.empty(0), FOUND, False, 0
            if self._answer is not None:  # the search's path, the straight walk weighed (AK.solve_batch)
                order, cum, status, partial, exp = self._answer
            elif e.direct[0] < np.inf:  # no search: no path can beat the straight walk
                order, cum = np.array([n, n + 1]), np.array([0.0, float(e.direct[0])])
            try:
                self._result = path_of(q.table, n, e.starts[0], e.goals[0], order, cum, int(status), bool(partial), exp,
                                       o.budget, bool(e.start_moved[0]), bool(e.goal_moved[0]), None)
            except (NoPathError, SearchBudgetError) as err:
                self._error = err
            if self._ws is not None:
                self._pool.give_back(self._ws)
            self._ws = None
        if self._error is not None:
            raise self._error
        return self._result
