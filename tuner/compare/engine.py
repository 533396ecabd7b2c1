"""``compare``: run what is missing for both sides, pair the results, build the tested table.

Both sides × all models go through one ``execute_runs`` call, so generation shares one event loop
and grading one batch; runs already in the store (same prompt, model, evals, samples, offset) are
kept, so a repeated comparison costs nothing. A side given as a stored run is used as recorded (its
model, prompt, evals, samples and offset); the other side is then run for that model and those evals.
"""

from __future__ import annotations

from collections.abc import Callable

from tuner.compare.placebo import finalize_arms
from tuner.compare.sides import Side, file_label, resolve_side
from tuner.compare.table import Comparison, PlaceboArm, SideInfo, build_cells, finalize
from tuner.errors import InputError
from tuner.hashing import sha256_json, short
from tuner.runs.pairing import pair_results
from tuner.stats import ALPHA

__all__ = ["compare", "default_report_path", "placebo_cells"]

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
        raise InputError(
            f"the two runs are of different models ({recorded[0].model}, {recorded[1].model}); a comparison is per model"
        )
    run = recorded[0]
    if models_given and {s.key for s in specs} != {run.model_key}:
        raise InputError(
            f"run {short(run.id)} is of {run.model}; the other side must use the same model (drop --model/--models)"
        )
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
    at_turn: int | None = None,
    placebo: bool = False,
    placebo_seed: int = 0,
) -> Comparison:
    """Compare two sets or runs. ``h`` is a ``tuner.runs.Harness``.

    ``specs``: the models set sides run on. When a side is a stored run its model is used instead;
    ``models_given`` says the person chose ``specs`` (then they must match that run's model).
    ``at_turn``: with the repair loop (``h.turns`` above 1) the turn the verdicts are read at
    (default: the last); the report also gives every turn's verdicts.
    ``placebo``: add a placebo arm (``tuner.compare.placebo``) matched to the after set, its text
    drawn from ``placebo_seed``.
    """
    turns = getattr(h, "turns", 1)
    at = turns if at_turn is None else at_turn
    if not 1 <= at <= turns:
        raise InputError(f"--at-turn {at}: must be between 1 and --turns ({turns})")
    from tuner.runs import RunConfig, execute_runs

    b = resolve_side(h, before, before_offset, "--before")
    a = resolve_side(h, after, after_offset, "--after")
    if category is not None:
        h.suite.select(category=category)  # validates the name
    sides = [b, a]
    placebo_prompt = None
    if placebo:
        placebo_prompt, placebo_side = _placebo_side(h, a, placebo_seed)
        sides.append(placebo_side)
    specs, evals, k = _plan(h, b, a, specs, models_given, category, samples)
    jobs = [(i, side, spec) for i, side in enumerate(sides) if side.rule_set is not None for spec in specs]
    configs = [
        RunConfig(
            spec=spec,
            rule_set=side.rule_set,
            eval_ids=evals,
            samples=k,
            sample_offset=side.offset,
            prompt=placebo_prompt if i == 2 else None,
        )
        for i, side, spec in jobs
    ]
    executed = execute_runs(h, configs, progress) if configs else []
    outcomes = {(i, spec.key): o for (i, _, spec), o in zip(jobs, executed)}
    info = [SideInfo(token=s.token, label=s.label, kind=s.kind, offset=s.offset) for s in sides]
    wanted = set(evals)
    notes: list[str] = []
    recorded: list[tuple] = []  # (spec, before results, after results)
    placebo_recorded: list[tuple] = []  # (spec, placebo results, after results)
    for spec in specs:
        side_results = []
        for i, side in enumerate(sides):
            run, results = _side_run(h, outcomes, i, side, spec.key)
            info[i].runs[spec.label] = run.id
            info[i].prompts[spec.label] = run.prompt_hash
            if run.suite_hash != h.suite.hash:
                notes.append(f"run {short(run.id)} was graded against another suite version than the current one")
            if run.grader_hash != h.grader_hash:
                notes.append(
                    f"run {short(run.id)} was graded by another grader version than the current one "
                    "(grading code, toolchain or lint settings changed since)"
                )
            side_results.append([r for r in results if r.eval_id in wanted])
        recorded.append((spec, *side_results[:2]))
        if placebo_prompt is not None:  # placebo → after, paired like before → after
            placebo_recorded.append((spec, side_results[2], side_results[1]))
    cells = _cells(h, recorded, evals, k, b.offset, a.offset, at, notes)
    arm = None
    if placebo_prompt is not None:
        from tuner.guidelines import PLACEBO_DOMAIN

        placebo_cells = _cells(h, placebo_recorded, evals, k, a.offset, a.offset, at)
        cells, placebo_cells = finalize_arms(cells, placebo_cells, alpha)
        arm = PlaceboArm(
            matches=a.label,
            seed=placebo_seed,
            tokens=placebo_prompt.tokens,
            domain=PLACEBO_DOMAIN,
            side=info[2],
            cells=placebo_cells,
        )
    else:
        cells = finalize(cells, alpha)
    by_turn = (
        []
        if turns == 1
        else [_turn_row(h, recorded, evals, k, b.offset, a.offset, t, alpha) for t in range(1, turns + 1)]
    )
    runs = {"before": info[0].runs, "after": info[1].runs}
    if arm is not None:  # only then: a comparison without the arm keeps its identity
        runs["placebo"] = info[2].runs
    identity = sha256_json(runs if turns == 1 else {**runs, "at_turn": at})  # the verdicts differ by turn
    comparison = Comparison(
        before=info[0],
        after=info[1],
        samples=k,
        category=category,
        alpha=alpha,
        cells=cells,
        notes=sorted(set(notes)),
        identity=identity,
        turns=turns,
        at_turn=at,
        by_turn=by_turn,
        placebo=arm,
    )
    _record(h, comparison)
    return comparison


def _placebo_side(h, after: Side, seed: int):
    """(placebo prompt, its side): the after set's template and token count, rules of another domain."""
    from tuner.guidelines import RuleSet, placebo_name

    if after.rule_set is None:
        raise InputError(
            f"--placebo: --after {after.token!r} is a stored run; the placebo is matched to a rule set "
            "(name the set, or its published version, instead)"
        )
    prompt = h.guidelines.placebo(after.rule_set, seed)
    name = placebo_name(after.label, seed)
    # The set has no rules: what the run sends is ``prompt`` (its hash is the run's identity).
    rule_set = RuleSet(
        name=name,
        template=after.rule_set.template,
        description=f"length-matched placebo of {after.label} (seed {seed})",
    )
    return prompt, Side(token=name, label=name, rule_set=rule_set, offset=after.offset)


def placebo_cells(h, recorded: list[tuple], evals, k: int, offset: int, turn: int, alpha: float = ALPHA) -> list:
    """A placebo arm's cells, as ``compare --placebo`` makes them: ``recorded`` is ``(spec, placebo
    results, matched-set results)`` per model, both drawn at ``offset`` (paired by eval and sample
    index), read at ``turn``; one Benjamini–Hochberg family of their own (``tuner.compare.placebo``)."""
    return finalize(_cells(h, recorded, evals, k, offset, offset, turn), alpha)


def _cells(
    h,
    recorded: list[tuple],
    evals,
    k: int,
    before_offset: int,
    after_offset: int,
    turn: int,
    notes: list[str] | None = None,
) -> list:
    """The cells (not yet finalized) of the results as they stood after ``turn``; what the pairing
    noticed goes to ``notes`` when given."""
    from tuner.runs.repair import at_turn

    cells = []
    # Planned pairs come from the plan (evals x samples), not from what came back: an eval
    # whose every answer failed for infrastructure reasons must show as missing, not vanish.
    planned = {c: sum(1 for e in evals if h.suite.get(e).category == c) * k for c in h.suite.categories}
    categories = [c for c in h.suite.categories if planned[c]]
    for spec, before, after in recorded:
        before, after = at_turn(before, turn), at_turn(after, turn)
        by_cat = {
            c: pair_results(
                before, after, before_offset=before_offset, after_offset=after_offset, category=c, expected=planned[c]
            )
            for c in categories
        }
        overall = pair_results(
            before, after, before_offset=before_offset, after_offset=after_offset, expected=len(evals) * k
        )
        cells += build_cells(spec, by_cat, overall)
        if overall.repeated and notes is not None:
            notes.append(
                f"{spec.label}: {overall.repeated} of {overall.repeated + overall.pairs} pairs repeat an earlier "
                "pair's answers exactly (temperature 0 or a fixed seed): each counted once"
            )
    return cells


def _turn_row(h, recorded, evals, k, before_offset, after_offset, turn: int, alpha: float) -> dict:
    """One turn's verdicts, and the answers each side needed at that turn (its calls)."""
    cells = finalize(_cells(h, recorded, evals, k, before_offset, after_offset, turn), alpha)

    def answers(results) -> int:
        return sum(1 for r in results for t in (r.turns or [{"turn": 1}]) if t["turn"] == turn)

    return {
        "turn": turn,
        "calls": {"before": sum(answers(b) for _, b, _ in recorded), "after": sum(answers(a) for _, _, a in recorded)},
        "cells": [
            {
                "model": c.model_label,
                "category": c.category,
                "before": c.before.rate,
                "after": c.after.rate,
                "delta": c.delta,
                "q": c.q_value,
                "verdict": c.verdict,
            }
            for c in cells
        ],
    }


def _record(h, c: Comparison) -> None:
    """The comparison as an experiment (its id: both sides' run ids), linked to its runs."""
    config = {
        "before": c.before.token,
        "after": c.after.token,
        "category": c.category,
        "samples": c.samples,
        "models": sorted(c.before.runs),
    }
    if c.turns > 1:
        config.update(turns=c.turns, at_turn=c.at_turn)
    if c.placebo is not None:
        config["placebo"] = {"seed": c.placebo.seed, "tokens": c.placebo.tokens, "domain": c.placebo.domain}
    # The cells are the comparison's answer: recorded, so the viewer shows them as decided here.
    result = {
        "regressions": len(c.regressions),
        "improvements": len(c.improvements),
        "not_measured": len(c.not_measured),
        "exit_code": c.exit_code,
        "cells": [cell.model_dump(mode="json") for cell in c.cells],
    }
    if c.by_turn:
        result["by_turn"] = c.by_turn
    if c.placebo is not None:
        result["placebo"] = c.placebo.model_dump(mode="json")
        result["helps"] = [row.model_dump(mode="json") for row in c.helps]
    h.store.save_experiment(c.identity, f"{c.before.label} vs {c.after.label}", "compare", config, result=result)
    h.store.link_runs(c.identity, c.before.runs.values(), "before")
    h.store.link_runs(c.identity, c.after.runs.values(), "after")
    if c.placebo is not None:
        h.store.link_runs(c.identity, c.placebo.side.runs.values(), "placebo")


def default_report_path(h, comparison: Comparison):
    """``reports/compare/<before>_vs_<after>_<hash8>.md``."""
    b = Side(token=comparison.before.token, label=comparison.before.label)
    a = Side(token=comparison.after.token, label=comparison.after.label)
    return h.project.reports / "compare" / f"{file_label(b)}_vs_{file_label(a)}_{short(comparison.identity, 8)}.md"
