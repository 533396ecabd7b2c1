"""`publish`: write the winning guideline file with its evidence, refusing regressions.

The candidate selection (a tuning study's best trial or a set) is compared with the currently
published version (or with no rules, the first time) on fresh samples of every eval; the
held-out evals alone decide the gate: a significant regression in any category there refuses
the publish unless forced, and the manifest records that it was forced.
"""

from __future__ import annotations

from datetime import datetime, timezone

from pydantic import BaseModel

from tuner.errors import InputError, NotFoundError, TunerError
from tuner.files import write_atomic
from tuner.guidelines import RuleSet
from tuner.publish.formats import render_agents_md, render_cursor_rule, render_markdown_file, title_of
from tuner.publish.manifest import Manifest, PublishedRule, next_version, read_manifest
from tuner.runs import Harness, run_selections
from tuner.tuning.config import FRESH_OFFSET
from tuner.tuning.evidence import paired_table

__all__ = ["PublishResult", "RegressionRefused", "publish", "resolve_source", "latest_study"]


class RegressionRefused(TunerError):
    """The candidate significantly regresses a category on the held-out evals."""

    exit_code = 1


class PublishResult(BaseModel):
    manifest: Manifest
    files: list[str]
    changelog: str
    unchanged: bool = False


def resolve_source(h: Harness, source: str, storage: str | None) -> tuple[dict, dict[str, str]]:
    """({kind, name, trial}, selection) for a study name (its best trial) or a set."""
    from tuner.tuning import best_trial, open_study
    from tuner.tuning.space import selection_of

    try:
        study = open_study(storage or h.db_url, source)
    except NotFoundError:
        rule_set = h.guidelines.load_set(source)
        return {"kind": "set", "name": source}, rule_set.select(h.guidelines.library)
    best = best_trial(study)
    if best is None:
        raise InputError(f"study '{source}' has no feasible complete trial to publish")
    return {"kind": "study", "name": source, "trial": best.number}, selection_of(dict(best.params))


def latest_study(h: Harness) -> str | None:
    """Name of the most recently finished tuning study over this suite's evals, if any."""
    from sqlalchemy import select

    from tuner.store.schema import ExperimentRow

    ids = {e.id for e in h.suite.evals}
    with h.store.session() as s:
        rows = s.execute(select(ExperimentRow).where(ExperimentRow.kind == "tune", ExperimentRow.result.is_not(None))
                         .order_by(ExperimentRow.created_at.desc(), ExperimentRow.id)).scalars().all()
        for row in rows:
            if set((row.config or {}).get("eval_ids") or []) <= ids:
                return row.name
    return None


def _changelog(version: str, date: str, diff: dict, effects: dict[str, list[str]], forced: bool) -> str:
    lines = [f"## {version} ({date}){' — published with --force despite a held-out regression' if forced else ''}", ""]
    for label, ids in (("Added", diff["added"]), ("Removed", diff["removed"]), ("Changed", diff["changed"])):
        for rid in ids:
            measured = "; ".join(effects.get(rid, [])) or "no individual measurement yet (run `tuner ablate`)"
            lines.append(f"- {label} `{rid}`: {measured}")
    if not any(diff.values()):
        lines.append("- No rule changes.")
    return "\n".join(lines) + "\n"


def _measured_effects(h: Harness) -> dict[str, list[str]]:
    """Significant per-rule effects from the latest stored tune/ablate experiments, by rule."""
    from sqlalchemy import select

    from tuner.store.schema import ExperimentRow

    out: dict[str, list[str]] = {}
    with h.store.session() as s:
        rows = s.execute(select(ExperimentRow).where(ExperimentRow.kind.in_(["tune", "ablate"])).order_by(ExperimentRow.created_at.desc())).scalars().all()
        for row in rows:
            for e in (row.result or {}).get("rule_effects") or (row.result or {}).get("effects") or []:
                if e.get("verdict") in ("helps", "hurts") and len(out.setdefault(e["rule"], [])) < 4:
                    out[e["rule"]].append(f"{e['verdict']} {e['category']} ({e['delta']:+.0%}, {e['model']}, {row.kind} {row.name})")
    return out


def publish(h: Harness, *, source: str, name: str, specs: list, samples: int, force: bool = False,
            storage: str | None = None, version: str | None = None, progress=None) -> PublishResult:
    out_dir = h.project.published_dir / name
    previous = read_manifest(out_dir / "manifest.json")
    src, selection = resolve_source(h, source, storage)
    prompt = h.guidelines.compose(RuleSet.from_selection(name, selection))
    before = {r.id: r.variant for r in previous.rules} if previous else {}
    prev_hashes = {r.id: r.hash for r in previous.rules} if previous else {}
    diff = {
        "added": sorted(set(selection) - set(before)),
        "removed": sorted(set(before) - set(selection)),
        "changed": sorted(r.id for r in prompt.rules if r.id in prev_hashes and prev_hashes[r.id] != r.hash),
    }
    if previous and previous.prompt_hash == prompt.hash and not version:
        return PublishResult(manifest=previous, files=[], changelog="", unchanged=True)
    eval_ids = [e.id for e in h.suite.evals]
    held = {e.id for e in h.suite.select(held_out=True)}
    groups = run_selections(h, [("published-previous", before), (f"{name}-candidate", selection)], specs, eval_ids,
                            samples=samples, sample_offset=FRESH_OFFSET, progress=progress)
    evidence = paired_table(groups[0], groups[1])
    held_runs = [{k: _subset(o, held) for k, o in g.items()} for g in groups]
    gate_rows = paired_table(held_runs[0], held_runs[1]) if held else []
    regressed = [r for r in gate_rows if r.paired.verdict == "regressed"]
    if regressed and not force:
        worst = regressed[0]
        raise RegressionRefused(
            f"refusing to publish: {worst.category} regresses on held-out evals for {worst.model} "
            f"({worst.paired.delta:+.0%}, q={worst.paired.q_value:.3f}); use --force to publish anyway"
        )
    date = datetime.now(timezone.utc).date().isoformat()
    ver = version or next_version(previous, len(diff["added"]), len(diff["removed"]), len(diff["changed"]))
    manifest = Manifest(
        name=name, version=ver, previous=previous.version if previous else None, published_at=date, source=src,
        prompt_hash=prompt.hash, tokens=prompt.tokens,
        rules=[PublishedRule(id=r.id, variant=r.variant, hash=r.hash, title=h.guidelines.library.get(r.id).title) for r in prompt.rules],
        evidence=[r.model_dump(mode="json") for r in evidence],
        gate={"evals": sorted(held), "rows": [r.model_dump(mode="json") for r in gate_rows], "passed": not regressed, "forced": bool(regressed and force)},
        run_ids=[o.run.id for g in groups for o in g.values()],
    )
    entry = _changelog(ver, date, diff, _measured_effects(h), manifest.gate["forced"])
    files = _write(out_dir, name, manifest, prompt, entry, globs=h.suite.kind.file_globs, suite_name=h.suite.name)
    return PublishResult(manifest=manifest, files=files, changelog=entry)


def _subset(outcome, eval_ids: set[str]):
    from dataclasses import replace

    return replace(outcome, results=[r for r in outcome.results if r.eval_id in eval_ids])


def _write(out_dir, name: str, manifest: Manifest, prompt, entry: str, *, globs: str, suite_name: str) -> list[str]:
    title = title_of(prompt, f"{suite_name} guidelines")
    changelog_path = out_dir / "CHANGELOG.md"
    old = changelog_path.read_text(encoding="utf-8") if changelog_path.is_file() else f"# {name} changelog\n\n"
    head, _, rest = old.partition("\n\n")
    contents = {
        f"{name}.md": render_markdown_file(name, manifest.version, prompt),
        f"{name}.mdc": render_cursor_rule(name, manifest.version, prompt, title=title, globs=globs),
        "AGENTS.md": render_agents_md(name, manifest.version, prompt, title=title),
        f"history/{manifest.version}.json": manifest.model_dump_json(indent=2) + "\n",
        "manifest.json": manifest.model_dump_json(indent=2) + "\n",
        "CHANGELOG.md": f"{head}\n\n{entry}\n{rest}",
    }
    # Everything is rendered before the first byte is written; each file is replaced atomically.
    for rel, text in contents.items():
        write_atomic(out_dir / rel, text)
    return [str(out_dir / rel) for rel in contents]
