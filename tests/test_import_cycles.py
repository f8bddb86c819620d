"""No module of pnp or rules_engine imports its own caller: the import graph has no cycle.

Every ``import`` and ``from ... import`` statement counts, at module level and inside functions alike
(a lazy import that hides a cycle is still a cycle). The graph is read from the source with ``ast``:
nothing is imported to build it. A ``from package import name`` is an edge to the module ``name`` when
it is one, else to the package. The layers themselves are import-linter's contracts (pyproject.toml,
``lint-imports``); this test keeps what they cannot see inside one layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pnp", "rules_engine")


def modules(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Every module of the packages: dotted name -> (file, whether it is a package's ``__init__``)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            found[".".join(parts)] = (path, is_package)
    return found


def import_graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of the first such import}, for imports of the packages."""
    mods = modules(root)

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, (path, is_package) in mods.items():
        package = name if is_package else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in mods else known(source)
                           for alias in node.names]
            for target in targets:
                if target and target != name:
                    edges.setdefault(target, node.lineno)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe(component: list[str], graph: dict[str, dict[str, int]]) -> str:
    """The imports inside one cycle, each with the line it is on."""
    mods = modules()
    lines = []
    for name in component:
        for target, line in sorted(graph[name].items()):
            if target in component:
                lines.append(f"  {mods[name][0].relative_to(ROOT)}:{line}: {name} imports {target}")
    return "\n".join(lines)


def test_no_module_imports_its_caller():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles (break them by moving the shared piece down):\n" + "\n".join(
        describe(component, graph) for component in found)


def test_the_walk_sees_imports_inside_functions_and_finds_a_cycle(tmp_path):
    """The checker itself: a lazy import inside a function closes a cycle, and it is found with its line."""
    package = tmp_path / "pnp"
    package.mkdir()
    (tmp_path / "rules_engine").mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pnp import b\n")
    (package / "b.py").write_text("def f():\n    from pnp.c import thing\n")
    (package / "c.py").write_text("import os\nfrom . import a\nthing = 1\n")
    (package / "d.py").write_text("from pnp.a import b\n")
    graph = import_graph(tmp_path)
    assert graph["pnp.b"] == {"pnp.c": 2}
    assert graph["pnp.c"] == {"pnp.a": 2}
    assert cycles(graph) == [["pnp.a", "pnp.b", "pnp.c"]]
