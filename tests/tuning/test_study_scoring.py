"""The trial score and the choice of the best trial, on synthetic runs (no grading)."""

from dataclasses import dataclass, field

import optuna
import pytest

from tuner.store import ResultRecord
from tuner.tuning import TuneConfig, best_trial
from tuner.tuning.space import OFF, params_of, selection_of
from tuner.tuning.study import score_trial


@dataclass
class _Run:
    id: str
    model: str = "sim/careful"
    params: dict = field(default_factory=dict)


@dataclass
class _Prompt:
    tokens: int


@dataclass
class _Outcome:
    run: _Run
    prompt: _Prompt
    results: list
    new_calls: int = 0


def outcome(passes: dict[str, list[bool]], tokens=100, run_id="r") -> _Outcome:
    results = [
        ResultRecord(eval_id=f"{cat}/e{i}", category=cat, sample_index=s, outcome="pass" if ok else "fail")
        for cat, oks in passes.items()
        for i, chunk in enumerate([oks[j : j + 2] for j in range(0, len(oks), 2)])
        for s, ok in enumerate(chunk)
    ]
    return _Outcome(_Run(run_id), _Prompt(tokens), results)


CONFIG = TuneConfig(
    category="actions",
    models=[{"model": "sim/careful"}],
    samples=2,
    tolerance=0.1,
    baseline="all-active",
    baseline_selection={},
    pool=["a.x", "b.y"],
    eval_ids=[],
)


def test_target_rate_and_no_regression_is_feasible():
    base = {"k": outcome({"actions": [False] * 8, "queries": [True] * 8})}
    trial = {"k": outcome({"actions": [True] * 6 + [False] * 2, "queries": [True] * 8}, tokens=80)}
    score = score_trial(CONFIG, trial, base)
    assert score.target == pytest.approx(0.75)
    assert score.constraint <= 0 and score.tokens == 80


def test_regression_elsewhere_is_infeasible():
    base = {"k": outcome({"actions": [False] * 8, "queries": [True] * 8})}
    trial = {"k": outcome({"actions": [True] * 8, "queries": [False] * 8})}
    score = score_trial(CONFIG, trial, base)
    assert score.target == 1.0 and score.constraint > 0


def test_best_trial_prefers_feasible_then_fewer_tokens():
    study = optuna.create_study(direction="maximize")
    for value, constraint, tokens in ((0.9, 0.5, 10), (0.8, -0.1, 300), (0.8, -0.1, 200), (0.5, -0.2, 50)):
        trial = study.ask()
        trial.set_user_attr("constraint", constraint)
        trial.set_user_attr("tokens", tokens)
        study.tell(trial, value)
    best = best_trial(study)
    assert best.value == 0.8 and best.user_attrs["tokens"] == 200


def test_params_roundtrip():
    params = params_of({"a.x": "terse"}, ["a.x", "b.y"])
    assert params == {"a.x": "terse", "b.y": OFF}
    assert selection_of(params) == {"a.x": "terse"}


def test_an_answer_lost_to_infrastructure_makes_the_trial_infeasible():
    base = {"k": outcome({"actions": [False] * 8, "queries": [True] * 8})}
    trial = outcome({"actions": [True] * 8, "queries": [True] * 8})
    trial.results[-1] = trial.results[-1].model_copy(update={"outcome": "infra"})  # a queries answer lost
    score = score_trial(CONFIG, {"k": trial}, base)
    assert score.constraint >= 1 and score.not_measured == ["sim/careful (simulator) · queries"]


def test_ties_go_to_the_fewest_changes_from_the_baseline():
    from optuna.distributions import CategoricalDistribution

    config = CONFIG.model_copy(update={"baseline_selection": {"a.x": "default"}})
    study = optuna.create_study(direction="maximize")
    study.set_user_attr("tuner_config", config.model_dump_json())
    dist = CategoricalDistribution([OFF, "default"])
    # Same value: the baseline itself (0 changes, 300 tokens) and a two-change selection (fewer tokens).
    for params, tokens in (({"a.x": "default", "b.y": OFF}, 300), ({"a.x": OFF, "b.y": "default"}, 100)):
        trial = optuna.trial.create_trial(
            params=params,
            distributions={"a.x": dist, "b.y": dist},
            value=0.5,
            user_attrs={"constraint": -1.0, "tokens": tokens},
        )
        study.add_trial(trial)
    assert best_trial(study).params == {"a.x": "default", "b.y": OFF}


def test_the_trial_constraint_is_the_drop_test_not_a_point_estimate():
    """Issue 28.1: trials were judged by a point estimate beyond the tolerance (``_violation``), which
    the calibrated function of docs/statistics.md was not; now they are judged by ``drop_tests`` itself."""
    base = {"k": outcome({"actions": [False] * 8, "queries": [True] * 8})}
    # Two flips of eight: -25 points, beyond the 10-point tolerance, but p = 0.25: not a drop established.
    trial = {"k": outcome({"actions": [True] * 8, "queries": [True] * 6 + [False] * 2})}
    score = score_trial(CONFIG, trial, base)
    assert score.constraint <= 0, "a point estimate alone made the trial infeasible"
    from tuner.stats import drop_tests

    [test] = drop_tests([(2, 0)])
    assert score.drops == {"sim/careful (simulator) · queries": test.p_adjusted}
    assert score.regressed == []


def test_fresh_samples_live_in_a_window_of_their_own_per_study():
    """Issue 28 (minor): fresh samples started at index 1,000 for every study, which a large
    screening's replicates reach; now each study has its own window far above them."""
    from tuner.engine import Plan, planned_looks
    from tuner.tuning import fresh_offset

    plan = Plan(
        rules=tuple(f"r{i}" for i in range(7)),
        evals={"actions": ("a/1", "a/2", "a/3")},
        models=("m",),
        budget_calls=200_000,
    )
    assert planned_looks(plan)[-1] > 1000  # what the former fixed offset met
    other = CONFIG.model_copy(update={"category": "queries"})
    assert min(fresh_offset(CONFIG), fresh_offset(other)) > planned_looks(plan)[-1]
    assert fresh_offset(CONFIG) != fresh_offset(other) and fresh_offset(CONFIG) < 2**31
    assert fresh_offset(CONFIG, "evidence") - fresh_offset(CONFIG) == 500_000
