"""The tuning report as Markdown (written to reports/tune/<study>.md)."""

from __future__ import annotations

from tuner.ablation.report import lead_lines
from tuner.tuning.evidence import CategoryRow
from tuner.tuning.records import Screening
from tuner.tuning.report import TuneReport

__all__ = ["render_markdown", "fmt_rate", "fmt_delta"]


def fmt_rate(e) -> str:
    if e.rate is None:
        return "n/a"
    return f"{e.rate:.0%} [{e.lo:.0%}, {e.hi:.0%}]"


def fmt_delta(p) -> str:
    if p.delta is None:
        return "n/a"
    return f"{p.delta:+.0%} [{p.lo:+.0%}, {p.hi:+.0%}]"


def _rows(rows: list[CategoryRow]) -> list[str]:
    out = ["| model | category | before | after | delta | q | verdict |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        q = "n/a" if r.paired.q_value is None else f"{r.paired.q_value:.3f}"
        out.append(
            f"| {r.model} | {r.category} | {fmt_rate(r.before)} | {fmt_rate(r.after)} | {fmt_delta(r.paired)} | {q} | {r.paired.verdict} |"
        )
    return out


def _effect(e) -> str:
    if e.delta is None:
        return "n/a"
    if e.lo is None or e.hi is None:
        return f"{e.delta:+.0%}"
    return f"{e.delta:+.0%} [{e.lo:+.0%}, {e.hi:+.0%}]"


def _q(e) -> str:
    return "n/a" if e.q_value is None else f"{e.q_value:.3f}"


def _evidence_intro(report: TuneReport) -> list[str]:
    if report.evidence is None:
        return []
    return [
        f"The screening's cells on the {report.category} evals (see Screening): the effect of including each rule of "
        "the pool (or of using a phrasing instead of the rule's default), per model, with the zone's verdict."
    ]


def _confirmation_intro(report: TuneReport) -> list[str]:
    c = report.confirmation
    if c is None or c.design == "none":
        return []
    return [
        f"Confirmation ran in rounds of fresh samples of every tuning and held-out eval "
        f"({', '.join(map(str, c.samples_per_round)) or 'none'} per eval; error spent in O'Brien-Fleming-type shares of "
        "the planned rounds); "
        f'after each, a category whose paired difference is confidently beyond ±{c.delta0:.0%} is "improved" or '
        f'"regressed", one confidently within ±{c.delta:.0%} "no meaningful change", and only categories still '
        f"open get more samples. {c.calls} calls in {c.looks} looks (stopped: {c.stopped}, budget "
        f"{c.budget_calls}); the fixed design ({c.fixed_samples} samples of both prompts on every eval) would make "
        f"{c.fixed_calls}: {c.saved_calls} calls saved.",
        "",
    ]


def _screening_lines(report: TuneReport) -> list[str]:
    sc = report.screening
    if not sc:
        return []
    en = sc.engine
    chosen = {
        "decided": "the changes whose verdict on the target is in (helps for a rule to add or a phrasing, "
        "hurts for a rule to drop)",
        "promising": "no change was decided, so the best bet (beyond the zone's edge, strongest evidence), for "
        "confirmation to judge",
        "none": "no change was decided or promising",
    }[sc.chosen_by]
    return [
        "## Screening",
        "",
        f"The rule-effect engine on the {sc.target_evals} tuning evals of `{report.category}` (the baseline "
        f"{sc.baseline_rate:.0%} there): {sc.factors} questions (each pool rule in or out, each other "
        f"phrasing), {en.calls} calls in {en.rounds} looks of a budget of {en.budget_calls} (stopped: "
        f"{en.stopped}; error spent in O'Brien-Fleming-type shares of the planned calls). Changes taken: "
        f"{chosen}: {', '.join(sc.changes) or 'none'}. {sc.checked} trial(s) of the regression check on "
        f"every tuning eval (the baseline included); {sc.calls} calls in these steps ({sc.new_calls} paid now).",
        "",
        *_leads(sc),
    ]


def _leads(sc: Screening) -> list[str]:
    """What would decide the leading open questions (the CLI records them: ``leads``, ``continue``)."""
    return lead_lines(
        sc.leads,
        sc.continue_,
        by_category=False,
        intro=(
            "What would decide the leading open questions (the cap whose screening decides an effect of the size "
            "each reads now with 80% power):"
        ),
    )


def _not_confirmed(report: TuneReport, held_out: bool = False) -> str:
    """Why a confirmation table is empty: the step did not run (say why), or ran with no such evals."""
    c = report.confirmation
    if c is None or c.design == "none" or not c.looks:
        why = (c.stopped if c else None) or (
            "no change to confirm" if report.best_selection == report.baseline_selection else "no calls left"
        )
        return f"(not run: {why})"
    return "(the suite has no held-out evals)" if held_out else "(no rows)"


def decision_lines(report: TuneReport) -> list[str]:
    """The decision on the winner and why, as Markdown lines."""
    a = report.acceptance
    if a is None:
        return []
    head = {
        "accepted": "**Accepted**: the winner improved the target on fresh samples of its tuning evals (where the "
        f"change was chosen), a drop of more than {report.tolerance * 100:.0f} points (`--tolerance`) is ruled out "
        "in every other category, tuning and held-out evals together (one-sided, at each confirmation look's "
        "share of alpha: at most 5% over every rerun for a change that drops that much), and no drop is "
        "established anywhere else (exact one-sided McNemar per model × category, Benjamini-Hochberg, 5% "
        "family-wise).",
        "no change": "**No change**: no selection beat the baseline; nothing to publish.",
        "withheld": "**Withheld**: the winner is not offered for publishing.",
        "not measured": "**Not measured**: some cells lost answers to provider or grader failures; no decision.",
    }
    lines = ["## Decision", "", head.get(a.decision, a.decision), ""]
    lines += [f"- {r}" for r in a.reasons]
    lines += [""] if a.reasons else []
    for c in a.claim:
        tuning, held = c.tuning_evals, c.held_out_evals
        if tuning:
            lines.append(
                f"- {c.model} · `{c.category}`: {_part(tuning)} on its {tuning.evals} tuning evals (fresh "
                "samples; the change was chosen on these evals); "
                + (f"on its {held.evals} held-out evals {_part(held)}." if held else "no held-out evals.")
            )
    if a.noninferiority:
        lines += [
            "",
            f"A drop of more than {report.tolerance * 100:.0f} points ruled out elsewhere (the one-sided bound at "
            "the look that showed it, else the last look):",
            "",
            "| model | category | pairs | Δ | lower bound | one-sided level | look | ruled out |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for n in a.noninferiority:
            delta = "n/a" if n.delta is None else f"{n.delta:+.0%}"
            lo = "n/a" if n.lo is None else f"{n.lo:+.0%}"
            lines.append(
                f"| {n.model} | {n.category} | {n.pairs} | {delta} | {lo} | {n.level:.2g} | {n.look or 'n/a'} "
                f"| {'yes' if n.shown else 'no'} |"
            )
        if report.confirmation is not None and report.confirmation.margin_continue:
            lines += [
                "",
                "To rule it out everywhere (80% chance where nothing moves; the confirmation continues its "
                f"looks): `{report.confirmation.margin_continue}`",
            ]
    if a.drops:
        lines += [
            "",
            "Drops tested elsewhere (one family: BH-adjusted p of the exact one-sided McNemar test):",
            "",
            "| model | category | evals | pairs | Δ | pass→fail | fail→pass | BH p | drop |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for d in a.drops:
            delta = "n/a" if d.delta is None else f"{d.delta:+.0%}"
            lines.append(
                f"| {d.model} | {d.category} | {d.evals} | {d.pairs} | {delta} | {d.pass_to_fail} | {d.fail_to_pass} "
                f"| {d.p_adjusted:.3g} | {'established' if d.regressed else 'not shown'} |"
            )
    return lines + [""]


def _part(part) -> str:
    return f"{part.delta:+.0%} [{part.lo:+.0%}, {part.hi:+.0%}]"


def _rate(estimate) -> str:
    return "n/a" if estimate.rate is None else f"{estimate.rate * 100:.0f}"


def _placebo(report: TuneReport) -> list[str]:
    """tune --placebo: the accepted winner against a length-matched placebo (``tuner.tuning.placebo``)."""
    arm = report.placebo
    if arm is None:
        return []
    lines = ["## Against a length-matched placebo", ""]
    if not arm.cells:
        return [*lines, f"{arm.note or 'no placebo arm'}.", ""]
    lines += [
        f"The winner's prompt against {arm.tokens} tokens of rules about {arm.domain} (seed {arm.seed}, "
        f"same template), {arm.samples} fresh samples of each of the {arm.evals} `{report.category}` tuning "
        "evals, paired by eval and sample (sample indices no other phase drew). The cells are the compare's "
        "placebo cells: cluster-robust interval, exact McNemar p, Benjamini–Hochberg q over these cells alone.",
        "",
        "| model | category | placebo % | winner % | Δ pts [95% CI] | q | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in arm.cells:
        delta = "n/a" if c.delta is None else f"{c.delta * 100:+.0f} [{c.lo * 100:+.0f}, {c.hi * 100:+.0f}]"
        q = "n/a" if c.q_value is None else f"{c.q_value:.3g}"
        lines.append(
            f"| {c.model_label} | {c.category} | {_rate(c.before)} | {_rate(c.after)} | {delta} | {q} | {c.verdict} |"
        )
    claim = (
        "Claim: **not measured** (answers lost to provider or grader failures, or to the cap; the decision above "
        "stands)."
        if arm.claim == "not measured"
        else f"Claim: the winner **{arm.claim}**."
    )
    lines += ["", claim, ""]
    return lines


def render_markdown(report: TuneReport) -> str:
    added = sorted(set(report.best_selection) - set(report.baseline_selection))
    removed = sorted(set(report.baseline_selection) - set(report.best_selection))
    lines = [
        f"# Tuning `{report.category}`: study {report.study}",
        "",
        f"Baseline: `{report.baseline}` ({len(report.baseline_selection)} rules, {report.baseline_tokens} tokens). "
        f"Winner: trial {report.best_trial} ({len(report.best_selection)} rules, {report.best_tokens} tokens). "
        f"{report.trials} trials, {report.calls} provider calls in all.",
        "",
        f"Added: {', '.join(added) or 'none'}. Removed: {', '.join(removed) or 'none'}.",
        "",
        *decision_lines(report),
        *_screening_lines(report),
        "Intervals treat evals as the unit (they speak for tasks like these). Verdicts come from a sequential test on "
        "the paired samples of these evals, with the same indifference zone as the rule effects below; q is its "
        "Benjamini–Hochberg q-value at the look that decided the row, so a change can be decided on this suite while "
        "its interval still reaches zero.",
        "",
        *_confirmation_intro(report),
        "## Confirmation on fresh samples (tuning evals)",
        "",
        *(_rows(report.fresh) if report.fresh else [_not_confirmed(report)]),
        "",
        "## Confirmation on held-out evals",
        "",
        *(_rows(report.held_out) if report.held_out else [_not_confirmed(report, held_out=True)]),
        "",
        *_placebo(report),
        "## Which rules do what (the screening)",
        "",
        *_evidence_intro(report),
        "",
        "| rule | model | category | effect of including it | q | verdict | calls | tokens |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in report.rule_effects:
        if e.verdict not in ("no meaningful effect", "no detectable effect") or e.category == report.category:
            lines.append(
                f"| {e.rule} | {e.model} | {e.category} | {_effect(e)} | {_q(e)} | {e.verdict} | {e.calls or ''} | {e.tokens} |"
            )
    lines += ["", "## Parameter importance (PED-ANOVA over the study's trials)", ""]
    for rid, value in sorted(report.importance.items(), key=lambda kv: -kv[1])[:10]:
        lines.append(f"- {rid}: {value:.2f}")
    if not report.importance:
        lines.append("(too few distinct trials to estimate)")
    lines += [
        "",
        f"Rules that help `{report.category}`: {', '.join(report.found_helpful) or 'none detected'}.",
        f"Rules that hurt another category: {', '.join(report.found_harmful) or 'none detected'}.",
        "",
    ]
    return "\n".join(lines)
