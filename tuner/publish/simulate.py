"""The tune -> acceptance -> publish path on a simulated world, through the product's own functions.

``run_path`` is what ``tuner tune`` and then ``tuner publish`` decide, step by step,
with the same functions and the same budget arithmetic, on a ``tuner.tuning.simulate.World``:

1. the baseline on the target's tuning evals, then the screening: the rule-effect engine
   (``run_engine`` with the engine's plan and ``assemble`` as its stopping question, as
   ``tuning.screen.screen`` runs it) or, for speed on the large suite, a given set of changes with
   the calls the engine's first look costs (it decides a clear change there);
2. ``screen.candidates_of`` and the regression check ``screen.check`` on every tuning eval;
3. ``confirmation.confirm`` with ``confirmation.confirm_budget`` of what the cap leaves;
4. ``acceptance.accept``;
5. if accepted, the publish gate ``publish.gate`` on fresh held-out samples against the baseline
   (a first publish), 12 samples per eval, at its first look's levels (``publish.gate_looks``).

Only the answers are simulated. The calibration (``tests/stats/test_calibration_tune_path.py``)
runs it hundreds of times per world and states the rates in docs/tune-and-publish.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tuner.tuning.simulate import World

__all__ = ["PathResult", "run_path"]


@dataclass
class PathResult:
    decision: str  # tune's: accepted | withheld | no change | not measured
    stopped_by: str  # "" (accepted) | "screening" | "check" | "target" | "drop" | "margin" | "lost"
    published: bool = False  # accepted and the gate did not refuse it (no --force needed)
    gate: str | None = None  # the gate's status, when accepted
    winner: dict[str, str] | None = None
    held_out_target_improved: bool = False  # the held-out target cell's sequential verdict
    held_out_gain_p: float | None = None  # the exact one-sided McNemar p of a gain on the held-out target alone
    calls: dict[str, int] = field(default_factory=dict)
    # The screening's looks after this invocation, as the store keeps them (``Store.engine_looks``):
    # (anchor, looks made); what the same command with a larger cap continues (``run_path``'s ``looks``).
    looks: tuple[int | None, list[tuple[int, float, float]]] = (None, [])
    flagged: int = 0  # the screening's cells decided "helps" or "hurts" (the engine's false alarms, in an A/A)


def _screen(world: World, measure, config, specs, cap: int, looks=(None, [])):
    """The engine on the target's tuning evals, as ``tuning.screen.screen`` plans and stops it;
    ``looks``: the screening's looks so far (anchor, made), continued as ``engine_effects`` does."""
    from tuner.engine import Plan, run_engine
    from tuner.stats.zones import Zone
    from tuner.tuning.budgets import screen_budget
    from tuner.tuning.screen import assemble

    target = [e.id for e in world.shape.evals() if e.category == config.category and not e.held_out]
    pool = {r: config.baseline_selection.get(r, "default") for r in config.pool}  # the world has no phrasings
    plan = Plan(
        rules=tuple(sorted(pool)),
        evals={config.category: tuple(target)},
        models=tuple(s.key for s in specs),
        budget_calls=screen_budget(cap),
        zone=Zone(),
        seed=config.seed,
        variants={},
        anchor=looks[0],
        made=tuple(looks[1]),
    )
    outcome = run_engine(plan, measure.observe(pool), None, lambda cells: assemble(config, cells)[1] == "decided")
    return outcome


def run_path(
    world: World,
    seed: int,
    *,
    cap: int | None = None,
    changes: list[dict] | None = None,
    screening_calls: int | None = None,
    gate_samples: int = 12,
    alpha: float | None = None,
    looks: tuple[int | None, list[tuple[int, float, float]]] = (None, []),
    confirm_store=None,
) -> PathResult:
    """One repetition (module doc). ``changes``: skip the engine and take these changes, counting
    ``screening_calls`` for it (default: the engine's first look on the world's pool); otherwise the
    engine screens the pool. ``cap``: the command's cap (default: tune's, for the world's pool).
    ``looks``: the screening's looks an earlier invocation of the same tune made (its result's
    ``looks``): this one continues them, as the same command with a larger cap does.
    ``confirm_store``: where the experiment's confirmation looks are kept between invocations
    (``confirm_looks.MemoryLooks``, standing in for the store; None: a first invocation's, in memory)."""
    from tuner.engine import Plan, planned_looks
    from tuner.publish.gate import gate, gate_offset
    from tuner.stats import ALPHA
    from tuner.stats.gates import drop_p
    from tuner.stats.zones import continued_level
    from tuner.tuning.acceptance import ACCEPTED, accept
    from tuner.tuning.budgets import cap_of, confirm_budget, regression_samples, screen_budget
    from tuner.tuning.confirm_looks import ConfirmLooks
    from tuner.tuning.confirmation import confirm
    from tuner.tuning.records import Change
    from tuner.tuning.screen import assemble, candidates_of, check
    from tuner.tuning.space import selection_hash

    alpha = ALPHA if alpha is None else alpha
    config = world.config(seed)
    specs = world.specs()
    measure = world.measure(seed)
    view = world.suite()
    cap = cap_of(config, cap)
    target = [e.id for e in view.suite.evals if e.category == config.category and not e.held_out]
    measure([("baseline", dict(config.baseline_selection))], target, config.samples)
    calls = {"baseline": config.samples * len(target) * len(specs)}
    after, flagged = looks, 0
    if changes is None:
        engine = _screen(world, measure, config, specs, cap, looks)
        calls["screening"] = engine.calls
        # What the store holds after it (``engine_effects``): this invocation's looks, replays
        # included, then any made before that it did not reach; the anchor as first recorded.
        after = (engine.anchor, [*engine.made, *looks[1][len(engine.made) :]])
        flagged = sum(c.verdict in ("helps", "hurts") for c in engine.cells)
        if engine.lost:
            return PathResult("not measured", "lost", calls=calls, looks=after, flagged=flagged)
        from tuner.ablation import Effect

        effects = [
            Effect(
                rule=c.rule,
                model=c.model,
                category=c.category,
                delta=c.delta,
                lo=c.lo,
                hi=c.hi,
                p_value=c.p_value,
                verdict=c.verdict,
            )
            for c in engine.cells
        ]
        changes, _ = assemble(config, effects)
    else:
        plan = Plan(
            rules=tuple(config.pool),
            evals={config.category: tuple(target)},
            models=tuple(s.key for s in specs),
            budget_calls=screen_budget(cap),
        )
        calls["screening"] = (
            planned_looks(plan)[0] * len(target) * len(specs) if screening_calls is None else screening_calls
        )
    candidates = candidates_of(config, [Change.model_validate(c) for c in changes])
    if not candidates:
        return PathResult("no change", "screening", calls=calls, looks=after, flagged=flagged)
    checked = check(config, candidates, measure, samples=regression_samples(config))
    calls["check"] = checked.calls
    if checked.not_measured:
        return PathResult("not measured", "lost", calls=calls, looks=after, flagged=flagged)
    if checked.winner is None:
        return PathResult("no change", "check", calls=calls, looks=after, flagged=flagged)
    left = max(0, cap - sum(calls.values()))
    n_held = sum(1 for e in view.suite.evals if e.held_out)
    fresh, held, spent = confirm(
        view,
        config,
        specs,
        config.baseline_selection,
        checked.winner,
        budget_calls=confirm_budget(config, n_held, len(specs), left, cap=cap),
        measure=measure,
        looks=ConfirmLooks.open(confirm_store, config.hash, selection_hash(checked.winner))
        if confirm_store is not None
        else None,
    )
    calls["confirmation"] = spent.calls
    decision = accept(
        config.category,
        fresh,
        held,
        changed=True,
        alpha=alpha,
        noninferiority=spent.noninferiority,
        margin=config.tolerance,
    )
    held_target = any(r.category == config.category and r.paired.verdict == "improved" for r in held)
    gain_p = min(
        (
            float(drop_p(sum(r.paired.fail_to_pass.values()), sum(r.paired.pass_to_fail.values())))
            for r in held
            if r.category == config.category
        ),
        default=None,
    )
    if decision.decision != ACCEPTED:
        others = [c for c in decision.cells if not (c.category == config.category and c.split == "fresh")]
        why = (
            "lost"
            if decision.decision == "not measured"
            else "drop"
            if any(d.regressed for d in decision.drops) or any(c.check == "regressed" for c in others)
            else "target"
            if not any(c.check == "improved" for c in decision.cells)
            else "margin"  # the target improved; a drop of the margin was not ruled out somewhere
        )
        return PathResult(
            decision.decision,
            why,
            winner=checked.winner,
            held_out_target_improved=held_target,
            held_out_gain_p=gain_p,
            calls=calls,
            looks=after,
            flagged=flagged,
        )
    held_evals = [e.id for e in view.suite.evals if e.held_out]
    offset = gate_offset(f"world:{sorted(checked.winner)}", f"world:{sorted(config.baseline_selection)}")
    groups = measure(
        [("today", dict(config.baseline_selection)), ("candidate", checked.winner)], held_evals, gate_samples, offset
    )
    # The gate's first look of its sequence (``publish.gate_looks``): both tests at its level.
    first = continued_level(alpha, gate_samples, [], None)
    cats = sorted({e.category for e in view.suite.evals if e.held_out})
    _, status = gate(groups, config.tolerance, cats, alpha, ni_alpha=first, drop_alpha=first)
    calls["gate"] = 2 * len(held_evals) * gate_samples * len(specs)
    return PathResult(
        decision.decision,
        "",
        published=status not in ("regressed", "not measured"),
        gate=status,
        winner=checked.winner,
        held_out_target_improved=held_target,
        held_out_gain_p=gain_p,
        calls=calls,
        looks=after,
        flagged=flagged,
    )
