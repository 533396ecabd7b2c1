"""Running guideline variants on models: compose → generate → parse → grade → store.

``execute_runs`` takes many run configurations at once so that generation shares one event loop
(bounded per model) and grading shares one batch. A run is addressed by its content hash; results
already recorded for it (pass or fail) are kept and not bought again, infrastructure failures are
retried. Nothing here raises for a bad sample: it is recorded.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from tuner.guidelines import Prompt, RuleSet
from tuner.runs.harness import Harness
from tuner.runs.jobs import Batch, Job, Progress, generate, grade_jobs, repair_turns
from tuner.store import ResultRecord, RunRecord, RunSpec

__all__ = ["RunConfig", "RunOutcome", "execute_runs", "summarize", "outcomes_by_task", "run_selections", "inputs_hash"]


class RunConfig(BaseModel):
    """One model × one rule set × some evals × K samples."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    spec: object  # tuner.models.ModelSpec (kept loose so this module imports no model code)
    rule_set: RuleSet
    eval_ids: tuple[str, ...]
    samples: int = 1
    sample_offset: int = 0
    experiment_id: str | None = None
    # The exact prompt to send, when it is not what ``rule_set`` composes to today (a published
    # version whose rule texts or template have since been edited).
    prompt: Prompt | None = None


@dataclass
class RunOutcome:
    run: RunRecord
    prompt: Prompt
    results: list[ResultRecord]
    summary: dict
    new_calls: int = 0


def inputs_hash(h: Harness, spec) -> str:
    """What reaches the model or decides a simulated answer besides the prompt and the task texts
    (which the suite hash covers): the answer-format text, the tools offered (the structured
    answer format) and, for ``sim/*``, the simulator's planted truth. Part of the run id, so
    editing any of them never replays a stale run."""
    from tuner.hashing import sha256_json

    parts = {"answer_format": h.suite.answer_instructions()}
    tools = h.suite.answer_tools()
    if tools:  # absent for text answers: their runs keep the ids they had
        parts["tools"] = list(tools)
    if spec.is_sim:
        from tuner.models.sim.world import fingerprint

        parts["sim"] = fingerprint(spec.params.get("sim_file"), h.suite.root)
    from tuner.runs.repair import repair_identity

    repair = repair_identity(getattr(h, "turns", 1))
    if repair:  # absent at one turn: those runs keep the ids they had
        parts["repair"] = repair
    return sha256_json(parts)


def _prepare(h: Harness, index: int, config: RunConfig) -> Batch:
    prompt = config.prompt or h.guidelines.compose(config.rule_set)
    h.store.save_prompt(prompt)
    spec = RunSpec(
        experiment_id=config.experiment_id,
        prompt_hash=prompt.hash,
        set_name=config.rule_set.name,
        model=config.spec.model,
        model_key=config.spec.key,
        params=config.spec.params,
        suite=h.suite.manifest.name,
        suite_hash=h.suite.hash,
        grader_hash=h.grader_hash,
        eval_ids=list(config.eval_ids),
        samples=config.samples,
        sample_offset=config.sample_offset,
        git_rev=h.git_rev,
        inputs_hash=inputs_hash(h, config.spec),
        call_settings=config.spec.model_dump(
            include={"api_base", "concurrency", "rpm", "timeout_s", "max_retries", "backoff_s"}
        ),
    )
    run = h.store.start_run(spec)
    done = {(r.eval_id, r.sample_index): r for r in h.store.results(run.id) if r.outcome != "infra"}
    prepared = Batch(config, prompt, run, kept=list(done.values()))
    for eval_id in config.eval_ids:
        for sample in range(config.sample_offset, config.sample_offset + config.samples):
            if (eval_id, sample) not in done:
                prepared.jobs.append(Job(index, eval_id, sample))
    return prepared


def summarize(results: list[ResultRecord]) -> dict:
    """Counts and pass rates (with 95% intervals, evals as the unit) per category and overall;
    infra failures are excluded from rates."""
    by_cat: dict[str, Counter] = {}
    for r in results:
        by_cat.setdefault(r.category, Counter())[r.outcome] += 1
    total = sum(by_cat.values(), Counter())

    def rate(c: Counter, category: str | None) -> dict:
        from tuner.stats import rate_interval

        scored = c["pass"] + c["fail"]
        est = rate_interval(outcomes_by_task(results, category))
        return {
            "pass": c["pass"],
            "fail": c["fail"],
            "infra": c["infra"],
            "pass_rate": (c["pass"] / scored) if scored else None,
            "lo": est.lo,
            "hi": est.hi,
        }

    return {"categories": {k: rate(v, k) for k, v in sorted(by_cat.items())}, "overall": rate(total, None)}


def outcomes_by_task(results: list[ResultRecord], category: str | None = None) -> dict[str, list[bool]]:
    """``{eval_id: [passed, ...]}`` in sample order, infrastructure failures left out (for stats)."""
    table: dict[str, list[tuple[int, bool]]] = {}
    for r in results:
        if r.outcome != "infra" and (category is None or r.category == category):
            table.setdefault(r.eval_id, []).append((r.sample_index, r.outcome == "pass"))
    return {k: [ok for _, ok in sorted(v)] for k, v in sorted(table.items())}


def execute_runs(
    h: Harness, configs: list[RunConfig], progress: Progress | None = None, *, on_start=None
) -> list[RunOutcome]:
    """Outcomes in the order of ``configs``. Configurations that are the same run (same hash) are
    generated and graded once and share the outcome. ``on_start(run ids)`` is told the runs once they
    are recorded, before any call (an experiment links them then, so an interrupted one keeps them)."""
    _check_models(h, configs)
    if h.plan_hook is not None:  # the command's plan, shown (or only shown: --plan) before the first call
        hook, h.plan_hook = h.plan_hook, None
        hook(configs)
    prepared: list[Batch] = []
    run_ids: list[str] = []
    for config in configs:
        p = _prepare(h, len(prepared), config)
        if p.run.id not in run_ids:
            prepared.append(p)
        run_ids.append(p.run.id)
    if on_start is not None:
        on_start(list(dict.fromkeys(run_ids)))
    generate(h, prepared, progress)
    _stop_on_unusable_model(h, prepared)
    grade_jobs(h, prepared, progress)
    repair_turns(h, prepared, progress)
    finished: dict[str, RunOutcome] = {}
    for p in prepared:
        new = [job.result for job in p.jobs]
        h.store.record_results(p.run.id, new)
        results = h.store.results(p.run.id)
        summary = summarize(results)
        calls = sum(getattr(job.completion, "attempts", 0) for job in p.jobs)
        paid = [j.completion for j in p.jobs if j.completion.attempts]
        summary["calls"] = {
            "new_results": len(new),
            "kept": len(p.kept),
            "provider_calls": calls,
            "response_cache_hits": sum(1 for j in p.jobs if j.completion.cached),
            "tokens_in": sum(c.prompt_tokens or 0 for c in paid),
            "tokens_out": sum(c.completion_tokens or 0 for c in paid),
            "cost_usd": _cost(paid),
        }
        if any(j.turns for j in p.jobs):  # the repair loop: every turn's calls, not only the last's
            from tuner.runs.repair import turns_paid

            calls = summary["calls"]["provider_calls"] = sum(t["attempts"] for j in p.jobs for t in j.turns)
            summary["calls"].update(turns_paid(p.jobs, paid))
        if getattr(h, "turns", 1) > 1:
            from tuner.runs.repair import turn_summaries

            summary["repair"] = turn_summaries(results, h.turns)
        missing = len(results) < len(p.config.eval_ids) * p.config.samples
        status = "partial" if summary["overall"]["infra"] or missing else "complete"
        h.store.finish_run(p.run.id, status, summary)
        finished[p.run.id] = RunOutcome(h.store.run(p.run.id), p.prompt, results, summary, new_calls=calls)
    if h.budget is not None and h.budget.refused:
        from tuner.errors import BudgetSpentError

        raise BudgetSpentError(h.budget)
    return [finished[run_id] for run_id in run_ids]


def _cost(paid: list) -> float | None:
    """USD of these calls; None when one of them (not simulated) has no price in litellm's map."""
    if any(c.cost_usd is None and not c.model.startswith("sim/") for c in paid):
        return None
    return round(sum(c.cost_usd or 0.0 for c in paid), 6)


def _check_models(h: Harness, configs: list[RunConfig]) -> None:
    """Every model must be usable before anything is written (no run row, no cache file)."""
    from tuner.models import check_models

    check_models(list({c.spec.key: c.spec for c in configs}.values()), h.suite.root)


def _stop_on_unusable_model(h: Harness, prepared: list[Batch]) -> None:
    """A model every call of which fails for the same account-level reason (bad key, no access,
    unknown model) stops the work at once: what was tried is recorded, the run stays incomplete."""
    from tuner.errors import ProviderError

    fatal = next(
        (j.completion.error for p in prepared for j in p.jobs if j.completion is not None and j.completion.fatal), None
    )
    if fatal is None:
        return
    for p in prepared:
        h.store.record_results(p.run.id, [_infra_record(h, job) for job in p.jobs])
        h.store.finish_run(p.run.id, "partial", summarize(h.store.results(p.run.id)))
    raise ProviderError(fatal)


def _infra_record(h: Harness, job: Job) -> ResultRecord:
    c = job.completion
    return ResultRecord(
        eval_id=job.eval_id,
        category=h.suite.get(job.eval_id).category,
        sample_index=job.sample_index,
        outcome="infra",
        error=c.error if c.status != "ok" else "not graded: the run stopped",
        messages=job.messages or None,
        attempts=c.attempts,
    )


def run_selections(
    h: Harness,
    selections: list[tuple[str, dict[str, str]]],
    specs: list,
    eval_ids: list[str],
    *,
    samples: int,
    sample_offset: int = 0,
    experiment_id: str | None = None,
    progress: Progress | None = None,
) -> list[dict[str, RunOutcome]]:
    """Run each named selection ({rule: variant}) on every model; per selection ``{model key: outcome}``.

    Everything goes through one ``execute_runs`` call, so generation and grading are batched.
    """
    configs = [
        RunConfig(
            spec=spec,
            rule_set=RuleSet.from_selection(name, selection),
            eval_ids=tuple(eval_ids),
            samples=samples,
            sample_offset=sample_offset,
            experiment_id=experiment_id,
        )
        for name, selection in selections
        for spec in specs
    ]
    outcomes = execute_runs(h, configs, progress)
    grouped: list[dict[str, RunOutcome]] = []
    for i in range(len(selections)):
        chunk = outcomes[i * len(specs) : (i + 1) * len(specs)]
        grouped.append({spec.key: o for spec, o in zip(specs, chunk)})
    return grouped
