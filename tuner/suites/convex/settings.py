"""What a Convex suite configures besides the shared manifest: its keys in ``suite.toml`` (the
toolchain folder, lint levels) and each eval's ``eval.toml`` (the npm packages it provides)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from tuner.errors import InputError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["ConvexSettings", "ConvexEvalConfig", "LintOverride", "check_dependencies", "dependencies", "settings",
           "toolchain_dir"]


class LintOverride(BaseModel):
    """A lint rule whose level differs from the plugin's recommended configuration, with why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str
    level: Literal["error", "warn", "off"]
    reason: str = Field(min_length=10)


class ConvexSettings(BaseModel):
    """The Convex kind's keys in ``suite.toml`` (top level, beside the shared ones)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    toolchain: str = Field("toolchain", description="Folder of the locked Node toolchain, relative to the suite.")
    lint: list[LintOverride] = Field(default_factory=list, description="Lint levels that differ from the recommended set.")


class ConvexEvalConfig(BaseModel):
    """``eval.toml`` in a Convex eval folder (unknown keys are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dependencies: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, description="Packages of the suite's toolchain this eval provides.")


def settings(suite) -> ConvexSettings:
    return suite.manifest.kind_settings or ConvexSettings()


def toolchain_dir(suite) -> Path:
    return suite.root / settings(suite).toolchain


def dependencies(ev) -> tuple[str, ...]:
    """The npm packages (from the suite's one toolchain) an answer to ``ev`` may import."""
    config = getattr(ev, "kind_settings", None)
    return tuple(config.dependencies) if config is not None else ()


def check_dependencies(suite) -> None:
    """Every package an eval declares must be one the suite's locked toolchain installs."""
    wanted = {d for e in suite.evals for d in dependencies(e)}
    if not wanted:
        return
    package_json = toolchain_dir(suite) / "package.json"
    try:
        provided = set(json.loads(package_json.read_text(encoding="utf-8")).get("dependencies", {}))
    except (OSError, ValueError) as e:
        raise InputError(f"{package_json}: cannot read the toolchain's dependencies: {e}") from None
    for ev in suite.evals:
        missing = [d for d in dependencies(ev) if d not in provided]
        if missing:
            raise InputError(f"{ev.path / 'eval.toml'}: field 'dependencies' names packages the toolchain "
                             f"({package_json}) does not install: {', '.join(missing)}")
