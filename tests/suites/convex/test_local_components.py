"""Components defined inside the app (``convex/<dir>/convex.config.ts`` with ``defineComponent``):
their modules are theirs, not the app's; codegen writes their ``_generated/`` as the CLI does and
the app's ``components.<name>``; the filesystem step keeps answers out of those folders."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tuner.evals import load_suite
from tuner.suites.convex.codegen import (entry_points, function_modules, generate, installed_components,
                                   local_components, module_problems)
from tuner.grading import read_output_dir
from tuner.suites.convex.files import generated_paths, generated_problems
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[3]

_APP_CONFIG = ('import { defineApp } from "convex/server";\nimport audit from "./auditLog/convex.config";\n'
               "const app = defineApp();\napp.use(audit);\nexport default app;\n")
_AUDIT = {
    "convex/convex.config.ts": _APP_CONFIG,
    "convex/schema.ts": "export default 1;\n",
    "convex/documents.ts": 'import { components } from "./_generated/api";\nexport const a = 1;\n',
    "convex/auditLog/convex.config.ts": 'import { defineComponent } from "convex/server";\nexport default defineComponent("auditLog");\n',
    "convex/auditLog/schema.ts": "export default 1;\n",
    "convex/auditLog/events.ts": 'import { mutation } from "./_generated/server";\nexport const record = 1;\n',
    "convex/auditLog/lib/format.ts": "export const f = 1;\n",
}


def _convex(files: dict[str, str]) -> dict[str, str]:
    return {p.removeprefix("convex/"): t for p, t in files.items() if p.startswith("convex/")}


def test_a_component_folder_is_not_part_of_the_app():
    convex = _convex(_AUDIT)
    assert local_components(convex) == ["auditLog"]
    assert entry_points(convex) == ["documents.ts"]
    assert function_modules(convex) == ["auditLog/events.ts", "auditLog/lib/format.ts", "documents.ts"]
    # Without its convex.config.ts the folder is an ordinary part of the app.
    del convex["auditLog/convex.config.ts"]
    assert "auditLog/events.ts" in entry_points(convex)


def test_codegen_writes_the_component_folder_and_the_apps_reference_to_it():
    out = generate(_AUDIT)
    assert sorted(p for p in out if p.startswith("convex/auditLog/")) == [
        "convex/auditLog/_generated/api.ts", "convex/auditLog/_generated/component.ts",
        "convex/auditLog/_generated/dataModel.ts", "convex/auditLog/_generated/server.ts"]
    app_api = out["convex/_generated/api.d.ts"]
    assert 'auditLog: import("../auditLog/_generated/component.js").ComponentApi<"auditLog">;' in app_api
    assert "auditLog_events" not in app_api  # the component's modules are not the app's api
    component = out["convex/auditLog/_generated/component.ts"]
    assert 'import type * as events from "../events.js";' in component
    assert 'import type * as lib_format from "../lib/format.js";' in component
    assert '"lib/format": typeof lib_format;' in component
    assert 'import type * as events from "../events.js";' in out["convex/auditLog/_generated/api.ts"]
    assert "DataModelFromSchemaDefinition" in out["convex/auditLog/_generated/dataModel.ts"]
    no_schema = {p: t for p, t in _AUDIT.items() if p != "convex/auditLog/schema.ts"}
    assert "AnyDataModel" in generate(no_schema)["convex/auditLog/_generated/dataModel.ts"]


def test_a_local_components_name_comes_from_define_component_or_use():
    files = {**_AUDIT, "convex/auditLog/convex.config.ts": 'export default defineComponent("audit_trail");\n'}
    assert 'audit_trail: import("../auditLog/_generated/component.js").ComponentApi<"audit_trail">' \
        in generate(files)["convex/_generated/api.d.ts"]
    config = _APP_CONFIG.replace("app.use(audit);", 'app.use(audit, { name: "second" });')
    assert installed_components(config, {"auditLog": "auditLog"}) == [("second", "./auditLog")]
    assert installed_components('import a from "./lib/../auditLog/convex.config.js";\napp.use(a);',
                                {"auditLog": "x"}) == [("x", "./auditLog")]


def test_a_component_inside_a_component_is_its_parents_child():
    files = {**_AUDIT,
             "convex/auditLog/convex.config.ts": ('import { defineComponent } from "convex/server";\n'
                                                  'import store from "./store/convex.config";\n'
                                                  'const c = defineComponent("auditLog");\nc.use(store);\nexport default c;\n'),
             "convex/auditLog/store/convex.config.ts": 'export default defineComponent("store");\n',
             "convex/auditLog/store/rows.ts": "export const r = 1;\n"}
    out = generate(files)
    assert 'store: import("../store/_generated/component.js").ComponentApi<"store">;' \
        in out["convex/auditLog/_generated/api.ts"]
    assert "rows" not in out["convex/auditLog/_generated/component.ts"]
    assert 'import type * as rows from "../rows.js";' in out["convex/auditLog/store/_generated/component.ts"]
    assert "auditLog/store/rows.ts" in function_modules(_convex(files))


def test_a_component_module_that_cannot_be_an_identifier_fails_codegen():
    problems = module_problems({**_AUDIT, "convex/auditLog/1bad.ts": "export const x = 1;\n"})
    assert len(problems) == 1 and problems[0].startswith("convex/auditLog/1bad.ts: module path")


def test_answers_may_not_write_a_components_generated_folder(tmp_path: Path):
    bad = {**_AUDIT, "convex/auditLog/_generated/api.ts": "export const api = 1;\n"}
    assert generated_problems(bad) == ["'convex/auditLog/_generated/api.ts': writes into a component's _generated/ "
                                       "(generated by the grader)"]
    # A _generated folder that belongs to no component is an ordinary folder of the app.
    assert generated_problems({**_AUDIT, "convex/lib/_generated/x.ts": "export {}\n"}) == []
    # A CLI project read from disk: its own generated files are the kind's, not the answer's.
    for rel, text in {**bad, "convex/_generated/api.d.ts": "export {}\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    files, _ = read_output_dir(tmp_path, ("convex", "src"))
    assert generated_paths(files) == ["convex/_generated/api.d.ts", "convex/auditLog/_generated/api.ts"]
    assert {p: t for p, t in files.items() if p not in generated_paths(files)} == _AUDIT


def _tokens(text: str) -> str:
    """Code without comments, whitespace, quotes or separator style (prettier's business)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"\s+|[\"']", "", text).replace(";", ",")
    return re.sub(r",(?=[}>)])", "", text)


@pytest.mark.node
def test_local_component_codegen_matches_the_convex_cli_templates(tmp_path: Path):
    """The app's api and the component's api/server/dataModel are the CLI's own templates' output
    (fed the analysis a push returns), formatting aside."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    from tuner.suites.convex.settings import toolchain_dir
    from tuner.suites.convex.toolchain import ensure_toolchain

    modules = ensure_toolchain(toolchain_dir(load_suite(Project(ROOT)))).node_modules
    for rel, text in _AUDIT.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    done = subprocess.run(["node", str(Path(__file__).parent / "cli_local_component.mjs"), str(modules),
                           str(tmp_path / "convex"), str(tmp_path), "auditLog", "auditLog"],
                          env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path), "CI": "1"},
                          check=True, capture_output=True, text=True, timeout=120)
    cli = json.loads(done.stdout)
    ours = generate(_AUDIT)
    for name, text in cli.items():  # "api.d.ts" is the app's, "auditLog/api.ts" the component's
        folder, _, base = name.rpartition("/")
        assert _tokens(ours[f"convex/{folder + '/' if folder else ''}_generated/{base}"]) == _tokens(text), name


_TYPES_GRADER = """import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/store/schema";
import { api } from "./convex/_generated/api";

test("the app reaches the component's rows by plain string ids", async () => {
  const t = convexTest(undefined, import.meta.glob(["./convex/**/*.*s", "!./convex/store/**"]));
  t.registerComponent("store", schema, import.meta.glob("./convex/store/**/*.*s"));
  const id = await t.mutation(api.app.add, { text: "hello" });
  expect(await t.query(api.app.read, { id })).toBe("hello");
});
"""
_STORE = {
    "convex/convex.config.ts": ('import { defineApp } from "convex/server";\nimport store from "./store/convex.config";\n'
                                "const app = defineApp();\napp.use(store);\nexport default app;\n"),
    "convex/store/convex.config.ts": 'import { defineComponent } from "convex/server";\nexport default defineComponent("store");\n',
    "convex/store/schema.ts": ('import { defineSchema, defineTable } from "convex/server";\nimport { v } from "convex/values";\n'
                               "export default defineSchema({ notes: defineTable({ text: v.string() }) });\n"),
    "convex/store/notes.ts": """import { v } from "convex/values";
import { internalMutation, mutation, query } from "./_generated/server";

export const add = mutation({
  args: { text: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, { text }) => await ctx.db.insert("notes", { text }),
});

export const get = query({
  args: { id: v.id("notes") },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, { id }) => (await ctx.db.get("notes", id))?.text ?? null,
});

export const wipe = internalMutation({ args: {}, returns: v.null(), handler: async () => null });
""",
    # The ids cross the boundary as strings, as the CLI types a component's v.id() for its parent.
    "convex/app.ts": """import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

export const add = mutation({
  args: { text: v.string() },
  returns: v.string(),
  handler: async (ctx, { text }) => {
    const id: string = await ctx.runMutation(components.store.notes.add, { text });
    return id;
  },
});

export const read = query({
  args: { id: v.string() },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, { id }) => await ctx.runQuery(components.store.notes.get, { id }),
});
""",
}


@pytest.mark.node
@pytest.mark.slow
def test_a_components_api_is_its_public_functions_with_string_ids(tmp_path: Path, monkeypatch):
    """Through the whole pipeline: the app passes plain strings where the component validates
    ``v.id()`` (tsc and the tests pass), and cannot call the component's internal function (tsc fails)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    from tuner.grading import GradeRequest
    from tuner.suites import grade

    monkeypatch.setenv("TUNER_CACHE_DIR", str(tmp_path / "cache"))
    project = Project(ROOT)
    suite = load_suite(project)
    folder = tmp_path / "store-eval"
    folder.mkdir()
    (folder / "grader.test.ts").write_text(_TYPES_GRADER)
    ev = suite.get("008-components/013-local-audit-component").model_copy(
        update={"path": folder, "id": "008-components/900-store", "dependencies": ()})
    internal_call = {**_STORE, "convex/app.ts": _STORE["convex/app.ts"].replace(
        "return id;", "await ctx.runMutation(components.store.notes.wipe, {});\n    return id;")}
    good, bad = grade(project, [GradeRequest(eval=ev, files=_STORE), GradeRequest(eval=ev, files=internal_call)],
                      suite=suite)
    assert good.passed, [(s.name, s.detail) for s in good.steps if s.status != "pass"]
    assert bad.failed_step == "tsc" and "wipe" in bad.step("tsc").detail
