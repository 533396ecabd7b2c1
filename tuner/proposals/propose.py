"""``tuner propose --category C``: candidate rules from a run's failures, with provenance.

Nothing becomes active here: every rule is written ``status: candidate``, which `tune` and `ablate`
may switch on and measure. Drafts that are near-duplicates of an existing rule (see
``similarity``) are skipped; near-duplicate drafts of one another are merged (their evals joined).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import yaml
from pydantic import BaseModel

from tuner.errors import InputError, NotFoundError

__all__ = ["WrittenRule", "SkippedDraft", "ProposalResult", "propose_rules"]


class WrittenRule(BaseModel):
    id: str
    title: str
    path: str
    evals: list[str]


class SkippedDraft(BaseModel):
    title: str
    eval_id: str
    reason: str


class ProposalResult(BaseModel):
    run_id: str
    category: str
    proposer: str
    simulated: bool
    failures: int
    written: list[WrittenRule]
    skipped: list[SkippedDraft]


def _latest_run_with_failures(store, suite_name: str, category: str):
    from tuner.store.runs import latest_failing_run

    run_id = latest_failing_run(store, suite_name, category)
    if run_id is None:
        raise NotFoundError(
            f"no stored run of suite '{suite_name}' has failures in '{category}' (run `tuner run --category {category}` first)"
        )
    return store.run(run_id)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48].strip("-")
    return slug if slug and slug[0].isalnum() else f"rule-{slug}".strip("-")


def _layout(library, category: str) -> tuple[str, list[str], str]:
    """(id prefix, section, folder) that the category's existing rules use most."""
    mine = [r for r in library if category in r.targets]
    prefix = Counter(r.id.split(".", 1)[0] for r in mine).most_common(1)
    section = Counter(r.section for r in mine).most_common(1)
    folder = Counter(r.path.rsplit("/", 1)[0].split("/", 1)[-1] if "/" in r.path else "" for r in mine).most_common(1)
    return (
        prefix[0][0] if prefix else re.sub(r"[^a-z0-9_]", "_", category.lower()),
        list(section[0][0]) if section else [category.replace("_", " ").title()],
        folder[0][0] if folder and folder[0][0] else category,
    )


def _render(meta: dict, body: str) -> str:
    return (
        "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=100) + "---\n" + body.strip() + "\n"
    )


def propose_rules(
    project, store, category: str, *, run: str | None, proposer: str, api_base: str | None = None
) -> ProposalResult:
    from tuner.analysis.analyze import check_author, suite_for_run
    from tuner.analysis.failures import summarise
    from tuner.analysis.lm import is_simulated
    from tuner.analysis.runref import resolve_run
    from tuner.evals import load_suite
    from tuner.guidelines import load_rules

    check_author(proposer, "proposer", api_base)
    suite = load_suite(project)
    suite.check_category(category)
    record = resolve_run(store, run) if run else _latest_run_with_failures(store, suite.name, category)
    suite = suite_for_run(project, record)
    failures = [f for f in summarise(store, suite, record).failures if f.category == category]
    result = ProposalResult(
        run_id=record.id,
        category=category,
        proposer=proposer,
        simulated=is_simulated(proposer),
        failures=len(failures),
        written=[],
        skipped=[],
    )
    if not failures:
        return result
    library = load_rules(project.rules_dir, suite.categories)
    drafts = _drafts(project, suite, library, category, failures, proposer, api_base)
    accepted = _screen(failures, drafts, library, result)
    files = _rule_files(project, suite, library, category, record.id, accepted, result)
    from tuner.files import write_atomic

    for path, text, written in files:  # every file validated first: nothing half-written
        write_atomic(path, text)
        result.written.append(written)
    if result.written:
        _record(project, store, record, result)
    return result


def _drafts(project, suite, library, category, failures, proposer, api_base) -> list:
    from tuner.analysis.lm import SimulatedEngine, dspy_module, is_simulated, make_lm
    from tuner.proposals.proposer import draft_all, simulated_drafts

    current = "\n\n".join(f"## {r.title}\n{r.body}" for r in library if category in r.targets and r.status == "active")
    engine = (
        SimulatedEngine(proposer, "failure_id", simulated_drafts(failures, suite.root))
        if is_simulated(proposer)
        else None
    )
    dspy = dspy_module(project.cache_dir / "dspy")
    lm = make_lm(dspy, proposer, api_base=api_base, simulated=engine, role="proposer")
    return draft_all(dspy, lm, failures, current)


def _screen(failures, drafts, library, result: ProposalResult) -> list[dict]:
    """The drafts worth writing: declined ones and near-duplicates of existing rules are skipped,
    near-duplicates of an earlier draft merged into it (its evals joined)."""
    from tuner.proposals.similarity import closest

    existing = {f"{r.id}@{v}": r.text(v) for r in library for v in r.variant_names}
    accepted: list[dict] = []
    for f, d in zip(failures, drafts):
        if d is None:
            result.skipped.append(
                SkippedDraft(
                    title="",
                    eval_id=f.eval_id,
                    reason="the proposer saw no rule to write (or its answer was unreadable)",
                )
            )
            continue
        twin = next((a for a in accepted if closest(d.text, {"x": a["draft"].text})[1].duplicate), None)
        if twin is not None:
            twin["evals"].append(d.eval_id)
            result.skipped.append(
                SkippedDraft(
                    title=d.title,
                    eval_id=d.eval_id,
                    reason=f"same advice as the draft from {twin['draft'].eval_id}; merged",
                )
            )
            continue
        name, sim = closest(d.text, existing)
        if sim.duplicate:
            result.skipped.append(
                SkippedDraft(title=d.title, eval_id=d.eval_id, reason=f"near-duplicate of {name} ({sim.describe()})")
            )
            continue
        accepted.append({"draft": d, "evals": [d.eval_id], "closest": name, "sim": sim})
    return accepted


def _rule_files(project, suite, library, category, run_id, accepted, result: ProposalResult) -> list[tuple]:
    """(path, text, WrittenRule) per accepted draft, each validated as strictly as `load_rules` does."""
    from tuner.analysis.analyze import today
    from tuner.guidelines.rules import rule_from_text
    from tuner.secrets import mask

    prefix, section, folder = _layout(library, category)
    taken = set(library.rules)
    files = []
    for a in accepted:
        d = a["draft"]
        slug = _slug(d.name or d.title)
        rid, n = f"{prefix}.{slug}", 2
        while rid in taken:
            rid, n = f"{prefix}.{slug}-{n}", n + 1
        taken.add(rid)
        path = project.rules_dir / folder / f"{rid.split('.', 1)[1]}.md"
        provenance = {
            "proposed_by": result.proposer,
            "simulated": result.simulated,
            "date": today(),
            "runs": [run_id],
            "evals": sorted(set(a["evals"])),
            "similarity": f"closest existing: {a['closest'] or 'none'}: {a['sim'].describe()}",
        }
        meta = {
            "id": rid,
            "title": mask(" ".join(d.title.split()))[:200] or rid,
            "section": section,
            "targets": [category],
            "status": "candidate",
            "provenance": provenance,
        }
        text = _render(meta, mask(d.text))
        rule_from_text(text, str(path), suite.categories)
        if path.exists():
            raise InputError(f"{path}: already exists; not overwriting a rule file")
        files.append((path, text, WrittenRule(id=rid, title=meta["title"], path=str(path), evals=provenance["evals"])))
    return files


def _record(project, store, run, result: ProposalResult) -> None:
    """One store row per proposal that wrote rules (its path: the first rule file written)."""
    from tuner.store.reports import ReportRecord, save_report

    first = result.written[0].path
    try:
        first = Path(first).relative_to(project.root).as_posix()
    except ValueError:
        pass
    save_report(
        store,
        ReportRecord(
            kind="proposal",
            run_id=run.id,
            model=run.model,
            author_model=result.proposer,
            path=first,
            body=result.model_dump(mode="json"),
        ),
    )
