"""The failure summary of a run, and everything an analyst reads about one failed eval."""

from __future__ import annotations

import difflib
from collections import Counter

from pydantic import BaseModel, Field

__all__ = ["Failure", "FailureSummary", "summarise", "first_line", "diff_snippets"]

_MAX_FILE = 6000  # characters per file shown to an analyst: enough for a task's answer, bounded for a prompt


def first_line(text: str | None, limit: int = 200) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()[:limit]
    return ""


class Failure(BaseModel):
    """One failed eval of the run (its first failing sample) and what it is judged with."""

    id: str = Field(description="eval id#sample index: names the failure in prompts and reports.")
    eval_id: str
    category: str
    sample_index: int
    failed_samples: int
    scored_samples: int
    failed_step: str
    reason: str = Field(description="The failing step's first error line (or the parse error).")
    errors: str = Field("", description="Every failing step's detail, in pipeline order.")
    output: str = ""
    stopped: str = Field("", description="Why the answer is incomplete (truncated at the token limit), if it is.")
    files: dict[str, str] = Field(default_factory=dict)
    reference: dict[str, str] = Field(default_factory=dict)
    task: str = ""
    grader: str = ""
    gaps: str = ""
    system_prompt: str = ""
    problematic: str = ""
    expected: str = ""


class FailureSummary(BaseModel):
    run_id: str
    model: str
    set_name: str
    prompt_hash: str
    suite: str
    total: int
    passed: int
    failed: int
    infra: int
    categories: dict[str, dict[str, int]]
    by_step: dict[str, int]
    failures: list[Failure]

    @property
    def pass_rate(self) -> float | None:
        scored = self.passed + self.failed
        return self.passed / scored if scored else None


def diff_snippets(output: dict[str, str], reference: dict[str, str], context: int = 1) -> tuple[str, str]:
    """(what the model wrote, what the reference has) at the first place they differ."""
    for path in sorted(set(output) | set(reference)):
        got, want = output.get(path), reference.get(path)
        if got == want:
            continue
        if got is None:
            return f"({path} is missing)", _clip(want or "")
        if want is None:
            return f"{path}:\n{_clip(got)}", f"(no {path} in the reference answer)"
        a, b = want.splitlines(), got.splitlines()
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            lo_a, lo_b = max(i1 - context, 0), max(j1 - context, 0)
            mine = "\n".join(b[lo_b : j2 + context]) or "(lines missing)"
            theirs = "\n".join(a[lo_a : i2 + context]) or "(nothing)"
            return f"{path}:\n{mine}", f"{path}:\n{theirs}"
    return "(same files as the reference answer)", "(same)"


def _clip(text: str, limit: int = 800) -> str:
    return text if len(text) <= limit else text[:limit] + "\n…"


def _clip_files(files: dict[str, str]) -> dict[str, str]:
    return {p: (t if len(t) <= _MAX_FILE else t[:_MAX_FILE] + "\n… (truncated)") for p, t in files.items()}


def _failure(store, suite, results) -> Failure:
    from tuner.models.answers import stop_reason

    failing = [r for r in results if r.outcome == "fail"]
    r = failing[0]
    steps = [s for s in r.steps if s.status in ("fail", "error")]
    reason = first_line(steps[0].detail if steps and steps[0].detail else r.error) or "(no error text recorded)"
    errors = "\n\n".join(f"[{s.name}] {s.detail or ''}".strip() for s in steps) or (r.error or "")
    # What reading the answer left out or chose (files outside the roots, a file written twice)
    # can be the real cause of a later step's failure.
    read = [w for s in r.steps for w in s.warnings or [] if w.startswith("answer: ")]
    if read:
        errors = "\n".join([errors, "", *read]).strip()
    stopped = stop_reason(r.finish_reason) or ""
    try:
        ev = suite.get(r.eval_id)
        reference, task, grader, gaps = ev.answer_files(), ev.task, ev.grader, ev.gaps or ""
    except Exception:  # noqa: BLE001 - an eval since removed from the suite is still reported
        reference, task, grader, gaps = {}, "(eval not in the current suite)", "", ""
    messages = store.chat_messages(r) or []
    system = "\n\n".join(m.get("content") or "" for m in messages if m.get("role") == "system")
    files = dict(r.files or {})
    problematic, expected = diff_snippets(files, reference)
    return Failure(
        id=f"{r.eval_id}#{r.sample_index}",
        eval_id=r.eval_id,
        category=r.category,
        sample_index=r.sample_index,
        failed_samples=len(failing),
        scored_samples=sum(x.outcome != "infra" for x in results),
        failed_step=r.failed_step or (steps[0].name if steps else "unknown"),
        reason=reason,
        errors=errors[:4000],
        output=r.output or "",
        stopped=stopped,
        files=_clip_files(files),
        reference=_clip_files(reference),
        task=task,
        grader=grader[:_MAX_FILE],
        gaps=gaps,
        system_prompt=system,
        problematic=problematic,
        expected=expected,
    )


def summarise(store, suite, run) -> FailureSummary:
    """Totals of ``run`` and one ``Failure`` per eval with a failed sample (infra results excluded)."""
    results = store.results(run.id)
    by_eval: dict[str, list] = {}
    cats: dict[str, Counter] = {}
    for r in results:
        by_eval.setdefault(r.eval_id, []).append(r)
        cats.setdefault(r.category, Counter())[r.outcome] += 1
    failures = [_failure(store, suite, rs) for _, rs in sorted(by_eval.items()) if any(x.outcome == "fail" for x in rs)]
    outcomes = Counter(r.outcome for r in results)
    return FailureSummary(
        run_id=run.id,
        model=run.model,
        set_name=run.set_name,
        prompt_hash=run.prompt_hash,
        suite=run.suite,
        total=len(results),
        passed=outcomes["pass"],
        failed=outcomes["fail"],
        infra=outcomes["infra"],
        categories={c: {k: n.get(k, 0) for k in ("pass", "fail", "infra")} for c, n in sorted(cats.items())},
        by_step=dict(Counter(f.failed_step for f in failures).most_common()),
        failures=failures,
    )
