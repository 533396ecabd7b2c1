"""The grader's identity is a content hash of every input that can change a verdict.

Changing any one of them (lint levels, TypeScript options, the vitest configuration, a Node
script, a codegen template, the toolchain's package.json or lock) changes the grader id, and so
the grading cache key: stale grades are never replayed under a new grader.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tuner.evals import load_suite
from tuner.grading import GradeRequest, cache_key
from tuner.suites.convex import codegen_templates, identity, workspace
from tuner.suites.convex.identity import grader_id
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def suite_copy(tmp_path: Path):
    """The Convex suite's manifest and toolchain files in a folder a test may edit (no evals)."""
    root = tmp_path / "suite"
    (root / "toolchain").mkdir(parents=True)
    shutil.copy(ROOT / "evals" / "suite.toml", root / "suite.toml")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(ROOT / "evals" / "toolchain" / name, root / "toolchain" / name)
    return root


def _id(root: Path) -> str:
    return grader_id(load_suite(root))


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("change", ["lint-level", "lint-added", "package", "lock"])
def test_suite_files_change_the_id(suite_copy, change):
    before = _id(suite_copy)
    if change == "lint-level":
        _edit(suite_copy / "suite.toml", 'level = "off"', 'level = "warn"')
    elif change == "lint-added":
        (suite_copy / "suite.toml").write_text((suite_copy / "suite.toml").read_text()
                                              + '\n[[lint]]\nrule = "no-top-of-hour-crons"\nlevel = "error"\nreason = "a test of the identity"\n')
    elif change == "package":
        _edit(suite_copy / "toolchain" / "package.json", '"private": true', '"private": true, "x": 1')
    else:
        _edit(suite_copy / "toolchain" / "package-lock.json", '"lockfileVersion"', '"x": 1, "lockfileVersion"')
    assert _id(suite_copy) != before


@pytest.mark.parametrize("target, name", [
    (workspace, "_TS_OPTIONS"), (workspace, "_VITEST_CONFIG"), (codegen_templates, "SERVER_DTS"), (codegen_templates, "API_JS"),
])
def test_live_configuration_changes_the_id(suite_copy, monkeypatch, target, name):
    before = _id(suite_copy)
    value = getattr(target, name)
    monkeypatch.setattr(target, name, {**value, "strict": False} if isinstance(value, dict) else value + "\n// changed\n")
    assert _id(suite_copy) != before


@pytest.mark.parametrize("file", ["node/bundle.mjs", "node/reporter.mjs", "checks.py"])
def test_grading_scripts_and_code_change_the_id(suite_copy, monkeypatch, tmp_path, file):
    before = _id(suite_copy)
    copy = tmp_path / "grading"
    shutil.copytree(Path(identity.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / file).write_text((copy / file).read_text() + "\n// changed\n")
    monkeypatch.setattr(identity, "_HERE", copy)
    assert _id(suite_copy) != before


def test_a_new_grader_id_misses_the_grading_cache(suite_copy):
    suite = load_suite(Project(ROOT))
    request = GradeRequest(eval=suite.evals[0], files=suite.evals[0].answer_files())
    before = cache_key(request, _id(suite_copy))
    _edit(suite_copy / "suite.toml", 'level = "off"', 'level = "warn"')
    assert cache_key(request, _id(suite_copy)) != before


def test_unknown_lint_rule_is_an_error_naming_it(suite_copy):
    from tuner.errors import InputError

    (suite_copy / "suite.toml").write_text((suite_copy / "suite.toml").read_text()
                                          + '\n[[lint]]\nrule = "no-such-rule"\nlevel = "error"\nreason = "a test of the identity"\n')
    with pytest.raises(InputError, match="no-such-rule"):
        _id(suite_copy)
