"""The Convex grader's identity, and the lint levels it applies.

A grade is reused (grading cache, run identity) only while nothing that could change it has
changed. ``grader_id`` hashes all of it: the grading code (these modules, whose text holds the
TypeScript options, the vitest configuration and the codegen templates), the Node scripts the
steps run, the effective lint levels, and the toolchain's package.json and lock. No version number
is bumped by hand.
"""

from __future__ import annotations

from pathlib import Path

from tuner.hashing import sha256_bytes, sha256_json

__all__ = ["RECOMMENDED", "eslint_rules", "grader_id", "grader_inputs"]

_HERE = Path(__file__).parent

# @convex-dev/eslint-plugin 5.0's `recommended` configuration. Warnings are recorded with each
# result and never fail a step; a suite changes a level only through `[[lint]]` in suite.toml,
# with its reason.
RECOMMENDED = {
    "@convex-dev/no-old-registered-function-syntax": "error",
    "@convex-dev/require-args-validator": "error",
    "@convex-dev/explicit-table-ids": "error",
    "@convex-dev/no-filter-in-query": "warn",
    "@convex-dev/no-schema-import-cycle": "error",
    "@convex-dev/no-duplicate-indexes": "error",
    "@convex-dev/no-process-env": "error",
    "@convex-dev/import-wrong-runtime": "off",
    "@convex-dev/require-access-control": "off",
    "@convex-dev/no-collect-in-query": "off",
    "@convex-dev/no-top-of-hour-crons": "warn",
}


def eslint_rules(manifest) -> dict[str, str]:
    """The recommended levels with the manifest's overrides applied (unknown rules are errors)."""
    from tuner.errors import InputError
    from tuner.suites.convex.settings import ConvexSettings

    rules = dict(RECOMMENDED)
    for override in (manifest.kind_settings or ConvexSettings()).lint:
        name = override.rule if override.rule.startswith("@") else f"@convex-dev/{override.rule}"
        if name not in rules:
            raise InputError(f"suite.toml: lint rule '{override.rule}' is not a rule of @convex-dev/eslint-plugin")
        rules[name] = override.level
    return rules


def grader_inputs(suite) -> dict[str, str]:
    """Everything outside the eval folders that can change a verdict, each as a hash."""
    from tuner.grading import cache, filesystem, models, output, sandbox
    from tuner.suites.convex import codegen_templates, workspace
    from tuner.suites.convex.settings import toolchain_dir
    from tuner.suites.convex.toolchain import lock_hash

    # The live values too, not only the source text: what a step is handed is what counts.
    inputs = {
        "tsconfig": sha256_json(workspace._TS_OPTIONS),
        "vitest": sha256_json(workspace._VITEST_CONFIG),
        "codegen": sha256_json({k: v for k, v in vars(codegen_templates).items() if k.isupper() and isinstance(v, str)}),
    }
    inputs |= {f"code/{p.name}": sha256_bytes(p.read_bytes()) for p in sorted(_HERE.glob("*.py"))}
    # The shared grading code this kind runs on (the sandbox, the path checks, the results channel).
    inputs |= {f"grading/{Path(m.__file__).name}": sha256_bytes(Path(m.__file__).read_bytes())
               for m in (cache, filesystem, models, output, sandbox)}
    inputs |= {f"node/{p.name}": sha256_bytes(p.read_bytes()) for p in sorted((_HERE / "node").glob("*"))}
    inputs["eslint"] = sha256_json(eslint_rules(suite.manifest))
    package = toolchain_dir(suite) / "package.json"
    inputs["toolchain/package.json"] = sha256_bytes(package.read_bytes()) if package.is_file() else ""
    inputs["toolchain/lock"] = lock_hash(toolchain_dir(suite))
    return inputs


def grader_id(suite) -> str:
    return sha256_json({"kind": "convex", "inputs": grader_inputs(suite)})
