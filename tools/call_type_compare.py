"""Is navmesh's compiled code the same with and without the remembered call typing?

Run from the project root: ``python3 tools/call_type_compare.py [--parts waypoints grid ...]``.
It compiles the kernels of the given warm-up parts (all by default) in two fresh processes, each
with its own empty numba cache (``NUMBA_CACHE_DIR``): one with :mod:`navmesh._kernels.call_type_cache`
in place (as navmesh installs it), one with numba's own call typing
(:func:`~navmesh._kernels.call_type_cache.uninstall` before anything compiles). Both run with
the same ``PYTHONHASHSEED`` (``--seed``; numba's output depends on the string hash seed: the order
of some sets). It then compares the two caches file by file: every index (``.nbi``) and object
code file (``.nbc``) must exist in both and be byte-identical.

``--seeds A B`` instead compares two runs of numba's own typing with hash seeds A and B (the
cache is not involved): the files that differ there differ for a reason unrelated to the cache.
A measuring tool, not part of the library. Exit status 0 if the caches are identical, 1 if not.
"""

from __future__ import annotations

import argparse
import os
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


def compare(a: dict[str, bytes], b: dict[str, bytes]) -> tuple[list[str], list[str]]:
    """(files in one cache only, files whose bytes differ)."""
    only = sorted(set(a) ^ set(b))
    differ = sorted(name for name in set(a) & set(b) if a[name] != b[name])
    return only, differ


def run(runs: list[tuple[str, int]], parts: list[str]) -> tuple[list[dict[str, bytes]], list[str]]:
    """Compile ``parts`` once per (mode, seed) of ``runs`` (two at a time); the caches' files and
    the children's first output lines."""
    with tempfile.TemporaryDirectory(prefix="navmesh-compare-") as tmp:
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
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import navmesh.warmup_steps as steps

    parts = args.parts or list(steps.STEPS)
    if args.seeds:
        runs, label = [("off", args.seeds[0]), ("off", args.seeds[1])], f"numba's own typing, hash seeds {args.seeds}"
    else:
        runs, label = [("on", args.seed), ("off", args.seed)], f"cache on vs off, hash seed {args.seed}"
    start = time.time()
    (a, b), notes = run(runs, parts)
    only, differ = compare(a, b)
    print(f"{label}; parts {','.join(parts)}; {len(a)} and {len(b)} cache files; "
          f"remembered answers in the first run: {notes[0]}; {time.time() - start:.0f} s")
    for name in only:
        print(f"  in one cache only: {name}")
    for name in differ:
        print(f"  differ: {name} ({len(a[name])} vs {len(b[name])} bytes)")
    if not only and not differ:
        print("  identical: every index and object code file")
    return 1 if only or differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
