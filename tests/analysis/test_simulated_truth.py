"""The simulated analyst's classifications follow the planted truth; collation groups them; fast (no grading)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tuner.analysis.analyst import Verdict
from tuner.analysis.collate import collate
from tuner.analysis.failures import Failure, FailureSummary
from tuner.analysis.simulated import simulated_verdicts
from tuner.errors import InputError
from tuner.proposals.similarity import similarity

SUITE = Path(__file__).resolve().parents[2] / "suites" / "python"


def _failure(label: str, system: str = "", step: str = "tests") -> Failure:
    return Failure(
        id="001-text/001-slugify#0",
        eval_id="001-text/001-slugify",
        category="text",
        sample_index=0,
        failed_samples=1,
        scored_samples=1,
        failed_step=step,
        reason="AssertionError",
        output=label + "\n\n# Files",
        system_prompt=system,
        problematic="a",
        expected="b",
    )


@pytest.mark.parametrize(
    ("label", "system", "expected", "cause"),
    [
        (
            "(simulated by tuner sim/careful: planted gaps text.lower-not-casefold)",
            "",
            "MODEL_FAULT",
            "text.lower-not-casefold",
        ),
        (
            "(simulated by tuner sim/careful: planted gaps text.lower-not-casefold)",
            "Case folding also folds characters that `lower()` leaves alone.",
            "KNOWN_GAP",
            "text.lower-not-casefold",
        ),
        ("(simulated by tuner sim/careful: planted gaps none)", "", "OVERLY_STRICT", "reference answer rejected"),
        (
            "(simulated by tuner sim/overeager: planted gaps overeager.copies-accumulator)",
            "",
            "MODEL_FAULT",
            "overeager.copies-accumulator",
        ),
        (
            "(simulated by tuner sim/careful: no eval of the suite matches this task) pong",
            "",
            "AMBIGUOUS_TASK",
            "task not recognised",
        ),
    ],
)
def test_classification_follows_planted_truth(label, system, expected, cause):
    [answer] = simulated_verdicts([_failure(label, system)], SUITE).values()
    assert answer["classification"] == expected and answer["root_cause"] == cause
    assert 2 <= answer["reasoning"].count(". ") + 1 <= 3


def test_simulated_analyst_refuses_answers_of_real_models():
    with pytest.raises(InputError, match="--analyst MODEL"):
        simulated_verdicts([_failure("export const a = 1;")], SUITE)


def test_collation_groups_recommendations_and_net_impact():
    fs = [
        _failure("x", step=s).model_copy(update={"eval_id": e, "id": e + "#0"})
        for e, s in (("a", "eslint"), ("b", "tests"), ("c", "tests"), ("d", "tests"), ("e", "tests"))
    ]
    summary = FailureSummary(
        run_id="sha256:" + "1" * 64,
        model="sim/careful",
        set_name="s",
        prompt_hash="p",
        suite="python",
        total=10,
        passed=5,
        failed=5,
        infra=0,
        categories={"text": {"pass": 5, "fail": 5, "infra": 0}},
        by_step={"tests": 4, "eslint": 1},
        failures=fs,
    )
    kinds = {"a": "OVERLY_STRICT", "b": "AMBIGUOUS_TASK", "c": "MODEL_FAULT", "d": "MODEL_FAULT", "e": "KNOWN_GAP"}
    verdicts = [
        Verdict(
            failure_id=f.id,
            eval_id=f.eval_id,
            category="text",
            failed_step=f.failed_step,
            error_line="E",
            classification=kinds[f.eval_id],
            root_cause="same cause" if kinds[f.eval_id] == "MODEL_FAULT" else f.eval_id,
        )
        for f in fs
    ]
    c = collate(summary, verdicts, [], steps=("filesystem", "codegen", "bundle", "tsc", "eslint", "tests"))
    groups = {r.group: r.evals for r in c.recommendations}
    assert groups == {
        "lint or config changes": ["a"],
        "eval improvements": ["b"],
        "model-specific notes": ["c", "d"],
        "no action needed": ["e"],
    }
    assert c.shared_causes == [{"cause": "same cause", "evals": ["c", "d"]}]
    assert (c.actionable, c.model_faults, c.unclassified) == (2, 3, 0) and c.pass_rate_if_fixed == 0.7
    # Which steps are tool settings is the kind's: a kind without an eslint step sends it to the evals.
    other = collate(summary, verdicts, [], steps=("filesystem", "syntax", "tests"))
    assert sorted(e for r in other.recommendations if r.group == "eval improvements" for e in r.evals) == ["a", "b"]
    assert not any(r.group == "lint or config changes" for r in other.recommendations)


def test_near_duplicate_thresholds():
    rule = "Compare text with `str.casefold()`: it also folds characters that `lower()` leaves alone, such as ß."
    assert similarity('Remember: "folds characters that `lower()` leaves alone".', rule).duplicate  # a copied sentence
    assert not similarity("Raise ValueError with a message when the separator is not allowed.", rule).duplicate
    assert similarity(rule.replace("such as ß", "like the German sharp s"), rule).duplicate  # shared vocabulary
