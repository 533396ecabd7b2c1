"""Steps 3–6 run over many sub-projects at once: bundle, tsc, eslint, tests.

Each ``run_*`` launches one tool process for the given sub-projects and returns an outcome for
every sub-project it could attribute output to. A sub-project missing from the answer has no
result (the tool crashed, hung or printed something unattributable); the pipeline re-runs it.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

from tuner.grading import StepOutcome, nonce_records, sandbox, step_detail
from tuner.suites.convex.workspace import SubProject, Workspace

__all__ = ["run_bundle", "run_tsc", "run_eslint", "run_tests", "has_syntax_error", "died_alone"]

_TSC_LINE = re.compile(r"^(p\d{3})/(.+?\(\d+,\d+\): (?:error|warning) TS\d+: .*)$")


def _relative(text: str, sub: SubProject) -> str:
    """Paths in tool output, made relative to the sub-project."""
    return text.replace(str(sub.dir) + "/", "").replace(str(sub.dir.resolve()) + "/", "")


# What every Node tool of ours runs with, beside the sandbox's scrubbed environment: a bounded V8
# heap (a runaway allocation fails the step instead of swapping the machine) and an npm that never
# phones home (the jail has no network: a notifier would only wait).
_TOOL_ENV = {
    "NODE_OPTIONS": "--max-old-space-size=3072",
    "npm_config_update_notifier": "false",
    "npm_config_fund": "false",
    "npm_config_audit": "false",
}


def _node(ws: Workspace, argv: list[str], timeout_s: float, env: dict[str, str] | None = None,
          idle_timeout_s: float | None = None, stdin: str | None = None) -> sandbox.Completed:
    return sandbox.run([ws.toolchain.node, *argv], cwd=ws.root, home=ws.home, timeout_s=timeout_s,
                       env={**_TOOL_ENV, **(env or {})}, visible=[ws.root, ws.toolchain.node_modules], scratch=ws.scratch,
                       idle_timeout_s=idle_timeout_s, stdin=stdin)


def hang_reason(seconds: float) -> str:
    return f"timed out after {seconds:.0f}s: the code hangs (an infinite loop?)"


def _over_limit(done: sandbox.Completed, subs: list[SubProject], seconds: float) -> dict[str, StepOutcome]:
    """A tool run over one sub-project alone that hit the clock or the output cap: the model's
    failure (the same tool finishes on every reference answer). Batched runs return nothing:
    the pipeline re-runs their unattributed sub-projects alone."""
    if len(subs) != 1 or not (done.timed_out or done.overflowed):
        return {}
    reason = (f"printed more than {sandbox.MAX_OUTPUT_BYTES // 2**20} MB: output limit exceeded (a print loop?)"
              if done.overflowed else hang_reason(seconds))
    return {subs[0].name: StepOutcome(status="fail", detail=reason, duration_s=round(done.duration_s, 3))}


def _split(wall: float, n: int) -> float:
    # A batched tool's wall time, shared among the sub-projects it checked.
    return round(wall / max(n, 1), 3)


def run_bundle(ws: Workspace, subs: list[SubProject], timeout_s: float, *, stall_s: float | None = None
               ) -> dict[str, StepOutcome]:
    """``stall_s``: stop when no sub-project finished for that long ("use node" modules are
    imported: top-level code runs here)."""
    jobs = [s.bundle_job(ws.bundles / s.name) for s in subs]
    job_file = ws.fresh_name("bundle-jobs", "json")
    job_file.write_text(json.dumps(jobs))
    nonce = secrets.token_hex(16)
    done = _node(ws, ["_tuner/bundle.mjs", str(job_file)], timeout_s, idle_timeout_s=stall_s, stdin=nonce)
    each = _split(done.duration_s, len(subs))
    by_name = {s.name: s for s in subs}
    outcomes: dict[str, StepOutcome] = {}
    for record in nonce_records(done.stdout.splitlines(), nonce):
        sub = by_name.get(record.get("id"))
        if sub is None:
            continue
        errors = sub.deploy_problems() + [_relative(e, sub) for e in record["errors"]]
        outcomes[sub.name] = StepOutcome(status="fail" if errors else "pass", detail=step_detail(errors), duration_s=each)
    if outcomes:
        return outcomes
    if len(subs) == 1 and not (done.timed_out or done.overflowed):
        return {subs[0].name: died_alone(done, "bundle")}
    return _over_limit(done, subs, min(timeout_s, stall_s or timeout_s))


def run_tsc(ws: Workspace, subs: list[SubProject], timeout_s: float) -> dict[str, StepOutcome]:
    config = ws.write_tsconfig(subs)
    done = _node(ws, [ws.toolchain.bin("typescript", "bin/tsc"), "-p", config.name, "--pretty", "false"], timeout_s)
    if done.timed_out or done.overflowed or done.returncode not in (0, 1, 2):
        return _over_limit(done, subs, timeout_s)
    errors: dict[str, list[str]] = {s.name: [] for s in subs}
    current: list[str] | None = None
    unattributed = False
    for line in done.stdout.splitlines():
        match = _TSC_LINE.match(line)
        if match and match.group(1) in errors:
            current = errors[match.group(1)]
            current.append(match.group(2))
        elif line.startswith((" ", "\t")) and current is not None:
            current.append(line)  # continuation of the previous diagnostic
        elif line.strip():
            unattributed, current = True, None
    if unattributed or (done.returncode != 0 and not any(errors.values())):
        return {}  # output we cannot attribute: each sub-project is re-checked alone
    each = _split(done.duration_s, len(subs))
    return {n: StepOutcome(status="fail" if e else "pass", detail=step_detail(e), duration_s=each) for n, e in errors.items()}


def has_syntax_error(outcome: StepOutcome) -> bool:
    # TS1xxx are the parser's (and grammar) diagnostics; the detail keeps them, first lines first.
    return bool(re.search(r"error TS1\d{3}:", outcome.detail))


def run_eslint(ws: Workspace, subs: list[SubProject], timeout_s: float) -> dict[str, StepOutcome]:
    argv = [ws.toolchain.bin("eslint", "bin/eslint.js"), "--format", "json", "--no-warn-ignored",
            "--no-error-on-unmatched-pattern", *[f"{s.name}/convex" for s in subs]]
    done = _node(ws, argv, timeout_s)
    if done.timed_out or done.overflowed or done.returncode not in (0, 1):
        return _over_limit(done, subs, timeout_s)
    try:
        reports = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {}
    errors: dict[str, list[str]] = {s.name: [] for s in subs}
    warnings: dict[str, list[str]] = {s.name: [] for s in subs}
    root = str(ws.root.resolve()) + "/"
    for report in reports:
        rel = str(Path(report["filePath"]).resolve()).removeprefix(root)
        name, _, path = rel.partition("/")
        if name not in errors:
            return {}
        for m in report["messages"]:
            rule = m.get("ruleId") or "parse"
            line = f"{path}:{m.get('line', 0)}:{m.get('column', 0)}: {m['message']} ({rule})"
            # Warnings are recorded with the result but never fail the step.
            (errors if m.get("severity") == 2 else warnings)[name].append(line)
    each = _split(done.duration_s, len(subs))
    return {n: StepOutcome(status="fail" if e else "pass", detail=step_detail(e), duration_s=each, warnings=tuple(warnings[n]))
            for n, e in errors.items()}


def run_tests(
    ws: Workspace, subs: list[SubProject], timeout_s: float, *, isolated: bool, stall_s: float
) -> tuple[dict[str, StepOutcome], set[str]]:
    """Run the graders; also return the sub-projects that were still running when it stalled.

    ``isolated`` (one sub-project alone): a stall, the timeout or the output cap is its failure.
    Results come on vitest's stdout (a pipe this process owns, bounded in size and time by the
    sandbox), never from a file the code under test could replace."""
    config = ws.write_vitest_config(subs)
    nonce = secrets.token_hex(16)
    env = {"TUNER_STALL_MS": str(int(stall_s * 1000))}
    # "native": import the .mjs config as is (the default bundles it into node_modules/.vite-temp,
    # which is read-only in the sandbox).
    argv = [ws.toolchain.bin("vitest", "vitest.mjs"), "run", "--config", config.name, "--configLoader", "native"]
    done = _node(ws, argv, timeout_s, env=env, stdin=json.dumps({"nonce": nonce}))
    by_file = {str((s.dir / "grader.test.ts").resolve()): s for s in subs}
    outcomes: dict[str, StepOutcome] = {}
    running: set[str] = set()
    each = _split(done.duration_s, len(subs))
    died: set[str] = set()
    for record in nonce_records(done.stdout.splitlines(), nonce):
        sub = by_file.get(str(Path(str(record.get("file", "/"))).resolve()))
        if sub is None:
            continue
        if record.get("running"):
            running.add(sub.name)
        elif record.get("died"):
            died.add(sub.name)
        else:
            outcomes[sub.name] = _test_outcome(record, sub, each)
    if isolated and len(subs) == 1 and subs[0].name not in outcomes:
        if done.overflowed or done.timed_out:
            outcomes.update(_over_limit(done, subs, timeout_s))
        elif subs[0].name in running:  # the watchdog saw no test file finish
            outcomes[subs[0].name] = StepOutcome(
                status="fail", duration_s=round(done.duration_s, 3),
                detail=f"timed out after {stall_s:.0f}s without a test finishing: the code hangs (an infinite loop?)")
        else:
            outcomes[subs[0].name] = died_alone(done, "tests" if subs[0].name in died else "vitest")
    return outcomes, running


def died_alone(done: sandbox.Completed, what: str) -> StepOutcome:
    """A tool run over one sub-project that ended without its result: why, as far as can be told.
    It stays an infrastructure error until the pipeline has seen the same eval's reference answer
    get a result from the same tool (then the code under test is to blame)."""
    label = "test" if what == "tests" else what
    if "JavaScript heap out of memory" in done.stderr or "Reached heap limit" in done.stderr:
        why = f"its {label} process ran out of memory (the V8 heap limit): the code allocates without bound"
    elif what == "tests":
        why = "its test process exited unexpectedly (killed, or process.exit) before reporting"
    else:
        code = done.returncode
        how = f"was killed by signal {-code}" if code is not None and code < 0 else (
            f"was killed by signal {code - 128}" if code is not None and code > 128 else f"exited with code {code}")
        why = f"the {what} process {how} without a result"
    return StepOutcome(status="error", detail=why, duration_s=round(done.duration_s, 3), infra_error=why)


def _test_outcome(record: dict, sub: SubProject, duration_s: float) -> StepOutcome:
    def count(name: str) -> int:
        value = record.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    def texts(name: str) -> list[str]:
        value = record.get(name)
        return [str(t) for t in value] if isinstance(value, list) else []

    passed, total = count("passed"), count("total")
    errors = texts("errors")
    problems = [_relative(t, sub) for t in errors + texts("failures")]
    ok = total > 0 and passed == total and not errors
    if total == 0 and not problems:
        problems = ["the grader ran no test"]
    return StepOutcome(status="pass" if ok else "fail", detail=step_detail(problems), duration_s=duration_s,
                       tests_passed=passed, tests_total=total)
