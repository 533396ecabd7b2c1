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
    "PlanShown",
    "EXIT_CODES",
    "MEANINGS",
    "exit_code",
]


class TunerError(Exception):
    """Base class. ``EXIT_CODES`` (below) says what the CLI exits with."""


class InputError(TunerError):
    """Something a person wrote is malformed: a rule file, a set, a config, an option value.

    The message names the file (and field) or the value.
    """


class NotFoundError(InputError):
    """An unknown rule id, set, category, eval, run or study."""


class ProviderError(TunerError):
    """A model provider could not be used at all (bad model string, missing credentials)."""


class ToolchainError(TunerError):
    """The grader toolchain (Node, npm, the locked packages) is missing or broken."""


class JailAccessError(ToolchainError):
    """The grading jail's user cannot reach what grading needs (a project in a private folder):
    refused before anything is graded, never recorded as every answer's infrastructure error."""


class StoreError(TunerError):
    """The results store cannot be opened, or its schema is newer than this tuner."""


class ClusterError(TunerError):
    """The cluster (``--cluster`` / ``TUNER_CLUSTER``) cannot be used: no scheduler at the address,
    no workers, or a worker whose tuner, suite or grader is not the coordinator's."""


class IncompleteError(TunerError):
    """Work ended with infrastructure failures left (recorded; the same command retries them)."""


class BudgetSpentError(IncompleteError):
    """The command's cap (``--budget-calls`` / ``--budget-usd``) refused a call: what was done is
    recorded, and the same command with a larger cap goes on from there."""

    def __init__(self, budget) -> None:
        self.spent = budget.spent
        cap = ", ".join(
            x
            for x in (
                f"{budget.calls} calls" if budget.calls is not None else "",
                f"${budget.usd:.2f}" if budget.usd is not None else "",
            )
            if x
        )
        cost = self.spent["cost_usd"]
        super().__init__(
            f"budget spent: {budget.spent_calls} provider calls made, {budget.tokens_in} tokens in, "
            f"{budget.tokens_out} out, cost {'unknown' if cost is None else f'${cost:.4f}'} (cap {cap}); "
            "what was done is kept: run the same command with a larger --budget-calls/--budget-usd to go on"
        )


class PlanShown(TunerError):
    """``--plan``: the plan was shown and nothing was called or written. Raised from the hook the
    harness calls before its first provider call, so the command ends there (exit 0, no message)."""


# The one table of what `tuner` exits with: each error class's code (the closest class in its
# MRO decides; the "Exit codes" table of docs/exit-codes.md is checked against it, tests/test_errors.py).
EXIT_CODES: dict[type[BaseException], int] = {
    PlanShown: 0,
    TunerError: 1,
    InputError: 2,
    ProviderError: 2,
    ToolchainError: 3,
    StoreError: 3,
    ClusterError: 3,
    IncompleteError: 4,
    KeyboardInterrupt: 130,
}

# What each code means (docs/exit-codes.md says the same at more length).
MEANINGS = {
    0: "done",
    1: "a check failed",
    2: "bad input",
    3: "the grader toolchain, the store or the cluster cannot be used",
    4: "the work ended incomplete or not measured",
    130: "interrupted; everything recorded so far is kept",
}


def exit_code(exc: BaseException) -> int:
    """The code ``exc`` ends the command with: its nearest class in ``EXIT_CODES``."""
    for cls in type(exc).__mro__:
        if cls in EXIT_CODES:
            return EXIT_CODES[cls]
    return 1  # not one of ours: a bug
