"""The crowd's storage: one numpy array per unit field, indexed by unit id, grown by doubling.

:class:`UnitArrays` holds the public fields of :class:`~navmesh.steering.Crowd` (positions,
velocities, ...) and the per-unit state its kernel and its route scheduler share (current route
row, order, slot, progress watch). Rows of removed units stay (ids are never reused).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from navmesh._checks import MAX_COORDINATE
from navmesh._kernels import crowd as CK
from navmesh.errors import InvalidOptionError, describe

__all__ = ["UnitArrays", "check_float"]

# the fields' storage: name -> (dtype, shape per unit, group); a group is one array holding its
# fields as rows, in the order navmesh._kernels.crowd gives (the kernels take the groups)
_GROUPS: tuple[tuple[type, tuple[int, ...], tuple[str, ...]], ...] = (
    (np.float64, (), CK.UNIT_FLOATS),
    (np.bool_, (), CK.UNIT_FLAGS),
    (np.int64, (), CK.UNIT_INTS),
    (np.float64, (2,), CK.UNIT_PAIRS),
    (np.int64, (2,), CK.UNIT_INT_PAIRS),
)


class UnitArrays:
    """Per-unit arrays of a crowd (capacity ``cap``, ``n`` rows in use).

    Fields: ``positions``, ``velocities`` (n, 2), ``headings``, ``radii``, ``speeds`` (n,),
    ``arrived``, ``alive`` (public); ``moving`` (has a route to walk), ``cls`` (wall class),
    ``cur`` (current route row, -1: its slot), ``lost`` / ``stuck`` (flags the kernel raises for
    the scheduler), ``stall`` / ``best`` / ``settled`` / ``tries`` (progress watch), ``shadow``
    (positions as the last update left them), ``slot`` (2,), ``prof`` (profile index), ``order``
    (order id, -1: none), ``slot_mult`` (terrain multiplier at the slot), ``min_mult`` (the unit
    type's smallest multiplier), ``goal_best`` / ``goal_stall`` (the order's progress watch: the
    least route cost left that the unit reached in its order, and the seconds since it last
    lowered it; re-plans do not reset it, see :meth:`new_goal`), ``drive`` (2,) (the velocity
    toward its target before separation, passed from one kernel to the next), ``wit`` (2,) (the
    wall edges that last blocked its two shortcut tests, tried first next time; -1: none).
    """

    FIELDS: ClassVar[dict[str, tuple[type, tuple[int, ...]]]] = {
        name: (dt, shape) for dt, shape, names in _GROUPS for name in names
    }

    def __init__(self, cap: int = 16) -> None:
        self.n = 0
        self.cap = 0
        self.groups: tuple[NDArray[Any], ...] = ()
        self.arrays: dict[str, NDArray[Any]] = {}
        self.grow(cap)

    def grow(self, cap: int) -> None:
        """Storage for ``cap`` units, keeping the rows in use."""
        groups = []
        arrays = {}
        for k, (dt, shape, names) in enumerate(_GROUPS):
            group = np.zeros((len(names), cap, *shape), dtype=dt)
            if self.groups:
                group[:, : self.n] = self.groups[k][:, : self.n]
            groups.append(group)
            arrays.update(zip(names, group))  # row views: writing a field writes the group
        for name in ("cur", "order", "wit"):
            arrays[name][self.n :] = -1
        arrays["best"][self.n :] = np.inf
        arrays["goal_best"][self.n :] = np.inf
        self.groups = tuple(groups)
        self.arrays = arrays
        self.cap = cap

    def reserve(self, m: int) -> None:
        """Room for ``m`` more units."""
        while self.n + m > self.cap:
            self.grow(self.cap * 2)

    def __getitem__(self, name: str) -> NDArray[Any]:
        """The whole storage array of field ``name`` (index it with unit ids)."""
        return self.arrays[name]

    def view(self, name: str) -> NDArray[Any]:
        """The rows in use of field ``name``."""
        return self.arrays[name][: self.n]

    def restart(self, u: NDArray[np.int64]) -> None:
        """Units ``u`` got a new target: their progress watch starts again."""
        a = self.arrays
        a["best"][u] = np.inf
        a["stall"][u] = 0.0
        a["stuck"][u] = False
        a["lost"][u] = False
        a["settled"][u] = False
        a["wit"][u] = -1

    def new_goal(self, u: NDArray[np.int64]) -> None:
        """Units ``u`` got a new order, slot or position from outside: both progress watches
        start again (:meth:`restart` and the order's watch, which a re-plan never resets, so a
        unit re-planned again and again without coming closer still gives up in time)."""
        self.restart(u)
        self.arrays["goal_best"][u] = np.inf
        self.arrays["goal_stall"][u] = 0.0

    def kernel_arrays(self) -> tuple[NDArray[Any], ...]:
        """The five field groups :func:`navmesh._kernels.crowd.crowd_steer` and
        :func:`~navmesh._kernels.crowd.crowd_step` take (floats, flags, ints, pairs, int pairs;
        rows ``0..n-1`` in use)."""
        return self.groups


def check_float(name: str, value: Any, low: float, *, strict: bool = False) -> float:
    """``value`` as a float in ``[low, MAX_COORDINATE]`` (``(low, ...]`` when ``strict``)."""
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidOptionError(f"{name}={describe(value)} is not a number") from None
    if not np.isfinite(v) or v < low or (strict and v == low) or v > MAX_COORDINATE:
        rule = f"> {low}" if strict else f">= {low}"
        raise InvalidOptionError(
            f"{name}={describe(value)} is not valid; expected a finite number {rule} and <= {MAX_COORDINATE:g}"
        )
    return v
