from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from tuner.cli.models import register
from tuner.errors import NotFoundError, ProviderError


@pytest.fixture
def run():
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        pass

    def invoke(*args):
        return CliRunner().invoke(app, list(args))

    return invoke


def test_list_json(run):
    result = run("models", "list", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["model"] for r in rows] == ["sim/careful", "sim/overeager", "sim/expert"]
    assert all(r["key"].startswith("sha256:") and r["simulated"] for r in rows)


def test_list_table(run):
    result = run("models", "list")
    assert result.exit_code == 0 and "sim/careful" in result.output


def test_ping_sim(run):
    result = run("models", "ping", "sim/expert")
    assert result.exit_code == 0, result.output
    assert "ok in" in result.output and "cost unknown" in result.output


def test_ping_local_server(run, fake_server):
    result = run("models", "ping", "openai/normal", "--api-base", fake_server.api_base)
    assert result.exit_code == 0 and "tokens 11 in / 7 out" in result.output


def test_ping_errors_are_tuner_errors(run, fake_server):
    result = run("models", "ping", "openai/auth", "--api-base", fake_server.api_base)
    assert isinstance(result.exception, ProviderError) and "authentication failed" in str(result.exception)
    assert isinstance(run("models", "ping", "sim/nobody").exception, ProviderError)
    assert isinstance(run("models", "ping", "sim/careful", "--panel", "nope").exception, NotFoundError)
