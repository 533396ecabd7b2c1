"""Running a design's points: one prompt x one eval x one sample each, stored as points of the
design's experiment (``tuner.store.points``), not as a run per point.

Generation and grading are the runner's (same batching, cache, budget and retries); only the
record differs. Points already recorded with a pass/fail are kept and not bought again, so an
interrupted design resumes where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

from tuner.guidelines import RuleSet
from tuner.hashing import sha256_json
from tuner.runs.harness import Harness
from tuner.runs.jobs import Batch, Job, Progress, generate, grade_jobs, repair_turns
from tuner.runs.runner import inputs_hash
from tuner.store import PointRecord

__all__ = ["DesignPoint", "execute_points"]


@dataclass(frozen=True)
class DesignPoint:
    """The pool without ``dropped`` (``selection`` is what is left), on one eval, one sample."""

    selection: dict[str, str]
    dropped: tuple[str, ...]
    eval_id: str
    sample_index: int


@dataclass
class _Config:  # what jobs.generate reads of a run configuration
    spec: object


def _inputs_key(h: Harness, spec) -> str:
    return sha256_json({"suite": h.suite.hash, "grader": h.grader_hash, "inputs": inputs_hash(h, spec)})


def execute_points(
    h: Harness,
    exp_id: str,
    points: list[DesignPoint],
    specs: list,
    name: str = "design",
    progress: Progress | None = None,
) -> tuple[list[dict[str, PointRecord]], int]:
    """Per point ``{model key: its record}``, and the provider calls paid (retries included).

    ``exp_id`` must be a recorded experiment. Calls the budget refused are left out of the
    records (the same command makes them later) and raise ``BudgetSpentError`` at the end.
    """
    from tuner.errors import ProviderError

    if h.plan_hook is not None:  # the command's plan, shown (or only shown: --plan) before the first call
        from tuner.runs.runner import RunConfig

        hook, h.plan_hook = h.plan_hook, None
        hook(
            [
                RunConfig(
                    spec=spec,
                    rule_set=RuleSet.from_selection(name, pt.selection),
                    eval_ids=(pt.eval_id,),
                    sample_offset=pt.sample_index,
                )
                for pt in points
                for spec in specs
            ]
        )
    prompts, prepared = {}, []
    keys = {s.key: _inputs_key(h, s) for s in specs}
    recorded = h.store.design_points(exp_id)
    found: list[dict[str, PointRecord]] = [{} for _ in points]
    where: dict[tuple[str, str], int] = {}  # (prompt hash, model key) -> its index in ``prepared``
    todo: list[tuple[int, str, Job]] = []
    for i, pt in enumerate(points):
        key = tuple(sorted(pt.selection.items()))
        prompt = prompts.get(key)
        if prompt is None:
            prompt = prompts[key] = h.guidelines.compose(RuleSet.from_selection(name, pt.selection))
            h.store.save_prompt(prompt)
        for spec in specs:
            old = recorded.get((prompt.hash, spec.key, keys[spec.key], pt.eval_id, pt.sample_index))
            if old is not None and old.outcome != "infra":
                found[i][spec.key] = old
                continue
            index = where.get((prompt.hash, spec.key))
            if index is None:
                index = where[(prompt.hash, spec.key)] = len(prepared)
                prepared.append(Batch(_Config(spec), prompt, run=None, kept=[]))
            job = Job(index, pt.eval_id, pt.sample_index)
            prepared[index].jobs.append(job)
            todo.append((i, spec.key, job))
    generate(h, prepared, progress)
    fatal = next((j.completion.error for _, _, j in todo if j.completion is not None and j.completion.fatal), None)
    if fatal is not None:
        raise ProviderError(fatal)
    grade_jobs(h, prepared, progress)
    # With --turns N a point is the answer after the repair loop (its inputs key holds N).
    repair_turns(h, prepared, progress)
    new: list[PointRecord] = []
    paid = 0
    for i, model_key, job in todo:
        if job.completion is None or job.completion.status == "skipped" or job.result is None:
            continue  # refused by the budget: not observed
        r, pt = job.result, points[i]
        spec = next(s for s in specs if s.key == model_key)
        record = PointRecord(
            prompt_hash=prepared[job.config_index].prompt.hash,
            model_key=model_key,
            model=spec.model,
            inputs_key=keys[model_key],
            eval_id=pt.eval_id,
            category=r.category,
            sample_index=pt.sample_index,
            dropped=sorted(pt.dropped),
            outcome=r.outcome,
            failed_step=r.failed_step,
            error=r.error,
            response_key=r.response_key,
            grade_key=r.grade_key,
            prompt_tokens=r.prompt_tokens,
            completion_tokens=r.completion_tokens,
            cost_usd=r.cost_usd,
            attempts=r.attempts,
        )
        found[i][model_key] = record
        new.append(record)
        paid += (r.attempts if job.turns else job.completion.attempts) or 0
    h.store.record_points(exp_id, new)
    if h.budget is not None and h.budget.refused:
        from tuner.errors import BudgetSpentError

        raise BudgetSpentError(h.budget)
    return found, paid
