#!/usr/bin/env python3
"""Validate the content of the C eval suite (this folder).

    python suites/c/check_content.py [-v]

Unlike suites/python/check_content.py this one grades through tuner's own C kind
(``tuner.suites.c``), so it checks the suite exactly as ``tuner`` grades it (gcc, sanitizers, the
jail; set TUNER_SANDBOX=none where bubblewrap cannot run). It checks:

* suite.toml has the expected keys and its categories match the ``NNN-category`` folders;
* every eval has TASK.txt, test_grader.c and answer files only under ``src/``; every header the
  grader includes is in the answer and named by TASK.txt;
* every reference answer and every alternative (``alternatives/<name>/src``) passes; every broken variant (``broken/<NNN-category>/<name>/``) fails
  exactly at its ``expected_step``, every eval has one and every step after ``filesystem`` is hit;
* every gap of ``sim/gaps.yaml`` matches only answers of its own category, changes each answer it
  matches, and each changed answer fails grading;
* every gap has one rule whose full text matches a full-strength cure and whose terse variant
  matches only a weaker one; ``induced_by`` cues match candidate rules only; a candidate rule cures
  a gap that no active rule cures; rules, sets, template and profiles have the expected shape.

Exit status 0 when everything passes.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

SUITE = Path(__file__).resolve().parent
REPO = SUITE.parent.parent
sys.path.insert(0, str(REPO))

from tuner.evals import load_suite  # noqa: E402
from tuner.grading import GradeRequest, read_output_dir  # noqa: E402
from tuner.models.sim.profiles import SimData  # noqa: E402
from tuner.paths import Project  # noqa: E402

MANIFEST_KEYS = {"name", "version", "kind", "categories", "guidelines", "published_name", "split"}
RULE_KEYS = {"id", "title", "section", "targets", "status", "variants"}
RULE_ID = re.compile(r"^c\.[a-z0-9][a-z0-9-]*$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


@dataclass
class Report:
    verbose: bool = False
    failures: list[str] = field(default_factory=list)
    passed: int = 0

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"  ok    {what}")
        else:
            self.failures.append(what)
            print(f"  FAIL  {what}" + (f": {detail}" if detail else ""))
        return ok


def check_manifest(report: Report) -> list[str]:
    print("suite.toml")
    manifest = tomllib.loads((SUITE / "suite.toml").read_text(encoding="utf-8"))
    report.check(set(manifest) == MANIFEST_KEYS, "suite.toml has exactly the expected keys", str(sorted(manifest)))
    report.check(manifest.get("kind") == "c" and manifest.get("published_name") == "c_rules", "kind c, published c_rules")
    report.check(manifest.get("split") == {"held_out_every": 4}, "split.held_out_every = 4")
    folders = sorted(re.sub(r"^\d{3}-", "", d.name) for d in SUITE.glob("[0-9][0-9][0-9]-*"))
    report.check(sorted(manifest.get("categories", [])) == folders, "categories match the NNN-category folders", str(folders))
    return list(manifest.get("categories", []))


def check_evals(suite, report: Report) -> None:
    print("evals")
    for ev in suite.evals:
        task, grader, answer = ev.task, ev.grader, ev.answer_files()
        report.check(bool(answer) and all(p.startswith("src/") for p in answer), f"{ev.id}: answer files under src/")
        report.check(any(p.endswith(".c") for p in answer), f"{ev.id}: the answer has a .c file")
        headers = [h for h in INCLUDE.findall(grader) if h != "tuner_test.h"]
        report.check(bool(headers), f"{ev.id}: the grader includes the answer's header")
        for h in headers:
            report.check(f"src/{h}" in answer, f"{ev.id}: src/{h} is in the answer")
            report.check(f"src/{h}" in task, f"{ev.id}: TASK.txt names src/{h}")
        report.check("RUN_TESTS(" in grader, f"{ev.id}: the grader lists its tests with RUN_TESTS")
        print(f"  {ev.id}" + (" (held out)" if ev.held_out else ""))


def broken_requests(suite, report: Report) -> list[tuple[str, dict, GradeRequest]]:
    out = []
    for case in sorted((SUITE / "broken").glob("*/*/broken.toml")):
        name = f"{case.parent.parent.name}/{case.parent.name}"
        spec = tomllib.loads(case.read_text(encoding="utf-8"))
        report.check(set(spec) <= {"eval", "expected_step", "why", "removed", "files"}, f"broken {name}: known keys only")
        report.check(spec.get("expected_step") in suite.kind.steps, f"broken {name}: expected_step is a step")
        report.check(bool(spec.get("why")), f"broken {name}: has a why")
        ev = next((e for e in suite.evals if e.id == spec.get("eval")), None)
        if not report.check(ev is not None and ev.id.startswith(case.parent.parent.name + "/"),
                            f"broken {name}: its eval exists, in this category"):
            continue
        if "files" in spec:
            out.append((name, spec, GradeRequest(eval=ev, files=spec["files"])))
            continue
        changed, links = read_output_dir(case.parent, suite.kind.answer_roots)
        answer = ev.answer_files()
        for path, text in changed.items():
            report.check(answer.get(path) != text, f"broken {name}: {path} differs from the reference")
        files = {p: t for p, t in answer.items() if p not in set(spec.get("removed", []))}
        out.append((name, spec, GradeRequest(eval=ev, files={**files, **changed}, symlinks=links)))
    return out


def parse_rule(path: Path) -> tuple[dict, str]:
    m = re.match(r"^---\n(.*?)\n---\n(.*)$", path.read_text(encoding="utf-8"), re.DOTALL)
    if not m:
        raise ValueError("no '---' front matter block")
    return yaml.safe_load(m.group(1)), m.group(2).strip()


def check_rules(categories: list[str], report: Report) -> list[dict]:
    print("guidelines")
    g = SUITE / "guidelines"
    template = yaml.safe_load((g / "templates" / "default.yaml").read_text(encoding="utf-8"))
    report.check("# C guidelines" in template.get("header", ""), "template header says '# C guidelines'")
    rules = []
    for path in sorted((g / "rules").rglob("*.md")):
        rel = path.relative_to(g).as_posix()
        meta, body = parse_rule(path)
        report.check({"id", "title", "section", "targets", "status"} <= set(meta) <= RULE_KEYS, f"{rel}: rule fields")
        report.check(bool(RULE_ID.match(str(meta.get("id")))) and bool(body), f"{rel}: id c.<name> and a body")
        report.check(set(meta.get("targets") or ["?"]) <= set(categories), f"{rel}: targets are suite categories")
        report.check(meta.get("section", ["?"])[0] in template["section_order"], f"{rel}: section is in the template")
        rules.append({**meta, "body": body})
    statuses = [r["status"] for r in rules]
    report.check(statuses.count("active") >= 3 and statuses.count("candidate") == 2, "3+ active rules, 2 candidates")
    for name in ("all-active", "none"):
        data = yaml.safe_load((g / "sets" / f"{name}.yaml").read_text(encoding="utf-8"))
        report.check(isinstance(data, dict) and data.get("template") == "default", f"set {name} parses")
    return rules


def rule_text(rule: dict, variant: str = "default") -> str:
    text = rule["body"] if variant == "default" else str((rule.get("variants") or {}).get(variant, "")).strip()
    return f"**{rule['title']}.** {text}" if text else ""


def matches(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.IGNORECASE | re.MULTILINE) is not None


def check_cures(rules: list[dict], report: Report) -> None:
    print("cures")
    raw = yaml.safe_load((SUITE / "sim" / "gaps.yaml").read_text(encoding="utf-8"))["gaps"]
    for gap in raw:
        full = [c["pattern"] for c in gap["cures"] if c.get("strength", 1.0) == 1.0]
        weak = [c["pattern"] for c in gap["cures"] if c.get("strength", 1.0) < 1.0]
        curing = [r for r in rules if any(matches(p, rule_text(r)) for p in full)]
        if report.check(len(curing) == 1, f"gap {gap['id']}: one rule has a full-strength cure", str(len(curing))):
            terse = rule_text(curing[0], "terse")
            report.check(any(matches(p, terse) for p in weak) and not any(matches(p, terse) for p in full),
                         f"gap {gap['id']}: the terse variant of {curing[0]['id']} matches only a weak cue")
            print(f"  {gap['id']}: cured by {curing[0]['id']} ({curing[0]['status']})")
        for cue in gap.get("induced_by", []):
            inducers = [r for r in rules if matches(cue["pattern"], rule_text(r))]
            report.check(bool(inducers) and all(r["status"] == "candidate" for r in inducers),
                         f"gap {gap['id']}: induced by candidate rules only")
    active = "\n".join(rule_text(r) for r in rules if r["status"] == "active")
    uncured = [g for g in raw if not any(matches(c["pattern"], active) for c in g["cures"])]
    helped = [r["id"] for r in rules if r["status"] == "candidate"
              and any(matches(c["pattern"], rule_text(r)) for g in uncured for c in g["cures"])]
    report.check(bool(helped), "a candidate rule cures a gap no active rule cures", str([g["id"] for g in uncured]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    args = parser.parse_args()
    report = Report(verbose=args.verbose)
    start = time.monotonic()
    categories = check_manifest(report)
    project = Project(REPO, SUITE)
    suite = load_suite(project)
    check_evals(suite, report)
    rules = check_rules(categories, report)
    check_cures(rules, report)

    jobs: list[tuple[str, str | None, GradeRequest]] = []  # (label, expected failed step or "any", request)
    jobs += [(f"{ev.id}: reference passes", None, GradeRequest(eval=ev, files=ev.answer_files())) for ev in suite.evals]
    jobs += [(f"{ev.id}: alternative {name} passes", None, GradeRequest(eval=ev, files=files))
             for ev in suite.evals for name, files in ev.alternatives().items()]
    broken = broken_requests(suite, report)
    jobs += [(f"broken {name}: fails at {spec['expected_step']}", spec["expected_step"], req) for name, spec, req in broken]
    for ev in suite.evals:
        report.check(any(req.eval.id == ev.id for _, _, req in broken), f"{ev.id}: has a broken variant")
    hit = {spec["expected_step"] for _, spec, _ in broken}
    report.check(hit == set(suite.kind.steps), "the broken corpus hits every step", str(sorted(hit)))
    data = SimData.model_validate({**yaml.safe_load((SUITE / "sim" / "gaps.yaml").read_text(encoding="utf-8")),
                                   **yaml.safe_load((SUITE / "sim" / "profiles.yaml").read_text(encoding="utf-8"))})
    for gap in data.gaps:
        own = []
        for ev in suite.evals:
            answer = ev.answer_files()
            if not gap.targets(answer):
                continue
            if report.check(ev.category == gap.category, f"gap {gap.id}: matches only its category", ev.id):
                changed, did = gap.apply(answer)
                if report.check(did, f"gap {gap.id} @ {ev.id}: changes the answer"):
                    own.append(ev.id)
                    jobs.append((f"gap {gap.id} @ {ev.id}: fails grading", "any", GradeRequest(eval=ev, files=changed)))
        report.check(bool(own), f"gap {gap.id}: applies to an eval")
        print(f"  gap {gap.id}: applies to {', '.join(own) or 'nothing'}")
    careful = data.profiles["careful"]
    report.check(set(careful.gaps) == {g.id for g in data.gaps}, "careful has every gap")
    report.check("perfect" in data.profiles and not data.profiles["perfect"].gaps, "perfect has no gaps")

    print(f"grading {len(jobs)} outputs")
    with tempfile.TemporaryDirectory(prefix="c-suite-check-") as cache:
        results = suite.kind.grade(suite, [req for _, _, req in jobs], cache_dir=Path(cache), use_cache=False)
    for (label, expected, _), result in zip(jobs, results):
        got = result.failed_step
        ok = result.infra_error is None and (got is None if expected is None else got is not None if expected == "any"
                                             else got == expected)
        detail = "" if got is None else f"{got}: {result.step(got).detail.splitlines()[:1]}"
        report.check(ok, label, f"got {got or 'pass'} {detail}")
    took = time.monotonic() - start
    print(f"\n{report.passed} checks passed, {len(report.failures)} failed ({took:.1f} s)")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
