"""navmesh._kernels.codegen_speedups: navmesh's internal kernels get no machine code of their own,
every other library (a game's own numba functions) compiles exactly as numba would, the kernels
give the right answers cold, warm and from a partly filled cache, and with ``NUMBA_DISABLE_JIT=1``.
Every compile runs in a fresh process with its own empty numba cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import codegen
from scipy.sparse import csgraph, csr_matrix

import navmesh._kernels  # noqa: F401  (installs the replacement)
from navmesh._kernels import codegen_speedups

_ROOT = Path(__file__).resolve().parents[2]
_JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT") == "1"
_INSTALLED = bool(codegen_speedups.ORIGINALS)

# A connected graph: a ring of 40 random points plus 60 random chords. Prints the cheapest cost from
# node 0 to every node by navmesh.dijkstra, the navmesh kernels numba compiled in this process, and
# whether the heap's internal kernels (linked into the search) are link-only libraries here.
_SEARCH = """
import json, sys
import numpy as np
from numba.core import event
import navmesh
from navmesh._kernels import codegen_speedups as cs, heap
compiled = []
class Listen(event.Listener):
    def on_start(self, ev):
        func = getattr(ev.data["dispatcher"], "py_func", None)
        if getattr(func, "__module__", "").startswith("navmesh."):
            compiled.append(func.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Listen())
rng = np.random.default_rng(7)
points = rng.uniform(0.0, 100.0, (40, 2))
edges = [(i, (i + 1) % 40) for i in range(40)] + [tuple(map(int, rng.choice(40, 2, replace=False))) for _ in range(60)]
graph = navmesh.NavGraph.from_edges(points, edges)
costs = [navmesh.dijkstra(graph, 0, goal).cost for goal in range(40)]
results = list(heap.heap_push.overloads.values()) if hasattr(heap.heap_push, "overloads") else []
heap_link_only = [cs.link_only(cres.library) for cres in results]
address = None
if "address" in sys.argv[1:]:  # a kernel's machine code asked for after all (a first-class function)
    address = results[0].library.get_pointer_to_function(results[0].fndesc.llvm_func_name)
    heap_link_only = [cs.link_only(cres.library) for cres in results]
print(json.dumps({"costs": costs, "compiled": sorted(set(compiled)), "installed": bool(cs.ORIGINALS),
                  "heap_link_only": heap_link_only, "address": address}))
"""

# A game's own numba code: a callee without entry points (like navmesh's internal kernels) and its
# caller. Prints both libraries' final LLVM text, the caller's machine code, and whether any of them
# was made link-only; argv[1] == "off" puts numba's own methods back first.
_GAME = """
import json, re, sys
import numpy as np
import numba
import navmesh._kernels
from navmesh._kernels import codegen_speedups as cs
if sys.argv[1] == "off":
    cs.uninstall()
@numba.njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def weight(x):
    return x * x if x > 0.5 else 0.5 * x
@numba.njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += weight(a[i])
    return s
answer = total(np.linspace(0.0, 1.0, 101))
callee = weight.overloads[weight.signatures[0]].library
caller = total.overloads[total.signatures[0]].library
def clean(text):
    return re.sub(r"0x[0-9a-f]{6,}", "0x?", text)
print(json.dumps({"answer": answer, "callee_ir": clean(callee.get_llvm_str()),
                  "caller_ir": clean(caller.get_llvm_str()),
                  "caller_asm": clean(caller.get_asm_str()), "link_only": [cs.link_only(callee), cs.link_only(caller)],
                  "installed": "CPUCodeLibrary._finalize_final_module" in cs.ORIGINALS}))
"""


def _graph_costs_by_scipy() -> list[float]:
    rng = np.random.default_rng(7)
    points = rng.uniform(0.0, 100.0, (40, 2))
    edges = [(i, (i + 1) % 40) for i in range(40)] + [tuple(map(int, rng.choice(40, 2, replace=False))) for _ in range(60)]
    rows, cols, weights = [], [], []
    for a, b in {tuple(sorted(edge)) for edge in edges}:
        length = float(np.hypot(*(points[a] - points[b])))
        rows += [a, b]
        cols += [b, a]
        weights += [length, length]
    matrix = csr_matrix((weights, (rows, cols)), shape=(40, 40))
    return csgraph.dijkstra(matrix, indices=0).tolist()


def _run(script: str, cache: Path, *args: str, **env: str) -> dict:
    full_env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONHASHSEED="0", **env)
    out = subprocess.run([sys.executable, "-c", script, *args], cwd=_ROOT, env=full_env, capture_output=True,
                         text=True, timeout=900, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not _INSTALLED, reason=f"numba {numba.__version__}: replacement not installed")
def test_install_replaced_numbas_methods_is_idempotent_and_uninstall_restores_them() -> None:
    originals = dict(codegen_speedups.ORIGINALS)
    assert sorted(originals) == sorted(codegen_speedups.REPLACED)

    def current(name: str) -> object:
        owner, method = name.split(".")
        return vars(getattr(codegen, owner))[method]

    assert codegen_speedups.install() is True
    for name, original in originals.items():
        assert original.__qualname__ == name
        assert current(name) is not original
    try:
        codegen_speedups.uninstall()
        # the two methods that make link-only libraries are numba's again; the two that serve
        # existing ones stay while there are any (none are made in this process by then)
        restored = codegen_speedups.REPLACED if not codegen_speedups._KEPT_ENVS else codegen_speedups.REPLACED[:2]
        assert all(current(name) is originals[name] for name in restored)
        assert sorted(codegen_speedups.ORIGINALS) == sorted(set(codegen_speedups.REPLACED) - set(restored))
    finally:
        assert codegen_speedups.install() is True
    assert all(current(name) is not original for name, original in originals.items())


@pytest.mark.skipif(_JIT_OFF or not _INSTALLED, reason="compiles a game's functions with and without the replacement")
def test_a_games_own_functions_compile_to_the_same_code_as_with_numbas_own_methods(tmp_path: Path) -> None:
    on = _run(_GAME, tmp_path / "on", "on")
    off = _run(_GAME, tmp_path / "off", "off")
    assert on["installed"] and not off["installed"]
    expected = sum(x * x if x > 0.5 else 0.5 * x for x in np.linspace(0.0, 1.0, 101))
    assert on["answer"] == off["answer"] == pytest.approx(expected, rel=1e-12)
    assert on["link_only"] == off["link_only"] == [False, False]
    for key in ("callee_ir", "caller_ir", "caller_asm"):
        assert on[key] == off[key], key
    assert "weight" in on["caller_ir"]


@pytest.mark.skipif(_JIT_OFF, reason="compiles navmesh's kernels in fresh processes")
def test_navmesh_kernels_cold_warm_and_from_a_partly_filled_cache_give_scipys_answers(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = _run(_SEARCH, cache)
    assert cold["costs"] == pytest.approx(_graph_costs_by_scipy(), rel=1e-12)
    assert "heap_push" in cold["compiled"]
    assert cold["heap_link_only"] == ([True] if cold["installed"] else [False])

    warm = _run(_SEARCH, cache)
    assert warm["costs"] == cold["costs"]
    assert warm["compiled"] == []  # every kernel loaded from the cache, the callers with their own code

    # Only the entry kernel is gone: it compiles again and links the heap kernels loaded from the cache.
    entries = [p for p in cache.rglob("graph.best_first-*")]
    assert entries
    for path in entries:
        path.unlink()
    partial = _run(_SEARCH, cache)
    assert partial["compiled"] == ["best_first"]
    assert partial["costs"] == cold["costs"]
    assert partial["heap_link_only"] == cold["heap_link_only"]


@pytest.mark.skipif(_JIT_OFF or not _INSTALLED, reason="makes a link-only library's machine code")
def test_a_link_only_kernels_machine_code_is_made_when_its_address_is_asked_for(tmp_path: Path) -> None:
    result = _run(_SEARCH, tmp_path / "cache", "address")
    assert result["address"] > 0
    assert result["heap_link_only"] == [False]  # handed to the JIT engine, as numba would have
    assert result["costs"] == pytest.approx(_graph_costs_by_scipy(), rel=1e-12)


@pytest.mark.skipif(_JIT_OFF or not _INSTALLED, reason="reads a cache written with the replacement")
def test_a_cache_written_with_the_replacement_loads_with_numbas_own_methods(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _run(_SEARCH, cache)
    for path in cache.rglob("graph.best_first-*"):
        path.unlink()
    numbas_own = "import navmesh\nfrom navmesh._kernels import codegen_speedups\ncodegen_speedups.uninstall()\n"
    script = _SEARCH.replace("import navmesh\n", numbas_own, 1)
    result = _run(script, cache)
    assert result["compiled"] == ["best_first"]  # the heap kernels came from the cache
    assert result["heap_link_only"] == [False]  # numba's own loader gave them machine code
    assert result["costs"] == pytest.approx(_graph_costs_by_scipy(), rel=1e-12)


def test_kernels_run_without_the_jit(tmp_path: Path) -> None:
    result = _run(_SEARCH, tmp_path / "cache", NUMBA_DISABLE_JIT="1")
    assert result["compiled"] == [] and result["heap_link_only"] == []
    assert result["costs"] == pytest.approx(_graph_costs_by_scipy(), rel=1e-12)


@pytest.mark.parametrize(
    "setup",
    [
        "numba.__version__ = '0.99.0'",
        "from numba.core import codegen\n"
        "numba_own = codegen.CPUCodeLibrary._finalize_final_module\n"
        "def _finalize_final_module(self):\n    numba_own(self)\n"
        "codegen.CPUCodeLibrary._finalize_final_module = _finalize_final_module",
    ],
    ids=["unknown-numba-version", "method-already-replaced"],
)
def test_numba_is_left_alone_when_it_is_not_the_checked_one(setup: str, tmp_path: Path) -> None:
    script = (
        "import json, numba\n"
        f"{setup}\n"
        "from numba.core import codegen\n"
        "before = dict(vars(codegen.CPUCodeLibrary))\n"
        "import navmesh\n"
        "from navmesh._kernels import codegen_speedups as cs\n"
        "after = vars(codegen.CPUCodeLibrary)\n"
        "print(json.dumps({'install': cs.install(), 'untouched': all(after.get(k) is v for k, v in before.items())"
        " and set(after) == set(before), 'originals': len(cs.ORIGINALS)}))\n"
    )
    assert _run(script, tmp_path / "cache") == {"install": False, "untouched": True, "originals": 0}


def test_link_only_is_false_for_anything_numba_finalized_itself() -> None:
    assert codegen_speedups.link_only(object()) is False
    if not _JIT_OFF:
        @numba.njit
        def plain(x: float) -> float:
            return x + 1.0

        assert plain(1.0) == 2.0
        assert codegen_speedups.link_only(plain.overloads[plain.signatures[0]].library) is False

