"""``compare``: run what is missing for both sides, pair the results, build the tested table.

Both sides × all models go through one ``execute_runs`` call, so generation shares one event loop
and grading one batch; runs already in the store (same prompt, model, evals, samples, offset) are
kept, so a repeated comparison costs nothing. A side given as a stored run is used as recorded (its
model, prompt, evals, samples and offset); the other side is then run for that model and those evals.
"""

from __future__ import annotations

from collections.abc import Callable

from tuner.runs.pairing import pair_results
from tuner.compare.sides import Side, file_label, resolve_side
from tuner.compare.table import Comparison, SideInfo, build_cells, finalize
from tuner.errors import InputError
from tuner.hashing import sha256_json, short
from tuner.stats import ALPHA

__all__ = ["compare", "default_report_path"]

Progress = Callable[[str, int, int], None]


def _spec_of(run):
    """The model of a stored run, called as it was (api_base, concurrency, retries, timeout)."""
    from tuner.models import ModelSpec

    return ModelSpec(model=run.model, params=run.params, **(run.call_settings or {}))


def _plan(h, before: Side, after: Side, specs: list, models_given: bool, category: str | None, samples: int):
    """(specs, eval ids, samples) the set sides are run with."""
    recorded = [s.run for s in (before, after) if s.run is not None]
    if not recorded:
        evals = tuple(e.id for e in h.suite.select(category=category))
        return specs, evals, samples
    if len({r.model_key for r in recorded}) > 1:
        raise InputError(f"the two runs are of different models ({recorded[0].model}, {recorded[1].model}); a comparison is per model")
    run = recorded[0]
    if models_given and {s.key for s in specs} != {run.model_key}:
        raise InputError(f"run {short(run.id)} is of {run.model}; the other side must use the same model (drop --model/--models)")
    evals = tuple(e for e in run.eval_ids if category is None or h.suite.get(e).category == category)
    if not evals:
        raise InputError(f"run {short(run.id)} has no eval in category '{category}'")
    for other in recorded[1:]:
        evals = tuple(e for e in evals if e in set(other.eval_ids))
    return [_spec_of(run)], evals, run.samples


def _side_run(h, outcomes: dict, index: int, side: Side, model: str):
    """(run record, results) of one side for one model."""
    if side.run is not None:
        return side.run, h.store.results(side.run.id)
    outcome = outcomes[(index, model)]
    return outcome.run, outcome.results


def compare(
    h,
    before: str,
    after: str,
    specs: list,
    *,
    category: str | None = None,
    samples: int = 3,
    before_offset: int = 0,
    after_offset: int = 0,
    models_given: bool = True,
    alpha: float = ALPHA,
    progress: Progress | None = None,
) -> Comparison:
    """Compare two sets or runs. ``h`` is a ``tuner.runs.Harness``.

    ``specs``: the models set sides run on. When a side is a stored run its model is used instead;
    ``models_given`` says the person chose ``specs`` (then they must match that run's model).
    """
    from tuner.runs import RunConfig, execute_runs

    b = resolve_side(h, before, before_offset, "--before")
    a = resolve_side(h, after, after_offset, "--after")
    if category is not None:
        h.suite.select(category=category)  # validates the name
    specs, evals, k = _plan(h, b, a, specs, models_given, category, samples)
    jobs = [(i, side, spec) for i, side in enumerate((b, a)) if side.rule_set is not None for spec in specs]
    configs = [RunConfig(spec=spec, rule_set=side.rule_set, eval_ids=evals, samples=k, sample_offset=side.offset) for _, side, spec in jobs]
    executed = execute_runs(h, configs, progress) if configs else []
    outcomes = {(i, spec.key): o for (i, _, spec), o in zip(jobs, executed)}
    info = [SideInfo(token=s.token, label=s.label, kind=s.kind, offset=s.offset) for s in (b, a)]
    wanted = set(evals)
    cells, notes = [], []
    for spec in specs:
        side_results = []
        for i, side in enumerate((b, a)):
            run, results = _side_run(h, outcomes, i, side, spec.key)
            info[i].runs[spec.label] = run.id
            info[i].prompts[spec.label] = run.prompt_hash
            if run.suite_hash != h.suite.hash:
                notes.append(f"run {short(run.id)} was graded against another suite version than the current one")
            if run.grader_hash != h.grader_hash:
                notes.append(f"run {short(run.id)} was graded by another grader version than the current one "
                             "(grading code, toolchain or lint settings changed since)")
            side_results.append([r for r in results if r.eval_id in wanted])
        # Planned pairs come from the plan (evals x samples), not from what came back: an eval
        # whose every answer failed for infrastructure reasons must show as missing, not vanish.
        planned = {c: sum(1 for e in evals if h.suite.get(e).category == c) * k for c in h.suite.categories}
        categories = [c for c in h.suite.categories if planned[c]]
        by_cat = {c: pair_results(*side_results, before_offset=b.offset, after_offset=a.offset, category=c,
                                  expected=planned[c]) for c in categories}
        overall = pair_results(*side_results, before_offset=b.offset, after_offset=a.offset, expected=len(evals) * k)
        cells += build_cells(spec, by_cat, overall)
        if overall.repeated:
            notes.append(f"{spec.label}: {overall.repeated} of {overall.repeated + overall.pairs} pairs repeat an earlier "
                         "pair's answers exactly (temperature 0 or a fixed seed): each counted once")
    identity = sha256_json({"before": info[0].runs, "after": info[1].runs})
    comparison = Comparison(
        before=info[0], after=info[1], samples=k, category=category, alpha=alpha,
        cells=finalize(cells, alpha), notes=sorted(set(notes)), identity=identity,
    )
    _record(h, comparison)
    return comparison


def _record(h, c: Comparison) -> None:
    """The comparison as an experiment (its id: both sides' run ids), linked to its runs."""
    config = {"before": c.before.token, "after": c.after.token, "category": c.category, "samples": c.samples,
              "models": sorted(c.before.runs)}
    # The cells are the comparison's answer: recorded, so the viewer shows them as decided here.
    result = {"regressions": len(c.regressions), "improvements": len(c.improvements),
              "not_measured": len(c.not_measured), "exit_code": c.exit_code,
              "cells": [cell.model_dump(mode="json") for cell in c.cells]}
    h.store.save_experiment(c.identity, f"{c.before.label} vs {c.after.label}", "compare", config, result=result)
    h.store.link_runs(c.identity, c.before.runs.values(), "before")
    h.store.link_runs(c.identity, c.after.runs.values(), "after")


def default_report_path(h, comparison: Comparison):
    """``reports/compare/<before>_vs_<after>_<hash8>.md``."""
    b = Side(token=comparison.before.token, label=comparison.before.label)
    a = Side(token=comparison.after.token, label=comparison.after.label)
    return h.project.reports / "compare" / f"{file_label(b)}_vs_{file_label(a)}_{short(comparison.identity, 8)}.md"
