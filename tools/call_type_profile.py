"""Which numba typing templates serve navmesh's calls, and how much typing time a cache would save.

Run from the project root: ``python3 tools/call_type_profile.py [--parts waypoints grid ...] [--top N]``.
It compiles the kernels of the given warm-up parts (all by default) in this one process with an
empty numba cache (a temporary ``NUMBA_CACHE_DIR``) and numba's own call typing (the cache of
:mod:`navmesh._kernels.call_type_cache` is not installed). Every ``types.Function`` call typing is
timed (CPU, inclusive of what it compiles) and keyed as the cache keys it; a call whose key was
seen before (and that is not inside another such repeat) is time a cache would save. The savings
are charged to the chain of templates numba tried for it (all of which must be audited for the
answer to be remembered) and, per class, to every class on such chains. Classes are marked
``ok`` when :func:`navmesh._kernels.call_type_cache.audit_of` allows them (an audit's argument
condition, ``Audit.when``, is not evaluated here: the figure for audited chains is an upper bound).
A measuring tool, not part of the library.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _install(calls: dict[str, list[float]], chains: dict[tuple, list[float]]) -> None:
    from numba.core import targetconfig
    from numba.core.target_extension import get_local_target
    from numba.core.types import functions

    from navmesh._kernels import call_type_cache as ctc

    cls = functions.BaseFunction
    original = ctc.ORIGINALS.get("get_call_type", cls.get_call_type)  # numba's own
    seen: set[tuple] = set()
    repeats_open = [0]

    def get_call_type(self: Any, context: Any, args: Any, kws: Any) -> Any:
        if type(self) is not functions.Function:
            return original(self, context, args, kws)
        target_hw = get_local_target(context)
        flags = targetconfig.ConfigStack.top_or_none()
        key = (self, context, target_hw, tuple(args), tuple(kws.items()), flags)
        try:
            repeat = key in seen
        except TypeError:
            return original(self, context, args, kws)
        start = time.process_time()
        repeats_open[0] += repeat
        try:
            sig, temp_cls, index = ctc.search(self, context, args, kws, target_hw)
        finally:
            repeats_open[0] -= repeat
        spent = time.process_time() - start
        from numba.core import utils

        order = utils.order_by_target_specificity(target_hw, self.templates, fnkey=self.key[0])
        chain = tuple(order[: index + 1])
        entry = chains.setdefault(chain, [0, 0, 0.0, 0.0])  # calls, repeats, seconds, saved seconds
        entry[0] += 1
        entry[2] += spent
        if repeat and not repeats_open[0]:
            entry[1] += 1
            entry[3] += spent
        if not repeat:
            seen.add((self, context, target_hw, tuple(args), tuple(kws.items()),
                      None if flags is None else flags.copy()))
        return sig

    cls.get_call_type = get_call_type


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="*", default=None, help="warm-up parts (default: all)")
    parser.add_argument("--top", type=int, default=60, help="classes to list")
    parser.add_argument("--chains", type=int, default=0, help="chains not audited to list")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="navmesh-calltypes-")
    sys.path.insert(0, str(ROOT))
    calls: dict[str, list[float]] = {}
    chains: dict[tuple, list[float]] = {}
    import navmesh.warmup_steps as steps
    from navmesh._kernels import call_type_cache as ctc

    _install(calls, chains)
    t0 = time.process_time()
    for part in args.parts or list(steps.STEPS):
        ctx: dict[str, Any] = {}
        for _, work in steps.STEPS[part]:
            work(ctx)
    total = time.process_time() - t0
    per_class: dict[str, list[Any]] = defaultdict(lambda: [0, 0.0, ""])  # repeats, saved, kind
    allowed_saved = 0.0
    for chain, (n, rep, spent, saved) in chains.items():
        for name in {ctc.template_name(c) for c in chain}:
            per_class[name][0] += rep
            per_class[name][1] += saved
        for c in chain:
            kind = next((b.__name__ for b in c.__mro__[1:] if b.__module__ == "numba.core.typing.templates"), "?")
            per_class[ctc.template_name(c)][2] = ("ok " if (ctc.audit_of(c) is not None) else "-- ") + kind
        if all((ctc.audit_of(c) is not None) for c in chain):
            allowed_saved += saved
    n_calls = sum(v[0] for v in chains.values())
    n_rep = sum(v[1] for v in chains.values())
    saved_all = sum(v[3] for v in chains.values())
    print(f"compile CPU {total:.2f} s; types.Function typings {n_calls:,} ({n_rep:,} top-level repeats); "
          f"typing CPU of repeats {saved_all:.2f} s; of repeats whose chain is audited {allowed_saved:.2f} s")
    print(f"{'saved s':>8} {'repeats':>8}  class (kind)")
    for name, (rep, saved, kind) in sorted(per_class.items(), key=lambda kv: -kv[1][1])[: args.top]:
        print(f"{saved:8.3f} {rep:8d}  {kind[:2]} {name} ({kind[3:]})")
    if args.chains:
        print("chains not audited, by saved s:")
        for chain, (n, rep, spent, saved) in sorted(chains.items(), key=lambda kv: -kv[1][3])[: args.chains]:
            if not all((ctc.audit_of(c) is not None) for c in chain):
                print(f"{saved:8.3f} {rep:8d}  " + " > ".join(ctc.template_name(c).split(".")[-1] + ("" if (ctc.audit_of(c) is not None) else "*") for c in chain))

if __name__ == "__main__":
    main()
