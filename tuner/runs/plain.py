"""`tuner run` recorded as an experiment of its own (kind ``run``), so the runs a person started stay
listed as theirs when a later compare or tune reads them again (each experiment links the runs it
made or read; a run belongs to the first that linked it: ``tuner.runs.usage.owners``)."""

from __future__ import annotations

from tuner.runs.harness import Harness
from tuner.runs.jobs import Progress
from tuner.runs.runner import RunConfig, RunOutcome, execute_runs

__all__ = ["run_experiment"]


def run_experiment(
    h: Harness, configs: list[RunConfig], progress: Progress | None = None, *, category: str | None = None
) -> list[RunOutcome]:
    """Execute ``configs`` (one rule set on some models) as a ``run`` experiment: recorded as
    running before the first call with its runs linked (role ``run``), finished with their status."""
    from tuner.hashing import sha256_json

    first = configs[0]
    set_name = first.rule_set.name
    exp: dict = {}

    def started(run_ids: list[str]) -> None:
        # Identified by its runs (themselves content hashes): the same command resumes the same experiment.
        exp["id"] = sha256_json({"kind": "run", "runs": sorted(run_ids)})
        name = f"{set_name} · {category}" if category else set_name
        config = {
            "set": set_name,
            "category": category,
            "models": [c.spec.model for c in configs],
            "samples": first.samples,
            "evals": len(first.eval_ids),
            "suite": h.suite.manifest.name,
            "runs": run_ids,
        }
        h.store.start_experiment(exp["id"], name, "run", config)
        h.store.link_runs(exp["id"], run_ids, "run")

    try:
        outcomes = execute_runs(h, configs, progress, on_start=started)
    except BaseException:
        if "id" in exp:
            h.store.finish_experiment(exp["id"], "interrupted")
        raise
    incomplete = [o for o in outcomes if o.run.status != "complete"]
    # A run with answers lost to infrastructure failures is retried by the same command: not finished.
    h.store.finish_experiment(
        exp["id"],
        "interrupted" if incomplete else "finished",
        {
            "runs": {
                o.run.id: {"model": o.run.model, "status": o.run.status, "overall": o.summary.get("overall")}
                for o in outcomes
            }
        },
    )
    return outcomes
