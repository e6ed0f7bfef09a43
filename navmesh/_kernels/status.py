"""Status codes every search kernel returns (one set for graph, grid and any-angle kernels)."""

FOUND = 0  # the goal (or one of the goals) was reached
EXHAUSTED = 1  # the open list ran empty: the goal is unreachable
BUDGET = 2  # the expansion budget ran out first
