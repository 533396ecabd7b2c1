"""Where a tuner project keeps things.

A project is the folder holding ``guidelines/`` and ``evals/``; found from ``TUNER_HOME`` or by
walking up from the working directory. Everything generated (store, caches) lives under
``experiments/`` and is git-ignored.

The suite a project runs is ``evals/`` unless another is chosen (``--suite PATH`` or
``TUNER_SUITE``): any folder with a ``suite.toml``. A suite may bring its own guidelines folder
(``guidelines = "..."`` in its manifest); the store and caches stay the project's.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tuner.errors import InputError

__all__ = ["Project", "find_project"]


@dataclass(frozen=True)
class Project:
    root: Path
    # The chosen suite folder; None means the project's own evals/.
    suite_path: Path | None = None

    @property
    def suite_root(self) -> Path:
        return self.suite_path or self.root / "evals"

    @cached_property  # read once: every guidelines path below derives from it
    def guidelines(self) -> Path:
        own = _suite_guidelines(self.suite_root)
        return own if own is not None else self.root / "guidelines"

    @property
    def rules_dir(self) -> Path:
        return self.guidelines / "rules"

    @property
    def sets_dir(self) -> Path:
        return self.guidelines / "sets"

    @property
    def templates_dir(self) -> Path:
        return self.guidelines / "templates"

    @property
    def published_dir(self) -> Path:
        return self.guidelines / "published"

    @property
    def evals(self) -> Path:
        return self.suite_root

    @property
    def experiments(self) -> Path:
        return self.root / "experiments"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def cache_dir(self) -> Path:
        return Path(os.environ.get("TUNER_CACHE_DIR") or self.experiments / "cache")

    @property
    def default_db_url(self) -> str:
        return f"sqlite:///{self.experiments / 'tuner.db'}"

    def db_url(self, override: str | None = None) -> str:
        return override or os.environ.get("TUNER_DB") or self.default_db_url


def _suite_guidelines(suite_root: Path) -> Path | None:
    """The suite's own guidelines folder, if its manifest names one (validated by load_suite)."""
    try:
        data = tomllib.loads((suite_root / "suite.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    folder = data.get("guidelines")
    return suite_root / folder if isinstance(folder, str) and folder else None


def _suite_path(suite: str | Path | None) -> Path | None:
    chosen = suite or os.environ.get("TUNER_SUITE") or None
    if chosen is None:
        return None
    path = Path(chosen).expanduser().resolve()
    if not (path / "suite.toml").is_file():
        raise InputError(f"--suite {chosen}: no suite.toml in that folder")
    return path


def find_project(start: Path | None = None, suite: str | Path | None = None) -> Project:
    """The project around ``start`` (or TUNER_HOME), running ``suite`` (else TUNER_SUITE, else evals/)."""
    suite_path = _suite_path(suite)
    env = os.environ.get("TUNER_HOME")
    if env:
        root = Path(env).resolve()
        if not (root / "guidelines").is_dir():
            raise InputError(f"TUNER_HOME={env}: no guidelines/ folder there")
        return Project(root, suite_path)
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "guidelines").is_dir() and (candidate / "evals").is_dir():
            return Project(candidate, suite_path)
    raise InputError(f"{here}: not inside a tuner project (no guidelines/ and evals/ above it); set TUNER_HOME")
