"""What a Convex grading batch costs at least, per answer, in CPU-seconds (issue 30's 2x question).

Run: .venv/bin/python benchmarks/bench_grading_floor.py [--answers 16] [--reps 2]

Unjailed (TUNER_SANDBOX=none: a jailed process's CPU time is not reported back to this one), over
the first N reference answers of the suite, each tool run through the pipeline's own code
(``checks.run_tests`` / ``checks.run_tsc``) in a real batch folder:

- ``node_bare``: ``node -e 0`` (a Node process and nothing else);
- ``tests_trivial``: vitest over N grader files that each hold one trivial test
  (``expect(1).toBe(1)``), every file in a fresh process as the pipeline runs them: what an
  answer's test process costs before the answer's own tests do anything;
- ``tests_real``: vitest over the N answers' real grader files;
- ``tsc_cli``: one ``tsc`` program over 1 and over N answers (start-up and cost per answer);
- ``tsc_in_process``: the second half of the answers as one program, checked with the TypeScript
  API in a fresh Node process (``cold``), after the first half's program in the same process
  (``after_other``: what a tsc process that outlived a batch would cost for the next batch) and
  after the same program (``same_again``).

Per-file figures are marginal: (CPU over N files - CPU over 1 file) / (N - 1), so vitest's own
start-up (once per batch) is apart. Medians over ``--reps`` runs, the variants alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from tuner.evals import load_suite
from tuner.grading import GradeRequest, sandbox
from tuner.paths import Project
from tuner.suites.convex import checks
from tuner.suites.convex.identity import eslint_rules
from tuner.suites.convex.pipeline import _prepare
from tuner.suites.convex.settings import toolchain_dir
from tuner.suites.convex.toolchain import toolchain_in_use
from tuner.suites.convex.workspace import Workspace

TRIVIAL = 'import { expect, test } from "vitest";\ntest("trivial", () => { expect(1).toBe(1); });\n'

# Checks each tsconfig of argv[3:] in turn in this process, a fresh program each time (no
# oldProgram): the CLI's order of diagnostics (syntax first, the rest only without syntax errors).
_IN_PROCESS_TSC = """
const ts = (await import(process.argv[2])).default;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} };
const out = [];
for (const file of process.argv.slice(3)) {
  const config = ts.getParsedCommandLineOfConfigFile(file, {}, host);
  const start = cpu();
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  let diags = [...program.getSyntacticDiagnostics()];
  if (!diags.length) diags = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()];
  out.push({ cpu: cpu() - start, diagnostics: diags.length });
}
console.log(JSON.stringify(out));
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cpu_of(fn) -> float:
    before = _children_cpu()
    fn()
    return _children_cpu() - before


def measure(project: Project, answers: int, reps: int) -> dict:
    suite = load_suite(project)
    requests = [GradeRequest(eval=e, files=e.answer_files()) for e in suite.evals[:answers]]
    runs: dict[str, list[float]] = {}
    tsc: dict[str, list[float]] = {}
    with toolchain_in_use(toolchain_dir(suite)) as toolchain, sandbox.temp_dir("floor") as root:
        ws = Workspace(root, toolchain, eslint_rules(suite.manifest))
        subs = [ws.new_subproject(i, r) for i, r in enumerate(requests)]
        for sub in subs:
            _prepare(sub)
        trivial_subs = [ws.new_subproject(100 + i, r) for i, r in enumerate(requests)]
        for sub in trivial_subs:
            _prepare(sub)
            (sub.dir / "grader.test.ts").write_text(TRIVIAL)
        checks.run_tests(ws, subs, 600, isolated=False, stall_s=30)  # warm the file cache
        node = toolchain.node
        variants = {
            "node_bare_1": lambda: subprocess.run([node, "-e", "0"], check=True),
            "node_bare_n": lambda: [subprocess.run([node, "-e", "0"], check=True) for _ in subs],
            "tests_trivial_1": lambda: checks.run_tests(ws, trivial_subs[:1], 600, isolated=False, stall_s=30),
            "tests_trivial_n": lambda: checks.run_tests(ws, trivial_subs, 600, isolated=False, stall_s=30),
            "tests_real_1": lambda: checks.run_tests(ws, subs[:1], 600, isolated=False, stall_s=30),
            "tests_real_n": lambda: checks.run_tests(ws, subs, 600, isolated=False, stall_s=30),
            "tsc_cli_1": lambda: checks.run_tsc(ws, subs[:1], 600),
            "tsc_cli_n": lambda: checks.run_tsc(ws, subs, 600),
        }
        script = root / "in-process-tsc.mjs"
        script.write_text(_IN_PROCESS_TSC)
        typescript = Path(toolchain.bin("typescript", "lib/typescript.js")).as_uri()
        half = len(subs) // 2
        first, second = ws.write_tsconfig(subs[:half]), ws.write_tsconfig(subs[half:])

        def in_process(*configs: Path) -> float:
            argv = [node, "--max-old-space-size=3072", str(script), typescript, *map(str, configs)]
            done = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=root)
            return json.loads(done.stdout)[-1]["cpu"]  # the last program's

        for _ in range(reps):
            for name, fn in variants.items():
                runs.setdefault(name, []).append(_cpu_of(fn))
            for name, configs in (
                ("cold", [second]),
                ("after_other", [first, second]),
                ("same_again", [second, second]),
            ):
                tsc.setdefault(name, []).append(in_process(*configs))
    med = {k: statistics.median(v) for k, v in runs.items()}
    n = len(subs)

    def per_file(stem: str) -> float:
        return round((med[f"{stem}_n"] - med[f"{stem}_1"]) / (n - 1), 3)

    return {
        "answers": n,
        "reps": reps,
        "load_avg": round(os.getloadavg()[0], 1),
        "cpu_per_answer_s": {
            "node_bare": round(med["node_bare_n"] / n, 3),
            "tests_trivial": per_file("tests_trivial"),
            "tests_real": per_file("tests_real"),
            "tsc_cli": per_file("tsc_cli"),
        },
        "fixed_per_batch_s": {
            "vitest_start": round(med["tests_trivial_1"] - per_file("tests_trivial"), 2),
            "tsc_start": round(med["tsc_cli_1"] - per_file("tsc_cli"), 2),
        },
        "tsc_in_process_half_cpu_s": {k: round(statistics.median(v), 2) for k, v in tsc.items()},
        "runs": {k: [round(x, 2) for x in v] for k, v in runs.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=16, help="reference answers in the batch (at least 2)")
    parser.add_argument("--reps", type=int, default=2, help="runs of each variant, alternating")
    args = parser.parse_args()
    if args.answers < 2:
        parser.error("--answers must be at least 2 (per-answer figures are marginal)")
    if shutil.which("node") is None:
        parser.error("node is not installed")
    os.environ["TUNER_SANDBOX"] = "none"
    start = time.monotonic()
    result = measure(Project(Path(__file__).resolve().parents[1]), args.answers, args.reps)
    result["wall_s"] = round(time.monotonic() - start, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
