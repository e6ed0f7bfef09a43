"""Is navmesh's compiled code the same with and without :mod:`navmesh._kernels.codegen_speedups`?

Run from the project root: ``python3 tools/codegen_compare.py [--parts waypoints grid ...]``.
It compiles the kernels of the given warm-up parts (all by default) in two fresh processes, each
with its own empty numba cache and the same ``PYTHONHASHSEED``: one with the link-only internal
kernels (as navmesh installs them), one with numba's own methods
(:func:`~navmesh._kernels.codegen_speedups.uninstall` before anything compiles). It then compares
the two caches file by file (object addresses masked, as ``tools/call_type_compare.py`` does):

- every index file and every entry kernel's data file must be byte-identical (the machine code
  numba saved, and the bitcode callers link);
- an internal kernel's data file holds its final module's bitcode in the first cache and numba's
  object code plus linking bitcode in the second: the module a caller links (``linkonce_odr``, as
  ``CPUCodeLibrary._get_module_for_linking`` makes it) must be the same LLVM text in both, and the
  rest of the record (signature, typed IR text, environment) the same.

A measuring tool, not part of the library. Exit status 0 if everything matches, 1 if not.
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

CHILD = """
import sys
import navmesh._kernels
from navmesh._kernels import codegen_speedups
if sys.argv[1] == "off":
    codegen_speedups.uninstall()
elif not codegen_speedups.install():
    raise SystemExit("the codegen speed-up does not apply to this numba")
import navmesh.warmup_steps as steps
for part in sys.argv[2].split(","):
    ctx = {}
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


def compare_internal(ours: bytes, numbas: bytes) -> str | None:
    """None if a bitcode record (``ours``) and numba's object record describe the same callee;
    otherwise what differs."""
    a, b = pickle.loads(ours), pickle.loads(numbas)
    (_, kind_a, final), (_, kind_b, (_, shared)) = a[0], b[0]
    if (kind_a, kind_b) != ("bitcode", "object"):
        return f"record kinds {kind_a} / {kind_b}"
    if linked_text(final, from_final=True) != linked_text(shared, from_final=False):
        return "the module callers link differs"
    rest_a = ctc.masked(repr((a[3], a[6], a[2].env_name, [e.env_name for e in a[8]])).encode())
    rest_b = ctc.masked(repr((b[3], b[6], b[2].env_name, [e.env_name for e in b[8]])).encode())
    return None if rest_a == rest_b else "signature, typed IR or environments differ"


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
    only = sorted(set(a) ^ set(b))
    identical = internal = 0
    differ: list[str] = []
    for name in sorted(set(a) & set(b)):
        if ctc.masked(a[name]) == ctc.masked(b[name]):
            identical += 1
            continue
        problem = compare_internal(a[name], b[name]) if name.endswith(".nbc") else "index differs"
        if problem is None:
            internal += 1
        else:
            differ.append(f"{name}: {problem}")
    print(f"codegen speed-up on vs off, hash seed {args.seed}; parts {','.join(parts)}; "
          f"{len(a)} and {len(b)} cache files; {time.time() - start:.0f} s")
    for name in only:
        print(f"  in one cache only: {name}")
    for line in differ:
        print(f"  differ: {line}")
    print(f"  identical (addresses masked): {identical}; internal kernels stored as bitcode whose "
          f"linked module, signature, typed IR and environments match numba's record: {internal}")
    return 1 if only or differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
