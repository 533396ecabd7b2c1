"""Helpers for the reliability tests: projects on the small Python suite, and the local
OpenAI-compatible server answering its tasks (reference answers for some requests, a failing answer for the others), so runs against a
"real" provider grade quickly and score something other than zero."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "suites" / "python"
sys.path.insert(0, str(REPO / "tests" / "models"))
sys.path.insert(0, str(REPO / "tests"))

from fake_openai import FakeOpenAI, default_answer  # noqa: E402, F401 - FakeOpenAI: re-exported to the tests


def reference_answers() -> dict[str, str]:
    """{task text: the reference answer in the answer format} for every eval of the suite."""
    from tuner.models.messages import render_files

    out = {}
    for task in sorted(SUITE.glob("*/*/TASK.txt")):
        answer = task.parent / "answer"
        files = {str(p.relative_to(answer)): p.read_text() for p in sorted(answer.rglob("*.py"))}
        out[task.read_text().strip()] = render_files(files)
    return out


def suite_answer_for(references: dict[str, str]):
    """The server's answer: the reference for about half of the requests, else a failing file."""

    def answer(request: dict) -> str:
        user = next((m["content"] for m in request.get("messages", []) if m.get("role") == "user"), "")
        digest = hashlib.sha256(json.dumps(request.get("messages"), sort_keys=True).encode()).digest()
        for task, reference in references.items():
            if user.startswith(task) and digest[0] % 2 == 0:
                return reference
        return default_answer(request)

    return answer


def make_project(root: Path) -> Path:
    """A project (guidelines copied, evals linked) at ``root``, with an empty experiments/."""
    shutil.copytree(REPO / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(REPO / "evals", target_is_directory=True)
    (root / "experiments").mkdir()
    return root


def write_panel(project: Path, name: str, model: str, api_base: str, **settings) -> Path:
    values = {"max_retries": 8, "backoff_s": 0.01, "timeout_s": 2, "concurrency": 4, **settings}
    lines = ["[[models]]", f'model = "{model}"', f'api_base = "{api_base}"']
    lines += [f"{k} = {json.dumps(v)}" for k, v in values.items()]
    path = project / "experiments" / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def env_for(project: Path) -> dict[str, str]:
    """The environment a `tuner` subprocess of this project gets."""
    env = dict(os.environ)
    env.update(
        TUNER_HOME=str(project),
        TUNER_SUITE=str(SUITE),
        TUNER_CACHE_DIR=str(project / "experiments" / "cache"),
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        OPENAI_API_KEY="sk-test-local-000000",
    )
    env.pop("TUNER_DB", None)
    return env
