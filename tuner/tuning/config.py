"""What defines a tuning study. Its hash names the study, so the same command resumes it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tuner.hashing import sha256_json, short

__all__ = ["TuneConfig", "FRESH_BASE", "fresh_offset"]

# Fresh samples (the confirmation's; the removed TPE search's evidence) live in a window of their own per
# experiment, far above every index the trials and the screening use (the screening's replicates
# grow with its budget: a fixed offset of 1,000 was reached by large budgets, and then the
# "fresh" samples were the screening's own answers again).
FRESH_BASE = 1_000_000
# The placebo arm (tune --placebo) draws after both: the confirmation's rounds and the evidence's
# design stay far below a quarter of the window each, so nothing tune saw is replayed to it.
_PHASES = {"confirm": 0, "evidence": FRESH_BASE // 2, "placebo": 3 * FRESH_BASE // 4}


def fresh_offset(config: "TuneConfig", phase: str = "confirm") -> int:
    """The first fresh sample index of ``phase`` for this study: a window of ``FRESH_BASE`` indices
    chosen by the study's hash (one of 1,000; a rerun finds the same one, so nothing is bought
    twice), ``phase`` a half of it. Below 2**31, as the stores' integer columns require."""
    return FRESH_BASE * (1 + int(short(config.hash, 8), 16) % 1000) + _PHASES[phase]


class TuneConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    category: str = Field(description="The target category whose pass rate is maximised.")
    models: list[dict] = Field(description="ModelSpec dumps of the panel (no secrets).")
    samples: int = Field(4, description="Samples per eval per trial.")
    tolerance: float = Field(
        0.15,
        description="The margin other categories are shown against: a cell is non-inferior when a drop this large is ruled out (the publish gate's margin by default). Decisions stop on an established drop of any size (tuner.stats.drop_tests).",
    )
    baseline: str = Field(description="Where the baseline came from: a published name or a set.")
    baseline_selection: dict[str, str] = Field(description="The baseline rules {id: variant}: trial 0.")
    pool: list[str] = Field(description="Rule ids the study may switch on or off.")
    variants: dict[str, list[str]] = Field(default_factory=dict, description="Phrasings available per pool rule.")
    eval_ids: list[str] = Field(description="Tuning evals (held-out ones excluded), all categories.")
    seed: int = Field(0, description="Seed of the screening's design.")
    # Part of a study's identity, so kept: "screen" is the one flow (tuning/screen.py); "tpe" marks a
    # study of the TPE search, removed in issue 32 (docs/tune-and-publish.md: it needed 35x the
    # calls for the same decisions), which `publish` still reads and `tune` refuses to continue.
    search: Literal["screen", "tpe"] = Field("screen", description="The flow: 'screen'; 'tpe' only in older studies.")

    @classmethod
    def stored(cls, raw: str) -> "TuneConfig":
        """A configuration recorded on a study. One recorded before there was a choice of search
        has no ``search``: it was the TPE search (the default is only for new studies)."""
        import json

        data = json.loads(raw)
        data.setdefault("search", "tpe")
        return cls.model_validate(data)

    @property
    def hash(self) -> str:
        dump = self.model_dump()
        if dump["search"] == "tpe":  # the flow studies had before there was a choice: their names stay
            del dump["search"]
        return sha256_json(dump)

    @property
    def default_study_name(self) -> str:
        return f"tune-{self.category}-{short(self.hash, 8)}"
