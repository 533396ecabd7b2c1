"""In CI (CI=1) a test whose tool is missing fails instead of skipping (tests/conftest.py, tests/citools.py)."""

from __future__ import annotations

import re
from pathlib import Path

import citools

TESTS = Path(__file__).resolve().parent
TOOLS = re.compile(r"\b(node|gcc|bubblewrap|bwrap|Chromium|PostgreSQL|psql)\b")


def test_a_missing_tool_fails_in_ci_only(monkeypatch):
    monkeypatch.setenv("CI", "1")
    assert citools.fails_in_ci("node is not installed")
    assert citools.fails_in_ci("no system Chromium (apt-get install chromium)")
    assert not citools.fails_in_ci("the package index is unreachable, cannot install x")
    monkeypatch.delenv("CI")
    assert not citools.fails_in_ci("node is not installed")


def test_every_skip_for_a_tool_is_one_ci_fails():
    """A skip reason naming a tool must match ``TOOL_MISSING``, or CI would skip it silently."""
    reasons = []
    for path in TESTS.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found = re.findall(r"""(?:pytest\.skip\(f?|reason=)(?:"([^"]+)"|'([^']+)')""", text)
        reasons += [a or b for a, b in found]
    tools = [r for r in reasons if TOOLS.search(r) and "root" not in r]  # not root: a skip CI may keep
    assert len(tools) >= 5, tools  # the scan saw them (node, gcc, bubblewrap, Chromium, PostgreSQL)
    assert all(citools.TOOL_MISSING.search(r) for r in tools), [r for r in tools if not citools.TOOL_MISSING.search(r)]
