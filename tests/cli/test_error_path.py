"""Whatever escapes a command reaches the person through the one scrubber: a provider library's
error as one line (exit 4), anything else as a traceback with every key masked (exit 1)."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

KEY = "plain-looking-Qw3Er5Ty7Ui9"


def _app(exc: Exception) -> typer.Typer:
    from tuner.cli.main import _Group

    app = typer.Typer(cls=_Group, add_completion=False)

    @app.command()
    def boom() -> None:
        raise exc

    @app.command()
    def other() -> None:
        pass

    return app


def _provider_error(message: str) -> Exception:
    cls = type("APIError", (Exception,), {"__module__": "litellm.exceptions"})
    return cls(message)


def test_a_provider_library_error_is_one_scrubbed_line(monkeypatch):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", KEY)
    r = CliRunner().invoke(_app(_provider_error(f"upstream 500 for key {KEY} and sk-live-abcdefgh12345")), ["boom"])
    assert r.exit_code == 4
    assert KEY not in r.output and "abcdefgh12345" not in r.output and "Traceback" not in r.output
    assert r.stderr.count("\n") == 1 and "the model provider failed" in r.stderr


def test_a_bug_shows_its_traceback_with_keys_masked(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_CREDENTIALS", KEY)
    r = CliRunner().invoke(_app(ValueError(f"bad value {KEY}")), ["boom"])
    assert r.exit_code == 1
    assert "Traceback" in r.stderr and "ValueError" in r.stderr and KEY not in r.output
    assert r.stderr.rstrip().splitlines()[-1].startswith("tuner: internal error")


def test_click_usage_errors_keep_their_own_path():
    r = CliRunner().invoke(_app(ValueError("x")), ["other", "--nope"])
    assert r.exit_code == 2 and "No such option" in r.stderr and "internal error" not in r.stderr


def test_a_usage_error_does_not_echo_a_key_given_as_a_value(monkeypatch):
    from tuner.cli.main import app

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    r = CliRunner().invoke(app, ["runs", "show", "abc", KEY])  # pasted into the wrong place
    assert r.exit_code == 2 and "unexpected extra argument" in r.stderr and KEY not in r.output
