"""Is navmesh's compiled code the same with and without the remembered call typing?

Run from the project root: ``python3 tools/call_type_compare.py [--parts waypoints grid ...]``.
It compiles the kernels of the given warm-up parts (all by default) in two fresh processes, each
with its own empty numba cache (``NUMBA_CACHE_DIR``): one with :mod:`navmesh._kernels.call_type_cache`
in place (as navmesh installs it), one with numba's own call typing
(:func:`~navmesh._kernels.call_type_cache.uninstall` before anything compiles). Both run with
the same ``PYTHONHASHSEED`` (``--seed``; numba's output depends on the string hash seed: the order
of some sets). It then compares the two caches file by file: every index (``.nbi``) and object
code file (``.nbc``) must exist in both and be byte-identical, except for object addresses
(``0x7f..``) in the typed-IR text numba stores with each kernel (``<function f at 0x7f..>``) and
in the names of parallel loops' gufuncs: they differ between any two processes, and are masked.

``--seeds A B`` instead compares two runs of numba's own typing with hash seeds A and B (the
cache is not involved): the files that differ there differ for a reason unrelated to the cache.
A measuring tool, not part of the library. Exit status 0 if the caches are identical, 1 if not.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys
import navmesh._kernels
from navmesh._kernels import call_type_cache
if sys.argv[1] == "off":
    call_type_cache.uninstall()
elif not call_type_cache.install():
    raise SystemExit("the call typing cache does not apply to this numba")
import navmesh.warmup_steps as steps
for part in sys.argv[2].split(","):
    ctx = {}
    for _, work in steps.STEPS[part]:
        work(ctx)
print(len(call_type_cache.CALL_TYPES))
"""


def compile_into(cache: str, mode: str, parts: list[str], seed: int) -> subprocess.Popen[str]:
    """Start a process compiling ``parts`` into the empty numba cache ``cache`` (``mode`` on/off)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONHASHSEED=str(seed), PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", CHILD, mode, ",".join(parts)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def cache_files(cache: str) -> dict[str, bytes]:
    """Relative path -> bytes of every numba index and object code file under ``cache``."""
    base = Path(cache)
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*"))
            if p.suffix in (".nbi", ".nbc")}


_ADDRESS = re.compile(rb"0x[0-9a-f]{6,}")


def masked(data: bytes) -> bytes:
    """``data`` with object addresses (``0x7f..``, six hex digits or more) masked: numba keeps
    each kernel's typed IR as text (``type_annotation``), which names each callee dispatcher by its
    address in that process, and names a parallel loop's gufunc after an object's address."""
    return _ADDRESS.sub(b"0x?", data)


def compare(a: dict[str, bytes], b: dict[str, bytes]) -> tuple[list[str], list[str], list[str]]:
    """(files in one cache only, files in both that are the same with addresses masked, files in
    both that differ with addresses masked), each sorted by name (the one compare loop of the
    cache-comparing tools)."""
    only = sorted(set(a) ^ set(b))
    same: list[str] = []
    differ: list[str] = []
    for name in sorted(set(a) & set(b)):
        (same if masked(a[name]) == masked(b[name]) else differ).append(name)
    return only, same, differ


def run(runs: list[tuple[str, int]], parts: list[str], keep: str | None = None,
        ) -> tuple[list[dict[str, bytes]], list[str]]:
    """Compile ``parts`` once per (mode, seed) of ``runs`` (at once); the caches' files and the
    children's last output lines (``keep``: the caches are left in that directory)."""
    with tempfile.TemporaryDirectory(prefix="navmesh-compare-") as tmp:
        tmp = keep or tmp
        dirs = [os.path.join(tmp, f"run{i}") for i in range(len(runs))]
        children = [compile_into(d, mode, parts, seed) for d, (mode, seed) in zip(dirs, runs)]
        notes = []
        for child in children:
            out, err = child.communicate()
            if child.returncode:
                raise SystemExit(f"a compiling process failed:\n{err[-3000:]}")
            notes.append(out.strip().splitlines()[-1] if out.strip() else "")
        return [cache_files(d) for d in dirs], notes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="*", default=None, help="warm-up parts (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="PYTHONHASHSEED of both processes")
    parser.add_argument("--seeds", nargs=2, type=int, default=None,
                        help="compare numba's own typing under two hash seeds instead")
    parser.add_argument("--keep", default=None, help="leave the two caches in this directory")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import navmesh.warmup_steps as steps

    parts = args.parts or list(steps.STEPS)
    if args.seeds:
        runs, label = [("off", args.seeds[0]), ("off", args.seeds[1])], f"numba's own typing, hash seeds {args.seeds}"
    else:
        runs, label = [("on", args.seed), ("off", args.seed)], f"cache on vs off, hash seed {args.seed}"
    start = time.time()
    (a, b), notes = run(runs, parts, args.keep)
    only, same, differ = compare(a, b)
    addresses = sum(a[name] != b[name] for name in same)
    print(f"{label}; parts {','.join(parts)}; {len(a)} and {len(b)} cache files; "
          f"remembered answers in the first run: {notes[0]}; {time.time() - start:.0f} s")
    for name in only:
        print(f"  in one cache only: {name}")
    for name in differ:
        print(f"  differ: {name} ({len(a[name])} vs {len(b[name])} bytes)")
    if not only and not differ:
        print(f"  identical: every index and object code file ({addresses} differ only in object "
              "addresses, as between any two processes)")
    return 1 if only or differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
