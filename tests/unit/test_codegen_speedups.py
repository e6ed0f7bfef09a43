"""navmesh._kernels.codegen_speedups: navmesh's modules skip numba's per-function LLVM passes, every
other module (a game's own numba functions) compiles exactly as before, and the kernels still give
the right answers (compiled, and with ``NUMBA_DISABLE_JIT=1``)."""

from __future__ import annotations

import json
import os
import re
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

# A connected graph: a ring of 40 random points plus 60 random chords; prints the cheapest cost
# from node 0 to every node by navmesh.dijkstra, and how many modules the replacement saw.
_SEARCH = """
import json, sys
import numpy as np
import navmesh
from navmesh._kernels import codegen_speedups as cs
seen = {"navmesh": 0, "other": 0}
defines = cs.defines_navmesh_code
def counting(module):
    found = defines(module)
    seen["navmesh" if found else "other"] += 1
    return found
cs.defines_navmesh_code = counting
rng = np.random.default_rng(7)
points = rng.uniform(0.0, 100.0, (40, 2))
edges = [(i, (i + 1) % 40) for i in range(40)] + [tuple(map(int, rng.choice(40, 2, replace=False))) for _ in range(60)]
graph = navmesh.NavGraph.from_edges(points, edges)
costs = [navmesh.dijkstra(graph, 0, goal).cost for goal in range(40)]
print(json.dumps({"costs": costs, "seen": seen, "installed": bool(cs.ORIGINALS)}))
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


def _run(script: str, tmp_path: Path, **env: str) -> dict:
    full_env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"), **env)
    out = subprocess.run([sys.executable, "-c", script], cwd=_ROOT, env=full_env, capture_output=True, text=True,
                         timeout=900, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _user_function() -> object:
    @numba.njit
    def user_kernel(a: np.ndarray) -> float:
        total = 0.0
        for i in range(a.shape[0]):
            if a[i] > 0.5:
                total += a[i] * a[i]
        return total

    return user_kernel


def _final_ir(dispatcher: object) -> str:
    text = dispatcher.inspect_llvm(dispatcher.signatures[0])
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename")))
    return re.sub(r"B2v\d+", "B2v", text)  # the dispatcher's version tag in mangled names


@pytest.mark.skipif(not codegen_speedups.ORIGINALS, reason=f"numba {numba.__version__}: replacement not installed")
def test_install_replaced_numbas_method_and_is_idempotent() -> None:
    assert codegen_speedups.install() is True
    assert codegen.CPUCodeLibrary._optimize_functions is not codegen_speedups.ORIGINALS["_optimize_functions"]
    assert codegen_speedups.ORIGINALS["_optimize_functions"].__qualname__ == "CPUCodeLibrary._optimize_functions"


@pytest.mark.skipif(_JIT_OFF or not codegen_speedups.ORIGINALS, reason="compiles functions with the replacement")
def test_users_function_compiles_to_the_same_code_as_with_numbas_own_method(monkeypatch: pytest.MonkeyPatch) -> None:
    data = np.linspace(0.0, 1.0, 101)
    with_replacement = _user_function()
    answer = with_replacement(data)
    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_functions", codegen_speedups.ORIGINALS["_optimize_functions"])
    with_numbas_own = _user_function()
    assert with_numbas_own(data) == answer == pytest.approx(float(np.sum(data[data > 0.5] ** 2)), rel=1e-12)
    monkeypatch.undo()
    assert "user_kernel" in _final_ir(with_replacement)
    assert _final_ir(with_replacement) == _final_ir(with_numbas_own)


@pytest.mark.skipif(_JIT_OFF or not codegen_speedups.ORIGINALS, reason="compiles functions with the replacement")
def test_only_modules_defining_navmesh_functions_are_recognised() -> None:
    seen: list[bool] = []
    namespace: dict = {"__name__": "navmesh._kernels.codegen_probe", "numba": numba}
    exec("@numba.njit\ndef probe(n):\n    s = 0\n    for i in range(n):\n        s += i * i\n    return s\n", namespace)
    original = codegen_speedups.defines_navmesh_code

    def recording(module: object) -> bool:
        seen.append(original(module))
        return seen[-1]

    codegen_speedups.defines_navmesh_code = recording
    try:
        assert namespace["probe"](10) == 285  # 0^2 + ... + 9^2
        navmesh_seen = list(seen)
        seen.clear()
        assert _user_function()(np.array([0.25, 0.75])) == 0.5625
    finally:
        codegen_speedups.defines_navmesh_code = original
    assert navmesh_seen and all(navmesh_seen)  # the probe's function, its CPython and C entry points
    assert seen and not any(seen)


@pytest.mark.skipif(_JIT_OFF, reason="compiles navmesh's kernels in a fresh process")
def test_navmesh_kernels_compiled_with_the_replacement_give_scipys_answers(tmp_path: Path) -> None:
    result = _run(_SEARCH, tmp_path)
    assert result["installed"] is bool(codegen_speedups.ORIGINALS)
    if result["installed"]:
        assert result["seen"]["navmesh"] > 0  # the kernels' modules went through the replacement
    assert result["costs"] == pytest.approx(_graph_costs_by_scipy(), rel=1e-12)


def test_kernels_run_without_the_jit(tmp_path: Path) -> None:
    result = _run(_SEARCH, tmp_path, NUMBA_DISABLE_JIT="1")
    assert result["seen"] == {"navmesh": 0, "other": 0}  # nothing compiled
    assert result["costs"] == pytest.approx(_graph_costs_by_scipy(), rel=1e-12)


@pytest.mark.parametrize(
    "setup",
    [
        "numba.__version__ = '0.99.0'",
        "from numba.core import codegen\n"
        "numba_own = codegen.CPUCodeLibrary._optimize_functions\n"
        "def _optimize_functions(self, ll_module):\n    numba_own(self, ll_module)\n"
        "codegen.CPUCodeLibrary._optimize_functions = _optimize_functions",
    ],
    ids=["unknown-numba-version", "method-already-replaced"],
)
def test_numba_is_left_alone_when_it_is_not_the_checked_one(setup: str, tmp_path: Path) -> None:
    script = (
        "import json, numba\n"
        f"{setup}\n"
        "from numba.core import codegen\n"
        "before = codegen.CPUCodeLibrary._optimize_functions\n"
        "import navmesh\n"
        "from navmesh._kernels import codegen_speedups as cs\n"
        "print(json.dumps({'install': cs.install(), 'untouched': codegen.CPUCodeLibrary._optimize_functions is before,"
        " 'originals': len(cs.ORIGINALS)}))\n"
    )
    assert _run(script, tmp_path) == {"install": False, "untouched": True, "originals": 0}
