"""Published guideline versions as experiments: each manifest (``guidelines/published/NAME/``, its
``history/`` included, for the project and every suite with its own guidelines) with the publish
gate's cells as it recorded them. `tuner publish` records no experiment in the store; its manifest
is the record, and the gate's runs (``run_ids``) are its parts."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

__all__ = ["published_versions", "published_version"]


def _folders(project, suites) -> list[Path]:
    from dataclasses import replace

    out = []
    for p in [project, *(replace(project, suite_path=s.root) for s in suites)]:
        try:
            folder = p.published_dir.resolve()
        except OSError:
            continue
        if folder.is_dir() and folder not in out:
            out.append(folder)
    return out


def published_versions(project, suites) -> list[dict]:
    """Every published version found: {name, version, published_at, gate, run_ids, rules, source, path}."""
    seen: dict[tuple[str, str], dict] = {}
    for folder in _folders(project, suites):
        for path in [*sorted(folder.glob("*/history/*.json")), *sorted(folder.glob("*/manifest.json"))]:
            try:
                body = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(body, dict) or "name" not in body or "version" not in body:
                continue
            try:
                when = datetime.strptime(str(body.get("published_at", "")), "%Y-%m-%d")
            except ValueError:
                when = datetime.fromtimestamp(path.stat().st_mtime)
            seen.setdefault(
                (body["name"], str(body["version"])),
                {
                    "name": body["name"],
                    "version": str(body["version"]),
                    "when": when,
                    "gate": body.get("gate") or {},
                    "run_ids": [r for r in body.get("run_ids") or [] if isinstance(r, str)],
                    "rules": body.get("rules") or [],
                    "source": body.get("source") or {},
                    "tokens": body.get("tokens"),
                    "previous": body.get("previous"),
                },
            )
    return sorted(seen.values(), key=lambda v: v["when"], reverse=True)


def published_version(project, suites, name: str, version: str) -> dict:
    from tuner.errors import NotFoundError

    for v in published_versions(project, suites):
        if v["name"] == name and v["version"] == version:
            return v
    raise NotFoundError(f"no published version {name}@{version}")
