"""The sequential confirmation's decisions and spending, on outcomes made up per (arm, eval, sample)
(no provider or grader: the answers come from a ``measure`` of its own, everything else is the real code)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from tuner.runs import RunOutcome
from tuner.tuning import TuneConfig, fresh_offset
from tuner.tuning.confirm_looks import _round_samples
from tuner.tuning.confirmation import confirm

CATS = ["alpha", "beta"]
TUNING = [f"{c}/t{i}" for c in CATS for i in range(6)]
HELD = [f"{c}/h{i}" for c in CATS for i in range(2)]


def _harness():
    evals = [SimpleNamespace(id=e, category=e.split("/")[0], held_out=e in HELD) for e in TUNING + HELD]
    return SimpleNamespace(
        suite=SimpleNamespace(evals=evals, select=lambda held_out: [e for e in evals if e.held_out == held_out])
    )


def _fake_runs(rate, calls_log):
    """``rate(arm, category)``: the pass probability; outcomes are a hash of (arm, eval, sample)."""

    def measure(selections, eval_ids, samples, offset=0):
        calls_log.append((tuple(eval_ids), samples, offset))
        groups = []
        for arm, (name, selection) in enumerate(selections):
            same = selection == selections[0][1]  # one run when both prompts are the same
            results = []
            for e in eval_ids:
                for i in range(offset, offset + samples):
                    draw = random.Random(f"{0 if same else arm}|{e}|{i}").random()
                    passed = draw < rate(0 if same else arm, e.split("/")[0])
                    results.append(
                        SimpleNamespace(
                            eval_id=e, category=e.split("/")[0], sample_index=i, outcome="pass" if passed else "fail"
                        )
                    )
            run = SimpleNamespace(id=f"run-{0 if same else arm}-{offset}", model="sim/careful", params={})
            groups.append(
                {
                    spec.key: RunOutcome(run=run, prompt=None, results=results, summary={}, new_calls=len(results))
                    for spec in SPECS
                }
            )
        return groups

    return measure


@pytest.fixture
def setup():
    log: list = []

    def use(rate):
        use.measure = _fake_runs(rate, log)
        return log

    return use


SPECS = [SimpleNamespace(key="sim/careful#0")]
CONFIG = TuneConfig(
    category="alpha",
    models=[{"model": "sim/careful"}],
    samples=4,
    tolerance=0.15,
    baseline="b",
    baseline_selection={},
    pool=["r"],
    eval_ids=TUNING,
)  # K = 12


def test_same_prompt_both_sides_is_decided_no_change_and_stops_early(setup):
    log = setup(lambda arm, cat: 0.7)
    fresh, held, spent = confirm(_harness(), CONFIG, SPECS, {"r": "default"}, {"r": "default"}, measure=setup.measure)
    assert spent.stopped == "decided" and spent.fixed_calls == 2 * (12 + 4) * 12
    # The looks are planned from the budget (twice the fixed design): 3, 3, 6, 12 samples per eval.
    assert spent.budget_calls == 2 * spent.fixed_calls and spent.planned_rounds == [3, 3, 6, 12]
    assert 0 < spent.calls < spent.budget_calls  # categories decided early got no more samples
    assert {r.paired.verdict for r in fresh + held} == {"no meaningful change"}
    # Every tuning eval and every held-out eval, from this study's own fresh window.
    assert set(log[0][0]) == set(TUNING + HELD) and log[0][2] == fresh_offset(CONFIG) >= 1_000_000


def test_a_large_gain_is_improved_and_an_unchanged_category_is_not_flagged(setup):
    setup(lambda arm, cat: 0.9 if (arm and cat == "alpha") else 0.5)
    fresh, held, spent = confirm(
        _harness(), CONFIG, SPECS, {}, {"r": "default"}, budget_calls=20_000, measure=setup.measure
    )
    verdicts = {r.category: r.paired.verdict for r in fresh}
    assert verdicts["alpha"] == "improved"
    assert verdicts["beta"] in ("no meaningful change", "undecided")
    improved = next(r for r in fresh if r.category == "alpha")
    assert improved.paired.q_value is not None and improved.paired.q_value < 0.05 and improved.paired.delta > 0.3


def test_budget_caps_the_calls_and_a_larger_budget_retraces_the_same_rounds(setup):
    log = setup(lambda arm, cat: 0.6 if arm else 0.5)
    small = confirm(_harness(), CONFIG, SPECS, {}, {"r": "default"}, budget_calls=300, measure=setup.measure)[2]
    assert small.stopped == "budget" and small.calls <= 300
    first = list(log)
    log.clear()
    large = confirm(_harness(), CONFIG, SPECS, {}, {"r": "default"}, budget_calls=3_000, measure=setup.measure)[2]
    assert large.calls > small.calls
    # The rounds the small budget ran whole come back identical (same evals, samples and offsets),
    # so the caches replay them; a cut last round is a prefix of the larger one's round.
    whole = [r for r in first if r[1] == _round_samples(12, first.index(r) + 1)]
    assert log[: len(whole)] == whole


def test_undecided_cells_say_so(setup):
    setup(lambda arm, cat: 0.55 if arm else 0.5)
    fresh, held, spent = confirm(
        _harness(), CONFIG, SPECS, {}, {"r": "default"}, budget_calls=200, measure=setup.measure
    )
    assert spent.stopped == "budget"
    assert "undecided" in {r.paired.verdict for r in fresh + held}


def test_a_category_is_sampled_until_a_drop_of_the_margin_is_ruled_out_and_a_replay_says_the_same(setup):
    """Every other category must rule out a drop of the margin (``tuner.tuning.noninferior``): tested
    at each look at its alpha share, and its evals sampled again until it is; a rerun replaying
    the looks replays the verdicts."""
    from tuner.tuning.confirm_looks import ConfirmLooks, MemoryLooks

    log = setup(lambda arm, cat: 0.9 if (arm and cat == "alpha") else (0.35 if arm else 0.5))  # beta: -15
    store = MemoryLooks()
    open_looks = lambda: ConfirmLooks.open(store, CONFIG.hash, "sel")  # noqa: E731
    kw = dict(budget_calls=3_000, measure=setup.measure)
    fresh, held, spent = confirm(_harness(), CONFIG, SPECS, {}, {"r": "default"}, looks=open_looks(), **kw)
    [cell] = spent.noninferiority
    assert cell.category == "beta" and cell.margin == 0.15 and cell.model == "sim/careful (simulator)"
    assert not cell.shown and cell.lo <= -0.15 and cell.look == spent.looks
    # Its evals were in every round, to the last (the target's stopped once decided "improved").
    assert all(any(e.startswith("beta/") for e in evals) for evals, _, _ in log)
    again = confirm(_harness(), CONFIG, SPECS, {}, {"r": "default"}, looks=open_looks(), **kw)[2]
    assert again.noninferiority == spent.noninferiority and again.alpha_spent == spent.alpha_spent


def test_an_unchanged_category_is_shown_non_inferior_at_a_look_and_its_level_is_that_looks_share(setup):
    setup(lambda arm, cat: 0.9 if (arm and cat == "alpha") else 0.5)
    spent = confirm(_harness(), CONFIG, SPECS, {}, {"r": "default"}, budget_calls=20_000, measure=setup.measure)[2]
    [cell] = spent.noninferiority
    assert cell.shown and cell.lo > -0.15 and 0 < cell.level < 0.05 and cell.pairs > 0
