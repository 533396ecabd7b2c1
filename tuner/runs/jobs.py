"""Making a batch's calls and grading their answers: what a run (``runner``) and a design's points
(``points``) share. One event loop over every job's call (bounded per model, within the command's
budget), one grading batch over every parsed answer; nothing here raises for a bad sample. With a
cluster (``Harness.cluster``) the attempts and the grading run on its workers, everything else here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tuner.runs.harness import Harness
from tuner.store import ResultRecord, RunRecord, StepRecord

if TYPE_CHECKING:
    from tuner.guidelines import Prompt

__all__ = ["Batch", "Job", "Progress", "generate", "grade_jobs", "recorded_messages", "repair_turns"]

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class Job:
    """One call: an eval and sample of the batch at ``config_index``; its completion and result."""

    config_index: int
    eval_id: str
    sample_index: int
    completion: object | None = None
    result: ResultRecord | None = None
    messages: list[dict] = field(default_factory=list)
    # The repair loop (``tuner.runs.repair``): the messages to send when they are not the first
    # turn's (the exchange so far), which turn this is, and the turns already graded.
    sent: tuple[dict, ...] | None = None
    turn: int = 1
    turns: list[dict] = field(default_factory=list)


def recorded_messages(messages, prompt_hash: str) -> list[dict]:
    """The messages as stored: the system prompt by its hash (stored once in ``prompts``), the
    rest verbatim. ``Store.chat_messages`` turns them back into exactly what was sent."""
    return [{"role": "system", "prompt_hash": prompt_hash} if m["role"] == "system" else dict(m) for m in messages]


@dataclass
class Batch:
    """One run configuration's prompt and the jobs still to make (``run`` None for design points)."""

    config: object  # runner.RunConfig, or what points passes (spec only)
    prompt: Prompt
    run: RunRecord
    kept: list[ResultRecord]
    jobs: list[Job] = field(default_factory=list)


def generate(h: Harness, batches: list[Batch], progress: Progress | None) -> None:
    from tuner.models import CompletionRequest, complete_all, user_message

    jobs = [job for p in batches for job in p.jobs]
    if not jobs:
        return
    requests = []
    output_format, tools = h.suite.answer_instructions(), h.suite.answer_tools()
    for job in jobs:
        p = batches[job.config_index]
        if job.sent is not None:  # a repair turn: the whole exchange so far
            requests.append(
                CompletionRequest(
                    spec=p.config.spec,
                    messages=job.sent,
                    sample_index=job.sample_index,
                    sim_suite=str(h.suite.root),
                    tools=tools,
                )
            )
        else:
            user = user_message(h.suite.get(job.eval_id).task, output_format)
            requests.append(
                CompletionRequest.chat(
                    p.config.spec,
                    p.prompt.text,
                    user,
                    sample_index=job.sample_index,
                    sim_suite=str(h.suite.root),
                    tools=tools,
                )
            )
        job.messages = recorded_messages(requests[-1].messages, p.prompt.hash)
    counter = {"n": 0}

    def tick(_completion) -> None:
        counter["n"] += 1
        if progress:
            progress("generate", counter["n"], len(requests))

    call = None
    if h.cluster is not None:  # the attempts are made on the cluster's workers; grants, cache and order stay here
        h.cluster.ready()
        call = h.cluster.call
    for job, completion in zip(
        jobs, complete_all(requests, cache=h.response_cache, progress=tick, budget=h.budget, call=call)
    ):
        job.completion = completion
    for p in batches:  # calls the budget refused are not results: the same command makes them later
        p.jobs = [job for job in p.jobs if job.completion.status != "skipped"]


def _answer_record(h: Harness, job: Job) -> tuple[ResultRecord, dict[str, str] | None, list[str]]:
    """The result of a job before grading, the files to grade (None: nothing to grade) and the
    warnings the answer's reading gave (for the first step)."""
    from tuner.models import read_answer

    c = job.completion
    kind = h.suite.kind
    base = dict(
        eval_id=job.eval_id,
        category=h.suite.get(job.eval_id).category,
        sample_index=job.sample_index,
        prompt_tokens=c.prompt_tokens,
        completion_tokens=c.completion_tokens,
        cost_usd=c.cost_usd,
        latency_s=c.latency_s,
        response_key=c.cache_key,
        messages=job.messages or None,
        response_model=c.response_model,
        finish_reason=c.finish_reason,
        attempts=c.attempts,
        tool_calls=c.tool_calls or None,
    )
    if c.status != "ok":
        return ResultRecord(**base, output=c.text or None, outcome="infra", error=c.error), None, []
    # A recorded answer holds something even when its text is empty (reasoning, tool calls): the
    # empty string, not null, so it is still a session (the sessions list skips null outputs).
    answer = read_answer(
        c.text,
        extensions=kind.answer_extensions,
        roots=kind.answer_roots,
        reasoning=c.reasoning,
        tool_calls=c.tool_calls,
        finish_reason=c.finish_reason,
    )
    base.update(output=answer.answer, reasoning=answer.reasoning)
    warnings = [f"answer: {w}" for w in answer.warnings]
    if answer.error:
        first = kind.steps[0]  # an unreadable or cut-off answer fails the kind's first step
        step = StepRecord(name=first, status="fail", detail=answer.error, warnings=warnings or None)
        return (
            ResultRecord(
                **base, outcome="fail", failed_step=first, error=answer.error, files=answer.files or None, steps=[step]
            ),
            None,
            warnings,
        )
    return ResultRecord(**base, outcome="fail", files=answer.files), answer.files, warnings


def grade_jobs(h: Harness, batches: list[Batch], progress: Progress | None) -> None:
    from tuner.grading import GradeRequest
    from tuner.suites import grade

    to_grade: list[tuple[Job, object, list[str]]] = []
    for p in batches:
        for job in p.jobs:
            job.result, files, warnings = _answer_record(h, job)
            if files is not None:
                to_grade.append((job, GradeRequest(eval=h.suite.get(job.eval_id), files=files), warnings))
    if not to_grade:
        return
    tick = (lambda done, total: progress("grade", done, total)) if progress else None
    requests = [req for _, req, _ in to_grade]
    if h.cluster is not None:
        grades = h.cluster.grade(h, requests, progress=tick)
    else:
        grades = grade(h.project, requests, use_cache=h.use_cache, suite=h.suite, progress=tick)
    for (job, _, warnings), g in zip(to_grade, grades):
        steps = [
            StepRecord(
                name=s.name,
                status=s.status,
                duration_s=s.duration_s,
                detail=s.detail or None,
                warnings=list(s.warnings) or None,
            )
            for s in g.steps
        ]
        if warnings and steps:  # what the reading of the answer left out or chose, beside the first step's own
            steps[0] = steps[0].model_copy(update={"warnings": [*warnings, *(steps[0].warnings or [])]})
        job.result = job.result.model_copy(
            update=dict(
                outcome="infra" if g.infra_error else ("pass" if g.passed else "fail"),
                failed_step=g.failed_step,
                error=g.infra_error,
                tests_passed=g.tests_passed,
                tests_total=g.tests_total,
                grade_key=g.cache_key,
                steps=steps,
            )
        )


def _sent_messages(h: Harness, batch: Batch, job: Job) -> tuple[dict, ...]:
    """What was sent for ``job``'s last turn (the first turn's messages are rebuilt, verbatim)."""
    if job.sent is not None:
        return job.sent
    from tuner.models import build_messages, user_message

    user = user_message(h.suite.get(job.eval_id).task, h.suite.answer_instructions())
    return tuple(build_messages(batch.prompt.text, user))


def _assistant_messages(completion) -> list[dict]:
    """The answer as the next turn's history: its text, and its tool calls each with a result."""
    if not completion.tool_calls:
        return [{"role": "assistant", "content": completion.text}]
    calls = [
        {
            "id": c.get("id") or f"call_{i}",
            "type": "function",
            "function": {"name": c.get("name"), "arguments": c.get("arguments") or "{}"},
        }
        for i, c in enumerate(completion.tool_calls)
    ]
    return [
        {"role": "assistant", "content": completion.text or None, "tool_calls": calls},
        *({"role": "tool", "tool_call_id": c["id"], "content": "written"} for c in calls),
    ]


def _turn_entry(job: Job, roots) -> dict:
    from tuner.runs.repair import feedback_message

    r, c = job.result, job.completion
    entry = {
        "turn": job.turn,
        "outcome": r.outcome,
        "failed_step": r.failed_step,
        "attempts": c.attempts if c else 0,
        "prompt_tokens": r.prompt_tokens,
        "completion_tokens": r.completion_tokens,
        "response_key": r.response_key,
        "grade_key": r.grade_key,
        "cost_usd": (c.cost_usd if c.attempts else 0.0) if c else 0.0,
    }
    if r.outcome == "fail":
        entry["feedback"] = feedback_message(r, roots)
    elif r.outcome == "infra":
        entry["error"] = r.error
    return entry


def _merge(previous: ResultRecord | None, job: Job) -> ResultRecord:
    """The result after this turn: its answer and grade, every turn so far, calls and tokens summed."""
    r = job.result
    update: dict = {"turns": list(job.turns), "pass_turn": job.turn if r.outcome == "pass" else None}
    if previous is not None:
        for name in ("prompt_tokens", "completion_tokens", "attempts"):
            values = [v for v in (getattr(previous, name), getattr(r, name)) if v is not None]
            update[name] = sum(values) if values else None
        if previous.cost_usd is not None or r.cost_usd is not None:
            update["cost_usd"] = (previous.cost_usd or 0.0) + (r.cost_usd or 0.0)
    return r.model_copy(update=update)


def repair_turns(h: Harness, batches: list[Batch], progress: Progress | None) -> None:
    """Turns 2..N of the repair loop over graded ``batches`` (nothing at one turn): every failed
    answer is shown its failed step and error and answered again. A turn the budget refused drops
    the job (not a result: the same command makes it later, its earlier turns from the cache); a
    turn the provider lost ends the job as infra, its earlier turns kept in ``turns``."""
    turns = getattr(h, "turns", 1)
    if turns <= 1:
        return
    roots = [h.project.root, h.suite.root]
    for p in batches:
        for job in p.jobs:
            if job.result is not None:
                job.turns = [_turn_entry(job, roots)]
                job.result = _merge(None, job)
    for turn in range(2, turns + 1):
        subs = []
        previous: dict[int, ResultRecord] = {}
        for p in batches:
            again = [j for j in p.jobs if j.result is not None and j.result.outcome == "fail"]
            for job in again:
                previous[id(job)] = job.result
                job.sent = (
                    *_sent_messages(h, p, job),
                    *_assistant_messages(job.completion),
                    {"role": "user", "content": job.turns[-1]["feedback"]},
                )
                job.turn = turn
            subs.append(Batch(p.config, p.prompt, p.run, [], jobs=again))
        if not previous:
            return
        generate(h, subs, progress)
        kept = {id(j) for s in subs for j in s.jobs}
        for p in batches:  # refused by the budget: not a result of this command
            p.jobs = [j for j in p.jobs if id(j) not in previous or id(j) in kept]
        grade_jobs(h, subs, progress)
        for s in subs:
            for job in s.jobs:
                if job.completion.status != "ok":
                    job.result = job.result.model_copy(update={"outcome": "infra", "error": job.completion.error})
                job.turns.append(_turn_entry(job, roots))
                job.result = _merge(previous[id(job)], job)
