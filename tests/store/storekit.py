"""A small store with known contents, written through the store's own API, for the query contract
tests (a module of its own: every test folder's ``conftest`` is called ``conftest``)."""

from __future__ import annotations

from types import SimpleNamespace

from tuner.store import PointRecord, ResultRecord, RunSpec, StepRecord

SYSTEM = "You write Convex code. Rule A. Rule B."


def save_prompt(
    store,
    phash: str = "sha256:p1",
    rules=(("r.a", "default", "sha256:ra1"), ("r.b", "terse", "sha256:rb1")),
    text: str = SYSTEM,
) -> str:
    rules = [SimpleNamespace(id=i, variant=v, hash=h) for i, v, h in rules]
    store.save_prompt(
        SimpleNamespace(hash=phash, set_name="all-active", template="default", rules=rules, tokens=12, text=text)
    )
    return phash


def start(
    store,
    *,
    prompt: str = "sha256:p1",
    set_name: str = "all-active",
    model: str = "sim/careful",
    suite: str = "convex",
    samples: int = 1,
    offset: int = 0,
    evals=("005-actions/001-a",),
    summary: dict | None = None,
    status="complete",
):
    spec = RunSpec(
        prompt_hash=prompt,
        set_name=set_name,
        model=model,
        model_key=f"key-{model}",
        params={},
        suite=suite,
        suite_hash=f"hash-{suite}",
        grader_hash="g",
        eval_ids=list(evals),
        samples=samples,
        sample_offset=offset,
    )
    run = store.start_run(spec)
    store.finish_run(run.id, status, summary or {"categories": {}})
    return run.id


def result(
    eval_id: str = "005-actions/001-a",
    sample: int = 0,
    outcome: str = "pass",
    *,
    key: str | None = None,
    detail: str | None = None,
    error: str | None = None,
    output: str | None = "ok",
    attempts: int | None = 1,
    cost: float | None = 0.0,
    tokens=(10, 5),
    category: str = "actions",
    prompt: str = "sha256:p1",
) -> ResultRecord:
    steps = [
        StepRecord(name="filesystem", status="pass"),
        StepRecord(name="tsc", status="pass" if outcome == "pass" else "fail", detail=detail),
    ]
    return ResultRecord(
        eval_id=eval_id,
        category=category,
        sample_index=sample,
        outcome=outcome,
        output=output,
        steps=steps,
        failed_step=None if outcome == "pass" else "tsc",
        error=error,
        response_key=key,
        attempts=attempts,
        cost_usd=cost,
        prompt_tokens=tokens[0],
        completion_tokens=tokens[1],
        messages=[{"role": "system", "prompt_hash": prompt}, {"role": "user", "content": "task"}],
    )


def point(
    eval_id: str = "005-actions/001-a",
    sample: int = 0,
    *,
    model: str = "sim/careful",
    attempts: int = 1,
    cost: float | None = None,
) -> PointRecord:
    return PointRecord(
        prompt_hash="sha256:p1",
        model_key=f"key-{model}",
        model=model,
        inputs_key="i",
        eval_id=eval_id,
        category="actions",
        sample_index=sample,
        dropped=[],
        outcome="pass",
        attempts=attempts,
        cost_usd=cost,
        prompt_tokens=7,
        completion_tokens=3,
    )
