"""The results store (SQLAlchemy: SQLite by default, any URL via --db / TUNER_DB)."""

from tuner.store.points import PointKey, PointRecord
from tuner.store.records import LabelRecord, ResultRecord, RunRecord, RunSpec, StepRecord
from tuner.store.schema import SCHEMA_VERSION
from tuner.store.store import Store

__all__ = ["SCHEMA_VERSION", "LabelRecord", "PointKey", "PointRecord", "ResultRecord", "RunRecord", "RunSpec", "StepRecord", "Store"]
