"""The eval suite: tasks, reference answers and graders under ``evals/``."""

from tuner.evals.manifest import STEP_NAMES, Manifest
from tuner.evals.suite import Eval, Suite, category_of, load_eval, load_suite

__all__ = ["Eval", "Suite", "Manifest", "STEP_NAMES", "load_suite", "load_eval", "category_of"]
