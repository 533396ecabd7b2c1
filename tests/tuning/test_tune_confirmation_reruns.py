"""`tuner tune` rerun with a larger ``--budget-calls`` continues its confirmation as one sequential test
(``tuner.tuning.confirm_looks``), through the CLI on the Python suite with answers from a planted world
(tests/tuning/tune_world.py): the rerun replays the looks the first invocation made on the same
selection (the same samples, the same shares of alpha), adds rounds that spend only what is left,
and records them with the experiment, so that the experiment's confirmation never spends more than
alpha however often it is rerun."""

from __future__ import annotations

import json

import pytest
from tune_world import suite_world, use_world

from tuner.tuning.simulate import Term

COPY = "py.copy-inputs"


def _tune(cli, suite, cap: int):
    r = cli("tune", "--suite", suite, "--category", "data", "--json", "--budget-calls", str(cap))
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def test_a_rerun_with_a_larger_cap_continues_the_confirmation(cli, py_suite, monkeypatch):
    suite = str(py_suite)
    log = use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.12}),)), seed=3)
    first = _tune(cli, suite, 600)["confirmation"]
    assert first["design"] == "sequential" and first["looks_replayed"] == 0 and first["alpha_spent_before"] == 0
    assert 0 < first["alpha_spent"] <= 0.05 * 2 / 3 + 1e-12  # a third of alpha kept for reruns
    confirm_log = lambda: [(e[3], e[4]) for e in log if e[0] == "measure" and e[4] >= 1_000_000]  # noqa: E731
    # The plan for the rerun sizes its confirmation on what the first left, and says so.
    plan = cli("tune", "--suite", suite, "--category", "data", "--plan", "--json", "--budget-calls", "2400")
    [confirmation] = [d for d in json.loads(plan.stdout)["decides"] if d["family"].startswith("confirmation")]
    assert "looks made by earlier runs" in confirmation["note"], confirmation
    before = confirm_log()  # (samples, first sample index) of each round, both prompts at once
    second = _tune(cli, suite, 2400)["confirmation"]
    print(first, second, sep="\n")
    assert second["alpha_spent_before"] == pytest.approx(first["alpha_spent"])
    assert first["alpha_spent"] <= second["alpha_spent"] <= 0.05
    if second["looks_replayed"]:  # the same selection: its rounds are the first invocation's, re-read
        n = first["looks"]
        assert second["samples_per_round"][:n] == first["samples_per_round"]
        assert confirm_log()[len(before) :][:n] == before  # the same samples, asked again (cached in the product)
    # A third invocation at the same cap replays everything: nothing more is spent.
    third = _tune(cli, suite, 2400)["confirmation"]
    assert third["alpha_spent"] == pytest.approx(second["alpha_spent"])
