"""The harness: one project's guidelines, suite, store and caches, opened lazily."""

from __future__ import annotations

import subprocess
from functools import cached_property

from tuner.paths import Project, find_project

__all__ = ["Harness"]


class Harness:
    """What every command that runs models needs, each part loaded on first use."""

    def __init__(
        self,
        project: Project | None = None,
        db: str | None = None,
        use_cache: bool = True,
        create: bool = True,
        cluster: str | None = None,
        turns: int = 1,
    ):
        self.project = project or find_project()
        # A scheduler's address (``--cluster`` / ``TUNER_CLUSTER``): calls and grading go to its
        # workers (``tuner.runs.cluster``); None: this machine does both.
        self.cluster_address = cluster
        self.db_url = self.project.db_url(db)
        self.use_cache = use_cache
        # Read-only commands pass create=False: a store that does not exist is an error, not a new file.
        self.create = create
        # The repair loop (``tuner.runs.repair``): up to this many answers per sample, each failed
        # grade shown to the model before the next. Part of every run's identity when above 1.
        if turns < 1:
            from tuner.errors import InputError

            raise InputError(f"--turns {turns}: must be at least 1")
        self.turns = turns
        # One cap over the whole command (tuner.runs.plan.Budget), asked before every provider call.
        self.budget = None
        # Called once with the first batch of run configurations, before any call (prints the plan).
        self.plan_hook = None

    @cached_property
    def guidelines(self):
        from tuner.guidelines import load_guidelines

        return load_guidelines(self.project, categories=self.suite.categories)

    @cached_property
    def suite(self):
        from tuner.evals import load_suite

        return load_suite(self.project)

    @cached_property
    def store(self):
        from tuner.store import Store

        return Store.open(self.db_url, create=self.create)

    def existing_store(self):
        """The store without creating it (a read): ``NotFoundError`` if nothing was recorded yet."""
        if "store" not in self.__dict__:
            from tuner.store import Store

            self.__dict__["store"] = Store.open(self.db_url, create=False)
        return self.store

    @cached_property
    def cluster(self):
        """The connected cluster, or None when this machine does the work."""
        if not self.cluster_address:
            return None
        from tuner.runs.cluster import Cluster

        return Cluster(self.cluster_address, self.project)

    @cached_property
    def response_cache(self):
        if not self.use_cache:
            return None
        from tuner.models import ResponseCache

        return ResponseCache.for_project(self.project)

    @cached_property
    def grader_hash(self) -> str:
        """Identity of the grading: a hash of everything outside the evals that can change a verdict."""
        return self.suite.grader_id

    @cached_property
    def git_rev(self) -> str | None:
        try:
            out = subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=self.project.root, capture_output=True, text=True, timeout=5
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return out.stdout.strip() or None if out.returncode == 0 else None

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if "store" in self.__dict__:
            self.store.close()
        if self.__dict__.get("response_cache") is not None:
            self.response_cache.close()
        if self.__dict__.get("cluster") is not None:
            self.cluster.close()
