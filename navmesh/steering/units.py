"""The crowd's storage: one flat numpy array per unit field, indexed by unit id, grown by doubling.

:class:`UnitArrays` holds the public fields of :class:`~navmesh.steering.Crowd` (positions,
velocities, ...) and the per-unit state its kernel and its route scheduler share (current route
row, order, slot, progress watch). Rows of removed units stay (ids are never reused).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from navmesh._checks import MAX_COORDINATE
from navmesh.errors import InvalidOptionError, describe

__all__ = ["STEER_FIELDS", "STEP_FIELDS", "UnitArrays", "check_float"]

# the unit fields of navmesh._kernels.crowd.crowd_steer and crowd_step, in their argument order
STEER_FIELDS = (
    "positions", "radii", "speeds", "cls", "alive", "moving", "arrived", "cur", "lost", "stuck", "stall", "best",
    "settled", "tries", "slot", "slot_mult", "min_mult", "goal_best", "goal_stall", "drive", "wit",
)
STEP_FIELDS = (
    "positions", "velocities", "headings", "radii", "speeds", "cls", "alive", "moving", "arrived", "stall",
    "settled", "slot", "goal_stall", "drive",
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
        "positions": (np.float64, (2,)),
        "velocities": (np.float64, (2,)),
        "headings": (np.float64, ()),
        "radii": (np.float64, ()),
        "speeds": (np.float64, ()),
        "arrived": (np.bool_, ()),
        "alive": (np.bool_, ()),
        "moving": (np.bool_, ()),
        "cls": (np.int64, ()),
        "cur": (np.int64, ()),
        "lost": (np.bool_, ()),
        "stuck": (np.bool_, ()),
        "stall": (np.float64, ()),
        "best": (np.float64, ()),
        "settled": (np.bool_, ()),
        "tries": (np.int64, ()),
        "shadow": (np.float64, (2,)),
        "slot": (np.float64, (2,)),
        "prof": (np.int64, ()),
        "order": (np.int64, ()),
        "slot_mult": (np.float64, ()),
        "min_mult": (np.float64, ()),
        "goal_best": (np.float64, ()),
        "goal_stall": (np.float64, ()),
        "drive": (np.float64, (2,)),
        "wit": (np.int64, (2,)),
    }

    def __init__(self, cap: int = 16) -> None:
        self.n = 0
        self.cap = 0
        self.arrays: dict[str, NDArray[Any]] = {}
        self._views: tuple[list[NDArray[Any]], list[NDArray[Any]]] = ([], [])
        self._views_of: dict[str, NDArray[Any]] | None = None
        self._views_n = -1
        self.grow(cap)

    def grow(self, cap: int) -> None:
        """Storage for ``cap`` units, keeping the rows in use."""
        new = {}
        for name, (dt, shape) in self.FIELDS.items():
            arr = np.zeros((cap, *shape), dtype=dt)
            if name in self.arrays:
                arr[: self.n] = self.arrays[name][: self.n]
            new[name] = arr
        for name in ("cur", "order", "wit"):
            new[name][self.n :] = -1
        new["best"][self.n :] = np.inf
        new["goal_best"][self.n :] = np.inf
        self.arrays = new
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

    def kernel_views(self) -> tuple[list[NDArray[Any]], list[NDArray[Any]]]:
        """The unit views :func:`navmesh._kernels.crowd.crowd_steer` and
        :func:`~navmesh._kernels.crowd.crowd_step` take, in their order (made again only when
        the storage grew or ``n`` changed)."""
        if self._views_of is not self.arrays or self._views_n != self.n:
            n = self.n
            self._views = ([self.arrays[f][:n] for f in STEER_FIELDS], [self.arrays[f][:n] for f in STEP_FIELDS])
            self._views_of, self._views_n = self.arrays, n
        return self._views


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
