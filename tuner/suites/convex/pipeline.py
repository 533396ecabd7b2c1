"""``grade()``: the whole pipeline, batched, cached and isolated when something goes wrong.

Requests missing from the cache are graded in batches: each batch is one workspace where every
tool runs once over all its sub-projects (the bundle check, then tsc concurrently with eslint, then
vitest over the sub-projects that passed them all, while the next batch's checks before the tests
run). A sub-project a batched tool leaves without a result (crash, hang, unattributable output) is re-run alone. Alone,
a hang (the timeout, or no progress for ``STALL_S``) or an output flood is the model's failure
(the same tools finish on every reference answer). No result for another reason (its process
killed, out of memory) is the model's failure too when the eval's reference answer, run alone
through the same tool, passes (``_blame``); otherwise the tool is broken: an infrastructure
error, never a model failure.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

from tuner.errors import JailAccessError, ToolchainError
from tuner.grading import (GradeRequest, GradeResult, StepOutcome, StepResult, check_files, graded_with_cache, sandbox,
                           step_detail, write_files)
from tuner.suites.convex import checks
from tuner.suites.convex.codegen import module_problems, write_generated
from tuner.suites.convex.files import generated_problems, missing_for_grader
from tuner.suites.convex.identity import eslint_rules
from tuner.suites.convex.kind import GENERATED, STEP_NAMES, ConvexKind
from tuner.suites.convex.settings import toolchain_dir
from tuner.suites.convex.toolchain import Toolchain, toolchain_in_use
from tuner.suites.convex.workspace import SubProject, Workspace

__all__ = ["grade_convex", "DEFAULT_TIMEOUT_S", "BATCH_SIZE"]

DEFAULT_TIMEOUT_S = 600.0
BATCH_SIZE = 64
# vitest is stopped when no test file finished for this long (a synchronous infinite loop).
STALL_S = 30.0
# The bundle step is stopped when no sub-project finished for this long (a "use node" module's
# top-level code runs when it is imported there).
BUNDLE_STALL_S = 30.0
# A sub-project re-run alone gets this much time per tool at most.
ISOLATED_TIMEOUT_S = 180.0

Progress = Callable[[int, int], None]


def grade_convex(
    suite,
    requests: list[GradeRequest],
    *,
    cache_dir,
    use_cache: bool = True,
    progress: Progress | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> list[GradeResult]:
    """Grade each request against a Convex suite; results come back in the order of ``requests``."""
    try:
        grader_id = suite.grader_id
    except JailAccessError:
        raise  # refused up front, with what to do
    except ToolchainError as e:
        return [GradeResult.infrastructure(r.eval.id, STEP_NAMES, str(e)) for r in requests]
    return graded_with_cache(requests, grader_id, cache_dir, lambda todo: _grade_uncached(suite, todo, timeout_s),
                             use_cache=use_cache, progress=progress)


def _grade_uncached(suite, todo: dict[str, GradeRequest], timeout_s):
    # Held (shared) while this process grades: another process's `npm ci` waits until it is done.
    with ExitStack() as holding:
        try:
            toolchain = holding.enter_context(toolchain_in_use(toolchain_dir(suite)))
            sandbox.check_available()
        except ToolchainError as e:
            for key, request in todo.items():
                yield key, GradeResult.infrastructure(request.eval.id, STEP_NAMES, str(e))
            return
        items = list(todo.items())
        chunks = [items[start:start + BATCH_SIZE] for start in range(0, len(items), BATCH_SIZE)]
        graded = _grade_batches(toolchain, eslint_rules(suite.manifest), [[r for _, r in c] for c in chunks], timeout_s)
        for chunk, results in zip(chunks, graded):
            yield from ((key, result) for (key, _), result in zip(chunk, results))


def _grade_batches(toolchain: Toolchain, rules: dict[str, str], batches: list[list[GradeRequest]],
                   timeout_s: float) -> Iterator[list[GradeResult]]:
    """Each batch's results, in order. The tests (the costliest step: a fresh process per answer)
    run only for answers that passed every earlier step, since a failed step decides the verdict and
    hides the later ones: they wait for tsc. So that a core does not idle meanwhile, the next batch's
    steps before the tests run beside this one's tests; a lone batch on a machine with a core to
    spare starts the tests of the answers that passed the lint beside tsc instead (the tests of
    those tsc then fails are wasted CPU, but nothing waits). Either way the same verdicts."""
    speculate = len(batches) == 1 and _spare_core()
    with ThreadPoolExecutor(max_workers=1) as ahead:
        following = ahead.submit(_checked_batch, toolchain, rules, batches[0], timeout_s, speculate) if batches else None
        try:
            for index in range(len(batches)):
                stack, ws, subs, early = following.result()
                following = (ahead.submit(_checked_batch, toolchain, rules, batches[index + 1], timeout_s)
                             if index + 1 < len(batches) else None)
                with stack:
                    yield _tested_batch(ws, subs, timeout_s, early)
        finally:
            if following is not None and following.exception() is None:  # stopped early: its workspace goes too
                following.result()[0].close()


def _spare_core() -> bool:
    """Whether this machine has a core idle beside the two tools a batch runs at once."""
    try:
        return os.getloadavg()[0] + 2 <= len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return False


def _checked_batch(toolchain: Toolchain, rules: dict[str, str], requests: list[GradeRequest], timeout_s: float,
                   speculate: bool = False) -> tuple[ExitStack, Workspace, list[SubProject], dict | None]:
    """A batch's workspace after the steps before the tests (the caller closes the stack: the
    workspace goes), and with ``speculate`` the tests of the answers that passed the lint, run
    beside tsc."""
    stack = ExitStack()
    try:
        ws = Workspace(stack.enter_context(sandbox.temp_dir()), toolchain, rules)
        subs = [ws.new_subproject(i, r) for i, r in enumerate(requests)]
        for sub in subs:
            _prepare(sub)
        _record(subs, "bundle", _with_retry("bundle", ws, _alive(subs), timeout_s, _run_bundle))
        alive = _alive(subs)
        early = None
        with ThreadPoolExecutor(max_workers=2) as pool:
            tsc = pool.submit(_run_tsc, ws, alive, timeout_s)
            lint = _with_retry("eslint", ws, alive, timeout_s, checks.run_eslint)
            if speculate:
                early = pool.submit(_run_tests, ws, [s for s in alive if lint[s.name].status == "pass"], timeout_s)
            outcomes = {"tsc": tsc.result(), "eslint": lint}
            early = early.result() if early is not None else None
        for name in ("tsc", "eslint"):  # in the steps' order: after a failure nothing more is recorded
            _record(alive, name, outcomes[name])
    except BaseException:
        stack.close()
        raise
    return stack, ws, subs, early


def _tested_batch(ws: Workspace, subs: list[SubProject], timeout_s: float, early: dict | None = None) -> list[GradeResult]:
    # The tests only for the answers still alive (``early``: already run, for more of them).
    alive = _alive(subs)
    _record(alive, "tests", early if early is not None else _run_tests(ws, alive, timeout_s))
    return [_assemble(s, _host_paths(ws)) for s in subs]


def _alive(subs: list[SubProject]) -> list[SubProject]:
    return [s for s in subs if s.alive]


def _record(subs: list[SubProject], step: str, outcomes: dict[str, StepOutcome]) -> None:
    for sub in subs:
        if sub.alive:  # after the first failing step, later outcomes are not recorded
            sub.outcomes[step] = outcomes[sub.name]


def _prepare(sub: SubProject) -> None:
    """Steps 1 and 2, in-process: check and write the files, then the generated code."""
    start = time.monotonic()
    request = sub.request
    problems = (check_files(request.files, request.symlinks, roots=ConvexKind.answer_roots, reserved=(GENERATED,))
                + generated_problems(request.files)
                or missing_for_grader(request.eval.grader, request.files))
    if not problems:
        try:
            write_files(sub.dir, request.files)
            (sub.dir / ConvexKind.grader_file).write_text(request.eval.grader, encoding="utf-8")
        except OSError as e:
            problems = [f"cannot write the files: {e.strerror or e}"]
    status = "fail" if problems else "pass"
    sub.outcomes["filesystem"] = StepOutcome(status=status, detail=step_detail(problems),
                                             duration_s=round(time.monotonic() - start, 3))
    if problems:
        return
    start = time.monotonic()
    problems = module_problems(request.files)
    if not problems:
        write_generated(sub.dir, request.files)
    sub.outcomes["codegen"] = StepOutcome(status="fail" if problems else "pass", detail=step_detail(problems),
                                          duration_s=round(time.monotonic() - start, 3))


def _with_retry(step: str, ws: Workspace, subs: list[SubProject], timeout_s: float, runner) -> dict[str, StepOutcome]:
    """Run ``runner`` over the batch, then alone for each sub-project it gave no result."""
    if not subs:
        return {}
    outcomes = runner(ws, subs, timeout_s)
    for sub in subs:
        if sub.name not in outcomes:
            alone = runner(ws, [sub], min(timeout_s, ISOLATED_TIMEOUT_S))
            outcomes[sub.name] = alone.get(sub.name) or _no_result(step, "the tool crashed")
        outcomes[sub.name] = _blame(ws, step, sub, outcomes[sub.name], runner)
    return outcomes


def _blame(ws: Workspace, step: str, sub: SubProject, outcome: StepOutcome, runner) -> StepOutcome:
    """A tool that gave an output no result even alone is broken, or was broken by the output
    (its process killed, out of memory). The eval's reference answer, run alone through the same
    tool, tells which: if it gets a pass, the failure is the output's (with the reason)."""
    if outcome.infra_error is None:
        return outcome
    key = (step, sub.request.eval.id)
    if key not in ws.reference_passes:
        reference = ws.new_subproject(next(ws.reference_indexes), sub.request.model_copy(
            update={"files": sub.request.eval.answer_files(), "symlinks": []}))
        _prepare(reference)
        got = runner(ws, [reference], ISOLATED_TIMEOUT_S).get(reference.name) if reference.alive else None
        ws.reference_passes[key] = got is not None and got.status == "pass"
    if not ws.reference_passes[key]:
        return outcome
    detail = f"{outcome.detail} (the reference answer passes the same tools: the failure is this answer's)"
    return StepOutcome(status="fail", detail=detail, duration_s=outcome.duration_s)


def _run_bundle(ws: Workspace, subs: list[SubProject], timeout_s: float) -> dict[str, StepOutcome]:
    return checks.run_bundle(ws, subs, timeout_s, stall_s=BUNDLE_STALL_S)


def _no_result(step: str, why: str) -> StepOutcome:
    message = f"{step}: no result even when run alone ({why})"
    return StepOutcome(status="error", detail=message, infra_error=message)


def _run_tsc(ws: Workspace, subs: list[SubProject], timeout_s: float) -> dict[str, StepOutcome]:
    # `declare global` / `declare module` in one project would leak into a shared program.
    alone = [s for s in subs if s.declares_globals()]
    shared = [s for s in subs if s not in alone]
    outcomes = _with_retry("tsc", ws, shared, timeout_s, checks.run_tsc)
    # tsc skips the semantic check of the whole program when any file has a syntax error, so a
    # "pass" next to one is not a pass: check the rest again without the failing sub-projects.
    # Only the round just run can hide passes: once a round adds no new such error, stop (looking
    # at older failures again re-ran every passing project forever).
    while any(outcomes[s.name].status == "fail" and checks.has_syntax_error(outcomes[s.name]) for s in shared):
        shared = [s for s in shared if outcomes[s.name].status == "pass"]
        if not shared:
            break
        outcomes.update(_with_retry("tsc", ws, shared, timeout_s, checks.run_tsc))
    # A failure found in the shared program is that project's own (errors are attributed by path);
    # only projects that would leak globals get a program of their own.
    for sub in alone:
        outcomes.update(_with_retry("tsc", ws, [sub], timeout_s, checks.run_tsc))
    return outcomes


def _run_tests(ws: Workspace, subs: list[SubProject], timeout_s: float) -> dict[str, StepOutcome]:
    """Batched vitest; the files running when it stalled go alone, the rest into a new batch."""
    outcomes: dict[str, StepOutcome] = {}
    pending = list(subs)
    while pending:
        found, running = checks.run_tests(ws, pending, timeout_s, isolated=False, stall_s=STALL_S)
        outcomes.update(found)
        suspects = [s for s in pending if s.name in running and s.name not in found]
        rest = [s for s in pending if s.name not in found and s not in suspects]
        if not found and not suspects:  # no progress at all: stop batching
            suspects, rest = rest, []
        for sub in suspects:
            alone = _tests_alone(ws, [sub], min(timeout_s, ISOLATED_TIMEOUT_S))
            outcome = alone.get(sub.name) or _no_result("tests", "the tool crashed")
            outcomes[sub.name] = _blame(ws, "tests", sub, outcome, _tests_alone)
        pending = rest
    return outcomes


def _tests_alone(ws: Workspace, subs: list[SubProject], timeout_s: float) -> dict[str, StepOutcome]:
    return checks.run_tests(ws, subs, timeout_s, isolated=True, stall_s=STALL_S)[0]


def _host_paths(ws: Workspace) -> list[tuple[str, str]]:
    """Host paths a tool may print, and what a stored detail says instead: results outlive the
    batch folder, and where the toolchain or the batch lived is nobody's business."""
    pairs = []
    for path in {ws.toolchain.dir, ws.toolchain.dir.resolve()}:
        pairs.append((str(path), "<toolchain>"))
        # The jail makes the toolchain's parent folders to mount it, so a checkout under /tmp (a CI
        # clone) shows in a listing of the jail's /tmp as /tmp/<checkout>/evals: hide those too, up
        # to (not including) a top-level folder or the system temp folder.
        for up, parent in enumerate(path.parents, start=1):
            if len(parent.parts) <= 2 or parent == Path(tempfile.gettempdir()):
                break
            pairs.append((str(parent), "<toolchain>" + "/.." * up))
    for path in {ws.root, ws.root.resolve()}:
        pairs.append((str(path) + "/", ""))
        pairs.append((str(path), "."))
    for path in {ws.root.parent, ws.root.resolve().parent} - {Path("/")}:
        pairs.append((str(path), "<tmp>"))  # the temp folder the batch was made in
    return sorted(pairs, key=lambda p: -len(p[0]))  # longest first: a prefix never hides a longer one


def _scrub(text: str, pairs: list[tuple[str, str]]) -> str:
    for host, shown in pairs:
        text = text.replace(host, shown)
    return text


def _assemble(sub: SubProject, host_paths: list[tuple[str, str]]) -> GradeResult:
    steps: list[StepResult] = []
    stopped = False
    for name in STEP_NAMES:
        outcome = sub.outcomes.get(name)
        if stopped or outcome is None:
            steps.append(StepResult(name=name, status="skip"))
            continue
        # The filesystem step's details are our own checker naming the answer's paths as the answer
        # wrote them ("/tmp/x.ts: absolute path"); no tool printed them, so there is no host path to hide.
        detail = outcome.detail if name == "filesystem" else _scrub(outcome.detail, host_paths)
        steps.append(StepResult(name=name, status=outcome.status, duration_s=outcome.duration_s, detail=detail))
        stopped = outcome.status != "pass"
    tests = sub.outcomes.get("tests")
    infra = next((_scrub(o.infra_error, host_paths) for o in sub.outcomes.values() if o.infra_error), None)
    for step in steps:
        step.warnings = [_scrub(w, host_paths) for w in sub.outcomes[step.name].warnings] if step.name in sub.outcomes else []
    return GradeResult(
        eval_id=sub.request.eval.id,
        passed=all(s.status == "pass" for s in steps),
        steps=steps,
        tests_passed=tests.tests_passed if tests else 0,
        tests_total=tests.tests_total if tests else 0,
        infra_error=infra,
    )
