from __future__ import annotations

import os
from pathlib import Path

import frontmatter
import pytest
from fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def fake_server():
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    # A fake key for the local server; caches and sim overrides never leak between tests.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-000")
    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TUNER_HOME", str(ROOT))
    for var in ("TUNER_SIM_FILE", "TUNER_SIM_LATENCY_MS", "TUNER_SIM_VARIETY"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="session")
def rules() -> dict[str, str]:
    """{rule id: body} of the project's rules, plus {id@variant: text} for phrasing variants."""
    out = {}
    for path in sorted((ROOT / "guidelines" / "rules").rglob("*.md")):
        post = frontmatter.load(path)
        out[post["id"]] = post.content
        for name, text in (post.get("variants") or {}).items():
            out[f"{post['id']}@{name}"] = text
    return out


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def suite_root() -> Path:
    """The Convex suite folder: where the simulator's evals and planted truth live."""
    return ROOT / "evals"


os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
