"""Scan everything tuner produced for secret values (API keys).

A *producer* is one command (or in-process step) that makes artefacts: it runs in a project and
returns what it produced besides files (its stdout/stderr). ``scan_project`` then reads every file
under the project's generated folders byte for byte (the SQLite store with its WAL, the response
and grading caches, reports, published files, study storage) plus every text column of every table
of the store, and the captured outputs. Adding a producer (an analysis report, the viewer's pages,
an export) is one entry in a list: see ``Producer``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Finding", "Producer", "scan_bytes", "scan_files", "scan_store", "scan_project", "GENERATED"]

# Folders of a project that tuner writes into (git-ignored or generated).
GENERATED = ("experiments", "reports", "guidelines/published")


@dataclass(frozen=True)
class Finding:
    where: str
    secret: str  # which secret (its name, never its value)


@dataclass
class Producer:
    """``run(project)`` makes artefacts and returns its console output (stdout + stderr)."""

    name: str
    run: Callable[[Path], str]


def _variants(value: str) -> list[bytes]:
    """The forms a leaked key takes on disk: as is, and as UTF-16 (some SQLite text)."""
    return [value.encode(), value.encode("utf-16-le")]


def scan_bytes(where: str, data: bytes, secrets: dict[str, str]) -> list[Finding]:
    return [Finding(where, name) for name, value in secrets.items() if any(v in data for v in _variants(value))]


def scan_files(paths: Iterable[Path], secrets: dict[str, str]) -> list[Finding]:
    found = []
    for path in paths:
        if path.is_file() and not path.is_symlink():
            found += scan_bytes(str(path), path.read_bytes(), secrets)
    return found


def scan_store(url: str, secrets: dict[str, str]) -> list[Finding]:
    """Every column of every table, read as text (JSON columns included)."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    found = []
    try:
        meta = sqlalchemy.MetaData()
        meta.reflect(engine)
        with engine.connect() as conn:
            for table in meta.sorted_tables:
                for row in conn.execute(sqlalchemy.select(table)):
                    text = "\x1f".join("" if v is None else str(v) for v in row)
                    found += scan_bytes(f"{table.name} row", text.encode(), secrets)
    finally:
        engine.dispose()
    return found


def scan_project(
    project: Path, secrets: dict[str, str], outputs: dict[str, str] | None = None, extra: Iterable[Path] = ()
) -> list[Finding]:
    """Files under the project's generated folders (and ``extra`` folders: a suite's own published
    files), the store's rows, and captured outputs."""
    folders = [project / folder for folder in GENERATED] + list(extra)
    files = [p for folder in folders for p in sorted(folder.rglob("*"))]
    found = scan_files(files, secrets)
    db = project / "experiments" / "tuner.db"
    if db.is_file():
        found += scan_store(f"sqlite:///{db}", secrets)
    for name, text in (outputs or {}).items():
        found += scan_bytes(f"output of {name}", text.encode(), secrets)
    return found
