"""An engine design's looks, recorded with its experiment so that a continuation spends only what
is left (``tuner.engine``: ``Plan.made``, ``Plan.anchor``; ``tuner.stats.zones``: ``Zone.continued``).

Kept in the experiment's ``config`` under ``"looks"``, per design (tune runs two engine designs in
one experiment: its screening and its winner's evidence): ``{"anchor": replicates per eval at the
first invocation's last planned look, "made": [[replicates per eval, alpha, beta], ...]}``. A look is
written as soon as it is decided, so an interrupted invocation's looks count too.
"""

from __future__ import annotations

from tuner.errors import NotFoundError
from tuner.store.schema import ExperimentRow

__all__ = ["Looks"]

Looks = tuple[int | None, list[tuple[int, float, float]]]
"""(anchor, looks made): what ``engine_looks`` returns; (None, []) for a design not yet begun."""


class _LooksMixin:
    """``Store`` methods for an engine design's looks."""

    def engine_looks(self, exp_id: str, design: str) -> Looks:
        with self.reading() as s:
            row = s.get(ExperimentRow, exp_id)
            record = ((row.config or {}).get("looks") or {}).get(design) if row is not None else None
        if not record:
            return None, []
        return int(record["anchor"]), [(int(r), float(a), float(b)) for r, a, b in record["made"]]

    def record_engine_look(
        self, exp_id: str, design: str, anchor: int, index: int, look: tuple[int, float, float]
    ) -> None:
        """Record look ``index`` (0-based) of ``design``; a look already recorded (a replay) is kept as it was."""
        with self.session() as s:
            row = s.get(ExperimentRow, exp_id)
            if row is None:
                raise NotFoundError(f"unknown experiment {exp_id}")
            config = dict(row.config or {})
            looks = dict(config.get("looks") or {})
            record = dict(looks.get(design) or {"anchor": anchor, "made": []})
            if index < len(record["made"]):
                return
            if index != len(record["made"]):
                raise ValueError(f"look {index + 1} of {design} recorded before look {len(record['made']) + 1}")
            record["made"] = [*record["made"], [int(look[0]), float(look[1]), float(look[2])]]
            looks[design] = record
            config["looks"] = looks
            row.config = config  # a new object: the JSON column sees the change
