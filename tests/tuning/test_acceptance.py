"""The decision rule on tune's winner (tuner.tuning.acceptance), on hand-made confirmation rows."""

import pytest

from tuner.stats import paired_compare, rate_interval
from tuner.tuning.acceptance import accept, drop_family
from tuner.tuning.evidence import CategoryRow


def _row(category, before, after, *, verdict, infra=0):
    paired = paired_compare(before, after)
    paired.verdict = verdict
    return CategoryRow(
        model="sim/careful (simulator)",
        category=category,
        before=rate_interval(before),
        after=rate_interval(after),
        paired=paired,
        infra=infra,
    )


def _same(n=12, evals=3):
    return {f"e{i}": [True] * n for i in range(evals)}


def _drop(n=12, lost=6, evals=3):
    return {f"e{i}": [True] * (n - lost) + [False] * lost for i in range(evals)}


def _gain(n=12):
    return {f"e{i}": [False] * (n // 2) + [True] * (n - n // 2) for i in range(3)}


def test_an_established_held_out_drop_withholds_the_winner_even_when_the_sequential_test_is_undecided():
    fresh = [
        _row("data", _gain(), _same(), verdict="improved"),
        _row("text", _same(), _same(), verdict="no meaningful change"),
    ]
    held = [_row("text", _same(), _drop(), verdict="undecided")]  # 18 of 36 pairs pass -> fail: p < 1e-5
    a = accept("data", fresh, held, changed=True)
    assert a.decision == "withheld" and not a.accepted
    assert any("text (tuning + held-out)" in r for r in a.reasons), a.reasons
    assert [c.check for c in a.cells if c.category == "text"] == ["regressed", "regressed"]


def test_a_point_estimate_from_one_held_out_eval_withholds_nothing():
    """Issue 28.11: a -50% point estimate from one eval and two samples used to withhold a clear winner."""
    fresh = [
        _row("data", _gain(), _same(), verdict="improved"),
        _row("text", _same(), _same(), verdict="no meaningful change"),
    ]
    held = [_row("text", {"h": [True, True]}, {"h": [True, False]}, verdict="undecided")]
    a = accept("data", fresh, held, changed=True)
    assert a.accepted, a.reasons
    assert held[0].paired.delta == -0.5 and not any(d.regressed for d in a.drops)


def test_a_clean_improvement_is_accepted_and_its_claim_names_where_it_was_measured():
    fresh = [
        _row("data", _gain(), _same(), verdict="improved"),
        _row("text", _same(), _same(), verdict="no meaningful change"),
    ]
    held = [
        _row("text", _same(), _same(), verdict="undecided"),
        _row("data", _same(evals=1), _same(evals=1), verdict="undecided"),
    ]
    a = accept("data", fresh, held, changed=True)
    assert a.accepted
    [claim] = a.claim
    assert claim.tuning_evals.evals == 3 and claim.tuning_evals.verdict == "improved"
    assert claim.held_out_evals.evals == 1
    # The drop family: text (its tuning and held-out evals together) and the held-out target.
    assert [(d.category, d.evals) for d in a.drops] == [("data", "held-out"), ("text", "tuning + held-out")]


def test_the_drop_family_pools_a_categorys_tuning_and_held_out_evals():
    """Two drops too small to establish alone are established together (the change does not know
    which evals are held out)."""
    small = _drop(n=4, lost=2, evals=2)  # 4 of 8 pairs pass -> fail
    rows = [_row("text", _same(4, 2), small, verdict="undecided")]
    alone = drop_family("data", rows, [])
    both = drop_family("data", rows, [_row("text", _same(4, 2), small, verdict="undecided")])
    assert not alone[0].regressed and both[0].regressed and both[0].pass_to_fail == 8


def test_no_confirmed_gain_is_withheld_and_an_unchanged_winner_is_no_change():
    fresh = [_row("data", _same(), _same(), verdict="undecided")]
    a = accept("data", fresh, [], changed=True)
    assert (
        a.decision == "withheld" and "did not confirmably improve on fresh samples of its tuning evals" in a.reasons[0]
    )
    assert accept("data", [], [], changed=False).decision == "no change"


def test_a_target_that_regresses_for_one_model_is_withheld():
    fresh = [_row("data", _gain(), _same(), verdict="improved"), _row("data", _same(), _drop(), verdict="regressed")]
    fresh[1].model = "sim/overeager (simulator)"
    a = accept("data", fresh, [], changed=True)
    assert a.decision == "withheld" and any("overeager" in r for r in a.reasons)


def test_lost_answers_are_not_measured():
    fresh = [_row("data", _gain(), _same(), verdict="improved", infra=3)]
    assert accept("data", fresh, [], changed=True).decision == "not measured"


def test_the_report_says_a_phase_did_not_run_rather_than_that_the_suite_lacks_evals():
    """Issue 33: with no confirmation (no change to confirm) the report said "the suite has no
    held-out evals" of a suite with 24."""
    from tuner.tuning.markdown import render_markdown
    from tuner.tuning.report import TuneReport

    report = TuneReport(
        study="s",
        category="actions",
        baseline="all-active",
        trials=1,
        best_trial=0,
        baseline_selection={"a": "default"},
        best_selection={"a": "default"},
        baseline_tokens=10,
        best_tokens=10,
        fresh=[],
        held_out=[],
        rule_effects=[],
        importance={},
        found_helpful=[],
        found_harmful=[],
        calls=0,
        tolerance=0.15,
        confirmation={"design": "none", "looks": 0, "calls": 0, "stopped": "no change"},
    )
    text = render_markdown(report)
    assert "has no held-out evals" not in text
    section = text[text.index("## Confirmation on held-out evals") :]
    assert section.splitlines()[2] == "(not run: no change)"


def _ni(category, shown, delta=-0.04, lo=-0.19, hi=0.11):
    from tuner.tuning.noninferior import NonInferior

    return NonInferior(
        model="sim/careful (simulator)",
        category=category,
        margin=0.15,
        verdict="non-inferior" if shown else "not ruled out",
        look=3,
        level=0.026,
        delta=delta,
        lo=lo,
        hi=hi,
        pairs=120,
    )


def test_a_drop_of_the_margin_not_ruled_out_withholds_the_winner_in_one_line_per_cell():
    fresh = [
        _row("data", _gain(), _same(), verdict="improved"),
        _row("text", _same(), _same(), verdict="no meaningful change"),
    ]
    a = accept("data", fresh, [], changed=True, noninferiority=[_ni("text", False)])
    assert a.decision == "withheld"
    assert a.reasons == [
        "sim/careful (simulator) · text: a drop of more than 15 points is not ruled out (-4% [-19%, +11%], "
        "120 pairs, one-sided level 0.026)"
    ]
    assert accept("data", fresh, [], changed=True, noninferiority=[_ni("text", True)]).accepted
    dumped = a.model_dump(mode="json")["noninferiority"][0]
    assert dumped["verdict"] == "not ruled out" and dumped["margin"] == 0.15 and dumped["level"] == 0.026


def test_an_established_drop_is_said_once_and_without_the_confirmations_verdicts_a_single_look_decides():
    fresh = [
        _row("data", _gain(), _same(), verdict="improved"),
        _row("text", _same(), _drop(), verdict="undecided"),
    ]
    a = accept("data", fresh, [], changed=True, noninferiority=[_ni("text", False, -0.5, -0.7, -0.3)])
    assert len(a.reasons) == 1 and a.reasons[0].startswith("a drop is established in")
    # No verdicts given: every other category tested once from the rows, at two thirds of alpha.
    few = [_row("data", _gain(), _same(), verdict="improved"), _row("text", _same(2, 1), _same(2, 1), verdict=None)]
    b = accept("data", few, [], changed=True)
    [cell] = b.noninferiority
    assert cell.level == pytest.approx(0.05 * 2 / 3) and cell.pairs == 2 and not cell.shown
    assert b.decision == "withheld" and "text: a drop of more than 15 points is not ruled out" in b.reasons[0]


def test_a_category_without_a_verdict_is_not_ruled_out():
    fresh = [
        _row("data", _gain(), _same(), verdict="improved"),
        _row("text", _same(), _same(), verdict="no meaningful change"),
    ]
    a = accept("data", fresh, [], changed=True, noninferiority=[])
    assert a.decision == "withheld" and a.reasons == [
        "sim/careful (simulator) · text: a drop of more than 15 points is not ruled out (no pairs measured)"
    ]
