"""What defines a tuning study. Its hash names the study, so the same command resumes it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tuner.hashing import sha256_json, short

__all__ = ["TuneConfig", "FRESH_OFFSET"]

# Confirmation samples start here, far from the sample indices trials were selected on.
FRESH_OFFSET = 1000


class TuneConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    category: str = Field(description="The target category whose pass rate is maximised.")
    models: list[dict] = Field(description="ModelSpec dumps of the panel (no secrets).")
    samples: int = Field(description="Samples per eval per trial.")
    tolerance: float = Field(description="How far another category's paired point estimate may fall below the baseline (a significant drop of any size counts too).")
    baseline: str = Field(description="Where the baseline came from: a published name or a set.")
    baseline_selection: dict[str, str] = Field(description="The baseline rules {id: variant}: trial 0.")
    pool: list[str] = Field(description="Rule ids the study may switch on or off.")
    variants: dict[str, list[str]] = Field(default_factory=dict, description="Phrasings available per pool rule.")
    eval_ids: list[str] = Field(description="Tuning evals (held-out ones excluded), all categories.")
    seed: int = 0
    # "screen": single changes screened on the target's evals, the winner checked for regressions
    # (tuning/screen.py); "tpe": every single change on all tuning evals, then Optuna's TPE.
    search: str = "tpe"

    @property
    def hash(self) -> str:
        dump = self.model_dump()
        if dump["search"] == "tpe":  # the flow studies had before there was a choice: their names stay
            del dump["search"]
        return sha256_json(dump)

    @property
    def default_study_name(self) -> str:
        return f"tune-{self.category}-{short(self.hash, 8)}"
