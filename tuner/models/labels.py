"""How a model is named in every table: the model string and its parameters, and whether it is
the offline simulator. Here, beside the panel, so ``ModelSpec.label`` needs nothing above models."""

from __future__ import annotations

__all__ = ["SIM_PREFIX", "is_sim_model", "is_simulated", "model_label"]

SIM_PREFIX = "sim/"


def is_sim_model(model: str) -> bool:
    """``sim/<profile>``: the offline simulator."""
    return model.startswith(SIM_PREFIX)


# The name the tables and reports use.
is_simulated = is_sim_model


def model_label(model: str, params: dict | None = None) -> str:
    """A readable name for a model *and its parameters* (one model at two temperatures is two
    rows); simulated models are always named as such, in every output."""
    shown = ", ".join(f"{k}={params[k]}" for k in sorted(params or {}) if k != "sim_file")
    name = f"{model} [{shown}]" if shown else model
    return f"{name} (simulator)" if is_sim_model(model) else name
