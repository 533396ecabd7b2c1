"""The suite on the simulator: per category, no rules against every active rule.

For each profile, the expected pass rate per category (computed from the planted truth, no calls)
and, with --measure, the measured one (a real run: generate, grade, store; K samples per eval).
The gap between the two columns is what tuning and ablation have to find.

Run: .venv/bin/python benchmarks/bench_suite.py [--profile careful] [--measure --samples 2]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tuner.models.sim.profiles import load_sim_data
from tuner.models.sim.suite import load_suite as load_sim_suite
from tuner.models.sim.truth import category_scores
from tuner.paths import Project
from tuner.runs import Harness, RunConfig, execute_runs

ROOT = Path(__file__).resolve().parents[1]


def _expected(h: Harness, profile: str) -> dict[str, dict[str, float]]:
    data = load_sim_data(h.suite.root)
    suite = load_sim_suite(h.suite.root)
    out = {}
    for name in ("none", "all-active"):
        prompt = h.guidelines.compose(h.guidelines.load_set(name))
        out[name] = category_scores(data.profile(profile), data, suite, prompt.text)
    return out


def _measured(h: Harness, profile: str, samples: int) -> dict[str, dict[str, float]]:
    from tuner.models import ModelSpec

    spec = ModelSpec(model=f"sim/{profile}")
    ids = tuple(e.id for e in h.suite.evals)
    configs = [
        RunConfig(spec=spec, rule_set=h.guidelines.load_set(n), eval_ids=ids, samples=samples)
        for n in ("none", "all-active")
    ]
    outcomes = execute_runs(h, configs)
    return {
        name: {c: v["pass_rate"] for c, v in o.summary["categories"].items()}
        for name, o in zip(("none", "all-active"), outcomes)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--profile", action="append", help="sim profile (repeatable; default careful, overeager, expert)"
    )
    parser.add_argument("--measure", action="store_true", help="also run the simulator and grade (costs minutes)")
    parser.add_argument("--samples", type=int, default=2)
    args = parser.parse_args()
    with Harness(Project(ROOT)) as h:
        print(
            f"suite {h.suite.name}: {len(h.suite.evals)} evals, {len(h.suite.select(held_out=True))} held out, "
            f"{len(h.guidelines.library.by_status('active'))} active rules"
        )
        for profile in args.profile or ["careful", "overeager", "expert"]:
            expected = _expected(h, profile)
            measured = {}
            if args.measure:
                start = time.monotonic()
                measured = _measured(h, profile, args.samples)
                print(f"(measured in {time.monotonic() - start:.0f} s, K={args.samples})")
            print(f"\nsim/{profile}: pass rate per category, no rules -> all active rules")
            print(
                f"{'category':<14} {'expected none':>13} {'expected all':>13}"
                + (f" {'measured none':>13} {'measured all':>13}" if measured else "")
            )
            for cat in h.suite.categories:
                row = f"{cat:<14} {expected['none'].get(cat, 0):>13.0%} {expected['all-active'].get(cat, 0):>13.0%}"
                if measured:
                    row += f" {measured['none'].get(cat) or 0:>13.0%} {measured['all-active'].get(cat) or 0:>13.0%}"
                print(row)


if __name__ == "__main__":
    main()
