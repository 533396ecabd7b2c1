"""Designs and effect estimation on synthetic data where the truth is known (no grading)."""

import numpy as np
import pytest

from tuner.ablation.designs import add_one_in, loo, screening
from tuner.ablation.effects import finalize, regression_effects
from tuner.errors import InputError
from tuner.store import ResultRecord


def test_loo_and_add_variants():
    sel = {"a.x": "default", "b.y": "terse"}
    v = loo(sel)
    assert v[0].selection == sel and [x.role for x in v[1:]] == ["without:a.x", "without:b.y"]
    assert v[2].selection == {"a.x": "default"}
    a = add_one_in(sel)
    assert a[0].selection == {} and a[2].selection == {"b.y": "terse"}
    with pytest.raises(InputError):
        loo({})


def test_screening_is_seeded_and_balanced():
    sel = {f"r.rule{i}": "default" for i in range(10)}
    cells = screening(sel, ["e1", "e2", "e3"], replicates=40, seed=3)
    assert len(cells) == 120 and cells == screening(sel, ["e1", "e2", "e3"], replicates=40, seed=3)
    share = np.mean([[r in c.selection for r in sel] for c in cells], axis=0)
    assert np.all((share > 0.35) & (share < 0.65))
    assert cells != screening(sel, ["e1", "e2", "e3"], replicates=40, seed=4)


def test_regression_recovers_planted_effects():
    rng = np.random.default_rng(0)
    sel = {"good.rule": "default", "bad.rule": "default", "idle.rule": "default"}
    cells = screening(sel, [f"queries/e{i}" for i in range(5)], replicates=40, seed=1)
    outcomes = []
    for c in cells:
        p = 0.4 + 0.4 * ("good.rule" in c.selection) - 0.3 * ("bad.rule" in c.selection)
        ok = rng.random() < p
        outcomes.append(
            {
                "k": ResultRecord(
                    eval_id=c.eval_id, category="queries", sample_index=c.replicate, outcome="pass" if ok else "fail"
                )
            }
        )
    effects = {e.rule: e for e in finalize(regression_effects(cells, outcomes, {"k": "sim/x"}), {})}
    assert effects["good.rule"].verdict == "helps" and effects["good.rule"].lo < 0.4 < effects["good.rule"].hi
    assert effects["bad.rule"].verdict == "hurts"
    assert effects["idle.rule"].verdict == "no detectable effect"


def test_a_cell_without_pairs_is_not_measured_and_levels_are_printed():
    """Issue 28.3: no pair is "not measured" (outside BH), never "no detectable effect"; a zone
    interval is printed with the level its look tested at (issue 28 minor)."""
    from tuner.ablation import AblationReport
    from tuner.ablation.effects import Effect
    from tuner.ablation.report import render_markdown

    lost = Effect(rule="r", model="m", category="a", delta=None, lo=None, hi=None, p_value=1.0, measured=False)
    seen = Effect(rule="s", model="m", category="a", delta=0.1, lo=0.0, hi=0.2, p_value=0.5)
    assert [e.verdict for e in finalize([lost, seen], {})] == ["not measured", "no detectable effect"]
    assert lost.q_value is None and seen.q_value == pytest.approx(0.5)
    decided = Effect(
        rule="r",
        model="m",
        category="a",
        delta=0.12,
        lo=0.03,
        hi=0.21,
        p_value=0.001,
        q_value=0.002,
        level=0.906,
        verdict="helps",
        decided_round=3,
    )
    report = AblationReport(
        id="x",
        design="adaptive",
        set_name="s",
        models=["m"],
        runs=3,
        samples=1,
        eval_ids=["a/0"],
        effects=[decided],
        calls=10,
        adaptive={
            "rounds": 3,
            "calls": 10,
            "budget_calls": 10,
            "new_calls": 10,
            "stopped": "decided",
            "delta0": 0.02,
            "delta": 0.08,
            "alpha": 0.05,
            "beta": 0.1,
            "spending": "obrien-fleming",
        },
    )
    text = render_markdown(report)
    assert "[+0.03, +0.21] at 91%" in text and "deciding look" in text
