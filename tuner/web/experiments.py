"""The experiments a store holds, as the viewer's home page lists them.

An experiment is a piece of work a person started: a compare, a tune, an ablation (rows of the
``experiments`` table, linked to the runs they made by ``experiment_runs``), a failure analysis
(a row of ``reports``), or a plain `tuner run` (a run no experiment made). Sub-runs, the one-eval
runs of an ablation or a tune, are reached from their experiment, never listed beside it.

Stores written before v4 linked no runs: an experiment there shows what its configuration says,
and runs that are visibly parts of one (set names ``ablate-...`` or ``<study>#<trial>``) are not
listed as plain runs.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from pydantic import BaseModel, Field
from sqlalchemy import exists, select

from tuner.runs.listing import is_legacy_part as _legacy_part, standalone_condition
from tuner.store.schema import ExperimentRunRow, ReportRow, RunRow

__all__ = ["ExperimentFilter", "ExperimentItem", "list_experiments", "experiment_detail", "known_values"]

KINDS = ("run", "compare", "tune", "ablate", "analyze")


class ExperimentFilter(BaseModel):
    kind: str = ""
    suite: str = ""
    model: str = ""
    set: str = ""
    status: str = ""
    since: str = ""  # YYYY-MM-DD (UTC)


class ExperimentItem(BaseModel):
    id: str
    kind: str
    name: str
    href: str
    status: str
    suites: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    sets: list[str] = Field(default_factory=list)
    runs: int = 0
    calls: int = 0
    cost: str = "n/a"
    when: datetime | None = None


def _config_facts(config: dict) -> tuple[list[str], list[str]]:
    """(models, sets) an experiment's configuration names (for experiments with no linked runs)."""
    models = []
    for m in config.get("models") or []:
        name = m.get("model") if isinstance(m, dict) else str(m)
        if name and not name.startswith("sha256:"):  # an ablation's config keeps model keys (hashes), not names
            models.append(name)
    sets = [str(config[k]) for k in ("set_name", "set", "baseline", "before", "after") if config.get(k)]
    return [m for m in models if m], sets


def _since(text: str) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        from tuner.errors import InputError

        raise InputError(f"since {text!r}: a date as YYYY-MM-DD") from None


def list_experiments(store, filt: ExperimentFilter | None = None, *, limit: int = 100) -> list[ExperimentItem]:
    """Experiments newest first, each with its suites, models, sets, run count, calls and cost."""
    from tuner.runs.usage import run_usage, total_usage

    filt = filt or ExperimentFilter()
    since = _since(filt.since)
    items: list[tuple[ExperimentItem, list[str]]] = []
    if filt.kind not in ("run", "analyze"):
        exps = store.experiments(filt.kind or None)
        ids = [e["id"] for e in exps]
        links: dict[str, list[str]] = defaultdict(list)
        with store.reading() as s:
            for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
                for eid, rid in s.execute(select(ExperimentRunRow.experiment_id, ExperimentRunRow.run_id)
                                          .where(ExperimentRunRow.experiment_id.in_(chunk))):
                    links[eid].append(rid)
        facts = _run_facts(store, {r for rs in links.values() for r in rs})
        for e in exps:
            runs = list(dict.fromkeys(links.get(e["id"], [])))
            models, sets = _config_facts(e["config"] or {})
            suites = sorted({facts[r][2] for r in runs if r in facts})
            models = sorted({facts[r][0] for r in runs if r in facts} or set(models))
            sets = sorted(set(sets) | {facts[r][1] for r in runs if r in facts and not _legacy_part(facts[r][1])})
            suite_cfg = (e["config"] or {}).get("suite")
            items.append((ExperimentItem(id=e["id"], kind=e["kind"], name=e["name"], href=f"/experiments/{e['id']}",
                                         status=e["status"], suites=suites or ([suite_cfg] if isinstance(suite_cfg, str) else []),
                                         models=models, sets=sets, runs=len(runs), when=e["updated_at"]), runs))
    if filt.kind in ("", "run"):
        with store.reading() as s:
            q = (select(RunRow.id, RunRow.model, RunRow.set_name, RunRow.suite, RunRow.status, RunRow.updated_at)
                 .where(standalone_condition(),
                        ~exists(select(ExperimentRunRow.run_id).where(ExperimentRunRow.run_id == RunRow.id)))
                 .order_by(RunRow.updated_at.desc()).limit(limit * 2))
            for rid, model, set_name, suite, status, when in s.execute(q):
                items.append((ExperimentItem(id=rid, kind="run", name=f"run {rid[7:19]}", href=f"/runs/{rid}",
                                             status=status, suites=[suite], models=[model], sets=[set_name], runs=1,
                                             when=when), [rid]))
    if filt.kind in ("", "analyze"):
        with store.reading() as s:
            rows = s.execute(select(ReportRow.id, ReportRow.kind, ReportRow.run_id, ReportRow.model, ReportRow.path,
                                    ReportRow.created_at).order_by(ReportRow.created_at.desc()).limit(limit * 2)).all()
        facts = _run_facts(store, {r.run_id for r in rows if r.run_id})
        for r in rows:
            rel = r.path.removeprefix("reports/")
            f = facts.get(r.run_id)
            items.append((ExperimentItem(id=r.id, kind="analyze" if r.kind == "analysis" else r.kind,
                                         name=(f"{'analysis' if r.kind == 'analysis' else r.kind} of run {r.run_id[7:15]}"
                                               if r.run_id else rel.rsplit("/", 1)[-1]),
                                         href=f"/reports/{rel}", status="finished",
                                         suites=[f[2]] if f else [], models=[r.model], sets=[f[1]] if f else [],
                                         runs=1 if r.run_id else 0, when=r.created_at), []))
    chosen = [(it, runs) for it, runs in items if _matches(it, filt, since)]
    chosen.sort(key=lambda x: x[0].when or datetime.min, reverse=True)
    chosen = chosen[:limit]
    usage = run_usage(store, [r for _, runs in chosen for r in runs])
    for it, runs in chosen:
        total = total_usage(usage[r] for r in runs)
        it.calls, it.cost = total.calls, total.cost_text()
    return [it for it, _ in chosen]


def _matches(it: ExperimentItem, f: ExperimentFilter, since: datetime | None) -> bool:
    return ((not f.kind or it.kind == f.kind) and (not f.suite or f.suite in it.suites)
            and (not f.model or f.model in it.models) and (not f.set or f.set in it.sets)
            and (not f.status or it.status == f.status) and (since is None or (it.when is not None and it.when >= since)))


def _run_facts(store, run_ids) -> dict[str, tuple[str, str, str]]:
    """{run id: (model, set name, suite)}."""
    ids = list(run_ids)
    out = {}
    with store.reading() as s:
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            for rid, model, set_name, suite in s.execute(select(RunRow.id, RunRow.model, RunRow.set_name, RunRow.suite)
                                                         .where(RunRow.id.in_(chunk))):
                out[rid] = (model, set_name, suite)
    return out


def experiment_detail(store, exp_id: str) -> dict:
    """One experiment with its runs grouped by role (each run: model, set, status, rate, usage)."""
    from tuner.errors import NotFoundError
    from tuner.runs.usage import run_usage, total_usage
    from tuner.store.records import RunRecord

    exp = store.experiment(exp_id)
    if exp is None:
        matches = [e for e in store.experiments() if e["id"].startswith(exp_id)]
        if len(matches) != 1:
            raise NotFoundError(f"unknown experiment '{exp_id}'")
        exp = matches[0]
    links = store.experiment_runs(exp["id"])
    with store.reading() as s:
        ids = [r for r, _ in links]
        runs = {}
        for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
            for row in s.execute(select(RunRow).where(RunRow.id.in_(chunk))).scalars():
                runs[row.id] = RunRecord.from_row(row)
    usage = run_usage(store, ids)
    by_role: dict[str, list] = defaultdict(list)
    for rid, role in links:
        if rid in runs:
            by_role[role].append({"run": runs[rid], "usage": usage[rid]})
    for rows in by_role.values():
        rows.sort(key=lambda x: (x["run"].model, x["run"].set_name, x["run"].id))
    return {"experiment": exp, "by_role": dict(by_role), "usage": total_usage(usage.values()), "runs": runs}


def known_values(store) -> dict[str, list[str]]:
    """Values the filters offer: suites, models and set names of stored runs (a few hundred rows)."""
    with store.reading() as s:
        suites = list(s.execute(select(RunRow.suite).distinct().order_by(RunRow.suite)).scalars())
        sets = [x for x in s.execute(select(RunRow.set_name).distinct().order_by(RunRow.set_name).limit(500)).scalars()
                if not _legacy_part(x)]
    return {"suites": suites, "sets": sets, "kinds": list(KINDS), "statuses": ["running", "finished", "failed", "interrupted",
                                                                                 "complete", "partial"]}

