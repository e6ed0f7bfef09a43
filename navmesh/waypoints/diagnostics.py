"""`diagnose`: what is wrong with a waypoint graph (islands, sinks, traps, blocked waypoints), as
one :class:`~navmesh.connectivity.ConnectivityReport`."""

from __future__ import annotations

import dataclasses

from navmesh.connectivity import ConnectivityReport, connectivity_report
from navmesh.errors import (
    InvalidOptionError,
    describe,
)
from navmesh.waypoints.navmap import NavMap


def diagnose(nav: NavMap, *, origin: int | None = None) -> ConnectivityReport:
    """Islands, isolated and unreachable waypoints, one-way sinks and sources, blocked waypoints.

    Parameters
    ----------
    nav : NavMap
    origin : int, optional
        A node (e.g. the player's spawn): report the nodes it cannot reach.

    Returns
    -------
    ConnectivityReport
        :func:`~navmesh.connectivity.connectivity_report` of the graph, with ``blocked`` filled in.

    Examples
    --------

    >>> from navmesh import Level, build_waypoint_graph
    >>> level = Level.rectangle(10, 10, obstacles=[[(4, 0), (6, 0), (6, 10), (4, 10)]],
    ...                         waypoints=[[1, 1], [1, 9], [9, 5]])
    >>> d = diagnose(build_waypoint_graph(level), origin=0)
    >>> d.n_islands, d.isolated.tolist(), d.unreachable.tolist()
    (2, [2], [2])
    """
    if not isinstance(nav, NavMap):
        raise InvalidOptionError(f"nav={describe(nav)} is not a NavMap")
    report = connectivity_report(nav.graph, origin)
    return dataclasses.replace(report, blocked=nav.blocked_waypoints)
