"""Reads of Optuna's own tables, when a tune stored its study in the store's database.

Contract (every backend): a study that is not there (no Optuna tables, or no study of that name)
reads as empty, never as an error; only complete trials are read. ``trial_values`` gives (trial
number, first objective value or None) by trial number; ``trial_attributes`` the user attributes
named, JSON-decoded, one dict per trial ({"number": n, key: value, ...}) by trial number (an
attribute whose JSON does not decode is left out).
"""

from __future__ import annotations

import json

from sqlalchemy import bindparam, inspect, text

__all__ = ["trial_values", "trial_attributes"]


def trial_values(store, study: str) -> list[tuple[int, float | None]]:
    with store.engine.connect() as conn:
        if "trials" not in inspect(conn).get_table_names():
            return []
        rows = conn.execute(
            text(
                "SELECT t.number, v.value FROM trials t JOIN studies s ON s.study_id = t.study_id "
                "LEFT JOIN trial_values v ON v.trial_id = t.trial_id AND v.objective = 0 "
                "WHERE s.study_name = :name AND t.state = 'COMPLETE' ORDER BY t.number"
            ),
            {"name": study},
        ).all()
    return [(int(n), None if v is None else float(v)) for n, v in rows]


def trial_attributes(store, study: str, keys: list[str]) -> list[dict]:
    with store.engine.connect() as conn:
        if "trial_user_attributes" not in inspect(conn).get_table_names():
            return []
        q = text(
            "SELECT t.number, a.key, a.value_json FROM trials t JOIN studies s ON s.study_id = t.study_id "
            "JOIN trial_user_attributes a ON a.trial_id = t.trial_id "
            "WHERE s.study_name = :name AND t.state = 'COMPLETE' AND a.key IN :keys"
        ).bindparams(bindparam("keys", expanding=True))
        rows = conn.execute(q, {"name": study, "keys": list(keys)}).all()
    trials: dict[int, dict] = {}
    for number, key, value in rows:
        try:
            trials.setdefault(int(number), {"number": int(number)})[key] = json.loads(value)
        except ValueError:
            continue
    return [trials[n] for n in sorted(trials)]
