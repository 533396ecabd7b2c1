"""What the viewer's pages show, read from the store a page at a time (never a whole table).

Pages read only the columns they show: the large ones (outputs, files, messages) are loaded for
one eval of one run at most.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from pydantic import BaseModel

from tuner.errors import InputError
from tuner.store.experiments import experiment_index
from tuner.store.prompts import prompt
from tuner.store.records import RunRecord
from tuner.store.results import category_rows, eval_results
from tuner.store.runs import known_categories, known_models, list_runs, resolve_run_prefixes
from tuner.store.sessions import session_labels

__all__ = [
    "RunsPage",
    "runs_page",
    "category_results",
    "eval_results",
    "labels_for",
    "file_diffs",
    "Suites",
    "known_models",
    "known_categories",
    "experiments",
    "report_files",
    "prompt",
    "resolve_run_prefixes",
    "report_run",
    "report_twin",
]


class RunsPage(BaseModel):
    runs: list[RunRecord]
    offset: int
    limit: int
    has_more: bool


def runs_page(
    store,
    *,
    offset: int = 0,
    limit: int = 50,
    model: str | None = None,
    suite: str | None = None,
    include_parts: bool = False,
) -> RunsPage:
    """A page of runs; the parts of ablations and tunes only with ``include_parts`` (see tuner.store.runs)."""
    rows = list_runs(store, model=model, suite=suite, include_parts=include_parts, limit=limit + 1, offset=offset)
    return RunsPage(runs=rows[:limit], offset=offset, limit=limit, has_more=len(rows) > limit)


def category_results(store, run_id: str, category: str) -> dict[str, list[dict]]:
    """{eval id: [{sample, outcome, failed_step, error, error_line, key}, ...]} for one category of one run.

    ``error_line`` is what `tuner runs show` prints: the first line of the failed step's detail, else
    of the result's own error. A grading failure leaves ``results.error`` empty (the reason is on
    the step), so reading that column alone showed nothing for most failures.
    """
    out: dict[str, list[dict]] = {}
    for m in category_rows(store, run_id, category):
        m["error_line"] = _first_line(m.pop("detail") or m["error"])
        out.setdefault(m.pop("eval_id"), []).append(m)
    return out


def _first_line(text: str | None, limit: int = 200) -> str:
    return next((line.strip()[:limit] for line in (text or "").splitlines() if line.strip()), "")


def labels_for(store, keys: list[str]) -> dict[str, dict]:
    """{session key: its review} for the given keys (unreviewed ones get the defaults)."""
    return {k: label.model_dump() for k, label in session_labels(store, [k for k in keys if k]).items()}


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


def experiments(store, limit: int = 200) -> list[dict]:
    return experiment_index(store, limit)


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
        lines = list(
            difflib.unified_diff(
                a,
                b,
                f"reference/{path}" if path in reference else "/dev/null",
                f"answer/{path}" if path in answer else "/dev/null",
                lineterm="",
                n=3,
            )
        )
        tagged = [{"kind": _kind(line), "text": line} for line in lines]
        out.append(
            {
                "path": path,
                "lines": tagged,
                "same": not lines,
                "state": "missing"
                if path not in answer
                else "extra"
                if path not in reference
                else "changed"
                if lines
                else "same",
            }
        )
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

            roots = [
                self.project.suite_root,
                self.project.root / "evals",
                *sorted(p.parent for p in (self.project.root / "suites").glob("*/suite.toml")),
            ]
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
