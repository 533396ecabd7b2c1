"""An eval suite on disk: ``<suite>/<NNN-category>/<NNN-name>/``.

Each eval folder holds ``TASK.txt`` (what the model is asked), ``answer/`` (a reference answer laid
out under the kind's answer roots), the kind's grader file, and optionally ``GAPS.txt`` (what the
grader does not check), ``eval.toml`` (settings the kind defines, validated by its
``eval_config_model``; Convex: the npm packages the eval provides) and ``alternatives/<name>/``
(more correct answers, written in other idioms, that must pass too). What the suite's kind is, and
so where answers live and which file grades them, the manifest says (``tuner.suites``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tuner.errors import InputError, NotFoundError
from tuner.evals.manifest import Manifest, describe_error, read_manifest
from tuner.hashing import sha256_json, sha256_text
from tuner.paths import Project
from tuner.suites import SuiteKind, get_kind

__all__ = ["Eval", "Suite", "load_suite", "load_eval", "read_eval_config", "category_of", "suite_categories"]

_NUMBERED = re.compile(r"^\d{3}-[a-z0-9][a-z0-9_-]*$")


def category_of(folder_name: str) -> str:
    """``005-actions`` -> ``actions``; ``002-data_modeling`` -> ``data_modeling``."""
    return folder_name.split("-", 1)[1] if _NUMBERED.match(folder_name) else folder_name


def _read_files(root: Path, tops: tuple[str, ...], generated: Callable[[dict[str, str]], list[str]] | None) -> dict[str, str]:
    paths = {file.relative_to(root).as_posix(): file for top in tops
             for file in sorted((root / top).rglob("*")) if file.is_file()}
    # What the kind's tools wrote there (an answer someone ran: Python's bytecode caches) is not the
    # answer; the kind tells it by path, so it is never read.
    skipped = set(generated(dict.fromkeys(paths, ""))) if generated else set()
    return {rel: file.read_text(encoding="utf-8") for rel, file in paths.items() if rel not in skipped}


class Eval(BaseModel):
    """One task with its grader. Cheap to construct; files are read on demand."""

    model_config = ConfigDict(frozen=True)

    id: str
    category: str
    path: Path
    held_out: bool = False
    grader_file: str
    answer_roots: tuple[str, ...]
    # The eval's ``eval.toml``, validated by the kind (None without one): part of what it grades against.
    kind_settings: Any = None
    # The kind's ``generated_paths`` (None when it has none): left out of the answers read from disk.
    generated: Callable[[dict[str, str]], list[str]] | None = Field(None, exclude=True, repr=False)

    @property
    def task(self) -> str:
        return (self.path / "TASK.txt").read_text(encoding="utf-8")

    @property
    def grader(self) -> str:
        return (self.path / self.grader_file).read_text(encoding="utf-8")

    @property
    def _settings(self) -> dict:
        # Hashed beside the eval's own parts (Convex: "dependencies"), as they were before kinds
        # owned them, so no eval's hash moved; a setting left at its default is not hashed.
        return self.kind_settings.model_dump(mode="json", exclude_defaults=True) if self.kind_settings is not None else {}

    @property
    def grader_hash(self) -> str:
        """What in the eval folder can change a verdict: the grader and the eval's settings."""
        settings = self._settings
        return sha256_json({"grader": self.grader, **settings}) if settings else sha256_text(self.grader)

    @property
    def gaps(self) -> str | None:
        gaps = self.path / "GAPS.txt"
        return gaps.read_text(encoding="utf-8") if gaps.is_file() else None

    def answer_files(self) -> dict[str, str]:
        """The reference answer as ``{"<root>/path": text, ...}``, sorted by path."""
        return _read_files(self.path / "answer", self.answer_roots, self.generated)

    def alternatives(self) -> dict[str, dict[str, str]]:
        """Other correct answers, by name (``alternatives/<name>/``)."""
        root = self.path / "alternatives"
        if not root.is_dir():
            return {}
        return {d.name: _read_files(d, self.answer_roots, self.generated) for d in sorted(root.iterdir()) if d.is_dir()}

    def content_hash(self) -> str:
        return sha256_json({"task": self.task, "grader": self.grader, "answer": self.answer_files(), **self._settings})


def read_eval_config(path: Path, kind: SuiteKind) -> Any:
    """An eval folder's ``eval.toml`` validated by the kind's ``eval_config_model`` (None when absent);
    errors name the file and field."""
    file = path / "eval.toml"
    if not file.is_file():
        return None
    model = getattr(kind, "eval_config_model", None)
    if model is None:
        raise InputError(f"{file}: kind '{kind.name}' takes no eval.toml")
    try:
        return model.model_validate(tomllib.loads(file.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{file}: invalid TOML: {e}") from None
    except ValidationError as e:
        raise InputError(f"{file}: {describe_error(e)}") from None


def load_eval(path: Path, eval_id: str | None = None, held_out: bool = False, *, kind: SuiteKind) -> Eval:
    """Load one eval folder of a suite of ``kind``, checking it is complete; its id defaults to ``category/name``."""
    path = Path(path)
    grader_file, answer_roots = kind.grader_file, tuple(kind.answer_roots)
    missing = [name for name in ("TASK.txt", grader_file) if not (path / name).is_file()]
    if not (path / "answer" / answer_roots[0]).is_dir():
        missing.append(f"answer/{answer_roots[0]}/")
    if missing:
        raise InputError(f"{path}: malformed eval, missing {', '.join(missing)}")
    eval_id = eval_id or f"{path.parent.name}/{path.name}"
    ev = Eval(id=eval_id, category=category_of(path.parent.name), path=path, held_out=held_out,
              grader_file=grader_file, answer_roots=answer_roots, kind_settings=read_eval_config(path, kind),
              generated=getattr(kind, "generated_paths", None))
    if not ev.answer_files():
        raise InputError(f"{path}: malformed eval, answer/{answer_roots[0]}/ holds no files")
    return ev


class Suite(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    root: Path
    manifest: Manifest
    manifest_text: str
    evals: list[Eval]

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def categories(self) -> list[str]:
        return list(self.manifest.categories)

    @property
    def kind(self) -> SuiteKind:
        """The suite kind (``tuner.suites.SuiteKind``) that grades this suite."""
        return get_kind(self.manifest.kind)

    @property
    def steps(self) -> tuple[str, ...]:
        return tuple(self.kind.steps)

    @property
    def published_name(self) -> str:
        return self.manifest.published_name or self.kind.published_name

    @cached_property
    def hash(self) -> str:
        return sha256_json({"manifest": self.manifest_text, "evals": {e.id: e.content_hash() for e in self.evals}})

    @cached_property
    def grader_id(self) -> str:
        """The kind's grader identity plus the code that reads answers (``tuner.models.answers``):
        reading files out of an answer is the first part of grading it, so a reader's fix re-grades
        stored answers (and gives runs new ids)."""
        from tuner.models.answers import source_files

        reader = {path.name: sha256_text(path.read_text(encoding="utf-8")) for path in source_files()}
        return sha256_json({"kind": self.kind.grader_id(self), "parser": sha256_json(reader)})

    def answer_instructions(self) -> str:
        """The answer-format text appended to every task: the kind's (``output_format``), or, with
        ``answer_format = "tool"``, the write_file tool's (the kind's ``tool_format`` when it has one)."""
        if self.manifest.answer_format == "tool":
            custom = getattr(self.kind, "tool_format", None)
            if custom is not None:
                return custom()
            from tuner.models.answers import tool_instructions

            roots = tuple(self.kind.answer_roots)
            return tool_instructions(roots, f"{roots[0]}/...")
        return self.kind.output_format()

    def answer_tools(self) -> tuple[dict, ...] | None:
        """The tools every request offers: write_file with ``answer_format = "tool"``, else none."""
        if self.manifest.answer_format != "tool":
            return None
        from tuner.models.answers import WRITE_FILE

        return (WRITE_FILE,)

    def get(self, eval_id: str) -> Eval:
        for ev in self.evals:
            if ev.id == eval_id:
                return ev
        raise NotFoundError(f"unknown eval '{eval_id}' (see `tuner evals list`)")

    def check_category(self, category: str) -> str:
        if category not in self.manifest.categories:
            valid = ", ".join(self.manifest.categories)
            raise NotFoundError(f"unknown category '{category}' (valid: {valid})")
        return category

    def select(
        self,
        category: str | None = None,
        ids: list[str] | None = None,
        held_out: bool | None = None,
    ) -> list[Eval]:
        """Filter the evals; ``held_out=False`` keeps only the tuning subset, ``True`` only held-out."""
        if category is not None:
            self.check_category(category)
            if not any(e.category == category for e in self.evals):
                # Refused here, before any run is started: a 0-eval run would be recorded "complete".
                raise InputError(f"{self.root / 'suite.toml'}: category '{category}' has no evals "
                                 f"(add a folder NNN-{category}/NNN-name, or drop it from 'categories')")
        chosen = self.evals
        if ids is not None:
            chosen = [self.get(i) for i in ids]
        if category is not None:
            chosen = [e for e in chosen if e.category == category]
        if held_out is not None:
            chosen = [e for e in chosen if e.held_out == held_out]
        return chosen


def load_suite(project: Project | Path) -> Suite:
    """The project's chosen suite (or the suite folder given), validated."""
    root = project.suite_root if isinstance(project, Project) else Path(project)
    manifest_path = root / "suite.toml"
    manifest, text = read_manifest(manifest_path)  # refuses an unknown kind
    kind = get_kind(manifest.kind)
    if manifest.steps is not None and tuple(manifest.steps) != tuple(kind.steps):
        raise InputError(f"{manifest_path}: field 'steps' must be {list(kind.steps)} for kind '{kind.name}', got {manifest.steps}")
    folders = _eval_folders(root, manifest, manifest_path)
    held = set(manifest.held_out) | _split_held_out(folders, manifest)
    evals = [load_eval(path, eval_id, held_out=eval_id in held, kind=kind) for eval_id, path in folders]
    unknown = set(manifest.held_out) - {e.id for e in evals}
    if unknown:
        raise InputError(f"{manifest_path}: field 'held_out' names unknown evals: {', '.join(sorted(unknown))}")
    suite = Suite(root=root, manifest=manifest, manifest_text=text, evals=evals)
    check = getattr(kind, "check_suite", None)  # optional: checks across evals (Convex: packages vs the toolchain)
    if check is not None:
        check(suite)
    return suite


def suite_categories(project: Project) -> list[str] | None:
    """The project's suite's categories (what a rule may target), read from its manifest alone;
    None when the project has no suite."""
    manifest = project.suite_root / "suite.toml"
    return list(read_manifest(manifest)[0].categories) if manifest.is_file() else None


def _eval_folders(root: Path, manifest: Manifest, manifest_path: Path) -> list[tuple[str, Path]]:
    found = []
    for cat_dir in sorted(p for p in root.iterdir() if p.is_dir() and _NUMBERED.match(p.name)):
        category = category_of(cat_dir.name)
        if category not in manifest.categories:
            raise InputError(f"{manifest_path}: field 'categories' lacks '{category}' (folder {cat_dir})")
        for ev_dir in sorted(p for p in cat_dir.iterdir() if p.is_dir() and _NUMBERED.match(p.name)):
            found.append((f"{cat_dir.name}/{ev_dir.name}", ev_dir))
    return found


def _split_held_out(folders: list[tuple[str, Path]], manifest: Manifest) -> set[str]:
    """The evals the manifest's ``[split]`` rule holds out (by folder number: ``Split.holds_out``)."""
    if manifest.split is None:
        return set()
    return {eval_id for eval_id, _ in folders if manifest.split.holds_out(eval_id)}
