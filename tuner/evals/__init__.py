"""Eval suites on disk: tasks, reference answers and graders (``evals/`` or any ``--suite`` folder)."""

from tuner.evals.manifest import Manifest, Split
from tuner.evals.suite import Eval, Suite, category_of, load_eval, load_suite, suite_categories

__all__ = ["Eval", "Suite", "Manifest", "Split", "load_suite", "load_eval", "category_of", "suite_categories"]
