"""Where the LLVM part of navmesh's cold compile goes, library by library.

Run from the project root: ``python3 tools/llvm_costs.py [--parts waypoints grid ...] [--json FILE]``.
It compiles the kernels of the given warm-up parts (all by default) in this one process with an
empty numba cache (a temporary ``NUMBA_CACHE_DIR``), like ``tools/compile_phases.py``, and records
for every code library numba finalizes (one per compiled specialisation: a navmesh kernel, or a
numba implementation of a numpy function or builtin) the CPU seconds (process time) of

- ``fpm``: LLVM's per-function passes on each freshly lowered module (``_optimize_functions``);
- ``link``: linking the callees' optimised modules into the library's module;
- ``mpm``: numba's two whole-module runs after linking (cheap O0 + reference-count pruning, full O3);
- ``emit``: machine code emission of the final module (MCJIT ``finalize_object``);

and the size of its module in LLVM instructions: its own lowered code, the code linked in from its
callees (both after the per-function passes), and the final module after optimisation (with a digest of the final IR, to compare two
settings: ``--json`` files of two runs can be compared with ``--compare A B``). Libraries are
classed as ``entry`` (a navmesh kernel with a CPython entry point), ``internal`` (a navmesh kernel
only other kernels call: its own machine code is never run, only its IR linked into callers) or
``numba`` (numba's implementation of a numpy function or builtin). The measuring wraps numba's
methods for this process only; it is a measuring tool, not part of the library.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _instructions(ir_text: str) -> int:
    """LLVM instructions in a module's text (lines indented inside function bodies)."""
    count = 0
    inside = False
    for line in ir_text.splitlines():
        if line.startswith("define "):
            inside = True
        elif line.startswith("}"):
            inside = False
        elif inside and line.startswith("  ") and not line.lstrip().startswith(";"):
            count += 1
    return count


def _digest(ir_text: str) -> str:
    lines = [ln for ln in ir_text.splitlines() if not ln.startswith(("; ModuleID", "source_filename"))]
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12]


def _kind(ir_text: str) -> str:
    """'entry' / 'internal' for a module defining a navmesh function, 'numba' otherwise."""
    navmesh = False
    for line in ir_text.splitlines():
        if line.startswith("define "):
            at = line.find("@")
            name = line[at + 1:].lstrip('"')
            if name.startswith("_ZN7cpython7navmesh"):
                return "entry"
            navmesh = navmesh or name.startswith("_ZN7navmesh")
    return "internal" if navmesh else "numba"


def _install(rows: list[dict[str, Any]]) -> None:
    from numba.core import codegen

    lib_cls = codegen.CPUCodeLibrary
    records: dict[int, dict[str, Any]] = {}

    def record(lib: Any) -> dict[str, Any]:
        rec = records.get(id(lib))
        if rec is None:
            rec = records[id(lib)] = {"name": lib.name, "fpm": 0.0, "link": 0.0, "mpm": 0.0, "emit": 0.0,
                                      "own": 0, "kind": "numba", "linked_libraries": 0}
        return rec

    add_llvm_module = lib_cls.add_llvm_module

    def add_llvm_module_wrapper(self: Any, ll_module: Any) -> None:
        rec = record(self)
        kind = _kind(str(ll_module))
        if kind != "numba" and rec["kind"] != "entry":
            rec["kind"] = kind
        add_llvm_module(self, ll_module)

    optimize_functions = lib_cls._optimize_functions

    def optimize_functions_wrapper(self: Any, ll_module: Any) -> None:
        start = time.process_time()
        try:
            optimize_functions(self, ll_module)
        finally:
            record(self)["fpm"] += time.process_time() - start
        record(self)["own"] += _instructions(str(ll_module))

    finalize = lib_cls.finalize

    def finalize_wrapper(self: Any) -> None:
        rec = record(self)
        rec["linked_libraries"] = len(set(self._linking_libraries))
        start = time.process_time()
        try:
            finalize(self)
        finally:
            rec["link"] += time.process_time() - start - rec["mpm"] - rec["emit"]
            rows.append(rec)
            records.pop(id(self), None)

    optimize_final = lib_cls._optimize_final_module

    def optimize_final_wrapper(self: Any) -> None:
        rec = record(self)
        rec["before_opt"] = _instructions(str(self._final_module))
        start = time.process_time()
        try:
            optimize_final(self)
        finally:
            rec["mpm"] += time.process_time() - start
        text = str(self._final_module)
        rec["final"] = _instructions(text)
        rec["digest"] = _digest(text)

    finalize_specific = codegen.JITCodeLibrary._finalize_specific

    def finalize_specific_wrapper(self: Any) -> None:
        start = time.process_time()
        try:
            finalize_specific(self)
        finally:
            record(self)["emit"] += time.process_time() - start

    lib_cls.add_llvm_module = add_llvm_module_wrapper
    lib_cls._optimize_functions = optimize_functions_wrapper
    lib_cls.finalize = finalize_wrapper
    lib_cls._optimize_final_module = optimize_final_wrapper
    codegen.JITCodeLibrary._finalize_specific = finalize_specific_wrapper


def _summary(rows: list[dict[str, Any]]) -> str:
    out = []
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for r in rows:
        s = sums[r["kind"]]
        s["libraries"] += 1
        for key in ("fpm", "link", "mpm", "emit", "own", "final"):
            s[key] += r.get(key, 0)
        s["linked_in"] += r.get("before_opt", 0) - r["own"]
    out.append(f"{'kind':9s} {'libs':>5s} {'fpm s':>7s} {'link s':>7s} {'mpm s':>7s} {'emit s':>7s} "
               f"{'own ins':>9s} {'linked ins':>11s} {'final ins':>10s}")
    for kind in ("entry", "internal", "numba"):
        s = sums[kind]
        out.append(f"{kind:9s} {s['libraries']:5.0f} {s['fpm']:7.2f} {s['link']:7.2f} {s['mpm']:7.2f} {s['emit']:7.2f} "
                   f"{s['own']:9.0f} {s['linked_in']:11.0f} {s['final']:10.0f}")
    out.append("costliest libraries (fpm + link + mpm + emit):")
    for r in sorted(rows, key=lambda r: -(r["fpm"] + r["link"] + r["mpm"] + r["emit"]))[:15]:
        out.append(f"  {r['kind']:8s} {r['name'][:40]:40s} fpm {r['fpm']:5.2f} mpm {r['mpm']:5.2f} emit {r['emit']:5.2f} "
                   f"own {r['own']:6d} linked-in {r.get('before_opt', 0) - r['own']:6d} final {r.get('final', 0):6d}")
    return "\n".join(out)


def _compare(a_path: str, b_path: str) -> str:
    a = json.loads(Path(a_path).read_text())
    b = json.loads(Path(b_path).read_text())
    rows_b: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in b["rows"]:
        rows_b[(r["kind"], r["name"])].append(r)
    same = differ = 0
    ins_a = ins_b = 0
    for r in a["rows"]:
        peers = rows_b.get((r["kind"], r["name"]))
        if not peers:
            continue
        peer = peers.pop(0)
        if r["kind"] == "numba":
            continue
        ins_a += r.get("final", 0)
        ins_b += peer.get("final", 0)
        if r.get("digest") == peer.get("digest"):
            same += 1
        else:
            differ += 1
    return (f"navmesh libraries with identical final IR: {same}, different: {differ}; final instructions "
            f"{ins_a} vs {ins_b}; total CPU {a['total']:.2f} vs {b['total']:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="*", default=None, help="warm-up parts (default: all)")
    parser.add_argument("--json", metavar="FILE", help="also write every library's record to FILE")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two --json files and exit")
    args = parser.parse_args()
    if args.compare:
        print(_compare(*args.compare))
        return
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="navmesh-llvm-costs-")
    sys.path.insert(0, str(ROOT))
    rows: list[dict[str, Any]] = []
    t0 = time.process_time()
    import navmesh._kernels  # noqa: F401  (installs navmesh's compile speedups before the measuring wraps numba)
    import navmesh.warmup_steps as steps

    _install(rows)
    for part in args.parts or list(steps.STEPS):
        ctx: dict[str, Any] = {}
        for _, work in steps.STEPS[part]:
            work(ctx)
    total = time.process_time() - t0
    print(f"total CPU {total:.2f} s (includes this tool's IR printing)")
    print(_summary(rows))
    if args.json:
        Path(args.json).write_text(json.dumps({"total": total, "rows": rows}))


if __name__ == "__main__":
    main()
