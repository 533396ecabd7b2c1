"""Queries over runs: which runs a person asked for, runs by id or prefix, the values filters offer.

Contract (every backend):

- ``list_runs`` lists runs newest first (ties by id). An ablation or a tune makes many small runs as
  parts of itself; those are linked to their experiment with a role in ``PART_ROLES`` and listed
  only with ``include_parts``. Stores written before the links existed are recognised by the parts'
  set names (``is_legacy_part``: ``ablate-...``, ``<study>#<trial>``, ``winner-adaptive-...``, and
  tune's ``baseline``, which stores before this one did not link).
- ``runs_by_prefix`` returns the runs whose id starts with a prefix, by id; ``resolve_run_prefixes``
  maps each prefix naming exactly one run to its id (others are left out).
- ``run_records`` and ``run_facts`` return the given runs (unknown ids are left out); ``run_facts``
  reads only the small columns, for pages that list many runs.
- ``known_models``, ``known_suites``, ``known_set_names`` are sorted and distinct;
  ``known_categories`` reads the runs' summaries, never their results.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import exists, func, select

from tuner.store.records import RunRecord
from tuner.store.schema import ExperimentRunRow, ResultRow, RunRow

__all__ = [
    "PART_ROLES",
    "RunFacts",
    "is_legacy_part",
    "list_runs",
    "unlinked_runs",
    "runs_by_prefix",
    "resolve_run_prefixes",
    "run_records",
    "run_facts",
    "known_models",
    "known_suites",
    "known_set_names",
    "known_categories",
    "prompt_first_use",
    "latest_failing_run",
]

# Roles of runs an experiment made as parts of itself (compare's before/after runs are not parts:
# each is a whole run of a rule set a person chose).
PART_ROLES = ("trial", "confirm", "design", "gate", "baseline", "evidence")

_LEGACY_PREFIXES = ("ablate-", "winner-adaptive-")
# The set name tune gives its baseline runs (``RuleSet.from_selection("baseline", ...)``); no shipped
# or user set is composed under it (a run of a user's set keeps that set's name).
_TUNE_BASELINE = "baseline"
_CHUNK = 500  # ids per IN (...) clause


def _chunks(ids: list) -> Iterable[list]:
    return (ids[i : i + _CHUNK] for i in range(0, len(ids), _CHUNK))


def is_legacy_part(set_name: str) -> bool:
    return set_name.startswith(_LEGACY_PREFIXES) or "#" in set_name or set_name == _TUNE_BASELINE


def _standalone():
    """SQL condition: a run that no experiment made as one of its parts."""
    part = exists(
        select(ExperimentRunRow.run_id).where(
            ExperimentRunRow.run_id == RunRow.id, ExperimentRunRow.role.in_(PART_ROLES)
        )
    )
    cond = ~part & ~RunRow.set_name.contains("#") & (RunRow.set_name != _TUNE_BASELINE)
    for p in _LEGACY_PREFIXES:
        cond = cond & ~RunRow.set_name.startswith(p)
    return cond


def list_runs(
    store,
    *,
    model: str | None = None,
    suite: str | None = None,
    include_parts: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> list[RunRecord]:
    """Runs newest first; ``suite`` is a suite name; parts of experiments only with ``include_parts``."""
    q = select(RunRow).order_by(RunRow.updated_at.desc(), RunRow.id)
    if model:
        q = q.where(RunRow.model == model)
    if suite:
        q = q.where(RunRow.suite == suite)
    if not include_parts:
        q = q.where(_standalone())
    if offset:
        q = q.offset(offset)
    if limit:
        q = q.limit(limit)
    with store.reading() as s:
        return [RunRecord.from_row(r) for r in s.execute(q).scalars()]


def unlinked_runs(store, limit: int) -> list[RunRecord]:
    """Standalone runs no experiment linked at all (recorded by a `tuner run` before it recorded an
    experiment), newest first."""
    q = (
        select(RunRow)
        .where(_standalone(), ~exists(select(ExperimentRunRow.run_id).where(ExperimentRunRow.run_id == RunRow.id)))
        .order_by(RunRow.updated_at.desc())
        .limit(limit)
    )
    with store.reading() as s:
        return [RunRecord.from_row(r) for r in s.execute(q).scalars()]


def _full(prefix: str) -> str:
    return prefix if prefix.startswith("sha256:") else "sha256:" + prefix


def runs_by_prefix(store, prefix: str, limit: int) -> list[RunRecord]:
    """Up to ``limit`` runs whose id starts with ``prefix`` (``sha256:`` optional), by id."""
    with store.reading() as s:
        q = select(RunRow).where(RunRow.id.startswith(_full(prefix))).order_by(RunRow.id).limit(limit)
        return [RunRecord.from_row(r) for r in s.execute(q).scalars()]


def resolve_run_prefixes(store, prefixes: Iterable[str]) -> dict[str, str]:
    """{prefix: full run id} for the prefixes that name exactly one stored run (one query each, on
    the primary key's index; at most 200 prefixes are looked up)."""
    out: dict[str, str] = {}
    with store.reading() as s:
        for p in sorted(set(prefixes))[:200]:
            full = _full(p)
            hits = (
                s.execute(select(RunRow.id).where(RunRow.id >= full, RunRow.id < full + "g").limit(2)).scalars().all()
            )
            if len(hits) == 1:
                out[p] = hits[0]
    return out


def run_records(store, run_ids: Iterable[str]) -> dict[str, RunRecord]:
    """{run id: its record} for the given ids that are stored."""
    out: dict[str, RunRecord] = {}
    with store.reading() as s:
        for chunk in _chunks(list(dict.fromkeys(run_ids))):
            for row in s.execute(select(RunRow).where(RunRow.id.in_(chunk))).scalars():
                out[row.id] = RunRecord.from_row(row)
    return out


class RunFacts(NamedTuple):
    """A run's small columns (what a list of many runs shows)."""

    id: str
    model: str
    model_key: str
    set_name: str
    suite: str
    status: str
    sample_offset: int
    created_at: datetime
    updated_at: datetime


_FACTS = (
    RunRow.id,
    RunRow.model,
    RunRow.model_key,
    RunRow.set_name,
    RunRow.suite,
    RunRow.status,
    RunRow.sample_offset,
    RunRow.created_at,
    RunRow.updated_at,
)


def run_facts(
    store, run_ids: Iterable[str], *, experiment: str | None = None, role: str | None = None
) -> dict[str, RunFacts]:
    """{run id: RunFacts} for the given ids that are stored; with ``experiment`` (and ``role``), for
    the runs it linked (in that role) instead."""
    out: dict[str, RunFacts] = {}
    with store.reading() as s:
        if experiment is not None:
            q = (
                select(*_FACTS)
                .join(ExperimentRunRow, ExperimentRunRow.run_id == RunRow.id)
                .where(ExperimentRunRow.experiment_id == experiment)
            )
            if role is not None:
                q = q.where(ExperimentRunRow.role == role)
            return {r.id: RunFacts(*r) for r in s.execute(q)}
        for chunk in _chunks(list(dict.fromkeys(run_ids))):
            for r in s.execute(select(*_FACTS).where(RunRow.id.in_(chunk))):
                out[r.id] = RunFacts(*r)
    return out


def known_models(store) -> list[str]:
    with store.reading() as s:
        return list(s.execute(select(RunRow.model).distinct().order_by(RunRow.model)).scalars())


def known_suites(store) -> list[str]:
    with store.reading() as s:
        return list(s.execute(select(RunRow.suite).distinct().order_by(RunRow.suite)).scalars())


def known_set_names(store, limit: int = 500) -> list[str]:
    """Set names of stored runs, sorted, the first ``limit`` (parts' names included)."""
    with store.reading() as s:
        return list(s.execute(select(RunRow.set_name).distinct().order_by(RunRow.set_name).limit(limit)).scalars())


def known_categories(store) -> list[str]:
    # From the runs' summaries (a few hundred rows), not from 100,000 results.
    cats: set[str] = set()
    with store.reading() as s:
        for summary in s.execute(select(RunRow.summary)).scalars():
            cats |= set((summary or {}).get("categories", {}))
    return sorted(cats)


def prompt_first_use(store) -> dict[str, datetime]:
    """{prompt hash: when the first run with it was started}."""
    with store.reading() as s:
        return dict(
            s.execute(select(RunRow.prompt_hash, func.min(RunRow.created_at)).group_by(RunRow.prompt_hash)).all()
        )


def latest_failing_run(store, suite: str, category: str) -> str | None:
    """The id of the most recently written run of ``suite`` with a failed result in ``category``."""
    with store.reading() as s:
        return s.execute(
            select(RunRow.id)
            .join(ResultRow, ResultRow.run_id == RunRow.id)
            .where(RunRow.suite == suite, ResultRow.category == category, ResultRow.outcome == "fail")
            .order_by(RunRow.updated_at.desc())
            .limit(1)
        ).scalar_one_or_none()
