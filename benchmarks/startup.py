"""Start-up cost: compiling and loading navmesh's numba kernels, the demo's first frames, and the
first navigation call of a game.

Run with ``python -m benchmarks.startup`` from the project root (``--no-demo`` skips the demo,
``--parts grid jps`` measures only those parts). Every figure comes from a fresh Python process:

1. ``import navmesh`` + ``warm_up(parts)`` for each part alone and for all parts, cold (an empty
   numba cache in a temporary ``NUMBA_CACHE_DIR``: what a fresh installation pays once) and warm
   (the same cache again: every later program start). Wall seconds, and the CPU seconds (user +
   sys) of the process and of the helper processes a cold ``warm_up`` compiles in (one process
   per core), which stay meaningful on a loaded machine. With ``--serial``, also all parts
   compiled in one process (warm_up's steps called one after the other: the summed compile cost).
2. ``python -m demo_game --frames 1 --startup-report`` under Xvfb, cold once and warm three
   times (the median is printed): seconds from the process start to the loading view's first
   frame, to the first interactive frame (the first frame the RTS view draws and takes input in)
   and to the first frame after every kernel of the demo is loaded (the demo loads the other
   modes' kernels between frames after its first interactive frame), the demo process's own CPU
   seconds at each, and the CPU seconds of the demo and its helper processes. "Warm" is a
   later start of an installed program: numba's cache and Python's bytecode cache (a private
   ``PYTHONPYCACHEPREFIX``, filled by one untimed start, as pip's compiled .pyc files) are
   filled; a third row repeats the warm start without writing or reading the project's bytecode
   (``PYTHONDONTWRITEBYTECODE``, how this machine runs by default).
3. With ``--kernels N``: the N costliest kernel compilations of a cold ``warm_up`` (all parts
   in one process), from numba's "numba:compile" events: CPU seconds of each kernel's own
   compilation (its callees' compilations subtracted; linking and re-optimising them inside the
   caller stays with the caller), how many specialisations, and the part that compiled it.
4. The first-call latency after ``warm_up``: a waypoint ``NavQuery.find_path`` on a level
   other than the warm-up's, and a ``GridMap.find_path`` on a 128x128 random grid; each beside
   the second call (the same search again), in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("waypoints", "grid", "jps", "flowfield", "steering", "mesh")
DEMO_PARTS = ("waypoints", "steering", "grid", "flowfield", "mesh")  # demo_game.app.PARTS

WARM_UP = """
import json, sys, time
t0 = time.perf_counter()
import navmesh
t1 = time.perf_counter()
navmesh.warm_up(sys.argv[1].split(","))
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "warm_up": t2 - t1}))
"""

SERIAL = """
import json, sys, time
import navmesh.warmup_steps as w
t0 = time.perf_counter()
for part in sys.argv[1].split(","):
    ctx = {}
    for _, work in w.STEPS[part]:
        work(ctx)
print(json.dumps({"import": 0.0, "warm_up": time.perf_counter() - t0}))
"""

KERNELS = """
import json, sys, time
from numba.core import event
import navmesh.warmup_steps as w
stack, rows, part = [], [], [""]
class Listen(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        stack.append([f"{f.__module__}.{f.__qualname__}", time.process_time(), 0.0])
    def on_end(self, ev):
        name, start, inner = stack.pop()
        spent = time.process_time() - start
        if stack:
            stack[-1][2] += spent
        rows.append([name, spent - inner, part[0]])
event.register("numba:compile", Listen())
per_part = {}
for part[0] in sys.argv[1].split(","):
    t0 = time.process_time()
    ctx = {}
    for _, work in w.STEPS[part[0]]:
        work(ctx)
    per_part[part[0]] = time.process_time() - t0
print(json.dumps({"rows": rows, "parts": per_part}))
"""

FIRST_CALL = """
import json, time
import numpy as np
import navmesh
navmesh.warm_up(["waypoints", "grid"])
out = {}
level = navmesh.Level.rectangle(800, 600, obstacles=[[(300, 100), (340, 100), (340, 500), (300, 500)],
                                                      [(500, 0), (540, 0), (540, 350), (500, 350)]])
query = navmesh.NavQuery(navmesh.build_waypoint_graph(level, corners=True, agent_radius=12.0))
for key in ("waypoint_first_ms", "waypoint_second_ms"):
    t0 = time.perf_counter()
    query.find_path((50, 300), (750, 300))
    out[key] = 1000 * (time.perf_counter() - t0)
rng = np.random.default_rng(1)
flags = rng.random((128, 128)) < 0.2  # True: blocked
flags[0, 0] = flags[-1, -1] = False
grid = navmesh.GridMap(flags)
for key in ("grid_first_ms", "grid_second_ms"):
    t0 = time.perf_counter()
    try:
        grid.find_path(0, flags.size - 1)
    except navmesh.NoPathError:
        pass
    out[key] = 1000 * (time.perf_counter() - t0)
print(json.dumps(out))
"""


def _child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(args: list[str], cache: str, *, env: dict[str, str] | None = None, timeout: float = 1800,
        drop: tuple[str, ...] = ()) -> tuple[str, float, float]:
    """Run a fresh process with numba's cache in ``cache`` (and without the environment
    variables ``drop``); return (stdout, wall s, CPU s)."""
    full_env = {**os.environ, **(env or {}), "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    for name in drop:
        full_env.pop(name, None)
    cpu0 = _child_cpu()
    t0 = time.perf_counter()
    done = subprocess.run(args, env=full_env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:4])} failed: {done.stderr[-2000:]}")
    return done.stdout, wall, _child_cpu() - cpu0


def warm_up_figures(parts: tuple[str, ...], *, serial: bool = False) -> dict[str, Any]:
    """Cold and warm import + warm_up of ``parts`` in fresh processes (``serial``: the steps
    called in one process, no helper processes)."""
    with tempfile.TemporaryDirectory(prefix="navmesh-numba-") as cache:
        out: dict[str, Any] = {}
        for kind in ("cold", "warm"):
            stdout, wall, cpu = run([sys.executable, "-c", SERIAL if serial else WARM_UP, ",".join(parts)], cache)
            inner = json.loads(stdout.strip().splitlines()[-1])
            out[kind] = {"wall": wall, "cpu": cpu, **inner}
        return out


def start_xvfb() -> tuple[subprocess.Popen[bytes] | None, str | None]:
    """A private Xvfb server (display number chosen by Xvfb), or (None, None) without one."""
    if os.environ.get("DISPLAY"):
        return None, os.environ["DISPLAY"]
    exe = shutil.which("Xvfb")
    if exe is None:
        return None, None
    r, w = os.pipe()
    proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    return proc, f":{number}"


def demo_run(display: str, cache: str, *, pyc: str | None) -> dict[str, Any]:
    """One demo start (bytecode cache in ``pyc``, or none); its figures, seconds from the start."""
    env = {"DISPLAY": display}
    drop: tuple[str, ...] = ()
    if pyc is not None:
        env["PYTHONPYCACHEPREFIX"] = pyc
        drop = ("PYTHONDONTWRITEBYTECODE",)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    t_start = time.time()
    stdout, wall, cpu = run([sys.executable, "-m", "demo_game", "--frames", "1", "--startup-report"], cache,
                            env=env, drop=drop)
    lines = stdout.splitlines()
    marks = dict(line.rsplit(" ", 1) for line in lines if line.startswith(("loading view", "first frame", "all loaded")))
    frames = next(line.split() for line in lines if line.startswith("loading frames"))
    return {
        "frames": int(frames[2]), "median_gap": float(frames[4]), "max_gap": float(frames[6]),
        "loading_view": float(marks["loading view"]) - t_start, "loading_view_cpu": float(marks["loading view cpu"]),
        "first_frame": float(marks["first frame"]) - t_start, "first_frame_cpu": float(marks["first frame cpu"]),
        "all_loaded": float(marks["all loaded"]) - t_start, "all_loaded_cpu": float(marks["all loaded cpu"]),
        "wall": wall, "cpu": cpu,
    }


def demo_figures(display: str, *, repeats: int = 3) -> dict[str, Any]:
    """Cold and warm demo starts (warm: the median of ``repeats`` runs of each figure)."""
    with tempfile.TemporaryDirectory(prefix="navmesh-numba-") as cache, \
            tempfile.TemporaryDirectory(prefix="navmesh-pyc-") as pyc:
        # cold: a fresh numba cache; Python's bytecode as this machine has it (installed packages
        # come with theirs). One untimed start then fills the private bytecode cache.
        out: dict[str, Any] = {"cold": demo_run(display, cache, pyc=None)}
        demo_run(display, cache, pyc=pyc)
        for kind, prefix in (("warm", pyc), ("warm, no .pyc", None)):
            runs = [demo_run(display, cache, pyc=prefix) for _ in range(repeats)]
            out[kind] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            out[kind]["runs"] = runs
        return out


def kernel_figures(parts: tuple[str, ...]) -> dict[str, Any]:
    """Per-kernel cold compile CPU seconds of ``warm_up(parts)`` in one fresh process."""
    with tempfile.TemporaryDirectory(prefix="navmesh-numba-") as cache:
        stdout, _, _ = run([sys.executable, "-c", KERNELS, ",".join(parts)], cache)
        data = json.loads(stdout.strip().splitlines()[-1])
    kernels: dict[str, list[Any]] = {}
    for name, own, part in data["rows"]:
        entry = kernels.setdefault(name, [0.0, 0, set()])
        entry[0] += own
        entry[1] += 1
        entry[2].add(part)
    return {"parts": data["parts"], "kernels": kernels, "total": sum(e[0] for e in kernels.values())}


def first_call_figures() -> dict[str, float]:
    """First and second call of a waypoint and a grid search after warm_up (warm cache)."""
    with tempfile.TemporaryDirectory(prefix="navmesh-numba-") as cache:
        run([sys.executable, "-c", WARM_UP, "waypoints,grid"], cache)
        stdout, _, _ = run([sys.executable, "-c", FIRST_CALL], cache)
        return json.loads(stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.split("\n\n")[0])
    p.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS), help="parts to measure one by one (and whose kernels --kernels lists)")
    p.add_argument("--no-demo", action="store_true", help="skip the demo start-up figures")
    p.add_argument("--no-single", action="store_true", help="only all parts together (skip part by part)")
    p.add_argument("--no-warm-up", action="store_true", help="skip the import + warm_up figures")
    p.add_argument("--serial", action="store_true",
                   help="also compile all parts in one process (the summed cost, without helper processes)")
    p.add_argument("--kernels", type=int, default=0, metavar="N",
                   help="also list the N costliest kernel compilations of a cold warm_up of --parts (one process)")
    p.add_argument("--no-first-call", action="store_true", help="skip the first-call figures")
    args = p.parse_args(argv)
    print(f"navmesh start-up, Python {sys.version.split()[0]}, {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f}: wall time on a loaded machine is noisy; CPU time is not)")
    groups = [] if args.no_single or args.no_warm_up else [(part,) for part in args.parts]
    groups += [] if args.no_warm_up else [tuple(DEMO_PARTS), tuple(PARTS)]
    if groups:
        print(f"\nimport navmesh + warm_up(parts), fresh process each   cold = empty numba cache; CPU = the "
              f"process and its helper processes ({min(os.cpu_count() or 1, 4)} compiling processes at most)")
        print(f"{'parts':<34}{'cold wall':>10}{'cold CPU':>10}{'warm wall':>10}{'warm CPU':>10}")
    if args.serial and not args.no_warm_up:
        groups.append(("serial",))
    for group in groups:
        f = warm_up_figures(PARTS, serial=True) if group == ("serial",) else warm_up_figures(group)
        label = "all" if group == PARTS else ("the demo's: " + ",".join(group) if group == DEMO_PARTS else group[0])
        label = "all, one process (no helpers)" if group == ("serial",) else label
        print(f"{label:<34}{f['cold']['wall']:>9.1f}s{f['cold']['cpu']:>9.1f}s"
              f"{f['warm']['wall']:>9.2f}s{f['warm']['cpu']:>9.2f}s", flush=True)
    if not args.no_demo:
        xvfb, display = start_xvfb()
        try:
            if display is None:
                print("\ndemo: skipped (no DISPLAY and no Xvfb)")
            else:
                d = demo_figures(display)
                print("\npython -m demo_game --frames 1 --startup-report, seconds from process start (warm: median of 3)")
                print(f"{'':<15}{'loading view':>13}{'(CPU)':>7}{'first RTS frame':>16}{'(CPU)':>7}"
                      f"{'all loaded':>11}{'(CPU)':>7}{'CPU (+helpers)':>15}{'loading frames':>15}{'max gap':>9}")
                for kind in ("cold", "warm", "warm, no .pyc"):
                    f = d[kind]
                    print(f"{kind:<15}{f['loading_view']:>12.2f}s{f['loading_view_cpu']:>6.2f}s"
                          f"{f['first_frame']:>15.2f}s{f['first_frame_cpu']:>6.2f}s"
                          f"{f['all_loaded']:>10.2f}s{f['all_loaded_cpu']:>6.2f}s{f['cpu']:>14.1f}s"
                          f"{f['frames']:>15.0f}{1000 * f['max_gap']:>7.0f}ms", flush=True)
                for kind in ("warm", "warm, no .pyc"):
                    print(f"  {kind} runs, first RTS frame CPU s: "
                          + " ".join(f"{r['first_frame_cpu']:.2f}" for r in d[kind]["runs"]))
        finally:
            if xvfb is not None:
                xvfb.terminate()
                xvfb.wait()
    if args.kernels > 0:
        k = kernel_figures(tuple(args.parts))
        print(f"\ncold compile, one process, CPU s: {k['total']:.1f} in compilations; by part "
              + ", ".join(f"{p} {s:.1f}" for p, s in k["parts"].items()))
        print(f"{'own CPU s':>10}{'times':>7}  kernel (part)")
        for name, (own, times, parts) in sorted(k["kernels"].items(), key=lambda kv: -kv[1][0])[:args.kernels]:
            print(f"{own:>10.2f}{times:>7d}  {name} ({','.join(sorted(parts))})")
    if args.no_first_call:
        return 0
    c = first_call_figures()
    print("\nfirst call after warm_up (warm cache), milliseconds      first    second")
    print(f"NavQuery.find_path, a new 800x600 level           {c['waypoint_first_ms']:>9.1f} {c['waypoint_second_ms']:>9.2f}")
    print(f"GridMap.find_path, 128x128 random grid (JPS+)     {c['grid_first_ms']:>9.1f} {c['grid_second_ms']:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
