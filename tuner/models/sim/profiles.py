"""Simulated model profiles and the planted-truth data they are made of.

The data lives in the eval suite's folder (``<suite>/sim/gaps.yaml``, ``<suite>/sim/profiles.yaml``); a
user file (``TUNER_SIM_FILE`` or the ``sim_file`` model parameter) with top-level ``gaps:`` and/or
``profiles:`` adds entries or replaces same-named ones, so anyone can plant their own truth.

How a profile turns guidance into behaviour (shared by the simulator and ``truth``):

* ``attention(tokens) = 1 / (1 + (tokens / attention_tokens) ** 2)``: how well guidance is followed,
  1 for a short prompt, 1/2 when the system prompt is ``attention_tokens`` long, falling
  quadratically after. Tokens are estimated offline as ``ceil(chars / 4)``.
* a gap's mistake probability is ``(b + (1 - b) * induce) * (1 - cure)`` where ``b`` is the
  profile's base probability for the gap, ``cure = cure_strength * cue * attention`` (``cue`` the
  strongest matching cure cue) and ``induce`` the same for ``induced_by`` cues (harmful guidance).
* a side effect fires with ``probability * attention`` when its ``rule_cue`` is in the prompt.
* ``noise``: with this probability one more applicable gap, chosen uniformly, is planted anyway.
* ``priming``: any instruction text helps a little, whatever it says (a placebo arm shows it): every
  gap's mistake probability is multiplied by ``1 - priming * tokens / (tokens + priming_tokens)``,
  growing with the system prompt's tokens and bounded by ``priming``.
* the repair loop (``repairs``, per gap; ``repair`` for the gaps not listed): after a failed turn
  each mistake still in the answer is fixed with ``from_error + (1 - from_error) * taught * follow(cue)``
  (``cue`` the strongest cure cue of the system prompt): a chance to fix it from the error alone, and
  a chance to fix it only when a rule teaches the fix. ``prevents`` scales how much that rule
  prevents the mistake in the first answer (0: it only teaches the fix).
"""

from __future__ import annotations

import math
import os
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from tuner.errors import InputError
from tuner.hashing import sha256_json
from tuner.models.sim.gaps import Cue, Edit, Gap

__all__ = ["SideEffect", "Repair", "Profile", "SimData", "load_sim_data", "approx_tokens", "sim_data_dir"]


def approx_tokens(text: str) -> int:
    """Offline token estimate (~4 characters a token for English and code)."""
    return math.ceil(len(text) / 4)


class SideEffect(Edit):
    """Over-eager rule following: the cue's rule also causes this edit in evals of ``categories``."""

    rule_cue: str
    categories: list[str] = Field(min_length=1)
    probability: float = Field(1.0, ge=0.0, le=1.0)

    def cue(self) -> Cue:
        return Cue(pattern=self.rule_cue)


class Repair(BaseModel):
    """How a planted mistake fares in the repair loop (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")
    from_error: float = Field(0.0, ge=0.0, le=1.0)
    taught: float = Field(0.0, ge=0.0, le=1.0)
    prevents: float = Field(1.0, ge=0.0, le=1.0)


class Profile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = ""
    gaps: dict[str, float] = Field(default_factory=dict)
    cure_strength: float = Field(ge=0.0, le=1.0)
    attention_tokens: int = Field(gt=0)
    noise: float = Field(0.0, ge=0.0, le=1.0)
    latency_ms: int = Field(0, ge=0)
    side_effects: list[SideEffect] = Field(default_factory=list)
    priming: float = Field(0.0, ge=0.0, le=1.0)
    priming_tokens: int = Field(500, gt=0)
    repair: Repair = Field(default_factory=Repair)  # gaps and side effects not in ``repairs``
    repairs: dict[str, Repair] = Field(default_factory=dict)

    @field_validator("gaps")
    @classmethod
    def _probabilities(cls, value: dict[str, float]) -> dict[str, float]:
        bad = {k: p for k, p in value.items() if not 0.0 <= p <= 1.0}
        if bad:
            raise ValueError(f"base probabilities must be in [0, 1]: {bad}")
        return value

    def attention(self, prompt_tokens: int) -> float:
        return 1.0 / (1.0 + (prompt_tokens / self.attention_tokens) ** 2)

    def follow(self, cue: float, prompt_tokens: int) -> float:
        """How strongly guidance with cue strength ``cue`` is acted on."""
        return self.cure_strength * cue * self.attention(prompt_tokens)

    def mistake_probability(self, gap: Gap, system_prompt: str, prompt_tokens: int | None = None) -> float:
        base = self.gaps.get(gap.id, 0.0)
        tokens = approx_tokens(system_prompt) if prompt_tokens is None else prompt_tokens
        induce = self.follow(gap.induce_strength(system_prompt), tokens)
        cure = self.repair_of(gap.id).prevents * self.follow(gap.cure_strength(system_prompt), tokens)
        primed = self.priming * tokens / (tokens + self.priming_tokens)
        return (base + (1.0 - base) * induce) * (1.0 - cure) * (1.0 - primed)

    def repair_of(self, mistake_id: str) -> Repair:
        return self.repairs.get(mistake_id, self.repair)

    def fix_probability(
        self, mistake_id: str, cures: list[Cue], system_prompt: str, prompt_tokens: int | None = None
    ) -> float:
        """The chance a mistake still in the answer is fixed at the next turn."""
        from tuner.models.sim.gaps import cue_strength

        r = self.repair_of(mistake_id)
        tokens = approx_tokens(system_prompt) if prompt_tokens is None else prompt_tokens
        taught = r.taught * self.follow(cue_strength(cures, system_prompt), tokens) if r.taught else 0.0
        return r.from_error + (1.0 - r.from_error) * taught

    def side_effect_probability(
        self, effect: SideEffect, system_prompt: str, prompt_tokens: int | None = None
    ) -> float:
        if not effect.cue().matches(system_prompt):
            return 0.0
        tokens = approx_tokens(system_prompt) if prompt_tokens is None else prompt_tokens
        return effect.probability * self.attention(tokens)


class SimData(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gaps: list[Gap] = Field(default_factory=list)
    profiles: dict[str, Profile] = Field(default_factory=dict)
    # Per-process memo: which gaps apply to an eval's reference answer (keyed by eval id).
    _applicable: dict[str, list[Gap]] = PrivateAttr(default_factory=dict)

    def applicable(self, eval_id: str, answer: dict[str, str]) -> list[Gap]:
        found = self._applicable.get(eval_id)
        if found is None:
            found = self._applicable[eval_id] = [g for g in self.gaps if g.applies_to(answer)]
        return found

    def gap(self, gap_id: str) -> Gap:
        return self._gap_index()[gap_id]

    def _gap_index(self) -> dict[str, Gap]:
        return {g.id: g for g in self.gaps}

    def profile(self, name: str) -> Profile:
        from tuner.errors import ProviderError

        if name not in self.profiles:
            known = ", ".join(sorted(self.profiles)) or "none"
            raise ProviderError(f"sim/{name}: unknown simulated profile (known: {known})")
        return self.profiles[name]

    @property
    def digest(self) -> str:
        """Content hash: simulated answers change when the planted truth does."""
        data = self.model_dump(mode="json")
        for prof in data["profiles"].values():  # repair settings left at their defaults change no answer
            if prof.get("repairs") == {}:
                del prof["repairs"]
            if prof.get("repair") == Repair().model_dump(mode="json"):
                del prof["repair"]
        return sha256_json(data)

    def merged(self, other: SimData) -> SimData:
        gaps = self._gap_index() | other._gap_index()
        return SimData(gaps=list(gaps.values()), profiles=self.profiles | other.profiles)

    def check(self, source: str) -> SimData:
        ids = [g.id for g in self.gaps]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise InputError(f"{source}: duplicate gap ids {dupes}")
        for name, prof in self.profiles.items():
            unknown = sorted(set(prof.gaps) - set(ids))
            if unknown:
                raise InputError(f"{source}: profile {name}: unknown gap ids {unknown}")
            unknown = sorted(set(prof.repairs) - set(ids) - {e.id for e in prof.side_effects})
            if unknown:
                raise InputError(f"{source}: profile {name}: repairs of unknown gap or side-effect ids {unknown}")
        return self


def sim_data_dir(suite_root: Path) -> Path:
    return suite_root / "sim"


def _read_yaml(path: Path) -> dict:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc})") from None
    if not isinstance(raw, dict):
        raise InputError(f"{path}: expected a mapping at the top level")
    return raw


def _parse(raw: dict, source: str) -> SimData:
    try:
        return SimData.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InputError(f"{source}: {where}: {first['msg']}") from None


def _stamp(path: Path) -> tuple[str, int]:
    try:
        return str(path), path.stat().st_mtime_ns
    except OSError:
        return str(path), -1


def load_sim_data(root: Path | None, sim_file: str | Path | None = None) -> SimData:
    """The built-in data under ``root`` merged with the user file (argument, else TUNER_SIM_FILE).

    Built-in data: ``gaps.yaml``, ``profiles.yaml``, every ``gaps/*.yaml`` then every
    ``profiles/*.yaml`` in name order (a profile file adds whole profiles). A
    file under ``gaps/`` holds one area's gaps and, under ``rates: {profile: {gap id: p}}``, the
    base probability each profile has for them, so an area is added without editing shared files.
    """
    user = sim_file or os.environ.get("TUNER_SIM_FILE") or None
    paths: list[Path] = []
    if root is not None:
        base = sim_data_dir(root)
        paths += [
            base / "gaps.yaml",
            base / "profiles.yaml",
            *sorted((base / "gaps").glob("*.yaml")),
            *sorted((base / "profiles").glob("*.yaml")),
        ]
    if user:
        paths.append(Path(user).expanduser())
    # Keyed by modification times so an edited file is picked up without a restart.
    return _load_cached(tuple(_stamp(p) for p in paths), user is not None)


@lru_cache(maxsize=32)
def _load_cached(stamps: tuple[tuple[str, int], ...], has_user: bool) -> SimData:
    data = SimData()
    for n, (path_str, mtime) in enumerate(stamps):
        path = Path(path_str)
        if mtime < 0:
            if has_user and n == len(stamps) - 1:
                raise InputError(f"{path}: simulated-model file not found")
            continue  # a project without built-in sim data is fine
        raw = _read_yaml(path)
        rates = raw.pop("rates", None) or {}
        data = data.merged(_parse(raw, str(path)))
        data = _with_rates(data, rates, str(path))
    # Cross-file checks (profile -> gap ids) once everything is merged.
    return data.check(str(Path(stamps[-1][0]) if stamps else "sim data"))


def _with_rates(data: SimData, rates: object, source: str) -> SimData:
    """Add ``{profile: {gap id: probability}}`` to profiles defined earlier."""
    if not isinstance(rates, dict):
        raise InputError(f"{source}: rates: expected a mapping of profile -> {{gap id: probability}}")
    profiles = dict(data.profiles)
    for name, table in rates.items():
        if name not in profiles:
            raise InputError(f"{source}: rates.{name}: unknown profile (define it in profiles.yaml first)")
        if not isinstance(table, dict):
            raise InputError(f"{source}: rates.{name}: expected a mapping of gap id -> probability")
        try:
            profiles[name] = Profile.model_validate(
                {**profiles[name].model_dump(), "gaps": {**profiles[name].gaps, **table}}
            )
        except ValidationError as exc:
            raise InputError(f"{source}: rates.{name}: {exc.errors()[0]['msg']}") from None
    return SimData(gaps=data.gaps, profiles=profiles)
