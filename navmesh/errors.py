"""Exception and warning classes of navmesh.

Every error navmesh raises derives from :class:`NavmeshError`. Errors about bad
input also derive from the matching built-in (``ValueError`` or ``LookupError``)
so ordinary ``except ValueError`` code keeps working. This module imports nothing
else from navmesh.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = [
    "NavmeshError",
    "InvalidGeometryError",
    "InvalidCostError",
    "InvalidOptionError",
    "NodeNotFoundError",
    "NoPathError",
    "SearchBudgetError",
    "NegativeCycleError",
    "LevelFormatError",
    "NavmeshWarning",
]


class NavmeshError(Exception):
    """Base class of every error raised by navmesh."""


class InvalidGeometryError(NavmeshError, ValueError):
    """A polygon, point or array has the wrong shape, NaN/inf values or is degenerate."""


class InvalidCostError(NavmeshError, ValueError):
    """A weight or multiplier is negative, NaN or otherwise not allowed."""


class InvalidOptionError(NavmeshError, ValueError):
    """An option has a value outside its documented set or range."""


class NodeNotFoundError(NavmeshError, LookupError):
    """A node id is out of range, or a point lies outside the walkable area."""


class NoPathError(NavmeshError):
    """The goal cannot be reached from the start."""


class SearchBudgetError(NavmeshError):
    """A search spent its ``max_expansions`` budget before reaching the goal."""


class NegativeCycleError(NavmeshError):
    """Bellman-Ford found a cycle of negative total weight.

    Attributes
    ----------
    cycle : tuple of int
        Node ids of the cycle in order; the first node is repeated at the end.
    """

    def __init__(self, message: str, cycle: Sequence[int]) -> None:
        super().__init__(message)
        self.cycle: tuple[int, ...] = tuple(int(c) for c in cycle)


class LevelFormatError(NavmeshError, ValueError):
    """A level or map file cannot be read; the message names the file, field and reason."""


class NavmeshWarning(UserWarning):
    """Legal but suspicious input: isolated waypoints, zero-length edges and the like."""


def describe(value: Any) -> str:
    """Short ``repr`` of a bad value for error messages (long values are cut)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
