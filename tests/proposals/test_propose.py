"""`tuner propose` drafts candidate rules with provenance; `tune` then recovers a deleted rule."""

from __future__ import annotations

import json

import frontmatter
import pytest

pytestmark = [pytest.mark.slow]


def test_propose_then_tune_recovers_a_deleted_rule(cli, py_project, sim_run):
    rules = py_project / "py" / "guidelines" / "rules"
    deleted = rules / "text" / "casefold.md"
    original = deleted.read_text()
    deleted.unlink()  # the rule that cures text.lower-not-casefold is gone
    run_id = sim_run("--category", "text", "--samples", "4")  # all-active, now without it

    r = cli("propose", "--category", "text", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["run_id"] == run_id and out["simulated"] and out["failures"] >= 1
    [written] = out["written"]
    post = frontmatter.load(written["path"])
    assert post["status"] == "candidate" and post["targets"] == ["text"]
    prov = post["provenance"]
    assert prov["proposed_by"] == "sim/proposer" and prov["simulated"] is True and prov["runs"] == [run_id]
    assert prov["evals"] == written["evals"] and "Jaccard" in prov["similarity"]
    # Strict validation still holds, and provenance is context: not part of the rule's hash.
    from tuner.guidelines import load_rules

    rule = load_rules(rules, ["text", "data"]).get(written["id"])
    assert rule.provenance.runs == [run_id]
    assert rule.hash() == rule.model_copy(update={"provenance": None}).hash()
    bad = rules / "text" / "bad.md"
    bad.write_text(
        original.replace("id: py.casefold", "id: py.bad\nprovenance: {proposed_by: x, date: d, evals: [e], color: red}")
    )
    r = cli("guidelines", "validate")
    assert r.exit_code == 2 and "provenance.color" in r.stderr
    bad.unlink()

    from tuner.paths import find_project
    from tuner.store import Store
    from tuner.store.reports import list_reports

    store = Store.open(find_project().db_url())
    try:
        [recorded] = list_reports(store, kind="proposal")
    finally:
        store.close()
    assert recorded.run_id == run_id and recorded.author_model == "sim/proposer"
    assert recorded.path == f"py/guidelines/rules/text/{written['id'].split('.', 1)[1]}.md"
    # Proposing again finds its own candidate: a near-duplicate, skipped, nothing new written.
    again = json.loads(cli("propose", "--category", "text", "--run", run_id, "--json").stdout)
    assert again["written"] == [] and any(
        f"near-duplicate of {written['id']}@default" in s["reason"] for s in again["skipped"]
    )

    # tune measures the candidate: its screening weighs it with every rule of the pool on the `text`
    # evals, and the regression check keeps it unless a drop elsewhere is established.
    r = cli("tune", "--category", "text", "--samples", "2", "--tolerance", "1", "--json")
    assert r.exit_code == 0, r.output
    tuned = json.loads(r.stdout)
    assert written["id"] in tuned["best_selection"] and written["id"] not in tuned["baseline_selection"]


def test_near_duplicate_of_an_existing_rule_is_skipped(cli, py_project, sim_run):
    # A run without any rule, judged against the full rule library: every draft restates a rule.
    sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = cli("propose", "--category", "text", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["written"] == [] and out["skipped"]
    reasons = " ".join(s["reason"] for s in out["skipped"])
    assert "near-duplicate of py.casefold@default" in reasons
    assert not list((py_project / "py" / "guidelines" / "rules").rglob("avoid-*.md"))


def test_proposer_on_local_server_and_bad_input(cli, py_project, sim_run, server):
    sim_run("--guidelines", "none", "--category", "text", "--samples", "2")
    r = cli("propose", "--category", "text", "--proposer", "openai/proposer", "--api-base", server.api_base, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    # Every failure got the same advice from the server: one rule, the others merged into it.
    [written] = out["written"]
    assert (
        written["id"] == "py.raise-not-return-none"
        and len(written["evals"]) == out["failures"] == server.counts["proposer"]
    )
    assert frontmatter.load(written["path"])["provenance"]["simulated"] is False
    assert cli("propose", "--category", "nope").exit_code == 2
    r = cli("propose", "--category", "data", "--proposer", "gpt4")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
