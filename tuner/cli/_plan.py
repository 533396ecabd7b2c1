"""The plan and the cap, shared by every command that calls models (run, compare, tune, ablate, publish)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

__all__ = [
    "PlanOption",
    "BudgetCallsOption",
    "BudgetUsdOption",
    "DecideOption",
    "decide_cap",
    "install",
    "show",
    "spent_line",
]

PlanOption = Annotated[
    bool,
    typer.Option(
        "--plan",
        "--dry-run",
        help="Print the plan (calls at most, tokens, price per model) and exit without calling a model.",
    ),
]
BudgetCallsOption = Annotated[
    Optional[int],
    typer.Option(
        "--budget-calls",
        min=1,
        help="Cap on provider calls over the whole command; reached, it stops (exit 4) and the same command with a larger cap goes on.",
    ),
]
DecideOption = Annotated[
    Optional[str],
    typer.Option(
        "--decide",
        help="Size the cap so an effect this large (pass-rate points, e.g. 0.08) is decided with 80% power; --plan shows the calls, tokens and cost per model.",
    ),
]
BudgetUsdOption = Annotated[
    Optional[float],
    typer.Option(
        "--budget-usd",
        min=0.0,
        help="Cap on the cost in USD (litellm's cost map) over the whole command; as --budget-calls.",
    ),
]


def decide_cap(decide: str | None, budget_calls: int | None, calls_for) -> tuple[float | None, int | None]:
    """(the effect ``--decide`` asks for, the cap it needs), or (None, ``budget_calls``) without it.
    ``calls_for(effect)``: the command's calls for that effect (None: more than any budget allows)."""
    from tuner.errors import InputError
    from tuner.planning import decide_value

    effect = decide_value(decide)
    if effect is None:
        return None, budget_calls
    if budget_calls is not None:
        raise InputError("--decide sizes the cap itself: give --decide or --budget-calls, not both")
    calls = calls_for(effect)
    if calls is None:
        raise InputError(
            f"--decide {decide}: no budget up to 10,000,000 calls decides a {effect * 100:g}-point effect "
            "with 80% power here"
        )
    return effect, calls


def install(h, command: str, *, budget_calls: int | None, budget_usd: float | None, plan_only: bool, as_json: bool):
    """Give ``h`` the command's cap, and a hook that shows the plan of its first batch of runs
    (run, compare, publish) before any call; with ``plan_only`` the hook exits 0 after showing it."""
    from tuner.runs.plan import Budget, configs_plan

    if not plan_only and getattr(h, "cluster_address", None):
        h.cluster  # connect now: an unusable cluster is an error before anything is written  # noqa: B018
    h.budget = Budget(calls=budget_calls, usd=budget_usd)
    h.plan_hook = lambda configs: show(
        h, _decides(h, configs_plan(h, configs, command), configs, command), plan_only=plan_only, as_json=as_json
    )
    return h.budget


def _decides(h, plan, configs: list, command: str):
    """``plan`` with what its batch decides: compare's cells, the publish gate's drop test (a plain
    run answers no question, so it has none)."""
    if command in ("compare", "publish"):
        from tuner.planning.commands import paired_detectables

        plan.decides = [{**d.model_dump(), "line": d.line()} for d in paired_detectables(h, configs, command)]
    return plan


def show(h, plan, *, plan_only: bool, as_json: bool) -> None:
    """Print ``plan`` (stdout; stderr under --json unless only the plan was asked for) and check the
    cap can be honoured; with ``plan_only`` stop here, exit 0, nothing called and nothing written."""
    from tuner.cli._common import console, err_console, print_json

    if getattr(h, "plan_decide", None) is not None:
        plan.decide = h.plan_decide
    if h.budget is not None:
        h.budget.set_plan(plan)
        h.budget.plan = plan
    if plan_only and as_json:
        print_json(plan.as_dict())
    else:
        out = err_console() if as_json else console()
        for line in plan.lines():
            out.print(line, markup=False)  # wrapped at the terminal's width, as every line is
    if plan_only:
        from tuner.errors import PlanShown

        raise PlanShown("the plan was shown (--plan): nothing was called or written")


def spent_line(budget) -> str:
    return budget.summary_line() if budget is not None else ""
