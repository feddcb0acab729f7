"""No circles: the import graph of fairdeal/ and verifier/ has no cycle, and fairdeal never imports verifier.

Every import counts, wherever it is written: at the top, inside a function (a lazy import still ties
the two modules together), under ``if TYPE_CHECKING:``. The verifier depends on the core; what both
need is in the core (fairdeal.verification), so nothing in fairdeal/ depends back on verifier/.

The graph is read from the source with :mod:`ast` (nothing is imported): an edge goes from a module
to the module it names, or, for ``from package import name``, to ``package.name`` when that is a
module, else to ``package``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("fairdeal", "verifier")


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Each module's dotted name and its file (a package by its ``__init__.py``)."""
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module ``name`` is, or is in (``fairdeal.rules.get`` is in ``fairdeal.rules``); ``None`` outside."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``module`` imports, at any depth of its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str | None] = set()
    # ast.walk visits every node: function bodies and ``if TYPE_CHECKING:`` blocks included.
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets.update(_resolve(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the package, up level - 1
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            # ``from package import name``: the submodule if ``name`` is one, else the package.
            targets.update(_resolve(f"{name}.{alias.name}", known) or _resolve(name, known) for alias in node.names)
    targets.discard(None)
    targets.discard(module)  # a package's __init__ naming itself is no cycle
    return targets  # type: ignore[return-value]


def graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {module: imports(module, path, known) for module, path in sorted(known.items())}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's), as the path
    ``[a, b, ..., a]``; none when the graph is acyclic."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_path_through(group, edges) for group in groups]


def _path_through(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle from the group's first module back to it, inside the group (breadth first)."""
    start, members = group[0], set(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges[v] & members):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle through {group}")  # pragma: no cover - a group of two or more has one


def _described(found: list[list[str]]) -> str:
    return "; ".join(" -> ".join(cycle) for cycle in found)


def test_fairdeal_and_verifier_import_no_cycle():
    found = cycles(graph())
    assert not found, f"import cycles: {_described(found)}"


def test_fairdeal_never_imports_verifier():
    back = sorted(
        (m, t)
        for m, targets in graph().items()
        if m.split(".")[0] == "fairdeal"
        for t in targets
        if t.split(".")[0] == "verifier"
    )
    assert not back, "fairdeal imports verifier: " + ", ".join(f"{m} -> {t}" for m, t in back)


def test_the_graph_sees_lazy_type_checking_and_package_imports():
    edges = graph()
    assert "fairdeal.verification" in edges["fairdeal.audit"]  # inside a function
    assert "fairdeal.verification.replay" in edges["fairdeal.verification.session"]
    assert "fairdeal.rules.summary" in edges["fairdeal.rules.base"]
    assert "fairdeal.rules" in edges["verifier.report"]  # from fairdeal.rules import RULES: the package
    assert {"fairdeal.verification", "fairdeal.verification.log"} <= edges["verifier.cli"]


def test_a_cycle_is_found_and_named(tmp_path):
    # lazy in a function, under TYPE_CHECKING, relative, and a package's own module: each an edge.
    (tmp_path / "fairdeal" / "sub").mkdir(parents=True)
    (tmp_path / "verifier").mkdir()
    files = {
        "fairdeal/__init__.py": "",
        "fairdeal/a.py": "def f():\n    from fairdeal import b\n",
        "fairdeal/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.c import C\n",
        "fairdeal/sub/__init__.py": "",
        "fairdeal/sub/c.py": "from .. import a\nclass C: ...\n",
        "fairdeal/d.py": "import fairdeal.sub\nfrom fairdeal.sub import c\n",
        "verifier/__init__.py": "from fairdeal.d import *\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    edges = graph(tmp_path)
    assert edges["fairdeal.a"] == {"fairdeal.b"} and edges["fairdeal.b"] == {"fairdeal.sub.c"}
    assert edges["fairdeal.sub.c"] == {"fairdeal.a"} and edges["fairdeal.d"] == {"fairdeal.sub", "fairdeal.sub.c"}
    assert _described(cycles(edges)) == "fairdeal.a -> fairdeal.b -> fairdeal.sub.c -> fairdeal.a"
    (tmp_path / "fairdeal/b.py").write_text("")
    assert cycles(graph(tmp_path)) == []
