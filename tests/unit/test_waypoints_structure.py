"""Structure of navmesh.waypoints: no import cycle among its modules, and no module over 600 lines.

The imports are read from the source with ``ast`` (every ``import`` / ``from ... import`` at any
depth, function bodies included; only imports under ``if TYPE_CHECKING:`` are left out, since
they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import navmesh.waypoints

PACKAGE = "navmesh.waypoints"
FOLDER = Path(navmesh.waypoints.__file__).parent


def _runtime_imports(tree: ast.AST) -> list[str]:
    """Module names imported by ``tree``, skipping ``if TYPE_CHECKING:`` blocks."""
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out.extend(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _graph() -> dict[str, set[str]]:
    modules = {f"{PACKAGE}.{p.stem}": p for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    return {
        name: {m for m in _runtime_imports(ast.parse(path.read_text())) if m in modules and m != name}
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (as a list of modules), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(u: str) -> list[str] | None:
        state[u] = 1
        stack.append(u)
        for v in sorted(graph[u]):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in state:
                found = walk(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for u in sorted(graph):
        if u not in state:
            found = walk(u)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_import_reader_sees_function_level_imports_but_not_type_checking_ones():
    src = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from x import y\n"
        "def f():\n    from navmesh.waypoints import build\n    import navmesh.waypoints.query\n"
    )
    got = _runtime_imports(ast.parse(src))
    assert "x" not in got and "navmesh.waypoints.build" in got and "navmesh.waypoints.query" in got


def test_no_import_cycle_inside_navmesh_waypoints():
    graph = _graph()
    assert len(graph) >= 10 and f"{PACKAGE}.navmap" in graph[f"{PACKAGE}.build"]
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph))}"


def test_no_waypoints_module_is_over_600_lines():
    sizes = {p.name: len(p.read_text().splitlines()) for p in FOLDER.glob("*.py")}
    assert max(sizes.values()) <= 600, sizes
