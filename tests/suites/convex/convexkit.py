"""What the Convex grader tests import besides fixtures (a module of its own: every test folder's
``conftest`` is called ``conftest``, so importing from one depends on which was loaded last)."""

from __future__ import annotations

from pathlib import Path

import kindkit

__all__ = ["ROOT", "BROKEN", "broken_cases"]

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "tests" / "fixtures" / "broken"


def broken_cases() -> list[Path]:
    """The Convex suite's broken corpus (kept with the test fixtures, not in evals/)."""
    return kindkit.broken_cases(BROKEN)
