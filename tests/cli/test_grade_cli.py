"""`tuner grade DIR --eval ID` grades with the suite's own kind (answer roots, grader file, steps),
not only Convex suites."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / "suites" / "python"


def invoke(*args: str):
    from typer.testing import CliRunner

    from tuner.cli.main import app

    return CliRunner().invoke(app, list(args))


@pytest.fixture
def python_suite(monkeypatch, tmp_path):
    monkeypatch.setenv("TUNER_HOME", str(REPO))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TUNER_SUITE", raising=False)


def test_grade_a_pytest_suite_answer_by_id_and_by_folder(python_suite):
    answer = PYTHON / "001-text" / "001-slugify" / "answer"
    for ref in ("001-text/001-slugify", str(PYTHON / "001-text" / "001-slugify")):
        r = invoke("grade", str(answer), "--eval", ref, "--suite", str(PYTHON), "--json")
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        assert data["passed"] and data["eval_id"] == "001-text/001-slugify"
        assert [s["name"] for s in data["steps"]] == ["filesystem", "syntax", "tests"]
        assert data["tests_total"] and data["tests_passed"] == data["tests_total"]


def test_grade_a_broken_pytest_answer_fails_in_its_tests(python_suite):
    r = invoke(
        "grade",
        str(PYTHON / "broken" / "001-text" / "slugify-no-strip"),
        "--eval",
        "001-text/001-slugify",
        "--suite",
        str(PYTHON),
        "--json",
    )
    assert r.exit_code == 1, r.output
    data = json.loads(r.stdout)
    assert not data["passed"] and not data["infra_error"]
    assert [s["status"] for s in data["steps"]] == ["pass", "pass", "fail"]  # its tests catch it
