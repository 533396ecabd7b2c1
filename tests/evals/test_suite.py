from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from tuner.errors import InputError, NotFoundError
from tuner.evals import load_eval, load_suite
from tuner.paths import Project
from tuner.suites import get_kind
from tuner.suites.convex.settings import dependencies

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = """name = "t"
version = "1"
kind = "convex"
categories = ["fundamentals", "actions"]
steps = ["filesystem", "codegen", "bundle", "tsc", "eslint", "tests"]
held_out = []
"""


def _make_eval(folder: Path) -> None:
    (folder / "answer" / "convex").mkdir(parents=True)
    (folder / "answer" / "convex" / "a.ts").write_text("export const x = 1;\n")
    (folder / "TASK.txt").write_text("do it\n")
    (folder / "grader.test.ts").write_text("// grader\n")


@pytest.fixture()
def tiny(tmp_path: Path) -> Project:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "suite.toml").write_text(MANIFEST)
    _make_eval(tmp_path / "evals" / "001-fundamentals" / "001-one")
    _make_eval(tmp_path / "evals" / "001-fundamentals" / "002-two")
    _make_eval(tmp_path / "evals" / "002-actions" / "001-three")
    return Project(tmp_path)


def test_real_suite_loads_sorted_with_categories():
    suite = load_suite(Project(ROOT))
    assert suite.evals, "the suite has evals"
    assert [e.id for e in suite.evals] == sorted(e.id for e in suite.evals)
    assert set(e.category for e in suite.evals) <= set(suite.categories)
    assert suite.categories == ["fundamentals", "data_modeling", "queries", "mutations", "actions", "idioms", "clients", "components"]
    first = suite.evals[0]
    assert first.task.strip() and first.grader_hash.startswith("sha256:")
    assert all(p.startswith(("convex/", "src/")) for p in first.answer_files())


def test_held_out_follows_the_split_rule():
    suite = load_suite(Project(ROOT))
    assert suite.manifest.split.held_out_every == 4
    for cat in suite.categories:
        evs = suite.select(category=cat)
        assert [e.id for e in evs if e.held_out] == [e.id for i, e in enumerate(evs, 1) if i % 4 == 0]
    held = suite.select(held_out=True)
    assert len(held) + len(suite.select(held_out=False)) == len(suite.evals)


def test_split_rule_and_named_held_out_evals_combine(tiny: Project):
    manifest = tiny.evals / "suite.toml"
    manifest.write_text(manifest.read_text() + '\n[split]\nheld_out_every = 2\n')
    suite = load_suite(tiny)
    assert [e.id for e in suite.evals if e.held_out] == ["001-fundamentals/002-two"]


def test_select(tiny: Project):
    suite = load_suite(tiny)
    assert [e.id for e in suite.select(category="actions")] == ["002-actions/001-three"]
    assert [e.id for e in suite.select(ids=["001-fundamentals/002-two"])] == ["001-fundamentals/002-two"]
    with pytest.raises(NotFoundError) as err:
        suite.select(category="nope")
    assert "nope" in str(err.value) and "fundamentals, actions" in str(err.value)
    with pytest.raises(NotFoundError):
        suite.select(ids=["001-fundamentals/999-missing"])


def test_unknown_manifest_key_names_file_and_field(tiny: Project):
    path = tiny.evals / "suite.toml"
    path.write_text(MANIFEST + 'colour = "blue"\n')
    with pytest.raises(InputError) as err:
        load_suite(tiny)
    assert str(path) in str(err.value) and "colour" in str(err.value)


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda m: m.replace('name = "t"\n', ""), "name"),
        (lambda m: m.replace('"tsc", ', ""), "steps"),
        (lambda m: m.replace("held_out = []", 'held_out = ["001-fundamentals/404-x"]'), "held_out"),
        (lambda m: m.replace('"actions"]', '"clients"]'), "categories"),
        (lambda m: m.replace("version = \"1\"", "version = [1]"), "version"),
    ],
)
def test_manifest_errors_name_the_field(tiny: Project, edit, field):
    path = tiny.evals / "suite.toml"
    path.write_text(edit(MANIFEST))
    with pytest.raises(InputError) as err:
        load_suite(tiny)
    assert str(path) in str(err.value) and field in str(err.value)


@pytest.mark.parametrize("missing", ["TASK.txt", "grader.test.ts", "answer"])
def test_malformed_eval_names_the_folder(tiny: Project, missing: str):
    folder = tiny.evals / "001-fundamentals" / "002-two"
    target = folder / missing
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    with pytest.raises(InputError) as err:
        load_suite(tiny)
    assert str(folder) in str(err.value)


def test_hash_follows_content(tiny: Project):
    before = load_suite(tiny).hash
    assert load_suite(tiny).hash == before
    (tiny.evals / "002-actions" / "001-three" / "answer" / "convex" / "a.ts").write_text("export const x = 2;\n")
    assert load_suite(tiny).hash != before


def test_load_eval_outside_a_suite(tiny: Project):
    ev = load_eval(tiny.evals / "002-actions" / "001-three", kind=get_kind("convex"))
    assert ev.id == "002-actions/001-three" and ev.category == "actions" and not ev.held_out
    assert ev.answer_files() == {"convex/a.ts": "export const x = 1;\n"}


def _toolchain(tiny: Project, deps: dict[str, str]) -> None:
    (tiny.evals / "suite.toml").write_text(MANIFEST.replace('held_out = []', 'toolchain = "toolchain"\nheld_out = []'))
    (tiny.evals / "toolchain").mkdir(exist_ok=True)
    (tiny.evals / "toolchain" / "package.json").write_text(json.dumps({"dependencies": deps}))


def test_eval_toml_declares_dependencies_from_the_toolchain(tiny: Project):
    _toolchain(tiny, {"convex": "1.48.0", "@convex-dev/aggregate": "0.3.1"})
    folder = tiny.evals / "001-fundamentals" / "001-one"
    before = load_suite(tiny).get("001-fundamentals/001-one")
    assert dependencies(before) == ()
    (folder / "eval.toml").write_text('dependencies = ["@convex-dev/aggregate"]\n')
    after = load_suite(tiny).get("001-fundamentals/001-one")
    assert dependencies(after) == ("@convex-dev/aggregate",)
    assert after.content_hash() != before.content_hash()
    assert after.grader_hash != before.grader_hash  # the grade cache keys on it


def test_eval_toml_is_strict(tiny: Project):
    _toolchain(tiny, {"convex": "1.48.0"})
    folder = tiny.evals / "001-fundamentals" / "001-one"
    (folder / "eval.toml").write_text('dependencies = []\ntimeout = 3\n')
    with pytest.raises(InputError, match=r"eval\.toml: unknown field 'timeout'"):
        load_suite(tiny)
    (folder / "eval.toml").write_text('dependencies = "@convex-dev/aggregate"\n')
    with pytest.raises(InputError, match=r"eval\.toml: field 'dependencies': .*list"):
        load_suite(tiny)
    (folder / "eval.toml").write_text('dependencies = ["left-pad"]\n')
    with pytest.raises(InputError, match="does not install: left-pad"):
        load_suite(tiny)


def test_real_component_evals_declare_what_they_import():
    suite = load_suite(Project(ROOT))
    for ev in suite.select(category="components"):
        # A component defined inside the app needs no package.
        local = any("defineComponent(" in text for text in ev.answer_files().values())
        assert dependencies(ev) or local, ev.id
        text = "\n".join(ev.answer_files().values())
        for dep in dependencies(ev):
            assert f'from "{dep}' in text, (ev.id, dep)


def test_the_convex_suite_is_big_enough_to_resolve_rule_effects():
    """At least 12 evals in each category, a quarter of each held out, every eval with a broken
    variant; enough rules to tune, candidates among them, harmful ones included."""
    from tuner.guidelines import load_guidelines

    suite = load_suite(Project(ROOT))
    for cat in suite.categories:
        evs = suite.select(category=cat)
        assert len(evs) >= 12, cat
        assert len([e for e in evs if e.held_out]) >= max(3, len(evs) // 4), cat
    broken = ROOT / "tests" / "fixtures" / "broken"
    answered = {tomllib.loads(p.read_text())["eval"] for p in broken.glob("**/broken.toml")}
    assert {e.id for e in suite.evals} <= answered, "every eval has at least one broken variant"
    library = load_guidelines(Project(ROOT)).library
    assert len(library.by_status("active")) >= 45
    assert len(library.by_status("candidate")) >= 4


def test_adding_or_retiring_an_eval_moves_no_other_eval_across_the_split(tiny: Project):
    manifest = tiny.evals / "suite.toml"
    manifest.write_text(manifest.read_text() + '\n[split]\nheld_out_every = 2\n')
    cat = tiny.evals / "001-fundamentals"
    for name in ("004-four", "005-five", "006-six"):
        _make_eval(cat / name)

    def split() -> dict[str, bool]:
        return {e.id: e.held_out for e in load_suite(tiny).evals}

    before = split()
    assert [i for i, held in before.items() if held] == [
        "001-fundamentals/002-two", "001-fundamentals/004-four", "001-fundamentals/006-six"]
    _make_eval(cat / "003-three")  # a new eval in the gap of the numbering
    after = split()
    assert {i: after[i] for i in before} == before
    shutil.rmtree(cat / "001-one")  # an eval retired
    assert {i: h for i, h in split().items() if i in before} == {i: h for i, h in before.items() if i != "001-fundamentals/001-one"}


def test_the_split_is_by_folder_number():
    from tuner.evals.manifest import Split

    split = Split(held_out_every=4)
    assert [split.holds_out(f"003-queries/{n:03d}-x") for n in (1, 4, 7, 8, 12)] == [False, True, False, True, True]
