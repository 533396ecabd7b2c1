import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tuner.errors import InputError
from tuner.guidelines import load_guidelines, load_rules
from tuner.paths import Project

_CATEGORIES = tomllib.loads((Path(__file__).resolve().parents[2] / "evals" / "suite.toml").read_text())["categories"]

GOOD = """---
id: test.sample-rule
title: A sample
section: [Testing]
targets: [queries]
status: active
---
Use an index.
"""


def write_rule(root: Path, name: str, text: str) -> Path:
    path = root / "guidelines" / "rules" / "extra" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_repository_rules_are_valid_and_many():
    lib = load_rules(Path(__file__).resolve().parents[2] / "guidelines" / "rules")
    active = lib.by_status("active")
    assert len(active) >= 12
    assert all(r.targets for r in lib)
    assert len({r.id for r in lib}) == len(lib)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("---\nid: [unclosed\n---\nbody\n", "bad front matter"),
        (GOOD.replace("status: active", "status: active\nowner: me"), "field 'owner': unknown key"),
        (GOOD.replace("Use an index.\n", "\n  \n"), "empty body"),
        (GOOD.replace("targets: [queries]", "targets: [query]"), "field 'targets'"),
        (GOOD.replace("status: active", "status: live"), "field 'status'"),
        (GOOD.replace("id: test.sample-rule", "id: Not An Id"), "field 'id'"),
        ("just text, no front matter\n", "no front matter"),
        (GOOD.replace("title: A sample\n", ""), "field 'title'"),
    ],
)
def test_malformed_rule_names_file_and_field(project_dir, text, expected):
    write_rule(project_dir, "bad.md", text)
    with pytest.raises(InputError) as err:
        load_rules(project_dir / "guidelines" / "rules", categories=_CATEGORIES)
    assert "rules/extra/bad.md" in str(err.value)
    assert expected in str(err.value)
    assert "\n" not in str(err.value)


def test_targets_are_checked_against_the_suites_categories(project_dir):
    """The suite's manifest is the one list of categories: a rule may target only those."""
    from tuner.evals import suite_categories

    (project_dir / "evals" / "suite.toml").write_text(
        f'name = "s"\nversion = "1"\nkind = "convex"\ncategories = {_CATEGORIES!r}\n'.replace("'", '"')
    )
    project = Project(project_dir)
    write_rule(project_dir, "ok.md", GOOD)
    assert load_guidelines(project, categories=suite_categories(project)).library.get("test.sample-rule").targets == (
        "queries",
    )
    write_rule(project_dir, "ok.md", GOOD.replace("targets: [queries]", "targets: [payments]"))
    with pytest.raises(InputError, match=r"extra/ok\.md: field 'targets': .*unknown category payments"):
        _ = load_guidelines(project, categories=suite_categories(project)).library


def test_duplicate_id_names_both_files(project_dir):
    write_rule(project_dir, "a.md", GOOD)
    write_rule(project_dir, "b.md", GOOD)
    with pytest.raises(
        InputError, match=r"extra/b\.md: field 'id': duplicate id 'test.sample-rule' \(also in .*extra/a\.md\)"
    ):
        load_rules(project_dir / "guidelines" / "rules")


def test_one_character_changes_rule_and_prompt_hash(project_dir):
    g = load_guidelines(Project(project_dir))
    before_prompt = g.compose(g.load_set("all-active"))
    rule = g.library.get("queries.with-index")
    path = project_dir / "guidelines" / rule.path
    path.write_text(path.read_text().replace("scans the whole table", "scans the whole tablE"))
    g2 = load_guidelines(Project(project_dir))
    assert g2.library.get("queries.with-index").hash() != rule.hash()
    assert g2.library.get("queries.ordering-limits").hash() == g.library.get("queries.ordering-limits").hash()
    assert g2.compose(g2.load_set("all-active")).hash != before_prompt.hash


def test_metadata_edits_and_line_endings_keep_the_hash(project_dir):
    g = load_guidelines(Project(project_dir))
    rule = g.library.get("schema.indexes")
    path = project_dir / "guidelines" / rule.path
    text = path.read_text().replace("targets: [data_modeling, queries]", "targets: [queries]")
    path.write_bytes(text.replace("\n", "\r\n").encode())
    again = load_guidelines(Project(project_dir)).library.get("schema.indexes")
    assert again.targets == ("queries",)
    assert again.hash() == rule.hash()


def test_prompt_hash_identical_across_processes_and_checkouts(project_dir, tmp_path):
    import shutil

    other = tmp_path / "second-checkout"
    shutil.copytree(project_dir, other)
    code = (
        "from tuner.guidelines import load_guidelines; from tuner.paths import Project; import sys;"
        "g=load_guidelines(Project(__import__('pathlib').Path(sys.argv[1]))); print(g.compose(g.load_set('all-active')).hash)"
    )
    hashes = {
        subprocess.run(
            [sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True
        ).stdout.strip()
        for root in (project_dir, other, project_dir)
    }
    assert len(hashes) == 1 and next(iter(hashes)).startswith("sha256:")


def test_rule_path_is_reported_relative(project_dir):
    lib = load_rules(project_dir / "guidelines" / "rules")
    assert lib.get("actions.use-node-directive").path == "rules/actions/use-node-directive.md"
