"""Pairs are (eval, sample index), never ranks after dropping failures (issue 19.6)."""

from dataclasses import dataclass

from tuner.ablation.effects import paired_effects
from tuner.runs import pair_outcomes, pair_results
from tuner.stats import paired_compare
from tuner.store import ResultRecord


def _results(outcomes, eval_id="001-a/001-x", category="a", offset=0):
    return [
        ResultRecord(eval_id=eval_id, category=category, sample_index=offset + i, outcome=o, steps=[])
        for i, o in enumerate(outcomes)
    ]


def test_an_infra_failure_drops_its_pair_and_invents_no_flip():
    before = _results(["infra", "pass", "fail", "fail"])
    after = _results(["pass", "pass", "fail", "fail"])
    b, a = pair_outcomes(before, after)
    assert b == {"001-a/001-x": [True, False, False]} and a == {"001-a/001-x": [True, False, False]}
    result = paired_compare(b, a)
    assert result.delta == 0 and not result.fail_to_pass and not result.pass_to_fail


def test_planned_pairs_not_measured_are_counted():
    before = _results(["infra", "pass", "fail"])
    after = _results(["pass", "infra", "fail"])
    p = pair_results(before, after, expected=3)
    assert p.pairs == 1 and p.missing == 2 and not p.complete
    assert pair_results(_results(["pass"]), _results(["fail"]), expected=1).complete


def test_offsets_align_disjoint_sample_indices_and_filters_apply():
    before = _results(["pass", "fail"]) + _results(["pass"], eval_id="002-b/001-y", category="b")
    after = _results(["fail", "pass"], offset=20)
    p = pair_results(before, after, after_offset=20, category="a")
    assert p.before == {"001-a/001-x": [True, False]} and p.after == {"001-a/001-x": [False, True]}
    assert pair_results(before, before, eval_ids={"002-b/001-y"}).pairs == 1


@dataclass
class _Run:
    model: str = "sim/careful"
    params: dict | None = None


@dataclass
class _Outcome:
    results: list
    run: _Run


@dataclass
class _Variant:
    role: str


def test_ablation_effects_pair_by_sample():
    # Before the fix the rank pairing read this as a +1/3 effect of the rule.
    with_rule = _Outcome(_results(["pass", "pass", "fail", "fail"]), _Run(params={}))
    without = _Outcome(_results(["infra", "pass", "fail", "fail"]), _Run(params={}))
    (effect,) = paired_effects(
        [_Variant("reference"), _Variant("add:r.x")], [{"m": without}, {"m": with_rule}], design="add"
    )
    assert effect.delta == 0


def _answers(outcomes, texts, eval_id="001-a/001-x", category="a"):
    return [
        ResultRecord(eval_id=eval_id, category=category, sample_index=i, outcome=o, output=t, steps=[])
        for i, (o, t) in enumerate(zip(outcomes, texts))
    ]


def test_identical_answers_repeated_across_samples_are_one_pair():
    """Issue 28.8: temperature 0 gives one answer K times; one deterministic flip is one pair, not K."""
    before = _answers(["pass"] * 12, ["same before"] * 12)
    after = _answers(["fail"] * 12, ["same after"] * 12)
    p = pair_results(before, after, expected=12)
    assert p.before == {"001-a/001-x": [True]} and p.after == {"001-a/001-x": [False]}
    assert p.repeated == 11 and p.missing == 0 and p.complete
    assert paired_compare(p.before, p.after).p_value == 1.0  # 12 copies read p = 0.0005
    # Different answers stay separate pairs, even with the same outcome; one side repeating is not
    # enough, nor a sampling model repeating an answer now and then.
    varied = _answers(["fail"] * 12, [f"answer {i}" for i in range(12)])
    assert pair_results(before, varied).pairs == 12
    sometimes = _answers(["fail"] * 12, ["same after"] * 11 + ["another"])
    assert pair_results(before, sometimes).pairs == 12
    # A graded answer is identified by its grade's content key, whatever the text around it.
    graded = [r.model_copy(update={"grade_key": "k1", "output": f"prose {i}"}) for i, r in enumerate(before)]
    assert pair_results(graded, after).pairs == 1
