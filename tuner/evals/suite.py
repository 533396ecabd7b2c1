"""The eval suite on disk: ``evals/<NNN-category>/<NNN-name>/``.

Each eval folder holds ``TASK.txt`` (what the model is asked), ``answer/`` (a reference answer,
laid out like a project: ``convex/…`` and maybe ``src/…``), ``grader.test.ts`` (vitest +
convex-test) and optionally ``GAPS.txt`` (what the grader does not check).
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from tuner.errors import InputError, NotFoundError
from tuner.evals.manifest import Manifest, read_manifest
from tuner.hashing import sha256_json, sha256_text
from tuner.paths import Project

__all__ = ["Eval", "Suite", "load_suite", "load_eval", "category_of"]

_NUMBERED = re.compile(r"^\d{3}-[a-z0-9][a-z0-9_-]*$")
# Files of an answer that are part of it; anything else (editor backups, .DS_Store) is ignored.
_ANSWER_ROOTS = ("convex", "src")


def category_of(folder_name: str) -> str:
    """``005-actions`` -> ``actions``; ``002-data_modeling`` -> ``data_modeling``."""
    return folder_name.split("-", 1)[1]


class Eval(BaseModel):
    """One task with its grader. Cheap to construct; files are read on demand."""

    model_config = ConfigDict(frozen=True)

    id: str
    category: str
    path: Path
    held_out: bool = False

    @property
    def task(self) -> str:
        return (self.path / "TASK.txt").read_text(encoding="utf-8")

    @property
    def grader(self) -> str:
        return (self.path / "grader.test.ts").read_text(encoding="utf-8")

    @property
    def grader_hash(self) -> str:
        return sha256_text(self.grader)

    @property
    def gaps(self) -> str | None:
        gaps = self.path / "GAPS.txt"
        return gaps.read_text(encoding="utf-8") if gaps.is_file() else None

    def answer_files(self) -> dict[str, str]:
        """The reference answer as ``{"convex/messages.ts": text, ...}``, sorted by path."""
        root = self.path / "answer"
        files: dict[str, str] = {}
        for top in _ANSWER_ROOTS:
            for file in sorted((root / top).rglob("*")):
                if file.is_file() and "_generated" not in file.parts:
                    files[file.relative_to(root).as_posix()] = file.read_text(encoding="utf-8")
        return files

    def content_hash(self) -> str:
        return sha256_json({"task": self.task, "grader": self.grader, "answer": self.answer_files()})


def load_eval(path: Path, eval_id: str | None = None, held_out: bool = False) -> Eval:
    """Load one eval folder, checking it is complete; its id defaults to ``category/name``."""
    path = Path(path)
    missing = [name for name in ("TASK.txt", "grader.test.ts") if not (path / name).is_file()]
    if not (path / "answer" / "convex").is_dir():
        missing.append("answer/convex/")
    if missing:
        raise InputError(f"{path}: malformed eval, missing {', '.join(missing)}")
    eval_id = eval_id or f"{path.parent.name}/{path.name}"
    ev = Eval(id=eval_id, category=category_of(path.parent.name), path=path, held_out=held_out)
    if not ev.answer_files():
        raise InputError(f"{path}: malformed eval, answer/convex/ holds no files")
    return ev


class Suite(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    root: Path
    manifest: Manifest
    manifest_text: str
    evals: list[Eval]

    @property
    def categories(self) -> list[str]:
        return list(self.manifest.categories)

    @property
    def toolchain_dir(self) -> Path:
        return self.root / self.manifest.toolchain

    @cached_property
    def hash(self) -> str:
        return sha256_json({"manifest": self.manifest_text, "evals": {e.id: e.content_hash() for e in self.evals}})

    def get(self, eval_id: str) -> Eval:
        for ev in self.evals:
            if ev.id == eval_id:
                return ev
        raise NotFoundError(f"unknown eval '{eval_id}' (see `tuner evals list`)")

    def select(
        self,
        category: str | None = None,
        ids: list[str] | None = None,
        held_out: bool | None = None,
    ) -> list[Eval]:
        """Filter the evals; ``held_out=False`` keeps only the tuning subset, ``True`` only held-out."""
        if category is not None and category not in self.manifest.categories:
            valid = ", ".join(self.manifest.categories)
            raise NotFoundError(f"unknown category '{category}' (valid: {valid})")
        chosen = self.evals
        if ids is not None:
            chosen = [self.get(i) for i in ids]
        if category is not None:
            chosen = [e for e in chosen if e.category == category]
        if held_out is not None:
            chosen = [e for e in chosen if e.held_out == held_out]
        return chosen


def load_suite(project: Project) -> Suite:
    root = project.evals
    manifest_path = root / "suite.toml"
    manifest, text = read_manifest(manifest_path)
    held = set(manifest.held_out)
    evals: list[Eval] = []
    for cat_dir in sorted(p for p in root.iterdir() if p.is_dir() and _NUMBERED.match(p.name)):
        category = category_of(cat_dir.name)
        if category not in manifest.categories:
            raise InputError(f"{manifest_path}: field 'categories' lacks '{category}' (folder {cat_dir})")
        for ev_dir in sorted(p for p in cat_dir.iterdir() if p.is_dir() and _NUMBERED.match(p.name)):
            eval_id = f"{cat_dir.name}/{ev_dir.name}"
            evals.append(load_eval(ev_dir, eval_id, held_out=eval_id in held))
    unknown = held - {e.id for e in evals}
    if unknown:
        raise InputError(f"{manifest_path}: field 'held_out' names unknown evals: {', '.join(sorted(unknown))}")
    return Suite(root=root, manifest=manifest, manifest_text=text, evals=evals)
