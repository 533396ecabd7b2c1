"""Loading small hand-written YAML files into strict pydantic models with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from tuner.errors import InputError

M = TypeVar("M", bound=BaseModel)


def load_model(path: Path, model: type[M], *, label: str | None = None) -> M:
    import yaml

    name = label or str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InputError(f"{name}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(f"{name}: expected a mapping of keys at the top level")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(top level)"
        message = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise InputError(f"{name}: field '{field}': {message}") from None
