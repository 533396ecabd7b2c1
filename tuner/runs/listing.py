"""Which runs a person asked for, as `tuner runs list` and the viewer's runs page list them.

An ablation or a tune makes many small runs (one eval, one selection of rules) as parts of itself;
listed beside the runs a person started, they flood the list. Those parts are linked to their
experiment (``experiment_runs`` with a role in ``PART_ROLES``) and hidden unless asked for. Stores
written before the links existed are recognised by the parts' set names (``ablate-...``,
``<study>#<trial>``, ``winner-adaptive-...``, and tune's ``baseline``, which stores before this one
did not link).
"""

from __future__ import annotations

from sqlalchemy import exists, select

from tuner.store.records import RunRecord
from tuner.store.schema import ExperimentRunRow, RunRow

__all__ = ["PART_ROLES", "standalone_condition", "list_runs", "is_legacy_part"]

# Roles of runs an experiment made as parts of itself (compare's before/after runs are not parts:
# each is a whole run of a rule set a person chose).
PART_ROLES = ("trial", "confirm", "design", "gate", "baseline", "evidence")


_LEGACY_PREFIXES = ("ablate-", "winner-adaptive-")
# The set name tune gives its baseline runs (``RuleSet.from_selection("baseline", ...)``); no shipped
# or user set is composed under it (a run of a user's set keeps that set's name).
_TUNE_BASELINE = "baseline"


def is_legacy_part(set_name: str) -> bool:
    return set_name.startswith(_LEGACY_PREFIXES) or "#" in set_name or set_name == _TUNE_BASELINE


def standalone_condition():
    """SQL condition: a run that no experiment made as one of its parts."""
    part = exists(select(ExperimentRunRow.run_id).where(ExperimentRunRow.run_id == RunRow.id,
                                                       ExperimentRunRow.role.in_(PART_ROLES)))
    legacy = [RunRow.set_name.startswith(p) for p in _LEGACY_PREFIXES]
    cond = ~part & ~RunRow.set_name.contains("#") & (RunRow.set_name != _TUNE_BASELINE)
    for c in legacy:
        cond = cond & ~c
    return cond


def list_runs(store, *, model: str | None = None, suite: str | None = None, include_parts: bool = False,
              limit: int | None = None, offset: int = 0) -> list[RunRecord]:
    """Runs newest first; ``suite`` is a suite name; parts of experiments only with ``include_parts``."""
    q = select(RunRow).order_by(RunRow.updated_at.desc(), RunRow.id)
    if model:
        q = q.where(RunRow.model == model)
    if suite:
        q = q.where(RunRow.suite == suite)
    if not include_parts:
        q = q.where(standalone_condition())
    if offset:
        q = q.offset(offset)
    if limit:
        q = q.limit(limit)
    with store.reading() as s:
        return [RunRecord.from_row(r) for r in s.execute(q).scalars()]
