"""Eval suites on disk: tasks, reference answers and graders (``evals/`` or any ``--suite`` folder)."""

from tuner.evals.manifest import LintOverride, Manifest, Split
from tuner.evals.suite import Eval, EvalConfig, Suite, category_of, load_eval, load_suite

__all__ = ["Eval", "EvalConfig", "Suite", "Manifest", "Split", "LintOverride", "load_suite", "load_eval", "category_of"]
