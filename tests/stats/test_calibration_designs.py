"""Calibration: the ablation designs at 3 evals per category (seeded, >= 200 repetitions).

- screening (``rule_effects``: OLS, HC3, Student t, then BH across rules x categories in
  ``finalize``): per-rule size and the share of A/A repetitions flagging anything, each <= 5%;
  coverage of each rule's 95% interval >= 93% when rules have additive effects.
- loo / add (``paired_compare`` against the reference, BH in ``finalize``): A/A flags <= 5%.
- adaptive (``run_engine`` on synthetic data): A/A flags over all its looks <= 5%.
"""

import numpy as np
import pytest

from tuner.ablation.effects import Effect, finalize, rule_effects
from tuner.engine import Plan, run_engine
from tuner.stats import ALPHA, paired_compare
from tuner.stats.simulate import World, task_rates
from tuner.stats.zones import HELPS, HURTS, Zone

TASKS = 3
RULES = [f"r{i}" for i in range(6)]
RUNS = 8  # default_screening_runs(6)
SEEDS = 300


def _screen(rng, effects: dict[str, float], rho: float = 0.3):
    """One category's screening rows: each (eval, run) cell includes each rule with probability
    1/2; the pass probability is the eval's rate plus the included rules' additive effects."""
    base = task_rates(rng, 0.5, rho, TASKS) * 0.6 + 0.2  # keep room for the effects in [0, 1]
    rows = []
    for e in range(TASKS):
        for _ in range(RUNS):
            chosen = {r for r in RULES if rng.random() < 0.5}
            p = base[e] + sum(effects.get(r, 0.0) for r in chosen)
            rows.append((chosen, f"e{e}", bool(rng.random() < p)))
    return rows


def _screening_a_a(seeds: int = SEEDS) -> tuple[float, float]:
    """(per-rule size, share of repetitions flagging anything) of the screening in an A/A."""
    rng = np.random.default_rng(1)
    per_rule, family = [], 0
    for _ in range(seeds):
        effects = []
        for cat in ("a", "b"):
            fit = rule_effects(_screen(rng, {}), RULES)
            effects += [
                Effect(rule=r, model="m", category=cat, delta=fit[r][0], lo=fit[r][1], hi=fit[r][2], p_value=fit[r][3])
                for r in RULES
            ]
        per_rule += [e.p_value < ALPHA for e in effects]
        family += any(e.verdict != "no detectable effect" for e in finalize(effects, {}))
    return float(np.mean(per_rule)), family / seeds


def test_screening_a_a_size_per_rule_and_family():
    """Measured (300): per rule 0.022, any flag 0.013."""
    size, family = _screening_a_a()
    print(f"screening A/A: per rule {size:.3f}, any flag {family:.3f}")
    assert size <= ALPHA, size
    assert family <= ALPHA, family


@pytest.mark.parametrize("mutant", ["BH removed", "HC1 with a normal reference"])
def test_the_screening_checks_fail_on_a_fit_without_its_error_control(monkeypatch, mutant):
    """Mutants: every cell at alpha alone (the family check must fail), and the former fit's
    errors, HC1 with a normal reference (the per-rule size check must fail). Measured: any flag 0.203
    without BH; per rule 0.088 with HC1 + normal."""
    import statsmodels.regression.linear_model as lm

    import tuner.ablation.effects as effects

    if mutant == "BH removed":
        monkeypatch.setattr(effects, "bh_adjust", lambda ps: list(ps))
    else:
        real = lm.OLS.fit
        monkeypatch.setattr(lm.OLS, "fit", lambda self, *a, **kw: real(self, cov_type="HC1", use_t=False))
    size, family = _screening_a_a()
    print(f"screening A/A, mutant {mutant}: per rule {size:.3f}, any flag {family:.3f}")
    assert (family if mutant == "BH removed" else size) > ALPHA


def test_screening_intervals_cover_additive_effects():
    truth = {"r0": 0.15, "r1": -0.15, "r2": 0.05}
    rng = np.random.default_rng(2)
    covered = {r: 0 for r in RULES}
    for _ in range(SEEDS):
        fit = rule_effects(_screen(rng, truth, rho=0.0), RULES)
        for r in RULES:
            covered[r] += fit[r][1] <= truth.get(r, 0.0) <= fit[r][2]
    assert min(covered.values()) / SEEDS >= 0.93, covered


def _loo_a_a(seeds: int = 200) -> float:
    """A reference and one variant per rule, all the same prompt in effect; BH across rules x
    categories as ``finalize`` does. 8 samples per eval: with fewer, an exact McNemar on 3 evals
    cannot reach the BH threshold at all and the check would be empty."""
    rng = np.random.default_rng(3)
    family = 0
    for _ in range(seeds):
        effects = []
        for cat, world in (("a", World(0.4, 0.3)), ("b", World(0.7, 0.6))):
            rates = task_rates(rng, world.mu, world.rho, (TASKS, 1))
            draw = lambda: {f"e{i}": list(map(bool, row)) for i, row in enumerate(rng.random((TASKS, 8)) < rates)}  # noqa: E731
            reference = draw()
            for rule in RULES:
                pr = paired_compare(draw(), reference)
                effects.append(
                    Effect(rule=rule, model="m", category=cat, delta=pr.delta, lo=pr.lo, hi=pr.hi, p_value=pr.p_value)
                )
        family += any(e.verdict != "no detectable effect" for e in finalize(effects, {}))
    return family / seeds


def test_leave_one_out_a_a_flags_nothing():
    rate = _loo_a_a()
    print(f"loo A/A any flag: {rate:.3f}")
    assert rate <= ALPHA, rate


def test_the_leave_one_out_check_fails_without_bh(monkeypatch):
    """Mutant: every rule x category at alpha alone. Measured: any flag 0.095 (0.005 with BH)."""
    import tuner.ablation.effects as effects

    monkeypatch.setattr(effects, "bh_adjust", lambda ps: list(ps))
    rate = _loo_a_a()
    print(f"loo A/A without BH: {rate:.3f}")
    assert rate > ALPHA


def test_adaptive_a_a_flags_nothing_over_its_looks():
    categories = {"a": ("a/0", "a/1", "a/2"), "b": ("b/0", "b/1", "b/2")}
    rules = RULES[:4]
    flagged = looks = 0
    for seed in range(200):
        rng = np.random.default_rng(seed)
        base = {e: r for evals in categories.values() for e, r in zip(evals, task_rates(rng, 0.5, 0.3, TASKS))}

        def observe(points, rng=rng, base=base):
            return [{"m": bool(rng.random() < base[p.eval_id])} for p in points], len(points)

        out = run_engine(
            Plan(rules=tuple(rules), evals=categories, models=("m",), budget_calls=300, zone=Zone(), seed=seed), observe
        )
        looks += out.rounds
        flagged += any(c.verdict in (HELPS, HURTS) for c in out.cells)
    print(f"adaptive A/A any flag: {flagged / 200:.3f}, mean looks {looks / 200:.1f}")
    assert looks / 200 >= 2  # optional stopping is exercised
    assert flagged / 200 <= ALPHA, flagged
