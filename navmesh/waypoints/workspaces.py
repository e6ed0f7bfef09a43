"""Search workspaces a :class:`~navmesh.waypoints.query.NavQuery` reuses from query to query.

A workspace (:func:`navmesh._kernels.anyangle.workspace`) holds the search state of one search;
the next search resets only the nodes the last one touched, so a query costs time in what it
explores, not in the size of the map. One workspace serves the one-shot queries; each unfinished
sliced search borrows one of its own and gives it back when its result is taken.
"""

from __future__ import annotations

import numpy as np

from navmesh._kernels import anyangle as AK
from navmesh.query_options import DEFAULT_LOOKBACK

__all__ = ["WorkspacePool"]


class WorkspacePool:
    """Workspaces for one graph.

    Parameters
    ----------
    n_nodes, n_edges : int
        The graph's size.
    """

    def __init__(self, n_nodes: int, n_edges: int) -> None:
        self.n_nodes = n_nodes
        self.n_edges = n_edges
        self._main = AK.workspace(n_nodes, n_edges, DEFAULT_LOOKBACK)
        self._spare: list[tuple] = []

    def _fit(self, ws: tuple | None, lookback: int) -> tuple:
        """``ws`` (a new one when None) with room for ``lookback`` ancestors."""
        if ws is None:
            return AK.workspace(self.n_nodes, self.n_edges, lookback)
        if len(ws[9]) < lookback:
            return (*ws[:9], np.empty(lookback, np.int64), *ws[10:])
        return ws

    def main(self, lookback: int) -> tuple:
        """The workspace of one-shot queries, with room for ``lookback`` ancestors."""
        if len(self._main[9]) < lookback:
            self._main = self._fit(self._main, lookback)
        return self._main

    def borrow(self, lookback: int) -> tuple:
        """A workspace for a sliced search (give it back with :meth:`give_back`)."""
        return self._fit(self._spare.pop() if self._spare else None, lookback)

    def give_back(self, ws: tuple) -> None:
        """Return a borrowed workspace once its search is over."""
        self._spare.append(ws)
