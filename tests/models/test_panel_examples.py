"""Every example in the shipped panel file runs when uncommented (against the local test server),
and credentials are refused by exact name, not by substring."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tuner.errors import InputError
from tuner.models import ModelSpec

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow]


def _examples() -> list[str]:
    """The commented ``[[models]]`` blocks of experiments/panel.toml, uncommented."""
    text = (ROOT / "experiments" / "panel.toml").read_text()
    lines = [line[2:] if line.startswith("# ") else line[1:] for line in text.splitlines() if line.startswith("#")]
    blocks, current = [], None
    for line in lines:
        if line.strip() == "[[models]]":
            current = [line]
            blocks.append(current)
        elif current is not None and re.match(r"^\w+\s*=", line):
            current.append(line)
        else:
            current = None
    return ["\n".join(b) + "\n" for b in blocks]


def test_the_panel_file_ships_examples_for_real_providers():
    examples = _examples()
    assert len(examples) >= 3
    assert any("max_tokens" in e for e in examples) and any("max_completion_tokens" in e for e in examples)


@pytest.mark.parametrize("index", range(3))
def test_each_example_runs_against_the_local_server(index, fake_server, tmp_path, monkeypatch, cli):
    example = _examples()[index]
    model = re.search(r'model = "([^"]+)"', example).group(1)
    base = fake_server.api_base.removesuffix("/v1") if model.startswith("anthropic/") else fake_server.api_base
    example = re.sub(r'api_base = "[^"]*"\n', "", example) + f'api_base = "{base}"\nmax_retries = 0\n'
    root = tmp_path / "proj"
    shutil.copytree(ROOT / "guidelines", root / "guidelines")
    (root / "evals").symlink_to(ROOT / "evals", target_is_directory=True)
    (root / "experiments").mkdir()
    (root / "experiments" / "example.toml").write_text(example)
    monkeypatch.setenv("TUNER_HOME", str(root))
    monkeypatch.setenv("TUNER_DB", f"sqlite:///{root / 'experiments' / 'tuner.db'}")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-000000")
    monkeypatch.chdir(root)
    r = cli("run", "--panel", "example", "--category", "clients", "--json")
    assert r.exit_code == 0, r.output
    [out] = json.loads(r.stdout)
    assert out["status"] == "complete" and out["categories"]["clients"]["infra"] == 0
    name = model.split("/", 1)[1]
    body = fake_server.bodies[name][-1]
    sent = {k: body.get(k) for k in ("max_tokens", "max_completion_tokens") if k in body}
    assert sent, f"the token limit reached the provider: {body.keys()}"


@pytest.mark.parametrize("key", ["max_tokens", "max_completion_tokens", "top_k", "tokenizer", "keywords"])
def test_parameters_that_merely_contain_key_or_token_are_accepted(key):
    assert ModelSpec(model="openai/x", params={key: 1}).params == {key: 1}


@pytest.mark.parametrize("key", ["api_key", "API_KEY", "token", "secret", "password", "aws_secret_access_key"])
def test_credentials_are_refused_by_name(key):
    with pytest.raises(InputError, match=key):
        ModelSpec(model="openai/x", params={key: "s"})
