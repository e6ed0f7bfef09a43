"""Where navmesh's cold compile time goes, by phase of numba's pipeline.

Run from the project root: ``python3 tools/compile_phases.py [--parts waypoints grid ...] [--json]``.
It compiles the kernels of the given warm-up parts (all by default) in this one process with an
empty numba cache (a temporary ``NUMBA_CACHE_DIR``) and charges every CPU second (process time) to
exactly one phase, the innermost one running:

- ``pass:<name>``: a numba compiler pass (type inference, IR rewrites, lowering of Python IR to
  LLVM IR ...), its own time, the phases below and nested compilations taken out;
- ``lower:cpython-wrapper``: building the LLVM IR of the CPython entry point of a kernel called
  from Python (unboxing its arguments, boxing its result);
- ``lower:ir-text-to-llvm``: printing a lowered module as text and parsing it into LLVM;
- ``llvm:function-opt``: LLVM's per-function passes on each freshly lowered module;
- ``llvm:link``: linking the callees' optimised modules into the caller's module;
- ``llvm:module-opt-cheap`` and ``llvm:module-opt-full``: numba's two whole-module O3 runs after
  the callees are linked in (the first feeds the reference-count pruning);
- ``llvm:emit``: machine code emission of the final module (MCJIT ``finalize_object``);
- ``cache:save``: writing the index and object code to numba's cache;
- ``outside``: everything else (Python glue of the warm-up steps, array set-up, the kernels' runs).

Each phase is also split by whose compilation it belongs to: a navmesh kernel, or a numba
implementation of a numpy function or builtin (the innermost "numba:compile" event's function
module). The measuring wraps numba's and llvmlite's methods for this process only; it is a
measuring tool, not part of the library.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _install(table: dict[tuple[str, str], float], counts: dict[str, int]) -> None:
    import llvmlite.binding as ll
    from numba.core import caching, codegen, compiler_machinery, event, lowering

    stack: list[list[Any]] = []  # [phase, start, child_seconds]
    owners: list[str] = ["outside"]

    def charge(phase: str, spent: float) -> None:
        table[(phase, owners[-1])] += spent

    def enter(phase: str) -> None:
        stack.append([phase, time.process_time(), 0.0])

    def leave() -> None:
        phase, start, inner = stack.pop()
        spent = time.process_time() - start
        if stack:
            stack[-1][2] += spent
        charge(phase, spent - inner)
        counts[phase] += 1

    def wrap(owner: Any, name: str, phase: Any) -> None:
        original = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            enter(phase(*args) if callable(phase) else phase)
            try:
                return original(*args, **kwargs)
            finally:
                leave()

        setattr(owner, name, wrapper)

    wrap(compiler_machinery.PassManager, "_runPass", lambda self, index, pss, state: f"pass:{pss.name()}")
    wrap(codegen.CPUCodeLibrary, "_optimize_functions", "llvm:function-opt")
    wrap(lowering.BaseLower, "create_cpython_wrapper", "lower:cpython-wrapper")
    wrap(codegen.CPUCodeLibrary, "add_ir_module", "lower:ir-text-to-llvm")
    module_runs = [-1]  # ModulePassManager runs since the start of _optimize_final_module
    final_module = codegen.CPUCodeLibrary._optimize_final_module

    def optimize_final_module(self: Any) -> None:
        module_runs[0] = 0
        try:
            final_module(self)
        finally:
            module_runs[0] = -1

    codegen.CPUCodeLibrary._optimize_final_module = optimize_final_module

    def module_phase(*_: Any) -> str:
        run = module_runs[0]
        if run >= 0:
            module_runs[0] += 1
        return {0: "llvm:module-opt-cheap", 1: "llvm:module-opt-full"}.get(run, "llvm:module-opt-other")

    wrap(ll.ModulePassManager, "run", module_phase)
    wrap(ll.ModuleRef, "link_in", "llvm:link")
    wrap(codegen.JITCodeLibrary, "_finalize_specific", "llvm:emit")
    wrap(caching.Cache, "save_overload", "cache:save")

    class Owner(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            func = getattr(ev.data["dispatcher"], "py_func", None)
            module = getattr(func, "__module__", "") or ""
            internal = ev.data["dispatcher"].targetoptions.get("no_cpython_wrapper", False)
            owners.append(("navmesh-internal" if internal else "navmesh") if module.startswith("navmesh.") else "numba-impl")
            counts[f"compile:{owners[-1]}"] += 1
            enter("pass:(dispatcher glue)")

        def on_end(self, ev: event.Event) -> None:
            leave()
            owners.pop()

    event.register("numba:compile", Owner())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="*", default=None, help="warm-up parts (default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of a table")
    args = parser.parse_args()
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="navmesh-phases-")
    sys.path.insert(0, str(ROOT))
    table: dict[tuple[str, str], float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    t0 = time.process_time()
    import navmesh.warmup_steps as steps

    _install(table, counts)
    parts = args.parts or list(steps.STEPS)
    for part in parts:
        ctx: dict[str, Any] = {}
        for _, work in steps.STEPS[part]:
            work(ctx)
    total = time.process_time() - t0
    by_phase: dict[str, float] = defaultdict(float)
    for (phase, _), spent in table.items():
        by_phase[phase] += spent
    by_phase["outside"] += total - sum(table.values())
    if args.json:
        print(json.dumps({"total": total, "phases": by_phase, "table": {f"{p}|{o}": s for (p, o), s in table.items()},
                          "counts": counts}))
        return
    print(f"total CPU {total:.2f} s; compilations: navmesh {counts['compile:navmesh']}, navmesh internal "
          f"{counts['compile:navmesh-internal']}, numba implementations {counts['compile:numba-impl']}")
    print(f"{'phase':40s} {'all':>7s} {'navmesh':>8s} {'internal':>8s} {'numba':>7s}")
    for phase, spent in sorted(by_phase.items(), key=lambda kv: -kv[1]):
        if spent < 0.05:
            continue
        print(f"{phase:40s} {spent:7.2f} {table.get((phase, 'navmesh'), 0.0):8.2f} "
              f"{table.get((phase, 'navmesh-internal'), 0.0):8.2f} {table.get((phase, 'numba-impl'), 0.0):7.2f}")


if __name__ == "__main__":
    main()
