"""Where a tuner project keeps things.

A project is the folder holding ``guidelines/`` and ``evals/``; found from ``TUNER_HOME`` or by
walking up from the working directory. Everything generated (store, caches) lives under
``experiments/`` and is git-ignored.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tuner.errors import InputError

__all__ = ["Project", "find_project"]


@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def guidelines(self) -> Path:
        return self.root / "guidelines"

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
        return self.root / "evals"

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


def find_project(start: Path | None = None) -> Project:
    env = os.environ.get("TUNER_HOME")
    if env:
        root = Path(env).resolve()
        if not (root / "guidelines").is_dir():
            raise InputError(f"TUNER_HOME={env}: no guidelines/ folder there")
        return Project(root)
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "guidelines").is_dir() and (candidate / "evals").is_dir():
            return Project(candidate)
    raise InputError(f"{here}: not inside a tuner project (no guidelines/ and evals/ above it); set TUNER_HOME")
