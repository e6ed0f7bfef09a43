"""No import loop among the modules of the navmesh package (read with ast, nothing imported).

An import statement anywhere in a module counts (a deferred import inside a function still ties the
two modules together), except those under ``if TYPE_CHECKING:``. A module depends on the module it
names (``from navmesh.grid import map`` depends on ``navmesh.grid.map``, ``from navmesh.grid import
GridMap`` on ``navmesh.grid``); importing a submodule does not count as depending on its package.
"""

from __future__ import annotations

import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]

def _modules(root: Path, package: str) -> dict[str, Path]:
    out = {}
    for f in (root / package).rglob("*.py"):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def _imports(tree: ast.Module, *, deferred: bool) -> list[ast.Import | ast.ImportFrom]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        test = getattr(node, "test", None) if isinstance(node, ast.If) else None
        if test is not None and getattr(test, "id", getattr(test, "attr", "")) == "TYPE_CHECKING":
            skip |= {id(x) for b in node.body for x in ast.walk(b)}
    if deferred:
        nodes = ast.walk(tree)
    else:  # module level only, into if/try blocks but not into functions or classes
        nodes, todo = [], list(tree.body)
        while todo:
            node = todo.pop()
            nodes.append(node)
            if isinstance(node, (ast.If, ast.Try)):
                todo += [*node.body, *node.orelse, *getattr(node, "finalbody", []),
                         *(s for h in getattr(node, "handlers", []) for s in h.body)]
    return [n for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in skip]


def import_graph(root: Path, package: str, *, deferred: bool = True) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    mods = _modules(root, package)

    def owner(name: str) -> str:
        while name not in mods:
            name = name.rsplit(".", 1)[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        deps = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), deferred=deferred):
            if isinstance(node, ast.Import):
                deps |= {owner(a.name) for a in node.names if a.name.split(".")[0] == package}
                continue
            if node.level:
                base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != package:
                continue
            deps |= {f"{module}.{a.name}" if f"{module}.{a.name}" in mods else owner(module) for a in node.names}
        deps.discard(name)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(comp)
    return found


def test_the_finder_finds_a_planted_loop(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg.sub.b import B\n")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from pkg import a\nB = 1\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    assert cycles(import_graph(tmp_path, "pkg")) == [{"pkg.a", "pkg.sub.b"}]
    assert cycles(import_graph(tmp_path, "pkg", deferred=False)) == []


def test_no_import_loop_at_module_level():
    assert cycles(import_graph(ROOT, "navmesh", deferred=False)) == []


def test_no_import_loop_even_through_deferred_imports():
    assert cycles(import_graph(ROOT, "navmesh")) == []
