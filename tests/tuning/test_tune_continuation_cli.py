"""`tuner tune` continued through the CLI (issue 29: one experiment across invocations), then `tuner
publish`, on the Python suite with answers from a planted world (tests/tuning/tune_world.py): the
same tune with a larger --budget-calls continues the screening's looks as the store recorded them,
spends only what is left of alpha, and a winner the first cap withheld is accepted by the
continuation and published without --force. The rates over many repetitions are in
tests/stats/test_calibration_tune_continuation.py (the same functions, without the CLI and store).
"""

from __future__ import annotations

import json

import pytest
from tune_world import suite_world, use_world

from tuner.stats import ALPHA
from tuner.tuning.simulate import Term

COPY = "py.copy-inputs"


@pytest.fixture
def suite(py_suite):
    return str(py_suite)


def _tune(cli, suite, cap: int) -> dict:
    r = cli("tune", "--suite", suite, "--category", "data", "--json", "--budget-calls", str(cap))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _screen_looks(py_suite):
    """The screening's looks as the store keeps them: (anchor, [(replicates, alpha, beta), ...])."""
    from tuner.store import Store
    from tuner.store.experiments import experiments_created

    store = Store.open(f"sqlite:///{py_suite.parents[1] / 'experiments' / 'tuner.db'}", create=False)
    [tune] = experiments_created(store, ["tune"])
    return store.engine_looks(tune["id"], "screen")


def test_a_withheld_winner_is_accepted_by_the_continuation_and_published_without_force(
    cli, suite, monkeypatch, py_suite
):
    """+25 points for adding py.copy-inputs on data, world repetition 1: at 600 calls the screening
    decides nothing, its best bet is not confirmed (withheld); the same tune at 1,200 replays the three
    looks made, decides the change at its fourth, and the winner is accepted and published."""
    use_world(monkeypatch, suite_world((Term((COPY,), {"data": 0.25}),)), seed=1)
    first = _tune(cli, suite, 600)
    assert first["decision"] == "withheld" and first["screening"]["chosen_by"] == "promising"
    anchor, made = _screen_looks(py_suite)
    assert len(made) == first["screening"]["engine"]["rounds"] == 3
    assert sum(a for _, a, _ in made) <= ALPHA * (1 - 1 / 3) + 1e-12  # a third of alpha kept for continuations

    second = _tune(cli, suite, 1200)
    assert second["study"] == first["study"], "a larger cap continues the same tune"
    assert second["decision"] == "accepted" and COPY in second["best_selection"]
    assert second["screening"]["chosen_by"] == "decided"
    anchor2, made2 = _screen_looks(py_suite)
    # The looks made are replayed as they were (what they spent included), the new one spends what is left.
    assert anchor2 == anchor and made2[: len(made)] == made and len(made2) == 4
    assert second["screening"]["engine"]["looks"][:3] == [n for n, _, _ in made]
    assert sum(a for _, a, _ in made2) <= ALPHA

    r = cli("publish", "--suite", suite, "--json")
    assert r.exit_code == 0, r.output
    gate = json.loads(r.stdout)["manifest"]["gate"]
    assert gate["accepted_by_tune"] is True and gate["status"] != "regressed"
