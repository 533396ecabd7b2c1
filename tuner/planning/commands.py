"""Each command's question families, read from the plans it will run (before the first call)."""

from __future__ import annotations

import math
from dataclasses import replace

from tuner.planning.families import (
    Detectable,
    calls_to_decide,
    confirmation_family,
    engine_designs,
    engine_family,
    paired_family,
)
from tuner.planning.mde import mde

__all__ = [
    "ablate_detectables",
    "ablate_calls_for",
    "open_leads",
    "screen_plan",
    "tune_detectables",
    "tune_calls_for",
    "paired_detectables",
    "engine_calls_for",
]


def _rules_mde(plan) -> float | None:
    """The rules' MDE in the category with the fewest evals (the largest of the categories')."""
    smallest = min(plan.evals, key=lambda c: len(plan.evals[c]))
    return mde(engine_designs(plan)[smallest]["rules"])


def engine_calls_for(plan, effect: float) -> int | None:
    """The smallest engine budget whose rules' MDE (every category) is at most ``effect``."""
    return calls_to_decide(
        effect, lambda calls: _rules_mde(replace(plan, budget_calls=calls)), start=max(100, plan.budget_calls // 4)
    )


def _ablate_plan(h, selection: dict, specs: list, eval_ids: list[str], budget: int, zone, seed: int = 0, looks=None):
    from tuner.ablation import engine_plan

    return engine_plan(h, selection, specs, eval_ids, budget_calls=budget, zone=zone, seed=seed, looks=looks)


def ablate_detectables(
    h, selection: dict, specs: list, eval_ids: list[str], budget: int, zone, *, seed: int = 0, looks=None
) -> list[Detectable]:
    """``looks``: the experiment's looks so far (``Store.engine_looks``): a continuation decides with
    what is left of the error budget."""
    plan = _ablate_plan(h, selection, specs, eval_ids, budget, zone, seed, looks)
    return [engine_family(plan, "ablate: rule x model x category" + (" (continued)" if plan.made else ""))]


def ablate_calls_for(
    h, selection: dict, specs: list, eval_ids: list[str], zone, effect: float, *, seed: int = 0, looks=None
) -> int | None:
    """The cap (calls) whose design decides ``effect``: the engine's points, times the turns a point may take."""
    points = engine_calls_for(_ablate_plan(h, selection, specs, eval_ids, 1000, zone, seed, looks), effect)
    return None if points is None else points * getattr(h, "turns", 1)


SCREEN_LOOKS = "screen"  # the screening's looks within the tune's experiment (``engine_effects``' ``looks_key``)
CONFIRM_LOOKS = "confirm"  # the confirmation's, every selection's (``tuner.tuning.confirm_looks``)


def screen_plan(h, config, specs: list, cap: int):
    """The engine ``Plan`` tune's screening runs under ``cap``: a continuation of the looks the
    study's screening made already (``Store.engine_looks``), if any."""
    from tuner.ablation import engine_plan
    from tuner.stats.zones import Zone
    from tuner.tuning.budgets import screen_budget, screen_pool
    from tuner.tuning.screen import target_evals

    pool, variants = screen_pool(config)
    return engine_plan(
        h,
        pool,
        specs,
        target_evals(h, config),
        budget_calls=screen_budget(cap),
        zone=Zone(),
        seed=config.seed,
        variants=variants,
        looks=h.store.engine_looks(config.hash, SCREEN_LOOKS),
    )


def tune_detectables(h, config, specs: list, cap: int | None, confirm_calls: int) -> list[Detectable]:
    """Tune's screening (the engine on the target's evals, its share of ``cap``) and its
    confirmation of the winner on the target (``confirm_calls``: the calls the plan gives it)."""
    from tuner.stats.zones import Zone
    from tuner.tuning.budgets import confirm_per_sample, evidence_samples
    from tuner.tuning.confirmation import planned_rounds
    from tuner.tuning.screen import target_evals

    out = []
    if cap is not None:
        out.append(engine_family(screen_plan(h, config, specs, cap), f"screening of {config.category}"))
    held = len(h.suite.select(held_out=True))
    per_sample = confirm_per_sample(config, held, len(specs))
    rounds = planned_rounds(evidence_samples(config), per_sample, confirm_calls)
    out.append(
        confirmation_family(
            rounds,
            len(target_evals(h, config)),
            len(specs),
            Zone(),
            family=f"confirmation of the winner on {config.category}",
            looks=h.store.engine_looks(config.hash, CONFIRM_LOOKS),
        )
    )
    return out


def tune_calls_for(h, config, specs: list, effect: float) -> int | None:
    """The cap whose screening share decides ``effect`` with 80% power (the rest goes, as always, to
    the regression check and the confirmation)."""
    from tuner.tuning.budgets import SCREEN_SHARE

    calls = engine_calls_for(screen_plan(h, config, specs, 2000), effect)
    return None if calls is None else math.ceil(calls * getattr(h, "turns", 1) / SCREEN_SHARE)


def paired_detectables(h, configs: list, command: str, *, margin: float | None = None) -> list[Detectable]:
    """``compare``'s cells (two-sided exact McNemar, BH across the table: per model, each category and
    the overall) or the publish gate's (one-sided drop test, BH across its family: per model, each
    held-out category), from the runs the command will make."""
    counted: dict[tuple[str, str], set] = {}
    samples: dict[tuple[str, str], int] = {}
    for c in configs:
        for eval_id in c.eval_ids:
            key = (c.spec.key, h.suite.get(eval_id).category)
            counted.setdefault(key, set()).add(eval_id)
            samples[key] = min(samples.get(key, c.samples), c.samples)  # a side's samples of an eval: its pairs
    n_pairs = {k: len(v) * samples[k] for k, v in counted.items()}
    if not n_pairs:
        return []
    categories = sorted({cat for _, cat in n_pairs})
    models = sorted({m for m, _ in n_pairs})
    gate = command == "publish"
    cells = len(n_pairs) + (0 if gate or len(categories) < 2 else len(models))
    by: dict[str, float | None] = {}
    for cat in categories:
        n = min(v for (m, c), v in n_pairs.items() if c == cat)
        by[cat] = paired_family(n, cells, family="", one_sided=gate).mde
    worst = None if any(v is None for v in by.values()) else max(by.values())
    if gate:
        note = "a drop this large is stopped" + (
            f"; non-inferiority at the {margin * 100:g}-point margin is a separate test" if margin is not None else ""
        )
        family = "publish gate: a drop per model x held-out category"
    else:
        note = "an improvement or a regression, per cell"
        family = "compare: model x category cells"
    return [Detectable(family=family, questions=cells, mde=worst, by=by if len(by) > 1 else {}, note=note)]


def open_leads(plan, effects: list, *, top: int = 5, scale: float = 1.0) -> list[dict]:
    """The leading open questions of an engine design under ``plan``: undecided cells, largest
    estimate first, each with the engine budget that decides an effect of its current estimate with
    80% power (``scale``: the command's cap per engine call, e.g. tune's cap is twice its screening).
    A cell whose estimate is inside the zone's ±delta0 is left out: no budget decides "helps" or
    "hurts" for it, and what would call it "no meaningful effect" is not an effect size."""
    from tuner.engine import split_key

    open_cells = [
        e for e in effects if e.verdict == "undecided" and e.delta is not None and abs(e.delta) > plan.zone.delta0
    ]
    open_cells.sort(key=lambda e: (-abs(e.delta), e.rule, e.category, e.model))
    memo: dict[tuple, int | None] = {}
    out = []
    for e in open_cells[:top]:
        kind = "rules" if split_key(e.rule)[1] is None else "phrasings"
        if plan.priority_weight != 1.0 and split_key(e.rule)[0] in plan.priority.get(e.category, ()):
            kind = f"priority {kind}"  # asked first: a larger share of each look's error (Plan.priority)
        key = (e.category, kind, round(abs(e.delta), 3))
        if key not in memo:
            memo[key] = calls_to_decide(
                abs(e.delta),
                lambda calls, c=e.category, k=kind: mde(engine_designs(replace(plan, budget_calls=calls))[c][k]),
                start=plan.budget_calls,
            )
        calls = memo[key]
        out.append(
            {
                "rule": e.rule,
                "model": e.model,
                "category": e.category,
                "delta": e.delta,
                "calls": None if calls is None else math.ceil(calls * scale),
            }
        )
    return out
