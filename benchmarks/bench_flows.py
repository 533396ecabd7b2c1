"""Did `tune --search tpe` earn its place beside the screening flow? (issue 32: it did not, and was removed)

Both flows run through the CLI (`tuner tune --category data --json`) on a copy of the Python suite,
with answers from a planted world (``tuner.tuning.simulate``, fetched through the seams
``tests/tuning/tune_world.py`` replaces), so a repetition takes seconds and the truth is known:

- ``clear``: one candidate rule raises the target 40 points (it should be accepted);
- ``modest``: one raises it 15 points;
- ``harm``: one raises the target 30 points and drops the other category 30 (it must not be);
- ``null``: nothing does anything (nothing may be accepted).

Per flow and world: how often the truly helpful rule is accepted, how often anything harmful or
nothing-doing is accepted, the provider calls (distinct answers drawn: rule set x eval x sample
index, what the response cache would have bought; phrasings of one rule set count once) and the CPU seconds of the process (``time.process_time``; wall time on a shared machine is not
comparable). The tpe flow runs with its defaults (every single change, two combinations, eight
TPE trials, then the evidence design), the screen flow within its default cap.

Run: .venv/bin/python benchmarks/bench_flows.py [--reps 10] [--worlds clear,modest,harm,null]

The TPE rows of docs/tune-and-publish.md (*Why one flow*) were measured at commit ddc23b0, the last
with the TPE search, as ``--searches screen,tpe``; since its removal only ``screen`` runs (``tune``
no longer takes ``--search``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "tuning"))  # the world's seams: one definition, the tests'

TARGET, OTHER = "data", "text"
GOOD = "py.copy-inputs"
WORLDS = {
    "clear": ((GOOD,), {TARGET: 0.4}),
    "modest": ((GOOD,), {TARGET: 0.15}),
    "harm": ((GOOD,), {TARGET: 0.3, OTHER: -0.3}),
    "null": ((GOOD,), {}),
}


def _project(tmp: Path, cache: Path) -> Path:
    root = tmp / "proj"
    shutil.copytree(
        REPO / "suites" / "python", root / "suites" / "python", ignore=shutil.ignore_patterns("__pycache__", "broken")
    )
    for d in ("guidelines", "evals", "experiments"):
        (root / d).mkdir()
    os.environ.update(
        {
            "TUNER_HOME": str(root),
            "TUNER_CACHE_DIR": str(cache),
            "TUNER_DB": f"sqlite:///{root / 'experiments' / 'tuner.db'}",
            "TUNER_SUITE": str(root / "suites" / "python"),
        }
    )
    os.chdir(root)
    return root


def one(world_name: str, search: str, seed: int, cache: Path) -> dict:
    import pytest
    from tune_world import suite_world, use_world
    from typer.testing import CliRunner

    from tuner.cli.main import app
    from tuner.tuning.simulate import Term, WorldMeasure

    rules, shifts = WORLDS[world_name]
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        _project(Path(tmp), cache)
        use_world(mp, suite_world((Term(rules, shifts),), target=TARGET), seed=seed)
        answers: set = set()
        draws = WorldMeasure.draws

        def counted(self, rule_set, eval_ids, first, n):
            answers.update((rule_set, e, i) for e in eval_ids for i in range(first, first + n))
            return draws(self, rule_set, eval_ids, first, n)

        mp.setattr(WorldMeasure, "draws", counted)
        start = time.process_time()
        flow = [] if search == "screen" else ["--search", search]  # the option went with the TPE search
        r = CliRunner().invoke(app, ["tune", "--category", TARGET, *flow, "--seed", str(seed), "--json"])
        cpu = time.process_time() - start
        os.chdir(REPO)
    data = json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}
    added = set(data.get("best_selection", {})) - set(data.get("baseline_selection", {}))
    accepted = bool(data.get("accepted"))
    return {
        "world": world_name,
        "search": search,
        "seed": seed,
        "exit": r.exit_code,
        "decision": data.get("decision"),
        "accepted": accepted,
        "good_accepted": accepted and GOOD in added,
        "calls": len(answers),
        "cpu_s": round(cpu, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--worlds", default=",".join(WORLDS))
    parser.add_argument("--searches", default="screen", help="screen,tpe at commit ddc23b0 (before the removal)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        for world in args.worlds.split(","):
            for search in args.searches.split(","):
                for seed in range(args.reps):
                    row = one(world, search, seed, Path(cache))
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    print(
        f"\n{'world':7} {'search':6} {'reps':>4} {'accepted':>8} {'good acc.':>9} {'calls (median)':>14} "
        f"{'CPU s (median)':>14}"
    )
    for world in args.worlds.split(","):
        for search in args.searches.split(","):
            mine = [r for r in rows if r["world"] == world and r["search"] == search]
            calls = [r["calls"] for r in mine if r["calls"] is not None]
            print(
                f"{world:7} {search:6} {len(mine):>4} {sum(r['accepted'] for r in mine):>8} "
                f"{sum(r['good_accepted'] for r in mine):>9} {statistics.median(calls) if calls else 'n/a':>14} "
                f"{statistics.median(r['cpu_s'] for r in mine):>14.2f}"
            )


if __name__ == "__main__":
    main()
