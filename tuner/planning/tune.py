"""What ``tune`` plans before its first call and says when it ends undecided: the phases and what
each spends at most (the confirmation gets what the cap leaves, the placebo arm sits under the one
cap), and the screening's leading open questions with the exact command that continues."""

from __future__ import annotations

import os
import shlex

from tuner.errors import InputError

__all__ = ["continue_command", "margin_command", "placebo_cap", "tune_plan", "what_would_decide"]


def placebo_cap(h, config, specs, cap: int, given: bool) -> tuple[int, int]:
    """(calls the rest of tune may make, the command's cap) with the placebo arm under the one cap:
    a cap given is shared (the arm's calls held back from it first); the default cap grows by the
    arm, so the screening and the confirmation keep what they have without it."""
    from tuner.tuning.placebo import arm_calls

    arm = arm_calls(h, config, len(specs))
    if not given:
        return cap, cap + arm
    if cap - arm < 1:
        raise InputError(
            f"--budget-calls {cap}: the placebo arm alone may make {arm} calls; give more, or drop --placebo"
        )
    return cap - arm, cap


# Distinct system prompts per model of screen_phases' phases, for the plan's cached input tokens:
# the baseline; the engine's (each call drops its own random rules: not counted); the baseline and
# the winner; the winner's best single change alone.
_SCREEN_PROMPTS = (1, None, 2, 1)


def tune_plan(h, config, specs, budget_calls, confirm_budget, placebo_seed=None, cap=None):
    """The phases tune will run and what each spends at most (the confirmation gets what the cap leaves)."""
    from tuner.planning.commands import tune_detectables
    from tuner.runs.plan import PlanBuilder
    from tuner.tuning.budgets import confirm_budget as confirm_calls
    from tuner.tuning.noninferior import margin_cap, plan_line
    from tuner.tuning.placebo import arm_calls
    from tuner.tuning.screen import screen_phases

    tokens = h.guidelines.compose(_baseline_set(config)).tokens
    held = [e.id for e in h.suite.select(held_out=True)]
    builder = PlanBuilder(h, specs, "tune")
    n = len(specs)
    everywhere = list(config.eval_ids) + held
    used = 0
    phases = screen_phases(h, config, n, budget_calls)
    for (name, calls, evals, only_if), prompts in zip(phases, _SCREEN_PROMPTS, strict=True):
        builder.add_calls(name, calls, tokens, evals, only_if=only_if, prompts=prompts)
        used += calls
    conf = confirm_calls(config, len(held), n, max(0, budget_calls - used), confirm_budget, cap=budget_calls)
    needed = margin_cap(h, config, n, _confirm_for(h, config, n, confirm_budget), budget_calls)
    builder.add_calls(
        f"confirmation: fresh samples of all {len(everywhere)} evals (every tuning eval, every held-out "
        "eval), sequential",
        conf,
        tokens,
        everywhere,
        note="what the cap leaves",
        only_if="a change passes the check",
        prompts=2,
    )
    if placebo_seed is not None:
        _plan_placebo(builder, h, config, placebo_seed, arm_calls(h, config, n), tokens)
    out = builder.build(cap_calls=budget_calls if placebo_seed is None else cap, cap_usd=h.budget.usd)
    out.decides = [{**d.model_dump(), "line": d.line()} for d in tune_detectables(h, config, specs, budget_calls, conf)]
    out.decides.append(plan_line(h, config, n, conf, needed))  # what the acceptance requires of the other categories
    return out


def _confirm_for(h, config, n_models: int, given: int | None):
    """The confirmation's calls at a cap, as ``tune_plan`` plans them (what the cap leaves after the
    baseline, the screening and the check, within ``confirm_budget``)."""
    from tuner.tuning.budgets import confirm_budget
    from tuner.tuning.screen import screen_phases

    held = len(h.suite.select(held_out=True))

    def calls(cap: int) -> int:
        used = sum(c for _, c, _, _ in screen_phases(h, config, n_models, cap))
        return confirm_budget(config, held, n_models, max(0, cap - used), given, cap=cap)

    return calls


def margin_command(h, config, specs, cap: int, confirm_budget: int | None, model, panel) -> str | None:
    """The command whose cap shows the acceptance's margin in every other category with 80% chance
    where nothing moves (``noninferior.margin_cap``), or None when ``cap`` already does."""
    from tuner.tuning.noninferior import margin_cap

    need = margin_cap(h, config, len(specs), _confirm_for(h, config, len(specs), confirm_budget), cap)
    return continue_command(h, config, need, model, panel) if need else None


def what_would_decide(h, config, specs, result, cap: int, model, panel, confirm_budget: int | None = None) -> None:
    """The screening's leading undecided questions with the cap each needs at its current estimate,
    and the exact command that goes on (``result.screening``: ``leads``, ``continue``); when the
    acceptance's margin stopped it, the command that shows the margin (``result.confirmation``:
    ``margin_continue``); recorded with the tune."""
    from tuner.planning.commands import open_leads, screen_plan
    from tuner.tuning.budgets import SCREEN_SHARE

    if result.screening is None:
        return
    a, conf = result.acceptance, result.confirmation
    if a is not None and conf is not None and any(not n.shown for n in a.noninferiority):
        conf.margin_continue = margin_command(h, config, specs, cap, confirm_budget, model, panel)
    leads = open_leads(
        screen_plan(h, config, specs, cap), result.rule_effects, scale=getattr(h, "turns", 1) / SCREEN_SHARE
    )
    result.screening.leads = leads
    need = min((x["calls"] for x in leads if x["calls"] is not None), default=None)
    if need is not None and need > cap:
        result.screening.continue_ = continue_command(h, config, need, model, panel)
    h.store.finish_experiment(config.hash, "finished", result.model_dump(mode="json"))  # the viewer shows them too


def continue_command(h, config, need: int, model, panel) -> str:
    """The command that goes on with the cap ``need``: the same target, models and suite."""
    args = ["tuner", "tune", "--category", config.category]
    args += ["--panel", panel] if panel else [a for m in (model or []) for a in ("--model", m)]
    args += ["--turns", str(h.turns)] if getattr(h, "turns", 1) != 1 else []
    args += ["--budget-calls", str(need)] + (
        ["--suite", os.environ["TUNER_SUITE"]] if os.environ.get("TUNER_SUITE") else []
    )
    return shlex.join(args)


def _plan_placebo(builder, h, config, seed: int, calls: int, tokens: int) -> None:
    from tuner.tuning.placebo import arm_evals

    evals = arm_evals(h, config)
    builder.add_calls(
        f"placebo arm: the winner and its length-matched placebo (seed {seed}) on fresh samples of the "
        f"{len(evals)} {config.category} tuning evals",
        calls,
        tokens,
        evals,
        only_if="the winner is accepted",
        prompts=2,
    )


def _baseline_set(config):
    from tuner.guidelines import RuleSet

    return RuleSet.from_selection("baseline", config.baseline_selection)
