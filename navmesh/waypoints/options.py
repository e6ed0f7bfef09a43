"""`BuildOptions`: the validated settings of a waypoint-graph build (k, radius, visibility, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from navmesh._checks import check_nonneg_float, check_option, check_positive_int
from navmesh.errors import (
    InvalidOptionError,
    describe,
)
from navmesh.level import BAD_WAYPOINT_POLICIES

__all__ = ["BuildOptions", "DEFAULT_WIDENING"]

Visibility = Literal["shapely", "kernel"]
VISIBILITY: tuple[str, ...] = ("shapely", "kernel")
Linking = Literal["nearest", "cones"]
LINKINGS: tuple[str, ...] = ("nearest", "cones")
BlockedPolicy = Literal["error", "warn", "drop"]
BLOCKED_POLICIES: tuple[str, ...] = BAD_WAYPOINT_POLICIES  # one set of policies for waypoints in a wall
JOINS: tuple[str, ...] = ("mitre", "round")
DEFAULT_WIDENING = 4  # max_candidates defaults to this many times k

ARC_WALK = 0  # automatic link found by line of sight
ARC_LINK = 1  # manual forced / one-way link
ARC_OFFMESH = 2  # off-mesh link (teleport, ladder, ...)

#: Most entries of the (waypoints x candidates) table a build may allocate (8 bytes each: 1 GiB).
MAX_TABLE_ENTRIES = 2**27



# -- options and result ----------------------------------------------------------------------
@dataclass(frozen=True)
class BuildOptions:
    """The options a :class:`NavMap` was built with (see :func:`build_waypoint_graph`)."""

    k: int | None = 8
    max_distance: float | None = None
    max_candidates: int | None = None
    agent_radius: float = 0.0
    join: str = "mitre"
    corners: bool = False
    fill_spacing: float | None = None
    visibility: str = "shapely"
    on_blocked_waypoint: str = "warn"
    linking: str = "nearest"

    def __post_init__(self) -> None:
        put = lambda name, value: object.__setattr__(self, name, value)
        put("k", check_positive_int("k", self.k))
        md = check_nonneg_float("max_distance", self.max_distance)
        if md is not None and md <= 0:
            raise InvalidOptionError(f"max_distance={describe(self.max_distance)} is not valid; expected a number > 0")
        put("max_distance", md)
        mc = check_positive_int("max_candidates", self.max_candidates)
        if mc is not None and self.k is not None and mc < self.k:
            raise InvalidOptionError(f"max_candidates={mc} is not valid; expected an integer >= k={self.k}")
        put("max_candidates", mc)
        put("agent_radius", check_nonneg_float("agent_radius", self.agent_radius, allow_none=False))
        check_option("join", self.join, JOINS)
        if not isinstance(self.corners, (bool, np.bool_)):
            raise InvalidOptionError(f"corners={describe(self.corners)} is not valid; expected True or False")
        put("corners", bool(self.corners))
        fs = check_nonneg_float("fill_spacing", self.fill_spacing)
        if fs is not None and fs <= 0:
            raise InvalidOptionError(f"fill_spacing={describe(self.fill_spacing)} is not valid; expected a number > 0")
        put("fill_spacing", fs)
        check_option("visibility", self.visibility, VISIBILITY)
        check_option("on_blocked_waypoint", self.on_blocked_waypoint, BLOCKED_POLICIES)
        check_option("linking", self.linking, LINKINGS)

    @property
    def widened_k(self) -> int | None:
        """The search cap: how many nearest waypoints a waypoint may test (None: no cap, k=None)."""
        if self.k is None:
            return None
        return self.max_candidates if self.max_candidates is not None else DEFAULT_WIDENING * self.k

    def candidate_width(self, n_points: int) -> int:
        """Columns of the nearest-candidate table for ``n_points`` waypoints: ``widened_k``, but
        never more than ``n_points`` (a waypoint has at most ``n_points - 1`` others), so a huge
        ``k`` on a small level allocates nothing large.

        Raises
        ------
        InvalidOptionError
            When the table would exceed :data:`MAX_TABLE_ENTRIES` entries; checked before anything
            is allocated.

        Examples
        --------
        >>> BuildOptions(k=10**7).candidate_width(5)
        5
        """
        width = min(self.widened_k if self.widened_k is not None else n_points, n_points)
        if n_points * width > MAX_TABLE_ENTRIES:
            raise InvalidOptionError(
                f"k={self.k} with max_candidates={self.widened_k} on {n_points} waypoints needs a "
                f"{n_points} x {width} candidate table, over the limit of {MAX_TABLE_ENTRIES} entries; "
                "use a smaller k or max_candidates"
            )
        return width
