"""The design lab: the rule-effect engine against a fast model of the simulator, in seconds.

`bench_tuning.py` measures designs through the whole harness (prompts, the simulated provider,
Node grading): faithful, and minutes per row. To compare design choices (error spending, how many
rules a prompt drops, models) over many seeds, this script draws each call's pass/fail from the
simulator's own pass probability (`tuner.models.sim.truth` semantics: gaps, cures, side effects,
attention) computed per rule from its text, without composing prompts or grading. It agrees with
`truth.pass_probability` on the composed prompt to within 0.002 (checked at start, `--check`).
The engine run is `tuner.engine.run_engine` itself; only `observe` is simulated.

Scoring as bench_tuning.py: a rule truly helps/hurts a category when its leave-one-out effect on
the tuning evals is beyond +-8 points; flagging one within +-2 is a false alarm.

`--tune`: what `tune`'s screening would make the winner (``tuner.tuning.screen.assemble`` on the
engine's cells, phrasings included, from the `all-active` baseline over every active and candidate
rule), against the former flow (every single change at one sample on the target's evals, the best
eight raced to four samples), counting how often each picks the truly best single change.

Run: .venv/bin/python benchmarks/design_lab.py --profile careful --categories actions --budget 2475 --seeds 16
     .venv/bin/python benchmarks/design_lab.py --suite suites/python --set ALL --profile careful --categories text --budget 600
     .venv/bin/python benchmarks/design_lab.py --tune --set ALL --profile careful --categories actions --budget 1237 --seeds 12
     [--max-dropped 12] [--max-share 0.25] [--null] (A/A: dropping rules changes nothing)
     .venv/bin/python benchmarks/design_lab.py --bias 0.08 --budget 2400 --seeds 100   (issue 28.10: stopping bias)
     [--modes step|signature|mistake] [--by-rule] (read answers through their failure modes; each true rule's share decided)

Issue 29, "more than one bit per call": the default budget's engine on `careful` / `actions` (2,475
calls, 65 rules, 8 true rules of 8.1-21.9 points), 8 seeds, before (the pass bit) and after (each
answer's first failing step, ``Plan.modes``, on in ablate and tune since the modes session):

    .venv/bin/python benchmarks/design_lab.py --profile careful --categories actions --budget 2475 --seeds 8 --by-rule [--modes step|mistake]

    reading                recall  smallest true effect decided  every true rule decided >= 80% beyond
    pass bit (before)        0.41     10.4 points (mean per design)   13.7 points (15.0 is the smallest at 0.80+)
    first failing step       0.64      7.0                            10.5 (13.7)
    every mistake named      0.94      5.4                             8.2 (9.6)

No false alarm in any; A/A (``--null --modes step``) 0/8 designs flagging. The first failing step
lowers the mean smallest effect decided 1.49x and the 80%-power figure 15.0 -> 13.7 points (1.09x);
the 1.5x at 80% power takes a finer signature (every mistake named: 1.56x), which the grader has
(the tests step's detail names each failing test, tsc its codes, eslint its rules).

The failure signature (``--modes signature``, what ``ablate`` and ``tune`` read since: the first
failing step's distinct error identities, ``tuner.grading.signature``). Each simulated mistake is
read as the real grader reports it: ``benchmarks/gap_signatures.py`` grades every careful mistake
alone on each actions eval through the Node grader (84 answers) into
``benchmarks/data/gap_signatures.json``; an answer with several mistakes shows the identities of
those at the earliest failing step (later steps are skipped). Mistakes the grader reports alike
share a signature there: five schema/typing mistakes show ``tsc:TS2345`` (id-as-string,
patch-as-replace, index-dropped, storage-without-blob, optional-as-nullable; some with another
code of their own), get-without-table and write-without-table both ``eslint:@convex-dev/explicit-table-ids``,
the two creation-time mistakes the same failing tests. Two mistakes graded together show that
model's signature in 284 of 296 pairs (``gap_signatures.py --pairs``). Same runs, 16 seeds:

    .venv/bin/python benchmarks/design_lab.py --profile careful --categories actions --budget 2475 --seeds 16 --by-rule [--modes step|signature|mistake]

    reading               recall  smallest decided   every true rule decided >= 80% beyond   share decided per true rule
                                  (mean per design)  (the smallest at 0.80+ with all above)  +21.9 +15.0 +13.7 +10.5 +9.6 +9.6 +8.2 +8.1
    pass bit                0.40     10.6 points      13.7 (15.0)                             0.94  1.00  0.56  0.06  0.25 0.12 0.00 0.25
    first failing step      0.62      6.7             10.5 (13.7)                             1.00  1.00  1.00  0.50  0.50 0.19 0.56 0.25
    failure signature       0.90      5.7              8.2 (9.6)                              1.00  1.00  1.00  0.88  0.94 0.88 0.69 0.81
    every mistake named     0.96      5.7              8.2 (9.6)                              1.00  1.00  1.00  1.00  1.00 1.00 0.69 1.00

The signature takes the 80%-power figure from 15.0 to 9.6 points (1.56x, the issue's 1.5x), as far
as the oracle. The +8.2 rule (functions.returns-nullable, its mistake's ``tsc:TS2719`` its own)
is decided 0.69 by the oracle too: that is the budget's power, not the reading's. What the
signature loses against the oracle (0.81-0.94 instead of 1.00, within 16 seeds' noise of each
other) is in the collisions above (actions.storage-blobs, +9.6, and schema.ids-and-optionals,
+8.1: their mistakes show ``tsc:TS2345`` as four others do; 0.88, 0.81) and in steps hidden behind
an earlier failure (actions.annotate-handler-returns, +10.5: its own TS7022/TS7023 unseen behind a
bundle failure; 0.88).
No false alarm; A/A (``--null --modes signature``) 0/16 designs flagging.

Issue 29, "fewer, better questions" (the "questions" session), 16 seeds, `--modes step`: every true
rule decided in >= 80% of the designs beyond 10.5 points as the engine is (recall 0.62); weighted BH
with the `targets` rules at 4x (`--priority 4`) 10.5 (0.61), at 16x 10.5 (0.59, the untargeted +8.1
rule 0.25 -> 0.06); asking only the `targets` rules (`--only-preferred`) 21.9 (0.35: the untargeted
true rules are never asked); 5 / 8 / 16 rules dropped a prompt (`--max-dropped`) 15.0 / 10.5 / 10.5
(0.37 / 0.52 / 0.57). With `--modes mistake`: 8.2 as it is (0.96). Sections first (`--sections`
prints each section's effect left out whole): 9 of 10 sections move `actions` beyond +-2 points, so a
screen keeps 57 of 65 rules. The pass bit read by a multiplicative model (`--link log`, lab only,
the effect at the full prompt): recall 0.40 -> 0.56 and 13.7 -> 10.5 points on `actions` with the pass
bit, 0.74 -> 0.76 on `queries`, and 0.62 -> 0.56 mixed with `--modes step`. None is adopted; the
table and the reasons are in docs/engine.md, "Fewer, better questions".

    .venv/bin/python benchmarks/design_lab.py --profile careful --categories actions --budget 2475 --seeds 16 --by-rule --modes step [--priority 4] [--only-preferred] [--max-dropped 8]
    .venv/bin/python benchmarks/design_lab.py --sections --categories actions,queries
    .venv/bin/python benchmarks/design_lab.py --profile careful --categories actions --budget 2475 --seeds 16 --by-rule --link log
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import time
from pathlib import Path

DELTA0, DELTA = 0.02, 0.08


_STEPS = ("bundle", "typecheck", "lint", "tests")
# The Convex grader's steps as a stored grade names them, and the design lab's names of them.
_GRADER_STEPS = ("filesystem", "codegen", "bundle", "tsc", "eslint", "tests")
_PRODUCT_STEP = {"bundle": "bundle", "typecheck": "tsc", "lint": "eslint", "tests": "tests"}
_SIGNATURES = Path(__file__).resolve().parent / "data" / "gap_signatures.json"


def _step_of(description: str) -> str:
    """The grading step a planted mistake fails, from its description (bundle, tsc, eslint or tests)."""
    d = description.lower()
    return (
        "bundle"
        if "bundl" in d
        else "typecheck"
        if "type-check" in d or "exist" in d
        else "lint"
        if "lint" in d
        else "tests"
    )


class FastModel:
    """P(pass) of each tuning eval for a set of present rules, from per-rule cue strengths."""

    def __init__(self, set_name: str, profile: str):
        import numpy as np

        from tuner.models.sim.profiles import load_sim_data
        from tuner.models.sim.suite import load_suite
        from tuner.runs import Harness

        h = self.h = Harness()
        if set_name == "ALL":  # every active and candidate rule (a suite without an `everything` set)
            self.pool = {r.id: "default" for r in h.guidelines.library if r.status in ("active", "candidate")}
            self.template = h.guidelines.load_set("all-active").template
        else:
            rule_set = h.guidelines.load_set(set_name)
            self.pool, self.template = rule_set.select(h.guidelines.library), rule_set.template
        self.data = load_sim_data(h.suite.root)
        tuning = {e.id for e in h.suite.select(held_out=False)}
        self.evals = [e for e in load_suite(h.suite.root) if e.id in tuning]
        self.rules = sorted(self.pool)
        full = self.compose(set(self.rules))
        self.full_chars = len(full)
        self.chars = np.array([len(full) - len(self.compose(set(self.rules) - {r})) for r in self.rules])
        texts = {r: self.compose({r}) for r in self.rules}
        # Other phrasings: their own text (cues) and length, as a swap from the default.
        library = h.guidelines.library
        self.phrasings = {r: [v for v in library.get(r).variant_names if v != "default"] for r in self.rules}
        full_sel = {r: self.pool[r] for r in self.rules}
        self.swap_chars, swap_texts = {}, {}
        for r, names in self.phrasings.items():
            for v in names:
                swap_texts[(r, v)] = h.guidelines.compose_selection({r: v}, template=self.template).text
                self.swap_chars[(r, v)] = len(
                    h.guidelines.compose_selection({**full_sel, r: v}, template=self.template).text
                ) - len(full)
        self.prof = prof = self.data.profile(profile)
        self.signatures: dict | None = None  # --modes signature: {eval id: {mistake id: signature}}
        self.unmapped: set[str] = set()  # mistakes the signature map lacks (read by their step)
        self.model = []
        self.gap_names: dict[int, list[tuple[str, str]]] = {}  # eval index -> (gap id, grading step it fails)
        self.side_names: dict[int, list[str]] = {}  # eval index -> its side effects' ids, in ``sides`` order
        for ev in self.evals:
            items = []
            gaps = [g for g in self.data.gaps if g.id in prof.gaps and g.applies_to(ev.answer)]
            for g in gaps:
                cure = np.array(
                    [max([c.strength for c in g.cures if c.matches(texts[r])], default=0.0) for r in self.rules]
                )
                ind = np.array(
                    [max([c.strength for c in g.induced_by if c.matches(texts[r])], default=0.0) for r in self.rules]
                )
                swaps = {
                    k: (
                        max([c.strength for c in g.cures if c.matches(t)], default=0.0),
                        max([c.strength for c in g.induced_by if c.matches(t)], default=0.0),
                    )
                    for k, t in swap_texts.items()
                }
                items.append((prof.gaps.get(g.id, 0.0), cure, ind, swaps))
                self.gap_names.setdefault(len(self.model), []).append((g.id, _step_of(g.description)))
            self.side_names[len(self.model)] = [
                e.id for e in prof.side_effects if ev.category in e.categories and e.applies_to(ev.answer)
            ]
            sides = [
                (
                    e.probability,
                    np.array([1.0 if e.cue().matches(texts[r]) else 0.0 for r in self.rules]),
                    {k: e.cue().matches(t) for k, t in swap_texts.items()},
                )
                for e in prof.side_effects
                if ev.category in e.categories and e.applies_to(ev.answer)
            ]
            self.model.append((bool(gaps), items, sides))

    def compose(self, ids: set[str]) -> str:
        return self.h.guidelines.compose_selection({r: self.pool[r] for r in ids}, template=self.template).text

    def p(self, present, i: int, swapped: tuple[tuple[str, str], ...] = ()) -> float:
        """``present``: a boolean array over ``rules``; ``i``: the eval's index; ``swapped``: (rule,
        phrasing) pairs of present rules in another phrasing."""
        prof = self.prof
        if swapped:
            present = present.copy()
            for r, _ in swapped:
                present[self.rules.index(r)] = False  # its default text is out; the phrasing's cues count below
        chars = (
            self.full_chars
            - self.chars[~present].sum()
            + sum(self.chars[self.rules.index(r)] + self.swap_chars[(r, v)] for r, v in swapped)
        )
        att = prof.attention(math.ceil(chars / 4))
        any_gap, items, sides = self.model[i]
        p = 1 - prof.noise if any_gap else 1.0
        for base, cure, ind, swaps in items:
            c = max([cure[present].max() if present.any() else 0.0, *(swaps[k][0] for k in swapped)])
            n = max([ind[present].max() if present.any() else 0.0, *(swaps[k][1] for k in swapped)])
            p *= 1 - (base + (1 - base) * prof.cure_strength * n * att) * (1 - prof.cure_strength * c * att)
        for prob, cue, swaps in sides:
            p *= 1 - (prob * att if cue[present].any() or any(swaps[k] for k in swapped) else 0.0)
        return p

    def modes(self, present, i: int, u) -> tuple[str, ...]:
        """The failure modes of one drawn answer (rules ``present`` on eval ``i``; ``u(name)``: a
        uniform draw per mistake): every mistake made, as the simulator draws them (independently)."""
        prof = self.prof
        chars = self.full_chars - self.chars[~present].sum()
        att = prof.attention(math.ceil(chars / 4))
        any_gap, items, sides = self.model[i]
        made = []
        for (gap, _), (base, cure, ind, _) in zip(self.gap_names.get(i, []), items):
            c = cure[present].max() if present.any() else 0.0
            n = ind[present].max() if present.any() else 0.0
            if u(gap) < (base + (1 - base) * prof.cure_strength * n * att) * (1 - prof.cure_strength * c * att):
                made.append(gap)
        if any_gap and u("noise") < prof.noise:
            made.append("noise")
        made += [
            f"side{k}" for k, (prob, cue, _) in enumerate(sides) if cue[present].any() and u(f"side{k}") < prob * att
        ]
        return tuple(made)

    def step_modes(self, i: int, made: tuple[str, ...]) -> tuple[str, ...]:
        """What the product sees of ``made``: the first failing grading step only."""
        steps = {g: s for g, s in self.gap_names.get(i, [])}
        seen = sorted((_STEPS.index(steps.get(m, "tests")), steps.get(m, "tests")) for m in made)
        return (seen[0][1],) if seen else ()

    def signature_modes(self, i: int, made: tuple[str, ...], u) -> tuple[str, ...]:
        """What the real grader's signature (``tuner.grading.signature``) shows of ``made``: each
        mistake's own signature on this eval, as the Node grader gave it for that mistake alone
        (``benchmarks/data/gap_signatures.json``, from ``benchmarks/gap_signatures.py``), then the
        first failing step's identities of them all (later steps are skipped). Distinct mistakes
        that the grader reports alike share a signature. A mistake not in the map: its step alone."""
        if self.signatures is None:
            import json

            self.signatures = json.loads(_SIGNATURES.read_text()) if _SIGNATURES.exists() else {}
        table = self.signatures.get(self.evals[i].id, {})
        gaps = [g for g, _ in self.gap_names.get(i, [])]
        steps = dict(self.gap_names.get(i, []))
        found: set[str] = set()
        for m in made:
            if m == "noise":  # the simulator's noise is one more applicable mistake, drawn uniformly
                m = gaps[int(u("noise-pick") * len(gaps))]
            elif m.startswith("side"):
                m = self.side_names[i][int(m[4:])]
            sig = table.get(m)
            if sig is None:
                self.unmapped.add(m)
                sig = [_PRODUCT_STEP[steps.get(m, "tests")]]
            found.update(sig)
        if not found:
            return ()
        first = min((x.split(":")[0] for x in found), key=_GRADER_STEPS.index)
        return tuple(sorted(x for x in found if x.split(":")[0] == first))

    def check(self, draws: int = 10) -> float:
        """Largest gap to the exact truth over random subsets (every eval)."""
        import random

        import numpy as np

        from tuner.models.sim.truth import pass_probability

        rng, worst = random.Random(1), 0.0
        for _ in range(draws):
            drop = set(rng.sample(self.rules, min(len(self.rules) - 1, rng.choice([1, 8, 30]))))
            present = np.array([r not in drop for r in self.rules])
            text = self.compose(set(self.rules) - drop)
            for i, ev in enumerate(self.evals):
                worst = max(worst, abs(self.p(present, i) - pass_probability(self.prof, self.data, ev, text)))
        return worst

    def truth(self, category: str) -> dict[str, float]:
        import numpy as np

        idx = [i for i, e in enumerate(self.evals) if e.category == category]
        full = np.ones(len(self.rules), bool)
        base = np.array([self.p(full, i) for i in idx])
        out = {}
        for j, r in enumerate(self.rules):
            present = full.copy()
            present[j] = False
            out[r] = float((base - np.array([self.p(present, i) for i in idx])).mean())
        return out


def run(model: FastModel, categories: list[str], budget: int, seed: int, null: bool, modes: str = "", **plan_args):
    """``modes``: "" the pass bit; "step" each answer's first failing grading step (what the product
    records); "signature" what the real grader's failure signature shows (``FastModel.signature_modes``);
    "mistake" every mistake it made (the finest signature grading could give)."""
    import numpy as np

    from tuner.engine import Graded, Plan, run_engine

    index = {e.id: i for i, e in enumerate(model.evals)}
    pos = {r: j for j, r in enumerate(model.rules)}
    full = np.ones(len(model.rules), bool)

    def observe(points):
        out = []
        for pt in points:
            present = full.copy()
            if not null:
                for r in pt.dropped:
                    present[pos[r]] = False
            if modes:

                def u(name, pt=pt):
                    digest = hashlib.sha256(f"{seed}|{pt.eval_id}|{pt.replicate}|{pt.dropped}|{name}".encode()).digest()
                    return int.from_bytes(digest[:8], "big") / 2**64

                made = model.modes(present, index[pt.eval_id], u)
                seen = (
                    made
                    if modes == "mistake"
                    else model.signature_modes(index[pt.eval_id], made, u)
                    if modes == "signature"
                    else model.step_modes(index[pt.eval_id], made)
                )
                out.append({"m": Graded(not made, seen)})
                continue
            digest = hashlib.sha256(f"{seed}|{pt.eval_id}|{pt.replicate}|{pt.dropped}".encode()).digest()
            out.append({"m": int.from_bytes(digest[:8], "big") / 2**64 < model.p(present, index[pt.eval_id])})
        return out, len(points)

    evals = {c: tuple(e.id for e in model.evals if e.category == c) for c in categories}
    plan = Plan(
        rules=plan_args.pop("rules", tuple(model.rules)),
        evals=evals,
        models=("m",),
        budget_calls=budget,
        seed=seed,
        modes=bool(modes),
        **plan_args,
    )
    return run_engine(plan, observe)


def tune_picks(model: FastModel, category: str, budget: int, seeds: int, first_seed: int = 0) -> None:
    """How often tune's screening (and the former single-change screen) make the truly best single
    change the winner."""
    from collections import Counter

    import numpy as np

    from tuner.ablation.effects import Effect
    from tuner.engine import Plan, run_engine, split_key
    from tuner.tuning.config import TuneConfig
    from tuner.tuning.screen import assemble

    library = model.h.guidelines.library
    index = {e.id: i for i, e in enumerate(model.evals)}
    evals = [e.id for e in model.evals if e.category == category]
    base = {r for r in model.rules if library.get(r).status == "active"}

    def present(rules: set[str]):
        return np.array([r in rules for r in model.rules])

    def rate(rules, swapped=()):
        return float(np.mean([model.p(present(rules), index[e], swapped) for e in evals]))

    b0 = rate(base)
    changes = {f"add {r}": (base | {r}, ()) for r in model.rules if r not in base}
    changes |= {f"drop {r}": (base - {r}, ()) for r in base}
    changes |= {f"{r}@{v}": (base, ((r, v),)) for r in base for v in model.phrasings[r]}
    gains = {k: rate(*v) - b0 for k, v in changes.items()}
    best = max(gains, key=gains.get)
    print(
        f"truly best single change on {category}: {best} ({gains[best]:+.3f}); next {sorted(gains.values())[-2]:+.3f}"
    )
    config = TuneConfig(
        category=category,
        models=[{"model": "m"}],
        samples=4,
        tolerance=0.15,
        baseline="all-active",
        baseline_selection={r: "default" for r in sorted(base)},
        pool=list(model.rules),
        variants={r: ["default", *model.phrasings[r]] for r in model.rules},
        eval_ids=evals,
    )
    new, old = Counter(), Counter()
    for seed in range(first_seed, first_seed + seeds):
        rng = np.random.default_rng(seed)
        plan = Plan(
            rules=tuple(model.rules),
            evals={category: tuple(evals)},
            models=("m",),
            budget_calls=budget,
            seed=seed,
            variants={r: tuple(v) for r, v in model.phrasings.items() if v},
        )

        def observe(points, rng=rng):
            out = []
            for pt in points:
                kept = set(model.rules) - set(pt.dropped)
                swapped = tuple(split_key(k) for k in pt.swapped)
                out.append({"m": bool(rng.random() < model.p(present(kept), index[pt.eval_id], swapped))})
            return out, len(points)

        cells = run_engine(plan, observe).cells
        effects = [
            Effect(
                rule=c.rule,
                model="m",
                category=category,
                delta=c.delta,
                lo=c.lo,
                hi=c.hi,
                p_value=c.p_value,
                verdict=c.verdict,
            )
            for c in cells
        ]
        moves, how = assemble(config, effects)
        new[(how, best in [m.describe() for m in moves])] += 1

        # The former flow: every change at one sample per eval, the best eight raced to four samples.
        def draw(rules, swapped, n):
            return np.mean([rng.random() < model.p(present(rules), index[e], swapped) for e in evals for _ in range(n)])

        b = draw(base, (), 4)
        first = {k: draw(*v, 1) - b for k, v in changes.items()}
        top = [k for k in sorted(first, key=lambda k: -first[k]) if first[k] > 0][:8]
        raced = {k: draw(*changes[k], 4) - b for k in top}
        helped = [k for k in sorted(raced, key=lambda k: -raced[k]) if raced[k] > 0]
        old[bool(helped) and helped[0] == best] += 1
    print(
        f"tune's screening ({budget} calls): best change in the winner {sum(v for (h, ok), v in new.items() if ok)}/{seeds} "
        f"(decided {new[('decided', True)]}, best bet {new[('promising', True)]}); chosen by: "
        f"{dict(Counter(h for (h, _) in new.elements()))}"
    )
    calls = (4 + len(changes)) * len(evals) + 8 * 3 * len(evals)
    print(f"former single-change screen + race ({calls} calls): best change picked {old[True]}/{seeds}")


def stopping_bias(effect: float, budget: int, seeds: int) -> None:
    """Issue 28.10: how far a decided cell's figure (its estimate at the deciding look) sits from the
    truth. A synthetic additive world (the Python suite's shape: 2 categories x 3 evals, 7 rules, one
    rule moving category a by ``effect``), the engine itself; prints the mean figure over the designs
    that decided the cell "helps", over all designs (the estimate at the last look it was open), and
    the truth."""
    import numpy as np

    from tuner.engine import Plan, run_engine

    categories = {"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2")}
    decided, every = [], []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        base = {e: rng.uniform(0.25, 0.6) for evals in categories.values() for e in evals}

        def observe(points, rng=rng, base=base):
            return [
                {
                    "m": bool(
                        rng.random()
                        < base[pt.eval_id] + (effect if pt.category == "a" and "r0" not in pt.dropped else 0.0)
                    )
                }
                for pt in points
            ], len(points)

        plan = Plan(
            rules=tuple(f"r{i}" for i in range(7)), evals=categories, models=("m",), budget_calls=budget, seed=seed
        )
        cell = next(c for c in run_engine(plan, observe).cells if c.rule == "r0" and c.category == "a")
        if cell.delta is not None:
            every.append(cell.delta)
            if cell.verdict == "helps":
                decided.append(cell.delta)
    print(
        f"truth {effect:+.3f}, budget {budget}: decided 'helps' in {len(decided)}/{seeds}, their figure at the deciding "
        f"look {np.mean(decided) if decided else float('nan'):+.3f}; every design's last estimate {np.mean(every):+.3f}"
    )


def log_link_fit(rows, rules):
    """``--link log`` (lab only, not in the engine, not calibrated): the pass bit read by a
    multiplicative model, log P(pass) = eval + sum of the dropped rules' log ratios (Poisson GLM,
    log link, HC0 errors: "modified Poisson"), and each rule's effect at the full prompt, mean over
    evals of P_full(e) x (1 - ratio), its error by the delta method. The planted mistakes compound
    multiplicatively, so this reads a rule's leave-one-out effect where the linear model reads its
    effect in prompts missing a dozen others (about half of it for some rules). Falls back to the
    linear fit where the GLM fails; the degrees of freedom, drops and identification are the linear
    fit's."""
    import warnings

    import numpy as np
    import statsmodels.api as sm

    from tuner.engine import fit
    from tuner.engine.design import _design_matrix

    linear = fit._LINEAR(rows, rules)
    if not rows:
        return linear
    names, X = _design_matrix(rows, rules)
    y = np.array([1.0 if ok else 0.0 for _, _, ok in rows])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = sm.GLM(y, X, family=sm.families.Poisson()).fit(cov_type="HC0")
    except Exception:  # noqa: BLE001 - a lab fallback: the linear reading
        return linear
    first = 1 + len(names)
    full = np.minimum(1.0, np.exp(res.params[0] + np.concatenate([[0.0], res.params[first:]])))
    out = dict(linear)
    for j, rule in enumerate(names, start=1):
        if rule not in linear or "@" in rule:
            continue
        b, se = float(res.params[j]), float(res.bse[j])
        _, _, df, drops = linear[rule]
        out[rule] = (
            float(full.mean() * (1 - math.exp(b))),
            max(1e-9, float(full.mean() * math.exp(b) * se)),
            df,
            drops,
        )
    return out


def sections_table(model: FastModel, categories: list[str]) -> None:
    """``--sections``: per category and section (a rule's folder under guidelines/rules/), the effect
    of leaving the whole section out of the full prompt, its rules and the true rules in it (what a
    sections-first design would screen on)."""
    import numpy as np

    library = model.h.guidelines.library
    full = np.ones(len(model.rules), bool)
    for cat in categories:
        idx = [i for i, e in enumerate(model.evals) if e.category == cat]
        base = np.mean([model.p(full, i) for i in idx])
        truth = model.truth(cat)
        sections: dict[str, list[int]] = {}
        for j, r in enumerate(model.rules):
            sections.setdefault(library.get(r).path.split("/")[-2], []).append(j)
        for name, js in sorted(sections.items()):
            present = full.copy()
            present[js] = False
            effect = base - np.mean([model.p(present, i) for i in idx])
            true = [f"{truth[model.rules[j]] * 100:+.1f}" for j in js if abs(truth[model.rules[j]]) >= DELTA]
            print(
                f"{cat} {name:12s} {len(js):2d} rules, section left out {effect * 100:+6.1f} points, true rules {true}"
            )


def _question_args(model: FastModel, categories: list[str], args) -> dict:
    """The Plan fields of the question levers (issue 29): ``--priority W`` weighs the cells of the
    rules ``--prefer`` names (targets: whose ``targets`` include the category; candidates: status
    candidate) W times the others' in each look's BH step; ``--only-preferred`` asks only those."""
    if args.priority is None and not args.only_preferred:
        return {}
    library = model.h.guidelines.library
    kinds = set(args.prefer.split("+"))

    def preferred(rule: str, category: str) -> bool:
        r = library.get(rule)
        return ("targets" in kinds and category in r.targets) or ("candidates" in kinds and r.status == "candidate")

    priority = {c: tuple(r for r in model.rules if preferred(r, c)) for c in categories}
    if args.only_preferred:  # fewer questions: only the preferred rules are randomised and judged
        return {"rules": tuple(sorted({r for rs in priority.values() for r in rs}))}
    return {"priority": priority, "priority_weight": args.priority}


def main() -> None:
    import numpy as np

    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default=None, help="suite folder (default: the project's)")
    parser.add_argument("--set", default="everything", help="the pool (ALL: every active and candidate rule)")
    parser.add_argument("--profile", default="careful")
    parser.add_argument("--categories", default="actions")
    parser.add_argument("--budget", type=int, default=2475)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--first-seed", type=int, default=0, help="--tune: the first of the seeds")
    parser.add_argument("--max-dropped", type=float, default=None)
    parser.add_argument("--max-share", type=float, default=None)
    parser.add_argument("--null", action="store_true", help="A/A: dropping rules changes nothing")
    # Fewer, better questions (issue 29; the "questions" session): see _question_args.
    parser.add_argument(
        "--priority", type=float, default=None, help="weighted BH: weight of the rules targeting the category"
    )
    parser.add_argument(
        "--prefer", default="targets", help="which rules --priority weighs: targets, candidates, targets+candidates"
    )
    parser.add_argument("--link", choices=("linear", "log"), default="linear", help="lab only: the pass bit's model")
    parser.add_argument("--sections", action="store_true", help="each section's effect left out whole, then stop")
    parser.add_argument(
        "--only-preferred", action="store_true", help="ask only the --prefer rules (the others always kept)"
    )
    parser.add_argument(
        "--modes",
        choices=("", "step", "signature", "mistake"),
        default="",
        help="read each rule through its failure modes: the first failing step, the grader's signature, or every mistake",
    )
    parser.add_argument("--by-rule", action="store_true", help="each true rule's effect and how often it is decided")
    parser.add_argument("--check", action="store_true", help="compare the fast model with the exact truth first")
    parser.add_argument(
        "--tune", action="store_true", help="what tune's screening makes the winner (see the docstring)"
    )
    parser.add_argument(
        "--bias",
        type=float,
        default=None,
        help="stopping bias of a decided cell's figure: a synthetic world with one rule worth this much",
    )
    args = parser.parse_args()
    if args.bias is not None:
        return stopping_bias(args.bias, args.budget, args.seeds)
    if args.suite:
        os.environ["TUNER_SUITE"] = args.suite
    model = FastModel(args.set, args.profile)
    if args.check:
        print(f"fast model vs exact truth: largest difference {model.check():.4f}")
    if args.tune:
        return tune_picks(model, args.categories.split(",")[0], args.budget, args.seeds, args.first_seed)
    categories = args.categories.split(",")
    if args.sections:
        return sections_table(model, categories)
    if args.link == "log":  # lab only (log_link_fit): the engine's pass-bit fit swapped for the run
        from tuner.engine import fit

        fit._LINEAR, fit._fit = fit._fit, log_link_fit
    truth = {c: model.truth(c) for c in categories}
    plan_args = {k: v for k, v in (("max_dropped", args.max_dropped), ("max_share", args.max_share)) if v is not None}
    plan_args |= _question_args(model, categories, args)
    recall, precision, false_alarms, any_flag, smallest = [], [], [], 0, []
    decided: dict[tuple[str, str], int] = {}  # (category, true rule): designs deciding it right
    start = time.perf_counter()
    for seed in range(args.seeds):
        out = run(model, categories, args.budget, seed, args.null, args.modes, **plan_args)
        any_flag += any(c.verdict in ("helps", "hurts") for c in out.cells)
        for cat in categories:
            real = {r for r, d in truth[cat].items() if abs(d) >= DELTA}
            nulls = {r for r, d in truth[cat].items() if abs(d) <= DELTA0}
            flagged = {c.rule: c.verdict for c in out.cells if c.category == cat and c.verdict in ("helps", "hurts")}
            hits = sum(1 for r, v in flagged.items() if r in real and (v == "helps") == (truth[cat][r] > 0))
            for r in real:
                right = r in flagged and (flagged[r] == "helps") == (truth[cat][r] > 0)
                decided[(cat, r)] = decided.get((cat, r), 0) + right
            judged = [r for r in flagged if r in real or r in nulls]
            recall.append(hits / len(real) if real else np.nan)
            precision.append(hits / len(judged) if judged else np.nan)
            false_alarms.append(sum(1 for r in flagged if r in nulls))
            right = [
                abs(truth[cat][r])
                for r, v in flagged.items()
                if abs(truth[cat][r]) > DELTA0 and (v == "helps") == (truth[cat][r] > 0)
            ]
            smallest.append(min(right) if right else np.nan)
    print(
        f"{args.profile} {args.categories} budget {args.budget}{' A/A' if args.null else ''} {args.modes or 'pass'}: "
        f"recall {np.nanmean(recall):.2f}, precision {np.nanmean(precision):.2f}, false alarms per design "
        f"{np.mean(false_alarms):.2f}, smallest true effect decided {np.nanmean(smallest):.3f}, designs flagging anything {any_flag}/{args.seeds} "
        f"({len(model.rules)} rules, {args.seeds} seeds, {time.perf_counter() - start:.0f} s)"
    )
    if model.unmapped:
        print(f"  read by their step alone (not in {_SIGNATURES.name}): {', '.join(sorted(model.unmapped))}")
    if args.by_rule:  # each true rule's effect and the share of designs deciding it (the measured MDE's makings)
        rows = sorted(decided.items(), key=lambda kv: -abs(truth[kv[0][0]][kv[0][1]]))
        print("  " + ", ".join(f"{truth[c][r] * 100:+.1f} {n / args.seeds:.2f}" for (c, r), n in rows))
        sure = [abs(truth[c][r]) for (c, r), n in rows if n / args.seeds < 0.8]
        print(f"  every true rule beyond {max(sure, default=0) * 100:.1f} points decided in >= 80% of the designs")


if __name__ == "__main__":
    main()
