"""The exit codes: one table (``tuner.errors.EXIT_CODES``), the one docs/exit-codes.md shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tuner import errors
from tuner.errors import EXIT_CODES, MEANINGS, exit_code

README = Path(__file__).resolve().parents[1] / "docs" / "exit-codes.md"  # linked from the README


def _readme_table() -> dict[int, str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("# Exit codes", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", section, flags=re.M)
    assert rows, "docs/exit-codes.md: no table under '# Exit codes'"
    return {int(code): meaning for code, meaning in rows}


def _plain(meaning: str) -> str:
    """The page's words without markup or asides in parentheses."""
    meaning = re.sub(r"\([^()]*(\([^()]*\)[^()]*)*\)", "", meaning.replace("*", "").replace("`", ""))
    return " ".join(meaning.split())


def test_readme_table_is_the_code_table():
    table = _readme_table()
    assert sorted(table) == sorted(set(EXIT_CODES.values())) == sorted(MEANINGS)
    for code, meaning in table.items():
        assert _plain(meaning).startswith(MEANINGS[code]), (code, meaning)


@pytest.mark.parametrize(
    "exc, code",
    [
        (errors.TunerError("x"), 1),
        (errors.InputError("x"), 2),
        (errors.NotFoundError("x"), 2),
        (errors.ProviderError("x"), 2),
        (errors.ToolchainError("x"), 3),
        (errors.JailAccessError("x"), 3),
        (errors.StoreError("x"), 3),
        (errors.ClusterError("x"), 3),
        (errors.IncompleteError("x"), 4),
        (errors.PlanShown("x"), 0),
        (KeyboardInterrupt(), 130),
        (ValueError("a bug"), 1),
    ],
)
def test_each_error_has_its_code(exc, code):
    assert exit_code(exc) == code


def test_every_named_error_is_in_the_table():
    from tuner.publish import NotAccepted, RegressionRefused

    named = [getattr(errors, n) for n in errors.__all__ if isinstance(getattr(errors, n), type)]
    for cls in named + [NotAccepted, RegressionRefused]:
        assert any(c in EXIT_CODES for c in cls.__mro__[:-2]), cls  # by itself or a named base, not Exception
    assert exit_code(RegressionRefused("x")) == exit_code(NotAccepted("x")) == 1


def test_a_table_missing_a_code_is_caught(monkeypatch):
    monkeypatch.delitem(MEANINGS, 3)  # the mutant: the page's row 3 has no code behind it
    with pytest.raises(AssertionError):
        test_readme_table_is_the_code_table()
