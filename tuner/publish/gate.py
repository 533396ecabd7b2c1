"""The publish gate: the candidate against what users have today on fresh samples of the held-out
evals, per model x held-out category (the rules are in ``tuner.publish.publish``'s docstring; the
retries' looks in ``gate_looks``)."""

from __future__ import annotations

from tuner.hashing import short
from tuner.stats import ALPHA, NON_INFERIOR
from tuner.tuning.evidence import paired_table

__all__ = ["DEFAULT_TOLERANCE", "GATE_BASE", "gate", "gate_offset"]


# Gate samples live above every index tune uses (trials and screening from 0, fresh samples from
# 1,000,000 to about 1,001,000,000), in a window chosen per candidate and comparison, below 2**31.
GATE_BASE = 1_100_000_000
_GATE_WINDOWS, _GATE_WINDOW = 9_000, 100_000
DEFAULT_TOLERANCE = 0.15


def gate_offset(candidate_hash: str, against_hash: str) -> int:
    """The first sample index of the gate comparing these two prompts (the same on every rerun, so a
    refused publish tried again replays its answers rather than buying new ones)."""
    from tuner.hashing import sha256_text

    digest = short(sha256_text(f"{candidate_hash}|{against_hash}"), 8)
    return GATE_BASE + _GATE_WINDOW * (int(digest, 16) % _GATE_WINDOWS)


def gate(
    groups: list[dict],
    margin: float,
    categories: list[str],
    alpha: float = ALPHA,
    ni_alpha: float | None = None,
    drop_alpha: float | None = None,
    established: list[dict] | None = None,
) -> tuple[list[dict], str]:
    """The gate's rows and status (``tuner.publish.publish``'s docstring). ``groups``: [what users have today, the candidate],
    each {model key: RunOutcome} on the held-out evals; ``categories``: every held-out category.
    ``ni_alpha``, ``drop_alpha``: the two tests' shares of ``alpha`` at this look (``GateLooks``: a
    retry with more samples spends what the earlier looks left); None: all of it (one look).
    ``established``: drops an earlier look of the sequence established (they stand: "regressed")."""
    from tuner.compare.rates import model_label
    from tuner.runs import pair_outcomes
    from tuner.stats import drop_counts, drop_tests, noninferiority

    label_key = {model_label(o.run.model, o.run.params): k for k, o in groups[1].items()}
    table = paired_table(groups[0], groups[1], categories)
    pairs = [
        pair_outcomes(groups[0][label_key[row.model]].results, groups[1][label_key[row.model]].results, row.category)
        for row in table
    ]
    # With nothing left to spend no drop can be established: the test at a vanishing level says so.
    drops = drop_tests([drop_counts(*p) for p in pairs], max(alpha if drop_alpha is None else drop_alpha, 1e-12))
    stands = {(e["model"], e["category"]) for e in established or []}
    rows = []
    level = alpha if ni_alpha is None else ni_alpha
    for row, p, drop in zip(table, pairs, drops):
        # With nothing left to spend no drop can be ruled out: the test at a vanishing level says so.
        test = noninferiority(*p, margin, max(level, 1e-12))
        if not row.measured:
            status = "not measured"
        elif drop.regressed or (row.model, row.category) in stands:
            status = "regressed"
        elif test.verdict == NON_INFERIOR:
            status = "non-inferior"
        else:
            status = "not enough evidence"
        rows.append(
            {
                **row.model_dump(mode="json"),
                "noninferiority": test.model_dump(mode="json"),
                "drop": drop.model_dump(mode="json"),
                "gate": status,
            }
        )
    return rows, gate_status(rows, bool(categories))


def gate_status(rows: list[dict], held: bool) -> str:
    """The gate's one status from its rows: the worst of them, "passed" only when every cell is non-inferior."""
    statuses = {r["gate"] for r in rows}
    if not held:
        return "no held-out evals"
    for status in ("not measured", "regressed", "not enough evidence"):
        if status in statuses:
            return status
    return "passed"


def established_message(established: list[dict], against: str) -> str:
    """Why a retry refuses without a call: the drop an earlier look established stands."""
    first = established[0]
    return (
        f"refusing to publish: a drop was established in {first['category']} on held-out evals for {first['model']} "
        f"against {against} at the gate's look at {first['samples']} samples per eval ({first['pass_to_fail']} "
        f"pass→fail, {first['fail_to_pass']} fail→pass; BH p {first['p_adjusted']:.3g}); the gate's retries are "
        "looks of one sequential test, so more --samples do not overturn it; use --force to publish anyway"
    )
