"""Queries over experiments beyond ``Store``'s own (``experiment``, ``experiments``,
``experiment_runs``): what links them to runs and design points, as the viewer and ``publish`` read it.

Contract (every backend): every function reads only; an experiment or run that is not stored is left
out of the answer (or yields an empty list), never an error.

- ``experiment_index`` lists experiments newest created first (id, name, kind, created_at).
- ``experiments_created`` returns whole experiments of the given kinds, newest created first.
- ``experiments_of_run`` lists the experiments that linked a run, with the run's role in each.
- ``experiment_links`` maps each experiment to its linked run ids (each once, in link order).
- ``run_owners`` maps each run to the experiment that made it: the first, by creation, to link it.
- ``experiment_suites`` maps each experiment to a suite of its linked runs; ``point_models`` to the
  models of its design points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy import select

from tuner.store.schema import DesignPointRow, ExperimentRow, ExperimentRunRow, RunRow

__all__ = [
    "experiment_index",
    "experiments_created",
    "experiments_of_run",
    "experiment_links",
    "run_owners",
    "experiment_suites",
    "point_models",
]


def _chunks(ids: Iterable[str]) -> Iterable[list[str]]:
    ids = list(dict.fromkeys(ids))
    return (ids[i : i + 500] for i in range(0, len(ids), 500))


def experiment_index(store, limit: int = 200) -> list[dict]:
    """[{id, name, kind, created_at}], newest created first."""
    with store.reading() as s:
        rows = s.execute(
            select(ExperimentRow.id, ExperimentRow.name, ExperimentRow.kind, ExperimentRow.created_at)
            .order_by(ExperimentRow.created_at.desc())
            .limit(limit)
        ).all()
    return [dict(r._mapping) for r in rows]


def experiments_created(store, kinds: Iterable[str]) -> list[dict]:
    """[{id, name, kind, config, result, status, created_at}] of these kinds, newest created first."""
    with store.reading() as s:
        rows = (
            s.execute(
                select(ExperimentRow)
                .where(ExperimentRow.kind.in_(list(kinds)))
                .order_by(ExperimentRow.created_at.desc())
            )
            .scalars()
            .all()
        )
        return [
            {
                "id": r.id,
                "name": r.name,
                "kind": r.kind,
                "config": r.config,
                "result": r.result,
                "status": r.status or "finished",
                "created_at": r.created_at,
            }
            for r in rows
        ]


def experiments_of_run(store, run_id: str) -> list[dict]:
    """[{id, kind, name, role}]: the experiments that made or read this run, with its role in each."""
    with store.reading() as s:
        rows = s.execute(
            select(ExperimentRow.id, ExperimentRow.kind, ExperimentRow.name, ExperimentRunRow.role)
            .join(ExperimentRunRow, ExperimentRunRow.experiment_id == ExperimentRow.id)
            .where(ExperimentRunRow.run_id == run_id)
        ).all()
    return [dict(r._mapping) for r in rows]


def experiment_links(store, exp_ids: Iterable[str]) -> dict[str, list[str]]:
    """{experiment id: [linked run ids]} (every id asked for is a key)."""
    ids = list(dict.fromkeys(exp_ids))
    links: dict[str, list[str]] = defaultdict(list)
    with store.reading() as s:
        for chunk in _chunks(ids):
            for eid, rid in s.execute(
                select(ExperimentRunRow.experiment_id, ExperimentRunRow.run_id).where(
                    ExperimentRunRow.experiment_id.in_(chunk)
                )
            ):
                links[eid].append(rid)
    return {e: list(dict.fromkeys(links.get(e, []))) for e in ids}


def run_owners(store, run_ids: Iterable[str]) -> dict[str, str]:
    """{run id: the experiment that made it}: the first (by when it was recorded) to link it."""
    out: dict[str, tuple] = {}
    q = select(ExperimentRunRow.run_id, ExperimentRunRow.experiment_id, ExperimentRow.created_at).join(
        ExperimentRow, ExperimentRow.id == ExperimentRunRow.experiment_id
    )
    with store.reading() as s:
        for chunk in _chunks(run_ids):
            for rid, eid, when in s.execute(q.where(ExperimentRunRow.run_id.in_(chunk))):
                key = (when, eid)
                if rid not in out or key < out[rid]:
                    out[rid] = key
    return {rid: key[1] for rid, key in out.items()}


def experiment_suites(store, exp_ids: Iterable[str]) -> dict[str, str]:
    """{experiment id: the suite of its linked runs} (one, when they span several)."""
    out: dict[str, str] = {}
    with store.reading() as s:
        for chunk in _chunks(exp_ids):
            for eid, suite in s.execute(
                select(ExperimentRunRow.experiment_id, RunRow.suite)
                .distinct()
                .join(RunRow, RunRow.id == ExperimentRunRow.run_id)
                .where(ExperimentRunRow.experiment_id.in_(chunk))
            ):
                out.setdefault(eid, suite)
    return out


def point_models(store, exp_ids: Iterable[str]) -> dict[str, set[str]]:
    """{experiment id: models of its design points} (a design that made no runs says its models here)."""
    out: dict[str, set[str]] = {}
    with store.reading() as s:
        for chunk in _chunks(exp_ids):
            for eid, model in s.execute(
                select(DesignPointRow.experiment_id, DesignPointRow.model)
                .distinct()
                .where(DesignPointRow.experiment_id.in_(chunk))
            ):
                out.setdefault(eid, set()).add(model)
    return out
