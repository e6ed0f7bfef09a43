"""Frame budget of the RTS demo: simulation time per update and frames per second under Xvfb.

Run with ``python -m benchmarks.demo`` from the project root (``--quick`` for fewer rounds).

1. Simulation: the bundled valley with 100, 500 and 1,000 units (60% infantry, 20% tanks, 20%
   scouts) spread over the western half, ordered in groups of 25 to goals across the river, so
   every unit is moving. ``Army.update(1/60)`` is timed frame by frame: the mean over the first
   300 updates, which also run the crowd's budgeted route searches ("planning"), and the median
   over the updates after them (the target: 500 units within 4 ms).
   Peers in the same run, on the same orders: the demo's two motion engines, the steering
   layer's ``Crowd`` (the default: one compiled step for every unit) and one ``PathFollower``
   per unit (a Python loop over units); the ratio is PathFollower time over Crowd time. The
   time to issue the orders (formation slots and searches) is printed too.
2. Whole program: ``python -m demo_game --frames N --fps-report`` in each mode, drawing as fast
   as it can (no vsync) under Xvfb (Mesa's software renderer: the figure is a floor, a GPU does
   far better); the first frames (numba and shader warm-up) are excluded by running twice as
   many frames as measured and reporting the second half.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import shapely

import navmesh
from demo_game.units import INFANTRY, SCOUT, TANK, Army
from demo_game.views.base import load_valley

ROOT = Path(__file__).resolve().parents[1]
COUNTS = (100, 500, 1000)
GROUP = 25
TARGET_MS = 4.0
DT = 1 / 60
WARMUP = 300  # updates (5 s) during which the crowd's budgeted route searches run


def spawn(army: Army, n: int, rng: np.random.Generator) -> None:
    """``n`` units on random points of the western half (x < 1500) where every unit type may stand."""
    pts = np.zeros((0, 2))
    while len(pts) < n:
        cand = rng.uniform((60, 60), (1500, 1940), (4 * n, 2))
        pts = np.concatenate([pts, cand[standable(army, cand)]])
    pts = pts[:n]
    n_tank = n_scout = n // 5
    army.add(INFANTRY, pts[: n - n_tank - n_scout])
    army.add(TANK, pts[n - n_tank - n_scout : n - n_scout])
    army.add(SCOUT, pts[n - n_scout :])


def standable(army: Army, points: np.ndarray) -> np.ndarray:
    ok = shapely.contains_xy(army.navmap.walkable_region, points[:, 0], points[:, 1])
    for kind in (INFANTRY, TANK, SCOUT):
        ok &= np.isfinite(army.navmap.point_multipliers(points, kind.profile))
    return ok


def simulate(motion: str, n: int, frames: int, seed: int = 0) -> tuple[float, float, float, int]:
    """(median ms per update once routes are planned, mean ms per update while the routes are
    searched (the first WARMUP updates), ms to issue the orders, units still moving at the end)."""
    _, navmap = load_valley()
    army = Army(navmap, seed=seed, motion=motion)
    rng = np.random.default_rng(seed)
    spawn(army, n, rng)
    goals = rng.uniform((2000, 200), (3100, 1800), (int(np.ceil(n / GROUP)), 2))
    goals = goals[standable(army, goals)]
    order = rng.permutation(n)
    t0 = time.perf_counter()
    for k, start in enumerate(range(0, n, GROUP)):
        army.order(order[start : start + GROUP], goals[k % len(goals)])
    issue = time.perf_counter() - t0
    # The crowd runs a few route searches per update (budgeted); the first WARMUP updates carry
    # them. Both phases are timed; the units are still far from their goals after both.
    planning = []
    for _ in range(WARMUP):
        t = time.perf_counter()
        army.update(DT)
        planning.append(time.perf_counter() - t)
    times = []
    for _ in range(frames):
        t = time.perf_counter()
        army.update(DT)
        times.append(time.perf_counter() - t)
    return (1000 * statistics.median(times), 1000 * statistics.mean(planning), 1000 * issue,
            int(army.moving.sum()))


def fps(mode: str, frames: int, units: int | None) -> float | None:
    """Mean frames per second of the second half of an unattended run (None without a display)."""
    cmd = [sys.executable, "-m", "demo_game", "--mode", mode, "--scenario", "--fps-report"]
    if units is not None:
        cmd += ["--units", str(units)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if not env.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            return None
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", *cmd]
    rates = []
    for n in (frames, 2 * frames):
        for _ in range(2):  # xvfb-run -a can lose a race for a display number to another run: retry once
            out = subprocess.run([*cmd, "--frames", str(n)], cwd=ROOT, env=env, capture_output=True, text=True,
                                 timeout=900, check=False)
            found = re.search(r"fps ([0-9.]+)", out.stdout)
            if out.returncode == 0 and found is not None:
                rates.append(float(found.group(1)))
                break
        else:
            return None
    # n frames take n / rate seconds; the second half is the difference of the two runs.
    seconds = 2 * frames / rates[1] - frames / rates[0]
    return frames / seconds if seconds > 0 else None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="fewer frames")
    args = p.parse_args(argv)
    warnings.simplefilter("ignore", navmesh.NavmeshWarning)
    frames = 60 if args.quick else 240
    simulate("crowd", 50, 5)  # compile and warm caches
    print(f"Simulation, ms per update (dt = 1/60 s), units ordered in groups of {GROUP}: median over {frames}")
    print(f"updates once routes are planned; 'planning' = mean over the first {WARMUP} updates, which also run")
    print("the crowd's budgeted route searches; 'orders' = ms to issue all orders (slots; PathFollower: all searches)")
    print(f"{'units':>6} {'Crowd':>8} {'planning':>9} {'PathFollower':>13} {'ratio':>7} {'orders Crowd':>13} "
          f"{'orders Follower':>16}  target {TARGET_MS:g} ms")
    for n in COUNTS:
        crowd, crowd_plan, crowd_issue, crowd_moving = simulate("crowd", n, frames)
        follow, _, follow_issue, follow_moving = simulate("straight", n, max(frames // 4, 20))
        ok = "ok" if crowd <= TARGET_MS else "OVER"
        print(f"{n:>6} {crowd:>8.2f} {crowd_plan:>9.2f} {follow:>13.2f} {follow / crowd:>6.1f}x {crowd_issue:>13.0f} "
              f"{follow_issue:>16.0f}   {ok}   (moving at the end: {crowd_moving} / {follow_moving})")
    print()
    n_frames = 120 if args.quick else 300
    print(f"Whole program under Xvfb (software OpenGL): frames per second over {n_frames} frames after warm-up")
    for mode, units in (("rts", None), ("rts", 500), ("visualiser", None), ("maze", None), ("flow", None)):
        rate = fps(mode, n_frames, units)
        label = f"{mode} ({units if units else 'default'} units)" if mode in ("rts", "flow") else mode
        print(f"  {label:<26} {'n/a' if rate is None else f'{rate:6.1f} fps'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
