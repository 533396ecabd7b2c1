"""The results store (SQLAlchemy: SQLite by default, any URL via --db / TUNER_DB).

Every query of the store's tables lives here; no module outside ``tuner/store/`` imports its
schema (``tests/test_import_graph.py``). ``Store`` (``store.py``) opens, migrates, and writes and
reads runs, results, prompts, experiments and design points (``points.py``). The query modules take
the store as their first argument, each with its contract in its docstring, tested once on SQLite
and once on PostgreSQL (``tests/store/``): ``runs`` (listing, prefixes, the values filters offer),
``results`` (a page's rows, why a result failed), ``experiments`` (links to runs, owners, suites),
``sessions`` (recorded generations and their reviews), ``usage`` (the spent sums), ``keys`` (the
export API's keys), ``prompts``, ``reports`` and ``studies`` (a tune's Optuna tables).
"""

from tuner.store.points import PointKey, PointRecord
from tuner.store.records import LabelRecord, ResultRecord, RunRecord, RunSpec, StepRecord
from tuner.store.schema import SCHEMA_VERSION
from tuner.store.store import Store

__all__ = [
    "SCHEMA_VERSION",
    "LabelRecord",
    "PointKey",
    "PointRecord",
    "ResultRecord",
    "RunRecord",
    "RunSpec",
    "StepRecord",
    "Store",
]
