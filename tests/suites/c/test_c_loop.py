"""The third kind through the whole loop, by the CLI only: run, compare, ablate, tune, publish on
a copy of suites/c, answered offline by the simulated models of suites/c/sim."""

from __future__ import annotations

import json
import shlex
import shutil

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")]


def test_c_suite_runs_compares_ablates_tunes_and_publishes_through_the_cli(cli, suite_copy):
    copy = suite_copy("suites/c")
    suite = str(copy)

    r = cli("run", "--suite", suite, "--model", "sim/perfect", "--guidelines", "none", "--samples", "1", "--json")
    assert r.exit_code == 0, r.output
    [row] = json.loads(r.stdout)
    assert row["overall"]["pass"] == 8 and row["overall"]["fail"] == 0  # every eval, graded by gcc

    r = cli("compare", "--suite", suite, "--before", "none", "--after", "all-active", "--model", "sim/careful",
            "--samples", "3", "--json")
    assert r.exit_code == 0, r.output
    cells = {c["category"]: c for c in json.loads(r.stdout)["cells"]}
    # The active rules cure both planted strings gaps; memory's leak gap has no active cure.
    assert cells["strings"]["verdict"] == "improved" and cells["strings"]["after"]["rate"] == 1.0
    assert cells["memory"]["after"]["rate"] < 1.0

    r = cli("ablate", "--suite", suite, "--set", "all-active", "--design", "loo", "--model", "sim/careful",
            "--category", "strings", "--samples", "2", "--json")
    assert r.exit_code == 0, r.output
    ablation = json.loads(r.stdout)
    assert {e["rule"] for e in ablation["effects"]} == {"c.always-terminate", "c.count-the-terminator",
                                                        "c.half-open-ranges", "c.const-inputs"}
    assert all(e["category"] == "strings" for e in ablation["effects"])

    r = cli("tune", "--suite", suite, "--category", "memory", "--json")
    assert r.exit_code == 0, r.output
    tuned = json.loads(r.stdout)
    # Confirmed on fresh samples of every category's tuning evals, not only the target's (issue 28.2).
    assert tuned["category"] == "memory" and {row["category"] for row in tuned["fresh"]} == {"strings", "memory"}
    assert {row["category"] for row in tuned["held_out"]} == {"strings", "memory"}
    # The candidate rule that alone cures the planted leak is what tuning finds; the harmful one stays out.
    assert "c.free-what-you-allocate" in tuned["best_selection"]
    if tuned["decision"] != "accepted":
        # At the default cap (600 calls) the confirmation cannot yet rule out a 15-point drop in
        # `strings` (the plan says so before the first call): the printed command, the cap that does
        # with 80% chance, goes on with the same experiment, as a user would.
        assert tuned["decision"] == "withheld" and tuned["confirmation"]["margin_continue"], tuned["acceptance"]
        args = shlex.split(tuned["confirmation"]["margin_continue"])
        r = cli(*args[1:], "--json")
        assert r.exit_code == 0, r.output
        tuned = json.loads(r.stdout)
    assert "c.free-what-you-allocate" in tuned["best_selection"] and tuned["decision"] == "accepted", tuned["acceptance"]
    assert "c.strncpy-is-enough" not in tuned["best_selection"]

    r = cli("publish", "--suite", suite, "--json")
    assert r.exit_code == 0, r.output
    published = copy / "guidelines" / "published" / "c_rules"
    manifest = json.loads((published / "manifest.json").read_text())
    assert {k: manifest["source"][k] for k in ("kind", "name")} == {"kind": "study", "name": tuned["study"]}
    assert manifest["source"]["tune_claim"]["selection_hash"] == tuned["acceptance"]["selection_hash"]
    assert "c.free-what-you-allocate" in {rule["id"] for rule in manifest["rules"]}
    text = (published / "c_rules.md").read_text()
    assert text.count("# C guidelines") == 1 and "python" not in text.lower() and "convex" not in text.lower()
    assert "src/**/*.c" in (published / "c_rules.mdc").read_text()  # the kind's file globs
