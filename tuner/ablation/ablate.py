"""`ablate`: run a design, estimate the rule × category (× model) effect matrix, store it."""

from __future__ import annotations

from pydantic import BaseModel

from tuner.ablation.designs import Variant, add_one_in, loo, screening
from tuner.ablation.effects import Effect, finalize, paired_effects, regression_effects
from tuner.errors import InputError
from tuner.hashing import sha256_json, short
from tuner.runs import Harness, run_selections

__all__ = ["AblationReport", "ablate", "rule_tokens"]


class AblationReport(BaseModel):
    id: str
    design: str
    set_name: str
    models: list[str]
    runs: int
    samples: int
    eval_ids: list[str]
    effects: list[Effect]
    calls: int

    def verdicts(self, model: str | None = None) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for e in self.effects:
            if model is None or e.model == model:
                out.setdefault(e.rule, {})[e.category] = e.verdict
        return out


def rule_tokens(h: Harness, selection: dict[str, str]) -> dict[str, int]:
    """Each rule's own token cost: the prompt with only that rule minus the empty prompt."""
    empty = h.guidelines.compose_selection({}).tokens
    return {rid: h.guidelines.compose_selection({rid: v}).tokens - empty for rid, v in selection.items()}


def _variants(design: str, selection: dict[str, str], runs: int | None, seed: int, eval_ids: list[str]) -> list[Variant]:
    if design == "loo":
        return loo(selection)
    if design == "add":
        return add_one_in(selection)
    if design == "screening":
        return screening(selection, eval_ids, runs or default_screening_runs(len(selection)), seed)
    raise InputError(f"--design {design!r}: use loo, add or screening")


def default_screening_runs(n_rules: int) -> int:
    """Replicates per eval: about two-thirds of a leave-one-out's runs (R + 1), at least 8."""
    return max(8, (2 * (n_rules + 1)) // 3)


def _run_cells(h: Harness, cells: list[Variant], specs: list, prefix: str, progress) -> list[dict]:
    from tuner.guidelines import RuleSet
    from tuner.runs import RunConfig, execute_runs

    configs = [
        RunConfig(spec=spec, rule_set=RuleSet.from_selection(f"{prefix}-{c.name}", c.selection), eval_ids=(c.eval_id,),
                  samples=1, sample_offset=c.replicate)
        for c in cells for spec in specs
    ]
    flat = execute_runs(h, configs, progress)
    return [{spec.key: flat[i * len(specs) + j] for j, spec in enumerate(specs)} for i in range(len(cells))]


def ablate(
    h: Harness,
    *,
    design: str,
    set_name: str,
    specs: list,
    samples: int,
    runs: int | None = None,
    seed: int = 0,
    category: str | None = None,
    held_out: bool | None = False,
    progress=None,
) -> AblationReport:
    rule_set = h.guidelines.load_set(set_name)
    selection = rule_set.select(h.guidelines.library)
    eval_ids = [e.id for e in h.suite.select(category=category, held_out=held_out)]
    variants = _variants(design, selection, runs, seed, eval_ids)
    replicates = max(v.replicate for v in variants) + 1
    config = {"design": design, "set": set_name, "selection": selection, "models": [s.key for s in specs],
              "samples": samples, "runs": replicates if design == "screening" else len(variants), "seed": seed,
              "evals": eval_ids}
    exp_id = sha256_json({"kind": "ablate", **config})
    prefix = f"ablate-{short(exp_id, 8)}"
    if design == "screening":
        groups = _run_cells(h, variants, specs, prefix, progress)
        effects = regression_effects(variants, groups)
    else:
        groups = run_selections(h, [(f"{prefix}-{v.name}", v.selection) for v in variants], specs, eval_ids,
                                samples=samples, progress=progress)
        effects = paired_effects(variants, groups, design)
    report = AblationReport(
        id=exp_id, design=design, set_name=set_name, models=[s.model for s in specs], runs=config["runs"], samples=samples,
        eval_ids=eval_ids, effects=finalize(effects, rule_tokens(h, selection)),
        calls=sum(o.new_calls for g in groups for o in g.values()),
    )
    h.store.save_experiment(exp_id, f"ablate-{design}-{set_name}", "ablate", config, result=report.model_dump(mode="json"))
    return report
