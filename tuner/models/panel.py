"""Model panels: which models a run uses, with their parameters.

A panel is ``experiments/<name>.toml`` with ``[[models]]`` tables, one ``ModelSpec`` each.
``ModelSpec.key`` (model, params, api_base) is the run identity of a model; concurrency, rate and
retry settings only change how fast we get the answers, not what they are, so they stay out of it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tuner.errors import InputError, NotFoundError, ProviderError
from tuner.hashing import sha256_json
from tuner.models.labels import SIM_PREFIX, is_sim_model, model_label
from tuner.paths import Project

__all__ = ["ModelSpec", "load_panel", "check_models", "is_sim_model", "SIM_PREFIX"]

_MODEL = re.compile(r"^[A-Za-z0-9_.\-]+/\S+$")


class ModelSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(description="litellm model string with provider prefix, e.g. openai/gpt-5-mini, sim/careful")
    params: dict[str, Any] = Field(default_factory=dict, description="temperature, max_tokens, top_p, seed, ...")
    api_base: str | None = None
    concurrency: int = Field(8, ge=1, le=1024)
    rpm: float | None = Field(None, gt=0, description="requests per minute; None = unlimited")
    timeout_s: float = Field(300.0, gt=0)
    max_retries: int = Field(4, ge=0, le=20)
    backoff_s: float = Field(2.0, ge=0, description="first retry wait; doubles each attempt, with jitter")

    @model_validator(mode="before")
    @classmethod
    def _sim_variety(cls, data: Any) -> Any:
        # TUNER_SIM_VARIETY=1 is the simulator's `variety` parameter on every sim model: in the
        # params, so run ids and cached responses tell varied answers from repeated ones.
        from tuner.models.sim.variety import PARAM, env_enabled

        if isinstance(data, dict) and is_sim_model(str(data.get("model", ""))) and env_enabled():
            params = data.get("params") or {}
            if PARAM not in params:
                data = {**data, "params": {**params, PARAM: True}}
        return data

    @field_validator("params")
    @classmethod
    def _no_secrets(cls, value: dict[str, Any]) -> dict[str, Any]:
        from tuner.secrets import secret_params

        secret = secret_params(value)
        if secret:
            # InputError (not ValueError) passes through pydantic unwrapped: a direct ModelSpec(...)
            # call gets the same one-line error as a panel file.
            raise InputError(
                f"params.{secret[0]} must not be in params: set the provider's environment variable "
                "(e.g. OPENAI_API_KEY); secrets never go into configs or the store"
            )
        return value

    @field_validator("api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        from urllib.parse import urlsplit

        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InputError(f"api_base {value!r}: not an http(s) URL (e.g. http://127.0.0.1:8000/v1)")
        if parts.username or parts.password:
            raise InputError(
                "api_base must not carry credentials (user:password@); set the provider's key variable instead"
            )
        return value

    @property
    def key(self) -> str:  # not cached: model_copy() would carry a stale value along
        return sha256_json({"model": self.model, "params": self.params, "api_base": self.api_base})

    @property
    def is_sim(self) -> bool:
        return is_sim_model(self.model)

    @property
    def label(self) -> str:
        return model_label(self.model, self.params)

    @property
    def provider(self) -> str:
        return self.model.split("/", 1)[0]


def _panel_path(path_or_name: str | Path, project: Project | None) -> Path:
    path = Path(path_or_name)
    if path.suffix == ".toml" or path.exists() or project is None:
        return path
    return project.experiments / f"{path_or_name}.toml"


def load_panel(path_or_name: str | Path, project: Project | None = None, *, check_sim: bool = True) -> list[ModelSpec]:
    """Specs from ``experiments/<name>.toml`` (or a path). Errors name the file and the field.

    ``check_sim``: also check that every ``sim/*`` entry is a profile of the project's suite
    (off when the panel is only read for the settings of models chosen elsewhere)."""
    path = _panel_path(path_or_name, project)
    if not path.is_file():
        raise NotFoundError(f"{path}: no such panel file")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
    extra = sorted(set(raw) - {"models"})
    if extra:
        raise InputError(f"{path}: unknown top-level key {extra[0]!r} (expected [[models]] tables)")
    tables = raw.get("models")
    if not isinstance(tables, list) or not tables:
        raise InputError(f"{path}: no [[models]] tables")
    specs = [_spec(table, path, n) for n, table in enumerate(tables)]
    dupes = sorted({s.model for s in specs if sum(t.key == s.key for t in specs) > 1})
    if dupes:
        raise InputError(f"{path}: model {dupes[0]} listed twice with the same params")
    for spec in specs:
        _check_prefix(spec, f"{path}: ")
    if check_sim:
        _check_sim_profiles(specs, project.suite_root if project else None)
    return specs


def _check_prefix(spec: ModelSpec, where: str = "") -> None:
    if not _MODEL.match(spec.model):
        raise ProviderError(
            f"{where}model {spec.model!r} has no provider prefix (e.g. openai/gpt-5-mini, anthropic/..., sim/careful)"
        )


def _spec(table: Any, path: Path, n: int) -> ModelSpec:
    name = table.get("model", "?") if isinstance(table, dict) else "?"
    try:
        return ModelSpec.model_validate(table)
    except InputError as exc:
        raise InputError(f"{path}: models[{n}] ({name}): {exc}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(x) for x in err["loc"]) or "?"
        raise InputError(f"{path}: models[{n}] ({name}): {field}: {err['msg']}") from None


def _check_sim_profiles(specs: list[ModelSpec], suite_root: Path | None) -> None:
    sims = [s for s in specs if s.is_sim]
    if not sims:
        return
    from tuner.models.sim.profiles import load_sim_data
    from tuner.models.sim.world import default_suite_root

    root = suite_root or default_suite_root()
    for spec in sims:
        load_sim_data(root, spec.params.get("sim_file")).profile(spec.model.removeprefix(SIM_PREFIX))


def check_models(specs: list[ModelSpec], suite_root: Path | None = None, *, route: bool = True) -> None:
    """Raise ProviderError naming the first unusable model: a string without a provider prefix, a
    ``sim/*`` profile the suite (``suite_root``, default: the project's) does not define, or, with
    ``route``, a provider litellm cannot route. litellm is imported only to route a real model."""
    for spec in specs:
        _check_prefix(spec)
    _check_sim_profiles(specs, suite_root)
    real = [s for s in specs if not s.is_sim]
    if not route or not real:
        return
    from tuner.models.runtime import litellm_module

    litellm = litellm_module()
    for spec in real:
        try:
            litellm.get_llm_provider(spec.model, api_base=spec.api_base)
        except Exception as exc:  # litellm raises BadRequestError; any failure means "cannot route"
            raise ProviderError(f"{spec.model}: litellm does not know provider {spec.provider!r}") from exc
        if spec.provider not in litellm.provider_list:
            raise ProviderError(f"{spec.model}: litellm does not know provider {spec.provider!r}")
