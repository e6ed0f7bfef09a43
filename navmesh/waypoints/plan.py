"""What one waypoint search runs with, and what it returns.

:class:`SearchPlan` is the kernels' view of a call's :class:`~navmesh.query_options.QueryOptions`
(heuristic scale, lookback, string pulling, budget); :func:`path_of` turns a kernel's answer
(rows and cumulative costs) into a :class:`~navmesh.path.Path` or the error it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from navmesh._kernels.status import BUDGET
from navmesh.errors import NoPathError, SearchBudgetError
from navmesh.path import Path
from navmesh.query_options import QueryOptions

__all__ = ["SearchPlan", "path_of"]


@dataclass(frozen=True)
class SearchPlan:
    """Search options as the kernels take them.

    ``hscale`` scales the Euclidean heuristic; ``lookback`` is 0 without any-angle parents;
    ``pull`` string-pulls the result; ``budget`` is 0 for no budget.
    """

    hscale: float
    lookback: int
    pull: bool
    budget: int
    allow_partial: bool

    @classmethod
    def of(cls, opts: QueryOptions, hscale: float) -> SearchPlan:
        """The plan of ``opts`` for a unit whose admissible heuristic scale is ``hscale``."""
        if opts.refine == "any_angle":
            return cls(hscale, opts.lookback, True, opts.budget, opts.allow_partial)
        return cls(hscale * opts.heuristic_weight, 0, opts.refine == "smooth", opts.budget, opts.allow_partial)


def path_of(table: NDArray[np.float64], n: int, start: NDArray[np.float64], goal: NDArray[np.float64],
            order: NDArray[np.int64], cum: NDArray[np.float64], status: int, partial: bool, expansions: int,
            budget: int, start_moved: bool, goal_moved: bool, row: int | None) -> Path:
    """The Path of a search's rows ``order`` (``n`` is the start row, ``n + 1`` the goal's; other
    rows index ``table``) with cumulative costs ``cum``; raises when ``order`` is empty."""
    if len(order) == 0:
        where = "" if row is None else f"row {row}: "
        if status == BUDGET:
            raise SearchBudgetError(
                f"{where}find_path from {start.tolist()} to {goal.tolist()} spent its budget of {budget} expansions; "
                "raise max_expansions or pass allow_partial=True"
            )
        raise NoPathError(f"{where}no path from {start.tolist()} to {goal.tolist()}")
    pts = table[np.minimum(order, n)]
    pts[0] = start
    if order[-1] == n + 1:
        pts[-1] = goal
    return Path._trusted(order[order < n].astype(np.int32), pts, float(cum[-1]), expansions, partial, start_moved, goal_moved)
