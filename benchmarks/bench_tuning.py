"""How well do the designs find the rules that truly help or hurt a category, and at what cost?

The simulator's planted truth (tuner.models.sim.truth) says what each rule of the full pool
(`everything`) does: its leave-one-out effect on each category's expected pass rate, computed on
the evals the designs run (the tuning evals, held-out excluded) with the prompts they send (the
set's template via tuner.guidelines.compose), so a method is scored against what it can see. Scoring uses
the indifference zone of `tuner.stats.zones` (delta0 = 2 points, delta = 8 points):

- a rule whose |effect| >= delta truly helps (hurts) and must be found;
- a rule whose |effect| <= delta0 does nothing, and flagging it is a false alarm;
- a rule in between counts for neither precision nor recall (either verdict is acceptable).

Methods (each with a fresh store and response cache, so its call count is real; grading is cached
across methods, which changes time, not results). One run of a whole-suite design answers every
category, so each is run once per profile and scored for each category:

- anchor: single-sample leave-one-out over the whole suite, verdict by counting flips (the field's
  usual method); its calls, (rules + 1) x tuning evals, are the yardstick;
- ablate loo K=1: the same calls with paired intervals, exact McNemar and BH;
- ablate defaults: `tuner ablate` (the rule-effect engine, its default budget: half the anchor's
  calls, at least 600), over the whole suite (every category at once) and on the target category's
  evals alone (`--category C`);
- tune (with --with-tune): `tuner tune --category C` defaults (the screening flow within its
  default cap): the verdicts of its screening, and "helps" for the rules its accepted winner adds.

Run: .venv/bin/python benchmarks/bench_tuning.py [--profiles careful,overeager,expert]
     TUNER_SUITE=suites/python .venv/bin/python benchmarks/bench_tuning.py --set all-active \
         --profiles careful,overeager --categories text,data
     [--categories actions,queries] [--only adaptive] [--with-tune]
     .venv/bin/python benchmarks/bench_tuning.py --curve 4 --profiles careful --categories actions
     .venv/bin/python benchmarks/bench_tuning.py --mde --profiles careful --categories actions

``--mde``: per profile and category, the minimum detectable effect `ablate --category C` prints at
its default budget (``tuner.planning``), against what it decides: of the true rule effects at least
that large, the share decided (helps/hurts, the right sign), and the smallest true effect decided.

Issue 29, before and after the engine read failure modes (``Plan.modes``, on in ablate and tune),
`careful` / `actions` at the default budget (2,475 calls, one design through the whole harness;
before: main at 9183ab0 with the pass bit): printed MDE 13.5 points both (the pass bit's figure,
kept as the conservative one); of the 3 true effects at least that large 2 decided both; smallest
true effect decided 15.0 -> 7.1 points. Over 8 designs the design lab says the same more steadily
(``benchmarks/design_lab.py --by-rule``: 10.4 -> 7.0 points, recall 0.41 -> 0.64).

With each answer's failure signature (``--reading signature``, the default of ablate and tune since
issue 29's signature session; ``--reading step`` the first failing step), same row: printed MDE
13.5 points, the 3 true effects at least that large decided, smallest true effect decided 6.9
points (with the step, the same script after it: 2 of the 3 decided, smallest 7.1 points). The design lab's 16 seeds: every
true rule decided in >= 80% of the designs from 15.0 (pass bit) / 13.7 (step) / 9.6 (signature)
points.

    .venv/bin/python benchmarks/bench_tuning.py --mde --profiles careful --categories actions [--reading step]

``--screen-mde N``: tune's screening as `tune --category C --plan` plans it at the default cap (one
model), printed vs measured: the MDE it prints for a rule (a candidate's inclusion) and for a
phrasing against its rule's own, each planted at that size in a world at the assumed 50% pass rate
(every other question a null) and decided by the engine with tune's stopping question over N
designs (default 200; about 0.25 s a design at Convex's 94 questions). The promise is 80% ± 7%
(``tests/stats/test_calibration_mde_screen.py`` checks the rule's on actions).

    .venv/bin/python benchmarks/bench_tuning.py --screen-mde 200 --categories actions
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path

DELTA0, DELTA = 0.02, 0.08


SET = "everything"  # the pool (--set: the Python suite has no `everything`)


def truth(h, profile: str, pool: dict[str, str], categories: list[str]) -> dict[str, dict[str, str]]:
    """{category: {rule: helps | hurts | none | between}} from the planted truth, on exactly what the
    designs see: the tuning evals (held-out excluded) and the prompts composed by the set's template."""
    from tuner.models.sim.truth import expected_effects

    texts = {rid: h.guidelines.library.get(rid).text(v) for rid, v in pool.items()}
    template = h.guidelines.load_set(SET).template
    effects = expected_effects(
        profile,
        texts,
        relative_to="all",
        root=h.suite.root,
        eval_ids=[e.id for e in h.suite.select(held_out=False)],
        compose=lambda ids: h.guidelines.compose_selection({r: pool[r] for r in ids}, template=template).text,
    )
    out: dict[str, dict[str, str]] = {}
    for cat in categories:
        out[cat] = {}
        for rid, by_cat in effects.items():
            d = by_cat.get(cat, 0.0)
            out[cat][rid] = (
                "helps" if d >= DELTA else "hurts" if d <= -DELTA else "none" if abs(d) <= DELTA0 else "between"
            )
    return out


def score(found: dict[str, str], true: dict[str, str]) -> dict:
    judged = {r: v for r, v in found.items() if true.get(r) != "between"}
    flagged = {r: v for r, v in judged.items() if v in ("helps", "hurts")}
    real = {r: v for r, v in true.items() if v in ("helps", "hurts")}
    hits = sum(1 for r, v in flagged.items() if real.get(r) == v)
    return {
        "precision": hits / len(flagged) if flagged else None,
        "recall": hits / len(real) if real else None,
        "flagged": sorted(flagged),
        "true": sorted(real),
        "false_alarms": sorted(r for r in flagged if true.get(r) == "none"),
    }


def fresh_harness(tmp: Path, name: str):
    from tuner.models import ResponseCache
    from tuner.runs import Harness

    h = Harness(db=f"sqlite:///{tmp / (name + '.db')}")
    h.response_cache = ResponseCache(tmp / f"responses-{name}")
    return h


def anchor(h, spec, categories, pool) -> dict[str, dict[str, str]]:
    """Leave-one-out, one sample, verdict by flips, per category."""
    from tuner.ablation.designs import loo
    from tuner.runs import outcomes_by_task, run_selections

    eval_ids = [e.id for e in h.suite.select(held_out=False)]
    variants = loo(pool)
    groups = run_selections(h, [(f"anchor-{v.name}", v.selection) for v in variants], [spec], eval_ids, samples=1)
    out = {}
    for cat in categories:
        ref = outcomes_by_task(groups[0][spec.key].results, cat)
        out[cat] = {}
        for v, g in zip(variants[1:], groups[1:]):
            without = outcomes_by_task(g[spec.key].results, cat)
            lost = sum(1 for t in ref for a, b in zip(ref[t], without.get(t, [])) if a and not b)
            gained = sum(1 for t in ref for a, b in zip(ref[t], without.get(t, [])) if b and not a)
            out[cat][v.role.split(":", 1)[1]] = "helps" if lost > gained else "hurts" if gained > lost else "none"
    return out


def ablate_verdicts(h, spec, categories, design, samples=1, budget=None, only=None) -> dict[str, dict[str, str]]:
    """``only``: run on that category's evals alone (all calls answer its question). ``budget``
    None: the command's default."""
    from tuner.ablation import ablate
    from tuner.engine import split_key

    report = ablate(h, design=design, set_name=SET, specs=[spec], samples=samples, budget_calls=budget, category=only)
    # Rules only (a phrasing's cell, rule@variant, is not a rule of the truth).
    return {
        cat: {e.rule: e.verdict for e in report.effects if e.category == cat and split_key(e.rule)[1] is None}
        for cat in ([only] if only else categories)
    }


def tune_verdicts(h, spec, category) -> dict[str, str]:
    """As `tuner tune --category C` runs by default (the screening flow, its default cap): the
    evidence step's verdicts, and "helps" for a rule the accepted winner adds (its reason to exist);
    rules the winner leaves out get no other verdict."""
    from tuner.engine import split_key
    from tuner.tuning import build_config, tune

    config = build_config(h, category, [spec])  # tune's defaults
    report = tune(h, config)
    found = {e.rule: e.verdict for e in report.rule_effects if e.category == category and split_key(e.rule)[1] is None}
    if report.accepted:
        found.update({rid: "helps" for rid in set(report.best_selection) - set(report.baseline_selection)})
    print(
        json.dumps(
            {
                "tune": category,
                "decision": report.acceptance.decision if report.acceptance else None,
                "added": sorted(set(report.best_selection) - set(report.baseline_selection)),
                "removed": sorted(set(report.baseline_selection) - set(report.best_selection)),
                "screening": report.screening.model_dump(mode="json", exclude={"engine"}) if report.screening else None,
            }
        ),
        flush=True,
    )
    return found


def curve(args) -> None:
    """Precision and recall of the adaptive design as its budget doubles (a larger budget continues
    the smaller one's rounds from the same store and cache, so calls are cumulative)."""
    from tuner.models import ModelSpec
    from tuner.runs import Harness

    categories = args.categories.split(",")
    base = Harness()
    pool = base.guidelines.load_set(SET).select(base.guidelines.library)
    anchor_calls = (len(pool) + 1) * len(base.suite.select(held_out=False))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for profile in args.profiles.split(","):
            spec = ModelSpec(model=f"sim/{profile}")
            true = truth(base, profile, pool, categories)
            for cat in categories:
                h = fresh_harness(Path(tmp), f"curve-{profile}-{cat}")
                start = time.perf_counter()
                for i in range(args.curve):
                    budget = anchor_calls // 2 * 2**i
                    found = ablate_verdicts(h, spec, categories, "adaptive", budget=budget, only=cat)[cat]
                    row = {
                        "profile": profile,
                        "category": cat,
                        "budget": budget,
                        "calls": h.response_cache.misses,
                        "seconds": round(time.perf_counter() - start, 1),
                        **score(found, true[cat]),
                    }
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                h.close()
    print(f"\nadaptive on the category's evals alone; anchor calls = {anchor_calls}")
    print(
        f"{'profile':10} {'category':9} {'budget':>6} {'calls':>6} {'x anchor':>8} {'precision':>9} {'recall':>6} {'true':>4} {'false alarms':>12}"
    )
    for r in rows:
        print(
            f"{r['profile']:10} {r['category']:9} {r['budget']:>6} {r['calls']:>6} {r['calls'] / anchor_calls:>8.2f} "
            f"{_fmt(r['precision']):>9} {_fmt(r['recall']):>6} {len(r['true']):>4} {len(r['false_alarms']):>12}"
        )


def true_effects(h, profile: str, pool: dict[str, str], category: str) -> dict[str, float]:
    """{rule: its leave-one-out effect on ``category``'s expected pass rate} (as ``truth``)."""
    from tuner.models.sim.truth import expected_effects

    texts = {rid: h.guidelines.library.get(rid).text(v) for rid, v in pool.items()}
    template = h.guidelines.load_set(SET).template
    effects = expected_effects(
        profile,
        texts,
        relative_to="all",
        root=h.suite.root,
        eval_ids=[e.id for e in h.suite.select(held_out=False)],
        compose=lambda ids: h.guidelines.compose_selection({r: pool[r] for r in ids}, template=template).text,
    )
    return {rid: by_cat.get(category, 0.0) for rid, by_cat in effects.items()}


def mde_rows(args) -> None:
    """Printed MDE vs decided effects, `ablate --category C` at its default budget."""
    from tuner.ablation import ablate, engine_budget, reading
    from tuner.engine import split_key
    from tuner.models import ModelSpec
    from tuner.planning.commands import ablate_detectables
    from tuner.runs import Harness
    from tuner.stats.zones import Zone

    reading.READING = args.reading  # how ablate's engine reads each answer
    base = Harness()
    pool = base.guidelines.load_set(SET).select(base.guidelines.library)
    with tempfile.TemporaryDirectory() as tmp:
        for profile in args.profiles.split(","):
            spec = ModelSpec(model=f"sim/{profile}")
            for cat in args.categories.split(","):
                eval_ids = [e.id for e in base.suite.select(category=cat, held_out=False)]
                budget = engine_budget(base, pool, [spec], None)
                printed = ablate_detectables(base, pool, [spec], eval_ids, budget, Zone())[0].mde
                true = true_effects(base, profile, pool, cat)
                h = fresh_harness(Path(tmp), f"mde-{profile}-{cat}")
                report = ablate(h, design="adaptive", set_name=SET, specs=[spec], samples=1, category=cat)
                h.close()
                verdict = {e.rule: e.verdict for e in report.effects if split_key(e.rule)[1] is None}
                right = {
                    r: (verdict.get(r) == ("helps" if d > 0 else "hurts")) for r, d in true.items() if abs(d) > DELTA0
                }
                big = [r for r in right if abs(true[r]) >= (printed or 1.0)]
                decided = [abs(true[r]) for r, ok in right.items() if ok]
                print(
                    json.dumps(
                        {
                            "profile": profile,
                            "category": cat,
                            "budget": budget,
                            "reading": args.reading,
                            "printed_mde": printed,
                            "true_at_least_printed": len(big),
                            "decided_share_at_least_printed": (sum(right[r] for r in big) / len(big)) if big else None,
                            "smallest_decided": min(decided) if decided else None,
                            "true_effects_beyond_delta0": sorted(round(abs(true[r]), 3) for r in right),
                        }
                    ),
                    flush=True,
                )


def screen_decided(plan, config, key: str, effect: float, seeds: int) -> float:
    """Share of tune's screenings (``plan``, stopped by ``assemble``) deciding that ``key`` helps, in a
    world at 50% where including that rule, or using that phrasing, moves every eval by ``effect``."""
    import numpy as np

    from tuner.engine import run_engine, split_key
    from tuner.tuning.screen import assemble

    rule, variant = split_key(key)
    # Tune reads failure modes; these answers fail one way, which modes read as the pass bit does
    # (the same decisions, tests/stats/test_calibration_mde_screen.py), three times faster.
    plan = replace(plan, modes=False)
    hits = 0
    for seed in range(seeds):
        rng = np.random.default_rng(seed)

        def on(pt) -> bool:
            return key in pt.swapped if variant else rule not in pt.dropped

        def observe(points, rng=rng):
            p = [0.5 - effect / 2 + (effect if on(pt) else 0.0) for pt in points]
            return [{m: bool(rng.random() < q) for m in plan.models} for q in p], len(points) * len(plan.models)

        outcome = run_engine(
            replace(plan, seed=seed), observe, None, lambda cells: assemble(config, cells)[1] == "decided"
        )
        hits += any(c.rule == key and c.verdict == "helps" for c in outcome.cells)
    return hits / seeds


def screen_mde_rows(args) -> None:
    """Tune's screening at the default cap: printed MDE vs the share decided when planted at it."""
    import math

    from tuner.engine import swap_key
    from tuner.models import ModelSpec
    from tuner.planning.commands import screen_plan, tune_detectables
    from tuner.planning.families import engine_designs
    from tuner.planning.mde import mde
    from tuner.tuning.budgets import cap_of
    from tuner.tuning.tune import build_config

    spec = ModelSpec(model="sim/careful")  # the model only names the cell: answers come from the world
    with tempfile.TemporaryDirectory() as tmp:
        h = fresh_harness(Path(tmp), "screen-mde")
        for cat in args.categories.split(","):
            config = build_config(h, cat, [spec])
            cap = cap_of(config, None)
            plan = screen_plan(h, config, [spec], cap)
            family = tune_detectables(h, config, [spec], cap, 0)[0]
            designs = engine_designs(plan)[cat]
            candidate = next((r for r in plan.rules if r not in config.baseline_selection), plan.rules[0])
            rows = [("rule (a candidate's inclusion)", candidate, family.mde)]
            if plan.variants:
                rule, names = next(iter(plan.variants.items()))
                rows.append(("phrasing against its rule's own", swap_key(rule, names[0]), mde(designs["phrasings"])))
            for kind, key, printed in rows:
                start = time.perf_counter()
                rate = screen_decided(plan, config, key, printed, args.screen_mde) if printed else None
                half = 1.96 * math.sqrt(rate * (1 - rate) / args.screen_mde) if rate is not None else None
                print(
                    json.dumps(
                        {
                            "category": cat,
                            "cap": cap,
                            "screening_calls": plan.budget_calls,
                            "questions": family.questions,
                            "kind": kind,
                            "planted": key,
                            "printed_mde": printed,
                            "decided": rate,
                            "ci95": [round(rate - half, 3), round(rate + half, 3)] if rate is not None else None,
                            "designs": args.screen_mde,
                            "seconds": round(time.perf_counter() - start, 1),
                        }
                    ),
                    flush=True,
                )
        h.close()


def _fmt(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def main() -> None:
    global SET
    from tuner.models import ModelSpec
    from tuner.runs import Harness

    parser = argparse.ArgumentParser()
    parser.add_argument("--profiles", default="careful,overeager,expert")
    parser.add_argument("--categories", default="actions,queries")
    parser.add_argument(
        "--set", default=SET, help="the pool to ablate (the Python suite: all-active; suite by TUNER_SUITE)"
    )
    parser.add_argument(
        "--only", default="", help="run only the methods whose name contains one of these texts (comma-separated)"
    )
    parser.add_argument("--with-tune", action="store_true", help="also run `tune` per category (minutes each)")
    parser.add_argument(
        "--curve",
        type=int,
        default=0,
        metavar="N",
        help="instead: adaptive on each category's evals at budgets anchor/2 x 1, 2, 4 ... (N budgets), "
        "one store per profile and category, so each budget continues the last",
    )
    parser.add_argument(
        "--mde", action="store_true", help="instead: printed minimum detectable effect vs decided effects"
    )
    parser.add_argument(
        "--reading",
        choices=("step", "signature"),
        default="signature",
        help="--mde: how the engine reads each answer (tuner.ablation.reading): its failing step or its signature",
    )
    parser.add_argument(
        "--screen-mde",
        type=int,
        default=0,
        metavar="N",
        help="instead: tune's screening at the default cap, printed MDE vs decided when planted at it (N designs)",
    )
    args = parser.parse_args()
    SET = args.set
    if args.screen_mde:
        return screen_mde_rows(args)
    if args.mde:
        return mde_rows(args)
    if args.curve:
        return curve(args)
    categories = args.categories.split(",")
    base = Harness()
    pool = base.guidelines.load_set(SET).select(base.guidelines.library)
    n_evals = len(base.suite.select(held_out=False))
    anchor_calls = (len(pool) + 1) * n_evals
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for profile in args.profiles.split(","):
            spec = ModelSpec(model=f"sim/{profile}")
            true = truth(base, profile, pool, categories)
            methods = {
                "anchor loo K=1 (flips)": lambda h: anchor(h, spec, categories, pool),
                "ablate loo K=1": lambda h: ablate_verdicts(h, spec, categories, "loo"),
                "ablate defaults, whole suite": lambda h: ablate_verdicts(h, spec, categories, "adaptive"),
            }
            for cat in categories:
                methods[f"ablate --category {cat} defaults"] = (
                    lambda c: lambda h: ablate_verdicts(h, spec, categories, "adaptive", only=c)
                )(cat)
            if args.with_tune:
                for cat in categories:
                    methods[f"tune --category {cat}"] = (lambda c: lambda h: {c: tune_verdicts(h, spec, c)})(cat)
            wanted = [w for w in args.only.split(",") if w] or [""]
            for name, method in ((k, v) for k, v in methods.items() if any(w in k for w in wanted)):
                h = fresh_harness(Path(tmp), f"{profile}-{len(rows)}")
                start = time.perf_counter()
                found = method(h)
                seconds, calls = round(time.perf_counter() - start, 1), h.response_cache.misses
                h.close()
                for cat, verdicts in found.items():
                    row = {
                        "profile": profile,
                        "category": cat,
                        "method": name,
                        "calls": calls,
                        "seconds": seconds,
                        **score(verdicts, true[cat]),
                    }
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    print(
        f"\npool `{SET}`: {len(pool)} rules; {n_evals} tuning evals; anchor calls = (rules + 1) x evals = "
        f"{anchor_calls}; truth zones: |effect| >= {DELTA:.0%} must be found, <= {DELTA0:.0%} must not be flagged"
    )
    print(
        f"{'profile':10} {'category':9} {'method':32} {'calls':>6} {'x anchor':>8} {'precision':>9} {'recall':>6} "
        f"{'true':>4} {'false alarms':>12} {'seconds':>7}"
    )
    for r in rows:
        print(
            f"{r['profile']:10} {r['category']:9} {r['method']:32} {r['calls']:>6} {r['calls'] / anchor_calls:>8.2f} "
            f"{_fmt(r['precision']):>9} {_fmt(r['recall']):>6} {len(r['true']):>4} {len(r['false_alarms']):>12} {r['seconds']:>7}"
        )


if __name__ == "__main__":
    main()
