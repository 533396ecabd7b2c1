"""The packages of ``tuner/`` import each other one way only: in the order of ``LAYERS`` (the
"Layers" of docs/layout.md says the same), and with no cycle.

The graph is built from the source with ``ast``: every import that runs, at module level or inside
a function, counts; for the cycle check imports under ``if TYPE_CHECKING:`` (annotations only) do
not, for the layer check they do (a contract typed against a higher layer depends on it). A node is
a package ``tuner.<pkg>``; a top-level module (``tuner/errors.py``) is a node of its own, and the
package's own ``__init__`` is ``tuner``.
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


def _imports(path: Path, types: bool = False) -> list[tuple[str, int]]:
    """(imported module, line) for every runtime import in the file, relative ones resolved."""
    module_parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    package = module_parts[:-1]  # a module's package; for an __init__.py, the package itself
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped = set() if types else _type_checking_nodes(tree)
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
            # ``from tuner import errors`` imports the module tuner.errors (and ``from tuner.store
            # import schema`` the module tuner.store.schema): each name may be a module.
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
    return found


def package_graph(types: bool = False) -> dict[str, dict[str, list[str]]]:
    """{package: {package it imports: ["file:line", ...]}} over ``tuner/`` (``types``: imports for
    annotations only count too)."""
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        source = _node(".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__"))
        graph.setdefault(source, {})
        for target, line in _imports(path, types):
            node = _node(target)
            where = f"{path.relative_to(ROOT.parent)}:{line}"
            if node is not None and node != source and where not in graph[source].get(node, []):
                graph[source].setdefault(node, []).append(where)
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
        "from . import sibling\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", pkg)
    graph = package_graph()
    assert graph["a"] == {"b": ["tuner/a/__init__.py:5"]}


# The layers, bottom to top: a package imports only from its own layer and the ones below (the
# "Layers" paragraph of docs/layout.md lists the same, checked below). A new package must be placed here.
LAYERS: list[list[str]] = [
    ["tuner", "errors", "hashing", "files", "secrets", "tokens", "paths", "stats", "store", "apikeys"],
    ["guidelines", "models", "grading", "engine"],
    ["suites"],
    ["evals"],
    ["runs", "analysis", "sessions"],
    ["compare", "proposals"],
    ["ablation", "leaderboard"],
    ["tuning", "web"],
    ["publish", "bench", "planning"],
    ["cli"],
]

# Upward imports too costly to fix today, as (importer, imported): each says why. The list must
# shrink: an entry no longer needed fails the test, so it is removed when its import goes.
ALLOWED_UPWARD: dict[tuple[str, str], str] = {}


def _level() -> dict[str, int]:
    return {node: i for i, layer in enumerate(LAYERS) for node in layer}


def upward_imports(graph: dict[str, dict[str, list[str]]]) -> dict[tuple[str, str], list[str]]:
    """{(importer, imported): ["file:line", ...]} for every import of a higher layer."""
    level = _level()
    return {(a, b): where for a, deps in graph.items() for b, where in deps.items() if level[b] > level[a]}


def test_every_package_has_a_layer():
    graph = package_graph(types=True)
    nodes = set(graph) | {b for deps in graph.values() for b in deps}
    placed = [n for layer in LAYERS for n in layer]
    assert len(placed) == len(set(placed)), "a package is in two layers"
    assert not nodes - set(placed), (
        f"place these packages in LAYERS (and docs/layout.md): {sorted(nodes - set(placed))}"
    )
    assert not set(placed) - nodes, f"LAYERS names packages that no longer exist: {sorted(set(placed) - nodes)}"


def test_no_layer_imports_a_higher_one():
    found = upward_imports(package_graph(types=True))
    new = {k: v for k, v in found.items() if k not in ALLOWED_UPWARD}
    assert not new, "imports of a higher layer:\n" + "\n".join(
        f"  {a} -> {b} ({', '.join(where[:3])})" for (a, b), where in sorted(new.items())
    )
    stale = sorted(set(ALLOWED_UPWARD) - set(found))
    assert not stale, f"ALLOWED_UPWARD entries no longer needed (remove them): {stale}"


def test_an_upward_import_is_caught():
    """The check can fail: grading (layer 2) importing runs (layer 5) is reported with its line."""
    graph = package_graph(types=True)
    graph["grading"]["runs"] = ["tuner/grading/x.py:1"]
    assert upward_imports(graph)[("grading", "runs")] == ["tuner/grading/x.py:1"]


def test_the_readme_draws_these_layers():
    import re

    text = (ROOT.parent / "docs" / "layout.md").read_text(encoding="utf-8")
    para = text.split("**Layers.**", 1)[1].split("\n\n", 1)[0]
    groups = re.split(r"\(\d+\)", para)[1:]
    drawn = [re.findall(r"`([a-z_]+)`", g) for g in groups]  # package names are lower case
    assert drawn == [[n for n in layer if n != "tuner"] for layer in LAYERS]


def schema_users(root: Path = ROOT) -> dict[str, list[int]]:
    """{module outside ``tuner/store/``: lines importing ``tuner.store.schema``}."""
    users: dict[str, list[int]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = str(path.relative_to(root.parent))
        if rel.startswith("tuner/store/"):
            continue
        lines = [line for target, line in _imports(path, types=True) if target.startswith("tuner.store.schema")]
        if lines:
            users[rel] = lines
    return users


def test_only_the_store_reads_its_schema():
    """Every query is the store's (issue 32): other modules ask ``tuner.store``'s query modules."""
    users = schema_users()
    assert not users, f"ask the store (tuner/store/) instead of importing its schema: {sorted(users.items())}"


def test_a_schema_import_outside_the_store_is_caught(tmp_path, monkeypatch):
    """The check can fail: a web module importing a row class, even inside a function, is reported."""
    pkg = tmp_path / "tuner"
    (pkg / "web").mkdir(parents=True)
    (pkg / "store").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "runs.py").write_text("from tuner.store.schema import RunRow\n")
    (pkg / "web" / "page.py").write_text("def f():\n    from tuner.store import schema\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", pkg)
    assert schema_users(pkg) == {"tuner/web/page.py": [2]}


def test_only_the_store_speaks_sql():
    """Queries are the store's: SQLAlchemy is imported in ``tuner/store/`` and, for Optuna's own
    storage (its tables, not the store's), in ``tuner/tuning/``; nowhere else."""
    users = [
        f"{path.relative_to(ROOT.parent)}:{line}"
        for path in sorted(ROOT.rglob("*.py"))
        if path.relative_to(ROOT).parts[0] not in ("store", "tuning")
        for target, line in _imports(path, types=True)
        if target.split(".")[0] == "sqlalchemy"
    ]
    assert not users, users


def test_only_the_cli_speaks_typer():
    """Library code raises a TunerError; only ``tuner/cli`` turns it into an exit (typer.Exit)."""
    users = [
        f"{path.relative_to(ROOT.parent)}:{line}"
        for path in sorted(ROOT.rglob("*.py"))
        if "cli" not in path.relative_to(ROOT).parts[:1]
        for target, line in _imports(path, types=True)
        if target.split(".")[0] in ("typer", "click")
    ]
    assert not users, users
