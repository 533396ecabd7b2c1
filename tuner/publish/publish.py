"""`publish`: write the winning guideline file with its evidence, refusing regressions.

What is compared: the candidate (a tuning study's best trial, or a set) against what users have
today — the published text byte for byte (``published.published_prompt``); on a first publish, the
study's own baseline; for a set with nothing published, no guidelines at all. On which models: the
study's, unless ``--model``/``--panel`` says otherwise. On what: fresh samples of the held-out evals
(``gate_offset``: a window of sample indices of its own per candidate and comparison, never the
samples tune selected or confirmed on).

The gate (``gate``), per model × held-out category (every one the suite has: a category without
answers is "not measured", never a pass):

- "regressed" when a drop is established over the gate's family of cells
  (``tuner.stats.drop_tests``: exact one-sided McNemar, Benjamini-Hochberg, alpha 0.05), so a candidate that
  changes nothing is refused by noise at most 5% of the time however many cells there are, and a
  point estimate from three evals whose interval spans zero refuses nothing;
- "non-inferior" when a drop of the margin (the study's tolerance) is ruled out
  (``tuner.stats.noninferiority`` over these evals' samples);
- else "not enough evidence".

Retrying with more ``--samples`` continues one sequential test of each question
(``gate_looks``): each look tests at what the sequence has left, and a drop established at a look
stands (a retry refuses without a call). A regression refuses the publish unless ``--force`` (recorded); a cell with answers lost to
provider or grader failures refuses it always (exit 4); the gate says "passed" only when every cell
is non-inferior (an intersection-union test: its error is one cell's). A study is published only
as tune accepted it: a winner tune did not accept, or a study whose best trial is not the selection
tune accepted (a worker added trials since, or another study shares its configuration), is refused
unless ``--force``.
"""

from __future__ import annotations

from datetime import datetime, timezone

from pydantic import BaseModel

from tuner.errors import IncompleteError, InputError, NotFoundError, TunerError
from tuner.files import write_atomic
from tuner.guidelines import RuleSet
from tuner.publish.formats import render_agents_md, render_cursor_rule, render_markdown_file, title_of
from tuner.publish.gate import DEFAULT_TOLERANCE, GATE_BASE, established_message, gate, gate_offset, gate_status
from tuner.publish.gate_looks import GateLooks
from tuner.publish.manifest import Manifest, PublishedRule, next_version, read_manifest
from tuner.publish.published import published_prompt
from tuner.runs import Harness

__all__ = [
    "GATE_BASE",
    "NotAccepted",
    "PublishResult",
    "RegressionRefused",
    "Source",
    "gate",
    "gate_offset",
    "publish",
    "resolve_source",
    "latest_study",
]


class RegressionRefused(TunerError):
    """The candidate regresses a category on the held-out evals (a check failed: exit 1)."""


class NotAccepted(TunerError):
    """The study's winner was withheld by tune's decision (or never confirmed; exit 1)."""


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
    experiment: str | None = None  # the study's name as its experiment record has it (tune's last run of the config)

    def describe(self) -> dict:
        """Where the selection came from; for a study tune accepted, what tune measured it to do to the
        target: on fresh samples of its tuning evals (where the change was chosen) and, beside it, on
        its held-out evals."""
        out = {k: v for k, v in {"kind": self.kind, "name": self.name, "trial": self.trial}.items() if v is not None}
        acc = self.acceptance or {}
        if acc.get("claim"):
            out["tune_claim"] = {
                "decision": acc.get("decision"),
                "selection_hash": acc.get("selection_hash"),
                "measured": "fresh samples of the target's tuning evals (the change was chosen on "
                "these evals); its held-out evals beside it",
                "per_model": acc["claim"],
            }
        return out


def resolve_source(h: Harness, source: str, storage: str | None) -> Source:
    """A study name (its best trial, with the study's models, baseline, tolerance and decision) or a set."""
    from tuner.tuning import best_trial, open_study
    from tuner.tuning.space import selection_of
    from tuner.tuning.study import load_config

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
    acceptance = (
        ((exp or {}).get("result") or {}).get("acceptance") if (exp or {}).get("status") == "finished" else None
    )
    return Source(
        kind="study",
        name=source,
        trial=best.number,
        selection=selection_of(dict(best.params)),
        baseline_selection=dict(config.baseline_selection),
        models=config.models,
        tolerance=config.tolerance,
        acceptance=acceptance,
        experiment=(exp or {}).get("name"),
    )


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
    from tuner.store.experiments import experiments_created

    out: dict[str, list[str]] = {}
    for row in experiments_created(h.store, ["tune", "ablate"]):
        result = row["result"] or {}
        for e in result.get("rule_effects") or result.get("effects") or []:
            if e.get("verdict") in ("helps", "hurts") and len(out.setdefault(e["rule"], [])) < 4:
                where = " on its tuning evals" if row["kind"] == "tune" else ""  # where tune measured it
                # The engine's figure is its estimate at the look that decided (a first crossing reads high).
                at = " at its deciding look" if e.get("decided_round") else ""
                out[e["rule"]].append(
                    f"{e['verdict']} {e['category']}{where} ({e['delta']:+.0%}{at}, {e['model']}, "
                    f"{row['kind']} {row['name']})"
                )
    return out


def _check_accepted(src: Source, force: bool) -> None:
    """A study is published as tune accepted it, or with --force."""
    if src.kind != "study" or force:
        return
    from tuner.tuning.space import selection_hash

    acc = src.acceptance
    if acc is None:
        raise NotAccepted(
            f"study '{src.name}' has not finished (tune confirms its winner at the end): run its "
            "`tuner tune` command to completion, or use --force to publish the best trial unconfirmed"
        )
    if acc.get("decision") != "accepted":
        why = "; ".join(acc.get("reasons") or []) or acc.get("decision")
        raise NotAccepted(
            f"tune did not accept the winner of study '{src.name}' ({acc.get('decision')}: "
            f"{why}); use --force to publish it anyway"
        )
    accepted_by = acc.get("study") or src.experiment
    if accepted_by != src.name or acc.get("selection_hash") != selection_hash(src.selection):
        what = (
            f"study '{accepted_by}' (same configuration)"
            if accepted_by != src.name
            else "another selection"
            if acc.get("selection_hash")
            else "a selection it did not record"
        )
        raise NotAccepted(
            f"study '{src.name}': its best trial (#{src.trial}) is not the selection tune accepted (tune's "
            f"decision is about {what}); run `tuner tune` again to confirm it, or use --force"
        )


def _previous_side(h: Harness, out_dir, previous: Manifest | None, src: Source):
    """(label, selection, exact prompt or None) of what the candidate is compared with."""
    if previous is not None:
        before = {r.id: r.variant for r in previous.rules}
        prompt = published_prompt(out_dir, previous)
        return (
            f"published {previous.version}"
            + ("" if prompt else " (text recomposed: the published bytes were not found)"),
            before,
            prompt,
        )
    if src.baseline_selection is not None:
        return "the study's baseline", src.baseline_selection, None
    return "no guidelines", {}, None


def publish(
    h: Harness,
    *,
    source: str,
    name: str,
    specs: list | None,
    samples: int,
    force: bool = False,
    storage: str | None = None,
    version: str | None = None,
    tolerance: float | None = None,
    progress=None,
) -> PublishResult:
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
        raise InputError(
            f"{name} {version} is already published ({out_dir / 'history' / (version + '.json')}); "
            "a published version is never overwritten"
        )
    against, before, before_prompt = _previous_side(h, out_dir, previous, src)
    prev_hashes = {r.id: r.hash for r in previous.rules} if previous else {}
    diff = {
        "added": sorted(set(selection) - set(before)),
        "removed": sorted(set(before) - set(selection)),
        "changed": sorted(r.id for r in prompt.rules if r.id in prev_hashes and prev_hashes[r.id] != r.hash),
    }
    held_evals = h.suite.select(held_out=True)
    held = sorted(e.id for e in held_evals)
    rows, run_ids = [], []
    before_set = RuleSet.from_selection("published-previous", before)
    against_hash = (before_prompt or h.guidelines.compose(before_set)).hash
    offset = gate_offset(prompt.hash, against_hash)
    looks = GateLooks.open(h, name, prompt.hash, against_hash, specs, held, margin)
    if looks.established and not force:  # one sequential test: more samples do not overturn a drop
        raise RegressionRefused(established_message(looks.established, against))
    ni_alpha, drop_alpha = looks.level(samples), looks.drop_level(samples)
    if held:
        sides = [(before_set, before_prompt), (RuleSet.from_selection(f"{name}-candidate", selection), prompt)]
        configs = [
            RunConfig(spec=spec, rule_set=rs, prompt=p, eval_ids=tuple(held), samples=samples, sample_offset=offset)
            for rs, p in sides
            for spec in specs
        ]
        outcomes = execute_runs(h, configs, progress)
        groups = [
            {spec.key: o for spec, o in zip(specs, outcomes[i * len(specs) : (i + 1) * len(specs)])} for i in range(2)
        ]
        rows, _ = gate(
            groups,
            margin,
            sorted({e.category for e in held_evals}),
            ni_alpha=ni_alpha,
            drop_alpha=drop_alpha,
            established=looks.established,
        )
        run_ids = [o.run.id for g in groups for o in g.values()]
    status = gate_status(rows, bool(held))
    if held and status != "not measured":  # a look made: a retry with more samples spends only what is left
        looks.record(samples, ni_alpha, status, drop_alpha, rows)
    if status == "not measured":
        missing = ", ".join(f"{r['model']} · {r['category']}" for r in rows if r["gate"] == "not measured")
        raise IncompleteError(
            f"the held-out gate was not measured ({missing}: answers lost to provider or grader "
            "failures); nothing published: run the same command again to retry them"
        )
    regressed = [r for r in rows if r["gate"] == "regressed"]
    if regressed and not force:
        worst = min(regressed, key=lambda r: r["drop"]["p_adjusted"])
        p, d = worst["paired"], worst["drop"]
        raise RegressionRefused(
            f"refusing to publish: a drop is established in {worst['category']} on held-out evals for {worst['model']} "
            f"against {against} ({p['delta']:+.0%} [{p['lo']:+.0%}, {p['hi']:+.0%}]; {d['pass_to_fail']} pass→fail, "
            f"{d['fail_to_pass']} fail→pass, BH p {d['p_adjusted']:.3g}); use --force to publish anyway"
        )
    date = datetime.now(timezone.utc).date().isoformat()
    ver = version or next_version(previous, len(diff["added"]), len(diff["removed"]), len(diff["changed"]))
    if previous is not None and ver == previous.version:  # bytes changed (a template edit): still a new version
        major, minor, patch = (int(x) for x in previous.version.split("."))
        ver = f"{major}.{minor}.{patch + 1}"
    manifest = Manifest(
        name=name,
        version=ver,
        previous=previous.version if previous else None,
        published_at=date,
        source=src.describe(),
        prompt_hash=prompt.hash,
        tokens=prompt.tokens,
        rules=[
            PublishedRule(id=r.id, variant=r.variant, hash=r.hash, title=h.guidelines.library.get(r.id).title)
            for r in prompt.rules
        ],
        evidence=rows,
        gate={
            "evals": held,
            "against": against,
            "models": [s.label for s in specs],
            "samples": samples,
            "sample_offset": offset,
            "margin": margin,
            "status": status,
            "rows": rows,
            "noninferiority_alpha": ni_alpha,
            "drop_alpha": drop_alpha,
            "looks": [list(x) for x in looks.made],
            "drop_looks": [list(x) for x in looks.drop_made],
            "established": looks.established,
            "passed": status == "passed",
            "forced": bool(regressed and force),
            "accepted_by_tune": _accepted_by_tune(src),
        },
        run_ids=run_ids,
    )
    entry = _changelog(ver, date, diff, _measured_effects(h), manifest.gate["forced"])
    files = _write(out_dir, name, manifest, prompt, entry, globs=h.suite.kind.file_globs, suite_name=h.suite.name)
    return PublishResult(manifest=manifest, files=files, changelog=entry)


def _accepted_by_tune(src: Source) -> bool | None:
    """True only when tune accepted exactly this selection of this study (anything else went through --force)."""
    if src.acceptance is None:
        return None
    from tuner.tuning.space import selection_hash

    acc = src.acceptance
    return (
        acc.get("decision") == "accepted"
        and (acc.get("study") or src.experiment) == src.name
        and acc.get("selection_hash") == selection_hash(src.selection)
    )


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
