"""A recorded store shared by the session, export, API and viewer tests (tests/sessions, tests/web).

Built once per test session by a real, small, offline run: `tuner compare` of the `none` and
`all-active` rule sets with two simulated models on the Python suite (8 evals, 1 sample): 32
recorded generations in 4 runs, a compare report with its chart, and an experiment row. Tests that
change labels work on a copy of the database (``store_url``).

The session-wide fixtures (``recorded``, ``flows``) are registered once, by tests/conftest.py; the
per-test ones by the conftest of each folder that uses them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[1]


def _project(root: Path) -> Path:
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(REPO / "evals", target_is_directory=True)
    (root / "suites").symlink_to(REPO / "suites", target_is_directory=True)
    (root / "experiments").mkdir()
    shutil.copy(REPO / "experiments" / "panel.toml", root / "experiments" / "panel.toml")
    return root


@pytest.fixture(scope="session")
def recorded(tmp_path_factory, shared_cache) -> SimpleNamespace:
    root = _project(tmp_path_factory.mktemp("recorded") / "proj")
    db = root / "experiments" / "tuner.db"
    env = {**os.environ, "TUNER_HOME": str(root), "TUNER_CACHE_DIR": str(shared_cache), "TUNER_DB": f"sqlite:///{db}"}
    env.pop("TUNER_SUITE", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tuner.cli.main",
            "compare",
            "--suite",
            str(REPO / "suites" / "python"),
            "--before",
            "none",
            "--after",
            "all-active",
            "--model",
            "sim/careful",
            "--model",
            "sim/overeager",
            "--samples",
            "1",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    # The simulator is deterministic: adding the rules flips 4 evals fail→pass and none pass→fail,
    # so compare finds no significant regression and exits 0 (anything else is a broken fixture).
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "no significant regression" in done.stdout, done.stdout[-2000:]
    from tuner.store import Store

    store = Store.open(f"sqlite:///{db}")
    runs = store.runs()
    results = [r for run in runs for r in store.results(run.id)]
    store.close()
    assert len(results) == 32 and not [r for r in results if r.outcome == "infra"], results
    reports = sorted((root / "reports" / "compare").glob("*.md"))
    assert len(runs) == 4 and reports, (runs, reports)
    return SimpleNamespace(root=root, db=db, runs=runs, report=reports[0])


@pytest.fixture
def store_url(recorded, tmp_path) -> str:
    """A private copy of the recorded store (labels and keys written here stay in this test)."""
    copy = tmp_path / "tuner.db"
    shutil.copy(recorded.db, copy)
    return f"sqlite:///{copy}"


@pytest.fixture
def env(recorded, store_url, monkeypatch, shared_cache) -> SimpleNamespace:
    """The recorded project as the current project, over a private copy of its store."""
    monkeypatch.setenv("TUNER_HOME", str(recorded.root))
    monkeypatch.setenv("TUNER_DB", store_url)
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_cache))
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    monkeypatch.chdir(recorded.root)
    return SimpleNamespace(root=recorded.root, url=store_url, runs=recorded.runs, report=recorded.report)


@pytest.fixture
def store(env):
    from tuner.store import Store

    s = Store.open(env.url)
    yield s
    s.close()


@pytest.fixture
def viewer(env, store):
    """The viewer app on the test's store, logged in (FastAPI's test client)."""
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.web import Login, create_app

    with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        yield c


# --- the documented flows, recorded once (issue 33: the pages that answer "ship it?" and "which rules help?") ---

FLOW_COMMANDS = [
    # A plain run, then a compare whose "after" side is that same run (same prompt, evals, samples).
    ("run", ["run", "--guidelines", "all-active", "--samples", "1"]),
    ("compare", ["compare", "--before", "none", "--after", "all-active", "--samples", "1"]),
    ("ablate", ["ablate", "--category", "data", "--budget-calls", "300"]),
    ("tune", ["tune", "--category", "data", "--budget-calls", "300"]),
]


@pytest.fixture(scope="session")
def flows(tmp_path_factory, shared_grading) -> SimpleNamespace:
    """`run`, `compare`, `ablate`, `tune` and `analyze` on the Python suite, as a user types them (in
    this process: the imports are paid once), with what each printed as spent. Answers are bought
    afresh (a private response cache: the spent lines count real calls); grades come from the
    run's grading cache (the same either way)."""
    import json
    import re

    from sessionkit import invoke

    root = _project(tmp_path_factory.mktemp("flows") / "proj")
    cache = shared_grading(tmp_path_factory.mktemp("flows-cache"))
    db = root / "experiments" / "tuner.db"
    env = {
        "TUNER_HOME": str(root),
        "TUNER_CACHE_DIR": str(cache),
        "TUNER_DB": f"sqlite:///{db}",
        "TUNER_SUITE": str(root / "suites" / "python"),
        "COLUMNS": "80",
    }
    out, spent = {}, {}
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        mp.chdir(root)

        def tuner(*args: str) -> str:
            r = invoke(*args)
            assert r.exit_code == 0, (args, r.output[-3000:])
            return r.stdout

        for name, args in FLOW_COMMANDS:
            out[name] = tuner(*args)
            # The last line, however the terminal's width wrapped it.
            m = re.search(
                r"spent: ([\d,]+) provider calls?\b.*?([\d,]+) tokens in, ([\d,]+) out, cost (\S+)$",
                " ".join(out[name].split()),
            )
            assert m, out[name][-1500:]
            spent[name] = {
                "calls": int(m.group(1).replace(",", "")),
                "tokens": int(m.group(2).replace(",", "")) + int(m.group(3).replace(",", "")),
                "cost": m.group(4),
            }
        [run] = [r for r in json.loads(tuner("runs", "list", "--json")) if r["set"] == "all-active"]
        out["analyze"] = tuner("analyze", run["id"])
    return SimpleNamespace(root=root, db=db, url=f"sqlite:///{db}", out=out, spent=spent, run=run["id"], env=env)


@pytest.fixture
def flows_viewer(flows, monkeypatch):
    """The viewer over the flows' store (read only: no test here writes labels)."""
    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.store import Store
    from tuner.web import Login, create_app

    monkeypatch.setenv("TUNER_HOME", str(flows.root))
    monkeypatch.delenv("TUNER_SUITE", raising=False)
    monkeypatch.chdir(flows.root)
    store = Store.open(flows.url)
    with TestClient(create_app(store, find_project(), Login("t")), base_url="http://127.0.0.1") as c:
        assert c.get("/login?token=t", follow_redirects=False).status_code == 303
        yield c
    store.close()
