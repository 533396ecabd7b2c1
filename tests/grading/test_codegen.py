from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from counter_variants import answer
from tuner.grading.codegen import entry_points, generate, module_problems
from tuner.grading.toolchain import toolchain_dir
from tuner.paths import Project

ROOT = Path(__file__).resolve().parents[2]


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
    (tmp_path / "node_modules").symlink_to(toolchain_dir(Project(ROOT)) / "node_modules")
    cli = str(toolchain_dir(Project(ROOT)) / "node_modules" / "convex" / "bin" / "main.js")
    subprocess.run(["node", cli, "codegen", "--system-udfs", "--typecheck", "disable"], cwd=tmp_path,
                   env={"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path), "CI": "1"},
                   check=True, capture_output=True, timeout=120)
    for rel, text in generate(files).items():
        assert _code(text) == _code((tmp_path / rel).read_text()), rel
