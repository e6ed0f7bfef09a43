"""Argument checks shared by the public functions: validate once at the boundary.

Each helper returns the normalised value or raises the specific navmesh error,
naming the argument, the bad value and the rule.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    NavmeshError,
    NodeNotFoundError,
    describe,
)

#: Largest coordinate magnitude accepted (world units). Beyond 2**53 (about 9e15) float64 cannot
#: even tell neighbouring whole units apart, and squared distances of larger values lose all
#: meaning long before they overflow; 1e15 keeps every product the library forms finite and exact
#: enough.
MAX_COORDINATE = 1e15
#: Largest finite cost, weight or multiplier accepted. An arc between coordinates within
#: MAX_COORDINATE is up to ~3.5e15 long; times a multiplier up to 1e30, summed over up to 2**31
#: arcs, a path costs below 1e55: far from float64's 1.8e308, with room for heuristic scaling.
MAX_COST = 1e30
#: Largest finite arc weight accepted. Weights a CostProfile derives are arc lengths (below 3e15
#: for coordinates within MAX_COORDINATE) times multipliers up to MAX_COST, plus danger extras:
#: up to about 3e45. Path sums over up to 2**31 arcs stay below 1e60, still far from overflow.
MAX_WEIGHT = 1e50
#: Largest integer accepted for counts and budgets that reach a numba kernel (int64).
MAX_INT = 2**62


def as_float_array(name: str, values: Any, error: type[NavmeshError]) -> NDArray[np.float64]:
    """``values`` as a float64 array, refusing text, complex numbers, ragged nesting and integers
    too large for float64 with ``error`` (naming ``name`` and a shortened value)."""
    raw = values if isinstance(values, np.ndarray) else None
    try:
        if raw is None:
            raw = np.asarray(values)
        if raw.dtype.kind not in "biufO":
            raise TypeError(f"dtype {raw.dtype} is not numeric")
        return np.array(raw, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise error(f"{name}={describe(values)} cannot be read as numbers ({describe(str(exc))})") from None


def check_option(name: str, value: Any, allowed: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``allowed``; otherwise raise listing the valid values."""
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        raise InvalidOptionError(
            f"{name}={describe(value)} is not valid; expected one of {', '.join(map(repr, allowed))}"
        )
    return value


def check_node(name: str, node: Any, n_nodes: int) -> int:
    """Return ``node`` as an int if it is a valid node id in ``[0, n_nodes)``."""
    if isinstance(node, (bool, np.bool_)) or not isinstance(node, (int, np.integer)):
        raise NodeNotFoundError(f"{name}={describe(node)} is not a node id; expected an integer")
    if not 0 <= int(node) < n_nodes:
        raise NodeNotFoundError(f"{name}={int(node)} is out of range; the graph has node ids 0..{n_nodes - 1}")
    return int(node)


def as_array(name: str, values: Any, error: type[NavmeshError]) -> NDArray[Any]:
    """``np.asarray(values)``, raising ``error`` (naming ``name``) for ragged nesting and the like."""
    try:
        return np.asarray(values)
    except (TypeError, ValueError, OverflowError):
        raise error(f"{name}={describe(values)} cannot be read as an array (ragged or mixed nesting)") from None


def check_nodes(name: str, nodes: ArrayLike, n_nodes: int) -> NDArray[np.int32]:
    """Return ``nodes`` (an int or a 1-D sequence of ints) as a non-empty int32 array of valid ids."""
    arr = np.atleast_1d(as_array(name, nodes, NodeNotFoundError))
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise NodeNotFoundError(f"{name}={describe(nodes)} must be a node id or a non-empty 1-D list of node ids")
    bad = arr[(arr < 0) | (arr >= n_nodes)]
    if bad.size:
        raise NodeNotFoundError(f"{name} holds {int(bad[0])}, out of range; the graph has node ids 0..{n_nodes - 1}")
    return arr.astype(np.int32)


def check_points(name: str, points: ArrayLike, *, dims: tuple[int, ...] = (2, 3)) -> NDArray[np.float64]:
    """Return ``points`` as a finite float64 array of shape (n, d) with d in ``dims``."""
    arr = as_float_array(name, points, InvalidGeometryError)
    if arr.ndim != 2 or arr.shape[1] not in dims:
        raise InvalidGeometryError(
            f"{name} has shape {arr.shape}; expected (n, d) with d in {dims}"
        )
    bad = ~np.isfinite(arr).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidGeometryError(f"{name}[{i}]={arr[i].tolist()} is not finite; coordinates must be finite numbers")
    huge = np.abs(arr).max(axis=1, initial=0.0) > MAX_COORDINATE
    if huge.any():
        i = int(np.flatnonzero(huge)[0])
        raise InvalidGeometryError(
            f"{name}[{i}]={arr[i].tolist()} is too large; coordinates must lie within +-{MAX_COORDINATE:g}"
        )
    return arr


def check_costs(name: str, values: ArrayLike, size: int, *, allow_negative: bool = False) -> NDArray[np.float64]:
    """Return ``values`` as a float64 array of length ``size``: no NaN, no -inf, >= 0 unless allowed,
    finite values within +-MAX_WEIGHT.

    ``+inf`` is allowed and means "closed" (the arc is never used).
    """
    arr = as_float_array(name, values, InvalidCostError)
    if arr.shape != (size,):
        raise InvalidCostError(f"{name} has shape {arr.shape}; expected ({size},), one value per arc")
    bad = np.isnan(arr) | (arr == -np.inf) if allow_negative else ~(arr >= 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        rule = "must not be NaN or -inf" if allow_negative else "must be >= 0 (inf closes the arc)"
        raise InvalidCostError(f"{name}[{i}]={arr[i]} is not allowed; weights {rule}")
    huge = np.isfinite(arr) & (np.abs(arr) > MAX_WEIGHT)
    if huge.any():
        i = int(np.flatnonzero(huge)[0])
        raise InvalidCostError(
            f"{name}[{i}]={arr[i]} is too large; finite weights must lie within +-{MAX_WEIGHT:g} (inf closes an arc)"
        )
    return arr


def check_positive_int(name: str, value: Any, *, allow_none: bool = True, maximum: int = MAX_INT) -> int | None:
    """Return ``value`` as an int in ``[1, maximum]`` (or None when allowed)."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 1 <= value <= maximum:
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected an integer from 1 to {maximum}")
    return int(value)


def check_path(name: str, value: Any) -> str:
    """Return ``value`` (a str or path-like) as a str path; raise InvalidOptionError otherwise."""
    try:
        path = os.fspath(value)
    except TypeError:
        path = None
    if not isinstance(path, str) or not path or "\0" in path:
        raise InvalidOptionError(f"{name}={describe(value)} is not a file path; expected a str or os.PathLike")
    return path


def check_flag(name: str, value: Any) -> bool:
    """Return ``value`` as a bool if it is True or False (numpy's included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected True or False")
    return bool(value)


def is_real(value: Any) -> bool:
    """Whether ``value`` is a real number (int or float, numpy's included; not bool, not text)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def check_nonneg_float(
    name: str, value: Any, *, allow_none: bool = True, maximum: float = MAX_COST
) -> float | None:
    """Return ``value`` as a finite float in ``[0, maximum]`` (or None when allowed)."""
    if value is None and allow_none:
        return None
    try:
        f = float(value) if is_real(value) else float("nan")
    except OverflowError:
        f = float("inf")
    if not (0 <= f <= maximum):
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a number from 0 to {maximum:g}")
    return f
