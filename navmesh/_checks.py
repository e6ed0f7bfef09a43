"""Argument checks shared by the public functions: validate once at the boundary.

Each helper returns the normalised value or raises the specific navmesh error,
naming the argument, the bad value and the rule.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from navmesh.errors import (
    InvalidCostError,
    InvalidGeometryError,
    InvalidOptionError,
    NodeNotFoundError,
    describe,
)


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


def check_nodes(name: str, nodes: ArrayLike, n_nodes: int) -> NDArray[np.int32]:
    """Return ``nodes`` (an int or a 1-D sequence of ints) as a non-empty int32 array of valid ids."""
    arr = np.atleast_1d(np.asarray(nodes))
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise NodeNotFoundError(f"{name}={describe(nodes)} must be a node id or a non-empty 1-D list of node ids")
    bad = arr[(arr < 0) | (arr >= n_nodes)]
    if bad.size:
        raise NodeNotFoundError(f"{name} holds {int(bad[0])}, out of range; the graph has node ids 0..{n_nodes - 1}")
    return arr.astype(np.int32)


def check_points(name: str, points: ArrayLike, *, dims: tuple[int, ...] = (2, 3)) -> NDArray[np.float64]:
    """Return ``points`` as a finite float64 array of shape (n, d) with d in ``dims``."""
    try:
        arr = np.array(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidGeometryError(f"{name} cannot be read as numbers: {exc}") from None
    if arr.ndim != 2 or arr.shape[1] not in dims:
        raise InvalidGeometryError(
            f"{name} has shape {arr.shape}; expected (n, d) with d in {dims}"
        )
    bad = ~np.isfinite(arr).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidGeometryError(f"{name}[{i}]={arr[i].tolist()} is not finite; coordinates must be finite numbers")
    return arr


def check_costs(name: str, values: ArrayLike, size: int, *, allow_negative: bool = False) -> NDArray[np.float64]:
    """Return ``values`` as a float64 array of length ``size``: no NaN, no -inf, >= 0 unless allowed.

    ``+inf`` is allowed and means "closed" (the arc is never used).
    """
    try:
        arr = np.array(values, dtype=np.float64).reshape(-1) if np.ndim(values) else None
    except (TypeError, ValueError) as exc:
        raise InvalidCostError(f"{name} cannot be read as numbers: {exc}") from None
    if arr is None or arr.shape != (size,):
        raise InvalidCostError(f"{name} has shape {np.shape(values)}; expected ({size},), one value per arc")
    bad = np.isnan(arr) | (arr == -np.inf) if allow_negative else ~(arr >= 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        rule = "must not be NaN or -inf" if allow_negative else "must be >= 0 (inf closes the arc)"
        raise InvalidCostError(f"{name}[{i}]={arr[i]} is not allowed; weights {rule}")
    return arr


def check_positive_int(name: str, value: Any, *, allow_none: bool = True) -> int | None:
    """Return ``value`` as an int >= 1 (or None when allowed)."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected an integer >= 1")
    return int(value)


def check_nonneg_float(name: str, value: Any, *, allow_none: bool = True) -> float | None:
    """Return ``value`` as a finite float >= 0 (or None when allowed)."""
    if value is None and allow_none:
        return None
    try:
        f = float(value)
    except (TypeError, ValueError):
        f = float("nan")
    if not (f >= 0 and np.isfinite(f)):
        raise InvalidOptionError(f"{name}={describe(value)} is not valid; expected a finite number >= 0")
    return f
