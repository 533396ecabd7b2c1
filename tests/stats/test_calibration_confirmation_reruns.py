"""Calibration: tune's confirmation over reruns with a larger ``--budget-calls`` is one sequential test
(``tuner.tuning.confirm_looks``), through the product's functions: the regression ``check``,
``confirm`` with what the cap leaves and the experiment's looks (its budget growing with the cap,
as tune's), ``accept`` and, once accepted, the
publish ``gate`` at its first look.

A user runs ``tune`` at the default cap, then again at 2x, 4x and 8x (three reruns, the "continue"
command's way), each rerun while nothing was accepted. The screening is not simulated: an undecided
one spends its share of the cap (``screen_budget``) and hands on a change; in the worst case for the
confirmation's error it hands on a *different* change each time (the screening went on and its best
bet moved), each worth exactly ``delta0`` (2 points) on the target: the zone's boundary, where a
false "improved" is likeliest (at most alpha / 2 over all looks, ``test_calibration_confirmation.py``).
Shapes: the Python suite (3 + 1 evals per category, the smallest the product ships; default cap 600)
and Convex (9-12 + 3 evals in 8 categories; 2,475).

Measured (the figures are the docstrings' of each test) against the former confirmation, which
planned every invocation afresh and spent all of alpha over its looks: see each test.
"""

from __future__ import annotations

from collections import Counter

from test_calibration_tune_path import shape

from tuner.stats import ALPHA
from tuner.tuning.acceptance import ACCEPTED, accept
from tuner.tuning.budgets import confirm_budget, regression_samples, screen_budget
from tuner.tuning.confirm_looks import ConfirmLooks, MemoryLooks
from tuner.tuning.confirmation import confirm
from tuner.tuning.records import Change
from tuner.tuning.screen import candidates_of, check
from tuner.tuning.simulate import Term, World
from tuner.tuning.space import selection_hash

RULES = ("r1", "r2", "r3", "r4", "r5")
CANDIDATES = ("c1", "c2", "c3", "c4")
CAPS = {"suites/python": 600, "evals": 2475}
TARGET = {"suites/python": "data", "evals": "actions"}
RERUNS = (1, 2, 4, 8)  # the first invocation's cap, then three reruns at these multiples


def world(suite: str, gain: float) -> World:
    """Each candidate adds ``gain`` to every target eval (and nothing elsewhere)."""
    return World(
        shape=shape(suite),
        target=TARGET[suite],
        baseline=RULES,
        candidates=CANDIDATES,
        terms=tuple(Term((c,), {TARGET[suite]: gain}) for c in CANDIDATES),
        target_rates=(0.3, 0.6),
    )


def reruns(w: World, seed: int, suite: str, picks: list[str], *, continued: bool = True) -> list[dict]:
    """One user's invocations (module doc): per invocation, tune's decision, and whether the publish
    gate (its first look, 12 samples) then refused nothing. ``continued`` False: the mutant, each
    invocation a fresh test (its own looks, as if nothing had been spent)."""
    from tuner.publish.gate import gate, gate_offset
    from tuner.stats.zones import continued_level

    config, specs, measure, view = w.config(seed), w.specs(), w.measure(seed), w.suite()
    target = [e.id for e in view.suite.evals if e.category == config.category and not e.held_out]
    held = [e.id for e in view.suite.evals if e.held_out]
    store = MemoryLooks()
    out = []
    for times, pick in zip(RERUNS, picks):
        cap = CAPS[suite] * times
        checked = check(
            config, candidates_of(config, [Change(kind="add", rule=pick)]), measure, samples=regression_samples(config)
        )
        if checked.winner is None:
            out.append({"decision": "no change", "published": False})
            continue
        left = max(0, cap - config.samples * len(target) - screen_budget(cap) - checked.calls)
        looks = ConfirmLooks.open(store if continued else MemoryLooks(), config.hash, selection_hash(checked.winner))
        fresh, held_rows, spent = confirm(
            view,
            config,
            specs,
            config.baseline_selection,
            checked.winner,
            budget_calls=confirm_budget(config, len(held), len(specs), left, cap=cap),
            measure=measure,
            looks=looks,
        )
        decision = accept(
            config.category,
            fresh,
            held_rows,
            changed=True,
            noninferiority=spent.noninferiority,
            margin=config.tolerance,
        ).decision
        published = False
        if decision == ACCEPTED:
            groups = measure(
                [("today", dict(config.baseline_selection)), ("candidate", checked.winner)],
                held,
                12,
                gate_offset(f"world:{sorted(checked.winner)}", f"world:{sorted(config.baseline_selection)}"),
            )
            first = continued_level(ALPHA, 12, [], None)
            cats = sorted({e.category for e in view.suite.evals if e.held_out})
            _, status = gate(groups, config.tolerance, cats, ni_alpha=first, drop_alpha=first)
            published = status not in ("regressed", "not measured")
        out.append({"decision": decision, "published": published, "alpha_spent": spent.alpha_spent})
        if decision == ACCEPTED:
            break  # accepted: the user publishes, no rerun
    return out


def rates(suite: str, gain: float, seeds: int, picks: list[str], **kw) -> dict[str, float]:
    w = world(suite, gain)
    count: Counter = Counter()
    for seed in range(seeds):
        runs = reruns(w, seed, suite, picks, **kw)
        count["accepted at the first"] += runs[0]["decision"] == ACCEPTED
        count["accepted"] += any(r["decision"] == ACCEPTED for r in runs)
        count["published"] += any(r["published"] for r in runs)
        count["alpha spent at most alpha"] += max(r.get("alpha_spent", 0.0) for r in runs) <= ALPHA
    return {k: v / seeds for k, v in count.items()}


def _boundary_improved(seeds: int, *, continued: bool, former: bool = False) -> float:
    """The confirmation alone where each look is least conservative: 3 target evals, a budget of 24
    samples per eval and then 48, 96 and 192 (``--confirm-budget`` raised at each rerun), a new
    selection worth exactly +delta0 each time. The share of users told "improved" at some rerun."""
    from tuner.stats.zones import Zone
    from tuner.tuning.simulate import Shape

    w = World(
        shape=Shape.of({"t": (3, 0)}),
        target="t",
        baseline=("r",),
        candidates=CANDIDATES,
        terms=tuple(Term((c,), {"t": 0.02}) for c in CANDIDATES),
        rates=(0.3, 0.8),
    )
    zone = Zone()
    hits = 0
    for seed in range(seeds):
        config, measure, store = w.config(seed), w.measure(seed), MemoryLooks()
        for times, pick in zip(RERUNS, CANDIDATES):
            best = {"r": "default", pick: "default"}
            looks = ConfirmLooks.open(store if continued else MemoryLooks(), config.hash, selection_hash(best))
            if former:  # the former confirmation: all of alpha over each invocation's own looks
                plan = looks.plan(12, 6, 6 * 24 * times)
                looks.spending = lambda cum, z, plan=plan: [
                    z.spend_planned(a / plan[-1], b / plan[-1]) for a, b in zip([0, *plan], plan)
                ]
            fresh, _, _ = confirm(
                w.suite(),
                config,
                w.specs(),
                {"r": "default"},
                best,
                budget_calls=6 * 24 * times,
                measure=measure,
                looks=looks,
                zone=zone,
            )
            if any(r.paired.verdict == "improved" for r in fresh):
                hits += 1
                break
    return hits / seeds


def test_reruns_on_changing_selections_stay_within_the_boundary_bound():
    """Measured (200): one experiment 0.025 (the bound, alpha / 2: a boundary change is called
    "improved" on one side only); the mutant, the former confirmation (each invocation all of alpha
    over its own looks), 0.090."""
    rate = _boundary_improved(200, continued=True)
    former = _boundary_improved(200, continued=False, former=True)
    print(f"+delta0 called improved over 3 reruns: {rate:.3f}; the mutant (fresh alpha per rerun) {former:.3f}")
    assert rate <= ALPHA / 2
    assert former > ALPHA / 2


def test_a_change_worth_delta0_is_accepted_within_alpha_over_three_reruns_on_the_smallest_suite():
    """The product's path on the Python suite, a different +delta0 change at each of the four
    invocations. Measured (200): accepted 0.000 with the acceptance's margin (0.005 without it, at
    the first invocation); the former confirmation 0.025 (0.015). On Convex (200, ``/tmp`` script in the note): 0.010 against the
    former 0.055 (0.015 at the first), above alpha."""
    r = rates("suites/python", 0.02, 200, list(CANDIDATES))
    print("python, +delta0, changing selections:", r)
    assert r["accepted"] <= ALPHA / 2


def test_a_clear_win_is_still_accepted_and_published_without_force():
    """+30 points on the target (the same change at every invocation; a user reruns while it is not
    accepted), on the smallest suite (3 target evals). Measured (100): accepted at the first
    invocation 0.14, within the three reruns 0.99, every one published (the gate refused none).
    Here the screening is charged its whole share of the cap, so the first invocation's
    confirmation has 16 samples per eval at most, and the acceptance needs a drop of 15 points ruled
    out on text (``tuner.tuning.noninferior``): the first invocation rarely shows it, a rerun (its
    confirmation budget grows with the cap, ``budgets.confirm_budget``) does. Before the margin was
    required, and when the confirmation's budget stopped at twice its fixed design: 0.54 and 0.69."""
    r = rates("suites/python", 0.30, 100, ["c1"] * 4)
    print("python, +30:", r)
    assert r["accepted at the first"] >= 0.05 and r["accepted"] >= 0.90
    assert r["published"] == r["accepted"]
