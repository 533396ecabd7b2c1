"""The Convex suite kind: answers under ``convex/`` and ``src/``, graded by ``tuner.grading``
(filesystem → codegen → bundle → tsc → eslint → tests with vitest + convex-test)."""

from __future__ import annotations

from pathlib import Path

from tuner.grading.models import STEP_NAMES
from tuner.models.messages import answer_format

__all__ = ["ConvexKind", "OUTPUT_FORMAT"]

OUTPUT_FORMAT = answer_format("convex/schema.ts")


class ConvexKind:
    name = "convex"
    steps = STEP_NAMES
    grader_file = "grader.test.ts"
    answer_roots = ("convex", "src")
    answer_extensions = ("ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "json")
    published_name = "convex_rules"
    file_globs = "convex/**/*.ts,convex/**/*.tsx,src/**/*.ts,src/**/*.tsx"

    def output_format(self) -> str:
        return OUTPUT_FORMAT

    def grader_id(self, suite) -> str:
        from tuner.grading.identity import grader_id
        from tuner.grading.sandbox import check_reachable

        # Asked before anything is generated or graded: a toolchain the jail cannot reach is
        # refused with the reason, not recorded as every answer's infrastructure error.
        check_reachable([suite.toolchain_dir], "the grader toolchain")
        return grader_id(suite)

    def grade(self, suite, requests, *, cache_dir: Path, use_cache: bool = True, progress=None, timeout_s: float | None = None):
        from tuner.grading.pipeline import DEFAULT_TIMEOUT_S, grade_convex

        return grade_convex(suite, requests, cache_dir=cache_dir, use_cache=use_cache, progress=progress,
                            timeout_s=timeout_s or DEFAULT_TIMEOUT_S)
