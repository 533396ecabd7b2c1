"""The experiments a store holds, as the viewer's home page lists them.

An experiment is a piece of work a person started: a `tuner run`, a compare, a tune, an ablation
(rows of the ``experiments`` table, linked to the runs they made or read by ``experiment_runs``), or
a failure analysis (a row of ``reports``), or a published version (its manifest on disk). The runs an ablation or a tune made as parts of itself
are reached from it, never listed beside it; a run a later experiment read again (a compare reusing
a `tuner run`) stays listed under the experiment that made it, and its calls are counted there
once (``tuner.runs.usage``).

Stores written before `tuner run` recorded an experiment list a run no experiment linked as a plain
run; before v4 nothing was linked, so runs that are visibly parts of one (set names ``ablate-...``,
``<study>#<trial>``, tune's ``baseline``) are not listed as plain runs.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, Field

from tuner.hashing import short
from tuner.runs.usage import ExperimentUsage, Usage, total_usage
from tuner.store.experiments import point_models as models_of_points
from tuner.store.reports import report_heads
from tuner.store.runs import is_legacy_part as _legacy_part
from tuner.store.runs import known_set_names, known_suites, run_facts, run_records, unlinked_runs
from tuner.web.published import published_versions

__all__ = ["ExperimentFilter", "ExperimentItem", "list_experiments", "experiment_detail", "known_values", "totals"]

KINDS = ("run", "compare", "tune", "ablate", "analyze", "publish")


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
    answer: str = ""  # what it decided, in one line (tuner.web.answers.headline)
    usage: ExperimentUsage | None = None  # None: nothing recorded per call (an analysis)
    when: datetime | None = None

    @property
    def runs(self) -> int:
        return self.usage.runs if self.usage else 0

    @property
    def calls(self) -> int:
        return self.usage.spent.calls if self.usage else 0

    @property
    def cost(self) -> str:
        return self.usage.spent.cost_text() if self.usage else ""


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


def list_experiments(
    store,
    filt: ExperimentFilter | None = None,
    *,
    limit: int = 100,
    cache=None,
    suite_of: Callable[[list[str]], str | None] | None = None,
    project=None,
    loaded_suites: list | None = None,
) -> list[ExperimentItem]:
    """Experiments newest first, each with its suites, models, sets, answer, and what it spent.
    ``suite_of(eval ids)`` names the suite of an experiment that recorded neither runs nor its suite;
    with ``project`` (and ``loaded_suites``), published versions are listed too (kind ``publish``)."""
    from tuner.runs.usage import experiment_links, experiment_usage
    from tuner.web.answers import headline

    filt = filt or ExperimentFilter()
    since = _since(filt.since)
    items: list[tuple[ExperimentItem, list[str] | None]] = []
    if filt.kind not in ("analyze", "publish"):
        exps = store.experiments(filt.kind or None)
        links = experiment_links(store, [e["id"] for e in exps])
        facts = _run_facts(store, {r for rs in links.values() for r in rs})
        point_models = models_of_points(store, [e["id"] for e in exps if not links.get(e["id"])])
        for e in exps:
            runs = links.get(e["id"], [])
            config = e["config"] or {}
            models, sets = _config_facts(config)
            suites = sorted({facts[r][2] for r in runs if r in facts})
            if not suites:
                named = config.get("suite")
                suites = [named] if isinstance(named, str) else []
                if not suites and suite_of and isinstance(config.get("evals") or config.get("eval_ids"), list):
                    found = suite_of(config.get("evals") or config.get("eval_ids"))
                    suites = [found] if found else []
            models = sorted(
                {facts[r][0] for r in runs if r in facts} or point_models.get(e["id"], set()) or set(models)
            )
            sets = sorted(set(sets) | {facts[r][1] for r in runs if r in facts and not _legacy_part(facts[r][1])})
            items.append(
                (
                    ExperimentItem(
                        id=e["id"],
                        kind=e["kind"],
                        name=e["name"],
                        href=_href(e, runs),
                        status=e["status"],
                        suites=suites,
                        models=models,
                        sets=sets,
                        answer=headline(e),
                        when=e["updated_at"],
                    ),
                    runs,
                )
            )
    every_version = published_versions(project, loaded_suites or []) if project is not None else []
    for v in every_version if filt.kind in ("", "publish") else []:
        gate = v["gate"]
        status = gate.get("status") or "not recorded"
        items.append(
            (
                ExperimentItem(
                    id=f"publish:{v['name']}@{v['version']}",
                    kind="publish",
                    name=f"{v['name']}@{v['version']}",
                    href=f"/published/{v['name']}/{v['version']}",
                    status="finished",
                    models=list(gate.get("models") or []),
                    sets=[str((v["source"] or {}).get("name"))] if (v["source"] or {}).get("name") else [],
                    answer=f"gate: {status}" + (" (forced)" if gate.get("forced") else ""),
                    when=v["when"],
                ),
                v["run_ids"],
            )
        )
    gate_runs = {r for v in every_version for r in v["run_ids"]}
    if filt.kind in ("", "run"):
        # Runs no experiment linked: recorded by a `tuner run` before it recorded an experiment.
        for run in unlinked_runs(store, limit * 2):
            if run.id in gate_runs:  # a publish gate's run: a part of that publish
                continue
            overall = (run.summary or {}).get("overall") or {}
            answer = f"pass rate {overall['pass_rate']:.0%}" if overall.get("pass_rate") is not None else ""
            items.append(
                (
                    ExperimentItem(
                        id=run.id,
                        kind="run",
                        name=f"run {short(run.id)}",
                        href=f"/runs/{run.id}",
                        status=run.status,
                        suites=[run.suite],
                        models=[run.model],
                        sets=[run.set_name],
                        answer=answer,
                        when=run.updated_at,
                    ),
                    [run.id],
                )
            )
    if filt.kind in ("", "analyze"):
        rows = report_heads(store, limit * 2)
        facts = _run_facts(store, {r.run_id for r in rows if r.run_id})
        for r in rows:
            rel = r.path.removeprefix("reports/")
            f = facts.get(r.run_id)
            items.append(
                (
                    ExperimentItem(
                        id=r.id,
                        kind="analyze" if r.kind == "analysis" else r.kind,
                        name=(
                            f"{'analysis' if r.kind == 'analysis' else r.kind} of run {short(r.run_id, 8)}"
                            if r.run_id
                            else rel.rsplit("/", 1)[-1]
                        ),
                        href=f"/reports/{rel}",
                        status="finished",
                        suites=[f[2]] if f else [],
                        models=[r.model],
                        sets=[f[1]] if f else [],
                        answer="failures classified: see the report",
                        when=r.created_at,
                    ),
                    None,
                )
            )
    chosen = [(it, runs) for it, runs in items if _matches(it, filt, since)]
    chosen.sort(key=lambda x: x[0].when or datetime.min, reverse=True)
    chosen = chosen[:limit]
    # An analysis's calls (the analyst's) are not recorded per answer: it shows none rather than 0.
    usage = experiment_usage(store, {it.id: runs for it, runs in chosen if runs is not None}, cache=cache)
    for it, runs in chosen:
        if runs is not None:
            it.usage = usage[it.id]
    return [it for it, _ in chosen]


def _href(exp: dict, runs: list[str]) -> str:
    """A `tuner run` of one model opens its run; everything else its experiment page."""
    if exp["kind"] == "run" and len(runs) == 1:
        return f"/runs/{runs[0]}"
    return f"/experiments/{exp['id']}"


def totals(items: list[ExperimentItem]) -> Usage:
    """What the listed experiments spent together (each call once: runs are counted by their maker)."""
    return total_usage(it.usage.spent for it in items if it.usage)


def _matches(it: ExperimentItem, f: ExperimentFilter, since: datetime | None) -> bool:
    return (
        (not f.kind or it.kind == f.kind)
        and (not f.suite or f.suite in it.suites)
        and (not f.model or f.model in it.models)
        and (not f.set or f.set in it.sets)
        and (not f.status or it.status == f.status)
        and (since is None or (it.when is not None and it.when >= since))
    )


def _run_facts(store, run_ids) -> dict[str, tuple[str, str, str]]:
    """{run id: (model, set name, suite)}."""
    return {rid: (f.model, f.set_name, f.suite) for rid, f in run_facts(store, run_ids).items()}


def experiment_detail(store, exp_id: str, *, cache=None) -> dict:
    """One experiment with its runs grouped by role (each run: model, set, status, rate, usage, and
    whether this experiment made it or reused it) and what it spent."""
    from tuner.errors import NotFoundError
    from tuner.runs.usage import experiment_usage, run_usage

    exp = store.experiment(exp_id)
    if exp is None:
        matches = [e for e in store.experiments() if e["id"].startswith(exp_id)]
        if len(matches) != 1:
            raise NotFoundError(f"unknown experiment '{exp_id}'")
        exp = matches[0]
    links = store.experiment_runs(exp["id"])
    ids = list(dict.fromkeys(r for r, _ in links))
    runs = run_records(store, ids)
    usage = cache.usage(store, ids) if cache is not None else run_usage(store, ids)
    spent = experiment_usage(store, {exp["id"]: ids}, cache=cache)[exp["id"]]
    owned = set(spent.owned)
    by_role: dict[str, list] = {}
    for rid, role in links:
        if rid in runs:
            by_role.setdefault(role, []).append({"run": runs[rid], "usage": usage[rid], "reused": rid not in owned})
    for rows in by_role.values():
        rows.sort(key=lambda x: (x["run"].model, x["run"].set_name, x["run"].id))
    order = {r: i for i, r in enumerate(_ROLE_ORDER)}
    roles = sorted(by_role, key=lambda r: (order.get(r, len(order)), r))
    return {"experiment": exp, "by_role": {r: by_role[r] for r in roles}, "usage": spent, "runs": runs}


# How a reader goes through an experiment's runs: the sides first, then the parts.
_ROLE_ORDER = ("before", "after", "run", "baseline", "trial", "confirm", "evidence", "gate", "design")


def known_values(store) -> dict[str, list[str]]:
    """Values the filters offer: suites, models and set names of stored runs (a few hundred rows)."""
    suites = known_suites(store)
    sets = [x for x in known_set_names(store, 500) if not _legacy_part(x)]
    return {
        "suites": suites,
        "sets": sets,
        "kinds": list(KINDS),
        "statuses": ["running", "finished", "failed", "interrupted", "complete", "partial"],
    }
