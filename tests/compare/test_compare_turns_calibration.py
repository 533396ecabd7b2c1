"""Calibration of verdicts at turn N of the repair loop, through the product's compare path.

A/A: the same rule set on disjoint samples of a simulated model that repairs half its mistakes
at each turn (the Python suite, 2 turns): the verdicts at turn 2 flag at most alpha of the
comparisons. The same comparisons with the error control removed (a verdict from the sign of the
difference alone, no test) flag far more: the check can fail.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

SEEDS = 30
SAMPLES = 2
MENDER = """
profiles:
  mender:
    description: Makes the careful profile's mistakes; fixes each from the error half the time.
    cure_strength: 0.99
    attention_tokens: 20000
    noise: 0.005
    gaps:
      text.lower-not-casefold: 0.6
      text.skip-unicode-normalize: 0.5
      text.wrap-width-off-by-one: 0.4
      data.mutable-default: 0.5
      data.mutates-input: 0.7
      data.capacity-off-by-one: 0.4
    repair: {from_error: 0.5}
"""


def test_aa_at_turn_two_flags_at_most_alpha_and_a_mutant_is_caught(py_suite, tmp_path, monkeypatch):
    from tuner.compare import compare
    from tuner.models import ModelSpec
    from tuner.runs import Harness, RunConfig, execute_runs
    from tuner.stats import ALPHA

    sim = tmp_path / "mender.yaml"
    sim.write_text(MENDER)
    monkeypatch.setenv("TUNER_SIM_FILE", str(sim))
    spec = ModelSpec(model="sim/mender")
    with Harness(turns=2) as h:
        none = h.guidelines.load_set("none")
        evals = tuple(e.id for e in h.suite.evals)
        outcomes = execute_runs(
            h,
            [
                RunConfig(spec=spec, rule_set=none, eval_ids=evals, samples=SAMPLES, sample_offset=seed * SAMPLES)
                for seed in range(SEEDS + 1)
            ],
        )
        by_turn = outcomes[0].summary["repair"]["by_turn"]
        # The loop does something here: turn 2 repairs some of turn 1's failures.
        assert 0 < by_turn["1"]["overall"]["pass_rate"] < by_turn["2"]["overall"]["pass_rate"] < 1

        def flagged() -> list[int]:
            seeds = []
            for seed in range(1, SEEDS + 1):
                result = compare(h, "none", "none", [spec], samples=SAMPLES, after_offset=seed * SAMPLES)
                assert result.at_turn == 2 and result.before.runs != result.after.runs
                if any(c.verdict not in ("no detectable change", "not measured") for c in result.cells):
                    seeds.append(seed)
            return seeds

        honest = flagged()
        import tuner.compare.table as table

        monkeypatch.setattr(
            table,
            "verdict",
            lambda delta, q, alpha: "no detectable change" if not delta else "improved" if delta > 0 else "regressed",
        )
        mutant = flagged()
    print(f"A/A at turn 2: {len(honest)}/{SEEDS} flagged; mutant without error control: {len(mutant)}/{SEEDS}")
    assert len(honest) / SEEDS <= ALPHA
    assert len(mutant) / SEEDS > 3 * ALPHA
