"""The options of a position-to-position query, checked in one place: :func:`check_query_options`.

Every query that takes these options (``NavQuery.find_path`` / ``find_paths`` /
``start_search``, the module-level ``find_path``, and any other query object that takes a subset
of them, such as a mesh query's ``max_expansions``, ``allow_partial`` and ``strict``) checks
them here and gets one frozen :class:`QueryOptions` back. :func:`cached_query_options` answers
repeated calls with the same option values from a small cache, so a hot loop of queries pays for
the checks once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from navmesh._checks import check_flag, check_nonneg_float, check_option, check_positive_int
from navmesh.errors import InvalidOptionError

__all__ = [
    "DEFAULT_LOOKBACK",
    "MAX_LOOKBACK",
    "REFINES",
    "QueryOptions",
    "Refine",
    "cached_query_options",
    "check_query_options",
]

Refine = Literal["none", "smooth", "any_angle"]
REFINES: tuple[str, ...] = ("none", "smooth", "any_angle")
DEFAULT_LOOKBACK = 1
MAX_LOOKBACK = 1024  # ancestors a node may take as its parent (any_angle); more finds nothing new in practice
_CACHE_SIZE = 64


@dataclass(frozen=True)
class QueryOptions:
    """Checked query options (see :meth:`~navmesh.waypoints.query.NavQuery.find_path` for their meaning).

    Attributes
    ----------
    refine : {"none", "smooth", "any_angle"}
    heuristic_weight : float
        >= 1.
    max_expansions : int or None
        >= 1; None means no budget.
    allow_partial, strict : bool
    lookback : int
        1 to :data:`MAX_LOOKBACK`.
    """

    refine: str = "any_angle"
    heuristic_weight: float = 1.0
    max_expansions: int | None = None
    allow_partial: bool = False
    strict: bool = False
    lookback: int = DEFAULT_LOOKBACK

    @property
    def budget(self) -> int:
        """``max_expansions`` as the kernels take it (0: no budget)."""
        return 0 if self.max_expansions is None else self.max_expansions


def check_query_options(
    *,
    refine: Any = "any_angle",
    heuristic_weight: Any = 1.0,
    max_expansions: Any = None,
    allow_partial: Any = False,
    strict: Any = False,
    lookback: Any = DEFAULT_LOOKBACK,
) -> QueryOptions:
    """Check query options and return them as one :class:`QueryOptions`.

    Pass only the options a query takes; the others keep their defaults.

    Parameters
    ----------
    refine : {"none", "smooth", "any_angle"}
    heuristic_weight : float
        A number >= 1 (at most ``MAX_COST``).
    max_expansions : int, optional
        An integer >= 1, or None for no budget.
    allow_partial, strict : bool
        True or False (numpy bools accepted).
    lookback : int
        An integer from 1 to :data:`MAX_LOOKBACK` (1024).

    Returns
    -------
    QueryOptions

    Raises
    ------
    InvalidOptionError
        An option out of range; the message names it, its value and the rule.

    Examples
    --------
    >>> check_query_options(allow_partial=True).allow_partial
    True
    >>> check_query_options(heuristic_weight=0.5)
    Traceback (most recent call last):
    ...
    navmesh.errors.InvalidOptionError: heuristic_weight=0.5 is not valid; expected a number >= 1
    """
    check_option("refine", refine, REFINES)
    hw = check_nonneg_float("heuristic_weight", heuristic_weight, allow_none=False)
    if hw < 1.0:
        raise InvalidOptionError(f"heuristic_weight={heuristic_weight!r} is not valid; expected a number >= 1")
    budget = check_positive_int("max_expansions", max_expansions)
    back = check_positive_int("lookback", lookback, allow_none=False)
    if back > MAX_LOOKBACK:
        raise InvalidOptionError(f"lookback={back} is not valid; expected an integer from 1 to MAX_LOOKBACK={MAX_LOOKBACK}")
    return QueryOptions(str(refine), hw, budget, check_flag("allow_partial", allow_partial), check_flag("strict", strict),
                        back)


_cache: dict[tuple, QueryOptions] = {}


def cached_query_options(refine: Any, heuristic_weight: Any, max_expansions: Any, allow_partial: Any, strict: Any,
                         lookback: Any) -> QueryOptions:
    """:func:`check_query_options` for positional values, answered from a cache when the same
    values (of the same types: ``1`` is not ``True``) were checked before."""
    key = (refine, heuristic_weight.__class__, heuristic_weight, max_expansions.__class__, max_expansions,
           allow_partial.__class__, allow_partial, strict.__class__, strict, lookback.__class__, lookback)
    try:
        return _cache[key]
    except (KeyError, TypeError):  # TypeError: an unhashable value, which the checks refuse
        pass
    opts = check_query_options(refine=refine, heuristic_weight=heuristic_weight, max_expansions=max_expansions,
                               allow_partial=allow_partial, strict=strict, lookback=lookback)
    if len(_cache) >= _CACHE_SIZE:
        _cache.clear()
    if isinstance(refine, str) and not isinstance(heuristic_weight, np.ndarray):
        _cache[key] = opts
    return opts
