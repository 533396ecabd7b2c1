"""Grading a model's output against an eval: filesystem → codegen → bundle → tsc → eslint → tests.

Batched (one tool run over many outputs), cached (diskcache, keyed by content hashes) and
sandboxed (scrubbed environment, temp dirs, timeouts). See ``pipeline.grade``.
"""

from tuner.grading.cache import PIPELINE_VERSION, cache_key
from tuner.grading.filesystem import read_output_dir
from tuner.grading.models import STEP_NAMES, GradeRequest, GradeResult, StepResult, StepStatus
from tuner.grading.pipeline import DEFAULT_TIMEOUT_S, grade
from tuner.grading.toolchain import Toolchain, ensure_toolchain

__all__ = [
    "grade",
    "GradeRequest",
    "GradeResult",
    "StepResult",
    "StepStatus",
    "STEP_NAMES",
    "PIPELINE_VERSION",
    "DEFAULT_TIMEOUT_S",
    "cache_key",
    "ensure_toolchain",
    "read_output_dir",
    "Toolchain",
]
