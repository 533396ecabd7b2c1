"""Shared fixtures: a throw-away copy of the project, a CLI runner, and store URLs per backend."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
from citools import fails_in_ci  # tests/ is on sys.path: this file's folder

# Session-wide stores recorded by real runs, used by tests/sessions and tests/web: registered here, once,
# so both folders share one recording (a fixture registered by each folder's conftest would run twice).
from recorded import flows, recorded  # noqa: F401  (fixtures)

import tuner  # noqa: F401  (before any test module loads numpy: its one-BLAS-thread default applies)

REPO = Path(__file__).resolve().parents[1]
PG_URL = os.environ.get("TUNER_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


# Two workers take whole files (``--dist loadfile``) in collection order, each the next when it is
# free: the longest files go first, so what is handed out last is short and no worker idles at the
# end waiting for the other's long file (the CI of 2026-11-27 spent its last 8 minutes so).
_LONG_FIRST = (
    "tests/models/sim/test_gaps_fail_grading.py",
    "tests/compare/test_compare_honesty.py",
    "tests/runs/test_cluster.py",
    "tests/suites/convex/test_pipeline.py",
    "tests/suites/convex/test_hostile.py",
    "tests/reliability/test_kill_resume.py",
    "tests/publish/test_publish_cli.py",
    "tests/stats/test_calibration_continuation.py",
    "tests/stats/test_calibration_mde.py",
    "tests/stats/test_calibration_engine.py",
    "tests/stats/test_calibration_tune_continuation.py",
    "tests/stats/test_calibration_mde_screen.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(_LONG_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.fspath)).relative_to(REPO).as_posix(), len(rank)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and isinstance(report.longrepr, tuple) and fails_in_ci(str(report.longrepr[2])):
        report.outcome = "failed"
        report.longrepr = f"{report.longrepr[2]}: CI=1 fails a test whose tool is missing instead of skipping it"


@pytest.fixture(autouse=True)
def _suite_choice_ends_with_the_test():
    """``--suite`` sets TUNER_SUITE for the rest of the process (a CLI process ends with its
    command); in-process CLI tests must not hand their suite to the next test."""
    before = os.environ.get("TUNER_SUITE")
    yield
    if before is None:
        os.environ.pop("TUNER_SUITE", None)
    else:
        os.environ["TUNER_SUITE"] = before


@pytest.fixture
def project_dir(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the repo's guidelines (and an empty evals/) that a test may edit freely."""
    root = tmp_path / "proj"
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").mkdir()
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.delenv("TUNER_DB", raising=False)
    return root


@pytest.fixture
def cli():
    from typer.testing import CliRunner

    from tuner.cli.main import app

    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, list(args))

    return invoke


def _pg_available() -> bool:
    try:
        import sqlalchemy

        engine = sqlalchemy.create_engine(PG_URL)
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture
def pg_url():
    """A URL to a fresh PostgreSQL schema on the local server, dropped afterwards."""
    if not _pg_available():
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not answering at {PG_URL}")
        pytest.skip("PostgreSQL not available")
    import sqlalchemy

    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """One URL per backend (the store contract runs against each)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def server():
    """A fresh local OpenAI-compatible server (tests/models/fake_openai.py) for one test."""
    import sys

    sys.path.insert(0, str(REPO / "tests" / "models"))
    from fake_openai import FakeOpenAI

    s = FakeOpenAI().start()
    yield s
    s.stop()


def _run_folder(tmp_path_factory) -> Path:
    """A folder of the whole test run: with pytest-xdist each worker's base temp folder sits in the
    controller's, so their parent is shared by every worker; without it, the base temp folder."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def shared_grading(tmp_path_factory):
    """``shared_grading(cache_dir) -> cache_dir``: a cache folder whose grading cache is the test
    run's, shared by every test that uses it and every xdist worker. A grade is a pure function of
    its key (the files, the eval's grader and the grader's identity: tuner/grading/cache.py), so
    sharing changes time, not results; diskcache is safe across processes. Response caches stay
    per use: some tests count the calls they make. Tests of grading itself keep a private cache.

    ``TUNER_TEST_GRADING_CACHE`` names a folder that outlives the run (like ``TUNER_TEST_VENVS``): a
    later run on the machine then grades only what changed (the key holds the grader's identity)."""
    kept = os.environ.get("TUNER_TEST_GRADING_CACHE")
    grading = Path(kept) if kept else _run_folder(tmp_path_factory) / "grading-cache"
    grading.mkdir(parents=True, exist_ok=True)

    def link(cache_dir: Path) -> Path:
        cache_dir.mkdir(parents=True, exist_ok=True)
        if not (cache_dir / "grading").exists():
            (cache_dir / "grading").symlink_to(grading, target_is_directory=True)
        return cache_dir

    return link


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory, shared_grading) -> Path:
    """Response and grading caches shared by the tests that run the simulator end to end."""
    return shared_grading(tmp_path_factory.mktemp("tuner-cache"))


@pytest.fixture(scope="session")
def compare_cache(tmp_path_factory, shared_grading) -> Path:
    """The compare tests' cache (tests/compare, tests/cli): their responses shared among them (the
    same compares recur: a replay must cost nothing), grading shared with the whole run."""
    return shared_grading(tmp_path_factory.mktemp("compare-cache"))


@pytest.fixture
def live_project(tmp_path: Path, monkeypatch, shared_cache) -> Path:
    """A project a test may edit (guidelines copied) that grades with the real suite (evals linked)."""
    root = tmp_path / "live"
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(REPO / "evals", target_is_directory=True)
    (root / "experiments").mkdir()
    shutil.copy(REPO / "experiments" / "panel.toml", root / "experiments" / "panel.toml")
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_cache))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def py_suite(tmp_path: Path, monkeypatch, shared_cache) -> Path:
    """An editable copy of the Python suite (suites/python) as the project's suite, with its own store.

    Grading and responses share the session cache: everything that decides an answer or a verdict is
    in their keys, so sharing changes time, not results."""
    root = tmp_path / "proj"
    shutil.copytree(REPO / "suites" / "python", root / "suites" / "python")
    for d in ("guidelines", "evals", "experiments"):
        (root / d).mkdir()
    suite = root / "suites" / "python"
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_cache))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.setenv("TUNER_SUITE", str(suite))
    monkeypatch.chdir(root)
    return suite


@pytest.fixture
def py_project(tmp_path: Path, monkeypatch, shared_cache) -> Path:
    """The repo's guidelines and evals beside a private copy of suites/python (at ``py/``) as the suite,
    with a fake analyst key: a test may delete a rule (analysis and proposals tests)."""
    root = tmp_path / "proj"
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(REPO / "evals", target_is_directory=True)
    (root / "experiments").mkdir()
    shutil.copytree(REPO / "suites" / "python", root / "py", ignore=shutil.ignore_patterns("__pycache__", "broken"))
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # nothing may be written there (DSPy's default cache is ~/.dspy_cache)
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_SUITE", str(root / "py"))
    monkeypatch.setenv("TUNER_CACHE_DIR", str(shared_cache))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-analyst-key-0000")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def sim_run(cli):
    """Run a rule set on sim/careful; returns the run id."""

    def run(*args: str) -> str:
        r = cli("run", "--model", "sim/careful", *args, "--json")
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)[0]["run"]

    return run
