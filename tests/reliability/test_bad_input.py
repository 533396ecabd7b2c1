"""Bad input, as data (tests/fixtures/bad_input/cases.yaml): one line naming the culprit, exit 2,
nothing written anywhere in the project (stores, caches, study storage, reports included)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from reliability_helpers import make_project

CASES = yaml.safe_load((Path(__file__).resolve().parents[1] / "fixtures" / "bad_input" / "cases.yaml").read_text())

# A minimal valid suite, for the cases that break one of its files.
MYSUITE = {
    "mysuite/suite.toml": 'name = "my"\nversion = "1"\nkind = "pytest"\ncategories = ["text"]\n',
    "mysuite/001-text/001-x/TASK.txt": "Write app/x.py with X = 1.\n",
    "mysuite/001-text/001-x/test_grader.py": "from app.x import X\n\n\ndef test_x():\n    assert X == 1\n",
    "mysuite/001-text/001-x/answer/app/x.py": "X = 1\n",
}


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under the project (not following the linked suite), with size and mtime."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            out[str(p.relative_to(root))] = (st.st_size if p.is_file() and not p.is_symlink() else 0, st.st_mtime_ns)
    return out


def test_the_corpus_has_at_least_40_cases_with_unique_ids():
    ids = [c["id"] for c in CASES]
    assert len(ids) >= 40 and len(set(ids)) == len(ids)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_input(case, tmp_path, monkeypatch, cli):
    root = make_project(tmp_path / "proj")
    files = {**(MYSUITE if case.get("suite") else {}), **(case.get("files") or {})}
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(root / "experiments" / "cache"))
    monkeypatch.delenv("TUNER_DB", raising=False)
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-bad-input-test-0000")
    monkeypatch.chdir(root)
    before = _snapshot(root)

    r = cli(*[str(a) for a in case["args"]])

    errors = [line for line in r.stderr.splitlines() if line.startswith("tuner: error:")]
    assert r.exit_code == case.get("exit", 2), (r.exit_code, r.stderr, r.stdout)
    assert len(errors) == 1, r.stderr
    assert case["error"].lower() in errors[0].lower(), errors[0]
    if case.get("absent"):
        assert case["absent"] not in r.stderr + r.stdout
    assert "Traceback" not in r.stderr + r.stdout
    after = _snapshot(root)
    assert sorted(set(after) - set(before)) == [], "files created"
    assert {k: v for k, v in after.items() if before.get(k) != v} == {}, "files changed"
