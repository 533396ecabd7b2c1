"""The packages of ``tuner/`` import each other one way only: no cycle between packages.

The graph is built from the source with ``ast``: every import that runs, at module level or inside
a function, counts; imports under ``if TYPE_CHECKING:`` (annotations only) do not. A node is a
package ``tuner.<pkg>``; a top-level module (``tuner/errors.py``) is a node of its own, and the
package's own ``__init__`` is ``tuner``. The layers, bottom to top, are in README.md ("Layers").
"""

from __future__ import annotations

import ast
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import tuner

ROOT = Path(tuner.__file__).parent


def _node(module: str) -> str | None:
    """``tuner.runs.runner`` -> ``runs``; ``tuner.errors`` -> ``errors``; outside tuner -> None."""
    parts = module.split(".")
    if parts[0] != "tuner":
        return None
    if len(parts) == 1 or not ((ROOT / parts[1]).is_dir() or (ROOT / f"{parts[1]}.py").is_file()):
        return "tuner"  # the package's __init__ (``from tuner import __version__``)
    return parts[1]


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """Ids of the nodes inside ``if TYPE_CHECKING:`` blocks (their ``else`` branches still run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            skipped |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    return skipped


def _imports(path: Path) -> list[tuple[str, int]]:
    """(imported module, line) for every runtime import in the file, relative ones resolved."""
    module_parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    package = module_parts[:-1]  # a module's package; for an __init__.py, the package itself
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = _type_checking_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            # ``from tuner import errors`` imports the module tuner.errors.
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names if target == "tuner"]
    return found


def package_graph() -> dict[str, dict[str, list[str]]]:
    """{package: {package it imports: ["file:line", ...]}} over ``tuner/``."""
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        source = _node(".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__"))
        graph.setdefault(source, {})
        for target, line in _imports(path):
            node = _node(target)
            if node is not None and node != source:
                graph[source].setdefault(node, []).append(f"{path.relative_to(ROOT.parent)}:{line}")
    return graph


def _describe(cycle: list[str], graph: dict[str, dict[str, list[str]]]) -> str:
    # graphlib reports the cycle against the dependency order: each node is imported by the next.
    steps = [f"  {b} -> {a} ({', '.join(graph[b][a][:3])})" for a, b in zip(cycle, cycle[1:])]
    return "import cycle between packages: " + " -> ".join(reversed(cycle)) + "\n" + "\n".join(steps)


def test_the_package_graph_has_no_cycle():
    graph = package_graph()
    assert {"grading", "suites", "evals", "runs", "cli"} <= graph.keys()  # the walk saw the packages
    try:
        TopologicalSorter({node: set(deps) for node, deps in graph.items()}).prepare()
    except CycleError as e:
        pytest.fail(_describe(e.args[1], graph))


def test_a_cycle_is_found_and_printed():
    """The check can fail: a function-level import from grading back up to runs is a cycle."""
    graph = package_graph()
    graph["grading"]["runs"] = ["tuner/grading/x.py:1"]
    with pytest.raises(CycleError) as caught:
        TopologicalSorter({node: set(deps) for node, deps in graph.items()}).prepare()
    text = _describe(caught.value.args[1], graph)
    assert "grading" in text and "runs" in text and "tuner/grading/x.py:1" in text


def test_imports_inside_functions_count_and_type_checking_ones_do_not(tmp_path, monkeypatch):
    pkg = tmp_path / "tuner"
    (pkg / "a").mkdir(parents=True)
    (pkg / "b").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "b" / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tuner.b import Thing\n"
        "def f():\n    from tuner.b import other\n"
        "from . import sibling\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", pkg)
    graph = package_graph()
    assert graph["a"] == {"b": ["tuner/a/__init__.py:5"]}
