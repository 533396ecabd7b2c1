"""The planted truth agrees with the simulator itself, on the evals and prompts a method sends."""

from __future__ import annotations

import pytest

from tuner.errors import InputError
from tuner.models.sim.answers import simulate
from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.suite import load_suite
from tuner.models.sim.truth import expected_effects

RULES = ["actions.use-node-directive", "actions.storage-blobs", "queries.with-index"]
EVALS = ["005-actions/001-hash-text", "005-actions/003-file-storage", "005-actions/011-mirror-file"]
SAMPLES = 1000


@pytest.fixture(scope="module")
def composed():
    """Rule ids -> the system prompt the harness sends (the real `default` template)."""
    from tuner.guidelines import Guidelines
    from tuner.paths import find_project

    g = Guidelines(find_project())
    selection = {r: "default" for r in RULES}
    return lambda ids: g.compose_selection({r: selection[r] for r in ids}).text


def _brute_force(data, suite, compose) -> dict[str, float]:
    """Leave-one-out effect of each rule on the mean pass rate of EVALS, by simulating answers."""
    prof = data.profile("careful")
    evals = [e for e in suite if e.id in EVALS]

    def rate(ids: set[str]) -> float:
        system = compose(ids)
        passed = sum(
            simulate("careful", prof, data, ev, system, i).planted == () for ev in evals for i in range(SAMPLES)
        )
        return passed / (SAMPLES * len(evals))

    full = rate(set(RULES))
    return {r: full - rate(set(RULES) - {r}) for r in RULES}


def test_truth_on_given_evals_and_composed_prompts_matches_brute_force(suite_root, composed):
    data, suite = load_sim_data(suite_root, None), load_suite(suite_root)
    texts = {r: r for r in RULES}  # unused when `compose` is given; only the ids matter
    truth = expected_effects(
        "careful", texts, relative_to="all", data=data, suite=suite, eval_ids=EVALS, compose=composed
    )
    observed = _brute_force(data, suite, composed)
    # Standard error of each observed difference is about 0.013 at these sizes (3 evals x 1,000 samples a side).
    for r in RULES:
        assert abs(truth[r]["actions"] - observed[r]) < 0.05, (r, truth[r]["actions"], observed[r])
    assert set(truth[RULES[0]]) == {"actions"}  # only the categories of the given evals
    assert max(observed.values()) > 0.07  # a real effect, so agreement is not two zeros


def test_truth_rejects_unknown_eval_ids(suite_root):
    with pytest.raises(InputError, match="999-nope/1"):
        expected_effects("careful", {"r": "text"}, root=suite_root, eval_ids=["999-nope/1"])
