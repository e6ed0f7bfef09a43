"""What the link-only internal kernels (``tools/llvm_experiments/link_only.py``) change in
navmesh's compiled code.

Run from the project root: ``python3 tools/codegen_compare.py [--parts waypoints grid ...]``.
It compiles the kernels of the given warm-up parts (all by default) in two fresh processes, each
with its own empty numba cache and the same ``PYTHONHASHSEED``: one with the link-only internal
kernels installed before anything compiles, one with numba's own methods, and compares
the two caches file by file (object addresses masked, as ``tools/call_type_compare.py`` does).

Must hold (exit status 1 otherwise): the same files in both; every index file identical; every
data record the same kernel (signature, typed IR text, environments). Reported: how many records
are byte-identical, and how many internal kernels' linked modules and entry kernels' code differ.
They do differ: numba hands an internal kernel's module to its JIT engine, whose machine-code
passes (loop strength reduction, CodeGenPrepare) rewrite the module in place before a caller links
it; a link-only kernel's callers link the module as LLVM's optimisation left it.

A measuring tool, not part of the library.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import call_type_compare as ctc  # noqa: E402  (the shared cache-comparing helpers)

CHILD = f"""
import sys
sys.path.insert(0, {str(ROOT / "tools" / "llvm_experiments")!r})
import navmesh._kernels
import link_only
if sys.argv[1] == "on" and not link_only.install():
    raise SystemExit("the link-only experiment does not apply to this numba")
import navmesh.warmup_steps as steps
for part in sys.argv[2].split(","):
    ctx = {{}}
    for _, work in steps.STEPS[part]:
        work(ctx)
print("ok")
"""


def linked_text(bitcode: bytes, *, from_final: bool) -> str:
    """LLVM text of the module a caller links: ``from_final`` bitcode is a library's final module
    (its own functions external: made ``linkonce_odr`` as numba does before linking)."""
    import llvmlite.binding as ll

    module = ll.parse_bitcode(bitcode)
    if from_final:
        for fn in module.functions:
            if not fn.is_declaration and fn.linkage == ll.Linkage.external:
                fn.linkage = "linkonce_odr"
    return str(module)


def compare_records(ours: bytes, numbas: bytes) -> tuple[str, str | None]:
    """(kind of difference in the code, or None if the two data records are not the same kernel)."""
    a, b = pickle.loads(ours), pickle.loads(numbas)
    rest_a = ctc.masked(repr((a[3], a[6], a[2].env_name, sorted(e.env_name for e in a[8]))).encode())
    rest_b = ctc.masked(repr((b[3], b[6], b[2].env_name, sorted(e.env_name for e in b[8]))).encode())
    if rest_a != rest_b:
        return "", None
    (_, kind_a, data_a), (_, kind_b, data_b) = a[0], b[0]
    if (kind_a, kind_b) == ("bitcode", "object"):
        same = linked_text(data_a, from_final=True) == linked_text(data_b[1], from_final=False)
        return ("internal, same linked module" if same else "internal, linked module differs"), "ok"
    if (kind_a, kind_b) == ("object", "object"):
        return ("entry, same code" if data_a == data_b else "entry, code differs"), "ok"
    return f"record kinds {kind_a} / {kind_b}", None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="*", default=None, help="warm-up parts (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="PYTHONHASHSEED of both processes")
    parser.add_argument("--keep", default=None, help="leave the two caches in this directory")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import navmesh._kernels  # noqa: F401  (unpickling the records imports the kernels' modules)
    import navmesh.warmup_steps as steps

    parts = args.parts or list(steps.STEPS)
    ctc.CHILD = CHILD
    start = time.time()
    (a, b), _ = ctc.run([("on", args.seed), ("off", args.seed)], parts, args.keep)
    only, same, differ = ctc.compare(a, b)
    kinds: dict[str, int] = {}
    wrong: list[str] = []
    for name in differ:
        if not name.endswith(".nbc"):
            wrong.append(f"{name}: index differs")
            continue
        kind, ok = compare_records(a[name], b[name])
        if ok is None:
            wrong.append(f"{name}: not the same kernel ({kind or 'signature, typed IR or environments'})")
        else:
            kinds[kind] = kinds.get(kind, 0) + 1
    print(f"link-only internal kernels on vs off, hash seed {args.seed}; parts {','.join(parts)}; "
          f"{len(a)} and {len(b)} cache files; {time.time() - start:.0f} s")
    for name in only:
        print(f"  in one cache only: {name}")
    for line in wrong:
        print(f"  wrong: {line}")
    print(f"  byte-identical files (addresses masked): {len(same)}; other data records: {kinds}")
    return 1 if only or wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
