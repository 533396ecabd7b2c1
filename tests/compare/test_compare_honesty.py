"""Honesty checks on the simulator: no false alarms on A/A, and a planted cure is found.

Planted truth (evals/sim): sim/careful leaves out ``"use node"`` in most answers unless the prompt
says so (gap actions.missing-use-node, base 0.8), which breaks the two actions evals that import
Node built-ins; the rule actions.use-node-directive cures it. Everything else stays the same.
With every active rule in the prompt the careful profile's attention is spread thin and the other
ten actions evals pass about half the time, so the check needs 30 samples per eval to see a cure
that lives in two of twelve.
"""

from __future__ import annotations

import pytest

from tuner.compare import compare

pytestmark = pytest.mark.node

SEEDS = 100
AA_SAMPLES = 3
IMPROVEMENT_SAMPLES = 30


@pytest.fixture(scope="module")
def careful():
    from tuner.models import ModelSpec

    return [ModelSpec(model="sim/careful")]


@pytest.fixture(scope="module")
def no_node_set(tmp_path_factory):
    path = tmp_path_factory.mktemp("sets") / "no-node.yaml"
    path.write_text(
        "description: all-active without the use-node rule\nstatuses: [active]\nexclude: [actions.use-node-directive]\n"
    )
    return str(path)


@pytest.fixture(scope="module")
def warmed(sim_harness, careful, no_node_set):
    """Every run both checks need, in one execute_runs call: one generation loop, one grading batch
    (repeated simulated outputs are graded once). The compare calls then only read the store."""
    from tuner.runs import RunConfig, execute_runs

    h = sim_harness
    actions = tuple(e.id for e in h.suite.select(category="actions"))
    all_active, no_node = h.guidelines.load_set("all-active"), h.guidelines.load_set(no_node_set)
    configs = [
        RunConfig(spec=careful[0], rule_set=rs, eval_ids=actions, samples=IMPROVEMENT_SAMPLES)
        for rs in (no_node, all_active)
    ]
    configs += [
        RunConfig(
            spec=careful[0], rule_set=all_active, eval_ids=actions, samples=AA_SAMPLES, sample_offset=seed * AA_SAMPLES
        )
        for seed in range(SEEDS + 1)
    ]
    execute_runs(h, configs)
    return h


@pytest.fixture(scope="module")
def improvement(warmed, careful, no_node_set):
    return compare(warmed, no_node_set, "all-active", careful, category="actions", samples=IMPROVEMENT_SAMPLES)


def test_planted_cure_is_detected_as_improved(improvement):
    (cell,) = improvement.cells
    assert cell.category == "actions" and cell.simulated
    assert cell.verdict == "improved", cell
    # The verdict is the paired test on these tasks. The interval resamples tasks, and the cure
    # lives in 2 of the 12, so it may cross zero: the effect is real here, not on every task.
    assert cell.delta > 0.05 and cell.q_value < 0.05
    for cured in ("005-actions/001-hash-text", "005-actions/002-compress-text"):
        assert cell.flips[cured].fail_to_pass >= 3 and cell.flips[cured].pass_to_fail == 0, cell.flips
    assert improvement.exit_code == 0


def test_aa_on_disjoint_samples_finds_nothing(warmed, careful):
    significant = []
    for seed in range(1, SEEDS + 1):
        result = compare(
            warmed,
            "all-active",
            "all-active",
            careful,
            category="actions",
            samples=AA_SAMPLES,
            after_offset=seed * AA_SAMPLES,
        )
        assert result.before.runs != result.after.runs  # different sample indices, different runs
        if any(c.verdict != "no detectable change" for c in result.cells):
            significant.append(seed)
    rate = len(significant) / SEEDS
    print(f"A/A false-positive rate: {rate:.0%} ({len(significant)}/{SEEDS} seeds: {significant})")
    assert rate <= 0.05


DETERMINISTIC = """[[models]]
model = "sim/careful"
params = { temperature = 0 }

[[models]]
model = "sim/overeager"
params = { seed = 7 }
"""


def test_compare_at_temperature_0_or_a_fixed_seed_counts_each_answer_once(cli, py_project):
    """Issue 28.8: K identical answers are one observation, so one deterministic flip is never "regressed"."""
    import json

    (py_project / "experiments" / "det.toml").write_text(DETERMINISTIC)
    r = cli("compare", "--before", "none", "--after", "all-active", "--panel", "det", "--samples", "8", "--json")
    data = json.loads(r.stdout)
    assert r.exit_code in (0, 1), r.output
    cells = [c for c in data["cells"] if c["category"] != "overall"]
    assert cells and all(c["pairs"] == c["tasks"] and c["repeated"] == 7 * c["tasks"] for c in cells), cells
    assert all(c["pairs"] == c["expected"] for c in cells)  # folded, not "not measured"
    # With one pair per eval no cell of 3 evals can reach a verdict (exact McNemar: p >= 0.25).
    assert data["regressions"] == 0 and data["improvements"] == 0
    assert any("counted once" in n for n in data["notes"])
