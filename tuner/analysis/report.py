"""The analysis report: where it goes, its JSON body, its Markdown rendering."""

from __future__ import annotations

import re
from pathlib import Path

from tuner.analysis.analyst import CLASSIFICATIONS, UNCLASSIFIED, Verdict
from tuner.analysis.collate import GROUPS, Collation
from tuner.analysis.failures import FailureSummary
from tuner.hashing import short

__all__ = ["report_path", "model_folder", "build_body", "render_markdown"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def model_folder(reports: Path, model: str) -> Path:
    """``reports/{provider}/{model}`` (characters unsafe in a file name become ``_``)."""
    provider, _, name = model.partition("/")
    return reports / _UNSAFE.sub("_", provider) / _UNSAFE.sub("_", name or provider)


def report_path(reports: Path, model: str, run_id: str, date: str) -> Path:
    """``{run8}_{date}.md``, or ``{run8}_{date}_2.md`` (``_3``, ...) when an analysis of the same run
    was already written that day: a second analysis (another analyst, a re-graded run) must not
    replace the first, which the store and later reports still refer to."""
    folder = model_folder(reports, model)
    stem = f"{short(run_id, 8)}_{date}"
    path, n = folder / f"{stem}.md", 1
    while path.exists() or path.with_suffix(".json").exists():
        n += 1
        path = folder / f"{stem}_{n}.md"
    return path


def build_body(
    s: FailureSummary, verdicts: list[Verdict], c: Collation, *, analyst: str, simulated: bool, date: str
) -> dict:
    return {
        "kind": "analysis",
        "run_id": s.run_id,
        "model": s.model,
        "set": s.set_name,
        "prompt_hash": s.prompt_hash,
        "suite": s.suite,
        "date": date,
        "analyst": analyst,
        "simulated_analyst": simulated,
        "totals": {
            "results": s.total,
            "passed": s.passed,
            "failed": s.failed,
            "infra": s.infra,
            "pass_rate": s.pass_rate,
        },
        "categories": s.categories,
        "by_step": s.by_step,
        "failures": [
            {
                "eval_id": f.eval_id,
                "category": f.category,
                "sample": f.sample_index,
                "failed_step": f.failed_step,
                "reason": f.reason,
                "failed_samples": f.failed_samples,
                "scored_samples": f.scored_samples,
            }
            for f in s.failures
        ],
        "verdicts": [v.model_dump() for v in verdicts],
        **c.model_dump(),
    }


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0%}"


# Analyst text and grader messages quote what a model wrote: in the report they are text, never
# Markdown that a renderer (the viewer, an editor's preview, a code host) would turn into a remote
# image, an outside link, a heading or the end of a fence.
_QUOTED = re.compile(
    r"(?<!`)(?P<run>`+)(?!`)(?P<code>.+?)(?<!`)(?P=run)(?!`)"  # a code span, as CommonMark pairs them
    r"|\\(?=[!-/:-@\[-`{-~])"  # a backslash that would escape what follows
    r"|[`\[|]"  # a lone backtick; the start of every link and image; a table cell's edge
    r"|<(?=[A-Za-z/!?])"
)  # the start of a tag or an autolink
_BLOCK_START = re.compile(r"^(\s*)([#>+\-*=~:]|\d+(?=[.)]))")


def _quote(m: re.Match) -> str:
    code = m.group("code")
    if code is None:
        return "\\" + m.group(0)
    if "<" in code or ">" in code:  # an autolink or a tag outranks a code span in some renderers
        return "\\`" * len(m.group("run")) + _QUOTED.sub(_quote, code) + "\\`" * len(m.group("run"))
    return m.group(0).replace("|", "\\|")  # literal in every renderer; a table would still split on |


def _inline(text: str) -> str:
    """One line of quoted text with the Markdown that could act escaped: links, images, tags,
    autolinks, table cell edges, and a first character that would start a block (heading, quote,
    list, fence). Code spans stay as written (they are literal everywhere); so do emphasis marks
    and entities, harmless as text."""
    out = _QUOTED.sub(_quote, text)
    return _BLOCK_START.sub(
        lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2).isdigit() else "\\" + m.group(2)), out, count=1
    )


def _cell(text: str, limit: int | None = 160) -> str:
    """One line of quoted text for a table cell or a list item."""
    one = " ".join((text or "").split())
    one = one if limit is None or len(one) <= limit else one[: limit - 1] + "…"
    return _inline(one)


def _prose(text: str) -> str:
    """Quoted text of several lines (an analyst's reasoning) as paragraphs of plain text."""
    return "\n".join(_inline(line.strip()) for line in text.strip().splitlines())


def _fence(text: str) -> str:
    """A fenced block longer than any run of backticks in ``text``, so nothing in it can close it."""
    longest = max((len(run) for run in re.findall(r"`+", text or "")), default=0)
    fence = "`" * max(4, longest + 1)
    return f"{fence}\n" + (text or "").rstrip() + f"\n{fence}"


def render_markdown(b: dict) -> str:
    t = b["totals"]
    run8 = short(b["run_id"], 8)
    out = [f"# Failure analysis: {b['model']} · run {run8} · {b['date']}", ""]
    who = f"analyst `{b['analyst']}`" + (
        " (simulated: classifications derived from the simulator's planted truth)" if b["simulated_analyst"] else ""
    )
    out += [
        f"Written by {who}. Run `{b['run_id']}`, suite {b['suite']}. This report changes no eval, rule or configuration.",
        "",
    ]
    out += [
        "## Failure summary",
        "",
        f"- model: `{b['model']}`",
        f"- rule set: `{b['set']}` (prompt `{short(b['prompt_hash'])}`)",
        f"- results: {t['results']} · passed {t['passed']} · failed {t['failed']} · infrastructure {t['infra']} (excluded)",
        "",
    ]
    out += ["| category | eval | failed samples | failed step | reason |", "|---|---|---|---|---|"]
    out += [
        f"| {f['category']} | {f['eval_id']} | {f['failed_samples']}/{f['scored_samples']} | {f['failed_step']} | {_cell(f['reason'])} |"
        for f in b["failures"]
    ]
    out += [
        "",
        "## Overall",
        "",
        f"Pass rate {_pct(t['pass_rate'])} ({t['passed']}/{t['passed'] + t['failed']} scored results); "
        f"{len(b['failures'])} eval(s) failed at least once.",
        "",
        "| failed step | evals |",
        "|---|---|",
    ]
    out += [f"| {step} | {n} |" for step, n in b["by_step"].items()]
    out += ["", "## Classifications", "", "| classification | evals |", "|---|---|"]
    out += [f"| {c} | {b['counts'].get(c, 0)} |" for c in (*CLASSIFICATIONS, UNCLASSIFIED)]
    out += ["", "| eval | step | classification | error | reasoning |", "|---|---|---|---|---|"]
    out += [
        f"| {v['eval_id']} | {v['failed_step']} | **{v['classification']}** | {_cell(v['error_line'], 100)} | {_cell(v['reasoning'], None)} |"
        for v in b["verdicts"]
    ]
    for v in b["verdicts"]:
        out += [
            "",
            f"### {v['eval_id']} ({v['classification']})",
            "",
            f"- failed step: {v['failed_step']}",
            f"- error: {_cell(v['error_line'], 300)}",
            f"- root cause: {_cell(v['root_cause'], None) if v['root_cause'] else 'n/a'}",
            "",
            _prose(v["reasoning"]) if (v["reasoning"] or "").strip() else "(no reasoning)",
            "",
            "Problematic output:",
            "",
            _fence(v["problematic"]),
            "",
            "Expected:",
            "",
            _fence(v["expected"]),
        ]
        if v.get("raw") is not None:
            out += ["", "Raw analyst answer (not usable, recorded as is):", "", _fence(v["raw"])]
    out += ["", "## Cross-cutting patterns", ""]
    shared = b["shared_causes"]
    out += [
        f"- one root cause, several failures: **{_cell(s['cause'], None)}** in {', '.join(s['evals'])}" for s in shared
    ] or ["- no root cause is shared by two or more failures"]
    out += [
        f"- harder category: {h['category']} ({h['failed']}/{h['scored']} failed, {h['rate']:.0%})"
        for h in b["harder_categories"]
    ]
    if b["repeats"]:
        for r in b["repeats"]:
            seen = ", ".join(f"{e['report']} ({e['classification']})" for e in r["earlier"])
            fix = (
                f"; an earlier recommendation should have fixed it: {_cell(r['recommendation'], None)}"
                if r["recommendation"]
                else "; no earlier recommendation addressed it"
            )
            out.append(f"- repeat: {r['eval_id']} ({r['classification']}) also failed in {seen}{fix}")
    else:
        out.append("- repeats from earlier reports of this model: none")
    out += ["", "## Recommendations", ""]
    for group in GROUPS:
        recs = [r for r in b["recommendations"] if r["group"] == group]
        out += [f"### {group[0].upper() + group[1:]}", ""]
        out += [f"- {_cell(r['text'], 400)}" for r in recs] or ["- none"]
        out.append("")
    out += [
        "## Net impact",
        "",
        f"- actionable failures (eval or configuration fixes: OVERLY_STRICT, AMBIGUOUS_TASK): {b['actionable']}",
        f"- genuine model faults (MODEL_FAULT, KNOWN_GAP): {b['model_faults']}",
        f"- unclassified: {b['unclassified']}",
        f"- pass rate if the actionable failures were fixed: {_pct(b['pass_rate_if_fixed'])} (now {_pct(t['pass_rate'])})",
        "",
    ]
    return "\n".join(out)
