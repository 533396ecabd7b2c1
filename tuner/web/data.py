"""What the viewer's pages show, read from the store a page at a time (never a whole table).

Pages read only the columns they show: the large ones (outputs, files, messages) are loaded for
one eval of one run at most.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from tuner.errors import InputError, NotFoundError
from tuner.store.records import ResultRecord, RunRecord
from tuner.store.schema import ExperimentRow, PromptRow, ResultRow, RunRow, SessionLabelRow, StepRow

__all__ = ["RunsPage", "runs_page", "category_results", "eval_results", "labels_for", "file_diffs", "Suites",
           "known_models", "known_categories", "experiments", "report_files", "prompt", "resolve_run_prefixes", "report_run", "report_twin"]


class RunsPage(BaseModel):
    runs: list[RunRecord]
    offset: int
    limit: int
    has_more: bool


def runs_page(store, *, offset: int = 0, limit: int = 50, model: str | None = None, suite: str | None = None,
              include_parts: bool = False) -> RunsPage:
    """A page of runs; the parts of ablations and tunes only with ``include_parts`` (see tuner.runs.listing)."""
    from tuner.runs.listing import list_runs

    rows = list_runs(store, model=model, suite=suite, include_parts=include_parts, limit=limit + 1, offset=offset)
    return RunsPage(runs=rows[:limit], offset=offset, limit=limit, has_more=len(rows) > limit)


def category_results(store, run_id: str, category: str) -> dict[str, list[dict]]:
    """{eval id: [{sample, outcome, failed_step, error, error_line, key}, ...]} for one category of one run.

    ``error_line`` is what `tuner runs show` prints: the first line of the failed step's detail, else
    of the result's own error. A grading failure leaves ``results.error`` empty (the reason is on
    the step), so reading that column alone showed nothing for most failures.
    """
    r, st = ResultRow.__table__, StepRow.__table__
    q = (select(r.c.id, r.c.eval_id, r.c.sample_index, r.c.outcome, r.c.failed_step, r.c.error, r.c.response_key,
                r.c.tests_passed, r.c.tests_total)
         .where(r.c.run_id == run_id, r.c.category == category).order_by(r.c.eval_id, r.c.sample_index))
    out: dict[str, list[dict]] = {}
    with store.reading() as s:
        rows = [dict(row._mapping) for row in s.execute(q)]
        failing = [m["id"] for m in rows if m["outcome"] != "pass"]
        details: dict[int, str] = {}
        for chunk in (failing[i:i + 500] for i in range(0, len(failing), 500)):
            steps = s.execute(select(st.c.result_id, st.c.detail).where(
                st.c.result_id.in_(chunk), st.c.status.in_(("fail", "error")), st.c.detail.isnot(None))
                .order_by(st.c.result_id, st.c.position))
            for rid, detail in steps:
                details.setdefault(rid, detail)
    for m in rows:
        m["error_line"] = _first_line(details.get(m.pop("id")) or m["error"])
        out.setdefault(m.pop("eval_id"), []).append(m)
    return out


def _first_line(text: str | None, limit: int = 200) -> str:
    return next((line.strip()[:limit] for line in (text or "").splitlines() if line.strip()), "")


def eval_results(store, run_id: str, eval_id: str) -> list[ResultRecord]:
    with store.reading() as s:
        rows = s.execute(
            select(ResultRow).where(ResultRow.run_id == run_id, ResultRow.eval_id == eval_id)
            .options(selectinload(ResultRow.steps)).order_by(ResultRow.sample_index)
        ).scalars()
        return [ResultRecord.from_row(x) for x in rows]


def labels_for(store, keys: list[str]) -> dict[str, dict]:
    """{session key: its review} for the given keys (unreviewed ones get the defaults)."""
    from tuner.sessions import SessionLabel

    keys = [k for k in keys if k]
    out = {k: SessionLabel().model_dump() for k in keys}
    if keys:
        with store.reading() as s:
            for row in s.execute(select(SessionLabelRow).where(SessionLabelRow.session_key.in_(keys))).scalars():
                out[row.session_key] = SessionLabel(
                    eval_ready=row.eval_ready, eval_status=row.eval_status, eval_notes=row.eval_notes,
                    eval_tags=list(row.eval_tags or []), expected_output=row.expected_output,
                    reviewed_at=row.reviewed_at).model_dump()
    return out


def resolve_run_prefixes(store, prefixes) -> dict[str, str]:
    """{prefix: full run id} for the prefixes that name exactly one stored run (one query each,
    on the primary key's index; a report names a handful)."""
    out: dict[str, str] = {}
    with store.reading() as s:
        for p in sorted(set(prefixes))[:200]:
            full = p if p.startswith("sha256:") else "sha256:" + p
            hits = s.execute(select(RunRow.id).where(RunRow.id >= full, RunRow.id < full + "g").limit(2)).scalars().all()
            if len(hits) == 1:
                out[p] = hits[0]
    return out


def report_twin(md: Path) -> dict | None:
    """The JSON written beside a Markdown report, if any (what the report says, as data)."""
    import json

    twin = md.with_suffix(".json")
    try:
        body = json.loads(twin.read_text(encoding="utf-8")) if twin.is_file() else None
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def report_run(md: Path) -> str | None:
    """The run an analysis report is about (from its JSON twin), if it is one."""
    body = report_twin(md)
    if body and body.get("kind") == "analysis" and isinstance(body.get("run_id"), str):
        return body["run_id"]
    return None


def prompt(store, prompt_hash: str) -> dict:
    with store.reading() as s:
        row = s.get(PromptRow, prompt_hash)
        if row is None:
            raise NotFoundError(f"unknown prompt {prompt_hash}")
        return {"hash": row.hash, "set_name": row.set_name, "template": row.template, "rules": row.rules,
                "tokens": row.tokens, "text": row.text}


def known_models(store) -> list[str]:
    with store.reading() as s:
        return list(s.execute(select(RunRow.model).distinct().order_by(RunRow.model)).scalars())


def known_categories(store) -> list[str]:
    # From the runs' summaries (a few hundred rows), not from 100,000 results.
    cats: set[str] = set()
    with store.reading() as s:
        for summary in s.execute(select(RunRow.summary)).scalars():
            cats |= set((summary or {}).get("categories", {}))
    return sorted(cats)


def experiments(store, limit: int = 200) -> list[dict]:
    with store.reading() as s:
        rows = s.execute(select(ExperimentRow.id, ExperimentRow.name, ExperimentRow.kind, ExperimentRow.created_at)
                         .order_by(ExperimentRow.created_at.desc()).limit(limit)).all()
    return [dict(r._mapping) for r in rows]


def report_files(reports_dir: Path) -> dict[str, list[str]]:
    """{folder: [Markdown report paths relative to reports/]}, newest first."""
    out: dict[str, list[str]] = {}
    if not reports_dir.is_dir():
        return out
    files = sorted(reports_dir.rglob("*.md"), key=lambda p: p.stat().st_mtime, reverse=True)
    for f in files:
        rel = f.relative_to(reports_dir)
        if rel.as_posix() == "README.md" or rel.name.startswith("."):
            continue
        out.setdefault(rel.parent.as_posix() if rel.parent.parts else "", []).append(rel.as_posix())
    return dict(sorted(out.items()))


def file_diffs(reference: dict[str, str], answer: dict[str, str]) -> list[dict]:
    """Per file (reference ∪ answer): a unified diff, reference first, as lines tagged for colour."""
    out = []
    for path in sorted(set(reference) | set(answer)):
        a = reference.get(path, "").splitlines(keepends=False)
        b = answer.get(path, "").splitlines(keepends=False)
        lines = list(difflib.unified_diff(a, b, f"reference/{path}" if path in reference else "/dev/null",
                                          f"answer/{path}" if path in answer else "/dev/null", lineterm="", n=3))
        tagged = [{"kind": _kind(line), "text": line} for line in lines]
        out.append({"path": path, "lines": tagged, "same": not lines,
                    "state": "missing" if path not in answer else "extra" if path not in reference else "changed" if lines else "same"})
    return out


def _kind(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "head"
    if line.startswith("@@"):
        return "hunk"
    return {"+": "add", "-": "del"}.get(line[:1], "ctx")


class Suites:
    """The suites a run may belong to (the project's chosen suite and every ``suites/*``), by name."""

    def __init__(self, project):
        self.project = project
        self._by_name: dict | None = None

    def _load(self) -> dict:
        if self._by_name is None:
            from tuner.evals import load_suite

            roots = [self.project.suite_root, self.project.root / "evals",
                     *sorted(p.parent for p in (self.project.root / "suites").glob("*/suite.toml"))]
            self._by_name = {}
            for root in dict.fromkeys(r.resolve() for r in roots):
                try:
                    suite = load_suite(root)
                except (InputError, OSError):
                    continue  # a broken suite on disk must not break browsing the store
                self._by_name.setdefault(suite.name, suite)
        return self._by_name

    def get(self, name: str):
        return self._load().get(name)

    def all(self) -> list:
        return list(self._load().values())

    def suite_of(self, eval_ids) -> str | None:
        """The name of the suite holding these evals (an experiment that recorded no suite), if one does."""
        wanted = set(eval_ids or ())
        if not wanted:
            return None
        for name, suite in self._load().items():
            if wanted <= {e.id for e in suite.evals}:
                return name
        return None

