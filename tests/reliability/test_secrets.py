"""With fake keys in the environment, no key reaches the store, caches, reports, published files,
study storage, exports, the viewer's pages or console output: after a run (including a provider
error that echoes the key), a compare, a tune, a publish, exports in every format, a viewer session and
an analysis by an analyst that echoes the key."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from reliability_helpers import SUITE, write_panel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from secrets_scan import Producer, scan_project  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore:Using .httpx. with .starlette.testclient.")]

# Shapes the built-in patterns do not know (no sk- prefix): only the environment says they are keys.
SECRETS = {
    "OPENAI_API_KEY": "fake-openai-Zq8Wm3Kp5Tn1Xy7",
    "ANTHROPIC_API_KEY": "sk-ant-fake-Hb4Ld9Qe2Rv6",
    "GEMINI_API_KEY": "AIzaFakeFakeFakeFakeFake1234567",
    "TUNER_TEST_TOKEN": "plain-token-Wq3Er5Ty7",
}


def _producers(cli, provider) -> list[Producer]:
    def command(*args, ok=(0,)):
        def run(project: Path) -> str:
            r = cli(*args)
            assert r.exit_code in ok, r.output
            return r.stdout + r.stderr

        return run

    def panels(project: Path) -> str:
        write_panel(project, "echo", "openai/echokey", provider.api_base, max_retries=1)
        write_panel(project, "p", "openai/steady", provider.api_base)
        return ""

    return [
        Producer("panels", panels),
        Producer("run echoing the key", command("run", "--panel", "echo", ok=(4,))),
        Producer("run", command("run", "--panel", "p", "--samples", "2")),
        Producer("runs list", command("runs", "list", "--json")),
        Producer(
            "compare",
            command(
                "compare", "--before", "none", "--after", "all-active", "--panel", "p", "--samples", "1", ok=(0, 1)
            ),
        ),
        Producer(
            "tune", command("tune", "--panel", "p", "--category", "text", "--samples", "1", "--budget-calls", "100")
        ),
        Producer("publish", command("publish", "--panel", "p", "--samples", "1", "--force")),
        Producer("label", command("label", "--all", "--ready", "--status", "correct")),
        *[
            Producer(f"export {fmt}", command("export", "--format", fmt, "-o", f"experiments/export.{fmt}"))
            for fmt in ("deepeval", "openai", "text")
        ],
        Producer("viewer", _viewer_pages),
        Producer("analysis", _analysis(cli, provider)),
        Producer("store check", command("store", "check")),
    ]


def _analysis(cli, provider):
    """A simulated run with failures, analysed by an analyst on the local server that echoes the
    key back in its answers (masked before anything is written)."""
    import json

    def run(project: Path) -> str:
        r = cli("run", "--model", "sim/careful", "--guidelines", "none", "--samples", "1", "--json")
        assert r.exit_code == 0, r.output
        run_id = json.loads(r.stdout)[0]["run"]
        a = cli("analyze", run_id, "--analyst", "openai/analyst-echo", "--api-base", provider.api_base)
        assert a.exit_code == 0, a.output
        assert list((project / "reports").glob("*/*/*.md")), "no analysis report was written"
        return r.stdout + a.stdout + a.stderr

    return run


def _viewer_pages(project: Path) -> str:
    """A viewer session: every run's page, its evals' pages, the sessions API, the lists."""
    import warnings

    from fastapi.testclient import TestClient

    from tuner.paths import find_project
    from tuner.store import Store
    from tuner.web import Login, create_app

    store = Store.open(f"sqlite:///{project / 'experiments' / 'tuner.db'}", create=False)
    pages = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with TestClient(
                create_app(store, find_project(), Login("secrets-test-login")), base_url="http://127.0.0.1"
            ) as client:
                assert client.get("/login?token=secrets-test-login", follow_redirects=False).status_code == 303
                paths = ["/", "/runs", "/leaderboard", "/reports"]
                paths += [f"/runs/{run.id}" for run in store.runs()]
                paths += [
                    f"/runs/{run.id}/evals/{r.eval_id}" for run in store.runs()[:3] for r in store.results(run.id)[:2]
                ]
                for path in paths:
                    r = client.get(path)
                    assert r.status_code == 200, (path, r.status_code)
                    pages.append(r.text)
    finally:
        store.close()
    return "\n".join(pages)


def test_no_key_anywhere(cli, py_project, provider, tmp_path, monkeypatch):
    small = tmp_path / "small-suite"
    shutil.copytree(SUITE, small, ignore=shutil.ignore_patterns("003-*", "004-*", "broken"))
    monkeypatch.setenv("TUNER_SUITE", str(small))
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    outputs = {p.name: p.run(py_project) for p in _producers(cli, provider)}

    # The echo really carried the key back: otherwise this test proves nothing about scrubbing.
    assert provider.echoed and all(SECRETS["OPENAI_API_KEY"] in e for e in provider.echoed)
    published = small / "guidelines" / "published"
    found = scan_project(py_project, SECRETS, outputs, extra=[published])
    assert found == [], found
    # ...and the artefacts exist (a scan of nothing passes trivially).
    for produced in (
        "experiments/tuner.db",
        "experiments/cache/responses",
        "reports/compare",
        "reports/tune",
        published / "python_rules" / "manifest.json",
    ):
        assert (py_project / produced).exists(), produced
