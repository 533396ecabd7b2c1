"""Outputs of the tiny counter eval (tests/suites/convex/fixtures) that fail at a known step."""

from __future__ import annotations

from pathlib import Path

from tuner.evals import Eval, load_eval
from tuner.suites import get_kind

FIXTURE = Path(__file__).parent / "fixtures" / "evals" / "001-fundamentals" / "001-counter"


def counter_eval() -> Eval:
    return load_eval(FIXTURE, kind=get_kind("convex"))


def answer() -> dict[str, str]:
    return counter_eval().answer_files()


def _replace(old: str, new: str) -> dict[str, str]:
    files = answer()
    assert old in files["convex/counters.ts"]
    files["convex/counters.ts"] = files["convex/counters.ts"].replace(old, new)
    return files


def node_builtin_without_use_node() -> dict[str, str]:
    files = answer()
    files["convex/hash.ts"] = (
        'import { createHash } from "crypto";\nimport { action } from "./_generated/server";\n'
        'import { v } from "convex/values";\n'
        "export const sha = action({ args: { s: v.string() }, returns: v.string(),\n"
        '  handler: async (_ctx, { s }) => createHash("sha256").update(s).digest("hex") });\n'
    )
    return files


def query_in_use_node_file() -> dict[str, str]:
    files = answer()
    files["convex/nodeStuff.ts"] = (
        '"use node";\nimport { query } from "./_generated/server";\nimport { v } from "convex/values";\n'
        "export const q = query({ args: {}, returns: v.number(), handler: async () => 1 });\n"
    )
    return files


def use_node_action() -> dict[str, str]:
    files = answer()
    files["convex/nodeStuff.ts"] = (
        '"use node";\nimport { createHash } from "node:crypto";\nimport { action } from "./_generated/server";\n'
        'import { v } from "convex/values";\n'
        "export const sha = action({ args: { s: v.string() }, returns: v.string(),\n"
        '  handler: async (_ctx, { s }) => createHash("sha256").update(s).digest("hex") });\n'
    )
    return files


def type_error() -> dict[str, str]:
    return _replace('{ name, value: 1 }', '{ name, value: "one" }')


def filter_in_query() -> dict[str, str]:
    return _replace(
        '.withIndex("by_name", (q) => q.eq("name", name))\n      .unique();\n    return row?.value',
        '.filter((q) => q.eq(q.field("name"), name))\n      .unique();\n    return row?.value',
    )


def wrong_behaviour() -> dict[str, str]:
    return _replace("return row?.value ?? 0;", "return row?.value ?? 1;")


def hanging_query() -> dict[str, str]:
    return _replace("return row?.value ?? 0;", "while (true) { /* spin */ }\n    return 0;")


def syntax_error() -> dict[str, str]:
    return _replace("export const get = query({", "export const get = query({{")


def use_node_in_crons() -> dict[str, str]:
    files = answer()
    files["convex/crons.ts"] = (
        '"use node";\nimport { cronJobs } from "convex/server";\nconst crons = cronJobs();\nexport default crons;\n'
    )
    return files
