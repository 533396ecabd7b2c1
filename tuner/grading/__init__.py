"""What every suite kind's grader shares: result models, the cache, the sandbox, the filesystem
step's path checks and the nonce results channel.

Each kind (``tuner.suites``) builds its pipeline from these; nothing here knows a kind. Grade
through ``tuner.suites.grade``.
"""

from tuner.grading import sandbox
from tuner.grading.cache import cache_key, graded_with_cache
from tuner.grading.filesystem import check_files, read_output_dir, write_files
from tuner.grading.models import GradedEval, GradeRequest, GradeResult, StepOutcome, StepResult, StepStatus
from tuner.grading.output import DETAIL_LINES, nonce_records, step_detail

__all__ = [
    "DETAIL_LINES",
    "GradeRequest",
    "GradeResult",
    "GradedEval",
    "StepOutcome",
    "StepResult",
    "StepStatus",
    "cache_key",
    "check_files",
    "graded_with_cache",
    "nonce_records",
    "read_output_dir",
    "sandbox",
    "step_detail",
    "write_files",
]
