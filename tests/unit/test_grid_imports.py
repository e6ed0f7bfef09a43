"""navmesh.grid has no import loop, and each of its modules imports on its own in a fresh interpreter.

The loop check reads the import statements of every module (module level and inside functions;
imports under ``if TYPE_CHECKING:`` are for annotations only and never run, so they are left
out) and looks for a cycle among the modules of navmesh.grid.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import navmesh.grid

GRID_DIR = Path(navmesh.grid.__file__).parent
PACKAGE = "navmesh.grid"


def _module_name(path: Path) -> str:
    return PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, submodules: set[str]) -> set[str]:
    """Modules of the package that ``tree`` imports at run time."""
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in out if name in submodules}


def find_cycle(sources: dict[str, str]) -> list[str] | None:
    """A cycle (list of module names, first == last) in the import graph of ``sources``, or None."""
    names = set(sources)
    graph = {name: sorted(_imports(ast.parse(src), names) - {name}) for name, src in sources.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(u: str) -> list[str] | None:
        state[u] = 1
        stack.append(u)
        for v in graph[u]:
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in state:
                found = dfs(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            found = dfs(name)
            if found:
                return found
    return None


def _grid_sources() -> dict[str, str]:
    return {_module_name(p): p.read_text(encoding="utf-8") for p in sorted(GRID_DIR.glob("*.py"))}


def test_the_cycle_finder_finds_a_loop_and_skips_type_checking_imports():
    loop = {
        "navmesh.grid.a": "def f():\n    from navmesh.grid import b\n",
        "navmesh.grid.b": "import navmesh.grid.a\n",
    }
    assert find_cycle(loop) in (
        ["navmesh.grid.a", "navmesh.grid.b", "navmesh.grid.a"],
        ["navmesh.grid.b", "navmesh.grid.a", "navmesh.grid.b"],
    )
    typed = {
        "navmesh.grid.a": "from navmesh.grid.b import x\n",
        "navmesh.grid.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from navmesh.grid.a import y\n",
    }
    assert find_cycle(typed) is None


def test_navmesh_grid_has_no_import_loop():
    sources = _grid_sources()
    assert {"navmesh.grid.map", "navmesh.grid.search", "navmesh.grid.endpoints"} <= set(sources)
    assert find_cycle(sources) is None


def test_each_grid_module_imports_first_in_a_fresh_interpreter():
    names = sorted(_grid_sources())
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m == 'navmesh' or m.startswith('navmesh.')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          cwd=str(GRID_DIR.parents[1]))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_no_grid_module_is_over_600_lines():
    long = {p.name: n for p in GRID_DIR.glob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}
