"""The Convex suite kind: answers under ``convex/`` and ``src/``, graded by this package's pipeline
(filesystem → codegen → bundle → tsc → eslint → tests with vitest + convex-test)."""

from __future__ import annotations

from pathlib import Path

from tuner.models.answers import tool_instructions
from tuner.models.messages import answer_format
from tuner.suites.convex.settings import ConvexEvalConfig, ConvexSettings, check_dependencies

__all__ = ["ConvexKind", "OUTPUT_FORMAT", "STEP_NAMES", "GENERATED"]

OUTPUT_FORMAT = answer_format("convex/schema.ts")
# The steps, in the order they run.
STEP_NAMES = ("filesystem", "codegen", "bundle", "tsc", "eslint", "tests")
# The grader writes this folder (codegen); an answer may not.
GENERATED = "convex/_generated"


class ConvexKind:
    name = "convex"
    steps = STEP_NAMES
    grader_file = "grader.test.ts"
    answer_roots = ("convex", "src")
    answer_extensions = ("ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "json")
    published_name = "convex_rules"
    file_globs = "convex/**/*.ts,convex/**/*.tsx,src/**/*.ts,src/**/*.tsx"
    settings_model = ConvexSettings
    eval_config_model = ConvexEvalConfig

    def output_format(self) -> str:
        return OUTPUT_FORMAT

    def tool_format(self) -> str:
        return tool_instructions(self.answer_roots, "convex/schema.ts")

    def check_suite(self, suite) -> None:
        check_dependencies(suite)

    def generated_paths(self, files: dict[str, str]) -> list[str]:
        from tuner.suites.convex.files import generated_paths

        return generated_paths(files)

    def failure_signature(self, step: str, detail: str) -> tuple[str, ...]:
        from tuner.suites.convex.signature import step_signature

        return step_signature(step, detail)

    def grader_id(self, suite) -> str:
        from tuner.grading.sandbox import check_reachable
        from tuner.suites.convex.identity import grader_id
        from tuner.suites.convex.settings import toolchain_dir

        # Asked before anything is generated or graded: a toolchain the jail cannot reach is
        # refused with the reason, not recorded as every answer's infrastructure error.
        check_reachable([toolchain_dir(suite)], "the grader toolchain")
        from tuner.suites.convex.toolchain import check_jail_can_use

        check_jail_can_use(toolchain_dir(suite))
        return grader_id(suite)

    def grade(self, suite, requests, *, cache_dir: Path, use_cache: bool = True, progress=None, timeout_s: float | None = None):
        from tuner.suites.convex.pipeline import DEFAULT_TIMEOUT_S, grade_convex

        return grade_convex(suite, requests, cache_dir=cache_dir, use_cache=use_cache, progress=progress,
                            timeout_s=timeout_s or DEFAULT_TIMEOUT_S)
