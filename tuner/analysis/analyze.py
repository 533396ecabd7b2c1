"""``tuner analyze RUN``: classify a run's failures and write the dated report for its model."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from tuner.errors import InputError
from tuner.hashing import short

__all__ = ["AnalysisResult", "analyze_run", "check_author", "suite_for_run", "today"]


class AnalysisResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    run_id: str
    all_passed: bool
    total: int
    path: Path | None = None
    body: dict | None = None
    markdown: str = ""


def today() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


def check_author(model: str, role: str, api_base: str | None) -> None:
    """Refuse an unusable analyst/proposer model before anything is read or written (exit 2)."""
    from tuner.analysis.lm import SIM_ANALYST, SIM_PROPOSER, is_simulated
    from tuner.errors import ProviderError

    expected = SIM_ANALYST if role == "analyst" else SIM_PROPOSER
    if is_simulated(model):
        if model != expected:
            raise ProviderError(
                f"--{role} {model}: the simulated {role} is {expected} (other sim/* names are code models)"
            )
        return
    from tuner.models import ModelSpec, check_models

    try:
        check_models([ModelSpec(model=model, api_base=api_base)])
    except ProviderError as exc:
        raise ProviderError(f"--{role} {exc}") from None


def suite_for_run(project, run):
    """The project's chosen suite, which must be the one ``run`` was made on."""
    from tuner.evals import load_suite

    suite = load_suite(project)
    if suite.name != run.suite:
        raise InputError(f"run {short(run.id)} is of suite '{run.suite}', not '{suite.name}': pass --suite for it")
    return suite


def analyze_run(
    project,
    store,
    run_text: str,
    *,
    analyst: str,
    api_base: str | None = None,
    date: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> AnalysisResult:
    from tuner.analysis.analyst import analyse_all
    from tuner.analysis.collate import collate, earlier_reports
    from tuner.analysis.failures import summarise
    from tuner.analysis.lm import SimulatedEngine, dspy_module, is_simulated, make_lm
    from tuner.analysis.report import build_body, render_markdown, report_path
    from tuner.analysis.runref import resolve_run
    from tuner.analysis.simulated import simulated_verdicts
    from tuner.secrets import mask, mask_tree

    check_author(analyst, "analyst", api_base)
    run = resolve_run(store, run_text)
    suite = suite_for_run(project, run)
    summary = summarise(store, suite, run)
    if not summary.failures:
        return AnalysisResult(run_id=run.id, all_passed=True, total=summary.total)
    simulated = is_simulated(analyst)
    engine = (
        SimulatedEngine(analyst, "failure_id", simulated_verdicts(summary.failures, suite.root)) if simulated else None
    )
    dspy = dspy_module(project.cache_dir / "dspy")
    lm = make_lm(dspy, analyst, api_base=api_base, simulated=engine, role="analyst")
    verdicts = analyse_all(dspy, lm, summary.failures, progress)
    date = date or today()
    path = report_path(project.reports, run.model, run.id, date)
    collation = collate(
        summary, verdicts, earlier_reports(path.parent, path.with_suffix(".json"), run.id), steps=suite.steps
    )
    body = mask_tree(build_body(summary, verdicts, collation, analyst=analyst, simulated=simulated, date=date))
    markdown = mask(render_markdown(body))
    _write(project, store, run, analyst, path, body, markdown)
    return AnalysisResult(run_id=run.id, all_passed=False, total=summary.total, path=path, body=body, markdown=markdown)


def _write(project, store, run, analyst: str, path: Path, body: dict, markdown: str) -> None:
    from tuner.files import write_atomic
    from tuner.store.reports import ReportRecord, save_report

    write_atomic(path.with_suffix(".json"), json.dumps(body, indent=2, default=str) + "\n")
    write_atomic(path, markdown)
    try:
        rel = path.relative_to(project.root).as_posix()
    except ValueError:
        rel = str(path)
    save_report(
        store, ReportRecord(kind="analysis", run_id=run.id, model=run.model, author_model=analyst, path=rel, body=body)
    )
