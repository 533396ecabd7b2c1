from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from counter_variants import answer
from tuner.evals import load_suite
from tuner.suites.convex.codegen import entry_points, generate, installed_components, module_problems
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[3]


def _node_modules() -> Path:
    """The locked toolchain's node_modules, installed (npm ci) if this is the first use."""
    from tuner.suites.convex.settings import toolchain_dir
    from tuner.suites.convex.toolchain import ensure_toolchain

    return ensure_toolchain(toolchain_dir(load_suite(Project(ROOT)))).node_modules


def test_entry_points_follow_the_cli_rules():
    files = {
        "a.ts": "export const a = 1;", "lib/b.ts": "import x from 'y';", "schema.ts": "export default 1;",
        "_generated/api.js": "", "c.test.ts": "export {}", ".hidden.ts": "export {}", "#tmp.ts": "export {}",
        "notes.md": "", "script.ts": "const a = 1;", "d.js": "", "with space.ts": "export {}",
    }
    assert entry_points(files) == ["a.ts", "d.js", "lib/b.ts"]


def test_generated_api_lists_modules_and_schema_choice():
    files = {"convex/messages.ts": "export const a = 1;", "convex/lib/my-util.ts": "export {}"}
    out = generate(files)
    assert 'import type * as lib_my_util from "../lib/my-util.js";' in out["convex/_generated/api.d.ts"]
    assert '"lib/my-util": typeof lib_my_util;' in out["convex/_generated/api.d.ts"]
    assert "AnyDataModel" in out["convex/_generated/dataModel.d.ts"]
    files["convex/schema.ts"] = "export default 1;"
    assert "DataModelFromSchemaDefinition" in generate(files)["convex/_generated/dataModel.d.ts"]


def test_module_names_that_cannot_be_identifiers_fail():
    assert module_problems({"convex/1upsert.ts": "export {}"})
    assert not module_problems({"convex/api.ts": "export {}", "convex/a-b.ts": "export {}"})


def _code(text: str) -> list[str]:
    text = re.sub(r"/\*\*.*?\*/", "", text, flags=re.DOTALL)  # doc comments only differ
    return [line.rstrip() for line in text.splitlines() if line.strip()]


@pytest.mark.node
def test_output_matches_the_convex_cli(tmp_path: Path):
    """Same code as `npx convex codegen --system-udfs --typecheck disable`, comments aside."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    files = {**answer(), "convex/lib/util.ts": "export const x = 1;\n", "convex/http.ts": "export default 1;\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "package.json").write_text('{"type": "module", "dependencies": {"convex": "*"}}')
    (tmp_path / "node_modules").symlink_to(_node_modules())
    cli = str(_node_modules() / "convex" / "bin" / "main.js")
    subprocess.run(["node", cli, "codegen", "--system-udfs", "--typecheck", "disable"], cwd=tmp_path,
                   env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path), "CI": "1"},
                   check=True, capture_output=True, timeout=120)
    for rel, text in generate(files).items():
        assert _code(text) == _code((tmp_path / rel).read_text()), rel


def _tokens(text: str) -> str:
    """Code without comments, whitespace, quotes or separator style (prettier's business)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    text = re.sub(r"\s+|[\"']", "", text).replace(";", ",")
    return re.sub(r",(?=[}>)])", "", text)


def test_components_are_read_from_convex_config():
    config = (
        'import { defineApp } from "convex/server";\n'
        'import aggregate from "@convex-dev/aggregate/convex.config";\n'
        'import rateLimiter from "@convex-dev/rate-limiter/convex.config.js";\n'
        "const app = defineApp();\napp.use(aggregate);\napp.use(aggregate, { name: \"byScore\" });\n"
        "app.use(rateLimiter);\nexport default app;\n"
    )
    assert installed_components(config) == [
        ("aggregate", "@convex-dev/aggregate"), ("byScore", "@convex-dev/aggregate"),
        ("rateLimiter", "@convex-dev/rate-limiter"),
    ]
    out = generate({"convex/convex.config.ts": config, "convex/a.ts": "export const a = 1;"})
    assert "export const components = componentsGeneric();" in out["convex/_generated/api.js"]
    assert ('byScore: import("@convex-dev/aggregate/_generated/component.js").ComponentApi<"byScore">;'
            in out["convex/_generated/api.d.ts"])
    assert "convex.config" not in out["convex/_generated/api.d.ts"]  # not a function module
    assert "components" not in generate({"convex/a.ts": "export const a = 1;"})["convex/_generated/api.js"]


@pytest.mark.node
def test_component_api_matches_the_convex_cli_templates(tmp_path: Path):
    """Same code as the CLI's component codegen (its own template functions, fed the analysis a
    push returns), formatting aside; and every default name is the package's defineComponent name."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    modules = _node_modules()
    packages = ["@convex-dev/aggregate", "@convex-dev/rate-limiter", "@convex-dev/workpool",
                "@convex-dev/action-retrier", "@convex-dev/sharded-counter"]
    config = 'import { defineApp } from "convex/server";\n'
    config += "".join(f'import c{i} from "{p}/convex.config";\n' for i, p in enumerate(packages))
    config += "const app = defineApp();\n" + "".join(f"app.use(c{i});\n" for i in range(len(packages)))
    config += 'app.use(c0, { name: "second" });\nexport default app;\n'
    files = {**answer(), "convex/lib/util.ts": "export const x = 1;\n", "convex/convex.config.ts": config}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "node_modules").symlink_to(modules)
    children = installed_components(config)
    for name, package in children[:-1]:
        component_config = (modules / package / "dist" / "component" / "convex.config.js").read_text()
        assert f'defineComponent("{name}"' in component_config, package
    done = subprocess.run(["node", str(Path(__file__).parent / "cli_component_api.mjs"), str(modules),
                           str(tmp_path / "convex"), str(tmp_path), json.dumps(children)],
                          env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path), "CI": "1"},
                          check=True, capture_output=True, text=True, timeout=120)
    cli = json.loads(done.stdout)
    ours = generate(files)
    for name in ("api.d.ts", "api.js"):
        assert _tokens(ours[f"convex/_generated/{name}"]) == _tokens(cli[name]), name
