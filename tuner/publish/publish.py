"""`publish`: write the winning guideline file with its evidence, refusing regressions.

What is compared: the candidate (a tuning study's best trial, or a set) against what users have
today — the published text byte for byte (``published.published_prompt``); on a first publish, the
study's own baseline; for a set with nothing published, no guidelines at all. On which models: the
study's, unless ``--model``/``--panel`` says otherwise. On what: fresh samples (``GATE_OFFSET``,
never the samples tune selected or confirmed on) of the held-out evals.

The gate is a non-inferiority check per model × held-out category, with the study's tolerance as
the margin: "regressed" when the evidence points down (``tuning.acceptance.points_down``: a
significant drop or a drop beyond the margin), "non-inferior" when the paired interval's lower bound
is above −margin, else "not enough evidence". A regression refuses the publish unless ``--force``
(recorded); a cell with answers lost to provider or grader failures refuses it always (exit 4);
the gate says "passed" only when every cell is non-inferior. A study whose winner tune did not
accept is refused unless ``--force``.
"""

from __future__ import annotations

from datetime import datetime, timezone

from pydantic import BaseModel

from tuner.errors import IncompleteError, InputError, NotFoundError, TunerError
from tuner.files import write_atomic
from tuner.guidelines import RuleSet
from tuner.publish.formats import render_agents_md, render_cursor_rule, render_markdown_file, title_of
from tuner.publish.manifest import Manifest, PublishedRule, next_version, read_manifest
from tuner.publish.published import published_prompt
from tuner.runs import Harness
from tuner.tuning.acceptance import points_down
from tuner.tuning.evidence import paired_table

__all__ = ["GATE_OFFSET", "NotAccepted", "PublishResult", "RegressionRefused", "Source", "publish", "resolve_source",
           "latest_study"]

# Gate samples start here: far from the trials' (0...) and the confirmation's (1000...) indices, so
# "fresh" samples are fresh and nothing is replayed from tune's caches.
GATE_OFFSET = 5000
DEFAULT_TOLERANCE = 0.15


class RegressionRefused(TunerError):
    """The candidate regresses a category on the held-out evals."""

    exit_code = 1


class NotAccepted(TunerError):
    """The study's winner was withheld by tune's decision (or never confirmed)."""

    exit_code = 1


class PublishResult(BaseModel):
    manifest: Manifest
    files: list[str]
    changelog: str
    unchanged: bool = False


class Source(BaseModel):
    kind: str  # "study" | "set"
    name: str
    trial: int | None = None
    selection: dict[str, str]
    baseline_selection: dict[str, str] | None = None  # the study's baseline
    models: list[dict] | None = None  # the study's models (ModelSpec dumps)
    tolerance: float | None = None  # the study's tolerance
    acceptance: dict | None = None  # tune's decision on the winner, if the study finished

    def describe(self) -> dict:
        return {k: v for k, v in {"kind": self.kind, "name": self.name, "trial": self.trial}.items() if v is not None}


def resolve_source(h: Harness, source: str, storage: str | None) -> Source:
    """A study name (its best trial, with the study's models, baseline, tolerance and decision) or a set."""
    from tuner.tuning import best_trial, open_study
    from tuner.tuning.study import load_config
    from tuner.tuning.space import selection_of

    try:
        study = open_study(storage or h.db_url, source)
    except NotFoundError:
        rule_set = h.guidelines.load_set(source)
        return Source(kind="set", name=source, selection=rule_set.select(h.guidelines.library))
    best = best_trial(study)
    if best is None:
        raise InputError(f"study '{source}' has no feasible complete trial to publish")
    config = load_config(study)
    exp = h.store.experiment(config.hash)
    acceptance = ((exp or {}).get("result") or {}).get("acceptance") if (exp or {}).get("status") == "finished" else None
    return Source(kind="study", name=source, trial=best.number, selection=selection_of(dict(best.params)),
                  baseline_selection=dict(config.baseline_selection), models=config.models, tolerance=config.tolerance,
                  acceptance=acceptance)


def latest_study(h: Harness) -> str | None:
    """Name of the most recently *finished* tuning study over this suite's evals, if any."""
    ids = {e.id for e in h.suite.evals}
    for exp in h.store.experiments("tune", status="finished"):
        if set((exp["config"] or {}).get("eval_ids") or []) <= ids:
            return exp["name"]
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


def _check_accepted(src: Source, force: bool) -> None:
    if src.kind != "study" or force:
        return
    if src.acceptance is None:
        raise NotAccepted(f"study '{src.name}' has not finished (tune confirms its winner at the end): run its "
                          "`tuner tune` command to completion, or use --force to publish the best trial unconfirmed")
    if src.acceptance.get("decision") != "accepted":
        why = "; ".join(src.acceptance.get("reasons") or []) or src.acceptance.get("decision")
        raise NotAccepted(f"tune did not accept the winner of study '{src.name}' ({src.acceptance.get('decision')}: "
                          f"{why}); use --force to publish it anyway")


def _previous_side(h: Harness, out_dir, previous: Manifest | None, src: Source):
    """(label, selection, exact prompt or None) of what the candidate is compared with."""
    if previous is not None:
        before = {r.id: r.variant for r in previous.rules}
        prompt = published_prompt(out_dir, previous)
        return f"published {previous.version}" + ("" if prompt else " (text recomposed: the published bytes were not found)"), before, prompt
    if src.baseline_selection is not None:
        return "the study's baseline", src.baseline_selection, None
    return "no guidelines", {}, None


def _gate_rows(groups: list[dict], margin: float) -> list[dict]:
    """Per model × held-out category: the paired row plus the non-inferiority test
    (``tuner.stats.noninferiority`` over these evals' samples, calibrated in tests/stats) and its status."""
    from tuner.compare.rates import model_label
    from tuner.runs import pair_outcomes
    from tuner.stats import NON_INFERIOR, REGRESSED, noninferiority

    label_key = {model_label(o.run.model, o.run.params): k for k, o in groups[1].items()}
    rows = []
    for row in paired_table(groups[0], groups[1]):
        key = label_key[row.model]
        before, after = groups[0][key].results, groups[1][key].results
        test = noninferiority(*pair_outcomes(before, after, row.category), margin)
        p = row.paired
        if not row.measured:
            status = "not measured"
        elif test.verdict == REGRESSED or points_down(p.delta, p.hi, p.verdict, margin):
            status = "regressed"
        elif test.verdict == NON_INFERIOR:
            status = "non-inferior"
        else:
            status = "not enough evidence"
        rows.append({**row.model_dump(mode="json"), "noninferiority": test.model_dump(mode="json"), "gate": status})
    return rows


def _gate_status(rows: list[dict], held: set[str]) -> str:
    statuses = {r["gate"] for r in rows}
    if not held:
        return "no held-out evals"
    for status in ("not measured", "regressed", "not enough evidence"):
        if status in statuses:
            return status
    return "passed"


def publish(h: Harness, *, source: str, name: str, specs: list | None, samples: int, force: bool = False,
            storage: str | None = None, version: str | None = None, tolerance: float | None = None,
            progress=None) -> PublishResult:
    """Publish ``source`` as ``name``. ``specs`` None: the study's models (a set source needs them given)."""
    from tuner.models import ModelSpec
    from tuner.runs import RunConfig, execute_runs

    out_dir = h.project.published_dir / name
    previous = read_manifest(out_dir / "manifest.json")
    src = resolve_source(h, source, storage)
    _check_accepted(src, force)
    if specs is None:
        if src.models is None:
            raise InputError("publishing a set needs --model or --panel (there is no study to take models from)")
        specs = [ModelSpec.model_validate(m) for m in src.models]
    margin = tolerance if tolerance is not None else (src.tolerance if src.tolerance is not None else DEFAULT_TOLERANCE)
    selection = src.selection
    prompt = h.guidelines.compose(RuleSet.from_selection(name, selection))
    if previous and previous.prompt_hash == prompt.hash and not version:
        return PublishResult(manifest=previous, files=[], changelog="", unchanged=True)
    if version and (out_dir / "history" / f"{version}.json").is_file():
        raise InputError(f"{name} {version} is already published ({out_dir / 'history' / (version + '.json')}); "
                         "a published version is never overwritten")
    against, before, before_prompt = _previous_side(h, out_dir, previous, src)
    prev_hashes = {r.id: r.hash for r in previous.rules} if previous else {}
    diff = {
        "added": sorted(set(selection) - set(before)),
        "removed": sorted(set(before) - set(selection)),
        "changed": sorted(r.id for r in prompt.rules if r.id in prev_hashes and prev_hashes[r.id] != r.hash),
    }
    held = sorted(e.id for e in h.suite.select(held_out=True))
    rows, run_ids = [], []
    if held:
        sides = [(RuleSet.from_selection("published-previous", before), before_prompt),
                 (RuleSet.from_selection(f"{name}-candidate", selection), prompt)]
        configs = [RunConfig(spec=spec, rule_set=rs, prompt=p, eval_ids=tuple(held), samples=samples,
                             sample_offset=GATE_OFFSET) for rs, p in sides for spec in specs]
        outcomes = execute_runs(h, configs, progress)
        groups = [{spec.key: o for spec, o in zip(specs, outcomes[i * len(specs):(i + 1) * len(specs)])} for i in range(2)]
        rows = _gate_rows(groups, margin)
        run_ids = [o.run.id for g in groups for o in g.values()]
    status = _gate_status(rows, set(held))
    if status == "not measured":
        missing = ", ".join(f"{r['model']} · {r['category']}" for r in rows if r["gate"] == "not measured")
        raise IncompleteError(f"the held-out gate was not measured ({missing}: answers lost to provider or grader "
                              "failures); nothing published: run the same command again to retry them")
    regressed = [r for r in rows if r["gate"] == "regressed"]
    if regressed and not force:
        worst = min(regressed, key=lambda r: r["paired"]["delta"])
        p = worst["paired"]
        raise RegressionRefused(
            f"refusing to publish: {worst['category']} regresses on held-out evals for {worst['model']} against "
            f"{against} ({p['delta']:+.0%} [{p['lo']:+.0%}, {p['hi']:+.0%}], margin {margin:.0%}); use --force to publish anyway"
        )
    date = datetime.now(timezone.utc).date().isoformat()
    ver = version or next_version(previous, len(diff["added"]), len(diff["removed"]), len(diff["changed"]))
    if previous is not None and ver == previous.version:  # bytes changed (a template edit): still a new version
        major, minor, patch = (int(x) for x in previous.version.split("."))
        ver = f"{major}.{minor}.{patch + 1}"
    manifest = Manifest(
        name=name, version=ver, previous=previous.version if previous else None, published_at=date, source=src.describe(),
        prompt_hash=prompt.hash, tokens=prompt.tokens,
        rules=[PublishedRule(id=r.id, variant=r.variant, hash=r.hash, title=h.guidelines.library.get(r.id).title) for r in prompt.rules],
        evidence=rows,
        gate={"evals": held, "against": against, "models": [s.label for s in specs], "samples": samples,
              "sample_offset": GATE_OFFSET, "margin": margin, "status": status, "rows": rows,
              "passed": status == "passed", "forced": bool(regressed and force),
              "accepted_by_tune": None if src.acceptance is None else src.acceptance.get("decision") == "accepted"},
        run_ids=run_ids,
    )
    entry = _changelog(ver, date, diff, _measured_effects(h), manifest.gate["forced"])
    files = _write(out_dir, name, manifest, prompt, entry, globs=h.suite.kind.file_globs, suite_name=h.suite.name)
    return PublishResult(manifest=manifest, files=files, changelog=entry)


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
        f"history/{manifest.version}.prompt.md": prompt.text,
        "manifest.json": manifest.model_dump_json(indent=2) + "\n",
        "CHANGELOG.md": f"{head}\n\n{entry}\n{rest}",
    }
    # Everything is rendered before the first byte is written; each file is replaced atomically.
    for rel, text in contents.items():
        write_atomic(out_dir / rel, text)
    return [str(out_dir / rel) for rel in contents]
