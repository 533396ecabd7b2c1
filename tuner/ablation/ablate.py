"""`ablate`: run a design, estimate the rule × category (× model) effect matrix, store it."""

from __future__ import annotations

from pydantic import BaseModel

from tuner.ablation.designs import Variant, add_one_in, loo, screening
from tuner.ablation.effects import Effect, finalize, lost_answers, paired_effects, regression_effects
from tuner.errors import InputError
from tuner.hashing import sha256_json, short
from tuner.runs import Harness, run_selections
from tuner.stats.zones import Zone

__all__ = [
    "MIN_BUDGET",
    "AblationReport",
    "ablate",
    "adaptive_experiment",
    "engine_budget",
    "engine_effects",
    "default_budget",
    "engine_plan",
    "rule_tokens",
]


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
    # adaptive design only: its zone, budget, rounds run, why it stopped, calls per round
    adaptive: dict | None = None
    lost: int = 0  # answers lost to provider or grader failures (every design; left out of every estimate)

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


def _variants(
    design: str, selection: dict[str, str], runs: int | None, seed: int, eval_ids: list[str]
) -> list[Variant]:
    if design == "loo":
        return loo(selection)
    if design == "add":
        return add_one_in(selection)
    if design == "screening":
        return screening(selection, eval_ids, runs or default_screening_runs(len(selection)), seed)
    raise InputError(f"--design {design!r}: use adaptive, loo, add or screening")


def default_screening_runs(n_rules: int) -> int:
    """Replicates per eval: about two-thirds of a leave-one-out's runs (R + 1), at least 8."""
    return max(8, (2 * (n_rules + 1)) // 3)


def engine_plan(
    h: Harness,
    selection: dict[str, str],
    specs: list,
    eval_ids: list[str],
    *,
    budget_calls: int,
    zone: Zone,
    seed: int = 0,
    variants: dict[str, tuple[str, ...]] | None = None,
    looks=None,
):
    """The engine's ``Plan`` for these rules, models and evals (``engine_effects`` runs it; the
    command's plan reads what it can decide from it before the first call). ``looks``: the
    experiment's design so far, ``(anchor, looks made)`` from ``Store.engine_looks``: the plan
    continues it."""
    from tuner.engine import Plan

    evals: dict[str, list[str]] = {}
    for eval_id in eval_ids:
        evals.setdefault(h.suite.get(eval_id).category, []).append(eval_id)
    others = {r: tuple(v for v in vs if v != selection[r]) for r, vs in (variants or {}).items() if r in selection}
    # With the repair loop (--turns N) a point may take N calls: the looks are planned on the points
    # the cap pays for at worst, so a later turn is never the call the cap refuses.
    points = max(1, budget_calls // getattr(h, "turns", 1))
    anchor, made = looks or (None, [])
    return Plan(
        anchor=anchor,
        made=tuple(made),
        rules=tuple(sorted(selection)),
        evals={c: tuple(v) for c, v in sorted(evals.items())},
        models=tuple(s.key for s in specs),
        budget_calls=points,
        zone=zone,
        seed=seed,
        variants={r: vs for r, vs in sorted(others.items()) if vs},
        # Each answer read through how it failed (its failure signature), not its pass bit alone
        # (``tuner.engine.modes``: calibrated in tests/stats/test_calibration_modes.py).
        modes=True,
    )


def engine_effects(
    h: Harness,
    selection: dict[str, str],
    specs: list,
    eval_ids: list[str],
    *,
    budget_calls: int,
    zone: Zone,
    experiment_id: str,
    seed: int = 0,
    sample_offset: int = 0,
    prefix: str = "adaptive",
    progress=None,
    variants: dict[str, tuple[str, ...]] | None = None,
    enough=None,
    looks_key: str | None = None,
) -> tuple[list[Effect], dict]:
    """Each rule's effect of inclusion per model × category by the adaptive design
    (``tuner.engine``): effects with verdicts, and what the design spent. Its
    observations are stored as points of ``experiment_id`` (a recorded experiment). ``variants``:
    other phrasings to weigh against each rule's phrasing in ``selection`` (cells ``rule@variant``).
    ``enough``: ends the design after a look (``run_engine``). ``looks_key``: the design's name
    within the experiment; given, it is one experiment across invocations: the looks already made
    (``Store.engine_looks``) are replayed as they were and the new ones spend only what is left of
    the error budget (``tuner.engine``), each recorded as it is made."""
    from tuner.ablation.reading import graded_points
    from tuner.compare.rates import model_label
    from tuner.engine import planned_looks, run_engine, split_key, swap_key
    from tuner.runs import DesignPoint, execute_points

    before = h.store.engine_looks(experiment_id, looks_key) if looks_key else (None, [])
    plan = engine_plan(
        h, selection, specs, eval_ids, budget_calls=budget_calls, zone=zone, seed=seed, variants=variants, looks=before
    )
    planned = planned_looks(plan)
    anchor = plan.anchor if plan.anchor is not None else (planned[-1] if planned else 0)

    def prompt_of(pt) -> dict[str, str]:
        chosen = {r: v for r, v in selection.items() if r not in pt.dropped}
        for key in pt.swapped:
            rule, variant = split_key(key)
            chosen[rule] = variant
        return chosen

    def observe(points):
        design = [
            DesignPoint(
                selection=prompt_of(pt),
                dropped=pt.dropped,
                eval_id=pt.eval_id,
                sample_index=sample_offset + pt.replicate,
            )
            for pt in points
        ]
        found, paid = execute_points(h, experiment_id, design, specs, name=prefix, progress=progress)
        # How each answer failed rides along (its failure signature, read from its cached grade; its
        # first failing step where none is cached): the engine reads each rule through the modes it
        # acts on (``Plan.modes``, on in ``engine_plan``; ``tuner.ablation.reading``).
        read = graded_points(found, h.project.cache_dir, reader=getattr(h.suite.kind, "failure_signature", None))
        return [{s.key: by_model.get(s.key) for s in specs} for by_model in read], paid

    def on_round(snapshot: dict) -> None:
        if looks_key:  # recorded before the next look's first call: an interrupted run's looks count too
            h.store.record_engine_look(
                experiment_id,
                looks_key,
                anchor,
                snapshot["round"] - 1,
                (snapshot["reps"], snapshot["alpha"], snapshot["beta"]),
            )
        if progress:
            note = f"{snapshot['decided']} decided, {snapshot['open']} open, {snapshot['calls']} calls"
            progress("round", snapshot["round"], snapshot["round"], note)

    outcome = run_engine(plan, observe, on_round, enough)
    labels = {s.key: model_label(s.model, s.params) for s in specs}
    tokens = rule_tokens(h, selection)
    for rule, names in plan.variants.items():  # a phrasing's cost: its tokens minus the rule's own phrasing's
        for name in names:
            tokens[swap_key(rule, name)] = rule_tokens(h, {rule: name})[rule] - tokens[rule]
    effects = [
        Effect(
            rule=c.rule,
            model=labels[c.model],
            category=c.category,
            delta=c.delta,
            lo=c.lo,
            hi=c.hi,
            p_value=c.p_value,
            q_value=c.q_value,
            level=c.level,
            verdict=c.verdict,
            tokens=tokens.get(c.rule, 0),
            calls=c.calls,
            decided_round=c.decided_round,
            by_eval=c.by_eval or None,
        )
        for c in outcome.cells
    ]
    # Every look of the experiment so far: this invocation's (replays included), then any made before
    # that it did not reach (it stopped early).
    every_look = outcome.made + before[1][len(outcome.made) :]
    spent = {
        "delta0": zone.delta0,
        "delta": zone.delta,
        "alpha": zone.alpha,
        "beta": zone.beta,
        "budget_calls": budget_calls,
        "rounds": outcome.rounds,
        "stopped": outcome.stopped,
        "calls": outcome.calls,
        "new_calls": outcome.new_calls,
        "history": outcome.history,
        "looks": outcome.looks,
        "spending": "obrien-fleming",
        "lost": outcome.lost,
        # one experiment across invocations: the looks made before this one, and the error spent by every look so far
        "continued": len(before[1]),
        "anchor": outcome.anchor,
        "alpha_spent": sum(a for _, a, _ in every_look),
        "beta_spent": sum(b for _, _, b in every_look),
    }
    return effects, spent


# The smallest budget per model the adaptive design gets by default: on a small suite (the Python
# one: 7 rules, 3 tuning evals a category) half of a leave-one-out is 18 calls, below what its
# first verdict needs (each rule left out 8 times, 20 residual degrees of freedom); at 600 it
# finds 0.84 of the planted rules of `careful` / `text` with no false alarm (docs/engine.md, bench_tuning).
MIN_BUDGET = 600


def default_budget(n_rules: int, n_evals: int) -> int:
    """Per model: half of what single-sample leave-one-out of the pool over the suite's tuning evals
    costs, (rules + 1) x evals / 2 (the field's method answers every category with that many
    calls; so may this design, or spend it all on one with --category), at least ``MIN_BUDGET``."""
    return max(MIN_BUDGET, (n_rules + 1) * n_evals // 2)


def engine_budget(h: Harness, selection: dict[str, str], specs: list, budget_calls: int | None) -> int:
    """What the adaptive design may spend: the user's cap, else the default over the whole suite."""
    return budget_calls or default_budget(len(selection), len(h.suite.select(held_out=False))) * len(specs)


def ablate(
    h: Harness,
    *,
    design: str = "adaptive",
    set_name: str = "all-active",
    specs: list,
    samples: int | None = None,
    runs: int | None = None,
    seed: int = 0,
    category: str | None = None,
    held_out: bool | None = False,
    budget_calls: int | None = None,
    zone: Zone | None = None,
    progress=None,
) -> AblationReport:
    if samples is None:  # the adaptive design chooses its own; a screening cell is one sample
        samples = 1 if design == "screening" else 2
    rule_set = h.guidelines.load_set(set_name)
    selection = rule_set.select(h.guidelines.library)
    eval_ids = [e.id for e in h.suite.select(category=category, held_out=held_out)]
    if design == "adaptive":
        return _ablate_adaptive(h, set_name, selection, specs, eval_ids, seed, budget_calls, zone or Zone(), progress)
    variants = _variants(design, selection, runs, seed, eval_ids)
    replicates = max(v.replicate for v in variants) + 1
    config = {
        "design": design,
        "set": set_name,
        "selection": selection,
        "models": [s.key for s in specs],
        "samples": samples,
        "runs": replicates if design == "screening" else len(variants),
        "seed": seed,
        "evals": eval_ids,
    }
    exp_id = sha256_json({"kind": "ablate", **config})
    prefix = f"ablate-{short(exp_id, 8)}"
    groups: list[dict] = []
    if design == "screening":  # one prompt per cell: points of the experiment, not a run per cell
        from tuner.compare.rates import model_label
        from tuner.runs import DesignPoint, execute_points

        h.store.start_experiment(exp_id, f"ablate-{design}-{set_name}", "ablate", config)
        points = [
            DesignPoint(
                selection=v.selection,
                dropped=tuple(sorted(set(selection) - set(v.selection))),
                eval_id=v.eval_id,
                sample_index=v.replicate,
            )
            for v in variants
        ]
        observed, calls = execute_points(h, exp_id, points, specs, name=prefix, progress=progress)
        labels = {s.key: model_label(s.model, s.params) for s in specs}
        categories = tuple(sorted({h.suite.get(e).category for e in eval_ids}))
        effects = regression_effects(variants, observed, labels, categories)
        lost = sum(
            1 for by_model in observed for s in specs if (r := by_model.get(s.key)) is None or r.outcome == "infra"
        )
    else:
        groups = run_selections(
            h,
            [(f"{prefix}-{v.name}", v.selection) for v in variants],
            specs,
            eval_ids,
            samples=samples,
            progress=progress,
        )
        effects = paired_effects(variants, groups, design)
        calls = sum(o.new_calls for g in groups for o in g.values())
        lost = lost_answers(groups)
    report = AblationReport(
        id=exp_id,
        design=design,
        set_name=set_name,
        models=[s.label for s in specs],
        runs=config["runs"],
        samples=samples,
        eval_ids=eval_ids,
        effects=finalize(effects, rule_tokens(h, selection)),
        calls=calls,
        lost=lost,
    )
    h.store.save_experiment(
        exp_id, f"ablate-{design}-{set_name}", "ablate", config, result=report.model_dump(mode="json")
    )
    h.store.link_runs(exp_id, [o.run.id for g in groups for o in g.values()], "design")
    return report


def adaptive_experiment(
    set_name: str, selection: dict[str, str], specs: list, eval_ids: list[str], seed: int, zone: Zone
) -> tuple[str, dict]:
    """The adaptive ablation's experiment id and identity: its content hash over everything that
    defines the question (set, its rules and phrasings, models, evals, seed, zone), never the budget:
    the same command with a larger ``--budget-calls`` has the same id and continues the experiment
    (the looks made are replayed from the caches with the error they spent, the new ones spend what
    is left: ``engine_effects``); any other change is a new experiment."""
    config = {
        "design": "adaptive",
        "set": set_name,
        "selection": selection,
        "models": [s.key for s in specs],
        "seed": seed,
        "evals": eval_ids,
        "zone": [zone.delta0, zone.delta, zone.alpha, zone.beta],
    }
    return sha256_json({"kind": "ablate", **config}), config


def _ablate_adaptive(h, set_name, selection, specs, eval_ids, seed, budget_calls, zone, progress) -> AblationReport:
    if not selection:
        raise InputError(f"set '{set_name}' has no rules to ablate")
    budget = engine_budget(h, selection, specs, budget_calls)
    exp_id, config = adaptive_experiment(set_name, selection, specs, eval_ids, seed, zone)
    name = f"ablate-adaptive-{set_name}"
    h.store.start_experiment(exp_id, name, "ablate", {**config, "budget_calls": budget})
    try:
        effects, spent = engine_effects(
            h,
            selection,
            specs,
            eval_ids,
            budget_calls=budget,
            zone=zone,
            seed=seed,
            experiment_id=exp_id,
            prefix=f"ablate-{short(exp_id, 8)}",
            progress=progress,
            looks_key="adaptive",
        )
    except BaseException:
        h.store.finish_experiment(exp_id, "interrupted")  # its points are kept: the same command resumes
        raise
    report = AblationReport(
        id=exp_id,
        design="adaptive",
        set_name=set_name,
        models=[s.label for s in specs],
        runs=spent["rounds"],
        samples=1,
        eval_ids=eval_ids,
        effects=effects,
        calls=spent["new_calls"],
        adaptive=spent,
        lost=spent["lost"],
    )
    h.store.save_experiment(
        exp_id, name, "ablate", {**config, "budget_calls": budget}, result=report.model_dump(mode="json")
    )
    return report
