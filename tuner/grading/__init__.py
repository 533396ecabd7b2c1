"""Grading a model's output against a Convex eval: filesystem → codegen → bundle → tsc → eslint → tests.

Batched (one tool run over many outputs), cached (diskcache, keyed by content hashes) and
sandboxed (a bubblewrap jail per tool run: no network, read-only filesystem, unprivileged user,
own pid namespace; scrubbed environment, timeouts, limits; see ``sandbox``). See
``pipeline.grade_convex``. ``grade`` is the kind-agnostic entry point (``tuner.suites.grade``),
re-exported here for convenience.
"""

from tuner.grading.cache import cache_key
from tuner.grading.filesystem import read_output_dir
from tuner.grading.identity import grader_id
from tuner.grading.models import STEP_NAMES, GradeRequest, GradeResult, StepResult, StepStatus
from tuner.grading.pipeline import DEFAULT_TIMEOUT_S
from tuner.grading.toolchain import Toolchain, ensure_toolchain
from tuner.suites import grade

__all__ = [
    "grade",
    "GradeRequest",
    "GradeResult",
    "StepResult",
    "StepStatus",
    "STEP_NAMES",
    "grader_id",
    "DEFAULT_TIMEOUT_S",
    "cache_key",
    "ensure_toolchain",
    "read_output_dir",
    "Toolchain",
]
