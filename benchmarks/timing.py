"""Timing shared by the benchmarks: the machine's load, and loops repeated until their medians settle.

Every benchmark compares navmesh with its peers on the same inputs in the same run, so only ratios
are meaningful; on a shared machine even those drift while other processes come and go. So the
loops take turns, round after round (a busy spell hits all of them), and rounds are added until
the median of every loop moves by less than ``tolerance`` when the last ``window`` rounds are
added (or ``max_rounds`` is reached; the line printed by :func:`settled_note` says which).
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Timings", "machine_line", "stable_times"]


def machine_line() -> str:
    """One line naming the machine and its load: CPU count, 1/5/15-minute load averages, Python."""
    try:
        load = "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:  # not available on this platform
        load = "load unknown"
    return (f"machine: {os.cpu_count()} CPUs, {load} (1/5/15 min), {platform.machine()}, "
            f"Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M')}")


@dataclass
class Timings:
    """Per-loop wall times (seconds) of every timed round, and whether the medians settled."""

    times: dict[str, list[float]] = field(default_factory=dict)
    settled: bool = False

    @property
    def median(self) -> dict[str, float]:
        """Median seconds per loop."""
        return {name: statistics.median(ts) for name, ts in self.times.items()}

    @property
    def best(self) -> dict[str, float]:
        """Fastest round per loop: on a loaded machine the least disturbed estimate."""
        return {name: min(ts) for name, ts in self.times.items()}

    @property
    def rounds(self) -> int:
        return min((len(ts) for ts in self.times.values()), default=0)

    def note(self) -> str:
        """``"median of N rounds (settled)"`` or ``"... (not settled: capped)"``."""
        state = "settled" if self.settled else "not settled: capped"
        return f"median of {self.rounds} rounds ({state})"


def stable_times(
    runs: dict[str, Callable[[], object]],
    *,
    min_rounds: int = 5,
    max_rounds: int = 25,
    window: int = 3,
    tolerance: float = 0.05,
    warmup: int = 1,
    max_seconds: float | None = None,
) -> Timings:
    """Time each loop of ``runs`` round after round until every median is stable.

    Parameters
    ----------
    runs : dict of name -> callable
        The loops; each round calls every one once, in turn.
    min_rounds, max_rounds : int
        Timed rounds at least and at most.
    window, tolerance : int, float
        Stop once adding the last ``window`` rounds changed no loop's median by ``tolerance``
        (relative) or more.
    warmup : int
        Untimed rounds first (numba compiles, caches fill).
    max_seconds : float, optional
        Stop adding rounds after this much wall time (the medians may then be unsettled).
    """
    for _ in range(warmup):
        for run in runs.values():
            run()
    out = Timings({name: [] for name in runs})
    t_start = time.perf_counter()
    while True:
        for name, run in runs.items():
            t0 = time.perf_counter()
            run()
            out.times[name].append(time.perf_counter() - t0)
        n = out.rounds
        if n >= max(min_rounds, window + 1):
            out.settled = all(
                abs(statistics.median(ts) - statistics.median(ts[:-window])) < tolerance * statistics.median(ts[:-window])
                for ts in out.times.values()
            )
            if out.settled:
                return out
        if n >= max_rounds or (max_seconds is not None and time.perf_counter() - t_start > max_seconds):
            return out
