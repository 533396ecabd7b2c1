"""Group and order records without touching the caller's data."""

from collections.abc import Callable, Hashable, Iterable
from typing import Any


def group_by(items: Iterable[Any], key: Callable[[Any], Hashable], groups: dict | None = None) -> dict:
    """Items grouped by ``key(item)``, keys in first-seen order, items in input order."""
    if groups is None:
        groups = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def sort_records(records: list[dict[str, Any]], field: str, descending: bool = False) -> list[dict[str, Any]]:
    """A new list of ``records`` stably ordered by ``field``."""
    missing = sum(1 for record in records if field not in record)
    if missing:
        raise ValueError(f"{missing} record(s) have no field {field!r}")
    result = sorted(records, key=lambda record: record[field])
    return result[::-1] if descending else result
