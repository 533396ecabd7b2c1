"""The decision rule on tune's winner (tuner.tuning.acceptance), on hand-made confirmation rows."""

from tuner.stats import paired_compare, rate_interval
from tuner.tuning.acceptance import accept, points_down
from tuner.tuning.evidence import CategoryRow


def _row(category, before, after, *, verdict, infra=0):
    paired = paired_compare(before, after)
    paired.verdict = verdict
    return CategoryRow(model="sim/careful (simulator)", category=category, before=rate_interval(before),
                       after=rate_interval(after), paired=paired, infra=infra)


def _same(n=12):
    return {f"e{i}": [True] * n for i in range(3)}


def _drop(n=12, lost=6):
    return {f"e{i}": [True] * (n - lost) + [False] * lost for i in range(3)}


def _gain(n=12):
    return {f"e{i}": [False] * (n // 2) + [True] * (n - n // 2) for i in range(3)}


def test_a_held_out_drop_withholds_the_winner_even_when_the_sequential_test_is_undecided():
    fresh = [_row("data", _gain(), _same(), verdict="improved"), _row("text", _same(), _same(), verdict="no meaningful change")]
    held = [_row("text", _same(), _drop(), verdict="undecided")]  # -50 points, "undecided" before the fix
    a = accept("data", fresh, held, 0.15, changed=True)
    assert a.decision == "withheld" and not a.accepted
    assert any("text (held-out)" in r for r in a.reasons)


def test_a_clean_improvement_is_accepted():
    fresh = [_row("data", _gain(), _same(), verdict="improved"), _row("text", _same(), _same(), verdict="no meaningful change")]
    held = [_row("text", _same(), _same(), verdict="undecided")]
    assert accept("data", fresh, held, 0.15, changed=True).accepted


def test_no_confirmed_gain_is_withheld_and_an_unchanged_winner_is_no_change():
    fresh = [_row("data", _same(), _same(), verdict="undecided")]
    a = accept("data", fresh, [], 0.15, changed=True)
    assert a.decision == "withheld" and "did not confirmably improve" in a.reasons[0]
    assert accept("data", [], [], 0.15, changed=False).decision == "no change"


def test_lost_answers_are_not_measured():
    fresh = [_row("data", _gain(), _same(), verdict="improved", infra=3)]
    assert accept("data", fresh, [], 0.15, changed=True).decision == "not measured"


def test_points_down():
    assert points_down(-0.25, 0.0, "undecided", 0.15)  # beyond the tolerance
    assert points_down(-0.05, -0.01, None, 0.15)  # significant
    assert points_down(0.0, 0.1, "regressed", 0.15)
    assert not points_down(-0.05, 0.05, "undecided", 0.15)


def test_the_report_says_a_phase_did_not_run_rather_than_that_the_suite_lacks_evals():
    """Issue 33: with no confirmation (no change to confirm) the report said "the suite has no
    held-out evals" of a suite with 24."""
    from tuner.tuning.markdown import render_markdown
    from tuner.tuning.report import TuneReport

    report = TuneReport(study="s", category="actions", baseline="all-active", trials=1, best_trial=0,
                        baseline_selection={"a": "default"}, best_selection={"a": "default"}, baseline_tokens=10,
                        best_tokens=10, fresh=[], held_out=[], rule_effects=[], importance={}, found_helpful=[],
                        found_harmful=[], calls=0,
                        confirmation={"design": "none", "looks": 0, "calls": 0, "stopped": "no change"})
    text = render_markdown(report)
    assert "has no held-out evals" not in text
    section = text[text.index("## Confirmation on held-out evals"):]
    assert section.splitlines()[2] == "(not run: no change)"
