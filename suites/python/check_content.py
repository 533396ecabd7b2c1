#!/usr/bin/env python3
"""Validate the content of the Python eval suite (this folder), without the tuner's suite loader.

    python suites/python/check_content.py [--python /path/to/python-with-pytest] [-v]

Checks, each grading run in its own temporary folder laid out as the grader sees it
(``<tmp>/app/...`` + ``<tmp>/test_grader.py``, pytest run from ``<tmp>``):

* suite.toml has the expected keys and its categories match the ``NNN-category`` folders;
* every eval has TASK.txt, test_grader.py and answer files only under ``app/``;
* every reference answer passes its grader (steps: filesystem, syntax, tests);
* every broken variant (``broken/<NNN-category>/<name>/``) fails exactly at its ``expected_step``,
  and every eval has at least one;
* every gap of ``sim/gaps.yaml`` matches only answers of its own category (at least one), changes
  every answer it matches, and each changed answer fails grading; likewise profile side effects;
* every gap has a full-strength cure cue matching one rule's default text, and a weaker cue matching
  that rule's terse variant (but not the full-strength cue); ``induced_by`` cues match a candidate;
* every rule file parses (YAML front matter) with the expected fields; sets, template and profiles
  parse and have the expected shape.

Needs PyYAML; uses ``tuner.models.sim.gaps.Gap`` from the repository when importable (else a copy of
its apply logic). Exit status 0 when everything passes.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

SUITE = Path(__file__).resolve().parent
REPO = SUITE.parent.parent
STEPS = ("filesystem", "syntax", "tests")
MANIFEST_KEYS = {"name", "version", "kind", "categories", "guidelines", "published_name", "split"}
RULE_KEYS = {"id", "title", "section", "targets", "status", "variants"}
RULE_ID = re.compile(r"^py\.[a-z0-9][a-z0-9-]*$")
GRADER_IMPORT = re.compile(r"^\s*(?:from\s+app\.(\w+)\s+import\b|import\s+app\.(\w+))", re.MULTILINE)

try:  # the project's own implementation, so the check applies gaps exactly as the simulator does
    sys.path.insert(0, str(REPO))
    from tuner.models.sim.gaps import Gap as _TunerGap  # noqa: E402
    from tuner.models.sim.profiles import SimData as _TunerSimData  # noqa: E402
except Exception:  # pragma: no cover - running outside the repository
    _TunerGap = _TunerSimData = None
finally:
    sys.path.pop(0)


# --- reporting -------------------------------------------------------------------------------

@dataclass
class Report:
    verbose: bool = False
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    passed: int = 0

    def check(self, ok: bool, what: str, detail: str = "", info: str = "") -> bool:
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"  ok    {what}" + (f" ({info})" if info else ""))
        else:
            self.failures.append(what)
            print(f"  FAIL  {what}" + (f": {detail}" if detail else ""))
        return ok

    def note(self, text: str) -> None:
        self.notes.append(text)
        print(f"  note  {text}")


# --- the suite on disk -----------------------------------------------------------------------

@dataclass
class Eval:
    id: str
    category: str
    folder: Path
    answer: dict[str, str]

    @property
    def grader(self) -> Path:
        return self.folder / "test_grader.py"


def category_of(folder_name: str) -> str:
    m = re.match(r"^\d{3}-(.+)$", folder_name)
    return m.group(1) if m else ""


def read_tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8").replace("\r\n", "\n")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def load_evals(categories: list[str], report: Report) -> list[Eval]:
    evals = []
    for cat_dir in sorted(SUITE.glob("[0-9][0-9][0-9]-*")):
        cat = category_of(cat_dir.name)
        report.check(cat in categories, f"{cat_dir.name}: category '{cat}' is declared in suite.toml")
        for folder in sorted(d for d in cat_dir.iterdir() if d.is_dir()):
            eid = f"{cat_dir.name}/{folder.name}"
            report.check(bool(re.match(r"^\d{3}-[a-z0-9-]+$", folder.name)), f"{eid}: folder name is NNN-name")
            for name in ("TASK.txt", "test_grader.py"):
                report.check((folder / name).is_file(), f"{eid}: has {name}")
            answer = read_tree(folder / "answer") if (folder / "answer").is_dir() else {}
            report.check(bool(answer), f"{eid}: has answer files")
            bad = [p for p in answer if not p.startswith("app/")]
            report.check(not bad, f"{eid}: every answer file is under app/", str(bad))
            grader = (folder / "test_grader.py").read_text(encoding="utf-8") if (folder / "test_grader.py").is_file() else ""
            modules = grader_modules(grader)
            report.check(bool(modules), f"{eid}: grader imports the answer as app.<module>")
            report.check(
                all(f"app/{m}.py" in answer for m in modules),
                f"{eid}: every module the grader imports is in the answer",
                str(modules),
            )
            task = (folder / "TASK.txt").read_text(encoding="utf-8") if (folder / "TASK.txt").is_file() else ""
            report.check(
                all(f"app/{m}.py" in task for m in modules),
                f"{eid}: TASK.txt names the module path",
            )
            evals.append(Eval(eid, cat, folder, answer))
    for cat in categories:
        n = sum(1 for e in evals if e.category == cat)
        report.check(n >= 1, f"category '{cat}' has evals ({n})")
    return evals


def grader_modules(grader_text: str) -> list[str]:
    return sorted({a or b for a, b in GRADER_IMPORT.findall(grader_text)})


# --- grading ---------------------------------------------------------------------------------

@dataclass
class Grade:
    step: str | None  # the first failing step, None when everything passed
    detail: str
    seconds: float = 0.0


def grade(files: dict[str, str], grader: Path, python: str) -> Grade:
    """Grade an output (path -> text) against one eval's grader: filesystem, syntax, tests."""
    if not files:
        return Grade("filesystem", "empty output")
    for path in files:
        parts = path.split("/")
        if path.startswith("/") or "\\" in path or ".." in parts or "" in parts or parts[0] != "app":
            return Grade("filesystem", f"path {path!r} is not a relative path under app/")
    grader_text = grader.read_text(encoding="utf-8")
    missing = [m for m in grader_modules(grader_text) if f"app/{m}.py" not in files]
    if missing:
        return Grade("filesystem", f"missing module(s) {', '.join(f'app/{m}.py' for m in missing)}")
    for path, text in files.items():
        if path.endswith(".py"):
            try:
                compile(text, path, "exec", dont_inherit=True)
            except SyntaxError as exc:
                return Grade("syntax", f"{path}:{exc.lineno}: {exc.msg}")
    with tempfile.TemporaryDirectory(prefix="pysuite-") as tmp:
        root = Path(tmp)
        for path, text in files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        (root / "test_grader.py").write_text(grader_text, encoding="utf-8")
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        env.pop("PYTHONPATH", None)
        start = time.monotonic()
        try:
            proc = subprocess.run(
                [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", tmp, "test_grader.py"],
                cwd=tmp, capture_output=True, text=True, timeout=60, env=env,
            )
        except subprocess.TimeoutExpired:
            return Grade("tests", "timed out after 60 s", 60.0)
        seconds = time.monotonic() - start
        lines = [line for line in proc.stdout.strip().splitlines() if line.strip()]
        summary = lines[-1] if lines else proc.stderr.strip()[-200:]
        if proc.returncode == 5 or "no tests ran" in summary:
            return Grade("tests", f"no tests collected ({summary})", seconds)
        return Grade(None if proc.returncode == 0 else "tests", summary, seconds)


# --- checks ----------------------------------------------------------------------------------

def check_manifest(report: Report) -> list[str]:
    print("suite.toml")
    manifest = tomllib.loads((SUITE / "suite.toml").read_text(encoding="utf-8"))
    report.check(set(manifest) == MANIFEST_KEYS, "suite.toml has exactly the expected keys", str(sorted(manifest)))
    report.check(manifest.get("kind") == "pytest", "kind is pytest")
    report.check(manifest.get("name") == "python" and manifest.get("published_name") == "python_rules", "name and published_name")
    report.check(manifest.get("split") == {"held_out_every": 4}, "split.held_out_every = 4")
    report.check((SUITE / str(manifest.get("guidelines"))).is_dir(), "guidelines folder exists")
    return list(manifest.get("categories", []))


def check_references(evals: list[Eval], python: str, pool, report: Report) -> None:
    print("reference answers")
    grades = pool.map(lambda e: grade(e.answer, e.grader, python), evals)
    slowest = 0.0
    for ev, g in zip(evals, grades):
        report.check(g.step is None, f"{ev.id}: reference passes", f"fails at {g.step}: {g.detail}", g.detail)
        slowest = max(slowest, g.seconds)
    print(f"  (slowest reference run, pytest start-up included: {slowest:.2f} s)")


def load_broken(evals: dict[str, Eval], report: Report) -> list[tuple[str, Eval, dict, dict[str, str]]]:
    variants = []
    for toml_path in sorted((SUITE / "broken").glob("*/*/broken.toml")):
        folder = toml_path.parent
        name = f"{folder.parent.name}/{folder.name}"
        meta = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        unknown = set(meta) - {"eval", "expected_step", "why", "removed", "files"}
        report.check(not unknown, f"broken {name}: known keys only", str(sorted(unknown)))
        ev = evals.get(meta.get("eval", ""))
        if not report.check(ev is not None, f"broken {name}: eval {meta.get('eval')!r} exists"):
            continue
        report.check(ev.id.startswith(folder.parent.name + "/"), f"broken {name}: filed under its eval's category")
        report.check(meta.get("expected_step") in STEPS, f"broken {name}: expected_step is one of {STEPS}")
        report.check(bool(meta.get("why")), f"broken {name}: has a why")
        changed = {p: t for p, t in read_tree(folder).items() if p != "broken.toml"}
        if "files" in meta:
            output = dict(meta["files"])
            report.check(not changed, f"broken {name}: a [files] variant has no other files")
        else:
            output = {p: t for p, t in ev.answer.items() if p not in set(meta.get("removed", []))}
            for path, text in changed.items():
                report.check(ev.answer.get(path) != text, f"broken {name}: {path} differs from the reference")
            output.update(changed)
        variants.append((name, ev, meta, output))
    return variants


def check_broken(evals: list[Eval], python: str, pool, report: Report) -> None:
    print("broken variants")
    variants = load_broken({e.id: e for e in evals}, report)
    grades = pool.map(lambda v: grade(v[3], v[1].grader, python), variants)
    for (name, ev, meta, _), g in zip(variants, grades):
        expected = meta.get("expected_step")
        report.check(g.step == expected, f"broken {name}: fails at {expected}",
                     f"got {g.step or 'pass'}: {g.detail}", g.detail)
    for ev in evals:
        n = sum(1 for v in variants if v[1].id == ev.id)
        report.check(n >= 1, f"{ev.id}: has a broken variant ({n})")


def parse_rule(path: Path) -> tuple[dict, str]:
    text = path.read_text(encoding="utf-8")
    m = re.match(r"^---\n(.*?)\n---\n(.*)$", text, re.DOTALL)
    if not m:
        raise ValueError("no '---' front matter block")
    meta = yaml.safe_load(m.group(1))
    if not isinstance(meta, dict):
        raise ValueError("front matter is not a mapping")
    return meta, m.group(2).strip()


def check_guidelines(categories: list[str], report: Report) -> list[dict]:
    print("guidelines")
    g = SUITE / "guidelines"
    template = yaml.safe_load((g / "templates" / "default.yaml").read_text(encoding="utf-8"))
    report.check("# Python guidelines" in template.get("header", ""), "template header says '# Python guidelines'")
    report.check("{text}" in template.get("rule_format", ""), "template rule_format has {text}")
    order = template.get("section_order", [])
    rules = []
    for path in sorted((g / "rules").rglob("*.md")):
        rel = path.relative_to(g).as_posix()
        try:
            meta, body = parse_rule(path)
        except (ValueError, yaml.YAMLError) as exc:
            report.check(False, f"{rel}: front matter parses", str(exc))
            continue
        report.check(True, f"{rel}: front matter parses")
        report.check({"id", "title", "section", "targets", "status"} <= set(meta) <= RULE_KEYS,
                     f"{rel}: has the rule fields only", str(sorted(meta)))
        report.check(bool(RULE_ID.match(str(meta.get("id", "")))), f"{rel}: id looks like py.<name>")
        report.check(bool(body), f"{rel}: has a body")
        targets = meta.get("targets") or []
        report.check(bool(targets) and set(targets) <= set(categories), f"{rel}: targets are suite categories", str(targets))
        report.check(meta.get("status") in ("active", "candidate", "retired"), f"{rel}: status is known")
        section = meta.get("section") or []
        report.check(bool(section) and section[0] in order, f"{rel}: section {section[:1]} is in the template's section_order")
        for name, variant in (meta.get("variants") or {}).items():
            report.check(name != "default" and bool(str(variant).strip()), f"{rel}: variant '{name}' is named and non-empty")
        rules.append({**meta, "body": body, "path": rel})
    ids = [r["id"] for r in rules]
    report.check(len(ids) == len(set(ids)), "rule ids are unique")
    active = [r["id"] for r in rules if r["status"] == "active"]
    candidate = [r["id"] for r in rules if r["status"] == "candidate"]
    report.check(5 <= len(rules) <= 7, f"5-7 rules ({len(rules)})")
    report.check(len(active) >= 4, f"at least 4 active rules ({len(active)})")
    report.check(1 <= len(candidate) <= 2, f"1-2 candidate rules ({len(candidate)})")
    for name in ("all-active", "none"):
        data = yaml.safe_load((g / "sets" / f"{name}.yaml").read_text(encoding="utf-8"))
        report.check(isinstance(data, dict) and data.get("template") == "default", f"set {name} parses")
    return rules


def rule_text(rule: dict, variant: str = "default") -> str:
    text = rule["body"] if variant == "default" else str(rule.get("variants", {}).get(variant, "")).strip()
    return f"**{rule['title']}.** {text}" if text else ""


def cue_matches(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.IGNORECASE | re.MULTILINE) is not None


class _LocalGap:
    """Fallback when tuner is not importable: the same apply() semantics as tuner's Gap/Edit."""

    def __init__(self, raw: dict) -> None:
        self.__dict__.update(raw)
        self.files = raw.get("files", "**")

    def targets(self, files: dict[str, str]) -> list[str]:
        return [p for p, t in files.items()
                if (self.files == "**" or fnmatch.fnmatch(p, self.files)) and re.search(self.trigger, t, re.MULTILINE)]

    def apply(self, files: dict[str, str]) -> tuple[dict[str, str], bool]:
        out, changed = dict(files), False
        for path in self.targets(files):
            text = out[path]
            for sub in self.transform:
                text = re.compile(sub["pattern"], re.MULTILINE).sub(sub["replace"], text, count=sub.get("count", 0))
            changed = changed or text != out[path]
            out[path] = text
        return out, changed


def load_sim(report: Report):
    raw_gaps = yaml.safe_load((SUITE / "sim" / "gaps.yaml").read_text(encoding="utf-8"))
    raw_profiles = yaml.safe_load((SUITE / "sim" / "profiles.yaml").read_text(encoding="utf-8"))
    if _TunerSimData is not None:
        data = _TunerSimData.model_validate({**raw_gaps, **raw_profiles}).check("suites/python/sim")
        report.check(True, "sim data validates with tuner's schema")
        gaps = list(data.gaps)
        effects = {name: list(p.side_effects) for name, p in data.profiles.items()}
    else:
        report.note("tuner not importable: gaps applied by the local copy of Gap.apply, schema not checked")
        gaps = [_LocalGap(g) for g in raw_gaps["gaps"]]
        effects = {name: [_LocalGap(e) for e in p.get("side_effects", [])] for name, p in raw_profiles["profiles"].items()}
    return raw_gaps, raw_profiles, gaps, effects


def check_sim(evals: list[Eval], rules: list[dict], categories: list[str], python: str, pool, report: Report) -> None:
    print("simulated gaps")
    raw_gaps, raw_profiles, gaps, effects = load_sim(report)
    jobs = []  # (label, eval, files)
    for gap in gaps:
        report.check(gap.category in categories, f"gap {gap.id}: category '{gap.category}' is a suite category")
        own = []
        for ev in evals:
            if not gap.targets(ev.answer):
                continue
            if not report.check(ev.category == gap.category, f"gap {gap.id}: matches only its own category",
                                f"also matches {ev.id}"):
                continue
            own.append(ev.id)
            changed_files, changed = gap.apply(ev.answer)
            if report.check(changed, f"gap {gap.id} @ {ev.id}: the transform changes the answer"):
                jobs.append((f"gap {gap.id} @ {ev.id}", ev, changed_files))
        report.check(len(own) >= 1, f"gap {gap.id}: applies to at least one eval of its category")
        if len(own) == 1:
            report.note(f"gap {gap.id} applies to one eval only ({own[0]})")
        print(f"  gap {gap.id}: applies to {', '.join(own) or 'nothing'}")
    for profile, side_effects in effects.items():
        for effect in side_effects:
            hits = [ev for ev in evals if ev.category in effect.categories and effect.targets(ev.answer)]
            report.check(bool(hits), f"side effect {profile}/{effect.id}: applies somewhere")
            for ev in hits:
                changed_files, changed = effect.apply(ev.answer)
                if report.check(changed, f"side effect {effect.id} @ {ev.id}: changes the answer"):
                    jobs.append((f"side effect {effect.id} @ {ev.id}", ev, changed_files))
    for (label, ev, files), g in zip(jobs, pool.map(lambda j: grade(j[2], j[1].grader, python), jobs)):
        report.check(g.step is not None, f"{label}: fails grading", f"still passes: {g.detail}", f"at {g.step}: {g.detail}")

    print("cures")
    by_id = {r["id"]: r for r in rules}
    for raw in raw_gaps["gaps"]:
        cures = [c if isinstance(c, dict) else {"pattern": c, "strength": 1.0} for c in raw.get("cures", [])]
        full = [c for c in cures if c.get("strength", 1.0) == 1.0]
        weak = [c for c in cures if c.get("strength", 1.0) < 1.0]
        curing = [r for r in rules if any(cue_matches(c["pattern"], rule_text(r)) for c in full)]
        if report.check(len(curing) == 1, f"gap {raw['id']}: one rule's detailed text has a full-strength cure",
                        str([r["id"] for r in curing])):
            rule = curing[0]
            terse = rule_text(rule, "terse")
            report.check(bool(terse) and any(cue_matches(c["pattern"], terse) for c in weak),
                         f"gap {raw['id']}: a weaker cue matches the terse variant of {rule['id']}")
            report.check(not any(cue_matches(c["pattern"], terse) for c in full),
                         f"gap {raw['id']}: the full-strength cue does not match the terse variant")
            print(f"  {raw['id']}: cured by {rule['id']} ({rule['status']})")
        # Which other rules touch this gap at all (any strength): should be none.
        others = [r["id"] for r in rules if r not in curing
                  and any(cue_matches(c["pattern"], rule_text(r, v)) for c in cures for v in ("default", "terse"))]
        report.check(not others, f"gap {raw['id']}: no unrelated rule matches its cures", str(others))
        for cue in raw.get("induced_by", []):
            pattern = cue["pattern"] if isinstance(cue, dict) else cue
            inducers = [r["id"] for r in rules if cue_matches(pattern, rule_text(r))]
            report.check(bool(inducers) and all(by_id[i]["status"] == "candidate" for i in inducers),
                         f"gap {raw['id']}: induced_by matches a candidate rule only", str(inducers))
            print(f"  {raw['id']}: induced by {', '.join(inducers)}")
    active_prompt = "\n".join(rule_text(r) for r in rules if r["status"] == "active")
    uncured = [g["id"] for g in raw_gaps["gaps"]
               if not any(cue_matches(c["pattern"], active_prompt) for c in g.get("cures", []))]
    helped = [r["id"] for r in rules if r["status"] == "candidate"
              and any(cue_matches(c["pattern"], rule_text(r)) for g in raw_gaps["gaps"] if g["id"] in uncured
                      for c in g.get("cures", []))]
    report.check(bool(helped), f"a candidate rule cures a gap no active rule cures ({', '.join(helped)} -> {', '.join(uncured)})")

    print("profiles")
    profiles = raw_profiles["profiles"]
    gap_ids = {g["id"] for g in raw_gaps["gaps"]}
    careful = profiles.get("careful", {})
    report.check(
        (careful.get("cure_strength"), careful.get("attention_tokens"), careful.get("noise")) == (0.99, 20000, 0.005),
        "careful: cure_strength 0.99, attention_tokens 20000, noise 0.005",
    )
    probs = careful.get("gaps", {})
    report.check(set(probs) == gap_ids, "careful: has every gap", str(sorted(gap_ids - set(probs))))
    report.check(all(0.3 <= p <= 0.8 for p in probs.values()), "careful: base probabilities in 0.3..0.8")
    for cat in categories:
        n = sum(1 for g in raw_gaps["gaps"] if g["category"] == cat)
        report.check(n >= 2, f"at least 2 gaps in category '{cat}' ({n})")
    report.check("perfect" in profiles and not profiles["perfect"].get("gaps"), "perfect: exists and has no gaps")
    for name, prof in profiles.items():
        unknown = set(prof.get("gaps", {})) - gap_ids
        report.check(not unknown, f"profile {name}: only known gap ids", str(sorted(unknown)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter with pytest (default: this one)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    args = parser.parse_args()
    report = Report(verbose=args.verbose)
    start = time.monotonic()
    categories = check_manifest(report)
    print("evals")
    evals = load_evals(categories, report)
    for ev in evals:
        held = " (held out)" if ev.folder.name.startswith("004-") else ""
        print(f"  {ev.id}{held}")
    rules = check_guidelines(categories, report)
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 2)) as pool:
        check_references(evals, args.python, pool, report)
        check_broken(evals, args.python, pool, report)
        check_sim(evals, rules, categories, args.python, pool, report)
    took = time.monotonic() - start
    print(f"\n{report.passed} checks passed, {len(report.failures)} failed, {len(report.notes)} notes ({took:.1f} s)")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
