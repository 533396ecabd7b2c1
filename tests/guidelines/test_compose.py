import pytest

from tuner.errors import InputError, NotFoundError
from tuner.guidelines import RuleSet, load_guidelines
from tuner.paths import Project


@pytest.fixture
def g(project_dir):
    return load_guidelines(Project(project_dir))


def test_compose_is_deterministic_and_records_rules(g):
    a = g.compose(g.load_set("all-active"))
    b = g.compose(g.load_set("all-active"))
    assert a.text == b.text and a.hash == b.hash
    assert a.rule_ids == sorted(r.id for r in g.library.by_status("active"))
    assert all(r.hash == g.library.get(r.id).hash(r.variant) for r in a.rules)
    assert a.tokens > 500
    assert a.text.startswith("# Convex guidelines")


def test_sections_follow_template_order(g):
    text = g.compose(g.load_set("all-active")).text
    order = [
        text.index(f"\n## {s}\n")
        for s in ("Functions", "Schema", "Database", "Queries", "Mutations", "Actions", "Idioms", "Clients")
    ]
    assert order == sorted(order)


def test_variants_change_text_and_hash(g):
    full = g.compose(g.load_set("all-active"))
    terse = g.compose(g.load_set("terse"))
    assert terse.hash != full.hash and terse.tokens < full.tokens
    assert terse.selection["queries.with-index"] == "terse"
    assert "Use `.withIndex` instead of `.filter` in queries." in terse.text


def test_none_set_has_no_rules(g):
    p = g.compose(g.load_set("none"))
    assert p.rules == () and "**" not in p.text


def test_selection_roundtrip(g):
    p = g.compose_selection({"queries.with-index": "terse", "actions.storage-blobs": "default"}, name="adhoc")
    assert p.selection == {"actions.storage-blobs": "default", "queries.with-index": "terse"}


def test_unknown_set_rule_and_variant(g, project_dir):
    with pytest.raises(NotFoundError, match="unknown set 'nope'"):
        g.load_set("nope")
    with pytest.raises(NotFoundError, match="field 'include': unknown rule id 'no.such-rule'"):
        g.compose(RuleSet(name="x", include=["no.such-rule"]))
    with pytest.raises(InputError, match="rule 'actions.storage-blobs' is not in the set"):
        g.compose(RuleSet(name="x", statuses=["active"], variants={"actions.storage-blobs": "terse"}))
    with pytest.raises(NotFoundError, match="unknown variant 'loud'"):
        g.compose(RuleSet(name="x", statuses=["active"], variants={"queries.with-index": "loud"}))
    (project_dir / "guidelines" / "sets" / "typo.yaml").write_text("statuses: [active]\nexclud: [x]\n")
    with pytest.raises(InputError, match=r"typo.yaml: field 'exclud': unknown key"):
        g.load_set("typo")


def test_include_exclude_globs(g):
    p = g.compose(RuleSet(name="x", include=["actions.*"], exclude=["actions.crons-syntax"]))
    # Every actions.* rule (whatever the library holds) except the excluded one, in id order.
    expected = sorted(r.id for r in g.library if r.id.startswith("actions.") and r.id != "actions.crons-syntax")
    assert {"actions.no-db-in-actions", "actions.storage-blobs", "actions.use-node-directive"} <= set(expected)
    assert p.rule_ids == expected


def test_diff_sets_and_manifest(g, project_dir):
    import json

    d = g.diff("all-active", "terse")
    assert not d.added and not d.removed
    assert {a.id for a, _ in d.changed} == set(g.load_set("terse").variants)
    d2 = g.diff("none", "everything")
    assert len(d2.added) == len(g.library.by_status("active", "candidate"))
    manifest = project_dir / "m.json"
    p = g.compose(g.load_set("all-active"))
    manifest.write_text(json.dumps({"rules": [r.model_dump() for r in p.rules[1:]]}))
    d3 = g.diff(str(manifest), "all-active")
    assert [r.id for r in d3.added] == [p.rules[0].id] and d3.changed == []
