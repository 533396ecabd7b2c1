"""The few named errors of tuner.

Library code raises these; only the CLI turns them into exit codes and one-line messages.
A failed *sample* (bad model output, a grader step that fails) is data, recorded in the store,
never an exception.
"""

from __future__ import annotations

__all__ = [
    "TunerError",
    "InputError",
    "NotFoundError",
    "ProviderError",
    "ToolchainError",
    "JailAccessError",
    "StoreError",
    "ClusterError",
    "IncompleteError",
    "BudgetSpentError",
    "EXIT_CODES",
]

# What `tuner` exits with (also in the README).
EXIT_CODES = {
    0: "done",
    1: "a check failed: a significant regression (compare), a failing reference answer (evals validate), a failed grade",
    2: "bad input: a malformed file, an unknown name, a bad option value, a model that cannot be used (credentials, provider)",
    3: "the grader toolchain, the store or the cluster (--cluster) cannot be used",
    4: "the work ended incomplete: some results are infrastructure failures, or the budget (--budget-calls/--budget-usd) was spent; run the same command again (with a larger budget) to go on",
    130: "interrupted; everything recorded so far is kept",
}


class TunerError(Exception):
    """Base class. ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class InputError(TunerError):
    """Something a person wrote is malformed: a rule file, a set, a config, an option value.

    The message names the file (and field) or the value.
    """

    exit_code = 2


class NotFoundError(InputError):
    """An unknown rule id, set, category, eval, run or study."""


class ProviderError(TunerError):
    """A model provider could not be used at all (bad model string, missing credentials)."""

    exit_code = 2


class ToolchainError(TunerError):
    """The grader toolchain (Node, npm, the locked packages) is missing or broken."""

    exit_code = 3


class JailAccessError(ToolchainError):
    """The grading jail's user cannot reach what grading needs (a project in a private folder):
    refused before anything is graded, never recorded as every answer's infrastructure error."""


class StoreError(TunerError):
    """The results store cannot be opened, or its schema is newer than this tuner."""

    exit_code = 3


class ClusterError(TunerError):
    """The cluster (``--cluster`` / ``TUNER_CLUSTER``) cannot be used: no scheduler at the address,
    no workers, or a worker whose tuner, suite or grader is not the coordinator's."""

    exit_code = 3


class IncompleteError(TunerError):
    """Work ended with infrastructure failures left (recorded; the same command retries them)."""

    exit_code = 4


class BudgetSpentError(IncompleteError):
    """The command's cap (``--budget-calls`` / ``--budget-usd``) refused a call: what was done is
    recorded, and the same command with a larger cap goes on from there."""

    def __init__(self, budget) -> None:
        self.spent = budget.spent
        cap = ", ".join(x for x in (f"{budget.calls} calls" if budget.calls is not None else "",
                                    f"${budget.usd:.2f}" if budget.usd is not None else "") if x)
        cost = self.spent["cost_usd"]
        super().__init__(f"budget spent: {budget.spent_calls} provider calls made, {budget.tokens_in} tokens in, "
                         f"{budget.tokens_out} out, cost {'unknown' if cost is None else f'${cost:.4f}'} (cap {cap}); "
                         "what was done is kept: run the same command with a larger --budget-calls/--budget-usd to go on")
