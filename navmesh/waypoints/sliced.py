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

    @property
    def finished(self) -> bool:
        """True once the search has ended (found, exhausted or out of budget)."""
        return self._done

    @property
    def expansions(self) -> int:
        """Node expansions so far."""
        return int(self._ws[8][AK.ST_EXPANSIONS]) if self._begun and self._ws is not None else 0

    def _put_ends(self) -> None:
        e = self._ends
        self._endpoints.set_ends(e.starts[0], e.goals[0], self._rules.mult, e.mult[0],
                                 (int(e.floor[0, 0]), int(e.floor[0, 1])))

    def advance(self, max_expansions: int) -> bool:
        """Run up to ``max_expansions`` (>= 1) more node expansions; return True when finished."""
        budget = check_positive_int("max_expansions", max_expansions, allow_none=False)
        if self._done:
            return True
        r, o, e, q = self._rules, self._plan, self._ends, self._endpoints
        self._put_ends()
        indptr, indices = self._csr
        self._done = bool(AK.search_run(indptr, indices, r.weights, q.xy, r.mult, q.floor, self._ws, r.los,
                                        e.entry_nodes, e.entry_costs, e.exit_nodes, e.exit_costs, o.hscale, o.budget,
                                        o.lookback, budget, not self._begun))
        self._begun = True
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
            if e.direct[0] > e.bound[0]:
                self._put_ends()
                order, cum, status, partial = AK.search_finish(self._ws[0], self._ws[1], self._ws[8], o.allow_partial)
                if o.pull and len(order):
                    keep, cum = AK.string_pull(order, q.xy, self._rules.mult, q.floor, cum, self._rules.los)
                    order = order[keep]
                exp = self.expansions
            direct = float(e.direct[0])
            if direct < np.inf and (len(order) == 0 or partial or direct <= cum[-1]):
                # the straight walk wins as in AK.solve_batch
                order, cum, status, partial = np.array([n, n + 1]), np.array([0.0, direct]), FOUND, False
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
