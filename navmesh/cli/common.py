"""What every ``navmesh`` subcommand shares: the program name, exit statuses, usage errors, stderr."""

from __future__ import annotations

import sys

__all__ = ["PROG", "EXIT_OK", "EXIT_PROBLEM", "EXIT_USAGE", "UsageError", "stderr", "quiet"]

PROG = "navmesh"
EXIT_OK, EXIT_PROBLEM, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad command-line arguments (exit status 2)."""


def stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def quiet(line: str) -> None:
    pass
