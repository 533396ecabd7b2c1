"""How well do `tune` and `ablate` find the rules that truly help or hurt a target category?

The simulator's planted truth (tuner.models.sim.truth) says what each rule does. A rule "truly
helps" (hurts) the target category when removing it from the full pool (`everything`) lowers
(raises) the expected pass rate by at least THRESHOLD. Each method runs with a fresh store and a
fresh response cache (so its call count is real; grading is cached across methods, which changes
time but not results), and its verdicts for the target category are scored for precision and
recall against the truth:

- anchor: leave-one-out, one sample per variant, verdict by counting flips (Convex's method);
- ablate loo (K=1 and K=2): paired intervals, exact McNemar, BH across the matrix;
- ablate screening: per-eval random selections, as many calls as the anchor;
- tune: the study's winner and the leave-one-out of the winner ("rules that help").

Run: .venv/bin/python benchmarks/bench_tuning.py [--profile careful] [--category actions]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

THRESHOLD = 0.05


def truth(h, profile: str, category: str, pool: dict[str, str]) -> dict[str, str]:
    from tuner.models.sim.truth import expected_effects

    texts = {rid: h.guidelines.library.get(rid).text(v) for rid, v in pool.items()}
    effects = expected_effects(profile, texts, relative_to="all", root=h.suite.root)
    out = {}
    for rid, by_cat in effects.items():
        d = by_cat.get(category, 0.0)
        out[rid] = "helps" if d >= THRESHOLD else "hurts" if d <= -THRESHOLD else "none"
    return out


def score(found: dict[str, str], true: dict[str, str]) -> dict:
    flagged = {r: v for r, v in found.items() if v in ("helps", "hurts")}
    real = {r: v for r, v in true.items() if v != "none"}
    hits = sum(1 for r, v in flagged.items() if real.get(r) == v)
    return {
        "precision": hits / len(flagged) if flagged else None,
        "recall": hits / len(real) if real else None,
        "flagged": sorted(flagged), "true": sorted(real),
    }


def fresh_harness(tmp: Path, name: str):
    from tuner.models import ResponseCache
    from tuner.runs import Harness

    h = Harness(db=f"sqlite:///{tmp / (name + '.db')}")
    h.response_cache = ResponseCache(tmp / f"responses-{name}")
    return h


def calls_of(h) -> int:
    return h.response_cache.misses


def anchor(h, spec, category, pool):
    """Leave-one-out, one sample, verdict by flips in the target category."""
    from tuner.ablation.designs import loo
    from tuner.runs import outcomes_by_task, run_selections

    eval_ids = [e.id for e in h.suite.select(held_out=False)]
    variants = loo(pool)
    groups = run_selections(h, [(f"anchor-{v.name}", v.selection) for v in variants], [spec], eval_ids, samples=1)
    ref = outcomes_by_task(groups[0][spec.key].results, category)
    verdicts = {}
    for v, g in zip(variants[1:], groups[1:]):
        without = outcomes_by_task(g[spec.key].results, category)
        lost = sum(1 for t in ref for a, b in zip(ref[t], without.get(t, [])) if a and not b)
        gained = sum(1 for t in ref for a, b in zip(ref[t], without.get(t, [])) if b and not a)
        verdicts[v.role.split(":", 1)[1]] = "helps" if lost > gained else "hurts" if gained > lost else "none"
    return verdicts


def ablate_verdicts(h, spec, category, design, samples, runs=None, only_target=False):
    from tuner.ablation import ablate

    report = ablate(h, design=design, set_name="everything", specs=[spec], samples=samples, runs=runs,
                    category=category if only_target else None)
    return {e.rule: e.verdict for e in report.effects if e.category == category}


def tune_verdicts(h, spec, category, trials):
    """As `tuner tune --category C` runs by default (baseline all-active, K=4); rules found =
    the leave-one-out of the winner. Rules the winner leaves out get no verdict."""
    from tuner.tuning import build_config, tune

    config = build_config(h, category, [spec], samples=4, tolerance=0.15, baseline=None)
    report = tune(h, config, n_trials=trials)
    return {e.rule: e.verdict for e in report.rule_effects if e.category == category}


def main() -> None:
    from tuner.models import ModelSpec
    from tuner.runs import Harness

    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default="careful")
    parser.add_argument("--category", default="actions")
    parser.add_argument("--trials", type=int, default=None, help="default: as `tuner tune` (every single change + 9)")
    parser.add_argument("--only", default="", help="run only the methods whose name contains this text")
    args = parser.parse_args()
    spec = ModelSpec(model=f"sim/{args.profile}")
    base = Harness()
    pool = base.guidelines.load_set("everything").select(base.guidelines.library)
    true = truth(base, args.profile, args.category, pool)
    n_evals = len(base.suite.select(held_out=False))
    n_target = len(base.suite.select(category=args.category, held_out=False))
    anchor_calls = (len(pool) + 1) * n_evals
    methods = {
        "anchor loo K=1 (flips)": lambda h: anchor(h, spec, args.category, pool),
        "ablate loo K=1": lambda h: ablate_verdicts(h, spec, args.category, "loo", 1),
        "ablate loo K=2": lambda h: ablate_verdicts(h, spec, args.category, "loo", 2),
        "ablate screening (= anchor calls)": lambda h: ablate_verdicts(h, spec, args.category, "screening", 1, runs=len(pool) + 1),
        # Restricted to the target category's evals: the same question, a smaller FDR family.
        "ablate loo, target evals only, K=3": lambda h: ablate_verdicts(h, spec, args.category, "loo", 3, only_target=True),
        "ablate screening, target evals, ~anchor calls": lambda h: ablate_verdicts(
            h, spec, args.category, "screening", 1, runs=anchor_calls // n_target, only_target=True),
        "ablate loo, target evals only, K=8": lambda h: ablate_verdicts(h, spec, args.category, "loo", 8, only_target=True),
        "tune (defaults, K=4)": lambda h: tune_verdicts(h, spec, args.category, args.trials),
    }
    rows = []
    methods = {k: v for k, v in methods.items() if args.only in k}
    with tempfile.TemporaryDirectory() as tmp:
        for name, method in methods.items():
            h = fresh_harness(Path(tmp), name.split()[0] + str(len(rows)))
            start = time.perf_counter()
            found = method(h)
            row = {"method": name, "calls": calls_of(h), "seconds": round(time.perf_counter() - start, 1), **score(found, true)}
            h.close()
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"\nprofile sim/{args.profile}, target {args.category}, pool {len(pool)} rules, {n_evals} tuning evals; "
          f"truth (|LOO effect| >= {THRESHOLD}): {sorted(r for r, v in true.items() if v != 'none')}")
    print(f"{'method':38} {'calls':>6} {'precision':>9} {'recall':>7} {'seconds':>8}")
    for r in rows:
        p = "n/a" if r["precision"] is None else f"{r['precision']:.2f}"
        rc = "n/a" if r["recall"] is None else f"{r['recall']:.2f}"
        print(f"{r['method']:38} {r['calls']:>6} {p:>9} {rc:>7} {r['seconds']:>8}")
    print(f"(anchor calls = (rules + 1) x tuning evals = {anchor_calls})")


if __name__ == "__main__":
    main()
