"""How a measured selection is judged against the baseline: the regression check's score.

A selection measured on every tuning eval has a value (the target category's pooled pass rate)
and a constraint: whether a drop is established in any other model × category against the
baseline (``tuner.stats.drop_tests``: the exact one-sided McNemar test per cell, Benjamini-Hochberg
across the family), so a selection that changes nothing elsewhere is refused by noise at most 5% of
the time however many categories the suite has. The constraint is ``alpha`` minus the smallest
BH-adjusted p (feasible when <= 0). It is a cheap filter, not the guarantee: it sees the check's few
samples, and the acceptance looks again on fresh ones (docs/tune-and-publish.md, *When tune offers a
winner*, gives its rates). A selection with any answer lost to an infrastructure failure (on its side
or the baseline's) is not measured and infeasible: an outage must never make a selection look harmless.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from tuner.compare.rates import model_label
from tuner.runs import outcomes_by_task, pair_outcomes
from tuner.stats import ALPHA, drop_counts, drop_tests, pair_interval
from tuner.tuning.config import TuneConfig
from tuner.tuning.evidence import by_category

__all__ = ["TrialScore", "score_trial", "specs_of", "unmeasured_cells"]


class TrialScore(BaseModel):
    """One measured selection against the baseline (recorded on its trial as user attributes)."""

    target: float | None = Field(description="The target category's pooled pass rate; None when nothing was measured.")
    constraint: float = Field(
        description="alpha minus the smallest BH-adjusted p of a drop elsewhere (feasible when "
        "<= 0); at least 1 when not measured."
    )
    tokens: int = Field(description="The selection's prompt tokens.")
    deltas: dict[str, dict[str, float | None]] = Field(description="Model label -> category -> paired point estimate.")
    run_ids: list[str] = Field(description="The selection's runs, one per model.")
    calls: int = Field(description="Provider calls paid for it now (replays from the caches are free).")
    not_measured: list[str] = Field(
        default=[], description="'model · category' cells with an answer lost to an infrastructure failure."
    )
    drops: dict[str, float] = Field(
        default={}, description="'model · category' (the other categories) -> BH-adjusted p of a drop."
    )
    regressed: list[str] = Field(default=[], description="The cells whose drop is established.")


def specs_of(config: TuneConfig) -> list:
    from tuner.models import ModelSpec

    return [ModelSpec.model_validate(m) for m in config.models]


def unmeasured_cells(
    config: TuneConfig, runs: dict, samples: int | None = None, n_evals: int | None = None
) -> list[str]:
    """``model · category`` cells of ``runs`` ({model key: RunOutcome}) missing an answer or holding an
    infrastructure failure (``"model · all"`` when results are missing outright). ``n_evals``: the
    evals the runs were planned on (default: every tuning eval)."""
    cells = []
    for outcome in runs.values():
        label = model_label(outcome.run.model, outcome.run.params)
        cells += sorted({f"{label} · {r.category}" for r in outcome.results if r.outcome == "infra"})
        if len(outcome.results) < (n_evals or len(config.eval_ids)) * (samples or config.samples):
            cells.append(f"{label} · all")
    return sorted(set(cells))


def score_trial(config: TuneConfig, trial_runs: dict, base_runs: dict, samples: int | None = None) -> TrialScore:
    """The selection's value and its constraint (module doc)."""
    passes = total = 0
    deltas: dict[str, dict[str, float | None]] = {}
    categories = sorted({r.category for o in base_runs.values() for r in o.results})
    missing = unmeasured_cells(config, trial_runs, samples)
    cells, counts = [], []
    for key, outcome in trial_runs.items():
        table = outcomes_by_task(outcome.results, config.category)
        passes += sum(sum(v) for v in table.values())
        total += sum(len(v) for v in table.values())
        label = model_label(outcome.run.model, outcome.run.params)
        model_deltas = deltas.setdefault(label, {})
        base_by, trial_by = by_category(base_runs[key].results), by_category(outcome.results)
        for cat in categories:
            before, after = pair_outcomes(base_by.get(cat, []), trial_by.get(cat, []), cat)
            interval = pair_interval(before, after)
            if interval is None:
                continue
            model_deltas[cat] = interval[0]
            if cat != config.category:
                cells.append(f"{label} · {cat}")
                counts.append(drop_counts(before, after))
    tests = drop_tests(counts)
    constraint = max((ALPHA - t.p_adjusted for t in tests), default=-ALPHA)
    first = next(iter(trial_runs.values()))
    if missing:
        constraint = max(constraint, 1.0)
    return TrialScore(
        target=(passes / total) if total else None,
        constraint=constraint,
        not_measured=missing,
        tokens=first.prompt.tokens,
        deltas=deltas,
        run_ids=[o.run.id for o in trial_runs.values()],
        calls=sum(o.new_calls for o in trial_runs.values()),
        drops={cell: t.p_adjusted for cell, t in zip(cells, tests)},
        regressed=[cell for cell, t in zip(cells, tests) if t.regressed],
    )
